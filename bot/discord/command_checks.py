"""What the command tree checks before a command runs: where it is used and what it was sent.

discord.py registers ``guild_only`` (the ``allowed_contexts`` of a command or of its
group) with Discord, but does not check it when an interaction arrives; and it
hands option values to the command as Discord sent them. Neither can be taken for
granted: Discord keeps sending an older definition of a command for up to an hour
after it changed, and a malformed request can carry anything. ``check_command``
turns both into the errors discord.py itself uses for them (``NoPrivateMessage``,
``CommandSignatureMismatch``), or — for a value of the right type outside an option's
range or choices — a refusal that says which values it takes; the tree's ``on_error``
answers all of them privately.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord
from discord import AppCommandOptionType, app_commands

from bot.store.errors import ServiceError

Command = app_commands.Command[Any, ..., Any]

# The Python types of the option values discord.py passes on untouched.
_VALUE_TYPES: dict[AppCommandOptionType, tuple[type, ...]] = {
    AppCommandOptionType.string: (str,),
    AppCommandOptionType.integer: (int,),
    AppCommandOptionType.number: (int, float),
    AppCommandOptionType.boolean: (bool,),
}
_NESTING = (AppCommandOptionType.subcommand.value, AppCommandOptionType.subcommand_group.value)


def guild_only(command: Command | app_commands.Group) -> bool:
    """Whether the command, or a group it belongs to, may not be used outside a server."""
    node: Command | app_commands.Group | None = command
    while node is not None:
        contexts = node.allowed_contexts
        if node.guild_only or (
            contexts is not None and not (contexts.dm_channel or contexts.private_channel)
        ):
            return True
        node = node.parent
    return False


def leaf_options(data: Mapping[str, Any]) -> Sequence[Mapping[str, Any]]:
    """The options given to the command itself (below its group and subcommand)."""
    options: Sequence[Mapping[str, Any]] = data.get("options") or []
    while options and options[0].get("type") in _NESTING:
        options = options[0].get("options") or []
    return options


def value_fits(param: app_commands.Parameter, value: object, *, limits: bool = True) -> bool:
    """Whether ``value`` is of the parameter's type (and, with ``limits``, one of its choices
    and within its range or length)."""
    types = _VALUE_TYPES.get(param.type)
    if types is None:  # members, channels, roles, attachments: discord.py resolves those
        return True
    if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
        return False
    if not limits:
        return True
    if param.choices and value not in {c.value for c in param.choices}:
        return False
    size = len(value) if isinstance(value, str) else value
    assert isinstance(size, int | float)
    if param.min_value is not None and size < param.min_value:
        return False
    return param.max_value is None or size <= param.max_value


def check_options(interaction: discord.Interaction[Any], command: Command) -> None:
    """CommandSignatureMismatch unless every option is one the command has, with a value
    it accepts. While a member types (autocomplete), the focused option is only text."""
    params = {p.display_name: p for p in command.parameters}
    typing = interaction.type is discord.InteractionType.autocomplete
    for option in leaf_options(interaction.data or {}):
        param = params.get(str(option.get("name")))
        if param is None or option.get("type") != param.type.value:
            raise app_commands.CommandSignatureMismatch(command)
        value = option.get("value")
        if typing and option.get("focused"):
            fits = isinstance(value, str)
        else:
            fits = value_fits(param, value, limits=not typing)
        if not fits and not typing and value_fits(param, value, limits=False):
            raise out_of_limits(param)  # the right type, but not one Discord's app would send
        if not fits:
            raise app_commands.CommandSignatureMismatch(command)


class OptionRefusal(ServiceError, app_commands.AppCommandError):
    """An option value outside its limits: a refusal (ServiceError) that the command tree
    hands to its error handler (AppCommandError)."""


def out_of_limits(param: app_commands.Parameter) -> OptionRefusal:
    """A refusal that says which values the option takes."""
    if param.choices:
        values = ", ".join(str(c.value) for c in param.choices)
        return OptionRefusal("error.option_choices", option=param.display_name, values=values)
    return OptionRefusal(
        "error.option_range",
        option=param.display_name,
        low="" if param.min_value is None else f"{param.min_value:g}",
        high="" if param.max_value is None else f"{param.max_value:g}",
    )


def check_command(interaction: discord.Interaction[Any]) -> None:
    """Refuse a command used outside a server if it is guild-only, or sent with options it
    does not have; an unknown command is left to the tree (it raises CommandNotFound)."""
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return
    if interaction.guild_id is None and guild_only(command):
        raise app_commands.NoPrivateMessage()
    check_options(interaction, command)


__all__ = [
    "OptionRefusal",
    "check_command",
    "check_options",
    "guild_only",
    "leaf_options",
    "out_of_limits",
    "value_fits",
]

"""The base of cogs whose slash commands live under the shared ``/af`` group.

discord.py gives each ``GroupCog`` a group of its own; here several cogs add
their commands to one group the bot owns. Commands marked ``extras={"af": True}``
are moved into ``/af`` when the cog loads and removed when it unloads. A cog's
persistent buttons (``items``) are registered as it loads, wired to the cog: their
clicks call it directly, never through the bot object, and they ask the interactions'
owners the cog was given whether this process acts on them, and refuse clicks while the
bot stops (the gate it was given). Every cog is built by the factory (``bot.factory.
build_parts``), handed the parts it uses (``/af`` among them: the group the client made),
and added to the client with discord.py's ``add_cog`` when the bot logs in; it reads no
part off the client.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.components import wired
from bot.discord.owners import InteractionOwners
from bot.discord.replies import locale_of
from bot.discord.shutdown import Gate
from bot.play.held_games import HeldGames
from bot.play.orphan_service import OrphanService
from bot.text.autocomplete_words import orphan_choice

if TYPE_CHECKING:
    from bot.discord.client import AlienFrontiersBot
    from bot.discord.delivery import DeliveryWorker
    from bot.play.games import ActiveGame

AF: dict[str, Any] = {"af": True}


class AfCog(commands.Cog):
    """A cog whose commands marked with ``extras=AF`` are subcommands of ``/af``."""

    # The persistent items whose clicks this cog answers (their ``handler``).
    items: ClassVar[tuple[type[discord.ui.DynamicItem[Any]], ...]] = ()

    def __init__(
        self,
        bot: AlienFrontiersBot,
        *,
        owners: InteractionOwners,
        gate: Gate,
        af_group: app_commands.Group,
    ) -> None:
        self.bot = bot  # discord.py's: its dynamic items added, removed; Discord's cache
        self.owners = owners
        self.gate = gate  # the stop's gate: the cog's items refuse clicks while it stops
        self.af_group = af_group  # /af, where the cog's commands marked ``AF`` go
        self._af_names: list[str] = []
        self._items: list[type[discord.ui.DynamicItem[Any]]] = []

    async def cog_load(self) -> None:
        self._items = [
            wired(i, handler=self, gate=self.gate, owners=self.owners) for i in self.items
        ]
        self.bot.add_dynamic_items(*self._items)
        group = self.af_group
        keep: list[app_commands.Command[Any, ..., Any] | app_commands.Group] = []
        for command in self.__cog_app_commands__:
            if command.extras.get("af"):
                group.add_command(command)
                self._af_names.append(command.name)
            else:
                keep.append(command)
        self.__cog_app_commands__ = keep

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*self._items)
        for name in self._af_names:
            self.af_group.remove_command(name)
        self._af_names.clear()


class TableCog(AfCog):
    """A cog that changes who sits at a game (Lobby, Seats): given the games in memory
    (the channel's game), its jobs of the game service (each subclass its own), whose
    changes queue what the channel must see of them; the deliveries (to deliver that at
    once, the member's answer with it); and ``schedule_ai`` to start the AI seat a change
    may leave to act."""

    def __init__(
        self,
        bot: AlienFrontiersBot,
        *,
        owners: InteractionOwners,
        gate: Gate,
        af_group: app_commands.Group,
        games: HeldGames,
        deliveries: DeliveryWorker,
        schedule_ai: Callable[[ActiveGame], None],
    ) -> None:
        super().__init__(bot, owners=owners, gate=gate, af_group=af_group)
        self.games = games
        self.deliveries = deliveries
        self.schedule_ai = schedule_ai


async def orphan_choices(
    orphans: OrphanService, interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[int]]:
    """The member's orphaned games (the games they host whose channel is gone)."""
    locale = locale_of(interaction)
    out = []
    for row in await orphans.orphaned(interaction.user.id):
        channel = interaction.client.get_channel(row.channel_id)
        name = orphan_choice(row, f"#{getattr(channel, 'name', row.channel_id)}", locale)
        if current.strip() in name:
            out.append(app_commands.Choice(name=name[:100], value=row.id))
    return out[:25]

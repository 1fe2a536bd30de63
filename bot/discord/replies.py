"""Small helpers to answer interactions: locale, ephemeral replies, the apology for a bug.

Unexpected errors are logged with the command (or component), user, channel and
arguments, and the user gets a short apology instead of silence.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import discord

from bot.text import i18n
from bot.text.strings import text

log = logging.getLogger("bot.store.errors")


def locale_of(interaction: discord.Interaction[Any], guild: bool = False) -> str:
    """The catalogue language for the user (or, with ``guild``, the server), English if none."""
    raw = interaction.guild_locale if guild else interaction.locale
    return i18n.language_of(raw.value if raw is not None else None)


def jump_url(guild_id: int | None, channel_id: int, message_id: int) -> str:
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"


async def send_ephemeral(interaction: discord.Interaction[Any], content: str) -> None:
    """Answer privately, whether or not the interaction was answered or deferred already.

    An autocomplete request can only be answered with choices: it gets none.
    """
    content = content[:2000]
    if interaction.type is discord.InteractionType.autocomplete:
        if not interaction.response.is_done():
            await interaction.response.autocomplete([])
    elif interaction.response.is_done() and not getattr(
        interaction.response, "deferred_late", False
    ):
        await interaction.followup.send(content, ephemeral=True)
    else:  # (after a late deferral: its "thinking…" is replaced, bot.discord.deferral)
        await interaction.response.send_message(content, ephemeral=True)


@asynccontextmanager
async def holding(lock: asyncio.Lock, interaction: discord.Interaction[Any]) -> AsyncIterator[None]:
    """Hold a game's lock for a command. If it is busy (an AI is thinking its move), the
    interaction is deferred privately first, so Discord's 3-second deadline is met."""
    if lock.locked() and not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)
    async with lock:
        yield


def describe_interaction(interaction: discord.Interaction[Any]) -> str:
    """Command or component, user, channel and arguments, for the log."""
    data: dict[str, Any] = dict(interaction.data or {})
    if interaction.command is not None:
        what = f"/{interaction.command.qualified_name}"
        try:
            args = {k: v for k, v in interaction.namespace}
        except (ValueError, TypeError, KeyError):  # options discord.py cannot read
            args = {"options": data.get("options")}
    elif "name" in data:  # a command this bot does not have (any more)
        what, args = f"unknown command /{data['name']}", {"options": data.get("options")}
    else:
        what = f"component {data.get('custom_id')!r}"
        args = {"values": data.get("values")} if data.get("values") else {}
    user = interaction.user
    return (
        f"{what} by {user} ({user.id}) in channel {interaction.channel_id} "
        f"(guild {interaction.guild_id}) with {args}"
    )


async def report_unexpected(
    interaction: discord.Interaction[Any], error: BaseException, where: str = ""
) -> None:
    """Log a bug with its context and apologise to the user (privately)."""
    log.error(
        "Unexpected error%s in %s",
        f" ({where})" if where else "",
        describe_interaction(interaction),
        exc_info=(type(error), error, error.__traceback__),
    )
    try:
        await send_ephemeral(interaction, text("error.unexpected", locale_of(interaction)))
    except discord.HTTPException:
        log.warning("could not send the apology for interaction %s", interaction.id)

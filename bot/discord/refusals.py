"""One answer to every refusal, wherever it is raised: a private reply saying why.

Commands (``CommandTree.on_error``), panel clicks and the turn controller all end in
``refuse``: a refusal of the rules (``EngineError``: an illegal action, bad notation) or
of the bot (``ServiceError``) is shown with its reason; an outdated panel
(``StalePanelError``) points to the current one; the bot stopping, a command Discord
still shows in an older form, a command used outside a server or by someone not allowed
each get their sentence. The database busy or refusing writes before anything was
committed gets "the database is busy, nothing was changed, try again in a minute" (a
committed move never reaches here: it is answered as committed). A passing fault before
anything changed (Discord's 5xx, a reset connection) is one WARNING line, and the apology
if it can still be sent; an interaction that expired, or was answered already (40060: by
another process over the database), is one WARNING line and nothing more — a second answer
never. Anything else is a bug: logged with its context, apologised for
(``bot.discord.replies.report_unexpected``).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from bot.discord.failures import CALL_FAULTS, is_database_fault, is_expired, judge
from bot.discord.replies import (
    describe_interaction,
    jump_url,
    locale_of,
    report_unexpected,
    send_ephemeral,
)
from bot.discord.shutdown import ShuttingDown
from bot.play.games import MoveUnsure
from bot.store.errors import ServiceError, StalePanelError
from bot.text.spoken import plain
from bot.text.strings import text
from engine import EngineError

log = logging.getLogger(__name__)


def refusal(error: Exception, locale: str = "en", names: Sequence[str] = ()) -> str:
    """The reason for a refusal of the rules or of the bot, ready to show."""
    if isinstance(error, EngineError):
        reason = text(error.key, locale, error.params, names)
    else:
        key = getattr(error, "key", "error.unexpected")
        params = getattr(error, "params", {})
        reason = text(key, locale, params)
    return text("refusal", locale, {"reason": reason})


def refusal_text(
    interaction: discord.Interaction[Any], error: BaseException, names: Sequence[str] = ()
) -> str | None:
    """What to answer ``error`` with; None when it is no refusal but a bug."""
    locale = locale_of(interaction)
    if isinstance(error, StalePanelError):
        if error.message_id is None or interaction.channel_id is None:
            return text("panel.gone", locale)
        link = jump_url(interaction.guild_id, interaction.channel_id, error.message_id)
        return text("panel.stale", locale, {"link": link})
    if isinstance(error, (ServiceError, EngineError)):
        return refusal(error, locale, names)
    if isinstance(error, ShuttingDown):
        return text("error.shutting_down", locale)
    if isinstance(error, MoveUnsure):  # neither done nor refused: the turn message will say
        return text("play.unsure", locale)
    if isinstance(error, (app_commands.CommandNotFound, app_commands.CommandSignatureMismatch)):
        log.info("outdated command (%s): %s", error, describe_interaction(interaction))
        return text("error.command_changed", locale)
    if isinstance(error, app_commands.NoPrivateMessage):
        return text("error.guild_only", locale)
    if isinstance(error, app_commands.CheckFailure):
        return text("error.not_allowed", locale)
    return None


async def refuse(
    interaction: discord.Interaction[Any],
    error: BaseException,
    names: Sequence[str] = (),
    where: str = "",
    plainly: bool = False,
) -> None:
    """Answer ``error`` privately: its reason (with the seats' ``names``), or, for a bug,
    the apology (logged as having happened in ``where``); ``plainly``: for a member in
    screen-reader mode, without the ⛔ a screen reader reads as "no entry"."""
    if is_expired(error):  # expired, or answered already (by another process): no answer
        log.warning("%s: %s; not answered", describe_interaction(interaction), judge(error))
        return
    content = refusal_text(interaction, error, names)
    if content is not None and plainly:
        content = plain(content, locale_of(interaction))
    if content is None and is_database_fault(error):
        # The database busy or refusing writes (another program holding SQLite's lock, a
        # PostgreSQL failover) before anything was committed: nothing changed, say so.
        log.warning("%s: %s; nothing was changed", describe_interaction(interaction), judge(error))
        with contextlib.suppress(*CALL_FAULTS):
            await send_ephemeral(interaction, text("error.database_busy", locale_of(interaction)))
    elif content is None and judge(error).kind == "retry":
        # A passing fault before anything changed (Discord's 5xx, a reset connection): no
        # bug, nothing to undo; they may try again.
        log.warning("%s: %s; nothing was changed", describe_interaction(interaction), judge(error))
        with contextlib.suppress(*CALL_FAULTS):
            await send_ephemeral(interaction, text("error.unexpected", locale_of(interaction)))
    elif content is None:
        await report_unexpected(interaction, error, where)
    else:
        try:
            await send_ephemeral(interaction, content)
        except CALL_FAULTS as e:  # expired (10062), answered already (40060), Discord away
            log.info("%s: its refusal not sent: %s", describe_interaction(interaction), e)


__all__ = ["refusal", "refusal_text", "refuse"]

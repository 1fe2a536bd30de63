"""One answer path per interaction, and the deferral that keeps Discord's 3-second deadline.

Discord takes an interaction's first answer within 3 seconds, else the member sees "This
interaction failed" and any later answer is refused (10062). Work that waits on the
database (another program holding SQLite's write lock, a PostgreSQL failover) takes
longer. So every interaction the bot works on is watched (``watch``, from the checks
every command and component passes first): still unanswered after
``Settings.defer_after_seconds`` (2 s) while its handler runs, it is deferred — a command
privately ("thinking…"), a click as an acknowledged update of its message — and its
answer then comes as a follow-up, for up to 15 minutes.

The deferral and the handler's own answer must never cross: discord.py records that an
interaction was answered only once Discord's reply is back, so a check "not answered yet"
followed by a deferral could race an answer in flight. Every watched interaction's
``response`` is therefore a ``GuardedResponse`` (installed by ``watch`` itself, in the
first check every command and component passes, before anything answers it: nothing can
be deferred that is not watched), whose answers take one lock: the deferral waits for an
answer in flight and then does nothing; an answer made after the deferral becomes its
follow-up (a private message, a click's message edit), so the handlers' code does not
change. A public answer to a command cannot follow a private deferral: it raises
``discord.InteractionResponded`` as discord.py does for an answered interaction, and the
callers post it in the channel instead.

A deferral whose outcome is unknown (the connection dropped, a timeout, a 5xx: Discord may
have taken it) is remembered: if the answer's callback is then refused as acknowledged
already (40060), that deferral landed — no other process answers the interaction
(``bot.discord.owners``) and nothing else of this one may have — so the answer becomes its
follow-up as above ("thinking…" is replaced by it), sent once. If an answer of this
process's own may also have landed, the 40060 is taken as it is: no second answer.

An interaction other processes are given too (``shared``: claimed over PostgreSQL) is
watched before its claim is known, and each of them may defer it; the others then stand
down (``stand_down``) and send nothing more. So a 40060 there, with no answer of this
process's that may have landed, means a deferral landed, whoever made it, made as
``defer_late`` makes it: the owner's answer follows it the same way.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any, Literal, TypeVar

import discord

from bot.discord.failures import ALREADY_ACKNOWLEDGED, is_expired, maybe_made

log = logging.getLogger(__name__)

DEFER_AFTER_SECONDS = 2.0  # the default of ``Settings.defer_after_seconds``
_pending: set[asyncio.Task[None]] = set()  # deferrals under way (kept from the collector)
T = TypeVar("T")


class GuardedResponse(discord.InteractionResponse[Any]):
    """An interaction's response whose answers go one at a time (see the module)."""

    __slots__ = ("_lock", "_timer", "_unsure", "deferred_late", "shared")

    def __init__(self, parent: discord.Interaction[Any]) -> None:
        super().__init__(parent)
        self._lock = asyncio.Lock()
        self.deferred_late = False  # deferred by ``defer_late``: later answers follow it
        # What of this process's may have landed unheard: its deferral only, or an answer.
        self._unsure: Literal["deferral", "answer"] | None = None
        # Given to other processes too, which may defer it before they know they lost its
        # claim (``bot.discord.owners``): a first answer refused as acknowledged already,
        # with no answer of this process's that may have landed, follows that deferral.
        self.shared = False
        self._timer: asyncio.TimerHandle | None = None  # the deferral's, once watched

    async def defer_late(self) -> bool:
        """Defer the interaction unless it was answered (or is being answered); True if
        deferred (or found deferred). A command privately, with "thinking…"; a click as an
        update of its message (whose edits and private answers then follow)."""
        async with self._lock:
            if self.is_done():
                return False
            parent = self._parent
            try:
                if parent.type is discord.InteractionType.component:
                    await self._call(super().defer(), deferral=True)
                else:
                    await self._call(super().defer(ephemeral=True, thinking=True), deferral=True)
            except discord.HTTPException as e:
                if not self._deferral_landed(e):
                    raise
                return True
            self.deferred_late = True
            log.info("interaction %d deferred: not answered in time", parent.id)
            return True

    def stand_down(self) -> None:
        """Another process owns the interaction: no deferral from this one any more (one
        already sent stays: the owner's answer follows it)."""
        if self._timer is not None:
            self._timer.cancel()

    async def _call(self, call: Awaitable[T], deferral: bool = False) -> T:
        """Make one callback, remembering a failure that may have landed (see the module)."""
        try:
            return await call
        except Exception as e:
            if maybe_made(e) and not is_expired(e):
                self._unsure = "deferral" if deferral and self._unsure is None else "answer"
            raise

    def _deferral_landed(self, error: discord.HTTPException) -> bool:
        """Whether a callback refused with ``error`` was refused because a deferral had
        landed: this process's own, whose reply was lost, or (``shared``) another
        process's, made before it knew it lost the claim — deferrals are the only first
        answers a process sends before it knows it owns an interaction, and each is made as
        ``defer_late`` makes it. Then it counts as deferred that way (True). An answer of
        this process's that may have landed unheard explains the refusal as well: then
        nothing follows (False)."""
        if error.code != ALREADY_ACKNOWLEDGED or self._unsure == "answer":
            return False
        if self._unsure != "deferral" and not self.shared:
            return False
        parent = self._parent
        if parent.type is discord.InteractionType.component:
            self._response_type = discord.InteractionResponseType.deferred_message_update
        else:
            self._response_type = discord.InteractionResponseType.deferred_channel_message
        self.deferred_late = True
        whose = "its own" if self._unsure == "deferral" else "this process's or another's"
        log.info("interaction %d: acknowledged already by a deferral (%s)", parent.id, whose)
        return True

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False) -> Any:
        async with self._lock:
            if not self.deferred_late:
                try:
                    return await self._call(super().defer(ephemeral=ephemeral, thinking=thinking))
                except discord.HTTPException as e:
                    if not self._deferral_landed(e):
                        raise
            return None  # deferred already: what the caller wanted

    async def send_message(self, content: Any = None, **kwargs: Any) -> Any:
        async with self._lock:
            if not self.deferred_late:
                try:
                    return await self._call(super().send_message(content, **kwargs))
                except discord.HTTPException as e:
                    if not self._deferral_landed(e):
                        raise
            private = bool(kwargs.get("ephemeral"))
            if not private and self._parent.type is not discord.InteractionType.component:
                raise discord.InteractionResponded(self._parent)  # posted in the channel
            kwargs.pop("delete_after", None)
            await self._parent.followup.send(content, **kwargs)
            return None

    async def edit_message(self, **kwargs: Any) -> Any:
        async with self._lock:
            if not self.deferred_late:
                try:
                    return await self._call(super().edit_message(**kwargs))
                except discord.HTTPException as e:
                    if not self._deferral_landed(e):
                        raise
            if self._parent.type is not discord.InteractionType.component:
                raise discord.InteractionResponded(self._parent)
            kwargs.pop("delete_after", None)
            await self._parent.edit_original_response(**kwargs)
            return None

    async def send_modal(self, modal: discord.ui.Modal, /) -> Any:
        async with self._lock:
            return await self._call(super().send_modal(modal))

    async def autocomplete(self, choices: Any) -> None:
        async with self._lock:
            await super().autocomplete(choices)


def install(interaction: discord.Interaction[Any]) -> None:
    """Give the interaction its guarded response, before any handler touches it."""
    try:
        interaction._cs_response  # type: ignore[attr-defined]  # noqa: B018
    except AttributeError:
        interaction._cs_response = GuardedResponse(interaction)  # type: ignore[attr-defined]
    else:  # a handler took the plain response already: left as it is, not watched
        log.debug("interaction %d: its response was taken before it was guarded", interaction.id)


def watch(
    interaction: discord.Interaction[Any], after: float | None = None, shared: bool = False
) -> None:
    """Defer the interaction if it is still unanswered ``after`` seconds from now (default:
    the bot's ``defer_after_seconds``) while the current task (its handler) runs. Called
    from the checks every command and component passes first, before anything answers
    the interaction: its guarded response is installed here. Watched once: a later call
    (the next check) leaves the first one's time. ``shared``: other processes are given the
    interaction too (watched before its claim, ``bot.discord.owners``)."""
    if isinstance(interaction, discord.Interaction):
        install(interaction)
    response = getattr(interaction, "response", None)  # (stand-ins in tests may have none)
    if after is None:
        settings = getattr(getattr(interaction, "client", None), "settings", None)
        after = getattr(settings, "defer_after_seconds", DEFER_AFTER_SECONDS)
    task = asyncio.current_task()
    if (
        not isinstance(response, GuardedResponse)
        or task is None
        or interaction.type is discord.InteractionType.autocomplete
        or response.is_done()
        or response._timer is not None
    ):
        return
    response.shared = response.shared or shared

    def fire() -> None:
        if task.done() or response.is_done():
            return
        deferral = asyncio.create_task(_defer(response), name=f"af-defer-{interaction.id}")
        _pending.add(deferral)
        deferral.add_done_callback(_pending.discard)

    timer = response._timer = asyncio.get_running_loop().call_later(after, fire)
    task.add_done_callback(lambda _: timer.cancel())


async def _defer(response: GuardedResponse) -> None:
    try:
        await response.defer_late()
    except Exception as e:  # expired, Discord away, the bot stopping: the answer path says so
        log.warning("interaction %d not deferred: %s", response._parent.id, e)


def alone(interaction: discord.Interaction[Any]) -> None:
    """This process handles ``interaction`` as if no other were given it (its claim could
    not be written): a first answer refused as acknowledged is taken as it is."""
    response = getattr(interaction, "_cs_response", None)
    if isinstance(response, GuardedResponse):
        response.shared = False


def stand_down(interaction: discord.Interaction[Any]) -> None:
    """No deferral of ``interaction`` from this process: another one owns it."""
    response = getattr(interaction, "_cs_response", None)
    if isinstance(response, GuardedResponse):
        response.stand_down()


__all__ = ["DEFER_AFTER_SECONDS", "GuardedResponse", "alone", "install", "stand_down", "watch"]

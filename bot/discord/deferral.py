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

The deferral is one request at a time, not discord.py's: its webhook adapter answers a 5xx
or a reset by sleeping a second or more and trying again, past Discord's 3 seconds (10062:
"The application did not respond", though the move may be applied). The deferral instead
tries once, and again at once after a failure, while before ``LAST_TRY_SHARE`` of its
delay since the interaction arrived (2.8 s of Discord's 3). A command's private answer
that follows a late deferral edits its original message (the "thinking…"), not a
follow-up: an edit sent twice is the same edit, so one whose outcome is unknown (the
connection dropped) is sent again (``EDIT_ATTEMPTS``), and the "thinking…" never stays.

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

import aiohttp
import discord
from discord import utils
from discord.webhook import async_ as webhooks
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

from bot.discord.failures import ALREADY_ACKNOWLEDGED, is_expired, maybe_made

log = logging.getLogger(__name__)

DEFER_AFTER_SECONDS = 2.0  # the default of ``Settings.defer_after_seconds``
LAST_TRY_SHARE = 1.4  # no deferral is tried after this times its delay (2.8 s of 3)
RETRY_PAUSE = 0.05  # seconds between two tries of a deferral
EDIT_ATTEMPTS = 3  # tries of an answer edited into a late deferral's "thinking…"
_pending: set[asyncio.Task[None]] = set()  # deferrals under way (kept from the collector)
T = TypeVar("T")


class _OneAttempt(AsyncWebhookAdapter):
    """discord.py's webhook adapter making each request once: no sleeping retry after a
    5xx or a reset (the deferral retries on its own, within Discord's 3 seconds), and no
    lock shared with the process's other requests for the interaction."""

    async def request(self, route: Any, session: aiohttp.ClientSession, **kw: Any) -> Any:
        if kw.get("multipart") or kw.get("files"):
            return await super().request(route, session, **kw)
        headers: dict[str, str] = {}
        body = None
        if kw.get("payload") is not None:
            headers["Content-Type"] = "application/json"
            body = utils._to_json(kw["payload"])  # noqa: SLF001 (discord.py's JSON, as its own)
        async with session.request(
            route.method,
            route.url,
            data=body,
            headers=headers,
            params=kw.get("params"),
            proxy=kw.get("proxy"),
            proxy_auth=kw.get("proxy_auth"),
        ) as response:
            data = await webhooks.json_or_text(response)  # type: ignore[attr-defined]
            if 300 > response.status >= 200:
                return data
            if response.status == 403:
                raise discord.Forbidden(response, data)
            if response.status == 404:
                raise discord.NotFound(response, data)
            if response.status >= 500:
                raise discord.DiscordServerError(response, data)
            raise discord.HTTPException(response, data)


_ONE_ATTEMPT = _OneAttempt()  # type: ignore[no-untyped-call]


class GuardedResponse(discord.InteractionResponse[Any]):
    """An interaction's response whose answers go one at a time (see the module)."""

    __slots__ = (
        "_arrived",
        "_edited",
        "_last_try",
        "_lock",
        "_timer",
        "_unsure",
        "another",
        "deferred_late",
        "shared",
    )

    def __init__(self, parent: discord.Interaction[Any]) -> None:
        super().__init__(parent)
        self._lock = asyncio.Lock()
        self._arrived = asyncio.get_running_loop().time()  # (installed when it arrives)
        self._last_try = self._arrived + LAST_TRY_SHARE * DEFER_AFTER_SECONDS
        self._edited = False  # the "thinking…" of a late deferral replaced by an answer
        self.deferred_late = False  # deferred by ``defer_late``: later answers follow it
        self.another = False  # the deferral that landed is another process's
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
            loop = asyncio.get_running_loop()
            one_attempt = async_context.set(_ONE_ATTEMPT)  # (this task only)
            try:
                while True:
                    try:
                        if parent.type is discord.InteractionType.component:
                            await self._call(super().defer(), deferral=True)
                        else:
                            await self._call(
                                super().defer(ephemeral=True, thinking=True), deferral=True
                            )
                        break
                    except discord.HTTPException as e:
                        if self._deferral_landed(e):
                            return True
                        if e.status < 500 or loop.time() + RETRY_PAUSE >= self._last_try:
                            raise
                    except (aiohttp.ClientError, OSError) as e:
                        if loop.time() + RETRY_PAUSE >= self._last_try:
                            raise
                        log.info("interaction %d: deferral tried again (%s)", parent.id, e)
                    await asyncio.sleep(RETRY_PAUSE)
            finally:
                async_context.reset(one_attempt)
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
        self.another = self._unsure != "deferral"  # none of this process's may have landed
        whose = "its own" if self._unsure == "deferral" else "this process's or another's"
        log.info("interaction %d: acknowledged already by a deferral (%s)", parent.id, whose)
        return True

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False) -> Any:
        async with self._lock:
            if self.deferred_late and thinking and not ephemeral and not self._is_click():
                # A public "thinking…" cannot follow a private one: the caller posts its
                # answer in the channel (as for ``send_message``), then "done" privately.
                raise discord.InteractionResponded(self._parent)
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
            if not private and not self._is_click():
                raise discord.InteractionResponded(self._parent)  # posted in the channel
            kwargs.pop("delete_after", None)
            if self._is_click() or self._edited:
                await self._parent.followup.send(content, **kwargs)
            else:
                await self._edit_thinking(content, kwargs)
            return None

    def _is_click(self) -> bool:
        """Whether the interaction is a click (a late deferral's answers are then its
        message's edit and private follow-ups), not a command (a private "thinking…")."""
        return self._parent.type is discord.InteractionType.component

    async def _edit_thinking(self, content: Any, kwargs: dict[str, Any]) -> None:
        """Answer a command deferred late by editing its "thinking…" (see the module)."""
        changes: dict[str, Any] = {"content": content}
        for key in ("embed", "embeds", "view", "allowed_mentions"):
            if key in kwargs:
                changes[key] = kwargs[key]
        files = ([kwargs["file"]] if "file" in kwargs else []) + list(kwargs.get("files", []))
        if files:
            changes["attachments"] = files
        for attempt in range(1, EDIT_ATTEMPTS + 1):
            try:
                await self._parent.edit_original_response(**changes)
                break
            except Exception as e:
                if attempt == EDIT_ATTEMPTS or not maybe_made(e) or is_expired(e):
                    raise
                log.info("interaction %d: answer edited in again (%s)", self._parent.id, e)
                for f in files:
                    f.reset()
                await asyncio.sleep(RETRY_PAUSE * attempt)
        self._edited = True

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
        # discord.py caches the response it makes in ``_cs_response``: ours is put there
        interaction._cs_response  # type: ignore[attr-defined]  # noqa: B018, SLF001
    except AttributeError:
        interaction._cs_response = GuardedResponse(interaction)  # type: ignore[attr-defined]  # noqa: SLF001
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
    # (the response's private times are this module's own: GuardedResponse is defined here)
    if isinstance(response, GuardedResponse) and response._timer is None:  # noqa: SLF001
        response._last_try = response._arrived + LAST_TRY_SHARE * after  # noqa: SLF001
    task = asyncio.current_task()
    if (
        not isinstance(response, GuardedResponse)
        or task is None
        or interaction.type is discord.InteractionType.autocomplete
        or response.is_done()
        or response._timer is not None  # noqa: SLF001
    ):
        return
    response.shared = response.shared or shared

    def fire() -> None:
        if task.done() or response.is_done():
            return
        deferral = asyncio.create_task(_defer(response), name=f"af-defer-{interaction.id}")
        _pending.add(deferral)
        deferral.add_done_callback(_pending.discard)

    timer = response._timer = asyncio.get_running_loop().call_later(after, fire)  # noqa: SLF001
    task.add_done_callback(lambda _: timer.cancel())


async def _defer(response: GuardedResponse) -> None:
    try:
        await response.defer_late()
    except Exception as e:  # expired, Discord away, the bot stopping: the answer path says so
        # (``_parent``: the interaction, as discord.py's response names it)
        log.warning("interaction %d not deferred: %s", response._parent.id, e)  # noqa: SLF001


def alone(interaction: discord.Interaction[Any]) -> None:
    """This process handles ``interaction`` as if no other were given it (no claim can be
    written: the database is read-only): a first answer refused as acknowledged is taken
    as it is."""
    response = getattr(interaction, "_cs_response", None)
    if isinstance(response, GuardedResponse):
        response.shared = False


async def answer_unless_another(interaction: discord.Interaction[Any], content: str) -> None:
    """Answer ``interaction`` privately unless another process answered it first (its
    deferral landed, or its answer: a first answer of ours refused 40060); through this
    process's own deferral if that is the one that landed."""
    response = interaction.response
    if isinstance(response, GuardedResponse):
        async with response._lock:  # noqa: SLF001 (GuardedResponse is this module's)
            pass  # a deferral of ours under way is over
        if response.another:
            return
        if response.is_done():
            await response.send_message(content, ephemeral=True)
            return
        response.shared = False  # a refusal now is another's answer: taken as it is
    try:
        await response.send_message(content, ephemeral=True)
    except discord.HTTPException as e:
        if e.code != ALREADY_ACKNOWLEDGED:
            raise


def stand_down(interaction: discord.Interaction[Any]) -> None:
    """No deferral of ``interaction`` from this process: another one owns it."""
    response = getattr(interaction, "_cs_response", None)
    if isinstance(response, GuardedResponse):
        response.stand_down()


__all__ = [
    "DEFER_AFTER_SECONDS",
    "GuardedResponse",
    "alone",
    "answer_unless_another",
    "install",
    "stand_down",
    "watch",
]

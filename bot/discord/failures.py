"""What to do when a delivery fails: a policy per error, and the wait before trying again.

Discord's API fails in a few ways that call for different answers (``judge``):

- a passing fault — 5xx, 429 that discord.py gave up waiting for, a timeout, a connection
  reset or refused, the database locked, restarting or unreachable: try again later, with
  capped exponential backoff and jitter (``backoff``);
- missing permissions in the channel (403: 50013 Missing Permissions, 50001 Missing
  Access): stop hammering the channel, tell the host once, try again every minute or two;
- the message to edit was deleted (404, 10008): the courier posts a new one (not here);
- the interaction expired or was answered (10062, 40060): the courier goes on without it;
- a body Discord rejects (400 and other 4xx): give up at once, with one ERROR line (route,
  reason and the rejected field) — trying again could only fail again;
- the channel gone (10003 Unknown Channel, 10004 Unknown Guild): the game's channel is no
  more (``gone``): its game is orphaned, nothing more is sent there;
- a thread archived (50083): an edit there is refused until the thread is reopened (the
  courier reopens it and edits again);
- anything else is a bug: logged with its traceback, tried a few times, then given up.

Discord bans an IP for an hour (403 on every route) past 10,000 invalid requests (401, 403,
429) in 10 minutes: ``InvalidRequests`` counts them as they are answered (an aiohttp trace
on discord.py's session) and spaces out the bot's own retries as the count climbs, far
below that (``slow_from``), with a WARNING.
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
import sqlite3
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, Final, Literal

import aiohttp
import asyncpg
import discord

log = logging.getLogger(__name__)

Kind = Literal["retry", "forbidden", "rejected", "gone", "bug"]

UNKNOWN_CHANNEL: Final = 10003
UNKNOWN_GUILD: Final = 10004
UNKNOWN_MESSAGE: Final = 10008
UNKNOWN_INTERACTION: Final = 10062
ALREADY_ACKNOWLEDGED: Final = 40060
MISSING_ACCESS: Final = 50001
MISSING_PERMISSIONS: Final = 50013
DM_CLOSED: Final = 50007  # Cannot send messages to this user
THREAD_ARCHIVED: Final = 50083  # Thread is archived (an edit there; a post reopens it)

# What a REST call may raise besides a bug: Discord's answers, the connection's faults.
CALL_FAULTS: Final = (discord.HTTPException, aiohttp.ClientError, OSError, asyncio.TimeoutError)

BASE_SECONDS: Final = 2.0  # the first retry's wait (before jitter)
CAP_SECONDS: Final = 60.0  # the longest wait between two attempts
FORBIDDEN_SECONDS: Final = (60.0, 120.0)  # a channel without permissions: a slow retry
BUG_ATTEMPTS: Final = 8  # an unexpected error is given up after this many attempts


@dataclass(frozen=True, slots=True)
class Verdict:
    """How a failed attempt is judged: its kind, and for the log its route, status, code,
    reason and the fields of the body Discord rejected; ``after``: how long Discord asked to
    wait (a 429)."""

    kind: Kind
    route: str = ""
    status: int | None = None
    code: int | None = None
    reason: str = ""
    after: float | None = None
    fields: tuple[str, ...] = ()

    def __str__(self) -> str:
        status = f"{self.status}" + (f"/{self.code}" if self.code else "") if self.status else ""
        rejected = f"(rejected field: {', '.join(self.fields)})" if self.fields else ""
        return " ".join(p for p in (self.route, status, self.reason, rejected) if p)


def route_of(error: discord.HTTPException) -> str:
    """``METHOD /path`` of a failed request (without the API prefix)."""
    response = getattr(error, "response", None)
    method = getattr(response, "method", "") or ""
    url = getattr(response, "url", None)
    path = getattr(url, "path", "") or ""
    if "/api/v" in path:
        path = "/" + path.split("/api/v", 1)[1].split("/", 1)[-1]
    return f"{method} {path}".strip()


def is_expired(error: BaseException) -> bool:
    """An interaction that can no longer be answered (expired, or answered already)."""
    return isinstance(error, discord.HTTPException) and error.code in (
        UNKNOWN_INTERACTION,
        ALREADY_ACKNOWLEDGED,
    )


def is_gone(error: BaseException) -> bool:
    """The message to edit is no more (deleted)."""
    return isinstance(error, discord.NotFound) and error.code in (UNKNOWN_MESSAGE, 0)


_FIELD = re.compile(r"^In ([^:]+):", re.M)


def rejected_fields(error: discord.HTTPException) -> tuple[str, ...]:
    """The fields of a body Discord rejected (``components.0.components.1.options``)."""
    return tuple(_FIELD.findall(error.text or ""))


def judge(error: BaseException) -> Verdict:
    """The policy for a failed attempt (see the module docstring)."""
    if isinstance(error, discord.RateLimited):
        return Verdict("retry", status=429, reason="rate limited", after=error.retry_after)
    if isinstance(error, discord.HTTPException):
        route, status, code = route_of(error), error.status, error.code
        reason = (error.text or "").strip().split("\n", 1)[0][:200]
        if code in (UNKNOWN_CHANNEL, UNKNOWN_GUILD):
            return Verdict("gone", route, status, code, reason)
        if isinstance(error, discord.Forbidden) and code in (MISSING_PERMISSIONS, MISSING_ACCESS):
            return Verdict("forbidden", route, status, code, reason)
        if status >= 500 or status == 429 or status == 408:
            return Verdict("retry", route, status, code, reason)
        if isinstance(error, discord.Forbidden):
            return Verdict("forbidden", route, status, code, reason)
        return Verdict("rejected", route, status, code, reason, fields=rejected_fields(error))
    if isinstance(error, aiohttp.ClientError | OSError | TimeoutError | asyncio.TimeoutError):
        return Verdict("retry", reason=f"{type(error).__name__}: {error}"[:200])
    if isinstance(
        error, sqlite3.Error | asyncpg.PostgresError | asyncpg.InterfaceError | ConnectionError
    ):
        return Verdict("retry", reason=f"database: {type(error).__name__}: {error}"[:200])
    return Verdict("bug", reason=f"{type(error).__name__}: {error}"[:200])


def is_database_fault(error: BaseException) -> bool:
    """Whether the database failed the work: busy ("database is locked"), refusing writes
    (read-only, disk full), or away (a PostgreSQL failover)."""
    return isinstance(error, sqlite3.Error | asyncpg.PostgresError | asyncpg.InterfaceError)


def is_rejected(error: BaseException) -> bool:
    """A body Discord refuses (a 400 other than an archived thread): sent again as it is,
    it could only be refused again."""
    return (
        isinstance(error, discord.HTTPException)
        and error.status == 400
        and error.code not in (THREAD_ARCHIVED, UNKNOWN_INTERACTION, ALREADY_ACKNOWLEDGED)
    )


def is_archived(error: BaseException) -> bool:
    """An edit refused because its thread is archived (a post, or reopening it, wakes it)."""
    return isinstance(error, discord.HTTPException) and error.code == THREAD_ARCHIVED


def maybe_made(error: BaseException) -> bool:
    """Whether a request that failed may still have taken effect: the connection dropped, a
    timeout or a 5xx (the answer was lost), not a refusal Discord gave (4xx)."""
    if isinstance(error, discord.HTTPException):
        return error.status >= 500 or error.code == ALREADY_ACKNOWLEDGED
    return isinstance(error, aiohttp.ClientError | OSError | TimeoutError | asyncio.TimeoutError)


def backoff(attempt: int, rng: random.Random, verdict: Verdict | None = None) -> float:
    """Seconds to wait before the next attempt after ``attempt`` failed ones: doubling
    from ``BASE_SECONDS`` up to ``CAP_SECONDS``, each wait drawn between half and all of
    it (jitter: channels failing together do not retry together); at least what a 429 asked
    for; a minute or two for a channel without permissions."""
    if verdict is not None and verdict.kind == "forbidden":
        return rng.uniform(*FORBIDDEN_SECONDS)
    ceiling = min(CAP_SECONDS, BASE_SECONDS * 2 ** max(0, attempt - 1))
    wait = rng.uniform(ceiling / 2, ceiling)
    if verdict is not None and verdict.after is not None:
        wait = max(wait, verdict.after)
    return wait


INVALID_STATUSES: Final = frozenset({401, 403, 429})
BAN_LIMIT: Final = 10_000  # Discord's: invalid requests in BAN_WINDOW seconds, then a ban
BAN_WINDOW: Final = 600.0
SLOW_FROM: Final = 1_000  # from here the bot's own retries are spaced out...
STOP_AT: Final = 4_000  # ...more and more, up to one every STOP_SECONDS from here
MAX_SPACING: Final = 5.0
STOP_SECONDS: Final = 30.0
WARN_EVERY: Final = 500


class InvalidRequests:
    """The invalid requests (401, 403, 429) Discord answered in the last ten minutes, and
    how long the bot's own retries wait between them because of it: nothing below
    ``slow_from`` (a tenth of Discord's limit); then a gap between two attempts, across
    all channels, growing with the count, up to ``max_spacing`` seconds at ``stop_at``,
    and ``stop_seconds`` beyond. Each step up is one WARNING line."""

    def __init__(
        self,
        *,
        slow_from: int = SLOW_FROM,
        stop_at: int = STOP_AT,
        max_spacing: float = MAX_SPACING,
        stop_seconds: float = STOP_SECONDS,
        window: float = BAN_WINDOW,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.slow_from = slow_from
        self.stop_at = stop_at
        self.max_spacing = max_spacing
        self.stop_seconds = stop_seconds
        self.window = window
        self.clock = clock
        self._times: deque[float] = deque()
        self._next = 0.0
        self._warned = 0  # the highest step warned of (one at slow_from, one every WARN_EVERY)

    def count(self) -> int:
        """Invalid requests in the window, now."""
        edge = self.clock() - self.window
        while self._times and self._times[0] < edge:
            self._times.popleft()
        return len(self._times)

    def saw(self, status: int) -> None:
        """A response came back with ``status``."""
        if status not in INVALID_STATUSES:
            return
        self._times.append(self.clock())
        count = self.count()
        step = 1 + (count - self.slow_from) // WARN_EVERY if count >= self.slow_from else 0
        if step > self._warned:
            self._warned = step
            log.warning(
                "%d invalid requests (401/403/429) to Discord in the last %.0f minutes (it bans"
                " past %d): the bot's retries wait %.1f s between them",
                count,
                self.window / 60,
                BAN_LIMIT,
                self.spacing(),
            )
        elif count < self.slow_from and self._warned:
            self._warned = 0

    def spacing(self) -> float:
        """The gap between two attempts, across channels, at the count now."""
        count = self.count()
        if count < self.slow_from:
            return 0.0
        if count >= self.stop_at:
            return self.stop_seconds
        share = (count - self.slow_from) / max(1, self.stop_at - self.slow_from)
        return max(0.1, self.max_spacing * share)

    def wait(self) -> float:
        """Seconds the next attempt waits (its turn taken); 0 while the count is low."""
        gap = self.spacing()
        if gap <= 0:
            return 0.0
        now = self.clock()
        slot = max(now, self._next)
        self._next = slot + gap
        return slot - now

    def trace(self) -> aiohttp.TraceConfig:
        """An aiohttp trace telling this of every answer (``discord.Client(http_trace=)``)."""
        config = aiohttp.TraceConfig()

        async def ended(session: Any, context: SimpleNamespace, params: Any) -> None:
            self.saw(int(params.response.status))

        config.on_request_end.append(ended)
        return config


__all__ = [
    "ALREADY_ACKNOWLEDGED",
    "BUG_ATTEMPTS",
    "CALL_FAULTS",
    "DM_CLOSED",
    "MISSING_ACCESS",
    "MISSING_PERMISSIONS",
    "THREAD_ARCHIVED",
    "UNKNOWN_CHANNEL",
    "UNKNOWN_INTERACTION",
    "UNKNOWN_MESSAGE",
    "InvalidRequests",
    "Verdict",
    "backoff",
    "is_archived",
    "is_database_fault",
    "is_expired",
    "is_gone",
    "is_rejected",
    "judge",
    "maybe_made",
    "rejected_fields",
    "route_of",
]

"""What to do when a delivery fails: a policy per error, and the wait before trying again.

Discord's API fails in a few ways that call for different answers (``judge``):

- a passing fault — 5xx, 429 that discord.py gave up waiting for, a timeout, a connection
  reset or refused, the database locked, restarting or unreachable: try again later, with
  capped exponential backoff and jitter (``backoff``);
- missing permissions in the channel (403: 50013 Missing Permissions, 50001 Missing
  Access): stop hammering the channel, tell the host once, try again every minute or two;
- the message to edit was deleted (404, 10008): the courier posts a new one (not here);
- the interaction expired or was answered (10062, 40060): the courier goes on without it;
- a body Discord rejects (400 and other 4xx), the channel gone (10003): give up at once,
  with one ERROR line (route and reason) — trying again could only fail again;
- anything else is a bug: logged with its traceback, tried a few times, then given up.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
from dataclasses import dataclass
from typing import Final, Literal

import aiohttp
import asyncpg
import discord

Kind = Literal["retry", "forbidden", "rejected", "bug"]

UNKNOWN_CHANNEL: Final = 10003
UNKNOWN_GUILD: Final = 10004
UNKNOWN_MESSAGE: Final = 10008
UNKNOWN_INTERACTION: Final = 10062
ALREADY_ACKNOWLEDGED: Final = 40060
MISSING_ACCESS: Final = 50001
MISSING_PERMISSIONS: Final = 50013
DM_CLOSED: Final = 50007  # Cannot send messages to this user

# What a REST call may raise besides a bug: Discord's answers, the connection's faults.
CALL_FAULTS: Final = (discord.HTTPException, aiohttp.ClientError, OSError, asyncio.TimeoutError)

BASE_SECONDS: Final = 2.0  # the first retry's wait (before jitter)
CAP_SECONDS: Final = 60.0  # the longest wait between two attempts
FORBIDDEN_SECONDS: Final = (60.0, 120.0)  # a channel without permissions: a slow retry
BUG_ATTEMPTS: Final = 8  # an unexpected error is given up after this many attempts


@dataclass(frozen=True, slots=True)
class Verdict:
    """How a failed attempt is judged: its kind, and for the log its route, status, code and
    reason; ``after``: how long Discord asked to wait (a 429)."""

    kind: Kind
    route: str = ""
    status: int | None = None
    code: int | None = None
    reason: str = ""
    after: float | None = None

    def __str__(self) -> str:
        status = f"{self.status}" + (f"/{self.code}" if self.code else "") if self.status else ""
        return " ".join(p for p in (self.route, status, self.reason) if p)


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


def judge(error: BaseException) -> Verdict:
    """The policy for a failed attempt (see the module docstring)."""
    if isinstance(error, discord.RateLimited):
        return Verdict("retry", status=429, reason="rate limited", after=error.retry_after)
    if isinstance(error, discord.HTTPException):
        route, status, code = route_of(error), error.status, error.code
        reason = (error.text or "").strip()[:200]
        if isinstance(error, discord.Forbidden) and code in (MISSING_PERMISSIONS, MISSING_ACCESS):
            return Verdict("forbidden", route, status, code, reason)
        if status >= 500 or status == 429 or status == 408:
            return Verdict("retry", route, status, code, reason)
        if isinstance(error, discord.Forbidden):
            return Verdict("forbidden", route, status, code, reason)
        return Verdict("rejected", route, status, code, reason)
    if isinstance(error, aiohttp.ClientError | OSError | TimeoutError | asyncio.TimeoutError):
        return Verdict("retry", reason=f"{type(error).__name__}: {error}"[:200])
    if isinstance(
        error, sqlite3.Error | asyncpg.PostgresError | asyncpg.InterfaceError | ConnectionError
    ):
        return Verdict("retry", reason=f"database: {type(error).__name__}: {error}"[:200])
    return Verdict("bug", reason=f"{type(error).__name__}: {error}"[:200])


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


__all__ = [
    "ALREADY_ACKNOWLEDGED",
    "BUG_ATTEMPTS",
    "CALL_FAULTS",
    "DM_CLOSED",
    "MISSING_ACCESS",
    "MISSING_PERMISSIONS",
    "UNKNOWN_CHANNEL",
    "UNKNOWN_INTERACTION",
    "UNKNOWN_MESSAGE",
    "Verdict",
    "backoff",
    "is_expired",
    "is_gone",
    "judge",
    "route_of",
]

"""Stopping cleanly: refuse new work, let the work in flight finish (bounded), then close.

The ``Gate`` counts the tasks that handle interactions: each is tracked when its
interaction arrives (``bot.discord.owners.first_to_claim``, before the claim that decides
which process acts on it, which may take a while when the database is slow), so what is
being handled when the bot stops is known without reaching into discord.py. Once the gate
is closed, interactions arriving are refused privately ("restarting, try again"); those
that arrived before are finished: ``close`` waits a few seconds for them, while the
connection and the database are still open, so a claim in flight is settled and, if it
is this process's, its move is applied and answered, not cut off by a closed HTTP
session (the claim itself gives up well within that time: ``bot.discord.owners``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable

from discord import app_commands

log = logging.getLogger(__name__)

# How long a stopping bot waits for interactions (and AI moves) in flight. Discord
# itself gives an interaction 3 seconds to be answered, so a few seconds is plenty.
GRACE_SECONDS = 5.0


class ShuttingDown(app_commands.AppCommandError):
    """The bot is stopping: the interaction is refused (privately) and nothing is done."""


class Gate:
    """Admits the tasks handling interactions while open; ``close`` waits for them."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[object]] = set()
        self._before_close: set[asyncio.Task[object]] = set()  # tracked while open
        self.closing = False

    @property
    def in_flight(self) -> int:
        return sum(1 for t in self._tasks if not t.done())

    def track(self) -> None:
        """Count the current task as in flight (until it ends), even while closing."""
        task = asyncio.current_task()
        if task is not None and task not in self._tasks:
            self._tasks.add(task)
            if not self.closing:
                self._before_close.add(task)
            task.add_done_callback(self._forget)

    def _forget(self, task: asyncio.Task[object]) -> None:
        self._tasks.discard(task)
        self._before_close.discard(task)

    def admit(self) -> bool:
        """Track the current task if it may act: new work is still taken, or its
        interaction arrived before the gate closed (it is finished); False otherwise."""
        if self.closing and asyncio.current_task() not in self._before_close:
            return False
        self.track()
        return True

    async def close(self, timeout: float = GRACE_SECONDS) -> int:
        """Take no new work and wait (at most ``timeout``) for the work in flight.

        Returns how many tasks were still running when the time was up.
        """
        self.closing = True
        me = asyncio.current_task()
        pending = {t for t in self._tasks if not t.done() and t is not me}
        if not pending:
            return 0
        log.info("waiting for %d interaction(s) in flight", len(pending))
        _, still = await asyncio.wait(pending, timeout=timeout)
        return len(still)


async def cancel(task: asyncio.Task[None] | None) -> None:
    """Cancel a background task (if any) and wait until it has stopped.

    The task's own cancellation is absorbed; one of the caller (a timeout around the
    stop, or the caller being cancelled) goes on up."""
    if task is not None:
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            me = asyncio.current_task()
            if me is not None and me.cancelling():
                raise


async def hold_locks(locks: Iterable[asyncio.Lock], timeout: float) -> list[asyncio.Lock]:
    """Acquire every lock (a move holding one finishes first), within ``timeout`` in all.

    Returns the locks acquired; they are kept, so no move starts while the bot stops.
    """
    held: list[asyncio.Lock] = []
    try:
        async with asyncio.timeout(timeout):
            for lock in locks:
                await lock.acquire()
                held.append(lock)
    except TimeoutError:
        log.warning("a move was still being applied after %.0f s; stopping anyway", timeout)
    return held


__all__ = ["GRACE_SECONDS", "Gate", "ShuttingDown", "cancel", "hold_locks"]

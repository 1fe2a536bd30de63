"""Stopping cleanly: refuse new work, let the work in flight finish (bounded), then close.

The ``Gate`` counts the tasks that handle interactions: a command's task is admitted
by the command tree's ``interaction_check`` and a panel click's by the components'
check, so what is being handled when the bot stops is known without reaching into
discord.py. Once the gate is closed new interactions are refused privately
("restarting, try again") and ``close`` waits a few seconds for the admitted ones,
while the connection and the database are still open, so a move being applied is
committed and answered, not cut off by a closed HTTP session.
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
        self.closing = False

    @property
    def in_flight(self) -> int:
        return sum(1 for t in self._tasks if not t.done())

    def track(self) -> None:
        """Count the current task as in flight (until it ends), even while closing."""
        task = asyncio.current_task()
        if task is not None and task not in self._tasks:
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def admit(self) -> bool:
        """Track the current task if new work is still taken; False once closing."""
        if self.closing:
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

"""A heartbeat for container health checks (``HEALTH_FILE``, ``python -m bot health``).

While the bot is connected to Discord and its database answers, a background task
touches ``HEALTH_FILE`` every ``BEAT_SECONDS``. ``python -m bot health`` (the health
check of ``compose.yaml``) exits 0 when the file was touched recently, 1 otherwise,
so a process that hangs, lost Discord or lost its database is marked unhealthy.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import discord

from bot.shutdown import cancel

if TYPE_CHECKING:
    from bot.storage import Storage

log = logging.getLogger(__name__)

BEAT_SECONDS = 30.0
MAX_AGE_SECONDS = 3 * BEAT_SECONDS


class Heartbeat:
    """Touches ``path`` while the bot is ready and its database answers."""

    def __init__(
        self,
        client: discord.Client,
        storage: Callable[[], Storage | None],
        path: str,
        every: float = BEAT_SECONDS,
    ) -> None:
        self.client = client
        self._storage = storage
        self.path = Path(path)
        self.every = every
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._loop(), name="af-heartbeat")

    async def stop(self) -> None:
        await cancel(self._task)
        self._task = None
        self.path.unlink(missing_ok=True)  # a stopped bot is not healthy

    async def beat(self) -> bool:
        """Touch the file if the bot is connected and the database answers."""
        store = self._storage()
        if store is None or not self.client.is_ready() or self.client.is_closed():
            return False
        try:
            await store.db.fetch("SELECT 1")
        except Exception:
            log.warning("health: the database does not answer", exc_info=True)
            return False
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.touch()
        return True

    async def _loop(self) -> None:
        await self.client.wait_until_ready()
        while True:
            await self.beat()
            await asyncio.sleep(self.every)


def check(
    path: str | Path, max_age: float = MAX_AGE_SECONDS, now: float | None = None
) -> str | None:
    """Why the bot is not healthy (None if it is): no heartbeat, or an old one."""
    try:
        age = (time.time() if now is None else now) - Path(path).stat().st_mtime
    except OSError:
        return f"no heartbeat at {path}: the bot is starting, stopped, or cannot reach Discord"
    if age > max_age:
        return f"the last heartbeat is {age:.0f}s old (more than {max_age:.0f}s): the bot is stuck"
    return None


__all__ = ["BEAT_SECONDS", "MAX_AGE_SECONDS", "Heartbeat", "check"]

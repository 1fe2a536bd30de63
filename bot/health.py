"""A heartbeat for container health checks (``HEALTH_FILE``, ``python -m bot health``).

While the bot is connected to Discord and its database answers, a background task
writes ``HEALTH_FILE`` every ``BEAT_SECONDS``: what waits to be delivered (the outbox's
pending deliveries, the age of the oldest, those given up, channels waiting for their
permissions), as JSON. ``python -m bot health`` (the health check of ``compose.yaml``)
prints that and exits 0 when the file was written recently, 1 otherwise, so a process
that hangs, lost Discord or lost its database is marked unhealthy. Deliveries waiting
do not make the bot unhealthy (a restart would not deliver them sooner): they are
reported, and a delivery given up is logged as an ERROR.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import discord

from bot.shutdown import cancel

if TYPE_CHECKING:
    from bot.store.storage import Storage

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
        backlog: Callable[[], Mapping[str, float]] = dict,
    ) -> None:
        self.client = client
        self._storage = storage
        self.path = Path(path)
        self.every = every
        self.backlog = backlog
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
        written = self.path.with_name(self.path.name + ".new")
        written.write_text(json.dumps({"deliveries": dict(self.backlog())}, sort_keys=True))
        written.replace(self.path)  # whole, never half written
        return True

    async def _loop(self) -> None:
        await self.client.wait_until_ready()
        while True:
            await self.beat()
            await asyncio.sleep(self.every)


def backlog_text(path: str | Path) -> str:
    """What the last heartbeat says waits to be delivered, in a line."""
    try:
        found = json.loads(Path(path).read_text() or "{}").get("deliveries", {})
    except (OSError, ValueError, AttributeError):
        return "deliveries: unknown"
    if not isinstance(found, dict) or not found:
        return "deliveries: unknown"
    line = (
        f"deliveries: {found.get('pending', 0):.0f} pending, the oldest"
        f" {found.get('oldest_seconds', 0):.0f} s old; {found.get('failed', 0):.0f} given up"
    )
    if found.get("paused_channels"):
        line += f"; {found['paused_channels']:.0f} channels waiting for permissions"
    kinds = found.get("failed_by_kind") or {}
    if isinstance(kinds, dict) and kinds:  # given up, by kind and age (pruned after 30 days)
        listed = ", ".join(
            f"{kind} {int(count)} (the oldest {_age(float(age))} old)"
            for kind, (count, age) in sorted(kinds.items())
        )
        line += f"\ngiven up, by kind: {listed}"
    return line


def _age(seconds: float) -> str:
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return f"{seconds / size:.0f} {unit}"
    return f"{seconds:.0f} s"


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


__all__ = ["BEAT_SECONDS", "MAX_AGE_SECONDS", "Heartbeat", "backlog_text", "check"]

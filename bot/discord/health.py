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

from bot.discord.shutdown import cancel

if TYPE_CHECKING:
    from bot.play.database import GameDatabase

log = logging.getLogger(__name__)

BEAT_SECONDS = 30.0
MAX_AGE_SECONDS = 3 * BEAT_SECONDS


class Heartbeat:
    """Touches ``path`` while the bot is ready and its database answers."""

    def __init__(
        self,
        client: discord.Client,
        database: GameDatabase,
        path: str,
        every: float = BEAT_SECONDS,
        backlog: Callable[[], Mapping[str, float]] = dict,
    ) -> None:
        self.client = client
        self.database = database  # asked at each beat
        self.path = Path(path)
        self.every = every
        self.backlog = backlog
        self._task: asyncio.Task[None] | None = None
        self._failing = False

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._loop(), name="af-heartbeat")

    @staticmethod
    def check_path(path: str | Path) -> str | None:
        """Why a heartbeat cannot be written at ``path`` (a folder; a folder that cannot be
        made; a read-only place), found by writing one: None if it can. Run at start, so
        a bad ``HEALTH_FILE`` is one line then, not a bot marked unhealthy for ever."""
        path = Path(path)
        if path.is_dir():
            return "that is a folder: give the heartbeat a file name in it, e.g. /tmp/af-alive"
        written = path.with_name(path.name + ".new")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            written.write_text("{}")
            written.unlink()
        except OSError as e:
            return f"the heartbeat cannot be written there ({e.strerror or e})"
        return None

    async def stop(self) -> None:
        await cancel(self._task)
        self._task = None
        try:
            self.path.unlink(missing_ok=True)  # a stopped bot is not healthy
        except OSError as e:  # the bot stops cleanly all the same
            log.warning("health: cannot remove the heartbeat %s (%s)", self.path, e)

    async def beat(self) -> bool:
        """Touch the file if the bot is connected and the database answers."""
        if not self.client.is_ready() or self.client.is_closed():
            return False
        try:
            await self.database.answers()
        except Exception:
            log.warning("health: the database does not answer", exc_info=True)
            return False
        heartbeat = json.dumps({"at": time.time(), "deliveries": dict(self.backlog())})
        written = self.path.with_name(self.path.name + ".new")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            written.write_text(heartbeat, encoding="utf-8")
            written.replace(self.path)  # whole, never half written
        except OSError as e:
            if not self._failing:  # once, not every beat: the health check tells the rest
                log.error("health: cannot write the heartbeat %s (%s)", self.path, e)
            self._failing = True
            return False
        if self._failing:
            log.info("health: the heartbeat %s is written again", self.path)
        self._failing = False
        return True

    async def _loop(self) -> None:
        await self.client.wait_until_ready()
        while True:
            await self.beat()
            await asyncio.sleep(self.every)


def read_heartbeat(path: str | Path) -> dict[str, object] | None:
    """What a heartbeat file says (a JSON object), or None if ``path`` holds none: no
    file, a folder, anything else."""
    try:
        found = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) and "deliveries" in found else None


def backlog_text(path: str | Path) -> str:
    """What the last heartbeat says waits to be delivered, in a line."""
    heartbeat = read_heartbeat(path) or {}
    found = heartbeat.get("deliveries")
    if not isinstance(found, dict) or not found:
        return "deliveries: unknown"
    pending = float(found.get("pending", 0))
    if pending:
        line = (
            f"deliveries: {pending:.0f} pending, the oldest"
            f" {float(found.get('oldest_seconds', 0)):.0f} s old"
        )
    else:
        line = "deliveries: none pending"
    line += f"; {float(found.get('failed', 0)):.0f} given up"
    if found.get("paused_channels"):
        line += f"; {float(found['paused_channels']):.0f} channels waiting for permissions"
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
    """Why the bot is not healthy (None if it is): no heartbeat (no file, or something
    else than the bot's heartbeat there: a folder, say), or an old one."""
    where = Path(path)
    if where.is_dir():
        return f"{path} is a folder, not a heartbeat file: HEALTH_FILE must name a file"
    try:
        written = where.stat().st_mtime
    except OSError:
        return f"no heartbeat at {path}: the bot is starting, stopped, or cannot reach Discord"
    if read_heartbeat(where) is None:
        return f"{path} is not the bot's heartbeat (HEALTH_FILE names another file?)"
    age = (time.time() if now is None else now) - written
    if age > max_age:
        return f"the last heartbeat is {age:.0f}s old (more than {max_age:.0f}s): the bot is stuck"
    return None


__all__ = ["BEAT_SECONDS", "MAX_AGE_SECONDS", "Heartbeat", "backlog_text", "check"]

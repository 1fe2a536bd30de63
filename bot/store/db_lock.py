"""Who is using a SQLite database: a lock on a file beside it (``alienfrontiers.db.lock``).

The bot holds a *shared* lock while it runs, as do ``backup`` and ``ratings rebuild``
while they read or write; ``restore`` and ``copy-db`` take an *exclusive* one for as long
as they work. So ``restore`` refuses while a bot runs on the database (instead of putting
the file back under it), and a bot does not start while a restore or a copy is being
made. The lock is the operating system's (``flock``): it goes with the process, even
one killed with ``kill -9``, so a crash never leaves a stale lock behind. (A separate
file, not the database itself: SQLite's own locks on the database would be released by
closing any other handle on it.)

Where ``flock`` does not exist (Windows), nothing is locked and nothing is refused.
"""

from __future__ import annotations

import os
from pathlib import Path
from types import TracebackType
from typing import Self

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


class InUse(Exception):
    """Another process holds the lock; the message says which kind of process it can be."""


def lock_file(database: Path) -> Path:
    """The lock file of the SQLite database ``database``."""
    return database.with_name(database.name + ".lock")


class DatabaseLock:
    """A shared or exclusive hold on a SQLite database (see the module docstring)."""

    def __init__(self, database: Path) -> None:
        self.database = database
        self.path = lock_file(database)
        self._fd: int | None = None

    def acquire(self, *, exclusive: bool) -> Self:
        """Hold the lock now or raise ``InUse``; never waits. A folder where the lock file
        cannot be made (read-only) is not locked: nothing there can be written anyway."""
        if fcntl is None:
            return self
        try:
            fd = os.open(self.path, os.O_RDONLY | os.O_CREAT, 0o644)
        except OSError:
            return self
        try:
            fcntl.flock(fd, (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            if exclusive:
                raise InUse(
                    f"{self.database} is in use (a bot running on it, or a backup being made): "
                    "stop the bot first (Ctrl-C, `docker stop af`, `docker compose stop`)"
                ) from None
            raise InUse(
                f"{self.database} is being restored or copied (python -m bot restore or "
                "copy-db): wait until that command has finished"
            ) from None
        self._fd = fd
        return self

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # the lock goes with the descriptor
            self._fd = None

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.release()


__all__ = ["DatabaseLock", "InUse", "lock_file"]

"""Who is using a SQLite database: locks on two files beside it.

- ``alienfrontiers.db.lock``, the database's: held *shared* by whoever uses the database
  while others may too — the bot while it runs, ``backup`` and ``ratings rebuild`` while
  they read or write — and *exclusive* by whoever needs it alone: ``restore``,
  ``copy-db``, and a migration to a newer schema (by a bot as it starts, or by
  ``ratings rebuild``). So ``restore`` refuses while a bot runs on the database (instead
  of putting the file back under it), a bot does not start while a restore or a copy is
  being made, and a newer version of the bot does not migrate a database an older one
  is still running on.
- ``alienfrontiers.db.bot.lock``, the bot's: held *exclusive* by the bot while it runs, so
  a second bot on the same file (a service and a run by hand, say) refuses to start.
  Several bot processes share a PostgreSQL database, which is not locked here.

The locks are the operating system's (``flock``): they go with the process, even one
killed with ``kill -9``, so a crash never leaves a stale lock behind. They lie beside
the database's real file, whatever name it is reached by: a symbolic link to the file,
or to its folder, leads to the same locks. A file with several names (hard links) has
no one place for them, nor for SQLite's own ``-wal`` file, which SQLite keeps beside the
name a program opened: ``one_name`` says why such a file is refused. (Separate files,
not the database itself: SQLite's own locks on the database are released by closing
any handle on it.)

Where ``flock`` does not exist (Windows), nothing is locked and nothing is refused.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType
from typing import Self

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


class InUse(Exception):
    """Another process holds the lock; the message says which kind of process it can be."""


STOP_THE_BOT = "Ctrl-C, `systemctl stop alien-frontiers`, `docker stop af`"


def lock_file(database: Path, suffix: str = ".lock") -> Path:
    """The lock file of the SQLite database ``database``: beside its real file (symbolic
    links followed), so every path to it names the same lock."""
    real = Path(os.path.realpath(database))
    return real.with_name(real.name + suffix)


def one_name(database: Path) -> str | None:
    """Why ``database`` must not be used, if it is a file with more than one name (hard
    links): a lock, and SQLite's ``-wal`` file, lie beside one name only, so a program
    using another name sees neither and can corrupt it. None if it has one name."""
    try:
        names = os.stat(database).st_nlink
    except OSError:
        return None
    if names <= 1:
        return None
    return (
        f"{database} is one file with {names} names (hard links): SQLite keeps its journal "
        "beside the name a program opened, so programs using different names can corrupt "
        f"it; keep one name (`find / -samefile {database}` lists them; a symbolic link is "
        "fine)"
    )


class _Flock:
    """A lock on one file, held through one open descriptor."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None

    def take(self, *, exclusive: bool) -> bool:
        """Hold (or convert to) the lock now; False if another process holds it (and then
        nothing is held). A folder where the lock file cannot be made (read-only) is not
        locked: nothing there can be written anyway."""
        if fcntl is None:
            return True
        if self._fd is None:
            try:
                self._fd = os.open(self.path, os.O_RDONLY | os.O_CREAT, 0o644)
            except OSError:
                return True
        try:
            fcntl.flock(self._fd, (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB)
        except BlockingIOError:
            # A failed conversion has let go of the lock held before (flock(2)).
            self.release()
            return False
        return True

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # the lock goes with the descriptor
            self._fd = None


class _Held:
    """A lock held until ``release``, or the end of a ``with`` block."""

    def release(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.release()


class DatabaseLock(_Held):
    """A shared or exclusive hold on a SQLite database (see the module docstring)."""

    def __init__(self, database: Path) -> None:
        self.database = database
        self.path = lock_file(database)
        self._lock = _Flock(self.path)

    def acquire(self, *, exclusive: bool) -> Self:
        """Hold the lock now or raise ``InUse``; never waits."""
        if not self._lock.take(exclusive=exclusive):
            raise InUse(self._busy(exclusive))
        return self

    def convert(self, *, exclusive: bool) -> None:
        """Turn the lock held into the other kind, or raise ``InUse`` (holding nothing)."""
        self.acquire(exclusive=exclusive)

    def _busy(self, exclusive: bool) -> str:
        if exclusive:
            return (
                f"{self.database} is in use (a bot running on it, or a backup or a ratings "
                f"rebuild being made): stop the bot first ({STOP_THE_BOT})"
            )
        return (
            f"{self.database} is being restored or copied (python -m bot restore or copy-db), "
            "or migrated by a newer version of the bot: wait until that has finished"
        )

    def release(self) -> None:
        self._lock.release()


class BotHold(_Held):
    """What a bot holds on its SQLite database while it runs: the bot's lock (one bot per
    database) and the database's lock, shared (exclusive while it migrates)."""

    def __init__(self, database: Path | None) -> None:
        """``database`` None: a database that is not locked (PostgreSQL, in memory)."""
        self.database = database
        self._bot = _Flock(lock_file(database, ".bot.lock")) if database else None
        self.lock = DatabaseLock(database) if database else None

    def acquire(self) -> Self:
        """Both locks, or ``InUse`` (holding neither)."""
        if self._bot is None or self.lock is None:
            return self
        if not self._bot.take(exclusive=True):
            raise InUse(
                f"another bot is running on {self.database} (a service, a container or "
                f"another terminal): stop it first ({STOP_THE_BOT}); one bot runs on a SQLite "
                "database, several bot processes share a PostgreSQL one (docs/hosting.md)"
            )
        try:
            self.lock.acquire(exclusive=False)
        except InUse:
            self._bot.release()
            raise
        return self

    @contextlib.contextmanager
    def alone(self, why: str) -> Iterator[None]:
        """The database's lock exclusive for the block (a migration), then shared again;
        ``InUse`` (saying ``why`` it is needed) if another process uses the database."""
        if self.lock is None:
            yield
            return
        try:
            self.lock.convert(exclusive=True)
        except InUse:
            raise InUse(
                f"{self.database}: {why}, which needs the database alone, but another process "
                "is using it (an older version of the bot still running, a backup or a ratings "
                f"rebuild): stop it first ({STOP_THE_BOT}), then start this one"
            ) from None
        try:
            yield
        finally:
            self.lock.convert(exclusive=False)

    def release(self) -> None:
        if self.lock is not None and self._bot is not None:
            self.lock.release()
            self._bot.release()


__all__ = ["STOP_THE_BOT", "BotHold", "DatabaseLock", "InUse", "lock_file", "one_name"]

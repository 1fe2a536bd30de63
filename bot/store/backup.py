"""``python -m bot backup DEST`` and ``python -m bot restore BACKUP``: the SQLite database
saved to one file while the bot runs, and put back.

A backup uses SQLite's online backup API: it reads the database in one step, as one
consistent snapshot (every acknowledged move up to that moment, none half-written),
and the bot goes on writing meanwhile (WAL: readers and the writer do not wait on each
other). It is written beside its destination under a temporary name, checked
(``PRAGMA integrity_check``, the bot's tables) and only then renamed into place, as a
self-contained file (no ``-wal``/``-shm`` beside it). It needs no ``sqlite3`` program,
so it runs inside the Docker image too.

A restore copies a backup into the bot's database through the same API: the backup is
checked first (a database of this bot, not of a newer one, not damaged), and replaces
the database's whole content. It refuses while a bot runs on the database (the lock of
``bot.store.db_lock``, by whatever path or link: the bot would go on with games that went
back under it), to replace a database that holds data unless asked (``replace``), ever
to replace a file that is not the bot's database or one with several names (hard
links), and to make a database where there is none unless asked (``new``: a restore run
from the wrong folder would make one nobody uses). A backup holds the lock shared, so a
restore never replaces the database in the middle of it. Another program writing to
the database (an ``sqlite3`` shell in a transaction) makes either command give up after
``BUSY_SECONDS``, in one line: Python's ``backup`` alone would wait for ever.

PostgreSQL is backed up with ``pg_dump`` and restored with ``pg_restore`` (see
docs/hosting.md); these commands refuse it. Output is for the operator (English).
"""

from __future__ import annotations

import contextlib
import datetime
import os
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bot.store.db import is_postgres_url, read_only_uri
from bot.store.db_inspect import (
    LOCKED_HELP,
    DatabaseBusy,
    NotABotDatabase,
    read_sqlite,
    sqlite_file,
    sqlite_schema,
)
from bot.store.db_lock import DatabaseLock, InUse, one_name
from bot.store.migrations import LATEST

BUSY_SECONDS = 5.0  # how long a command waits for another program's write lock


class BackupError(Exception):
    """The backup or the restore cannot be made; the message says why."""


@dataclass(frozen=True)
class Saved:
    path: Path
    games: int
    actions: int
    size: int
    version: int = LATEST  # the schema version of what was saved or restored


def _refuse_postgres(url: str, tool: str = "back it up with pg_dump") -> None:
    if is_postgres_url(url):
        raise BackupError(
            f"the database is PostgreSQL: {tool} (docs/hosting.md, 'Backups'); this command "
            "copies SQLite files"
        )


def _no_wait(what: str) -> Callable[[int, int, int], None]:
    """A progress callback for SQLite's backup API that gives up at once when the other
    side is locked (Python's ``backup`` would retry for ever): the database's busy timeout
    (5 s) has passed by then. ``DatabaseBusy`` names ``what`` is locked."""

    def progress(status: int, remaining: int, total: int) -> None:
        if status in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
            raise DatabaseBusy(f"{what} is locked by another program writing to it: {LOCKED_HELP}")

    return progress


def _destination(dest: str | Path, now: datetime.datetime) -> Path:
    """``dest``, or a new dated file in it if it is a folder: one that exists, a name
    ending with ``/``, or a new name without a suffix (``backups``, not ``af.db``)."""
    folder = Path(dest)
    named = str(dest).endswith(("/", os.sep)) or folder.is_dir()
    if not named and (folder.exists() or folder.suffix):
        return folder
    stem = f"alienfrontiers-{now:%Y-%m-%d-%H%M%S}"
    target = folder / f"{stem}.db"
    n = 1
    while target.exists():
        n += 1
        target = folder / f"{stem}-{n}.db"
    return target


def _make_folder(folder: Path) -> None:
    """Create ``folder`` (and its parents), or BackupError saying why it cannot be."""
    parent = folder
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        raise BackupError(f"cannot create the folder {folder}: {parent} is a file")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise BackupError(f"cannot create the folder {folder} ({e.strerror or e})") from None


def _counts(conn: sqlite3.Connection) -> tuple[int, int]:
    games = conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    actions = conn.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
    return int(games), int(actions)


def _check(conn: sqlite3.Connection, what: str) -> None:
    problems = [row[0] for row in conn.execute("PRAGMA integrity_check")]
    if problems != ["ok"]:
        raise BackupError(f"{what} is damaged: {'; '.join(problems[:3])}")


def backup(url: str, dest: str | Path, now: datetime.datetime | None = None) -> Saved:
    """Save the bot's SQLite database at ``url`` to ``dest`` (a file, or a folder to put a
    dated file in); never overwrites a file, never writes to the database."""
    _refuse_postgres(url)
    if not str(dest).strip():
        raise BackupError("DEST is empty: give a new file or a folder, e.g. backups/")
    try:
        sqlite_schema(url)
    except (NotABotDatabase, DatabaseBusy) as e:
        raise BackupError(str(e)) from None
    source_path = sqlite_file(url)
    target = _destination(dest, now or datetime.datetime.now())
    if target.is_dir():
        raise BackupError(f"{target} is a folder: give a new file name, or the folder itself")
    if target.exists():
        raise BackupError(f"{target} exists already: give a new name or a folder")
    if target.absolute() == source_path:
        raise BackupError("the backup would overwrite the database itself")
    _make_folder(target.parent)
    partial = target.with_name(f".{target.name}.partial")
    partial.unlink(missing_ok=True)
    try:
        hold = DatabaseLock(source_path).acquire(exclusive=False)
    except InUse as e:
        raise BackupError(str(e)) from None
    with hold:
        source = sqlite3.connect(read_only_uri(source_path), uri=True, timeout=BUSY_SECONDS)
        try:
            copy = sqlite3.connect(partial)
            try:
                source.backup(copy, progress=_no_wait(str(source_path)))  # one step: a snapshot
                copy.execute("PRAGMA journal_mode = DELETE")  # one file, no -wal beside it
                _check(copy, "the backup")
                games, actions = _counts(copy)
            finally:
                copy.close()
        except DatabaseBusy as e:
            partial.unlink(missing_ok=True)
            raise BackupError(f"{e}; nothing was written") from None
        except BaseException:
            partial.unlink(missing_ok=True)
            raise
        finally:
            source.close()
    partial.replace(target)
    return Saved(target, games, actions, target.stat().st_size)


def _check_target(target_path: Path, url: str, replace: bool, new: bool) -> None:
    """BackupError unless the backup may be put at ``target_path``: the bot's database
    (holding data: only with ``replace``), an empty file, or with ``new`` no file there."""
    if target_path.is_dir():
        raise BackupError(f"{url}: {target_path} is a folder, not the database file")
    if not target_path.exists():
        parent = target_path.parent
        while not parent.exists():
            parent = parent.parent
        if not parent.is_dir():
            raise BackupError(f"{url}: cannot create {target_path}: {parent} is a file")
        if not new:
            raise BackupError(
                f"{url}: there is no database at {target_path}{_where_hint(url)}: run restore "
                "from the bot's folder, or give the bot's database with --database; to make a "
                "new database there from the backup (a new machine), add --new"
            )
        return
    several = one_name(target_path)
    if several is not None:
        raise BackupError(f"{several}; nothing was restored")
    try:
        found = read_sqlite(url)
    except DatabaseBusy as e:
        raise BackupError(f"{e}; nothing was restored") from None
    except NotABotDatabase:
        found = None
    if found is None or (found.tables and not found.is_bot):
        raise BackupError(
            f"{url}: {target_path} is not a database of this bot: restore replaces only the "
            "bot's own database (check DATABASE_URL or --database)"
        )
    if found.data and not replace:
        raise BackupError(
            f"{url} ({target_path}) holds {found.data_text()}: stop the bot, then run again with "
            "--yes to replace all of it by the backup"
        )


def _where_hint(url: str) -> str:
    if url.startswith("sqlite:///") and not url.startswith("sqlite:////"):
        return f" (DATABASE_URL={url} is relative to the folder the command runs in, {os.getcwd()})"
    return ""


def restore(backup_file: Path, url: str, *, replace: bool = False, new: bool = False) -> Saved:
    """Replace the content of the bot's SQLite database at ``url`` by ``backup_file``
    (module docstring: what is refused). With ``new``, the database's file is created if
    there is none; without, a missing database is refused (a restore run from the wrong
    folder would make a database nobody uses)."""
    _refuse_postgres(url, "restore a pg_dump file with pg_restore")
    source_url = f"sqlite:///{backup_file.absolute()}"
    try:
        version = sqlite_schema(source_url)
    except NotABotDatabase as e:
        raise BackupError(f"not a backup of this bot: {e}") from None
    except DatabaseBusy as e:
        raise BackupError(f"{e}; nothing was restored") from None
    if version > LATEST:
        raise BackupError(
            f"{backup_file} was made by a newer version of the bot (schema version "
            f"{version}, this bot's is {LATEST}): update the bot first; nothing was restored"
        )
    target_path = sqlite_file(url)
    same = target_path.resolve() == backup_file.resolve()
    with contextlib.suppress(OSError):
        same = same or target_path.samefile(backup_file)
    if same:
        raise BackupError("the backup and the database are the same file")
    _check_target(target_path, url, replace, new)
    source = sqlite3.connect(read_only_uri(backup_file), uri=True)
    try:
        _check(source, f"the backup {backup_file}")
        _make_folder(target_path.parent)
        try:
            hold = DatabaseLock(target_path).acquire(exclusive=True)
        except InUse as e:
            raise BackupError(f"{e}; nothing was restored") from None
        with hold:
            target = sqlite3.connect(target_path, timeout=BUSY_SECONDS)
            try:
                try:
                    source.backup(target, progress=_no_wait(str(target_path)))
                except DatabaseBusy as e:
                    raise BackupError(f"{e}; nothing was restored") from None
                _check(target, "the restored database")
                games, actions = _counts(target)
            finally:
                target.close()
    finally:
        source.close()
    return Saved(target_path, games, actions, target_path.stat().st_size, version)


__all__ = ["BackupError", "Saved", "backup", "restore"]

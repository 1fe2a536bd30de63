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
``bot.store.db_lock``: the bot would go on with games that went back under it), to
replace a database that holds data unless asked (``replace``), and ever to replace a
file that is not the bot's database. A backup holds the lock shared, so a restore never
replaces the database in the middle of it.

PostgreSQL is backed up with ``pg_dump`` (see docs/hosting.md); these commands refuse it.
Output is for the operator (English).
"""

from __future__ import annotations

import datetime
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from bot.store.db import is_postgres_url, read_only_uri
from bot.store.db_inspect import NotABotDatabase, read_sqlite, sqlite_file, sqlite_schema
from bot.store.db_lock import DatabaseLock, InUse
from bot.store.migrations import LATEST


class BackupError(Exception):
    """The backup or the restore cannot be made; the message says why."""


@dataclass(frozen=True)
class Saved:
    path: Path
    games: int
    actions: int
    size: int
    version: int = LATEST  # the schema version of what was saved or restored


def _refuse_postgres(url: str) -> None:
    if is_postgres_url(url):
        raise BackupError(
            "the database is PostgreSQL: back it up with pg_dump "
            "(docs/hosting.md, 'Backups'); this command copies SQLite files"
        )


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
    try:
        sqlite_schema(url)
    except NotABotDatabase as e:
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
        source = sqlite3.connect(read_only_uri(source_path), uri=True, timeout=30)
        try:
            copy = sqlite3.connect(partial)
            try:
                source.backup(copy)  # all pages in one step: one snapshot
                copy.execute("PRAGMA journal_mode = DELETE")  # one file, no -wal beside it
                _check(copy, "the backup")
                games, actions = _counts(copy)
            finally:
                copy.close()
        except BaseException:
            partial.unlink(missing_ok=True)
            raise
        finally:
            source.close()
    partial.replace(target)
    return Saved(target, games, actions, target.stat().st_size)


def _check_target(target_path: Path, url: str, replace: bool) -> None:
    """BackupError unless the backup may be put at ``target_path``: no file there, an
    empty one, or the bot's database (holding data: only with ``replace``)."""
    if target_path.is_dir():
        raise BackupError(f"{url}: {target_path} is a folder, not the database file")
    if not target_path.exists():
        parent = target_path.parent
        while not parent.exists():
            parent = parent.parent
        if not parent.is_dir():
            raise BackupError(f"{url}: cannot create {target_path}: {parent} is a file")
        return
    try:
        found = read_sqlite(url)
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


def restore(backup_file: Path, url: str, *, replace: bool = False) -> Saved:
    """Replace the content of the bot's SQLite database at ``url`` by ``backup_file``
    (module docstring: what is refused). The database's file is created if there is none."""
    _refuse_postgres(url)
    source_url = f"sqlite:///{backup_file.absolute()}"
    try:
        version = sqlite_schema(source_url)
    except NotABotDatabase as e:
        raise BackupError(f"not a backup of this bot: {e}") from None
    if version > LATEST:
        raise BackupError(
            f"{backup_file} was made by a newer version of the bot (schema version "
            f"{version}, this bot's is {LATEST}): update the bot first; nothing was restored"
        )
    target_path = sqlite_file(url)
    if target_path.resolve() == backup_file.resolve():
        raise BackupError("the backup and the database are the same file")
    _check_target(target_path, url, replace)
    source = sqlite3.connect(read_only_uri(backup_file), uri=True)
    try:
        _check(source, f"the backup {backup_file}")
        _make_folder(target_path.parent)
        try:
            hold = DatabaseLock(target_path).acquire(exclusive=True)
        except InUse as e:
            raise BackupError(f"{e}; nothing was restored") from None
        with hold:
            target = sqlite3.connect(target_path, timeout=30)
            try:
                source.backup(target)
                _check(target, "the restored database")
                games, actions = _counts(target)
            finally:
                target.close()
    finally:
        source.close()
    return Saved(target_path, games, actions, target_path.stat().st_size, version)


__all__ = ["BackupError", "Saved", "backup", "restore"]

"""``python -m bot backup DEST`` and ``python -m bot restore BACKUP``: the SQLite database
saved to one file while the bot runs, and put back.

A backup uses SQLite's online backup API: it reads the database in one step, as one
consistent snapshot (every acknowledged move up to that moment, none half-written),
and the bot goes on writing meanwhile (WAL: readers and the writer do not wait on each
other). It is written beside its destination under a temporary name, checked
(``PRAGMA integrity_check``, the bot's tables) and only then renamed into place, as a
self-contained file (no ``-wal``/``-shm`` beside it). It needs no ``sqlite3`` program,
so it runs inside the Docker image too.

A restore copies a backup into the bot's database through the same API (the bot
stopped): it is checked first, and replaces the database's whole content.

PostgreSQL is backed up with ``pg_dump`` (see docs/hosting.md); these commands refuse it.
Output is for the operator (English).
"""

from __future__ import annotations

import datetime
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from bot.store.db import is_postgres_url
from bot.store.db_inspect import NotABotDatabase, sqlite_file, sqlite_schema


class BackupError(Exception):
    """The backup or the restore cannot be made; the message says why."""


@dataclass(frozen=True)
class Saved:
    path: Path
    games: int
    actions: int
    size: int


def _refuse_postgres(url: str) -> None:
    if is_postgres_url(url):
        raise BackupError(
            "the database is PostgreSQL: back it up with pg_dump "
            "(docs/hosting.md, 'Backups'); this command copies SQLite files"
        )


def _destination(dest: str | Path, now: datetime.datetime) -> Path:
    """``dest``, or a new dated file in it if it is a folder (or ends with ``/``)."""
    folder = Path(dest)
    if not (folder.is_dir() or str(dest).endswith(os.sep)):
        return folder
    stem = f"alienfrontiers-{now:%Y-%m-%d-%H%M%S}"
    target = folder / f"{stem}.db"
    n = 1
    while target.exists():
        n += 1
        target = folder / f"{stem}-{n}.db"
    return target


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
    dated file in); never overwrites a file."""
    _refuse_postgres(url)
    try:
        sqlite_schema(url)
    except NotABotDatabase as e:
        raise BackupError(str(e)) from None
    source_path = sqlite_file(url)
    target = _destination(dest, now or datetime.datetime.now())
    if target.exists():
        raise BackupError(f"{target} exists already: give a new name or a folder")
    if target.absolute() == source_path:
        raise BackupError("the backup would overwrite the database itself")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.partial")
    partial.unlink(missing_ok=True)
    source = sqlite3.connect(source_path, timeout=30)
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


def restore(backup_file: Path, url: str) -> Saved:
    """Replace the content of the bot's SQLite database at ``url`` by ``backup_file`` (the
    bot must be stopped). The database's file is created if there is none."""
    _refuse_postgres(url)
    source_url = f"sqlite:///{backup_file.absolute()}"
    try:
        sqlite_schema(source_url)
    except NotABotDatabase as e:
        raise BackupError(f"not a backup of this bot: {e}") from None
    target_path = sqlite_file(url)
    if target_path == backup_file.absolute():
        raise BackupError("the backup and the database are the same file")
    source = sqlite3.connect(f"{backup_file.absolute().as_uri()}?mode=ro", uri=True)
    try:
        _check(source, f"the backup {backup_file}")
        target_path.parent.mkdir(parents=True, exist_ok=True)
        target = sqlite3.connect(target_path, timeout=30)
        try:
            source.backup(target)
            _check(target, "the restored database")
            games, actions = _counts(target)
        finally:
            target.close()
    finally:
        source.close()
    return Saved(target_path, games, actions, target_path.stat().st_size)


__all__ = ["BackupError", "Saved", "backup", "restore"]

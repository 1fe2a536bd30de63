"""What a database URL holds, read without changing anything: for the admin's commands
(``copy-db``, ``backup``, ``restore``, ``ratings rebuild``) and the bot's start.

Opening a database the way the bot does creates a missing SQLite file and migrates it;
a command that reads a database must not, and one that writes must know first what it
would write into. Everything here opens a SQLite file read-only (and only if it exists)
or connects to PostgreSQL without creating anything, and refuses, in one line naming
the URL it read, what is not a database of this bot (``NotABotDatabase``) or not a
database a copy may be written into (``NotATarget``).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import asyncpg

from bot.store.db import SQLITE_SCHEME, is_postgres_url, read_only_uri, sqlite_path
from bot.store.db_url import masked_url
from bot.store.migrations import LATEST
from bot.store.storage import TABLES

CONNECT_SECONDS: Final = 10.0
# Tables every version of the bot's schema has (migration 1).
CORE_TABLES: Final = frozenset({"games", "seats", "actions"})
# Rows a bot writes by itself when it starts, before anyone plays (the digest of the
# slash commands it registered): a database holding only those is still empty.
BOOKKEEPING: Final = frozenset({"meta"})


class NotABotDatabase(Exception):
    """The URL names no database of this bot (missing, empty, another program's, or
    unreachable): the message says which, and which URL was read."""


class DatabaseBusy(Exception):
    """Another program holds a write lock on the SQLite file (an ``sqlite3`` shell or DB
    Browser in the middle of a change) longer than SQLite's busy timeout."""


LOCKED_HELP: Final = (
    "an sqlite3 shell or DB Browser for SQLite with unsaved changes? Write or revert its "
    "changes, or close it, then try again"
)


class NotATarget(Exception):
    """A copy may not be written there (a folder, another program's file or tables, data
    already, a newer schema, a bot connected): the message says which."""


@dataclass(frozen=True)
class Contents:
    """What a database holds: the bot's schema version (0: none), every table, and the
    rows of each of the bot's tables."""

    version: int = 0
    tables: frozenset[str] = frozenset()
    rows: Mapping[str, int] = field(default_factory=dict)
    sessions: int = 0  # PostgreSQL: other connections to the database (the bots?)
    # PostgreSQL: the tables, views and sequences of the database's other schemas
    # (``schema.name``), whoever owns them.
    elsewhere: frozenset[str] = frozenset()

    @property
    def foreign(self) -> list[str]:
        """Tables that are not the bot's."""
        return sorted(self.tables - set(TABLES) - {"schema_version"})

    @property
    def data(self) -> dict[str, int]:
        """The bot's tables that hold rows (its own bookkeeping left out)."""
        return {t: n for t, n in self.rows.items() if n and t not in BOOKKEEPING}

    @property
    def is_bot(self) -> bool:
        return self.version > 0 and self.tables >= CORE_TABLES

    def data_text(self) -> str:
        """What ``data`` holds, in a few words: ``4 games and 381 other rows``."""
        data = self.data
        games = data.get("games", 0)
        rest = sum(data.values()) - games
        if games:
            return plural(games, "game") + (f" and {plural(rest, 'other row')}" if rest else "")
        return f"{plural(rest, 'row')} in {', '.join(data)}"


def plural(count: int, noun: str) -> str:
    """``1 game``, ``2 games``: for the operator's lines (English)."""
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def shown_url(url: str) -> str:
    """``url`` fit to print: a PostgreSQL password replaced by ``***`` (bot.store.db_url)."""
    return masked_url(url)


def database_name(url: str) -> str:
    """The database as a log names it: a SQLite file's absolute path, or a PostgreSQL URL
    without its password."""
    if is_postgres_url(url):
        return masked_url(url)
    if sqlite_path(url) == ":memory:":
        return "in memory (gone when the bot stops)"
    return str(sqlite_file(url))


def sqlite_file(url: str) -> Path:
    """The SQLite file a URL names, as an absolute path (not checked)."""
    return Path(sqlite_path(url)).absolute()


def _path_hint(url: str) -> str:
    if url.startswith(SQLITE_SCHEME) and not url.startswith(SQLITE_SCHEME + "/"):
        return (
            f" (sqlite:/// takes a path relative to the current folder, {os.getcwd()}; "
            "an absolute path has four slashes, e.g. sqlite:////data/alienfrontiers.db "
            "inside the Docker image)"
        )
    return ""


def read_sqlite(url: str) -> Contents:
    """What the SQLite file of ``url`` holds (an empty ``Contents`` for an empty file);
    ``NotABotDatabase`` for a missing file, a folder or a file that is no SQLite
    database. Opens the file read-only: creates and changes nothing."""
    path = sqlite_file(url)
    if sqlite_path(url) == ":memory:":
        raise NotABotDatabase(f"{url}: an in-memory database holds nothing to read")
    if not path.exists():
        raise NotABotDatabase(f"{url}: there is no file {path}{_path_hint(url)}")
    if not path.is_file():
        raise NotABotDatabase(f"{url}: {path} is a folder, not a database file")
    if path.stat().st_size == 0:
        return Contents()
    try:
        conn = sqlite3.connect(read_only_uri(path), uri=True)
        try:
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            tables = frozenset(
                str(row[0])
                for row in conn.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table'"
                    " AND name NOT LIKE 'sqlite_%'"
                )
            )
            rows: dict[str, int] = {
                t: int(conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0])
                for t in TABLES
                if t in tables
            }
        finally:
            conn.close()
    except sqlite3.OperationalError as e:
        if "locked" in str(e) or "busy" in str(e):
            raise DatabaseBusy(
                f"{path} is locked by another program writing to it: {LOCKED_HELP}"
            ) from None
        raise NotABotDatabase(f"{url}: {path} cannot be read ({e})") from None
    except sqlite3.DatabaseError as e:
        raise NotABotDatabase(f"{url}: {path} is not a SQLite database ({e})") from None
    return Contents(version, tables, rows)


def sqlite_schema(url: str) -> int:
    """The schema version of the bot's SQLite database at ``url``; raises
    ``NotABotDatabase`` if there is none there, or one of a newer bot. Creates and
    changes nothing."""
    found = read_sqlite(url)
    path = sqlite_file(url)
    if path.stat().st_size == 0:
        raise NotABotDatabase(f"{url}: {path} is an empty file, not a database")
    if not found.is_bot:
        raise NotABotDatabase(
            f"{url}: {path} is a SQLite database, but not this bot's (none of its tables)"
        )
    return found.version


async def read_postgres(url: str) -> Contents:
    """What the PostgreSQL database of ``url`` holds; ``NotABotDatabase`` if it cannot be
    reached. Reads only (in a read-only transaction): creates nothing."""
    shown = shown_url(url)
    try:
        conn = await asyncpg.connect(
            url,
            timeout=CONNECT_SECONDS,
            server_settings={"default_transaction_read_only": "on"},
        )
    except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as e:
        raise NotABotDatabase(f"{shown}: cannot connect ({e or type(e).__name__})") from None
    except (ValueError, OverflowError):  # a URL asyncpg cannot read: its words may quote it
        raise NotABotDatabase(
            f"{shown}: cannot be read as a PostgreSQL URL (postgresql://user@host:5432/database"
            ", the password percent-encoded or in PGPASSWORD)"
        ) from None
    try:
        # pg_class, not information_schema: every relation, whoever owns it and whatever
        # the bot's role may read of it (information_schema shows only those it may).
        found = await conn.fetch(
            "SELECT n.nspname = current_schema(), n.nspname || '.' || c.relname, c.relname,"
            " c.relkind::text FROM pg_catalog.pg_class c"
            " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
            " WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')"
            " AND n.nspname NOT IN ('pg_catalog', 'information_schema')"
            " AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp\\_%'"
        )
        # A sequence in the bot's schema is an identity column's (the bot's tables have
        # some); elsewhere, any relation is another program's.
        tables = frozenset(str(r[2]) for r in found if r[0] and r[3] != "S")
        elsewhere = frozenset(str(r[1]) for r in found if not r[0])
        version = 0
        if "schema_version" in tables:
            value = await conn.fetchval("SELECT version FROM schema_version WHERE id = 1")
            version = int(value) if value is not None else 0
        rows: dict[str, int] = {}
        for table in TABLES:
            if table in tables:
                rows[table] = int(await conn.fetchval(f"SELECT COUNT(*) FROM {table}"))
        sessions = await conn.fetchval(
            "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid <> pg_backend_pid() AND backend_type = 'client backend'"
        )
    finally:
        await conn.close()
    return Contents(version, tables, rows, int(sessions or 0), elsewhere)


async def postgres_schema(url: str) -> int:
    """The schema version of the bot's PostgreSQL database at ``url``; raises
    ``NotABotDatabase`` if it cannot be reached or holds no bot tables. Creates nothing."""
    found = await read_postgres(url)
    if not found.is_bot:
        raise NotABotDatabase(f"{shown_url(url)}: the database holds none of this bot's tables")
    return found.version


async def bot_schema(url: str) -> int:
    """The schema version of the bot's database at ``url`` (see the module docstring)."""
    if is_postgres_url(url):
        return await postgres_schema(url)
    return sqlite_schema(url)


def _newer(shown: str, version: int) -> str:
    return (
        f"{shown}: its schema is version {version}, newer than this bot's ({LATEST}): "
        "update the bot first"
    )


def check_sqlite_for_the_bot(url: str) -> None:
    """``NotABotDatabase`` if the bot must not open the SQLite file of ``url``: a folder,
    a file that is no SQLite database, another program's database (the bot would add its
    tables to it), or a database of a newer bot. A missing or empty file is fine: the bot
    creates its database there."""
    if sqlite_path(url) == ":memory:" or not sqlite_file(url).exists():
        return
    found = read_sqlite(url)
    path = sqlite_file(url)
    if found.tables and not found.is_bot:
        raise NotABotDatabase(
            f"{url}: {path} is another program's database (tables: "
            f"{', '.join(found.foreign[:5])}): give the bot a file of its own"
        )
    if found.version > LATEST:
        raise NotABotDatabase(_newer(url, found.version))


def _writable_folder(url: str, path: Path) -> None:
    """``NotATarget`` unless ``path`` can be created: its nearest existing folder must be
    a folder, and writable."""
    parent = path.parent
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        raise NotATarget(f"{url}: {parent} is a file, not a folder")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise NotATarget(f"{url}: cannot create {path}: {parent} is not writable")


def _check_contents(shown: str, found: Contents, what: str) -> None:
    others = found.foreign + sorted(found.elsewhere)
    if others:
        listed = ", ".join(others[:5]) + (", ..." if len(others) > 5 else "")
        raise NotATarget(
            f"{shown}: {what} holds another program's tables ({listed}): copy-db writes "
            "only into a new or empty database, or one of this bot that holds no games"
        )
    if found.version > LATEST:
        raise NotATarget(_newer(shown, found.version))
    if found.data:
        raise NotATarget(
            f"{shown}: {what} holds data already ({found.data_text()}): copy-db copies into "
            "an empty database (a new file, or a PostgreSQL database the bots have not played on)"
        )


async def check_copy_target(url: str) -> None:
    """``NotATarget`` unless a copy may be written at ``url``: a new SQLite file in a
    writable folder, an empty file, a new or empty PostgreSQL database, or one of this
    bot that holds no games (the bots started on it, nobody played) and no bot is
    connected to. Reads only: creates nothing."""
    if is_postgres_url(url):
        try:
            found = await read_postgres(url)
        except NotABotDatabase as e:
            raise NotATarget(str(e)) from None
        _check_contents(shown_url(url), found, "the database")
        if found.sessions:
            raise NotATarget(
                f"{shown_url(url)}: {plural(found.sessions, 'other connection')} to the "
                "database (bots running on it?): stop them first (`docker compose stop "
                "bot-0 bot-1`), then copy"
            )
        return
    if sqlite_path(url) == ":memory:":
        raise NotATarget(f"{url}: an in-memory database is gone when copy-db ends")
    path = sqlite_file(url)
    if path.is_dir():
        raise NotATarget(
            f"{url}: {path} is a folder: name a file in it, e.g. "
            f"{SQLITE_SCHEME}{Path(sqlite_path(url)) / 'alienfrontiers.db'}"
        )
    if not path.exists():
        _writable_folder(url, path)
        return
    try:
        found = read_sqlite(url)
    except NotABotDatabase as e:
        raise NotATarget(
            f"{e}: copy-db writes only into a new file, an empty one, or an empty "
            "database of this bot"
        ) from None
    _check_contents(url, found, str(path))
    if not os.access(path, os.W_OK):
        raise NotATarget(f"{url}: {path} is not writable")


__all__ = [
    "BOOKKEEPING",
    "LOCKED_HELP",
    "Contents",
    "DatabaseBusy",
    "NotABotDatabase",
    "NotATarget",
    "bot_schema",
    "check_copy_target",
    "check_sqlite_for_the_bot",
    "database_name",
    "plural",
    "postgres_schema",
    "read_postgres",
    "read_sqlite",
    "shown_url",
    "sqlite_file",
    "sqlite_schema",
]

"""What a database URL holds, read without changing anything: for ``copy-db`` and ``backup``.

Opening a database the way the bot does creates a missing SQLite file and migrates it;
an admin's tool that reads a database must not. ``bot_schema`` opens a SQLite file
read-only (and only if it exists) or connects to PostgreSQL without creating anything,
and refuses, in one line naming the URL it read, what is not a database of this bot.
"""

from __future__ import annotations

import os
import sqlite3
import urllib.parse
from pathlib import Path
from typing import Final

import asyncpg

from bot.store.db import SQLITE_SCHEME, is_postgres_url, sqlite_path

CONNECT_SECONDS: Final = 10.0
# Tables every version of the bot's schema has (migration 1).
CORE_TABLES: Final = frozenset({"games", "seats", "actions"})


class NotABotDatabase(Exception):
    """The URL names no database of this bot (missing, empty, another program's, or
    unreachable): the message says which, and which URL was read."""


def shown_url(url: str) -> str:
    """``url`` fit to print: a PostgreSQL password replaced by ``***``."""
    if not is_postgres_url(url):
        return url
    parts = urllib.parse.urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rsplit("@", 1)[1]
    user = parts.username or ""
    return urllib.parse.urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))


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


def sqlite_schema(url: str) -> int:
    """The schema version of the bot's SQLite database at ``url``; raises
    ``NotABotDatabase`` if there is none there. Creates and changes nothing."""
    path = sqlite_file(url)
    if sqlite_path(url) == ":memory:":
        raise NotABotDatabase(f"{url}: an in-memory database holds nothing to read")
    if not path.exists():
        raise NotABotDatabase(f"{url}: there is no file {path}{_path_hint(url)}")
    if not path.is_file():
        raise NotABotDatabase(f"{url}: {path} is a folder, not a database file")
    if path.stat().st_size == 0:
        raise NotABotDatabase(f"{url}: {path} is an empty file, not a database")
    try:
        conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
        try:
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            tables = {
                row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
            }
        finally:
            conn.close()
    except sqlite3.DatabaseError as e:
        raise NotABotDatabase(f"{url}: {path} is not a SQLite database ({e})") from None
    if version == 0 or not tables >= CORE_TABLES:
        raise NotABotDatabase(
            f"{url}: {path} is a SQLite database, but not this bot's (none of its tables)"
        )
    return version


async def postgres_schema(url: str) -> int:
    """The schema version of the bot's PostgreSQL database at ``url``; raises
    ``NotABotDatabase`` if it cannot be reached or holds no bot tables. Creates nothing."""
    shown = shown_url(url)
    try:
        conn = await asyncpg.connect(url, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as e:
        raise NotABotDatabase(f"{shown}: cannot connect ({e or type(e).__name__})") from None
    try:
        found = await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
        version = 0
        if found:
            value = await conn.fetchval("SELECT version FROM schema_version WHERE id = 1")
            version = int(value) if value is not None else 0
        tables = {
            r[0]
            for r in await conn.fetch(
                "SELECT table_name FROM information_schema.tables"
                " WHERE table_schema = current_schema()"
            )
        }
    finally:
        await conn.close()
    if version == 0 or not tables >= CORE_TABLES:
        raise NotABotDatabase(f"{shown}: the database holds none of this bot's tables")
    return version


async def bot_schema(url: str) -> int:
    """The schema version of the bot's database at ``url`` (see the module docstring)."""
    if is_postgres_url(url):
        return await postgres_schema(url)
    return sqlite_schema(url)


__all__ = [
    "NotABotDatabase",
    "bot_schema",
    "postgres_schema",
    "shown_url",
    "sqlite_file",
    "sqlite_schema",
]

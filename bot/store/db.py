"""The two databases behind ``bot.store.storage.Storage``: SQLite (aiosqlite) and PostgreSQL
(asyncpg).

Storage writes its SQL once, in the subset both databases speak: ``?`` placeholders,
``INSERT … ON CONFLICT … DO UPDATE``, ``RETURNING``, integers for flags. A driver
runs that text as it is (SQLite) or with the placeholders numbered (``$1, $2``
for asyncpg), and turns each database's unique-key error into ``UniqueViolation``.
What cannot be shared lives here and nowhere else: how a connection is opened and a
write transaction begun, where the schema version is kept, and the column types of
the migrations (``postgres_ddl``); a migration step that cannot be written once is
given per dialect (``steps_of``).

SQLite: one connection per process, every statement through one ``asyncio.Lock``,
``BEGIN IMMEDIATE`` transactions, WAL, ``synchronous=FULL``. PostgreSQL: a connection
pool, one pooled connection per transaction (``READ COMMITTED``, the default, with
``synchronous_commit`` on, the default), so an acknowledged commit is on disk. Each
round trip to PostgreSQL costs both sides CPU, so none is spent needlessly: a write of
one statement (``write``) is sent alone, atomic by itself, without ``BEGIN`` and
``COMMIT``; and a connection goes back to the pool without asyncpg's session reset
(the bot never changes a session: no ``SET``, ``LISTEN``, cursors or session locks).
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import (
    AsyncIterator,
    Awaitable,
    Callable,
    Iterable,
    Iterator,
    Sequence,
)
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal, Protocol

import aiosqlite
import asyncpg

Dialect = Literal["sqlite", "postgresql"]
POSTGRES_SCHEMES: Final = ("postgresql://", "postgres://")
SQLITE_SCHEME: Final = "sqlite:///"
# Any constant: the key of the advisory lock that lets one process at a time migrate.
_MIGRATION_LOCK: Final = 0x4146_6D69_6772  # "AFmigr"
# How long a SQLite statement waits for another connection's write lock before it fails
# with "database is locked" (the bot's own writes take turns; this is for other programs).
BUSY_TIMEOUT_MS = 5000


class Row(Protocol):
    """A result row: ``sqlite3.Row`` and ``asyncpg.Record`` both read by name or index, and
    iterate over their values."""

    def __getitem__(self, key: str | int, /) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...


class UniqueViolation(Exception):
    """A unique key (primary key or unique index) refused a row, on either database."""


class Tx(Protocol):
    """What a transaction (or a read) can run: SQL with ``?`` placeholders."""

    async def execute(self, sql: str, params: Sequence[object] = ()) -> None: ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None: ...

    async def fetch(self, sql: str, params: Sequence[object] = ()) -> list[Row]: ...

    async def fetchone(self, sql: str, params: Sequence[object] = ()) -> Row | None: ...


@dataclass(frozen=True, slots=True)
class PerDialect:
    """A migration step written for each database: what only one of them needs (SQLite
    changes a CHECK constraint or a NOT NULL by rebuilding the table, PostgreSQL alters it
    in place). Each is SQL or a function of the transaction, as any step."""

    sqlite: str | Callable[[Tx], Awaitable[None]]
    postgresql: str | Callable[[Tx], Awaitable[None]]


# A migration: its number, and its SQL or its steps (SQL, a function of the transaction, or
# a step per database).
MigrationStep = str | Callable[[Tx], Awaitable[None]] | PerDialect
Migration = tuple[int, str | tuple[MigrationStep, ...]]


def steps_of(
    migration: Migration, dialect: Dialect = "sqlite"
) -> tuple[str | Callable[[Tx], Awaitable[None]], ...]:
    """A migration's steps as ``dialect`` runs them (SQL, or functions of the transaction)."""
    body = migration[1]
    steps = (body,) if isinstance(body, str) else body
    return tuple(getattr(s, dialect) if isinstance(s, PerDialect) else s for s in steps)


def _values(params: Sequence[object]) -> list[object]:
    """Flags are stored as integers on both databases (asyncpg wants an int for BIGINT)."""
    return [int(v) if isinstance(v, bool) else v for v in params]


def is_postgres_url(url: str) -> bool:
    return url.startswith(POSTGRES_SCHEMES)


class Database(ABC):
    """A database opened by ``open_database``; see the module docstring."""

    dialect: Dialect

    @abstractmethod
    def transaction(self) -> Any:
        """``async with db.transaction() as tx:`` one write transaction, rolled back on error."""

    @abstractmethod
    async def fetch(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        """Rows of one read outside a transaction."""

    @abstractmethod
    async def write(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        """One statement that writes, in a transaction of its own (committed, on disk, when
        this returns), and the rows it returns (``RETURNING``)."""

    async def fetchone(self, sql: str, params: Sequence[object] = ()) -> Row | None:
        rows = await self.fetch(sql, params)
        return rows[0] if rows else None

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def schema_version(self) -> int: ...

    @abstractmethod
    async def migrate(self, migrations: Sequence[Migration]) -> None:
        """Apply the migrations not applied yet, each in its own transaction, in order."""

    @abstractmethod
    async def tables(self) -> list[str]:
        """Names of the tables of the bot's schema."""

    @abstractmethod
    async def columns(self, table: str) -> list[tuple[str, str, bool]]:
        """(name, portable type ``INTEGER``/``REAL``/``TEXT``, nullable) of a table's columns."""

    @abstractmethod
    async def primary_key(self, table: str) -> list[str]:
        """The columns of a table's primary key, in order."""

    @abstractmethod
    async def after_copy(self, table: str) -> None:
        """After rows were copied in with their own ids: let new rows number on from them."""


def _check_version(current: int, latest: int) -> None:
    if current > latest:
        raise RuntimeError(
            f"the database schema is version {current}, newer than this bot ({latest}); "
            "upgrade the bot"
        )


def _statements(sql: str) -> list[str]:
    """The statements of a migration (none of ours has a ``;`` inside a literal)."""
    return [s for s in sql.split(";") if s.strip()]


# ---- SQLite -----------------------------------------------------------------------------


class _SQLiteTx:
    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def execute(self, sql: str, params: Sequence[object] = ()) -> None:
        try:
            await self.conn.execute(sql, _values(params))
        except sqlite3.IntegrityError as e:
            if "UNIQUE" in str(e):
                raise UniqueViolation(str(e)) from e
            raise

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        try:
            await self.conn.executemany(sql, [_values(r) for r in rows])
        except sqlite3.IntegrityError as e:
            if "UNIQUE" in str(e):
                raise UniqueViolation(str(e)) from e
            raise

    async def fetch(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        # One trip to the connection's thread (run, read every row, close the cursor), not
        # three: each trip is a hand-over between threads, made while the lock is held.
        try:
            return list(await self.conn.execute_fetchall(sql, _values(params)))
        except sqlite3.IntegrityError as e:
            if "UNIQUE" in str(e):
                raise UniqueViolation(str(e)) from e
            raise

    async def fetchone(self, sql: str, params: Sequence[object] = ()) -> Row | None:
        rows = await self.fetch(sql, params)
        return rows[0] if rows else None


class SQLiteDatabase(Database):
    """One aiosqlite connection, statements serialised by a lock (see the module docstring)."""

    dialect: Dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self._conn = conn
        self._tx = _SQLiteTx(conn)
        self._lock = asyncio.Lock()
        self.path = path

    @classmethod
    async def open(cls, path: str | Path, *, read_only: bool = False) -> SQLiteDatabase:
        """Open (creating the file and its folder if needed) and switch to WAL; with
        ``read_only``, open an existing file as it is, and refuse every write to it."""
        name = str(path)
        target, uri = name, False
        if read_only and name != ":memory:":
            target, uri = read_only_uri(Path(name)), True
        elif name != ":memory:":
            Path(name).parent.mkdir(parents=True, exist_ok=True)
        # A file sqlite3 cannot open (a folder, no permission) is found here: aiosqlite,
        # when its own connect fails, leaves its worker thread to report to an event loop
        # that may be closed by then (a traceback at exit).
        await asyncio.to_thread(_can_open, target, uri)
        conn = await aiosqlite.connect(target, isolation_level=None, uri=uri)
        try:
            conn.row_factory = sqlite3.Row
            await conn.execute("PRAGMA foreign_keys = ON")
            await conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_MS)}")
            if name != ":memory:" and not read_only:
                await conn.execute("PRAGMA journal_mode = WAL")
            await conn.execute("PRAGMA synchronous = FULL")
        except BaseException:
            # e.g. "file is not a database": without a close, the connection's thread
            # keeps the process alive for ever.
            await conn.close()
            raise
        return cls(conn, name)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        async with self._lock:
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._tx
            except BaseException:
                await self._conn.execute("ROLLBACK")
                raise
            await self._conn.execute("COMMIT")

    async def fetch(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        async with self._lock:
            return await self._tx.fetch(sql, params)

    async def write(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        async with self.transaction() as tx:
            return await tx.fetch(sql, params)

    async def close(self) -> None:
        async with self._lock:
            await self._conn.close()

    async def schema_version(self) -> int:
        row = await self.fetchone("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def migrate(self, migrations: Sequence[Migration]) -> None:
        """Each migration in a transaction of its own, with the foreign keys off while it
        runs (SQLite's way to rebuild a table that others refer to: dropping it with them on
        would delete the rows that refer to it) and checked before it commits."""
        latest = migrations[-1][0]
        current = await self.schema_version()
        _check_version(current, latest)
        if all(m[0] <= current for m in migrations):
            return
        async with self._lock:  # outside a transaction: SQLite ignores it inside one
            await self._conn.execute("PRAGMA foreign_keys = OFF")
        try:
            for migration in migrations:
                number = migration[0]
                if number <= current:
                    continue
                async with self.transaction() as tx:
                    # Read again once the write lock is held: another process may have
                    # migrated meanwhile (two started together), and a migration must not
                    # run twice.
                    row = await tx.fetchone("PRAGMA user_version")
                    current = int(row[0]) if row else 0
                    _check_version(current, latest)
                    if number <= current:
                        continue
                    for step in steps_of(migration, self.dialect):
                        if isinstance(step, str):
                            for statement in _statements(step):
                                await tx.execute(statement)
                        else:
                            await step(tx)
                    broken = await tx.fetch("PRAGMA foreign_key_check")
                    if broken:
                        raise RuntimeError(
                            f"migration {number} left rows whose reference is gone: "
                            f"{[tuple(r) for r in broken[:5]]}"
                        )
                    await tx.execute(f"PRAGMA user_version = {int(number)}")
        finally:
            async with self._lock:
                await self._conn.execute("PRAGMA foreign_keys = ON")

    async def tables(self) -> list[str]:
        rows = await self.fetch(
            "SELECT name FROM sqlite_master WHERE type = 'table'"
            " AND name NOT LIKE 'sqlite_%' ORDER BY name"
        )
        return [str(r[0]) for r in rows]

    async def columns(self, table: str) -> list[tuple[str, str, bool]]:
        rows = await self.fetch(f"PRAGMA table_info({table})")
        return [
            (str(r["name"]), str(r["type"]).upper(), not r["notnull"] and not r["pk"]) for r in rows
        ]

    async def primary_key(self, table: str) -> list[str]:
        rows = await self.fetch(f"PRAGMA table_info({table})")
        return [str(r["name"]) for r in sorted(rows, key=lambda r: r["pk"]) if r["pk"]]

    async def after_copy(self, table: str) -> None:
        """Nothing to do: a row id numbers on from the largest one by itself."""


def read_only_uri(path: Path) -> str:
    """A URI that opens the SQLite file ``path`` for reading only and leaves nothing beside
    it. A read-only connection to a database in WAL mode makes its ``-wal`` and ``-shm``
    files and cannot remove them; when there is no ``-wal`` (nor a ``-journal``), nothing
    waits to be read beside the file, and it is opened ``immutable``: as it is, without
    those files."""
    uri = path.absolute().as_uri()
    beside = [path.with_name(path.name + s) for s in ("-wal", "-journal")]
    if any(p.exists() for p in beside):
        return f"{uri}?mode=ro"
    return f"{uri}?immutable=1"


def _can_open(target: str, uri: bool) -> None:
    """sqlite3.Error if ``target`` cannot be opened (the file is created if missing)."""
    sqlite3.connect(target, uri=uri).close()


# ---- PostgreSQL -------------------------------------------------------------------------

_PLACEHOLDER = re.compile(r"'(?:[^']|'')*'|\?")


def numbered(sql: str) -> str:
    """``?`` placeholders as asyncpg's ``$1, $2, …`` (a ``?`` inside a quoted literal stays)."""
    count = 0

    def number(match: re.Match[str]) -> str:
        nonlocal count
        if match.group(0) != "?":
            return match.group(0)
        count += 1
        return f"${count}"

    return _PLACEHOLDER.sub(number, sql)


# Column types as SQLite's migrations write them, and PostgreSQL's for the same values:
# Discord ids and seeds need 64 bits, times are seconds as doubles. A column declared
# ``INTEGER PRIMARY KEY`` is SQLite's row id, which numbers new rows by itself (with
# ``AUTOINCREMENT``, never reusing a number): on PostgreSQL an identity column does that
# (and never reuses one).
_PG_TYPES: Final = (
    (
        re.compile(r"\bINTEGER\s+PRIMARY\s+KEY(\s+AUTOINCREMENT)?\b", re.I),
        "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
    ),
    (re.compile(r"\bINTEGER\b", re.I), "BIGINT"),
    (re.compile(r"\bREAL\b", re.I), "DOUBLE PRECISION"),
)
_PORTABLE: Final = {"bigint": "INTEGER", "double precision": "REAL", "text": "TEXT"}


def postgres_ddl(sql: str) -> str:
    """A migration's SQLite text with PostgreSQL's column types (see ``_PG_TYPES``)."""
    for pattern, replacement in _PG_TYPES:
        sql = pattern.sub(replacement, sql)
    return sql


class _PostgresTx:
    def __init__(self, conn: Any, database: PostgresDatabase) -> None:
        self.conn = conn
        self.db = database

    async def execute(self, sql: str, params: Sequence[object] = ()) -> None:
        try:
            await self.conn.execute(self.db.sql(sql), *_values(params))
        except asyncpg.UniqueViolationError as e:
            raise UniqueViolation(str(e)) from e

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        args = [_values(r) for r in rows]
        if not args:
            return
        try:
            await self.conn.executemany(self.db.sql(sql), args)
        except asyncpg.UniqueViolationError as e:
            raise UniqueViolation(str(e)) from e

    async def fetch(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        try:
            return list(await self.conn.fetch(self.db.sql(sql), *_values(params)))
        except asyncpg.UniqueViolationError as e:
            raise UniqueViolation(str(e)) from e

    async def fetchone(self, sql: str, params: Sequence[object] = ()) -> Row | None:
        rows = await self.fetch(sql, params)
        return rows[0] if rows else None


class PostgresDatabase(Database):
    """An asyncpg pool; each transaction takes one connection (see the module docstring)."""

    dialect: Dialect = "postgresql"

    def __init__(self, pool: Any) -> None:
        self._pool = pool
        self._sql: dict[str, str] = {}

    @classmethod
    async def open(
        cls, url: str, *, min_size: int = 1, max_size: int = 10, read_only: bool = False
    ) -> PostgresDatabase:
        """The pool; with ``read_only``, every transaction of its sessions is read-only
        (the server refuses any write)."""
        settings = {"default_transaction_read_only": "on"} if read_only else None
        pool = await asyncpg.create_pool(
            url, min_size=min_size, max_size=max_size, reset=_keep_session, server_settings=settings
        )
        return cls(pool)

    def sql(self, text: str) -> str:
        numbered_text = self._sql.get(text)
        if numbered_text is None:
            numbered_text = self._sql[text] = numbered(text)
        return numbered_text

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        async with self._pool.acquire() as conn, conn.transaction():
            yield _PostgresTx(conn, self)

    async def fetch(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        async with self._pool.acquire() as conn:
            return await _PostgresTx(conn, self).fetch(sql, params)

    async def write(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        """One statement outside ``BEGIN``/``COMMIT``: PostgreSQL runs it as a transaction
        of its own (and commits it before answering), in one round trip instead of three."""
        return await self.fetch(sql, params)

    async def close(self) -> None:
        await self._pool.close()

    async def schema_version(self) -> int:
        async with self._pool.acquire() as conn:
            return await self._read_version(conn)

    @staticmethod
    async def _read_version(conn: Any) -> int:
        """The schema's version, read only (0 while there is no ``schema_version`` table):
        a database refusing writes (read-only after a failover) answers it."""
        if await conn.fetchval("SELECT to_regclass('schema_version')") is None:
            return 0
        value = await conn.fetchval("SELECT version FROM schema_version WHERE id = 1")
        return int(value) if value is not None else 0

    @classmethod
    async def _version(cls, conn: Any) -> int:
        """The schema's version, its table made first if missing (to migrate)."""
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_version ("
            " id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)"
        )
        return await cls._read_version(conn)

    async def migrate(self, migrations: Sequence[Migration]) -> None:
        """Each migration not applied yet in a transaction of its own, one process at a
        time. A schema already current is only read: the bot starts on a database that
        refuses writes (one that needs a migration fails to, its error in a line)."""
        latest = migrations[-1][0]
        current = await self.schema_version()
        _check_version(current, latest)
        if all(m[0] <= current for m in migrations):
            return
        migrated = False
        for migration in migrations:
            number = migration[0]
            async with self._pool.acquire() as conn, conn.transaction():
                # One process at a time: two bots starting together migrate once.
                await conn.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
                current = await self._version(conn)
                _check_version(current, latest)
                if number <= current:
                    continue
                migrated = True
                for step in steps_of(migration, self.dialect):
                    if isinstance(step, str):
                        await conn.execute(postgres_ddl(step))
                    else:
                        await step(_PostgresTx(conn, self))
                await conn.execute(
                    "INSERT INTO schema_version (id, version) VALUES (1, $1)"
                    " ON CONFLICT (id) DO UPDATE SET version = excluded.version",
                    number,
                )
        if migrated:
            # A statement a migration step prepared (``SELECT *`` of a table a later one
            # altered) would fail on its cached plan: start from fresh connections.
            await self._pool.expire_connections()

    async def tables(self) -> list[str]:
        rows = await self.fetch(
            "SELECT table_name FROM information_schema.tables WHERE table_schema ="
            " current_schema() AND table_name != 'schema_version' ORDER BY table_name"
        )
        return [str(r[0]) for r in rows]

    async def columns(self, table: str) -> list[tuple[str, str, bool]]:
        rows = await self.fetch(
            "SELECT column_name, data_type, is_nullable FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position",
            (table,),
        )
        return [(str(r[0]), _PORTABLE.get(str(r[1]), str(r[1])), r[2] == "YES") for r in rows]

    async def primary_key(self, table: str) -> list[str]:
        rows = await self.fetch(
            "SELECT k.column_name FROM information_schema.table_constraints c"
            " JOIN information_schema.key_column_usage k ON k.constraint_name = c.constraint_name"
            " AND k.table_schema = c.table_schema AND k.table_name = c.table_name"
            " WHERE c.table_schema = current_schema() AND c.table_name = ?"
            " AND c.constraint_type = 'PRIMARY KEY' ORDER BY k.ordinal_position",
            (table,),
        )
        return [str(r[0]) for r in rows]

    async def after_copy(self, table: str) -> None:
        for name, *_ in await self.columns(table):
            row = await self.fetchone(
                "SELECT is_identity FROM information_schema.columns WHERE table_schema ="
                " current_schema() AND table_name = ? AND column_name = ?",
                (table, name),
            )
            if row is not None and row[0] == "YES":
                async with self.transaction() as tx:
                    await tx.execute(
                        f"SELECT setval(pg_get_serial_sequence('{table}', '{name}'),"
                        f" COALESCE((SELECT MAX({name}) FROM {table}), 0) + 1, false)"
                    )


async def _keep_session(conn: Any) -> None:
    """A connection going back to the pool keeps its session as it is: asyncpg's default
    reset (``RESET ALL``, ``UNLISTEN *``, ``CLOSE ALL``, unlocking session locks) would
    cost a round trip per use, and the bot changes none of those. (asyncpg still rolls
    back a transaction left open.)"""


def sqlite_path(target: str | Path) -> str:
    """The file of a SQLite ``DATABASE_URL`` (``sqlite:///rel.db``, ``sqlite:////abs.db``)
    or path."""
    name = str(target)
    return name[len(SQLITE_SCHEME) :] if name.startswith(SQLITE_SCHEME) else name


class NotOpen(Database):
    """A database named but not opened yet (the bot's parts are built before it connects:
    ``Storage.to_open``): it knows its dialect; anything else is an error."""

    def __init__(self, target: str | Path) -> None:
        self.target = target
        self.dialect = "postgresql" if is_postgres_url(str(target)) else "sqlite"

    def _not_open(self) -> RuntimeError:
        return RuntimeError("the database is not open yet (the bot has not logged in)")

    def transaction(self) -> Any:
        raise self._not_open()

    async def fetch(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        raise self._not_open()

    async def write(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        raise self._not_open()

    async def close(self) -> None:
        return None

    async def schema_version(self) -> int:
        raise self._not_open()

    async def migrate(self, migrations: Sequence[Migration]) -> None:
        raise self._not_open()

    async def tables(self) -> list[str]:
        raise self._not_open()

    async def columns(self, table: str) -> list[tuple[str, str, bool]]:
        raise self._not_open()

    async def primary_key(self, table: str) -> list[str]:
        raise self._not_open()

    async def after_copy(self, table: str) -> None:
        raise self._not_open()


async def open_database(target: str | Path, *, read_only: bool = False) -> Database:
    """A database from ``DATABASE_URL`` (``sqlite:///…``, ``postgresql://…``) or a file path;
    ``read_only``: an existing database, opened so that nothing can be written to it."""
    name = str(target)
    if is_postgres_url(name):
        return await PostgresDatabase.open(name, read_only=read_only)
    return await SQLiteDatabase.open(sqlite_path(name), read_only=read_only)


__all__ = [
    "Database",
    "Dialect",
    "Migration",
    "NotOpen",
    "PerDialect",
    "PostgresDatabase",
    "Row",
    "SQLiteDatabase",
    "Tx",
    "UniqueViolation",
    "is_postgres_url",
    "numbered",
    "open_database",
    "postgres_ddl",
    "read_only_uri",
    "sqlite_path",
]

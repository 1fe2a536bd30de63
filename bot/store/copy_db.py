"""``python -m bot copy-db --from URL --to URL``: move a bot's database to another one.

For a server's bot outgrowing SQLite: every table (games, seats, the action logs,
snapshots, results, ratings, server and member settings, meta) is copied row for row,
in one transaction on the target, into an empty database migrated to the same schema
(either way: SQLite to PostgreSQL, or back). Then the copy is checked as the bot
checks a game when it loads it: every row counted on both sides, and every started
game's log replayed from its set-up and compared with its stored snapshot. Output is
for the operator (English); exit code 0 only if everything matched.

Nothing is written before both sides are read (``bot.store.db_inspect``): a source that
is no database of this bot (a missing or empty file, another program's database, an
unreachable server, a newer bot's schema, tables this bot does not know), a target that
cannot take the copy (a folder, another program's file or tables — on PostgreSQL in any
schema, whoever owns them —, data already, a bot connected to it), a SQLite file a bot
is running on, by whatever path or link, and one with several names (hard links,
``bot.store.db_lock``) are refused with the URL read (never its password), and nothing
is created on either side.

The source is only read, through a read-only connection. A source of an older version
of the bot is copied as it is into a temporary SQLite file, migrated there (as the bot
migrates its database when it starts), and copied from there: the source keeps its
schema, so it stays a database the older bot can be started on again. The bot's own
bookkeeping (``meta``: the digest of the slash commands it registered) does not make a
target "not empty": bots started on it and nobody played, its rows are kept.
"""

from __future__ import annotations

import contextlib
import sqlite3
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from bot.store.db import Database, is_postgres_url, open_database
from bot.store.db_inspect import (
    BOOKKEEPING,
    DatabaseBusy,
    NotABotDatabase,
    NotATarget,
    bot_schema,
    check_copy_target,
    plural,
    read_postgres,
    read_sqlite,
    shown_url,
    sqlite_file,
)
from bot.store.db_lock import DatabaseLock, InUse, one_name
from bot.store.migrations import LATEST, MIGRATIONS
from bot.store.storage import TABLES, Storage
from engine import Game, loads

PAGE = 2000  # rows read and written at a time
STATUSES = ("lobby", "playing", "over", "aborted", "orphaned")


class CopyError(Exception):
    """The copy cannot be made (see the module docstring); nothing was created."""


@dataclass(frozen=True)
class Copied:
    """What was copied of the games of one status."""

    games: int = 0
    seats: int = 0
    actions: int = 0


@dataclass
class CopyReport:
    rows: dict[str, int] = field(default_factory=dict)
    by_status: dict[str, Copied] = field(default_factory=dict)
    games_checked: int = 0
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0
    migrated_from: int | None = None  # the source's schema, when the copy was migrated

    @property
    def ok(self) -> bool:
        return not self.problems


async def _source_version(url: str) -> int:
    """The source's schema version, or CopyError if it is not a database to copy."""
    try:
        version = await bot_schema(url)
        found = await read_postgres(url) if is_postgres_url(url) else read_sqlite(url)
    except NotABotDatabase as e:
        raise CopyError(f"{e}; nothing was copied") from None
    shown = shown_url(url)
    if version > LATEST:
        raise CopyError(
            f"{shown}: its schema is version {version}, newer than this bot's "
            f"({LATEST}): update the bot first; nothing was copied"
        )
    if found.foreign:
        raise CopyError(
            f"{shown}: holds tables this bot does not know ({', '.join(found.foreign[:5])}): "
            "a newer bot's, or another program's; nothing was copied"
        )
    if found.sessions:  # a bot playing on would make the copy inconsistent
        raise CopyError(
            f"{shown}: {plural(found.sessions, 'other connection')} to the database (bots "
            "running on it?): stop them first; nothing was copied"
        )
    return version


def _same_file(one: Path, other: Path) -> bool:
    """The same file, by whatever names (symbolic or hard links)."""
    if one.resolve() == other.resolve():
        return True
    with contextlib.suppress(OSError):
        return one.samefile(other)
    return False


def _locks(source_url: str, target_url: str) -> list[DatabaseLock]:
    """Exclusive holds on the SQLite files of both sides, or CopyError if a bot (or a
    backup) is using one: a copy of a database in use would not be consistent."""
    held: list[DatabaseLock] = []
    try:
        for url in (source_url, target_url):
            if is_postgres_url(url) or not sqlite_file(url).is_file():
                continue  # a new file: nobody uses it
            several = one_name(sqlite_file(url))
            if several is not None:
                raise InUse(several)
            held.append(DatabaseLock(sqlite_file(url)).acquire(exclusive=True))
    except InUse as e:
        for lock in held:
            lock.release()
        raise CopyError(f"{e}; nothing was copied") from None
    return held


async def copy_database(
    source_url: str, target_url: str, echo: Callable[[str], None] = print
) -> CopyReport:
    """Copy every row of ``source_url`` into the empty ``target_url`` and check the copy.

    Raises ``CopyError`` (nothing created) if either side is refused (module docstring)."""
    started = time.perf_counter()
    if not (is_postgres_url(source_url) or is_postgres_url(target_url)) and _same_file(
        sqlite_file(source_url), sqlite_file(target_url)
    ):
        raise CopyError("--from and --to name the same database; nothing was copied")
    try:
        version = await _source_version(source_url)
        await check_copy_target(target_url)
    except (NotATarget, DatabaseBusy) as e:
        raise CopyError(f"{e}; nothing was copied") from None
    locks = _locks(source_url, target_url)
    try:
        report = CopyReport()
        echo(f"reading {shown_url(source_url)} (schema version {version})")
        source = await open_database(source_url, read_only=True)
        try:
            if version == LATEST:
                await _copy_into(source, target_url, report, echo)
            else:
                report.migrated_from = version
                echo(
                    f"its schema is older than this bot's ({LATEST}): it is copied into a "
                    "temporary file and migrated there; the source is left as it is"
                )
                await _staged(source, version, target_url, report, echo)
        finally:
            await source.close()
    finally:
        for lock in locks:
            lock.release()
    report.seconds = time.perf_counter() - started
    return report


async def _staged(
    source: Database,
    version: int,
    target_url: str,
    report: CopyReport,
    echo: Callable[[str], None],
) -> None:
    """An older source copied into a temporary SQLite file of its own schema, migrated
    there to the latest, then copied into the target."""
    with tempfile.TemporaryDirectory(prefix="af-copy-") as folder:
        staged = await open_database(Path(folder) / "staged.db")
        try:
            await staged.migrate([m for m in MIGRATIONS if m[0] <= version])
            counted = CopyReport()
            await _copy(source, staged, counted, lambda _: None)
            await _check_counts(source, staged, counted)
            report.problems += counted.problems
            await staged.migrate(MIGRATIONS)
            echo(f"migrated from schema version {version} to {LATEST}")
            await _copy_into(staged, target_url, report, echo)
        finally:
            await staged.close()


async def _copy_into(
    source: Database, target_url: str, report: CopyReport, echo: Callable[[str], None]
) -> None:
    """The copy into the target (created and migrated now) and its checks. A new SQLite
    file is removed again if the copy fails before it is made."""
    new_file = None
    if not is_postgres_url(target_url) and not sqlite_file(target_url).exists():
        new_file = sqlite_file(target_url)
    try:
        target = await Storage.open(target_url)
    except (sqlite3.Error, OSError) as e:
        _remove(new_file)
        raise CopyError(
            f"{shown_url(target_url)}: the database cannot be made there ({e}); nothing was copied"
        ) from None
    except BaseException:
        _remove(new_file)
        raise
    try:
        try:
            await _copy(source, target.db, report, echo)
        except BaseException:
            await target.close()
            _remove(new_file)
            raise
        await _check_counts(source, target.db, report)
        report.by_status = await copied_by_status(target)
        await _replay_games(target, report, echo)
    finally:
        with contextlib.suppress(Exception):
            await target.close()


def _remove(new_file: Path | None) -> None:
    if new_file is None:
        return
    for path in (new_file, *(new_file.with_name(new_file.name + s) for s in ("-wal", "-shm"))):
        path.unlink(missing_ok=True)


async def copied_by_status(store: Storage) -> dict[str, Copied]:
    """Games, their seats and their actions, counted by the games' status."""
    counts: dict[str, list[int]] = {status: [0, 0, 0] for status in STATUSES}
    queries = (
        "SELECT status, COUNT(*) FROM games GROUP BY status",
        "SELECT g.status, COUNT(*) FROM seats s JOIN games g ON g.id = s.game_id GROUP BY g.status",
        "SELECT g.status, COUNT(*) FROM actions a JOIN games g ON g.id = a.game_id"
        " GROUP BY g.status",
    )
    for column, query in enumerate(queries):
        for row in await store.db.fetch(query):
            counts.setdefault(str(row[0]), [0, 0, 0])[column] = int(row[1])
    return {status: Copied(*numbers) for status, numbers in counts.items()}


def by_status_table(by_status: dict[str, Copied]) -> list[str]:
    """The operator's table of what was copied: a line per status, and the totals."""
    lines = [f"{'status':<10}{'games':>8}{'seats':>8}{'actions':>10}"]
    for status, c in by_status.items():
        lines.append(f"{status:<10}{c.games:>8}{c.seats:>8}{c.actions:>10}")
    total = Copied(
        sum(c.games for c in by_status.values()),
        sum(c.seats for c in by_status.values()),
        sum(c.actions for c in by_status.values()),
    )
    lines.append(f"{'total':<10}{total.games:>8}{total.seats:>8}{total.actions:>10}")
    return lines


async def _copy(
    source: Database, target: Database, report: CopyReport, echo: Callable[[str], None]
) -> None:
    """Every row of the source's tables, in one transaction on the target. Rows of the
    bot's bookkeeping the target has already (the same key) are kept as they are."""
    present = set(await source.tables())
    kept: dict[str, set[tuple[object, ...]]] = {}
    for table in BOOKKEEPING & present & set(await target.tables()):
        key = await target.primary_key(table)
        rows = await target.fetch(f"SELECT {', '.join(key)} FROM {table}")
        kept[table] = {tuple(r) for r in rows}
    async with target.transaction() as tx:
        for table in TABLES:
            if table not in present:
                continue
            columns = [name for name, *_ in await source.columns(table)]
            key = await source.primary_key(table)
            listed = ", ".join(columns)
            insert = f"INSERT INTO {table} ({listed}) VALUES ({', '.join('?' for _ in columns)})"
            order = ", ".join(key)
            after: list[object] | None = None
            count = 0
            while True:
                # Keyset pages in primary-key order: each page starts after the last one.
                where = ""
                if after is not None:
                    where = f" WHERE ({order}) > ({', '.join('?' for _ in key)})"
                rows = await source.fetch(
                    f"SELECT {listed} FROM {table}{where} ORDER BY {order} LIMIT {PAGE}",
                    after or (),
                )
                if not rows:
                    break
                values = [
                    tuple(r[c] for c in columns)
                    for r in rows
                    if tuple(r[c] for c in key) not in kept.get(table, ())
                ]
                await tx.executemany(insert, values)
                count += len(values)
                after = [rows[-1][c] for c in key]
            report.rows[table] = count
            echo(f"copied {plural(count, 'row')} of {table}")
    for table in TABLES:
        if table in present:
            await target.after_copy(table)


async def _check_counts(source: Database, target: Database, report: CopyReport) -> None:
    """Every table holds as many rows on both sides (the bookkeeping: every row of the
    source's is on the target)."""
    present = set(await source.tables())
    for table in TABLES:
        if table not in present:
            continue
        if table in BOOKKEEPING:
            key = ", ".join(await source.primary_key(table))
            mine = {tuple(r) for r in await source.fetch(f"SELECT {key} FROM {table}")}
            theirs = {tuple(r) for r in await target.fetch(f"SELECT {key} FROM {table}")}
            if not mine <= theirs:
                report.problems.append(f"{table}: {len(mine - theirs)} rows were not copied")
            continue
        counts = []
        for db in (source, target):
            row = await db.fetchone(f"SELECT COUNT(*) FROM {table}")
            counts.append(int(row[0]) if row else 0)
        if counts[0] != counts[1]:
            report.problems.append(
                f"{table}: {plural(counts[0], 'row')} in the source, {counts[1]:,} copied"
            )


async def _replay_games(target: Storage, report: CopyReport, echo: Callable[[str], None]) -> None:
    """Each started game: its copied log replays to its copied snapshot (as a load checks)."""
    for status in ("playing", "over", "aborted", "orphaned"):
        for row in await target.game_rows.games_with_status(status):
            snapshot = await target.action_log.snapshot(row.id)
            if snapshot is None:
                continue  # aborted in its lobby: nothing was played
            seats = await target.seat_rows.seats(row.id)
            actions = await target.action_log.actions(row.id)
            try:
                game = Game.replay(row.config.engine(len(seats)), [a.notation for a in actions])
            except Exception as e:
                report.problems.append(f"game {row.id}: its log does not replay ({e})")
                continue
            seq, state = snapshot
            if seq != len(actions) or loads(state) != game.state:
                report.problems.append(
                    f"game {row.id}: the replay of its {len(actions)} actions differs from its "
                    f"snapshot (after {seq} actions)"
                )
            report.games_checked += 1
    echo(f"replayed and checked {plural(report.games_checked, 'game')}")


__all__ = ["Copied", "CopyError", "CopyReport", "by_status_table", "copy_database"]

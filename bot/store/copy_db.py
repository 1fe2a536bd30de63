"""``python -m bot copy-db --from URL --to URL``: move a bot's database to another one.

For a server's bot outgrowing SQLite: every table (games, seats, the action logs,
snapshots, results, server and member settings, meta) is copied row for row, in one
transaction on the target, into an empty database migrated to the same schema
(either way: SQLite to PostgreSQL, or back). Then the copy is checked as the bot
checks a game when it loads it: every row counted on both sides, and every started
game's log replayed from its set-up and compared with its stored snapshot. Output is
for the operator (English); exit code 0 only if everything matched.

The source is read before anything is opened: a URL that names no database of this bot
(a missing or empty file, another program's database, an unreachable server) is refused
with the URL read, and nothing is created on either side.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.store.db_inspect import NotABotDatabase, bot_schema, shown_url
from bot.store.migrations import LATEST
from bot.store.storage import TABLES, Storage
from engine.game import Game
from engine.serialize import loads

PAGE = 2000  # rows read and written at a time
STATUSES = ("lobby", "playing", "over", "aborted", "orphaned")


class CopyError(Exception):
    """The copy cannot be made (the target is not empty, or a table is unknown)."""


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

    @property
    def ok(self) -> bool:
        return not self.problems


async def copy_database(
    source_url: str, target_url: str, echo: Callable[[str], None] = print
) -> CopyReport:
    """Copy every row of ``source_url`` into the empty ``target_url`` and check the copy.

    Raises ``CopyError`` (nothing created) if the source is no database of this bot."""
    started = time.perf_counter()
    try:
        version = await bot_schema(source_url)
    except NotABotDatabase as e:
        raise CopyError(f"{e}; nothing was copied") from None
    if version > LATEST:
        raise CopyError(
            f"{shown_url(source_url)}: its schema is version {version}, newer than this bot's "
            f"({LATEST}): upgrade the bot first; nothing was copied"
        )
    echo(f"reading {shown_url(source_url)} (schema version {version})")
    if version < LATEST:  # as the bot does when it starts on it
        echo(f"the source is migrated from schema version {version} to {LATEST} first")
    target = await Storage.open(target_url)
    try:
        source = await Storage.open(source_url)
        try:
            report = CopyReport()
            await _check_tables(source, target)
            await _copy(source, target, report, echo)
            await _check_counts(source, target, report)
            report.by_status = await copied_by_status(target)
            await _replay_games(target, report, echo)
        finally:
            await source.close()
    finally:
        await target.close()
    report.seconds = time.perf_counter() - started
    return report


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


async def _check_tables(source: Storage, target: Storage) -> None:
    for store in (source, target):
        unknown = set(await store.db.tables()) - set(TABLES)
        if unknown:
            raise CopyError(f"tables this bot does not know: {sorted(unknown)}; upgrade the bot")
    for table in TABLES:
        row = await target.db.fetchone(f"SELECT COUNT(*) FROM {table}")
        if row is not None and int(row[0]):
            raise CopyError(
                f"the target already holds data ({int(row[0])} rows in {table}): "
                "copy-db copies into an empty database"
            )


async def _copy(
    source: Storage, target: Storage, report: CopyReport, echo: Callable[[str], None]
) -> None:
    async with target.transaction() as tx:
        for table in TABLES:
            columns = [name for name, *_ in await source.db.columns(table)]
            key = await source.db.primary_key(table)
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
                rows = await source.db.fetch(
                    f"SELECT {listed} FROM {table}{where} ORDER BY {order} LIMIT {PAGE}",
                    after or (),
                )
                if not rows:
                    break
                await tx.executemany(insert, [tuple(r[c] for c in columns) for r in rows])
                count += len(rows)
                after = [rows[-1][c] for c in key]
            report.rows[table] = count
            echo(f"copied {count} rows of {table}")
    for table in TABLES:
        await target.db.after_copy(table)


async def _check_counts(source: Storage, target: Storage, report: CopyReport) -> None:
    for table in TABLES:
        counts = []
        for store in (source, target):
            row = await store.db.fetchone(f"SELECT COUNT(*) FROM {table}")
            counts.append(int(row[0]) if row else 0)
        if counts[0] != counts[1]:
            report.problems.append(f"{table}: {counts[0]} rows in the source, {counts[1]} copied")


async def _replay_games(target: Storage, report: CopyReport, echo: Callable[[str], None]) -> None:
    """Each started game: its copied log replays to its copied snapshot (as a load checks)."""
    for status in ("playing", "over", "aborted", "orphaned"):
        for row in await target.games_with_status(status):
            snapshot = await target.snapshot(row.id)
            if snapshot is None:
                continue  # aborted in its lobby: nothing was played
            seats = await target.seats(row.id)
            actions = await target.actions(row.id)
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
    echo(f"replayed and checked {report.games_checked} games")


__all__ = ["Copied", "CopyError", "CopyReport", "by_status_table", "copy_database"]

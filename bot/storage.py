"""SQLite storage of games, seats, the action log and state snapshots (aiosqlite, WAL).

One connection per process; every statement goes through one asyncio lock, so a
transaction of one game never interleaves with another's on the shared
connection. Writes that belong together (a move, the chance outcomes it caused,
the snapshot and the game row) are committed in one transaction, with
``synchronous=FULL`` so an acknowledged move survives a crash or power loss.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Final, Literal

import aiosqlite

from bot.migrations import LATEST, MIGRATIONS

GameStatus = Literal["lobby", "playing", "over", "aborted"]
AiLevel = Literal["easy", "normal", "hard"]
NotifyMode = Literal["channel", "dm", "both", "off"]
ACTIVE: Final = ("lobby", "playing")
_GAME_FIELDS: Final = frozenset(
    {
        "host_id",
        "status",
        "max_players",
        "long_game",
        "helm",
        "finite_supply",
        "locale",
        "lobby_message_id",
        "turn_message_id",
        "turn_message_turn",
        "waiting_on_user",
        "reminded_at",
        "updated_at",
        "clock",
        "clock_since",
        "clock_turn",
        "reminders_sent",
        "timeout_turn",
        "timeout_mode",
        "ai_only",
        "notified_turn",
    }
)
_SEAT_FIELDS: Final = frozenset(
    {"user_id", "ai_level", "name", "timeouts", "former_user_id", "rejoin"}
)
SeatChanges = Mapping[int, Mapping[str, object]]  # seat number -> columns to set


class ChannelBusyError(Exception):
    """The channel already has a game in its lobby or in play."""


@dataclass(frozen=True, slots=True)
class GameRow:
    """One game's row: where it is played, by whom it was set up, and how far it got."""

    id: int
    guild_id: int | None
    channel_id: int
    host_id: int
    status: GameStatus
    max_players: int
    long_game: bool
    helm: bool
    finite_supply: bool
    seed: int
    locale: str
    lobby_message_id: int | None
    turn_message_id: int | None
    turn_message_turn: int | None
    waiting_on_user: int | None
    reminded_at: float | None
    created_at: float
    updated_at: float
    clock: str | None = None  # JSON of bot.clock_settings.ClockSettings (None: defaults)
    clock_since: float | None = None
    clock_turn: int | None = None
    reminders_sent: int = 0
    timeout_turn: int | None = None
    timeout_mode: Literal["ai", "skip"] | None = None
    ai_only: bool = False
    notified_turn: int | None = None


@dataclass(frozen=True, slots=True)
class SeatRow:
    """A seat: a member (user_id) or an AI (ai_level), and the name shown for it.

    ``timeouts`` counts the seat's turns that timed out in a row; ``former_user_id`` is
    the member whose seat an AI took over (they may take it back: ``rejoin`` says they
    asked to, from the end of the AI's current turn).
    """

    seat: int
    user_id: int | None
    ai_level: AiLevel | None
    name: str
    timeouts: int = 0
    former_user_id: int | None = None
    rejoin: bool = False

    @property
    def is_ai(self) -> bool:
        return self.ai_level is not None


@dataclass(frozen=True, slots=True)
class ResultRow:
    """How one seat of a finished game did (``vp`` is the sum of the four parts)."""

    seat: int
    user_id: int | None
    ai_level: str | None
    name: str
    vp: int
    vp_colonies: int
    vp_territories: int
    vp_positron: int
    vp_cards: int
    winner: bool
    first_territory: str | None


_RESULT_COLUMNS: Final = ("game_id", *(f.name for f in fields(ResultRow)))


@dataclass(frozen=True, slots=True)
class MemberPrefs:
    """A member's notification choice (bot/notify.py) and what is known of their DMs."""

    user_id: int
    notify: NotifyMode = "channel"
    dm_channel_id: int | None = None
    dm_blocked: bool = False
    dm_hint: bool = False  # a private hint on opening DMs is still to be given
    locale: str | None = None


@dataclass(frozen=True, slots=True)
class ActionRow:
    """One logged action: its sequence number (0-based), who acted and what happened."""

    seq: int
    actor: int  # seat, or -1 for a chance outcome
    user_id: int | None
    notation: str
    events: list[dict[str, Any]] = field(default_factory=list)
    created_at: float = 0.0


def _game(row: sqlite3.Row) -> GameRow:
    return GameRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        host_id=row["host_id"],
        status=row["status"],
        max_players=row["max_players"],
        long_game=bool(row["long_game"]),
        helm=bool(row["helm"]),
        finite_supply=bool(row["finite_supply"]),
        seed=row["seed"],
        locale=row["locale"],
        lobby_message_id=row["lobby_message_id"],
        turn_message_id=row["turn_message_id"],
        turn_message_turn=row["turn_message_turn"],
        waiting_on_user=row["waiting_on_user"],
        reminded_at=row["reminded_at"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        clock=row["clock"],
        clock_since=row["clock_since"],
        clock_turn=row["clock_turn"],
        reminders_sent=row["reminders_sent"],
        timeout_turn=row["timeout_turn"],
        timeout_mode=row["timeout_mode"],
        ai_only=bool(row["ai_only"]),
        notified_turn=row["notified_turn"],
    )


def _result(row: sqlite3.Row, prefix: str = "") -> ResultRow:
    values = {f.name: row[prefix + f.name] for f in fields(ResultRow)}
    values["winner"] = bool(values["winner"])
    return ResultRow(**values)


def _seat(row: sqlite3.Row) -> SeatRow:
    return SeatRow(
        seat=row["seat"],
        user_id=row["user_id"],
        ai_level=row["ai_level"],
        name=row["name"],
        timeouts=row["timeouts"],
        former_user_id=row["former_user_id"],
        rejoin=bool(row["rejoin"]),
    )


def _action(row: sqlite3.Row) -> ActionRow:
    return ActionRow(
        seq=row["seq"],
        actor=row["actor"],
        user_id=row["user_id"],
        notation=row["notation"],
        events=json.loads(row["events"]),
        created_at=row["created_at"],
    )


class Storage:
    """The database. Open with ``await Storage.open(path)``; close with ``await close()``."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path) -> Storage:
        """Open (creating the file and its folder if needed), switch to WAL, migrate."""
        name = str(path)
        if name != ":memory:":
            Path(name).parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(name, isolation_level=None)
        conn.row_factory = sqlite3.Row
        await conn.execute("PRAGMA foreign_keys = ON")
        await conn.execute("PRAGMA busy_timeout = 5000")
        if name != ":memory:":
            await conn.execute("PRAGMA journal_mode = WAL")
        await conn.execute("PRAGMA synchronous = FULL")
        store = cls(conn)
        await store.migrate()
        return store

    async def close(self) -> None:
        async with self._lock:
            await self._conn.close()

    # ---- plumbing ---------------------------------------------------------------------

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction (BEGIN IMMEDIATE ... COMMIT), rolled back on error."""
        async with self._lock:
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                await self._conn.execute("ROLLBACK")
                raise
            await self._conn.execute("COMMIT")

    async def _all(self, sql: str, params: Sequence[object] = ()) -> list[sqlite3.Row]:
        async with self._lock, self._conn.execute(sql, params) as cur:
            return list(await cur.fetchall())

    async def _one(self, sql: str, params: Sequence[object] = ()) -> sqlite3.Row | None:
        rows = await self._all(sql, params)
        return rows[0] if rows else None

    async def schema_version(self) -> int:
        row = await self._one("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def migrate(self) -> None:
        """Apply the migrations the database has not seen yet, each in its own transaction."""
        current = await self.schema_version()
        if current > LATEST:
            raise RuntimeError(
                f"the database schema is version {current}, newer than this bot ({LATEST}); "
                "upgrade the bot"
            )
        for number, sql in MIGRATIONS:
            if number <= current:
                continue
            async with self.transaction() as conn:
                for statement in sql.split(";"):
                    if statement.strip():
                        await conn.execute(statement)
                await conn.execute(f"PRAGMA user_version = {number}")

    # ---- games ------------------------------------------------------------------------

    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        host_name: str | None,
        max_players: int,
        long_game: bool,
        helm: bool,
        seed: int,
        locale: str,
        now: float,
        finite_supply: bool = False,
        clock: str | None = None,
    ) -> int:
        """A new game in its lobby with the host in seat 0 (unless ``host_name`` is None).

        ChannelBusyError if the channel already has an active game.
        """
        try:
            async with self.transaction() as conn:
                cur = await conn.execute(
                    "INSERT INTO games (guild_id, channel_id, host_id, status, max_players,"
                    " long_game, helm, finite_supply, seed, locale, clock, created_at,"
                    " updated_at) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        guild_id,
                        channel_id,
                        host_id,
                        max_players,
                        int(long_game),
                        int(helm),
                        int(finite_supply),
                        seed,
                        locale,
                        clock,
                        now,
                        now,
                    ),
                )
                game_id = cur.lastrowid
                assert game_id is not None
                if host_name is not None:
                    await conn.execute(
                        "INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, 0, ?, ?)",
                        (game_id, host_id, host_name),
                    )
        except sqlite3.IntegrityError as e:
            if "games.channel_id" in str(e) or "UNIQUE" in str(e):
                raise ChannelBusyError(channel_id) from None
            raise
        return int(game_id)

    async def game(self, game_id: int) -> GameRow | None:
        row = await self._one("SELECT * FROM games WHERE id = ?", (game_id,))
        return _game(row) if row else None

    async def active_game(self, channel_id: int) -> GameRow | None:
        """The channel's game in its lobby or in play, if any."""
        row = await self._one(
            "SELECT * FROM games WHERE channel_id = ? AND status IN ('lobby', 'playing')",
            (channel_id,),
        )
        return _game(row) if row else None

    async def latest_game(self, channel_id: int) -> GameRow | None:
        """The channel's most recent game, finished or not."""
        row = await self._one(
            "SELECT * FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,)
        )
        return _game(row) if row else None

    async def latest_played_game(self, channel_id: int) -> GameRow | None:
        """The channel's most recent game that was started (it has a saved state)."""
        row = await self._one(
            "SELECT * FROM games WHERE channel_id = ? AND status != 'lobby'"
            " AND EXISTS (SELECT 1 FROM snapshots WHERE snapshots.game_id = games.id)"
            " ORDER BY id DESC LIMIT 1",
            (channel_id,),
        )
        return _game(row) if row else None

    async def games_with_status(self, status: GameStatus) -> list[GameRow]:
        rows = await self._all("SELECT * FROM games WHERE status = ? ORDER BY id", (status,))
        return [_game(r) for r in rows]

    async def update_game(self, game_id: int, **fields: object) -> None:
        """Set some columns of a game's row (names checked against a fixed list)."""
        async with self.transaction() as conn:
            await _update_game(conn, game_id, fields)

    # ---- seats ------------------------------------------------------------------------

    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self._all("SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))
        return [_seat(r) for r in rows]

    async def seats_of_user(self, user_id: int) -> list[tuple[int, int]]:
        """(game id, seat) of every seat the member holds in games in their lobby or in play."""
        rows = await self._all(
            "SELECT s.game_id, s.seat FROM seats s JOIN games g ON g.id = s.game_id"
            " WHERE s.user_id = ? AND g.status IN ('lobby', 'playing') ORDER BY s.game_id",
            (user_id,),
        )
        return [(int(r["game_id"]), int(r["seat"])) for r in rows]

    async def set_seats(
        self, game_id: int, seats: Iterable[SeatRow], **game_fields: object
    ) -> None:
        """Replace the seats of a game (and update its row) in one transaction."""
        async with self.transaction() as conn:
            await conn.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
            await conn.executemany(
                "INSERT INTO seats (game_id, seat, user_id, ai_level, name, timeouts,"
                " former_user_id, rejoin) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        game_id,
                        s.seat,
                        s.user_id,
                        s.ai_level,
                        s.name,
                        s.timeouts,
                        s.former_user_id,
                        int(s.rejoin),
                    )
                    for s in seats
                ],
            )
            if game_fields:
                await _update_game(conn, game_id, game_fields)

    async def update(
        self, game_id: int, seats: SeatChanges | None = None, **game_fields: object
    ) -> None:
        """Set some columns of a game's seats and of its row, in one transaction."""
        async with self.transaction() as conn:
            await _update_seats(conn, game_id, seats or {})
            await _update_game(conn, game_id, game_fields)

    # ---- the action log and snapshots ------------------------------------------------

    async def actions(self, game_id: int) -> list[ActionRow]:
        rows = await self._all("SELECT * FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))
        return [_action(r) for r in rows]

    async def last_actions(self, game_id: int, count: int) -> list[ActionRow]:
        """The last ``count`` actions of a game, oldest first."""
        rows = await self._all(
            "SELECT * FROM actions WHERE game_id = ? ORDER BY seq DESC LIMIT ?", (game_id, count)
        )
        return [_action(r) for r in reversed(rows)]

    async def first_action_time(self, game_id: int) -> float | None:
        """When the game's first action was logged (its start)."""
        row = await self._one(
            "SELECT MIN(created_at) AS t FROM actions WHERE game_id = ?", (game_id,)
        )
        return float(row["t"]) if row is not None and row["t"] is not None else None

    async def snapshot(self, game_id: int) -> tuple[int, str] | None:
        """The stored state (JSON) and the number of actions it follows."""
        row = await self._one("SELECT seq, state FROM snapshots WHERE game_id = ?", (game_id,))
        return (int(row["seq"]), str(row["state"])) if row else None

    async def commit_actions(
        self,
        game_id: int,
        actions: Sequence[ActionRow],
        state_json: str,
        seats: SeatChanges | None = None,
        results: Sequence[ResultRow] = (),
        **game_fields: object,
    ) -> None:
        """Append actions, replace the snapshot, update the game row and some seats, and
        (for the move that ends the game) record its results: all or nothing."""
        async with self.transaction() as conn:
            await conn.executemany(
                "INSERT INTO actions (game_id, seq, actor, user_id, notation, events, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        game_id,
                        a.seq,
                        a.actor,
                        a.user_id,
                        a.notation,
                        json.dumps(a.events, separators=(",", ":")),
                        a.created_at,
                    )
                    for a in actions
                ],
            )
            seq = actions[-1].seq + 1 if actions else None
            await _put_snapshot(conn, game_id, seq, state_json)
            await _update_seats(conn, game_id, seats or {})
            if game_fields:
                await _update_game(conn, game_id, game_fields)
            await conn.executemany(
                f"INSERT INTO results ({', '.join(_RESULT_COLUMNS)})"
                f" VALUES ({', '.join('?' for _ in _RESULT_COLUMNS)})",
                [(game_id, *(getattr(r, c) for c in _RESULT_COLUMNS[1:])) for r in results],
            )

    async def undo_action(
        self, game_id: int, seq: int, state_json: str, **game_fields: object
    ) -> None:
        """Remove the last action (``seq``) after an undo and store the restored state."""
        async with self.transaction() as conn:
            cur = await conn.execute(
                "DELETE FROM actions WHERE game_id = ? AND seq = ?"
                " AND seq = (SELECT MAX(seq) FROM actions WHERE game_id = ?)",
                (game_id, seq, game_id),
            )
            if cur.rowcount != 1:
                raise RuntimeError(f"game {game_id}: action {seq} is not the last one")
            await _put_snapshot(conn, game_id, seq, state_json)
            if game_fields:
                await _update_game(conn, game_id, game_fields)

    # ---- servers and members ---------------------------------------------------------

    async def guild_clock(self, guild_id: int) -> str | None:
        """A server's default clock settings for new games (JSON), if its admins set them."""
        row = await self._one("SELECT clock FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return str(row["clock"]) if row else None

    async def set_guild_clock(self, guild_id: int, clock: str, now: float) -> None:
        async with self.transaction() as conn:
            await conn.execute(
                "INSERT INTO guild_settings (guild_id, clock, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET clock = excluded.clock,"
                " updated_at = excluded.updated_at",
                (guild_id, clock, now),
            )

    async def away_until(self, user_ids: Iterable[int]) -> dict[int, float]:
        """When each of these members' absence ends (only those who ever set one)."""
        ids = sorted(set(user_ids))
        if not ids:
            return {}
        marks = ", ".join("?" for _ in ids)
        rows = await self._all(
            f"SELECT user_id, away_until FROM members WHERE user_id IN ({marks})"
            " AND away_until IS NOT NULL",
            ids,
        )
        return {int(r["user_id"]): float(r["away_until"]) for r in rows}

    async def set_away_until(self, user_id: int, until: float) -> None:
        async with self.transaction() as conn:
            await conn.execute(
                "INSERT INTO members (user_id, away_until) VALUES (?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET away_until = excluded.away_until",
                (user_id, until),
            )

    async def prefs(self, user_ids: Iterable[int]) -> dict[int, MemberPrefs]:
        """The notification preferences of these members (defaults for those never set)."""
        ids = sorted(set(user_ids))
        out = {u: MemberPrefs(u) for u in ids}
        if not ids:
            return out
        marks = ", ".join("?" for _ in ids)
        rows = await self._all(
            "SELECT user_id, notify, dm_channel_id, dm_blocked, dm_hint, locale FROM members"
            f" WHERE user_id IN ({marks})",
            ids,
        )
        for r in rows:
            u = int(r["user_id"])
            out[u] = MemberPrefs(
                u,
                r["notify"],
                r["dm_channel_id"],
                bool(r["dm_blocked"]),
                bool(r["dm_hint"]),
                r["locale"],
            )
        return out

    async def set_prefs(self, user_id: int, **changes: object) -> None:
        """Set some of a member's preferences (the columns of ``MemberPrefs``)."""
        unknown = set(changes) - {"notify", "dm_channel_id", "dm_blocked", "dm_hint", "locale"}
        if unknown or not changes:
            raise ValueError(f"not member preferences: {sorted(unknown)}")
        names = list(changes)
        values = [int(v) if isinstance(v, bool) else v for v in changes.values()]
        updates = ", ".join(f"{n} = excluded.{n}" for n in names)
        async with self.transaction() as conn:
            await conn.execute(
                f"INSERT INTO members (user_id, {', '.join(names)})"
                f" VALUES (?, {', '.join('?' for _ in names)})"
                f" ON CONFLICT (user_id) DO UPDATE SET {updates}",
                (user_id, *values),
            )

    # ---- finished games ---------------------------------------------------------------

    async def results(self, game_id: int) -> list[ResultRow]:
        rows = await self._all("SELECT * FROM results WHERE game_id = ? ORDER BY seat", (game_id,))
        return [_result(r) for r in rows]

    async def results_of(
        self, *, user_id: int | None = None, guild_id: int | None = None
    ) -> list[tuple[GameRow, ResultRow]]:
        """Results of finished games (of one member, of one server, or both), newest first."""
        where = ["g.status = 'over'"]
        params: list[object] = []
        if user_id is not None:
            where.append("r.user_id = ?")
            params.append(user_id)
        if guild_id is not None:
            where.append("g.guild_id = ?")
            params.append(guild_id)
        rows = await self._all(
            "SELECT g.*, r.seat AS r_seat, r.user_id AS r_user_id, r.ai_level AS r_ai_level,"
            " r.name AS r_name, r.vp AS r_vp, r.vp_colonies AS r_vp_colonies,"
            " r.vp_territories AS r_vp_territories, r.vp_positron AS r_vp_positron,"
            " r.vp_cards AS r_vp_cards, r.winner AS r_winner,"
            " r.first_territory AS r_first_territory"
            " FROM results r JOIN games g ON g.id = r.game_id"
            f" WHERE {' AND '.join(where)} ORDER BY g.id DESC, r.seat",
            params,
        )
        return [(_game(r), _result(r, prefix="r_")) for r in rows]

    async def finished_games(self, guild_id: int | None, channel_id: int | None) -> list[GameRow]:
        """Finished games of a server (or one of its channels), newest first."""
        if channel_id is not None:
            rows = await self._all(
                "SELECT * FROM games WHERE status = 'over' AND channel_id = ? ORDER BY id DESC",
                (channel_id,),
            )
        else:
            rows = await self._all(
                "SELECT * FROM games WHERE status = 'over' AND guild_id IS ? ORDER BY id DESC",
                (guild_id,),
            )
        return [_game(r) for r in rows]

    async def games_by_id(self, game_ids: Iterable[int]) -> list[GameRow]:
        ids = sorted(set(game_ids))
        if not ids:
            return []
        marks = ", ".join("?" for _ in ids)
        rows = await self._all(f"SELECT * FROM games WHERE id IN ({marks})", ids)
        return [_game(r) for r in rows]

    # ---- meta -------------------------------------------------------------------------

    async def get_meta(self, key: str) -> str | None:
        row = await self._one("SELECT value FROM meta WHERE key = ?", (key,))
        return str(row["value"]) if row else None

    async def set_meta(self, key: str, value: str) -> None:
        async with self.transaction() as conn:
            await conn.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )


async def _update_game(conn: aiosqlite.Connection, game_id: int, fields: dict[str, object]) -> None:
    unknown = set(fields) - _GAME_FIELDS
    if unknown:
        raise ValueError(f"not game columns: {sorted(unknown)}")
    if not fields:
        return
    assignments = ", ".join(f"{name} = ?" for name in fields)
    await conn.execute(f"UPDATE games SET {assignments} WHERE id = ?", (*fields.values(), game_id))


async def _update_seats(conn: aiosqlite.Connection, game_id: int, seats: SeatChanges) -> None:
    for seat, columns in sorted(seats.items()):
        unknown = set(columns) - _SEAT_FIELDS
        if unknown:
            raise ValueError(f"not seat columns: {sorted(unknown)}")
        if not columns:
            continue
        values = [int(v) if isinstance(v, bool) else v for v in columns.values()]
        assignments = ", ".join(f"{name} = ?" for name in columns)
        await conn.execute(
            f"UPDATE seats SET {assignments} WHERE game_id = ? AND seat = ?",
            (*values, game_id, seat),
        )


async def _put_snapshot(
    conn: aiosqlite.Connection, game_id: int, seq: int | None, state_json: str
) -> None:
    if seq is None:
        cur = await conn.execute("SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,))
        row = await cur.fetchone()
        seq = int(row[0]) if row else 0
    await conn.execute(
        "INSERT INTO snapshots (game_id, seq, state) VALUES (?, ?, ?)"
        " ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, state = excluded.state",
        (game_id, seq, state_json),
    )

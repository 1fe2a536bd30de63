"""Storage of games, seats, the action log and state snapshots, on SQLite or PostgreSQL.

Every method's SQL is written once, in the subset both databases speak (``?``
placeholders, ``ON CONFLICT``, ``RETURNING``; see ``bot.store.db``), and runs on either:
``Storage.open("af.db")`` or ``Storage.open("sqlite:///af.db")`` for the embedded
SQLite file, ``Storage.open("postgresql://…")`` for a PostgreSQL server shared by
several bot processes. Writes that belong together (a move, the chance outcomes it
caused, the snapshot and the game row) are committed in one transaction, on disk
before the method returns, so an acknowledged move survives a crash or power loss.

One action per game version, even across processes: ``commit_actions`` moves the
game's snapshot on from the number of actions the caller's move followed, in the
same transaction as the actions, and refuses (``GameChangedError``, nothing
written) when the database had moved on meanwhile. On PostgreSQL two such commits
meet on the snapshot's row lock; the later one sees the new row and is refused.

One statement is PostgreSQL's own: the commit of a move in play (nearly every
move) is a single statement there, data-modifying ``WITH`` parts doing the same
checks in one round trip instead of five (``_move_statement``); everything else,
and that commit on SQLite, is the shared SQL.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Literal, TypeVar

from bot.store import rating_store
from bot.store.db import Database, Row, Tx, UniqueViolation, open_database
from bot.store.game_config import DEFAULT_SETTINGS, GameSettings
from bot.store.migrations import MIGRATIONS
from bot.store.rating_rules import Departure, SeatPlay, played_from_json
from bot.store.rating_store import RatedChange, rate_game, record_departure
from bot.store.ratings import Skill
from bot.store.shards import Shards

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

GameStatus = Literal["lobby", "playing", "over", "aborted", "orphaned"]
# Why a game was orphaned: its channel (or thread) deleted, or the bot removed from its server.
OrphanedBy = Literal["channel", "guild"]

AiLevel = Literal["easy", "normal", "hard"]
NotifyMode = Literal["channel", "dm", "both", "off"]
ACTIVE: Final = ("lobby", "playing")
_GAME_FIELDS: Final = frozenset(
    {
        "host_id",
        "status",
        "max_players",
        "config",
        "locale",
        "lobby_message_id",
        "turn_message_id",
        "turn_message_turn",
        "waiting_on_user",
        "reminded_at",
        "updated_at",
        "clock_since",
        "clock_turn",
        "reminders_sent",
        "timeout_turn",
        "timeout_mode",
        "ai_only",
        "notified_turn",
        "channel_id",
        "guild_id",
        "orphaned",
        "orphaned_at",
    }
)
_SEAT_FIELDS: Final = frozenset(
    {"user_id", "ai_level", "name", "timeouts", "former_user_id", "rejoin", "holders", "offered_to"}
)
_REAL_FIELDS: Final = frozenset({"reminded_at", "updated_at", "clock_since", "orphaned_at"})
SeatChanges = Mapping[int, Mapping[str, object]]  # seat number -> columns to set


# Every table, in an order that copies rows before the rows that refer to them
# (``python -m bot copy-db``); a test checks it names every table of the schema.
TABLES: Final = (
    "games",
    "seats",
    "actions",
    "snapshots",
    "results",
    "seasons",
    "departures",
    "rating_events",
    "ratings",
    "rating_changes",
    "guild_settings",
    "members",
    "member_things",
    "meta",
    "deliveries",
    "delivery_lanes",
    "host_notices",
    "interaction_owners",
)


class ChannelBusyError(Exception):
    """The channel already has a game in its lobby or in play."""


class GameChangedError(Exception):
    """The game moved on in the database since the caller's copy was loaded (another
    process, or another copy, committed first): nothing was written."""


@dataclass(frozen=True, slots=True)
class GameRow:
    """One game's row: where it is played, by whom it was set up, and how far it got."""

    id: int
    guild_id: int | None
    channel_id: int
    host_id: int
    status: GameStatus
    max_players: int
    seed: int
    locale: str
    lobby_message_id: int | None
    turn_message_id: int | None
    turn_message_turn: int | None
    waiting_on_user: int | None
    reminded_at: float | None
    created_at: float
    updated_at: float
    # The game's rule variants and turn clock (one JSON value in the ``config`` column).
    config: GameSettings = DEFAULT_SETTINGS
    clock_since: float | None = None
    clock_turn: int | None = None
    reminders_sent: int = 0
    timeout_turn: int | None = None
    timeout_mode: Literal["ai", "skip"] | None = None
    ai_only: bool = False
    notified_turn: int | None = None
    # An orphaned game: why (its channel deleted, the bot removed from its server) and when.
    orphaned: OrphanedBy | None = None
    orphaned_at: float | None = None


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
    # Who held the seat in play before (JSON, bot.store.rating_rules.holders_json), and a
    # member the host offered it to (they take it by /af join).
    holders: str = ""
    offered_to: int | None = None

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
    place: int | None = None  # 1 = won; by VP, then the tie-breaks (None: not known)
    # Who played the seat's turns (bot/store/rating_rules.py): in all, by user_id, by the bot.
    turns: int = 0
    own_turns: int = 0
    bot_turns: int = 0
    # Who played its turns, JSON (bot.store.rating_rules.played_json): '' if not recorded.
    played_by: str = ""

    def play(self) -> SeatPlay:
        """The seat as the end's rating reads it."""
        return SeatPlay(
            self.seat,
            self.place or (1 if self.winner else 2),
            self.user_id,
            self.ai_level,
            self.turns,
            self.own_turns,
            self.bot_turns,
            played_from_json(self.played_by),
        )


_RESULT_COLUMNS: Final = ("game_id", *(f.name for f in fields(ResultRow)))


@dataclass(frozen=True, slots=True)
class MemberPrefs:
    """A member's notification choice (bot/discord/notify.py), what is known of their DMs,
    whether the coach (bot/play/coach.py) is on for them, and their screen-reader mode
    (bot/play/readers.py)."""

    user_id: int
    notify: NotifyMode = "channel"
    dm_channel_id: int | None = None
    dm_blocked: bool = False
    dm_hint: bool = False  # a private hint on opening DMs is still to be given
    locale: str | None = None
    coach: bool = False  # /af coach: a line on each thing not used before
    screen_reader: bool = False  # /af notify screen_reader: words for a screen reader


@dataclass(frozen=True, slots=True)
class ActionRow:
    """One logged action: its sequence number (0-based), who acted and what happened."""

    seq: int
    actor: int  # seat, or -1 for a chance outcome
    user_id: int | None
    notation: str
    events: list[dict[str, Any]] = field(default_factory=list)
    created_at: float = 0.0
    # The idempotency key of the member's move this action began (None for the rest).
    move_key: str | None = None


@dataclass(frozen=True, slots=True)
class Delivery:
    """Something players must see because of a committed change (``bot.play.outbox`` makes
    them, ``bot.discord.delivery`` delivers them): a kind, what it needs (``payload``), the
    game (None for a server's announcement) and the channel whose lane it goes in. ``id`` is
    0 until it is stored."""

    kind: str
    game_id: int | None
    channel_id: int
    guild_id: int | None
    payload: Mapping[str, Any] = field(default_factory=dict)
    id: int = 0
    attempts: int = 0
    due_at: float = 0.0
    created_at: float = 0.0
    status: str = "pending"
    error: str | None = None
    failed_at: float | None = None


_DELIVERY_COLUMNS: Final = (
    "game_id",
    "guild_id",
    "channel_id",
    "kind",
    "payload",
    "status",
    "attempts",
    "due_at",
    "created_at",
)
Deliveries = Sequence[Delivery]


R = TypeVar("R", bound="DataclassInstance")
_FIELD_NAMES: dict[type[Any], tuple[str, ...]] = {}


def _from_row(cls: type[R], row: Row, prefix: str = "", **read: Callable[[Any], Any]) -> R:
    """A row dataclass from the columns named like its fields (after ``prefix``); ``read``
    converts the columns stored in another form (a flag as 0/1, JSON as text)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls))
    values = {name: row[prefix + name] for name in names}
    for name, convert in read.items():
        values[name] = convert(values[name])
    return cls(**values)


def _game(row: Row) -> GameRow:
    return _from_row(GameRow, row, config=GameSettings.from_json, ai_only=bool)


def _result(row: Row, prefix: str = "") -> ResultRow:
    return _from_row(ResultRow, row, prefix, winner=bool)


def _seat(row: Row) -> SeatRow:
    return _from_row(SeatRow, row, rejoin=bool)


def _action(row: Row) -> ActionRow:
    return _from_row(ActionRow, row, events=json.loads)


def _delivery(row: Row) -> Delivery:
    return _from_row(Delivery, row, payload=json.loads)


def _delivery_values(d: Delivery) -> tuple[object, ...]:
    payload = json.dumps(dict(d.payload), separators=(",", ":"), sort_keys=True)
    created = float(d.created_at)
    due = float(d.due_at or created)
    return (d.game_id, d.guild_id, d.channel_id, d.kind, payload, "pending", 0, due, created)


_QUEUE_SQL: Final = (
    f"INSERT INTO deliveries ({', '.join(_DELIVERY_COLUMNS)})"
    f" VALUES ({', '.join('?' for _ in _DELIVERY_COLUMNS)})"
)


async def _queue(tx: Tx, deliveries: Deliveries) -> None:
    """Store new deliveries in the caller's transaction (the change's own)."""
    if deliveries:
        await tx.executemany(_QUEUE_SQL, [_delivery_values(d) for d in deliveries])


def _shard_filter(shards: Shards | None, column: str = "guild_id") -> tuple[str, list[object]]:
    """SQL (`` AND ...``) keeping the rows of the servers of ``shards`` (Discord's formula,
    ``(guild_id >> 22) % count``; no server is shard 0's), and its parameters."""
    if shards is None or shards.all:
        return "", []
    marks = ", ".join("?" for _ in shards.ids)
    sql = f" AND ((COALESCE({column}, 0) >> 22) % ?) IN ({marks})"
    return sql, [shards.count, *sorted(shards.ids)]


class Storage:
    """The database. Open with ``await Storage.open(url_or_path)``; close with ``await close()``."""

    def __init__(self, db: Database) -> None:
        self.db = db

    @classmethod
    async def open(cls, target: str | Path) -> Storage:
        """Open a ``DATABASE_URL`` (``sqlite:///…`` or ``postgresql://…``) or a SQLite file
        path (creating the file and its folder if needed), and migrate it."""
        db = await open_database(target)
        store = cls(db)
        try:
            await store.migrate()
        except BaseException:
            await db.close()
            raise
        return store

    @property
    def dialect(self) -> str:
        return self.db.dialect

    async def close(self) -> None:
        await self.db.close()

    # ---- plumbing ---------------------------------------------------------------------

    def transaction(self) -> Any:
        """``async with store.transaction() as tx:`` one write transaction (``bot.store.db.Tx``)."""
        return self.db.transaction()

    async def _all(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        return await self.db.fetch(sql, params)

    async def _one(self, sql: str, params: Sequence[object] = ()) -> Row | None:
        return await self.db.fetchone(sql, params)

    async def schema_version(self) -> int:
        return await self.db.schema_version()

    async def migrate(self) -> None:
        """Apply the migrations the database has not seen yet, each in its own transaction."""
        await self.db.migrate(MIGRATIONS)

    # ---- games ------------------------------------------------------------------------

    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        host_name: str | None,
        max_players: int,
        seed: int,
        locale: str,
        now: float,
        config: GameSettings = DEFAULT_SETTINGS,
        deliveries: Callable[[int], Deliveries] | None = None,
    ) -> int:
        """A new game in its lobby with the host in seat 0 (unless ``host_name`` is None),
        and what ``deliveries`` (given the new game's id) says must be shown of it.

        ChannelBusyError if the channel already has an active game.
        """
        try:
            async with self.transaction() as tx:
                row = await tx.fetchone(
                    "INSERT INTO games (guild_id, channel_id, host_id, status, max_players,"
                    " config, seed, locale, created_at, updated_at)"
                    " VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?) RETURNING id",
                    (
                        guild_id,
                        channel_id,
                        host_id,
                        max_players,
                        config.to_json(),
                        seed,
                        locale,
                        float(now),
                        float(now),
                    ),
                )
                assert row is not None
                game_id = int(row["id"])
                if host_name is not None:
                    await tx.execute(
                        "INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, 0, ?, ?)",
                        (game_id, host_id, host_name),
                    )
                if deliveries is not None:
                    await _queue(tx, deliveries(game_id))
        except UniqueViolation:
            raise ChannelBusyError(channel_id) from None
        return game_id

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

    async def games_with_status(
        self, status: GameStatus, shards: Shards | None = None
    ) -> list[GameRow]:
        """Games with this status, only those in the servers of ``shards`` if given
        (Discord's formula, ``(guild_id >> 22) % count``; a game with no server is shard 0's)."""
        where, params = _shard_filter(shards)
        rows = await self._all(
            f"SELECT * FROM games WHERE status = ?{where} ORDER BY id", [status, *params]
        )
        return [_game(r) for r in rows]

    async def update_game(
        self, game_id: int, deliveries: Deliveries = (), **fields: object
    ) -> GameRow | None:
        """Set some columns of a game's row (names checked against a fixed list), with the
        deliveries the change causes; the row as it is now (None if there is no such game).
        Without deliveries, one statement committed alone."""
        if not deliveries:
            rows = await self.db.write(*_game_update(game_id, fields))
            return _game(rows[0]) if rows else None
        async with self.transaction() as tx:
            row = await tx.fetchone(*_game_update(game_id, fields))
            await _queue(tx, deliveries)
        return _game(row) if row else None

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
        self,
        game_id: int,
        seats: Iterable[SeatRow],
        deliveries: Deliveries = (),
        **game_fields: object,
    ) -> GameRow:
        """Replace the seats of a game (and update its row), with the deliveries the change
        causes, in one transaction; the game's row as committed."""
        async with self.transaction() as tx:
            await _queue(tx, deliveries)
            await tx.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
            await tx.executemany(
                "INSERT INTO seats (game_id, seat, user_id, ai_level, name, timeouts,"
                " former_user_id, rejoin, holders, offered_to)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        game_id,
                        s.seat,
                        s.user_id,
                        s.ai_level,
                        s.name,
                        s.timeouts,
                        s.former_user_id,
                        s.rejoin,
                        s.holders,
                        s.offered_to,
                    )
                    for s in seats
                ],
            )
            row = await tx.fetchone(*_game_update(game_id, game_fields))
        if row is None:
            raise ValueError(f"no game {game_id}")
        return _game(row)

    async def update(
        self,
        game_id: int,
        seats: SeatChanges | None = None,
        deliveries: Deliveries = (),
        *,
        departure: tuple[int, Departure, float] | None = None,
        **game_fields: object,
    ) -> GameRow:
        """Set some columns of a game's seats and of its row, with the deliveries the change
        causes, in one transaction; ``departure``: (server, departure, time) a member leaves
        the game in play, rated on that server (``bot.store.rating_store``), in the same one.
        The game's row as committed (the caller knows the seats it set: nothing needs reading
        back after the commit)."""
        async with self.transaction() as tx:
            await _queue(tx, deliveries)
            await _update_seats(tx, game_id, seats or {})
            row = await tx.fetchone(*_game_update(game_id, game_fields))
            if row is None:
                raise ValueError(f"no game {game_id}")
            if departure is not None:
                guild_id, gone, at = departure
                await record_departure(tx, self.db.dialect, game_id, guild_id, gone, at)
        return _game(row)

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

    async def actions_between(self, game_id: int, low: int, high: int) -> list[ActionRow]:
        """The actions numbered ``low`` to ``high - 1`` of a game, in order."""
        rows = await self._all(
            "SELECT * FROM actions WHERE game_id = ? AND seq >= ? AND seq < ? ORDER BY seq",
            (game_id, low, high),
        )
        return [_action(r) for r in rows]

    async def actions_since(self, game_id: int, seat: int) -> list[ActionRow]:
        """The actions after ``seat``'s last one (all of them if it has none yet): what
        happened since its previous turn, without reading the whole log."""
        rows = await self._all(
            "SELECT * FROM actions WHERE game_id = ? AND seq > COALESCE((SELECT MAX(seq)"
            " FROM actions WHERE game_id = ? AND actor = ?), -1) ORDER BY seq",
            (game_id, game_id, seat),
        )
        return [_action(r) for r in rows]

    async def first_action_time(self, game_id: int) -> float | None:
        """When the game's first action was logged (its start)."""
        row = await self._one(
            "SELECT MIN(created_at) AS t FROM actions WHERE game_id = ?", (game_id,)
        )
        return float(row["t"]) if row is not None and row["t"] is not None else None

    async def logged(self, game_id: int) -> int:
        """The number of actions the game's stored state follows (0 before its start)."""
        row = await self._one("SELECT seq FROM snapshots WHERE game_id = ?", (game_id,))
        return int(row["seq"]) if row else 0

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
        deliveries: Deliveries = (),
        landed: Sequence[int] = (),
        rated_in: int | None = None,
        **game_fields: object,
    ) -> GameRow:
        """Append actions, replace the snapshot, update the game row and some seats, (for
        the move that ends the game) record its results and rate its members on the server
        ``rated_in`` (``bot.store.rating_store``), queue what players must see of it
        (``deliveries``) and remove deliveries that landed since (``landed``: their removal
        rides along): all or nothing. Returns the game's row as committed.

        The first action's ``seq`` is the number of actions the move followed: unless the
        stored snapshot follows exactly that many (none stored yet for the first actions
        of a game), the game moved on meanwhile and ``GameChangedError`` is raised with
        nothing written.
        """
        if not actions:
            raise ValueError("commit_actions needs at least one action")
        first, last = actions[0].seq, actions[-1].seq + 1
        rows = [
            (
                game_id,
                a.seq,
                a.actor,
                a.user_id,
                a.notation,
                json.dumps(a.events, separators=(",", ":")),
                float(a.created_at),
                a.move_key,
            )
            for a in actions
        ]
        if self.dialect == "postgresql" and first > 0 and game_fields and not seats and not results:
            # A move in play, the commit of nearly every move: one statement, one round trip.
            moved = await self.db.write(
                *_move_statement(
                    game_id, first, last, state_json, rows, game_fields, deliveries, landed
                )
            )
            if not moved:
                raise GameChangedError(f"game {game_id}: the game is no longer at action {first}")
            return _game(moved[0])
        async with self.transaction() as tx:
            await _move_snapshot(tx, game_id, first, last, state_json)
            await tx.executemany(
                "INSERT INTO actions (game_id, seq, actor, user_id, notation, events, created_at,"
                " move_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                rows,
            )
            await _update_seats(tx, game_id, seats or {})
            row = await tx.fetchone(*_game_update(game_id, game_fields))
            await tx.executemany(
                f"INSERT INTO results ({', '.join(_RESULT_COLUMNS)})"
                f" VALUES ({', '.join('?' for _ in _RESULT_COLUMNS)})",
                [(game_id, *(getattr(r, c) for c in _RESULT_COLUMNS[1:])) for r in results],
            )
            if results and rated_in is not None:
                now = float(actions[-1].created_at)
                plays = [r.play() for r in results]
                await rate_game(tx, self.db.dialect, game_id, rated_in, plays, now)
            await _queue(tx, deliveries)
            await _forget(tx, landed)
        if row is None:
            raise ValueError(f"no game {game_id}")
        return _game(row)

    async def repair_snapshot(
        self, game_id: int, found: int | None, seq: int, state_json: str
    ) -> bool:
        """Replace a snapshot found to differ from the replay of the log (``found``: the
        number of actions it said it follows) by the replay's state after ``seq`` actions.

        Only if neither changed meanwhile (the snapshot still follows ``found`` actions and
        the log still has ``seq``): a commit of another process in between wins.
        """
        async with self.transaction() as tx:
            count = "(SELECT COUNT(*) FROM actions WHERE game_id = ?) = ?"
            if found is None:
                done = await tx.fetch(
                    "INSERT INTO snapshots (game_id, seq, state) SELECT ?, ?, ?"
                    f" WHERE {count} ON CONFLICT (game_id) DO NOTHING RETURNING seq",
                    (game_id, seq, state_json, game_id, seq),
                )
            else:
                done = await tx.fetch(
                    "UPDATE snapshots SET seq = ?, state = ? WHERE game_id = ? AND seq = ?"
                    f" AND {count} RETURNING seq",
                    (seq, state_json, game_id, found, game_id, seq),
                )
        return bool(done)

    async def undo_action(
        self,
        game_id: int,
        seq: int,
        state_json: str,
        deliveries: Deliveries = (),
        **game_fields: object,
    ) -> GameRow:
        """Remove the last action (``seq``) after an undo and store the restored state, with
        the deliveries it causes (``GameChangedError`` if ``seq`` is no longer the last
        action); the game's row as committed."""
        async with self.transaction() as tx:
            await _move_snapshot(tx, game_id, seq + 1, seq, state_json)
            gone = await tx.fetch(
                "DELETE FROM actions WHERE game_id = ? AND seq = ?"
                " AND seq = (SELECT MAX(seq) FROM actions WHERE game_id = ?) RETURNING seq",
                (game_id, seq, game_id),
            )
            if len(gone) != 1:
                raise GameChangedError(f"game {game_id}: action {seq} is not the last one")
            row = await tx.fetchone(*_game_update(game_id, game_fields))
            await _queue(tx, deliveries)
        if row is None:
            raise ValueError(f"no game {game_id}")
        return _game(row)

    # ---- servers and members ---------------------------------------------------------

    # A server's defaults for new games are one JSON object in guild_settings.clock: the
    # clock's settings, and the admins' choice of language under "language" (the clock's
    # reader ignores keys it does not know).

    async def guild_clock(self, guild_id: int) -> str | None:
        """A server's default clock settings for new games (JSON), if its admins set them."""
        row = await self._one("SELECT clock FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return str(row["clock"]) if row else None

    async def guild_language(self, guild_id: int) -> str | None:
        """The language a server's admins chose for its new games, if they chose one."""
        language = _json_object(await self.guild_clock(guild_id)).get("language")
        return str(language) if language else None

    async def set_guild_clock(self, guild_id: int, clock: str, now: float) -> None:
        """Replace a server's clock defaults (JSON), keeping its language."""
        await self._update_guild_settings(
            guild_id, lambda old: {**_json_object(clock), **_language_of(old)}, now
        )

    async def set_guild_language(self, guild_id: int, language: str, now: float) -> None:
        """Set the language of a server's new games, keeping its clock defaults."""
        await self._update_guild_settings(guild_id, lambda old: {**old, "language": language}, now)

    async def _update_guild_settings(
        self,
        guild_id: int,
        change: Callable[[dict[str, object]], dict[str, object]],
        now: float,
    ) -> None:
        async with self.transaction() as tx:
            row = await tx.fetchone(
                "SELECT clock FROM guild_settings WHERE guild_id = ?", (guild_id,)
            )
            data = change(_json_object(str(row["clock"]) if row else None))
            await tx.execute(
                "INSERT INTO guild_settings (guild_id, clock, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET clock = excluded.clock,"
                " updated_at = excluded.updated_at",
                (guild_id, json.dumps(data, sort_keys=True), float(now)),
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
        async with self.transaction() as tx:
            await tx.execute(
                "INSERT INTO members (user_id, away_until) VALUES (?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET away_until = excluded.away_until",
                (user_id, float(until)),
            )

    async def prefs(self, user_ids: Iterable[int]) -> dict[int, MemberPrefs]:
        """The notification preferences of these members (defaults for those never set)."""
        ids = sorted(set(user_ids))
        out = {u: MemberPrefs(u) for u in ids}
        if not ids:
            return out
        marks = ", ".join("?" for _ in ids)
        rows = await self._all(
            "SELECT user_id, notify, dm_channel_id, dm_blocked, dm_hint, locale, coach,"
            " screen_reader"
            f" FROM members WHERE user_id IN ({marks})",
            ids,
        )
        for r in rows:
            u = int(r["user_id"])
            out[u] = _from_row(
                MemberPrefs,
                r,
                user_id=int,
                dm_blocked=bool,
                dm_hint=bool,
                coach=bool,
                screen_reader=bool,
            )
        return out

    async def set_prefs(self, user_id: int, **changes: object) -> None:
        """Set some of a member's preferences (the columns of ``MemberPrefs``)."""
        unknown = set(changes) - {
            "notify",
            "dm_channel_id",
            "dm_blocked",
            "dm_hint",
            "locale",
            "coach",
            "screen_reader",
        }
        if unknown or not changes:
            raise ValueError(f"not member preferences: {sorted(unknown)}")
        names = list(changes)
        updates = ", ".join(f"{n} = excluded.{n}" for n in names)
        async with self.transaction() as tx:
            await tx.execute(
                f"INSERT INTO members (user_id, {', '.join(names)})"
                f" VALUES (?, {', '.join('?' for _ in names)})"
                f" ON CONFLICT (user_id) DO UPDATE SET {updates}",
                (user_id, *changes.values()),
            )

    async def used_things(self, user_id: int) -> set[str]:
        """What a coached member has used, in any game (thing ids of ``bot.play.coach``)."""
        rows = await self._all("SELECT thing FROM member_things WHERE user_id = ?", (user_id,))
        return {str(r["thing"]) for r in rows}

    async def add_used_things(self, user_id: int, things: Iterable[str]) -> None:
        new = sorted(set(things))
        if not new:
            return
        async with self.transaction() as tx:
            await tx.executemany(
                "INSERT INTO member_things (user_id, thing) VALUES (?, ?) ON CONFLICT DO NOTHING",
                [(user_id, t) for t in new],
            )

    # ---- finished games ---------------------------------------------------------------

    async def results(self, game_id: int) -> list[ResultRow]:
        rows = await self._all("SELECT * FROM results WHERE game_id = ? ORDER BY seat", (game_id,))
        return [_result(r) for r in rows]

    async def results_of(
        self, *, user_id: int | None = None, guild_id: int | None = None
    ) -> list[tuple[GameRow, ResultRow]]:
        """Results of finished games (of one member, of one server, or both), newest first.
        A member's are the seats they held at the end and played most of (a seat the AI
        took from them, or one they were handed late, is not their result)."""
        where = ["g.status = 'over'"]
        params: list[object] = []
        if user_id is not None:
            where.append("r.user_id = ? AND r.ai_level IS NULL AND 2 * r.own_turns >= r.turns")
            params.append(user_id)
        if guild_id is not None:
            where.append("g.guild_id = ?")
            params.append(guild_id)
        rows = await self._all(
            "SELECT g.*, r.seat AS r_seat, r.user_id AS r_user_id, r.ai_level AS r_ai_level,"
            " r.name AS r_name, r.vp AS r_vp, r.vp_colonies AS r_vp_colonies,"
            " r.vp_territories AS r_vp_territories, r.vp_positron AS r_vp_positron,"
            " r.vp_cards AS r_vp_cards, r.winner AS r_winner,"
            " r.first_territory AS r_first_territory, r.place AS r_place,"
            " r.turns AS r_turns, r.own_turns AS r_own_turns, r.bot_turns AS r_bot_turns,"
            " r.played_by AS r_played_by"
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
        elif guild_id is None:  # games in DMs
            rows = await self._all(
                "SELECT * FROM games WHERE status = 'over' AND guild_id IS NULL ORDER BY id DESC"
            )
        else:
            rows = await self._all(
                "SELECT * FROM games WHERE status = 'over' AND guild_id = ? ORDER BY id DESC",
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

    # ---- ratings and seasons (bot/store/rating_store.py) -----------------------------------

    async def seasons(self, guild_id: int) -> list[rating_store.Season]:
        """The server's seasons, newest first (none before its first rated game)."""
        return await rating_store.seasons(self.db, guild_id)

    async def season_table(self, season_id: int) -> dict[int, Skill]:
        return await rating_store.table(self.db, season_id)

    async def season_wins(self, season_id: int) -> dict[int, tuple[int, int]]:
        """Each member's (wins, rated games) in a season."""
        return await rating_store.wins(self.db, season_id)

    async def rating_history(self, season_id: int, user_id: int) -> list[RatedChange]:
        return await rating_store.history(self.db, season_id, user_id)

    async def rating_changes(self, game_id: int) -> list[RatedChange]:
        return await rating_store.of_game(self.db, game_id)

    async def start_season(
        self,
        guild_id: int,
        name: str,
        now: float,
        deliveries: Callable[[rating_store.Season | None, rating_store.Season], Deliveries]
        | None = None,
    ) -> tuple[rating_store.Season | None, rating_store.Season]:
        """Close the server's season (its table is kept) and start the next, ``name``d:
        (the season closed, if one was, the new one); ``deliveries`` (given both) says what
        must be shown of it (its announcement), queued in the same transaction."""
        async with self.transaction() as tx:
            closed, new = await rating_store.start_season(tx, self.db.dialect, guild_id, name, now)
            if deliveries is not None:
                await _queue(tx, deliveries(closed, new))
        return closed, new

    async def rebuild_ratings(self) -> rating_store.Rebuilt:
        """Every rating recomputed from the stored results (``python -m bot ratings
        rebuild``), in one transaction."""
        async with self.transaction() as tx:
            return await rating_store.rebuild(tx)

    # ---- deliveries (the outbox: bot/play/outbox.py, bot/discord/delivery.py) -------------

    async def queue(self, deliveries: Deliveries) -> None:
        """Store deliveries that no change of a game causes (a repair, a notice of the
        delivery worker's own)."""
        async with self.transaction() as tx:
            await _queue(tx, deliveries)

    async def pending_deliveries(
        self, shards: Shards | None = None, channel_id: int | None = None
    ) -> list[Delivery]:
        """Deliveries still to make, in the servers of ``shards`` (or one channel's), in
        the order they were queued."""
        where, params = _shard_filter(shards)
        if channel_id is not None:
            where += " AND channel_id = ?"
            params.append(channel_id)
        rows = await self._all(
            f"SELECT * FROM deliveries WHERE status = 'pending'{where} ORDER BY id", params
        )
        return [_delivery(r) for r in rows]

    async def has_pending(self, game_id: int, kind: str) -> bool:
        row = await self._one(
            "SELECT 1 FROM deliveries WHERE game_id = ? AND kind = ? AND status = 'pending'"
            " LIMIT 1",
            (game_id, kind),
        )
        return row is not None

    async def delivered(
        self,
        delivery_id: int,
        game_id: int | None,
        then: Deliveries = (),
        **game_fields: object,
    ) -> None:
        """A delivery landed: remove it, and record what it made (a message's id in the
        game's row) and queue what comes in its place (``then``) in the same transaction, so
        a retry never makes it twice. What comes in its place takes its place in the lane
        (the row becomes the first of them: a DM refused becomes its notice in the channel,
        before what was queued after it)."""
        async with self.transaction() as tx:
            first, rest = (then[0], then[1:]) if then else (None, ())
            if first is None:
                await tx.execute("DELETE FROM deliveries WHERE id = ?", (delivery_id,))
            else:
                values = _delivery_values(first)
                await tx.execute(
                    "UPDATE deliveries SET game_id = ?, guild_id = ?, channel_id = ?, kind = ?,"
                    " payload = ?, status = ?, attempts = ?, due_at = ?, created_at = ?,"
                    " error = NULL WHERE id = ?",
                    (*values, delivery_id),
                )
            if game_id is not None:
                await _update_game(tx, game_id, game_fields)
            await _queue(tx, rest)

    async def forget_deliveries(self, landed: Sequence[int]) -> None:
        """Remove deliveries that landed (their removal waited, to go with a commit)."""
        if landed:
            async with self.transaction() as tx:
                await _forget(tx, landed)

    async def delivery_failed(
        self,
        delivery_id: int,
        *,
        attempts: int,
        due_at: float,
        error: str,
        give_up: bool = False,
        now: float | None = None,
    ) -> None:
        """An attempt failed: try again at ``due_at``, or (``give_up``) never (failed at
        ``now``: failed rows are pruned after a while)."""
        status = "failed" if give_up else "pending"
        failed_at = float(now if now is not None else due_at) if give_up else None
        await self.db.write(
            "UPDATE deliveries SET attempts = ?, due_at = ?, error = ?, status = ?, failed_at = ?"
            " WHERE id = ?",
            (attempts, float(due_at), error[:500], status, failed_at, delivery_id),
        )

    async def delivery_counts(self, shards: Shards | None = None) -> tuple[int, float | None, int]:
        """(pending, the oldest pending one's creation time, failed) in ``shards``."""
        where, params = _shard_filter(shards)
        row = await self._one(
            "SELECT SUM(CASE WHEN status = 'pending' THEN 1 ELSE 0 END) AS pending,"
            " MIN(CASE WHEN status = 'pending' THEN created_at END) AS oldest,"
            " SUM(CASE WHEN status = 'failed' THEN 1 ELSE 0 END) AS failed"
            f" FROM deliveries WHERE 1 = 1{where}",
            params,
        )
        if row is None:
            return 0, None, 0
        oldest = row["oldest"]
        return (
            int(row["pending"] or 0),
            float(oldest) if oldest is not None else None,
            int(row["failed"] or 0),
        )

    async def failed_deliveries(
        self, shards: Shards | None = None, game_id: int | None = None
    ) -> list[Delivery]:
        """The deliveries given up (in ``shards``, or of one game), newest first."""
        where, params = _shard_filter(shards)
        if game_id is not None:
            where += " AND game_id = ?"
            params.append(game_id)
        rows = await self._all(
            f"SELECT * FROM deliveries WHERE status = 'failed'{where} ORDER BY id DESC", params
        )
        return [_delivery(r) for r in rows]

    async def prune_failed(self, before: float) -> int:
        """Remove the deliveries given up before ``before``; how many."""
        rows = await self.db.write(
            "DELETE FROM deliveries WHERE status = 'failed' AND COALESCE(failed_at, due_at) < ?"
            " RETURNING id",
            (float(before),),
        )
        return len(rows)

    # ---- who delivers which lane: leases ----------------------------------------------

    async def claim_lane(
        self, channel_id: int, owner: str, now: float, until: float
    ) -> tuple[bool, str | None]:
        """Take (or keep) a lane until ``until``: only if its lease is ``owner``'s or ran out
        by ``now``; one statement, so of two processes claiming at once one gets it.
        (Whether it was taken, and the owner before: whose deliveries of the lane may have
        been made without being recorded.)"""
        rows = await self.db.write(
            "INSERT INTO delivery_lanes (channel_id, owner, until, taken_from)"
            " VALUES (?, ?, ?, NULL) ON CONFLICT (channel_id) DO UPDATE SET"
            " owner = excluded.owner, until = excluded.until,"
            " taken_from = delivery_lanes.owner"
            " WHERE delivery_lanes.owner = excluded.owner OR delivery_lanes.until < ?"
            " RETURNING taken_from",
            (channel_id, owner, float(until), float(now)),
        )
        if not rows:
            return False, None
        before = rows[0]["taken_from"]
        return True, str(before) if before is not None else None

    async def release_lanes(self, owner: str) -> None:
        """Let the lanes ``owner`` holds go (a process stopping): another takes them at once."""
        await self.db.write("UPDATE delivery_lanes SET until = 0 WHERE owner = ?", (owner,))

    # ---- who answers which interaction -------------------------------------------------

    async def claim_interaction(self, interaction_id: int, owner: str, now: float) -> bool:
        """Take an interaction for ``owner``: whether it is theirs (one statement, so of two
        processes given the same interaction one gets it; the same owner asking again
        keeps it)."""
        rows = await self.db.write(
            "INSERT INTO interaction_owners (interaction_id, owner, at) VALUES (?, ?, ?)"
            " ON CONFLICT (interaction_id) DO UPDATE SET at = interaction_owners.at"
            " WHERE interaction_owners.owner = excluded.owner RETURNING owner",
            (interaction_id, owner, float(now)),
        )
        return bool(rows)

    async def prune_interactions(self, before: float) -> int:
        """Forget who answered the interactions taken before ``before``; how many."""
        rows = await self.db.write(
            "DELETE FROM interaction_owners WHERE at < ? RETURNING interaction_id",
            (float(before),),
        )
        return len(rows)

    # ---- telling a game's host of a problem, once --------------------------------------

    async def tell_host(
        self, game_id: int, problem: str, now: float, deliveries: Deliveries
    ) -> bool:
        """Queue what tells the host of ``problem`` (a DM), unless they were told of it
        already (and it was not solved since): whether it was queued. Remembered in the
        database, so a restart does not tell them again."""
        async with self.transaction() as tx:
            rows = await tx.fetch(
                "INSERT INTO host_notices (game_id, problem, told_at) VALUES (?, ?, ?)"
                " ON CONFLICT (game_id, problem) DO NOTHING RETURNING game_id",
                (game_id, problem, float(now)),
            )
            if rows:
                await _queue(tx, deliveries)
        return bool(rows)

    async def host_told(self, game_id: int) -> dict[str, float]:
        """The problems the host of a game was told of (and when)."""
        rows = await self._all(
            "SELECT problem, told_at FROM host_notices WHERE game_id = ?", (game_id,)
        )
        return {str(r["problem"]): float(r["told_at"]) for r in rows}

    async def problem_solved(self, game_id: int, problem: str) -> None:
        """The problem is gone: if it comes back, the host is told again."""
        await self.db.write(
            "DELETE FROM host_notices WHERE game_id = ? AND problem = ?", (game_id, problem)
        )

    # ---- games that lost their channel ---------------------------------------------------

    async def orphan_game(
        self,
        game_id: int,
        why: OrphanedBy,
        now: float,
        deliveries: Callable[[GameRow], Deliveries] = lambda row: (),
    ) -> GameRow | None:
        """A game in play whose channel is gone (``why``: its channel deleted, the bot
        removed from its server) becomes orphaned (a lobby is aborted: nothing of it is
        worth keeping); what was still to be delivered in its channel is given up; and
        ``deliveries`` (given the row) tells its host, once, with the host's problem
        recorded. None if the game was not in its lobby or in play."""
        async with self.transaction() as tx:
            row = await tx.fetchone(
                "UPDATE games SET status = CASE WHEN status = 'lobby' THEN 'aborted'"
                " ELSE 'orphaned' END, orphaned = CASE WHEN status = 'lobby' THEN NULL"
                " ELSE ? END, orphaned_at = ?, waiting_on_user = NULL, updated_at = ?"
                " WHERE id = ? AND status IN ('lobby', 'playing') RETURNING *",
                (why, float(now), float(now), game_id),
            )
            if row is None:
                return None
            game = _game(row)
            await tx.execute(
                "UPDATE deliveries SET status = 'failed', failed_at = ?, error = ?"
                " WHERE status = 'pending' AND channel_id = ?",
                (float(now), f"orphaned: {why}", game.channel_id),
            )
            told = list(deliveries(game)) if game.status == "orphaned" else []
            if told:
                made = await tx.fetch(
                    "INSERT INTO host_notices (game_id, problem, told_at) VALUES (?, ?, ?)"
                    " ON CONFLICT (game_id, problem) DO NOTHING RETURNING game_id",
                    (game_id, "orphaned", float(now)),
                )
                if made:
                    await _queue(tx, told)
        return game

    async def adopt_game(
        self,
        game_id: int,
        *,
        channel_id: int,
        guild_id: int | None,
        now: float,
        deliveries: Callable[[GameRow], Deliveries] = lambda row: (),
        keep_messages: bool = False,
    ) -> GameRow | None:
        """An orphaned game plays on in ``channel_id`` (another channel, or its own once the
        bot is back in its server: ``keep_messages``, its messages there are still its own),
        in play again, with no turn message yet (unless kept), its clock starting now, and
        ``deliveries`` (given the new row) to show it there. ChannelBusyError if that
        channel has a game; None if the game is not orphaned."""
        messages = (
            ""
            if keep_messages
            else " turn_message_id = NULL, turn_message_turn = NULL, lobby_message_id = NULL,"
        )
        try:
            async with self.transaction() as tx:
                row = await tx.fetchone(
                    "UPDATE games SET status = 'playing', channel_id = ?, guild_id = ?,"
                    f" orphaned = NULL, orphaned_at = NULL,{messages} clock_since = ?,"
                    " updated_at = ? WHERE id = ? AND status = 'orphaned' RETURNING *",
                    (channel_id, guild_id, float(now), float(now), game_id),
                )
                if row is None:
                    return None
                game = _game(row)
                await tx.execute("DELETE FROM host_notices WHERE game_id = ?", (game_id,))
                await _queue(tx, deliveries(game))
        except UniqueViolation:
            raise ChannelBusyError(channel_id) from None
        return game

    async def games_in(
        self,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
        host_id: int | None = None,
        statuses: Sequence[GameStatus] = ACTIVE,
    ) -> list[GameRow]:
        """Games of a server, a channel or a host (any of them given), with these statuses."""
        where = [f"status IN ({', '.join('?' for _ in statuses)})"]
        params: list[object] = list(statuses)
        for column, value in (
            ("guild_id", guild_id),
            ("channel_id", channel_id),
            ("host_id", host_id),
        ):
            if value is not None:
                where.append(f"{column} = ?")
                params.append(value)
        rows = await self._all(
            f"SELECT * FROM games WHERE {' AND '.join(where)} ORDER BY id", params
        )
        return [_game(r) for r in rows]

    async def keyed_move(self, game_id: int, key: str) -> list[ActionRow]:
        """The actions of the member's move with idempotency key ``key``: its own action and
        the chance outcomes it caused (none if no move of the game has that key)."""
        rows = await self._all(
            "SELECT * FROM actions WHERE game_id = ? AND seq >= (SELECT seq FROM actions"
            " WHERE game_id = ? AND move_key = ?) ORDER BY seq LIMIT 64",
            (game_id, game_id, key),
        )
        out: list[ActionRow] = []
        for row in (_action(r) for r in rows):
            if out and row.actor >= 0:
                break
            out.append(row)
        return out

    # ---- meta -------------------------------------------------------------------------

    async def get_meta(self, key: str) -> str | None:
        row = await self._one("SELECT value FROM meta WHERE key = ?", (key,))
        return str(row["value"]) if row else None

    async def set_meta(self, key: str, value: str) -> None:
        async with self.transaction() as tx:
            await tx.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )


async def _update_game(tx: Tx, game_id: int, fields: Mapping[str, object]) -> None:
    if fields:
        await tx.execute(*_game_update(game_id, fields, returning=False))


def _game_update(
    game_id: int, fields: Mapping[str, object], *, returning: bool = True
) -> tuple[str, list[object]]:
    """The statement that sets some columns of a game's row (and returns the row; with
    nothing to set, only reads it)."""
    unknown = set(fields) - _GAME_FIELDS
    if unknown:
        raise ValueError(f"not game columns: {sorted(unknown)}")
    if not fields:
        return "SELECT * FROM games WHERE id = ?", [game_id]
    assignments = ", ".join(f"{name} = ?" for name in fields)
    values = [_column_value(name, v) for name, v in fields.items()]
    sql = f"UPDATE games SET {assignments} WHERE id = ?"
    return sql + " RETURNING *" if returning else sql, [*values, game_id]


def _move_statement(
    game_id: int,
    expected: int,
    seq: int,
    state_json: str,
    rows: Sequence[tuple[int, int, int, int | None, str, str, float, str | None]],
    fields: Mapping[str, object],
    deliveries: Deliveries = (),
    landed: Sequence[int] = (),
) -> tuple[str, list[object]]:
    """PostgreSQL only: ``commit_actions`` for a move in play as one statement, in place of
    a transaction of five round trips (``BEGIN``, snapshot, actions, game row, ``COMMIT``).

    The same checks in the same order: the snapshot moves from ``expected`` actions to
    ``seq`` (on its row lock: a concurrent commit waits, then finds the snapshot moved on
    and matches nothing), the actions are logged only if it moved, and the game's row is
    updated and returned only if it moved. No row back: the game moved on, nothing was
    written (a statement is atomic)."""
    update, values = _game_update(game_id, fields)
    queued, queued_values = "", list[object]()
    if deliveries:
        # The move's deliveries, logged only if it moved: one more part of the statement.
        queued = (
            f" queued AS (INSERT INTO deliveries ({', '.join(_DELIVERY_COLUMNS)})"
            " SELECT d.* FROM moved, unnest(?::bigint[], ?::bigint[], ?::bigint[], ?::text[],"
            " ?::text[], ?::text[], ?::bigint[], ?::double precision[], ?::double precision[])"
            f" AS d ({', '.join(_DELIVERY_COLUMNS)})),"
        )
        queued_values += [
            list(column) for column in zip(*(_delivery_values(d) for d in deliveries), strict=True)
        ]
    if landed:  # deliveries that landed since: their removal rides along, if it moved
        queued += (
            " forgot AS (DELETE FROM deliveries WHERE id = ANY(?::bigint[])"
            " AND EXISTS (SELECT 1 FROM moved)),"
        )
        queued_values.append(list(landed))
    sql = (
        "WITH moved AS (UPDATE snapshots SET seq = ?, state = ? WHERE game_id = ? AND seq = ?"
        " RETURNING game_id),"
        + queued
        + " logged AS (INSERT INTO actions (game_id, seq, actor, user_id, notation, events,"
        " created_at, move_key) SELECT moved.game_id, a.seq, a.actor, a.user_id, a.notation,"
        " a.events, a.created_at, a.move_key FROM moved, unnest(?::bigint[], ?::bigint[],"
        " ?::bigint[], ?::text[], ?::text[], ?::double precision[], ?::text[]) AS a (seq, actor,"
        " user_id, notation, events, created_at, move_key)) "
        + update.replace(" WHERE id = ?", " WHERE id = ? AND EXISTS (SELECT 1 FROM moved)")
    )
    columns = [list(column) for column in zip(*rows, strict=True)][1:]
    return sql, [seq, state_json, game_id, expected, *queued_values, *columns, *values]


async def _forget(tx: Tx, landed: Sequence[int]) -> None:
    """Remove deliveries that landed."""
    if landed:
        marks = ", ".join("?" for _ in landed)
        await tx.execute(f"DELETE FROM deliveries WHERE id IN ({marks})", list(landed))


async def _update_seats(tx: Tx, game_id: int, seats: SeatChanges) -> None:
    for seat, columns in sorted(seats.items()):
        unknown = set(columns) - _SEAT_FIELDS
        if unknown:
            raise ValueError(f"not seat columns: {sorted(unknown)}")
        if not columns:
            continue
        assignments = ", ".join(f"{name} = ?" for name in columns)
        await tx.execute(
            f"UPDATE seats SET {assignments} WHERE game_id = ? AND seat = ?",
            (*columns.values(), game_id, seat),
        )


def _column_value(name: str, value: object) -> object:
    """Times are stored as REAL on both databases (PostgreSQL refuses an int for them); the
    config as its JSON."""
    if name in _REAL_FIELDS and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, GameSettings):
        return value.to_json()
    return value


async def _move_snapshot(tx: Tx, game_id: int, expected: int, seq: int, state_json: str) -> None:
    """Move the game's snapshot from ``expected`` actions to ``seq`` (see ``commit_actions``)."""
    moved = await tx.fetch(
        "UPDATE snapshots SET seq = ?, state = ? WHERE game_id = ? AND seq = ? RETURNING seq",
        (seq, state_json, game_id, expected),
    )
    if moved:
        return
    if expected == 0:
        made = await tx.fetch(
            "INSERT INTO snapshots (game_id, seq, state) VALUES (?, ?, ?)"
            " ON CONFLICT (game_id) DO NOTHING RETURNING seq",
            (game_id, seq, state_json),
        )
        if made:
            return
    raise GameChangedError(f"game {game_id}: the stored game is no longer at action {expected}")


def _json_object(raw: str | None) -> dict[str, object]:
    """A stored JSON object; empty for none, or for text that is no JSON object."""
    try:
        data = json.loads(raw) if raw else {}
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _language_of(settings: dict[str, object]) -> dict[str, object]:
    return {"language": settings["language"]} if settings.get("language") else {}

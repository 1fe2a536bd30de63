"""What every area of the storage shares: the database they run on (``DatabaseSlot``, held by
each ``StoreArea``), a row read into its dataclass, the statements that set a game's or its
seats' columns, deliveries queued in a change's transaction, and the filter to one shard's
servers.

The SQL is written once, in the subset both databases speak (``?`` placeholders,
``ON CONFLICT``, ``RETURNING``; see ``bot.store.db``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields
from typing import TYPE_CHECKING, Any, Final, TypeVar

from bot.store.db import Database, Row, Tx
from bot.store.game_config import GameSettings
from bot.store.rows import ActionRow, Deliveries, Delivery, GameRow, ResultRow, SeatChanges, SeatRow
from bot.store.shards import Shards

if TYPE_CHECKING:
    from _typeshed import DataclassInstance


class DatabaseSlot:
    """The one database every area of a storage runs on. The storage swaps what it holds as
    a whole: ``NotOpen`` until it connects, the open ``Database`` then, ``NotOpen`` again
    once closed. The areas keep the slot, never the database, so none is left with one that
    is not open yet or closed."""

    __slots__ = ("db",)

    def __init__(self, db: Database) -> None:
        self.db = db


class StoreArea:
    """One area of the storage (games, seats, the action log...), an object of its own over
    the database it shares with the others (``bot.store.storage.Storage`` builds them on one
    ``DatabaseSlot``). No area calls another: what a change writes, it writes in its own
    transaction."""

    def __init__(self, slot: DatabaseSlot) -> None:
        self._slot = slot

    @property
    def db(self) -> Database:
        return self._slot.db

    async def _all(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        return await self._slot.db.fetch(sql, params)

    async def _one(self, sql: str, params: Sequence[object] = ()) -> Row | None:
        return await self._slot.db.fetchone(sql, params)


GAME_FIELDS: Final = frozenset(
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
SEAT_FIELDS: Final = frozenset(
    {"user_id", "ai_level", "name", "timeouts", "former_user_id", "rejoin", "holders", "offered_to"}
)
REAL_FIELDS: Final = frozenset({"reminded_at", "updated_at", "clock_since", "orphaned_at"})

DELIVERY_COLUMNS: Final = (
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

R = TypeVar("R", bound="DataclassInstance")
_FIELD_NAMES: dict[type[Any], tuple[str, ...]] = {}


def from_row(cls: type[R], row: Row, prefix: str = "", **read: Callable[[Any], Any]) -> R:
    """A row dataclass from the columns named like its fields (after ``prefix``); ``read``
    converts the columns stored in another form (a flag as 0/1, JSON as text)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls))
    values = {name: row[prefix + name] for name in names}
    for name, convert in read.items():
        values[name] = convert(values[name])
    return cls(**values)


def game_row(row: Row) -> GameRow:
    return from_row(GameRow, row, config=GameSettings.from_json, ai_only=bool)


def result_row(row: Row, prefix: str = "") -> ResultRow:
    return from_row(ResultRow, row, prefix, winner=bool)


def seat_row(row: Row) -> SeatRow:
    return from_row(SeatRow, row, rejoin=bool)


def action_row(row: Row) -> ActionRow:
    return from_row(ActionRow, row, events=json.loads)


def delivery_row(row: Row) -> Delivery:
    return from_row(Delivery, row, payload=json.loads)


def delivery_values(d: Delivery) -> tuple[object, ...]:
    payload = json.dumps(dict(d.payload), separators=(",", ":"), sort_keys=True)
    created = float(d.created_at)
    due = float(d.due_at or created)
    return (d.game_id, d.guild_id, d.channel_id, d.kind, payload, "pending", 0, due, created)


_QUEUE_SQL: Final = (
    f"INSERT INTO deliveries ({', '.join(DELIVERY_COLUMNS)})"
    f" VALUES ({', '.join('?' for _ in DELIVERY_COLUMNS)})"
)


async def queue_in(tx: Tx, deliveries: Deliveries) -> None:
    """Store new deliveries in the caller's transaction (the change's own)."""
    if deliveries:
        await tx.executemany(_QUEUE_SQL, [delivery_values(d) for d in deliveries])


def shard_filter(shards: Shards | None, column: str = "guild_id") -> tuple[str, list[object]]:
    """SQL (`` AND ...``) keeping the rows of the servers of ``shards`` (Discord's formula,
    ``(guild_id >> 22) % count``; no server is shard 0's), and its parameters."""
    if shards is None or shards.all:
        return "", []
    marks = ", ".join("?" for _ in shards.ids)
    sql = f" AND ((COALESCE({column}, 0) >> 22) % ?) IN ({marks})"
    return sql, [shards.count, *sorted(shards.ids)]


async def update_game_in(tx: Tx, game_id: int, fields: Mapping[str, object]) -> None:
    if fields:
        await tx.execute(*game_update(game_id, fields, returning=False))


def game_update(
    game_id: int,
    fields: Mapping[str, object],
    *,
    returning: bool = True,
    expected: Mapping[str, object] | None = None,
) -> tuple[str, list[object]]:
    """The statement that sets some columns of a game's row (and returns the row; with
    nothing to set, only reads it). ``expected``: only if the stored row still holds these
    values (None: the column is NULL) — one statement, so of two processes that judged
    the same row, one changes it and the other finds no row."""
    unknown = (set(fields) | set(expected or {})) - GAME_FIELDS
    if unknown:
        raise ValueError(f"not game columns: {sorted(unknown)}")
    where = "WHERE id = ?"
    conditions: list[object] = [game_id]
    for name, value in (expected or {}).items():
        if value is None:
            where += f" AND {name} IS NULL"
        else:
            where += f" AND {name} = ?"
            conditions.append(column_value(name, value))
    if not fields:
        return f"SELECT * FROM games {where}", conditions
    assignments = ", ".join(f"{name} = ?" for name in fields)
    values = [column_value(name, v) for name, v in fields.items()]
    sql = f"UPDATE games SET {assignments} {where}"
    return sql + " RETURNING *" if returning else sql, [*values, *conditions]


async def forget_in(tx: Tx, landed: Sequence[int]) -> None:
    """Remove deliveries that landed."""
    if landed:
        marks = ", ".join("?" for _ in landed)
        await tx.execute(f"DELETE FROM deliveries WHERE id IN ({marks})", list(landed))


async def update_seats_in(tx: Tx, game_id: int, seats: SeatChanges) -> None:
    for seat, columns in sorted(seats.items()):
        unknown = set(columns) - SEAT_FIELDS
        if unknown:
            raise ValueError(f"not seat columns: {sorted(unknown)}")
        if not columns:
            continue
        assignments = ", ".join(f"{name} = ?" for name in columns)
        await tx.execute(
            f"UPDATE seats SET {assignments} WHERE game_id = ? AND seat = ?",
            (*columns.values(), game_id, seat),
        )


def column_value(name: str, value: object) -> object:
    """Times are stored as REAL on both databases (PostgreSQL refuses an int for them); the
    config as its JSON."""
    if name in REAL_FIELDS and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, GameSettings):
        return value.to_json()
    return value

"""Storage of the action log and the state snapshot: a move committed with all it changes
(one action per game version, even across processes), undone, repaired, found by its key.

One action per game version: ``commit_actions`` moves the game's snapshot on from the
number of actions the caller's move followed, in the same transaction as the actions, and
refuses (``GameChangedError``, nothing written) when the database had moved on meanwhile.
On PostgreSQL two such commits meet on the snapshot's row lock; the later one sees the new
row and is refused.

One statement is PostgreSQL's own: the commit of a move in play (nearly every move) is a
single statement there, data-modifying ``WITH`` parts doing the same checks in one round
trip instead of five (``_move_statement``); everything else, and that commit on SQLite, is
the shared SQL.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import fields
from typing import Final

from bot.store.db import Tx
from bot.store.errors import GameChangedError
from bot.store.rating_store import rate_game
from bot.store.rows import ActionRow, Deliveries, GameRow, ResultRow, SeatChanges
from bot.store.shared_sql import (
    DELIVERY_COLUMNS,
    StoreArea,
    action_row,
    delivery_values,
    forget_in,
    game_row,
    game_update,
    queue_in,
    update_seats_in,
)

_RESULT_COLUMNS: Final = ("game_id", *(f.name for f in fields(ResultRow)))


class ActionLogStore(StoreArea):
    """The ``actions`` and ``snapshots`` tables."""

    async def actions(self, game_id: int) -> list[ActionRow]:
        rows = await self._all("SELECT * FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))
        return [action_row(r) for r in rows]

    async def last_actions(self, game_id: int, count: int) -> list[ActionRow]:
        """The last ``count`` actions of a game, oldest first."""
        rows = await self._all(
            "SELECT * FROM actions WHERE game_id = ? ORDER BY seq DESC LIMIT ?", (game_id, count)
        )
        return [action_row(r) for r in reversed(rows)]

    async def actions_between(self, game_id: int, low: int, high: int) -> list[ActionRow]:
        """The actions numbered ``low`` to ``high - 1`` of a game, in order."""
        rows = await self._all(
            "SELECT * FROM actions WHERE game_id = ? AND seq >= ? AND seq < ? ORDER BY seq",
            (game_id, low, high),
        )
        return [action_row(r) for r in rows]

    async def actions_since(self, game_id: int, seat: int) -> list[ActionRow]:
        """The actions after ``seat``'s last one (all of them if it has none yet): what
        happened since its previous turn, without reading the whole log."""
        rows = await self._all(
            "SELECT * FROM actions WHERE game_id = ? AND seq > COALESCE((SELECT MAX(seq)"
            " FROM actions WHERE game_id = ? AND actor = ?), -1) ORDER BY seq",
            (game_id, game_id, seat),
        )
        return [action_row(r) for r in rows]

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
        if (
            self.db.dialect == "postgresql"
            and first > 0
            and game_fields
            and not seats
            and not results
        ):
            # A move in play, the commit of nearly every move: one statement, one round trip.
            moved = await self.db.write(
                *_move_statement(
                    game_id, first, last, state_json, rows, game_fields, deliveries, landed
                )
            )
            if not moved:
                raise GameChangedError(f"game {game_id}: the game is no longer at action {first}")
            return game_row(moved[0])
        async with self.db.transaction() as tx:
            await _move_snapshot(tx, game_id, first, last, state_json)
            await tx.executemany(
                "INSERT INTO actions (game_id, seq, actor, user_id, notation, events, created_at,"
                " move_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                rows,
            )
            await update_seats_in(tx, game_id, seats or {})
            row = await tx.fetchone(*game_update(game_id, game_fields))
            await tx.executemany(
                f"INSERT INTO results ({', '.join(_RESULT_COLUMNS)})"
                f" VALUES ({', '.join('?' for _ in _RESULT_COLUMNS)})",
                [(game_id, *(getattr(r, c) for c in _RESULT_COLUMNS[1:])) for r in results],
            )
            if results and rated_in is not None:
                now = float(actions[-1].created_at)
                plays = [r.play() for r in results]
                await rate_game(tx, self.db.dialect, game_id, rated_in, plays, now)
            await queue_in(tx, deliveries)
            await forget_in(tx, landed)
        if row is None:
            raise ValueError(f"no game {game_id}")
        return game_row(row)

    async def repair_snapshot(
        self, game_id: int, found: int | None, seq: int, state_json: str
    ) -> bool:
        """Replace a snapshot found to differ from the replay of the log (``found``: the
        number of actions it said it follows) by the replay's state after ``seq`` actions.

        Only if neither changed meanwhile (the snapshot still follows ``found`` actions and
        the log still has ``seq``): a commit of another process in between wins.
        """
        async with self.db.transaction() as tx:
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
        async with self.db.transaction() as tx:
            await _move_snapshot(tx, game_id, seq + 1, seq, state_json)
            gone = await tx.fetch(
                "DELETE FROM actions WHERE game_id = ? AND seq = ?"
                " AND seq = (SELECT MAX(seq) FROM actions WHERE game_id = ?) RETURNING seq",
                (game_id, seq, game_id),
            )
            if len(gone) != 1:
                raise GameChangedError(f"game {game_id}: action {seq} is not the last one")
            row = await tx.fetchone(*game_update(game_id, game_fields))
            await queue_in(tx, deliveries)
        if row is None:
            raise ValueError(f"no game {game_id}")
        return game_row(row)

    async def keyed_move(self, game_id: int, key: str) -> list[ActionRow]:
        """The actions of the member's move with idempotency key ``key``: its own action and
        the chance outcomes it caused (none if no move of the game has that key)."""
        rows = await self._all(
            "SELECT * FROM actions WHERE game_id = ? AND seq >= (SELECT seq FROM actions"
            " WHERE game_id = ? AND move_key = ?) ORDER BY seq LIMIT 64",
            (game_id, game_id, key),
        )
        out: list[ActionRow] = []
        for row in (action_row(r) for r in rows):
            if out and row.actor >= 0:
                break
            out.append(row)
        return out


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
    update, values = game_update(game_id, fields)
    queued, queued_values = "", list[object]()
    if deliveries:
        # The move's deliveries, logged only if it moved: one more part of the statement.
        queued = (
            f" queued AS (INSERT INTO deliveries ({', '.join(DELIVERY_COLUMNS)})"
            " SELECT d.* FROM moved, unnest(?::bigint[], ?::bigint[], ?::bigint[], ?::text[],"
            " ?::text[], ?::text[], ?::bigint[], ?::double precision[], ?::double precision[])"
            f" AS d ({', '.join(DELIVERY_COLUMNS)})),"
        )
        queued_values += [
            list(column) for column in zip(*(delivery_values(d) for d in deliveries), strict=True)
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

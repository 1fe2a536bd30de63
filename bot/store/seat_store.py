"""Storage of a game's seats: who holds them, replaced or changed with the game's row (a
seat change committed: the seats, the row, its deliveries and a member's departure)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from bot.store.errors import GameChangedError
from bot.store.rating_rules import Departure
from bot.store.rating_store import record_departure
from bot.store.rows import Deliveries, GameRow, SeatChanges, SeatRow
from bot.store.shared_sql import (
    StoreArea,
    game_row,
    game_update,
    queue_in,
    seat_row,
    update_seats_in,
)


class SeatStore(StoreArea):
    """The ``seats`` table."""

    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self._all("SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))
        return [seat_row(r) for r in rows]

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
        async with self.db.transaction() as tx:
            await queue_in(tx, deliveries)
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
            row = await tx.fetchone(*game_update(game_id, game_fields))
        if row is None:
            raise ValueError(f"no game {game_id}")
        return game_row(row)

    async def commit_seat_change(
        self,
        game_id: int,
        seats: SeatChanges | None = None,
        deliveries: Deliveries = (),
        *,
        departure: tuple[int, Departure, float] | None = None,
        expected: Mapping[str, object] | None = None,
        **game_fields: object,
    ) -> GameRow:
        """A seat change committed, in one transaction: some columns of the game's seats
        (none, when only a member's leaving ends the game), the game's row, the deliveries
        the change causes, and ``departure``: (server, departure, time) a member leaves the
        game in play, rated on that server (``bot.store.rating_store``).
        ``expected``: only if the game's stored row still holds these values, else
        GameChangedError and nothing is written (``GameStore.update_game``).
        The game's row as committed (the caller knows the seats it set: nothing needs reading
        back after the commit)."""
        async with self.db.transaction() as tx:
            await queue_in(tx, deliveries)
            await update_seats_in(tx, game_id, seats or {})
            row = await tx.fetchone(*game_update(game_id, game_fields, expected=expected))
            if row is None and expected is not None:  # the transaction is rolled back
                raise GameChangedError(f"game {game_id}: the stored row is not as expected")
            if row is None:
                raise ValueError(f"no game {game_id}")
            if departure is not None:
                guild_id, gone, at = departure
                await record_departure(tx, self.db.dialect, game_id, guild_id, gone, at)
        return game_row(row)

"""The game service's record of a game as its messages tell it, read as committed: its row
and seats, the lobby as it is, the log's actions between two points, the board a game
ended on, what happened since a seat's last turn, and a finished game's outcome (results,
length, rating changes, notation, whether a member in it reads with a screen reader).

The couriers (``bot.discord``) render each delivery from these when it is delivered, so a
retry an hour later shows the game of now; they never read the store themselves.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.play.games import ActiveGame, logged_event
from bot.play.readers import Readers, member_of
from bot.store.action_log_store import ActionLogStore
from bot.store.game_store import GameStore
from bot.store.rating_store import RatedChange
from bot.store.result_store import ResultStore
from bot.store.rows import ActionRow, GameRow, SeatRow
from bot.store.seat_store import SeatStore
from bot.text.catchup import turn_window
from engine import Event, GameState, loads


@dataclass(frozen=True, slots=True)
class GameOver:
    """A finished game as its last message shows it."""

    row: GameRow
    seats: list[SeatRow]
    state: GameState  # the board it ended on
    recorded: dict[int, str]  # seat -> the name its result was recorded under
    seconds: float  # from its first action to its last
    rated: list[RatedChange]
    notations: list[str]  # its whole log, for the story picture
    # The game that ended, no longer held (whether a member in it reads with a screen
    # reader: its final message and picture are written for one), for its final board.
    game: ActiveGame


class StoryService:
    """A game's record as its messages show it, as committed."""

    def __init__(
        self,
        *,
        readers: Readers,
        game_rows: GameStore,
        seat_rows: SeatStore,
        action_log: ActionLogStore,
        results: ResultStore,
    ) -> None:
        self._game_rows = game_rows
        self._seat_rows = seat_rows
        self._action_log = action_log
        self._results = results
        self.readers = readers

    async def committed_row(self, game_id: int | None) -> GameRow | None:
        """The game's row as committed (another process may have moved it on)."""
        return await self._game_rows.game(game_id) if game_id else None

    async def seats_of(self, game_id: int) -> list[SeatRow]:
        return await self._seat_rows.seats(game_id)

    async def lobby_of(self, game_id: int | None) -> ActiveGame | None:
        """The lobby (or game) as committed: its row and its seats."""
        row = await self.committed_row(game_id)
        return ActiveGame(row, await self._seat_rows.seats(row.id)) if row is not None else None

    async def logged(self, game_id: int, low: int, to: int) -> list[ActionRow]:
        """The log's actions from ``low`` (0-based) up to ``to``, in order."""
        return await self._action_log.actions_between(game_id, low, to)

    async def since_last_turn(self, game_id: int, seat: int) -> list[ActionRow]:
        """The logged actions the catch-up of ``seat``'s turn in play tells (the catch-up's
        window, ``bot.text.catchup.turn_window``): read since the seat's last action, or,
        once it has moved in this turn, from the whole log."""
        window = turn_window(await self._action_log.actions_since(game_id, seat), seat)
        if window is None:
            window = turn_window(await self._action_log.actions(game_id), seat)
        return window or []

    async def turn_events(self, game_id: int, to: int, last: bool) -> list[Event]:
        """The events of the turn that ended within the log's first ``to`` actions: the
        last turn in them (``last``), else the one before the next turn's start. Read
        backwards from ``to`` until the turn's start is found."""
        wanted = 1 if last else 2
        count = 64
        while True:
            low = max(0, to - count)
            rows = await self.logged(game_id, low, to)
            events = [logged_event(e) for row in rows for e in row.events]
            starts = sum(1 for e in events if e.key == "turn_started")
            if starts >= wanted or low == 0:
                break
            count *= 4
        segments: list[list[Event]] = [[]]
        for e in events:
            if e.key == "turn_started":
                segments.append([])
            segments[-1].append(e)
        return segments[-wanted] if len(segments) >= wanted else []

    async def board_at_end(self, game_id: int) -> GameState | None:
        """The board as the game's last commit left it."""
        snapshot = await self._action_log.snapshot(game_id)
        return loads(snapshot[1]) if snapshot is not None else None

    async def game_over(self, game_id: int | None) -> GameOver | None:
        """What the game-over message shows, or None if the game has no final board."""
        row = await self.committed_row(game_id)
        state = await self.board_at_end(row.id) if row is not None else None
        if row is None or state is None:
            return None
        last = await self._action_log.last_actions(row.id, 1)
        first = await self._action_log.first_action_time(row.id)
        seats = await self._seat_rows.seats(row.id)
        spoken = await self.readers.any_on(member_of(s) for s in seats)
        return GameOver(
            row=row,
            seats=seats,
            state=state,
            recorded={r.seat: r.name for r in await self._results.of_game(row.id)},
            seconds=(last[-1].created_at if last else 0.0) - (first or 0.0),
            rated=list(await self._results.rating_changes(row.id)),
            notations=[a.notation for a in await self._action_log.actions(row.id)],
            game=ActiveGame(row, seats, spoken=spoken),
        )

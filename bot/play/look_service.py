"""The game service's looks at a channel's game, read-only (``/af board``, ``status``,
``log``): the game in play there, or the last one played there once it ended, with its
seats; its log; and what of it the bot gave up delivering to the channel.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.play.held_games import HeldGames
from bot.store.action_log_store import ActionLogStore
from bot.store.delivery_store import DeliveryStore
from bot.store.errors import ServiceError
from bot.store.game_store import GameStore
from bot.store.rows import ActionRow, Delivery, GameRow, SeatRow
from bot.store.seat_store import SeatStore
from engine import Game


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A game looked at: its row, its seats and the game itself."""

    row: GameRow
    seats: list[SeatRow]
    game: Game

    @property
    def names(self) -> list[str]:
        """The seats' names, as entered."""
        return [s.name for s in self.seats]

    def seat_of(self, user_id: int) -> int | None:
        """The seat of a member in the game: the one they hold, or held before the AI took
        it over."""
        return next((s.seat for s in self.seats if user_id in (s.user_id, s.former_user_id)), None)


class LookService:
    """A channel's game, its log and its failed deliveries, looked at."""

    def __init__(
        self,
        games: HeldGames,
        *,
        game_rows: GameStore,
        seat_rows: SeatStore,
        action_log: ActionLogStore,
        deliveries: DeliveryStore,
    ) -> None:
        self._game_rows = game_rows
        self._seat_rows = seat_rows
        self._action_log = action_log
        self._deliveries = deliveries
        self.games = games

    async def played_in(self, channel_id: int | None) -> PlayedGame:
        """The channel's game in play, or the last one played there, rebuilt from the log:
        ServiceError("game.not_started") for a lobby, ("game.none") when none was played
        there (a lobby closed or aborted before its start was never played)."""
        if channel_id is None:
            raise ServiceError("game.none")
        active = await self.games.in_channel(channel_id)
        if active is not None and active.game is not None:
            return PlayedGame(active.row, active.seats, active.game)
        if active is not None:
            raise ServiceError("game.not_started")
        row = await self._game_rows.latest_played_game(channel_id)
        if row is None:
            raise ServiceError("game.none")
        seats = await self._seat_rows.seats(row.id)
        return PlayedGame(row, seats, await self.games.rebuild(row, seats))

    async def game_log(self, game_id: int) -> list[ActionRow]:
        """Every action of a game's log, in order."""
        return await self._action_log.actions(game_id)

    async def undelivered(self, game_id: int) -> list[Delivery]:
        """What the bot gave up delivering of a game (posts, edits, DMs), newest first."""
        return await self._deliveries.failed_deliveries(game_id=game_id)

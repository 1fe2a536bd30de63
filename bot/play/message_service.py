"""The game service's turn messages shown again: posted again at the bottom of the channel
(``/af panel``), or queued for a turn in play found with no message (a crash between a
commit of old and its delivery, a message deleted). The ids of a game's messages are
recorded with the deliveries that post them (a delivery ``bot.play.outbox.Made``, handed
back to its lane's pass, ``Outbox.lane_pass``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from bot.play import outbox
from bot.play.games import ActiveGame, since_of
from bot.play.held_games import HeldGames
from bot.play.readers import told_when_done
from bot.store.delivery_store import DeliveryStore
from bot.store.game_store import GameStore
from bot.store.rows import Delivery

log = logging.getLogger(__name__)


class MessageService:
    """The ids of a game's messages, and its turn message posted again."""

    def __init__(
        self,
        games: HeldGames,
        *,
        clock: Callable[[], float],
        game_rows: GameStore,
        deliveries: DeliveryStore,
    ) -> None:
        self._game_rows = game_rows
        self._deliveries = deliveries
        self.games = games
        self.clock = clock

    async def repost(self, game: ActiveGame) -> None:
        """Post the turn message again at the bottom of the channel (``/af panel``; no new
        ping), the old one pointing to the new one: a delivery, like every post."""
        now = self.clock()
        told = [outbox.delivery(game, "turn", now, turn=game.state.turn_number, repost=True)]
        await self._deliveries.queue(told)
        self.games.take_committed(game, told)

    async def show_turn_again(self, game: ActiveGame, grace: float = 0.0) -> bool:
        """Queue the turn message (and the ping by DM) of a game whose turn in play has no
        message, ``grace`` seconds after it began, unless one is queued already; whether
        one was queued (its lane is then to be delivered)."""
        if game.game is None or game.row.status != "playing" or game.state.over:
            return False
        turn = game.state.turn_number
        if game.row.turn_message_turn == turn or told_when_done(game):
            return False  # shown, or an AI's turn posted when it is done (screen readers)
        if self.clock() - since_of(game) < grace:
            return False
        row = await self._game_rows.game(game.id)  # as committed: the message may be recorded
        if row is None or row.turn_message_turn == turn:
            return False
        if await self._deliveries.has_pending(game.id, "turn"):
            return False
        now = self.clock()
        told: list[Delivery] = [outbox.turn_shown(game, now)]
        notify = outbox.turn_told(game, now)
        if (
            notify is not None
            and row.notified_turn != turn
            and not await self._deliveries.has_pending(game.id, "notify")
        ):
            told.append(notify)
        await self._deliveries.queue(told)
        log.warning("game %d: turn %d had no message; one is queued", game.id, turn)
        self.games.take_committed(game, told)
        return True

    async def set_turn_message(self, game: ActiveGame, message_id: int | None, turn: int) -> None:
        await self._set_row(game, turn_message_id=message_id, turn_message_turn=turn)

    async def _set_row(self, game: ActiveGame, **fields: Any) -> None:
        """Set some columns of the game's row and keep the row as stored."""
        row = await self._game_rows.update_game(game.id, **fields)
        assert row is not None
        game.row = row

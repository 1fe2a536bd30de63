"""The game service's record of the messages that show a game: its lobby message, its turn
message and the turn it shows, the turn whose start was notified; and the turn message
posted again (``/af panel``).
"""

from __future__ import annotations

from typing import Any

from bot.play import outbox
from bot.play.games import ActiveGame
from bot.play.service_base import ServiceBase


class MessageService(ServiceBase):
    """The ids of a game's messages, and its turn message posted again."""

    async def repost(self, game: ActiveGame) -> None:
        """Post the turn message again at the bottom of the channel (``/af panel``; no new
        ping), the old one pointing to the new one: a delivery, like every post."""
        now = self.clock()
        told = [outbox.delivery(game, "turn", now, turn=game.state.turn_number, repost=True)]
        await self.store.queue(told)
        self._queued(game, told)

    async def mark_notified(self, game: ActiveGame, turn: int) -> None:
        """Record that the start of ``turn`` was notified (before notifying: at most once)."""
        await self._set_row(game, notified_turn=turn)

    async def set_turn_message(self, game: ActiveGame, message_id: int | None, turn: int) -> None:
        await self._set_row(game, turn_message_id=message_id, turn_message_turn=turn)

    async def set_lobby_message(self, game: ActiveGame, message_id: int | None) -> None:
        await self._set_row(game, lobby_message_id=message_id)

    async def _set_row(self, game: ActiveGame, **fields: Any) -> None:
        """Set some columns of the game's row and keep the row as stored."""
        row = await self.store.update_game(game.id, **fields)
        assert row is not None
        game.row = row

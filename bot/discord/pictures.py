"""A game's pictures: its board (drawn in a worker thread, with its words for a screen
reader, the seats' names marked when a member is away) and a finished game's chart of VP
by round. Built once by the factory with the renderer; the turn messages
(``bot.discord.announce``) and the live board's edits (``bot.discord.board_edits``) both
take their pictures from it.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Sequence
from typing import Protocol

import discord

from bot.play.games import ActiveGame
from bot.play.seat_service import SeatService
from bot.play.turn_view import names_with_absences
from bot.play.vp_by_round import vp_by_round
from bot.render.charts import vp_chart
from bot.store.rows import GameRow
from bot.text.board_words import alt_text, brief_alt_text
from bot.text.chart_words import vp_chart_text
from engine import GameState

log = logging.getLogger(__name__)


class Renderer(Protocol):
    """Draws the board as PNG bytes: the live board, or the full one (``detail``)."""

    def __call__(
        self,
        state: GameState,
        seat_names: list[str] | None,
        locale: str,
        detail: bool = False,
        /,
    ) -> bytes: ...


def default_renderer(
    state: GameState, seat_names: list[str] | None, locale: str, detail: bool = False
) -> bytes:
    """The board image from ``bot.render`` (imported on first use)."""
    from bot.render import render_board

    return render_board(state, seat_names=seat_names, locale=locale, detail=detail)


def board_name(game_id: int, turn: int) -> str:
    """The file name of a game's board on a turn's message (it tells the turn's message)."""
    return f"board-{game_id}-turn{turn:03d}.png"


class Pictures:
    """The pictures of games; see the module docstring."""

    def __init__(self, seats: SeatService, renderer: Renderer) -> None:
        self.seats = seats  # the members away, marked on the board
        self.renderer = renderer

    async def board_file(
        self,
        game: ActiveGame,
        state: GameState | None = None,
        redrawn: bool = False,
        names: Sequence[str] | None = None,
    ) -> discord.File | None:
        """The board image (of ``state``, else the game's now), drawn in a worker thread so
        the event loop stays free; ``redrawn``: for a message that has a picture already
        (its words do not say again where the whole board is in words); ``names``: the
        seats' names on it as read already (a turn's view), else asked for.

        None if drawing failed (logged): the turn goes on without its picture.
        """
        state = state if state is not None else game.state
        names = list(names) if names is not None else await self.board_names(game)

        def draw() -> tuple[bytes, str]:
            # The picture and its words (read aloud by screen readers, shown on hover): for
            # a game followed with a screen reader, the message says the turn already.
            locale = game.row.locale
            if game.spoken:
                words = brief_alt_text(locale)
            else:
                words = alt_text(state, names, locale, full_board=not redrawn)
            return self.renderer(state, names, locale), words

        try:
            png, about = await asyncio.to_thread(draw)
        except Exception:
            log.exception(
                "game %d: the board at version %d could not be drawn", game.id, state.version
            )
            return None
        name = board_name(game.id, state.turn_number)
        return discord.File(io.BytesIO(png), filename=name, description=about)

    async def story_file(
        self, row: GameRow, names: Sequence[str], notations: Sequence[str]
    ) -> discord.File | None:
        """The chart of each player's VP by round of a finished game (replayed from its
        log in a worker thread). None if it could not be made (logged): the game over
        message goes on without it."""

        def draw() -> tuple[bytes, str]:
            series = vp_by_round(row.config.engine(len(names)), notations)
            locale = row.locale
            return vp_chart(series, names, locale), vp_chart_text(series, names, locale)

        try:
            png, about = await asyncio.to_thread(draw)
        except Exception:
            log.exception("game %d: the chart of its VP by round could not be drawn", row.id)
            return None
        return discord.File(io.BytesIO(png), filename=f"vp-{row.id}.png", description=about)

    async def board_names(self, game: ActiveGame) -> list[str]:
        """The seats' names for the board image, marked when a member is away (with the day
        they are back, in the game's language; UTC)."""
        members = [s.user_id for s in game.seats if s.user_id is not None]
        away = await self.seats.away(members)
        return names_with_absences(game.seats, away, game.row.locale)


__all__ = ["Pictures", "Renderer", "board_name", "default_renderer"]

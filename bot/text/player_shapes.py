"""Each player's shape (circle, square, triangle, diamond), as well as their colour, so that
colour is never the only cue: named here, where the board in words says it
(``bot.text.board_words``); drawn by ``bot.render`` (``theme``) on pips, colonies, badges,
log lines and charts. The colours are the engine's (``PLAYER_COLOURS``)."""

from __future__ import annotations

from typing import Final, Literal

Shape = Literal["circle", "square", "triangle", "diamond"]
PLAYER_SHAPES: Final[tuple[Shape, ...]] = ("circle", "square", "triangle", "diamond")


def player_shape(seat: int) -> Shape:
    return PLAYER_SHAPES[seat % len(PLAYER_SHAPES)]


__all__ = ["PLAYER_SHAPES", "Shape", "player_shape"]

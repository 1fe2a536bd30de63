"""The live board: the picture posted with every turn message and kept up to date.

Made for where members see it, Discord's inline preview (about 550 pixels wide on a
desktop, 390 on a phone): the picture is 1100 x 688, what a player needs at a glance
is large — whose turn it is and their dice, every ship with its colour, shape and value
on every facility, the colonies and who controls each territory with its bonus, the
fields, each player's victory points, fuel, ore, colonies left and cards, the round —
and no text or ship value is smaller than 10 pixels once Discord shows it 550 wide.
What does not fit (the log, the deck, ships in stock...) is on the full picture,
``bot.render.render_board(..., detail=True)``, which ``/af board detail:true`` shows.

What never changes is drawn once per player count and language (``background``); a
render copies it and draws the rest.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from bot.render.live import tokens
from bot.render.live.draw import background, draw
from bot.render.live.layout import HEIGHT, MIN_TEXT, WIDTH, LiveLayout, live_layout
from bot.render.scene import seat_label
from engine import GameView

LIVE_SIZE = (WIDTH, HEIGHT)


def render_live_view_image(
    game: GameView, seat_names: Sequence[str] | None = None, locale: str = "en"
) -> Image.Image:
    """The live board for an already computed view, as an RGB image (``LIVE_SIZE``)."""
    players = len(game.players)
    image = background(players, locale).copy()
    names = tuple(seat_label(p, seat_names, locale) for p in range(players))
    draw(image, game, names, locale)
    return image


def clear_caches() -> None:
    """Forget the drawings cached per locale and the small pictures."""
    for cached in (background, tokens.ship, tokens.colony, tokens.chip):
        cached.cache_clear()


__all__ = [
    "LIVE_SIZE",
    "MIN_TEXT",
    "LiveLayout",
    "clear_caches",
    "live_layout",
    "render_live_view_image",
]

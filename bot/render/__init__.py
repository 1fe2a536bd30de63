"""The board images: PNG pictures of everything a player at the table could see.

Two pictures, both pure functions of the engine's state (through ``engine.view``):

* the **live board** (``bot.render.live``), posted with every turn message and kept up
  to date: made to be read in Discord's preview, 550 pixels wide;
* the **full board** (``detail=True``), 1600 x 1000, with everything besides: the log,
  the deck and discard pile, ships in stock, the tie-break — what ``/af board
  detail:true`` shows.

What never changes is drawn once per player count and locale and cached
(``background``); each render copies it, pastes cached sprites and text, and encodes
the PNG. Regions are in ``layout_for(players)`` (full) and ``live_layout(players)``.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from bot.render import live, log, orbit, panels, planet, status, tech
from bot.render.encode import encode_png
from bot.render.geometry import HEIGHT, WIDTH, Layout, Rect, layout_for
from bot.render.live import LIVE_SIZE, live_layout, render_live_view_image
from bot.render.live.palette import live_palette
from bot.render.scene import Scene, seat_label
from bot.render.static_board import background
from bot.render.theme import PINNED
from engine import GameState, GameView, view

BOARD_SIZE = (WIDTH, HEIGHT)


def render_view_image(
    game: GameView, seat_names: Sequence[str] | None = None, locale: str = "en"
) -> Image.Image:
    """The board for an already computed view, as an RGB image."""
    players = len(game.players)
    layout = layout_for(players)
    image = background(players, locale).copy()
    names = tuple(seat_label(p, seat_names, locale) for p in range(players))
    scene = Scene(image, layout, game, names, locale)
    planet.draw(scene)
    orbit.draw(scene)
    tech.draw(scene)
    panels.draw(scene)
    log.draw(scene)
    status.draw(scene)
    log.draw_banner(scene)
    return image


def render_board_image(
    state: GameState, seat_names: Sequence[str] | None = None, locale: str = "en"
) -> Image.Image:
    """The board for ``state`` as an RGB image (``BOARD_SIZE`` pixels)."""
    return render_view_image(view(state), seat_names, locale)


def render_live_board_image(
    state: GameState, seat_names: Sequence[str] | None = None, locale: str = "en"
) -> Image.Image:
    """The live board for ``state`` as an RGB image (``LIVE_SIZE`` pixels)."""
    return render_live_view_image(view(state), seat_names, locale)


def clear_caches() -> None:
    """Forget the drawings cached per locale (backgrounds, card faces, chips, pills, tags)."""
    background.cache_clear()
    tech.card_face.cache_clear()
    panels.clear_caches()
    planet.clear_caches()
    live.clear_caches()


def render_board(
    state: GameState,
    seat_names: Sequence[str] | None = None,
    locale: str = "en",
    detail: bool = False,
) -> bytes:
    """The live board for ``state`` as PNG bytes, ready to post (``detail``: the full one).

    ``seat_names`` are the players' display names by seat (default "P1", "P2"...);
    ``locale`` picks the catalogue of ``bot.text.strings`` (English when missing).
    """
    if detail:
        return encode_png(render_board_image(state, seat_names, locale), keep=PINNED)
    image = render_live_board_image(state, seat_names, locale)
    return encode_png(image, live_palette(state.num_players))


__all__ = [
    "BOARD_SIZE",
    "LIVE_SIZE",
    "Layout",
    "Rect",
    "clear_caches",
    "layout_for",
    "live_layout",
    "render_board",
    "render_board_image",
    "render_live_board_image",
    "render_view_image",
]

"""The live board's PNG palette: one per player count, the same for every render.

A PNG of 256 colours is a third of the size of the RGB one and much faster to compress
(``bot.render.encode``), but working out each image's own palette (an octree over its
750,000 pixels) took half of a render's time. Every live board is drawn from the same
colours — the theme's, the players', and their anti-aliased blends — so one palette,
made once per process from sample boards (two seeded random games, every 120th state,
stacked), serves every render: mapping the pixels to a given palette is four times
faster. Measured on the boards of other games (short and long, 2–4 players), a pixel
is as close to its drawn colour as with each image's own palette (mean error about
0.5 of 255, and the rare worst pixels closer). The palette depends on the player
count only, so a picture stays a pure function of the state.

The theme's flat colours (``LIVE_PINNED``: the players', white and dark ink, the boxes,
rows and tints they sit on) are in the palette exactly, the rest of it made from the
samples: what is drawn in them is in the file as drawn, so the contrast and colour-vision
figures of the theme hold in the PNG sent (``tests/bot/render/test_colour_vision.py`` measures
them there).
"""

from __future__ import annotations

import threading
from functools import lru_cache

from PIL import Image

from bot.render import theme
from bot.render.encode import palette_of
from bot.render.live.draw import BONUS, HEADER_TINT, HUB_AND_BAY_TINT, ROW, background, draw
from bot.render.sample_states import DEMO_NAMES, states
from engine import view

SAMPLE_SEEDS = (7, 8)
SAMPLE_EVERY = 120  # states between two sample boards
_lock = threading.Lock()
LIVE_PINNED: tuple[theme.RGB, ...] = (
    *theme.PINNED,
    ROW,
    BONUS,
    *(theme.row_tint(c, HUB_AND_BAY_TINT) for c in theme.PLAYER_RGB),
    *(theme.mix(theme.BOX, c, HEADER_TINT) for c in theme.PLAYER_RGB),
)


def live_palette(players: int) -> Image.Image:
    """The palette image (mode ``P``) that live boards of ``players`` are encoded with."""
    with _lock:  # made once, even when two renders ask at the same time
        return _palette(players)


@lru_cache(maxsize=3)
def _palette(players: int) -> Image.Image:
    names = DEMO_NAMES[:players]
    boards = []
    for seed in SAMPLE_SEEDS:
        for state in states(players, seed, SAMPLE_EVERY):
            image = background(players, "en").copy()
            draw(image, view(state), names, "en")
            boards.append(image)
    width, height = boards[0].size
    stacked = Image.new("RGB", (width, height * len(boards)))
    for i, board in enumerate(boards):
        stacked.paste(board, (0, height * i))
    return palette_of(stacked, LIVE_PINNED)

"""The part of the board that never changes during a game, drawn once per layout and locale.

Shapes are drawn at twice the size and scaled down for smooth edges; text and
badges are added afterwards at full size so they stay crisp.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Final

from PIL import Image

from bot.render import log, orbit, panels, planet, status, tech, theme
from bot.render.canvas import Pen
from bot.render.geometry import layout_for

SCALE: Final = 2


def _stars(pen: Pen, width: int, height: int) -> None:
    rng = random.Random(3)
    for _ in range(140):
        x, y = rng.uniform(0, width), rng.uniform(0, height)
        r = rng.choice((0.6, 0.8, 1.1))
        shade = rng.randint(70, 150)
        pen.circle((x, y), r, fill=(shade, shade, min(255, shade + 30)))


@lru_cache(maxsize=12)
def background(players: int, locale: str) -> Image.Image:
    """The static board for ``players`` seats in ``locale`` (RGB, copy before drawing on it)."""
    layout = layout_for(players)
    w, h = layout.size
    big = Image.new("RGBA", (w * SCALE, h * SCALE), (*theme.BACKGROUND, 255))
    pen = Pen(big, SCALE)
    _stars(pen, w, h)
    planet.draw_static(pen, layout)
    orbit.draw_static(pen, layout)
    tech.draw_static(pen, layout)
    log.draw_static(pen, layout)
    panels.draw_static(pen, layout)
    status.draw_static(pen, layout)
    image = big.reduce(SCALE).convert("RGB")
    planet.draw_static_text(image, layout, locale)
    orbit.draw_static_text(image, layout, locale)
    tech.draw_static_text(image, layout, locale)
    log.draw_static_text(image, layout, locale)
    panels.draw_static_text(image, layout, locale)
    status.draw_static_text(image, layout, locale)
    return image

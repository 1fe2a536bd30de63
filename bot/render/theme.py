"""Colours of the board and each player's colour and shape.

Every player has a shape as well as a colour (circle, square, triangle, diamond) used
for die pips, colony markers, badges and log lines, so colour is never the only cue; the
shapes are named in ``bot.text.player_shapes`` (the board in words says them), drawn here.
"""

from __future__ import annotations

from typing import Final

# Each player's shape, named where the board in words says it; drawn by the modules here.
from bot.text.player_shapes import PLAYER_SHAPES as PLAYER_SHAPES
from bot.text.player_shapes import Shape as Shape
from bot.text.player_shapes import player_shape as player_shape
from engine import PLAYER_COLOURS, FieldId

RGB = tuple[int, int, int]

BACKGROUND: Final[RGB] = (12, 16, 32)
HEADER: Final[RGB] = (22, 28, 52)
BOX: Final[RGB] = (26, 33, 60)
BOX_EDGE: Final[RGB] = (62, 75, 120)
BOX_TITLE: Final[RGB] = (34, 43, 78)
PLATE: Final[RGB] = (44, 55, 96)
SLOT: Final[RGB] = (15, 20, 40)
SLOT_EDGE: Final[RGB] = (92, 106, 150)
BLOCKED: Final[RGB] = (70, 72, 82)
BLOCKED_HATCH: Final[RGB] = (120, 122, 134)
TEXT: Final[RGB] = (236, 240, 255)
MUTED: Final[RGB] = (156, 166, 198)
FAINT: Final[RGB] = (126, 136, 170)
GOLD: Final[RGB] = (244, 194, 64)
DARK: Final[RGB] = (18, 18, 24)
WHITE: Final[RGB] = (255, 255, 255)
FUEL: Final[RGB] = (255, 140, 40)
ORE: Final[RGB] = (170, 178, 196)

PLANET: Final[RGB] = (168, 92, 62)
PLANET_DARK: Final[RGB] = (138, 72, 50)
PLANET_LIGHT: Final[RGB] = (196, 120, 82)
ATMOSPHERE: Final[RGB] = (96, 150, 220)
TILE: Final[RGB] = (34, 24, 30)
TILE_EDGE: Final[RGB] = (226, 180, 150)
TOKEN: Final[RGB] = (128, 132, 146)

RELIC_BODY: Final[RGB] = (48, 36, 84)
CARD: Final[RGB] = (42, 70, 96)
CARD_VP: Final[RGB] = (104, 78, 28)
CARD_EDGE: Final[RGB] = (120, 170, 210)

FIELD_COLOURS: Final[dict[FieldId, RGB]] = {
    "isolation": (158, 98, 212),
    "positron": (236, 150, 30),
    "repulsor": (30, 180, 196),
}

_COLOUR_RGB: Final[dict[str, RGB]] = {
    # Darker than they were (222,52,52 and 40,116,224 sat on 4.5:1 under white digits and
    # fell below it when Discord scales the picture down): 5.2:1 now, 3.5:1 on an empty dock.
    "red": (205, 45, 45),
    "blue": (35, 105, 210),
    "green": (56, 176, 102),
    "yellow": (246, 204, 44),
}
PLAYER_RGB: Final[tuple[RGB, ...]] = tuple(_COLOUR_RGB[c] for c in PLAYER_COLOURS)
# Text and pips drawn on a player's colour: dark on green and yellow, white on the others
# (4.5:1 at least: tests/bot/render/test_colour_vision.py).
PLAYER_INK: Final[tuple[RGB, ...]] = tuple(
    DARK if c in ("green", "yellow") else WHITE for c in PLAYER_COLOURS
)
# The frame of the player to act (and of the winners): near-white, far from every player's
# colour for every colour vision (gold was the yellow player's twin: ΔE00 2.4 for
# deuteranopia; tests/bot/render/test_colour_vision.py measures it on the encoded PNG).
HIGHLIGHT: Final[RGB] = (236, 240, 255)
# Colours the PNG palette keeps exactly (``bot.render.encode``): every flat colour of the
# board, so that the contrast the tests measure on the theme is the one in the file sent
# (a palette of its own would move white to 253,252,253 and red to 221,52,52).
PINNED: Final[tuple[RGB, ...]] = tuple(
    dict.fromkeys(
        (
            BACKGROUND,
            HEADER,
            BOX,
            BOX_EDGE,
            BOX_TITLE,
            PLATE,
            SLOT,
            SLOT_EDGE,
            BLOCKED,
            BLOCKED_HATCH,
            TEXT,
            MUTED,
            FAINT,
            GOLD,
            DARK,
            WHITE,
            FUEL,
            ORE,
            PLANET,
            TILE,
            TILE_EDGE,
            TOKEN,
            RELIC_BODY,
            CARD,
            CARD_VP,
            CARD_EDGE,
            HIGHLIGHT,
            *FIELD_COLOURS.values(),
            *PLAYER_RGB,
        )
    )
)


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """The colour ``t`` of the way from ``a`` to ``b``."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def row_tint(player: RGB, t: float) -> RGB:
    """A player's own row (their Colony Hub row, their cell in the Maintenance Bay): the dark
    of an empty dock tinted ``t`` toward their colour; darker than a box, so that their
    pieces on it contrast 3:1 (tests/bot/render/test_colour_vision.py)."""
    return mix(SLOT, player, t)


def player_rgb(seat: int) -> RGB:
    return PLAYER_RGB[seat % len(PLAYER_RGB)]


def player_ink(seat: int) -> RGB:
    return PLAYER_INK[seat % len(PLAYER_INK)]

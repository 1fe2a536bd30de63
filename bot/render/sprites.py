"""Small pictures drawn once and pasted many times: colony markers, tokens, badges (ships
are ``bot.render.live.tokens.ship``, on both boards).

Each is drawn four times larger and scaled down (smooth edges from plain Pillow
primitives), then cached by its parameters, so a render only pastes.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Final

from PIL import Image, ImageDraw

from bot.render import theme
from bot.render.fonts import draw_text
from bot.render.theme import RGB, Shape

SS: Final = 4  # supersampling factor
Box = tuple[float, float, float, float]


def draw_shape(
    draw: ImageDraw.ImageDraw,
    shape: Shape,
    box: Box,
    fill: RGB | None,
    outline: RGB | None = None,
    width: int = 0,
) -> None:
    """A player's shape filling ``box`` (triangles and diamonds use the whole box)."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    if shape == "circle":
        draw.ellipse(box, fill=fill, outline=outline, width=width)
    elif shape == "square":
        k = 0.09
        draw.rectangle(
            (x0 + w * k, y0 + h * k, x1 - w * k, y1 - h * k),
            fill=fill,
            outline=outline,
            width=width,
        )
    elif shape == "triangle":
        pts = [(x0 + w / 2, y0), (x1, y1 - h * 0.06), (x0, y1 - h * 0.06)]
        draw.polygon(pts, fill=fill, outline=outline, width=width)
    else:
        pts = [(x0 + w / 2, y0), (x1, y0 + h / 2), (x0 + w / 2, y1), (x0, y0 + h / 2)]
        draw.polygon(pts, fill=fill, outline=outline, width=width)


def _shrink(big: Image.Image, size: tuple[int, int]) -> Image.Image:
    return big.resize(size, Image.Resampling.LANCZOS)


def _darker(c: RGB, t: float = 0.45) -> RGB:
    return theme.mix(c, (0, 0, 0), t)


@lru_cache(maxsize=16)
def blocked_slot(size: int) -> Image.Image:
    """A dock closed by a neutral ship (2-3 players): grey, hatched and crossed."""
    s = size * SS
    big = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    d.rounded_rectangle((0, 0, s - 1, s - 1), radius=s * 0.16, fill=theme.BLOCKED)
    mask = Image.new("L", (s, s), 0)
    md = ImageDraw.Draw(mask)
    for k in range(-s, s, s // 5):
        md.line((k, s, k + s, 0), fill=110, width=SS * 2)
    big.paste(theme.BLOCKED_HATCH, (0, 0), mask)
    w = round(s * 0.1)
    d.line((s * 0.22, s * 0.22, s * 0.78, s * 0.78), fill=theme.DARK, width=w)
    d.line((s * 0.78, s * 0.22, s * 0.22, s * 0.78), fill=theme.DARK, width=w)
    d.rounded_rectangle(
        (0, 0, s - 1, s - 1), radius=s * 0.16, outline=theme.BLOCKED_HATCH, width=SS * 2
    )
    return _shrink(big, (size, size))


@lru_cache(maxsize=64)
def badge(size: int, seat: int, ring: RGB | None = theme.WHITE) -> Image.Image:
    """A player's shape in their colour (colour-blind safe marker for names and rows)."""
    s = size * SS
    big = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    inset = SS
    draw_shape(
        d,
        theme.player_shape(seat),
        (inset, inset, s - 1 - inset, s - 1 - inset),
        theme.player_rgb(seat),
        ring,
        SS * 2 if ring else 0,
    )
    return _shrink(big, (size, size))


@lru_cache(maxsize=128)
def colony(size: int, seat: int, count: int) -> Image.Image:
    """A colony marker: the owner's shape and colour with the number of colonies inside."""
    s = size * SS
    big = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    draw_shape(
        d,
        theme.player_shape(seat),
        (SS, SS, s - 1 - SS, s - 1 - SS),
        theme.player_rgb(seat),
        theme.DARK,
        SS * 2,
    )
    img = _shrink(big, (size, size))
    shape = theme.player_shape(seat)
    cy = size * (0.64 if shape == "triangle" else 0.5)
    text_size = round(
        size * {"circle": 0.58, "square": 0.6, "triangle": 0.46, "diamond": 0.5}[shape]
    )
    draw_text(
        img,
        (size // 2, round(cy)),
        str(count),
        (*theme.player_ink(seat), 255),
        "bold",
        text_size,
        "mm",
    )
    return img


@lru_cache(maxsize=16)
def token(size: int, seat: int | None) -> Image.Image:
    """A territory's bonus token: grey on the territory, or in the colours of its controller."""
    s = size * SS
    big = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    fill = theme.TOKEN if seat is None else theme.player_rgb(seat)
    d.ellipse((0, 0, s - 1, s - 1), fill=theme.GOLD)
    rim = round(s * 0.1)
    d.ellipse((rim, rim, s - 1 - rim, s - 1 - rim), fill=fill)
    if seat is None:
        c = s / 2
        r = s * 0.16
        d.ellipse((c - r, c - r, c + r, c + r), fill=theme.mix(theme.TOKEN, theme.WHITE, 0.4))
    else:
        k = s * 0.3
        draw_shape(d, theme.player_shape(seat), (k, k, s - k, s - k), theme.player_ink(seat))
    return _shrink(big, (size, size))


@lru_cache(maxsize=16)
def resource_icon(size: int, kind: str) -> Image.Image:
    """Fuel (an orange drop) or ore (a grey rock)."""
    s = size * SS
    big = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    if kind == "fuel":
        d.ellipse((s * 0.18, s * 0.36, s * 0.82, s * 0.98), fill=theme.FUEL)
        d.polygon([(s * 0.5, 0), (s * 0.8, s * 0.56), (s * 0.2, s * 0.56)], fill=theme.FUEL)
    else:
        pts = [
            (s * 0.1, s * 0.6),
            (s * 0.3, s * 0.15),
            (s * 0.7, s * 0.1),
            (s * 0.95, s * 0.5),
            (s * 0.75, s * 0.92),
            (s * 0.25, s * 0.9),
        ]
        d.polygon(pts, fill=theme.ORE, outline=_darker(theme.ORE, 0.3), width=SS * 2)
    return _shrink(big, (size, size))


@lru_cache(maxsize=4)
def relic_unowned(size: int) -> Image.Image:
    """The relic ship waiting on Burroughs Desert: gold rim, dark body and a gold star."""
    s = size * SS
    big = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    d.rounded_rectangle((0, 0, s - 1, s - 1), radius=s * 0.2, fill=theme.GOLD)
    rim = round(s * 0.1)
    d.rounded_rectangle(
        (rim, rim, s - 1 - rim, s - 1 - rim), radius=s * 0.14, fill=theme.RELIC_BODY
    )
    c = s / 2
    points = []
    for i in range(10):
        angle = -math.pi / 2 + i * math.pi / 5
        radius = s * (0.32 if i % 2 == 0 else 0.14)
        points.append((c + radius * math.cos(angle), c + radius * math.sin(angle)))
    d.polygon(points, fill=theme.GOLD)
    return _shrink(big, (size, size))


def paste(image: Image.Image, sprite: Image.Image, xy: tuple[int, int]) -> None:
    """Paste an RGBA sprite onto the board with its own alpha."""
    image.paste(sprite, xy, sprite)


def paste_centered(image: Image.Image, sprite: Image.Image, center: tuple[int, int]) -> None:
    paste(image, sprite, (center[0] - sprite.width // 2, center[1] - sprite.height // 2))

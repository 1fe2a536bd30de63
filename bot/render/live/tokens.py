"""The live board's small pictures: ships with their value, colonies, cards, fields.

A ship is its owner's shape (circle, square, triangle, diamond) in their colour with its
value written large inside, so colour, shape and value all read at a glance at the
size Discord shows the board. Each picture is drawn once, supersampled, and cached;
text is drawn after the scale-down so it stays crisp and its size is what it says.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from PIL import Image, ImageDraw

from bot.render import theme
from bot.render.fonts import draw_label, draw_text, fit_label, text_width
from bot.render.live.layout import MIN_TEXT
from bot.render.sprites import SS, draw_shape
from bot.render.theme import RGB
from engine import FieldId

# The value's size in a ship of ``size`` pixels, per shape (a triangle holds less).
_VALUE_SIZE: Final = {"circle": 0.64, "square": 0.64, "triangle": 0.56, "diamond": 0.58}
_VALUE_Y: Final = {"circle": 0.5, "square": 0.5, "triangle": 0.66, "diamond": 0.5}
# A used-up ship's body is shaded with this colour at this opacity (of 255).
_USED_UP_SHADE: Final[RGB] = (12, 14, 24)
_USED_UP_ALPHA: Final = 150


def _outline(d: ImageDraw.ImageDraw, shape: str, s: int, inset: float, fill: RGB) -> None:
    """The shape filling an ``s`` square, ``inset`` pixels in from its edge."""
    k = inset
    if shape == "circle":
        d.ellipse((k, k, s - 1 - k, s - 1 - k), fill=fill)
    elif shape == "square":
        d.rounded_rectangle((k, k, s - 1 - k, s - 1 - k), radius=s * 0.2, fill=fill)
    elif shape == "triangle":
        d.polygon([(s / 2, k * 2), (s - 1 - k * 1.2, s - 1 - k), (k * 1.2, s - 1 - k)], fill=fill)
    else:
        d.polygon(
            [
                (s / 2, k * 1.4),
                (s - 1 - k * 1.4, s / 2),
                (s / 2, s - 1 - k * 1.4),
                (k * 1.4, s / 2),
            ],
            fill=fill,
        )


@lru_cache(maxsize=512)
def ship(
    size: int, owner: int, value: int | None, relic: bool = False, dim: bool = False
) -> Image.Image:
    """A ship: its owner's shape and colour, its value inside (none: a ship in the bay,
    whose value means nothing until it is rolled). The relic ship has a thick gold rim;
    a ship used up on the Terraforming Station has its body dimmed, its value still
    written at full contrast: white on the darkened body (a dimmed digit fell to 2.2:1)."""
    s = size * SS
    big = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    shape = theme.player_shape(owner)
    colour = theme.player_rgb(owner)
    rim = theme.GOLD if relic else theme.mix(colour, (0, 0, 0), 0.55)
    _outline(d, shape, s, 0, rim)
    _outline(d, shape, s, s * (0.12 if relic else 0.06), colour)
    image = big.resize((size, size), Image.Resampling.LANCZOS)
    if dim:  # the body only: the value is written after, on the darkened body
        shade = Image.new("RGBA", image.size, (*_USED_UP_SHADE, _USED_UP_ALPHA))
        image.alpha_composite(Image.composite(shade, Image.new("RGBA", image.size), image))
    if value is not None:
        text_size = max(MIN_TEXT, round(size * _VALUE_SIZE[shape]))
        # Every player's colour, darkened, is dark enough for white (7:1 or more).
        ink = (*(theme.WHITE if dim else theme.player_ink(owner)), 255)
        centre = (size // 2, round(size * _VALUE_Y[shape]))
        draw_text(image, centre, str(value), ink, "bold", text_size, "mm")
    return image


@lru_cache(maxsize=64)
def colony(size: int, seat: int) -> Image.Image:
    """A colony: its owner's shape in their colour, dark rimmed (no number: one each)."""
    s = size * SS
    big = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    box = (SS, SS, s - 1 - SS, s - 1 - SS)
    draw_shape(d, theme.player_shape(seat), box, theme.player_rgb(seat), theme.DARK, SS * 2)
    return big.resize((size, size), Image.Resampling.LANCZOS)


VP_MARK: Final = "★"  # after the name of a card worth VP: a mark besides the chip's colour


@lru_cache(maxsize=256)
def chip(
    label: str, fill: RGB, ink: RGB, height: int, used: bool = False, vp: bool = False
) -> Image.Image:
    """A rounded label: a card in a hand, a field on a territory. A card used this turn
    is dimmed and struck through; a card worth VP has a gold star after its name (its
    chip's colour is not the only cue)."""
    fitted = fit_label(label, "cond", MIN_TEXT, 10_000, smallest=MIN_TEXT)
    text_w = round(text_width(label, "cond", MIN_TEXT))
    star_w = round(text_width(VP_MARK, "cond_bold", MIN_TEXT)) + 4 if vp else 0
    w = text_w + 14 + star_w
    k = SS
    big = Image.new("RGBA", (w * k, height * k), (0, 0, 0, 0))
    colour = theme.mix(fill, theme.BOX, 0.6) if used else fill
    ImageDraw.Draw(big).rounded_rectangle(
        (0, 0, w * k - 1, height * k - 1), radius=7 * k, fill=colour
    )
    image = big.resize((w, height), Image.Resampling.LANCZOS)
    text_ink = theme.FAINT if used else ink
    draw_label(image, (7, height // 2), fitted, (*text_ink, 255), "cond")
    if vp:
        star = (*(theme.FAINT if used else theme.GOLD), 255)
        draw_text(image, (7 + text_w + 4, height // 2), VP_MARK, star, "cond_bold", MIN_TEXT, "lm")
    if used:
        y = height // 2
        ImageDraw.Draw(image).line((5, y, w - 6, y), fill=(*theme.TEXT, 255), width=2)
    return image


@lru_cache(maxsize=32)
def field(size: int, field_id: FieldId, initial: str) -> Image.Image:
    """A field generator: a disc in the field's colour with its initial."""
    s = size * SS
    big = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    d.ellipse((0, 0, s - 1, s - 1), fill=theme.WHITE)
    inset = SS * 2
    colour = theme.FIELD_COLOURS[field_id]
    d.ellipse((inset, inset, s - 1 - inset, s - 1 - inset), fill=colour)
    image = big.resize((size, size), Image.Resampling.LANCZOS)
    draw_text(
        image, (size // 2, size // 2 + 1), initial, (*theme.DARK, 255), "bold", MIN_TEXT, "mm"
    )
    return image

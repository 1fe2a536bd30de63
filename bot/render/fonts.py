"""The bundled fonts (DejaVu Sans, see assets/fonts/LICENSE-DejaVu.txt) and cached text masks.

Rendering a string with FreeType costs about 0.1 ms; boards redraw the same labels and
numbers every turn, so each (text, face, size, anchor) is rasterised once and pasted.
"""

from __future__ import annotations

import math
from functools import lru_cache
from pathlib import Path
from typing import Final, Literal

from PIL import Image, ImageDraw, ImageFont

FONT_DIR: Final = Path(__file__).resolve().parents[2] / "assets" / "fonts"

Face = Literal["regular", "bold", "cond", "cond_bold"]
FONT_FILES: Final[dict[Face, str]] = {
    "regular": "DejaVuSans.ttf",
    "bold": "DejaVuSans-Bold.ttf",
    "cond": "DejaVuSansCondensed.ttf",
    "cond_bold": "DejaVuSansCondensed-Bold.ttf",
}
# Horizontal: l(eft), m(iddle), r(ight); vertical: a(scender top), m(iddle), s (baseline).
Anchor = Literal["la", "ma", "ra", "lm", "mm", "rm", "ls", "ms", "rs"]


@lru_cache(maxsize=64)
def font(face: Face, size: int) -> ImageFont.FreeTypeFont:
    """A bundled font at ``size`` pixels (basic layout: Latin and Cyrillic need no shaping)."""
    return ImageFont.truetype(
        str(FONT_DIR / FONT_FILES[face]), size, layout_engine=ImageFont.Layout.BASIC
    )


def text_width(text: str, face: Face, size: int) -> float:
    """Advance width of ``text`` in pixels."""
    return font(face, size).getlength(text)


def fit_text(text: str, face: Face, size: int, width: int) -> str:
    """``text`` cut with an ellipsis so that it is at most ``width`` pixels wide."""
    f = font(face, size)
    if f.getlength(text) <= width:
        return text
    while text and f.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


def wrap_text(text: str, face: Face, size: int, width: int) -> list[str]:
    """Greedy word wrap of ``text`` into lines at most ``width`` pixels wide."""
    f = font(face, size)
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if f.getlength(candidate) <= width or not line:
            line = candidate
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return [fit_text(x, face, size, width) for x in lines]


@lru_cache(maxsize=8192)
def text_mask(text: str, face: Face, size: int, anchor: Anchor) -> tuple[Image.Image, int, int]:
    """An L mask of ``text`` and the offset of its top-left corner from the anchor point."""
    f = font(face, size)
    x0, y0, x1, y1 = f.getbbox(text, anchor=anchor)
    left, top, right, bottom = math.floor(x0), math.floor(y0), math.ceil(x1), math.ceil(y1)
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=f, fill=255, anchor=anchor)
    return mask, left, top


def draw_text(
    image: Image.Image,
    xy: tuple[int, int],
    text: str,
    fill: tuple[int, ...],
    face: Face = "regular",
    size: int = 16,
    anchor: Anchor = "la",
) -> None:
    """Paste ``text`` in ``fill`` at ``xy`` (the anchor point) using the cached mask."""
    if not text:
        return
    mask, dx, dy = text_mask(text, face, size, anchor)
    image.paste(fill, (xy[0] + dx, xy[1] + dy), mask)

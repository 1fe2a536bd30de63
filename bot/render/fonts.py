"""The bundled fonts (DejaVu Sans, see assets/fonts/LICENSE-DejaVu.txt) and cached text masks.

Rendering a string with FreeType costs about 0.1 ms; boards redraw the same labels and
numbers every turn, so each (text, face, size, anchor) is rasterised once and pasted.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
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
    """``text`` cut with an ellipsis so that it is at most ``width`` pixels wide.

    Only for texts the catalogues do not hold (players' names); labels use ``fit_label``.
    """
    f = font(face, size)
    if f.getlength(text) <= width:
        return text
    cut = text
    while cut and f.getlength(cut + "…") > width:
        cut = cut[:-1]
    if FIT_LOG is not None:
        FIT_LOG.append(FitRecord(text, face, size, width, None))
    return cut.rstrip() + "…"


def line_height(size: int) -> int:
    """Distance between the baselines of two lines at ``size`` pixels."""
    return round(size * 1.18)


@dataclass(frozen=True, slots=True)
class Fitted:
    """A label laid out in its box: its lines, the font size used, and whether it fits."""

    lines: tuple[str, ...]
    size: int
    fits: bool

    @property
    def height(self) -> int:
        return line_height(self.size) * len(self.lines)


@dataclass(frozen=True, slots=True)
class FitRecord:
    """One label measured against its box (collected in ``FIT_LOG`` by the tests)."""

    text: str
    face: Face
    size: int
    width: int
    fitted: Fitted | None  # None: the text was cut by ``fit_text``


# The tests set this to a list to see every label measured against its box.
FIT_LOG: list[FitRecord] | None = None


@dataclass(frozen=True, slots=True)
class DrawnText:
    """One text drawn (collected in ``TEXT_LOG`` by the tests)."""

    text: str
    face: Face
    size: int


# The tests set this to a list to see every text drawn, at the size it is drawn.
TEXT_LOG: list[DrawnText] | None = None


def _greedy(words: list[str], f: ImageFont.FreeTypeFont, width: int) -> list[str]:
    lines: list[str] = []
    for word in words:
        candidate = f"{lines[-1]} {word}" if lines else word
        if lines and f.getlength(candidate) <= width:
            lines[-1] = candidate
        else:
            lines.append(word)
    return lines


def fit_label(
    text: str,
    face: Face,
    size: int,
    width: int,
    *,
    smallest: int = 10,
    max_lines: int = 1,
    height: int | None = None,
    wrap_first: bool = False,
) -> Fitted:
    """Lay ``text`` out in a box ``width`` pixels wide without cutting it: on one line at
    the largest size from ``size`` down to ``smallest`` that fits, else wrapped on up to
    ``max_lines`` lines (at most ``height`` pixels tall) at the largest size that fits.
    With ``wrap_first``, the largest size wins, on as many lines as it needs.

    Long Russian and Polish words are why: a label shrinks or wraps, never loses letters.
    """
    words = text.split()
    result: Fitted | None = None
    sizes = range(size, smallest - 1, -1)
    counts = range(1, max_lines + 1)
    order = (
        [(n, s) for s in sizes for n in counts]
        if wrap_first
        else [(n, s) for n in counts for s in sizes]
    )
    for lines_allowed, s in order:
        f = font(face, s)
        lines = [" ".join(words)] if lines_allowed == 1 else _greedy(words, f, width)
        if (
            len(lines) <= lines_allowed
            and all(f.getlength(line) <= width for line in lines)
            and (height is None or line_height(s) * len(lines) <= height)
        ):
            result = Fitted(tuple(lines), s, True)
            break
    if result is None:  # nothing fits: the smallest size, on as few lines as it takes
        f = font(face, smallest)
        lines = [" ".join(words)] if max_lines == 1 else _greedy(words, f, width)
        result = Fitted(tuple(lines[:max_lines]), smallest, False)
    if FIT_LOG is not None:
        FIT_LOG.append(FitRecord(text, face, size, width, result))
    return result


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


def draw_label(
    image: Image.Image,
    xy: tuple[int, int],
    label: Fitted,
    fill: tuple[int, ...],
    face: Face,
    anchor: Anchor = "lm",
) -> None:
    """Draw a fitted label; ``xy`` is the anchor point of the whole block (vertical ``m``:
    its middle, ``a``: its top)."""
    step = line_height(label.size)
    x, y = xy
    if anchor[1] == "m":
        y -= step * (len(label.lines) - 1) // 2
    for line in label.lines:
        draw_text(image, (x, y), line, fill, face, label.size, anchor)
        y += step


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
    if TEXT_LOG is not None:
        TEXT_LOG.append(DrawnText(text, face, size))
    mask, dx, dy = text_mask(text, face, size, anchor)
    image.paste(fill, (xy[0] + dx, xy[1] + dy), mask)

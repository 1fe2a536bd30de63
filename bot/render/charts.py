"""Two charts in the board's own look: the story of a game (each player's victory points
by round, posted with the final board) and a member's rating over their rated games
(``/af stats``); their alt texts (an attachment's description, in words) are
``bot.text.chart_words``'s.

Made to be read in Discord's preview, which shows an image 550 pixels wide: the charts
are drawn at twice that (``SIZE``) and every text at a size that is still at least
``PREVIEW_MIN_PX`` pixels there (``TEXT_SIZES``). Each player's line is in their colour
with their shape (``theme.player_shape``) at every round, so colour is never the only
cue; lines that run together at the same VP are drawn a few pixels apart, side by side,
and markers at the same point stand next to each other, so no player hides another.

Lines and markers are drawn ``SS`` times larger and scaled down (smooth edges from
plain Pillow primitives, as ``bot.render.static_board`` does); texts are drawn after, at
their size, from the cached masks of ``bot.render.fonts``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from PIL import Image

from bot.render import theme
from bot.render.canvas import Pen
from bot.render.encode import encode_png
from bot.render.fonts import Anchor, Face, draw_text, fit_text, font, line_height, text_width
from bot.render.sprites import draw_shape
from bot.render.theme import RGB, Shape
from bot.text.chart_words import series_rounds
from bot.text.strings import text

WIDTH: Final = 1100
HEIGHT: Final = 620
SIZE: Final = (WIDTH, HEIGHT)
PREVIEW_WIDTH: Final = 550  # how wide Discord shows an image in a channel
PREVIEW_MIN_PX: Final = 10  # the smallest text size, in pixels of the preview

TITLE_SIZE: Final = 30
AXIS_SIZE: Final = 22  # axis titles and the legend
TICK_SIZE: Final = 20  # numbers along the axes
NAME_SIZE: Final = 22  # players' names at the end of their lines
VALUE_SIZE: Final = 20  # a line's last value
TEXT_SIZES: Final = (TITLE_SIZE, AXIS_SIZE, TICK_SIZE, NAME_SIZE, VALUE_SIZE)

SS: Final = 3  # supersampling of lines and markers
PAD: Final = 24  # around the whole chart
FRAME_TOP: Final = 108  # below the title and the y axis's title
FRAME_BOTTOM: Final = HEIGHT - PAD - 62  # above the numbers and the title of the x axis
INSET: Final = 28  # between the frame and the outermost points (markers side by side too)
LABELS_W: Final = 250  # right of a VP chart: each player's name and final VP
LINE_W: Final = 3.0
LINE_SPREAD: Final = 3.0  # between the lines of players at the same VP
MARKER_MAX: Final = 8.0  # a marker's radius when the points are far apart
MARKER_MIN: Final = 4.0
RATING_SPAN: Final = 40  # the least range of ratings drawn (one point: around it)
GRID_GAP: Final = 48  # the closest two horizontal gridlines may be
MARKER_GAP: Final = 12.0  # the closest two rating markers may be (else every k-th is drawn)
# A shape's box, as a multiple of the marker's radius, so the four look alike in size.
SHAPE_SCALE: Final[dict[Shape, float]] = {
    "circle": 1.0,
    "square": 1.05,
    "triangle": 1.3,
    "diamond": 1.25,
}
RING: Final = 1.5  # the frame-coloured rim that keeps a marker apart from the lines
DASH: Final = (7.0, 5.0)  # a provisional line: drawn, skipped (pixels)

FRAME: Final[RGB] = theme.BOX
GRID: Final[RGB] = theme.mix(theme.BOX, theme.BOX_EDGE, 0.55)
RATING: Final[RGB] = theme.GOLD
PROVISIONAL: Final[RGB] = theme.FAINT


# ---- axes -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Axes:
    """Where values go on the image: the frame (pixels) and the ranges drawn in it."""

    left: float
    top: float
    right: float
    bottom: float
    x_lo: int
    x_hi: int
    y_lo: int
    y_hi: int
    x_ticks: tuple[int, ...]
    y_ticks: tuple[int, ...]
    right_inset: float = INSET  # room in the frame right of the last point (for its value)

    def x(self, value: float) -> float:
        lo, hi = self.left + INSET, self.right - self.right_inset
        if self.x_hi == self.x_lo:
            return (lo + hi) / 2
        return lo + (value - self.x_lo) * (hi - lo) / (self.x_hi - self.x_lo)

    def y(self, value: float) -> float:
        lo, hi = self.top + INSET, self.bottom - INSET
        return hi - (value - self.y_lo) * (hi - lo) / (self.y_hi - self.y_lo)

    @property
    def unit(self) -> float:
        """Pixels between two neighbouring x values."""
        return self.x(self.x_lo + 1) - self.x(self.x_lo) if self.x_hi > self.x_lo else math.inf


def nice_step(span: float, count: int) -> int:
    """The whole step of 1, 2 or 5 times a power of ten that cuts ``span`` in at most
    about ``count`` parts."""
    raw = span / max(count, 1)
    if raw <= 1:
        return 1
    power = 10 ** math.floor(math.log10(raw))
    return next(int(m * power) for m in (1, 2, 5, 10) if m * power >= raw)


def value_ticks(lo: int, hi: int, count: int = 5) -> tuple[int, ...]:
    """Gridline values from below ``lo`` to above ``hi``, a nice step apart."""
    step = nice_step(hi - lo, count)
    first, last = (lo // step) * step, -(-hi // step) * step
    if last == first:
        last += step
    return tuple(range(first, last + 1, step))


def count_ticks(n: int, room: float, label: int) -> tuple[int, ...]:
    """Labelled x values of 1..n (rounds, games) that fit ``room`` pixels with labels
    ``label`` pixels wide: every one, every other (1, 3, 5...), or 1 and the multiples
    of a nice step (1, 5, 10...)."""
    fits = max(1, int(room // (label + 24)))
    step = nice_step(n - 1, fits)
    if step == 1:
        return tuple(range(1, n + 1))
    if step == 2:
        return tuple(range(1, n + 1, 2))
    return (1, *range(step, n + 1, step))


def _axes(n: int, lo: int, hi: int, right_margin: float, right_inset: float = INSET) -> Axes:
    """Axes for x = 1..n and y over ``lo..hi``, the frame leaving ``right_margin`` on the
    image's right, the points ``right_inset`` in the frame."""
    y_ticks = value_ticks(lo, hi, (FRAME_BOTTOM - FRAME_TOP - 2 * INSET) // GRID_GAP)
    widest = max(text_width(str(t), "regular", TICK_SIZE) for t in y_ticks)
    left = PAD + math.ceil(widest) + 12
    right = WIDTH - PAD - right_margin
    room = right - left - INSET - right_inset
    x_ticks = count_ticks(n, room, math.ceil(text_width(str(n), "regular", TICK_SIZE)))
    return Axes(
        left,
        FRAME_TOP,
        right,
        FRAME_BOTTOM,
        1,
        n,
        y_ticks[0],
        y_ticks[-1],
        x_ticks,
        y_ticks,
        right_inset,
    )


# ---- marks ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Mark:
    """A point drawn: its centre and radius (pixels), its x value, and whether it is a
    provisional rating."""

    x: float
    y: float
    radius: float
    index: int  # 1-based: the round or game
    provisional: bool = False


def marker_radius(unit: float) -> float:
    return max(MARKER_MIN, min(MARKER_MAX, unit * 0.38))


def vp_axes(series: Sequence[Sequence[int]]) -> Axes:
    """The axes of a VP chart: rounds 1..n, VP from 0."""
    top = max(max(s) for s in series)
    return _axes(len(series[0]), min(0, *(min(s) for s in series)), max(top, 4), LABELS_W)


def vp_marks(series: Sequence[Sequence[int]]) -> list[list[Mark]]:
    """Every player's marker at every round (seat order). Players at the same VP are
    drawn ``LINE_SPREAD`` apart in height (their lines side by side, not on top of each
    other), and their markers at the same round next to each other."""
    axes = vp_axes(series)
    players = len(series)
    radius = marker_radius(axes.unit)
    marks: list[list[Mark]] = [[] for _ in series]
    for i in range(len(series[0])):
        for p in range(players):
            same = [q for q in range(players) if series[q][i] == series[p][i]]
            dodge = 0.0
            if len(same) > 1:
                room = min(1.5 * radius, axes.unit * 0.8 / (len(same) - 1))
                dodge = (same.index(p) - (len(same) - 1) / 2) * room
            spread = (p - (players - 1) / 2) * LINE_SPREAD
            x, y = axes.x(i + 1) + dodge, axes.y(series[p][i]) + spread
            marks[p].append(Mark(x, y, radius, i + 1))
    return marks


def rating_axes(points: Sequence[int]) -> Axes:
    """The axes of a rating chart: games 1..n, the ratings reached (at least
    ``RATING_SPAN`` apart), room in the frame for the last rating beside its point."""
    lo, hi = min(points), max(points)
    if hi - lo < RATING_SPAN:
        middle = (lo + hi) // 2
        lo, hi = middle - RATING_SPAN // 2, middle + RATING_SPAN // 2
    last = text_width(str(points[-1]), "bold", VALUE_SIZE)
    return _axes(len(points), lo, hi, 0, INSET + MARKER_MAX + 8 + math.ceil(last))


def rating_marks(points: Sequence[int], provisional_until: int = 5) -> list[Mark]:
    """The markers drawn on a rating chart: one per game while they are ``MARKER_GAP``
    apart, else every k-th game's and the last one's. A game numbered below
    ``provisional_until`` gave a provisional rating."""
    if not points:
        raise ValueError("no rating to draw")
    axes = rating_axes(points)
    radius = marker_radius(axes.unit)
    every = max(1, math.ceil(MARKER_GAP / axes.unit))
    n = len(points)
    shown = [i for i in range(n) if i % every == 0 and (n - 1 - i >= every or i == n - 1)]
    if shown[-1] != n - 1:
        shown.append(n - 1)
    return [
        Mark(axes.x(i + 1), axes.y(points[i]), radius, i + 1, i + 1 < provisional_until)
        for i in shown
    ]


# ---- drawing ----------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _drawable(ch: str, face: Face) -> bool:
    """Whether the bundled font draws ``ch`` (an emoji in a name, say, it does not)."""
    f = font(face, NAME_SIZE)
    return ch.isspace() or bytes(f.getmask(ch)) != bytes(f.getmask("\U000e0fff"))


def shown_name(name: str, face: Face = "regular") -> str:
    """A member's name as the chart can draw it: without the characters the font lacks."""
    return " ".join("".join(ch for ch in name if _drawable(ch, face)).split())


class _Canvas:
    """The chart being drawn: lines and markers on a supersampled layer, texts after."""

    def __init__(self) -> None:
        self.big = Image.new("RGB", (WIDTH * SS, HEIGHT * SS), theme.BACKGROUND)
        self.pen = Pen(self.big, SS)
        self.texts: list[tuple[tuple[int, int], str, RGB, Face, int, Anchor]] = []

    def frame(self, axes: Axes) -> None:
        self.pen.rect((axes.left, axes.top, axes.right, axes.bottom), fill=FRAME, radius=10)
        for v in axes.y_ticks:
            y = axes.y(v)
            self.pen.line([(axes.left + 1, y), (axes.right - 1, y)], GRID, 1)
            self.text(
                (round(axes.left) - 10, round(y)), str(v), theme.MUTED, "regular", TICK_SIZE, "rm"
            )
        for v in axes.x_ticks:
            x = axes.x(v)
            self.pen.line([(x, axes.top + 1), (x, axes.bottom - 1)], GRID, 1)
            self.text(
                (round(x), round(axes.bottom) + 8), str(v), theme.MUTED, "regular", TICK_SIZE, "ma"
            )
        self.pen.rect(
            (axes.left, axes.top, axes.right, axes.bottom),
            outline=theme.BOX_EDGE,
            width=1.5,
            radius=10,
        )

    def titles(self, title: str, x_title: str, y_title: str, axes: Axes) -> None:
        self.text((PAD, 18), title, theme.TEXT, "bold", TITLE_SIZE, "la")
        self.text((PAD, 68), y_title, theme.MUTED, "regular", AXIS_SIZE, "la")
        middle = round((axes.left + axes.right) / 2)
        self.text(
            (middle, round(axes.bottom) + 36), x_title, theme.MUTED, "regular", AXIS_SIZE, "ma"
        )

    def polyline(self, points: Sequence[tuple[float, float]], fill: RGB, width: float) -> None:
        if len(points) > 1:
            self.pen.draw.line(
                [(x * SS, y * SS) for x, y in points],
                fill=fill,
                width=round(width * SS),
                joint="curve",
            )

    def dashed(
        self, a: tuple[float, float], b: tuple[float, float], fill: RGB, width: float
    ) -> None:
        length = math.dist(a, b)
        on, off = DASH
        t = 0.0
        while t < length:
            end = min(t + on, length)
            p0 = (a[0] + (b[0] - a[0]) * t / length, a[1] + (b[1] - a[1]) * t / length)
            p1 = (a[0] + (b[0] - a[0]) * end / length, a[1] + (b[1] - a[1]) * end / length)
            self.pen.line([p0, p1], fill, width)
            t = end + off

    def marker(
        self, centre: tuple[float, float], radius: float, shape: Shape, fill: RGB | None, edge: RGB
    ) -> None:
        """A player's shape (``fill`` None: hollow, in ``edge``) with a rim of the frame."""
        for r, colour in ((radius + RING, FRAME), (radius, edge)):
            self._shape(centre, r, shape, colour)
        if fill is None:
            self._shape(centre, radius - 2, shape, FRAME)
        elif fill != edge:
            self._shape(centre, radius - 1.5, shape, fill)

    def _shape(self, centre: tuple[float, float], r: float, shape: Shape, colour: RGB) -> None:
        k = r * SHAPE_SCALE[shape] * SS
        cx, cy = centre[0] * SS, centre[1] * SS
        draw_shape(self.pen.draw, shape, (cx - k, cy - k, cx + k, cy + k), colour)

    def text(
        self, xy: tuple[int, int], words: str, fill: RGB, face: Face, size: int, anchor: Anchor
    ) -> None:
        self.texts.append((xy, words, fill, face, size, anchor))

    def image(self) -> Image.Image:
        image = self.big.reduce(SS)
        for xy, words, fill, face, size, anchor in self.texts:
            draw_text(image, xy, words, fill, face, size, anchor)
        return image


def _label_heights(wanted: Sequence[float], gap: float, top: float, bottom: float) -> list[float]:
    """Heights of labels as near as can be to ``wanted`` (sorted), ``gap`` apart, between
    ``top`` and ``bottom``: pushed down past the one above, then up from the bottom."""
    placed: list[float] = []
    for y in wanted:
        placed.append(max(y, top, placed[-1] + gap if placed else top))
    if placed and placed[-1] > bottom:
        placed[-1] = bottom
        for i in range(len(placed) - 2, -1, -1):
            placed[i] = min(placed[i], placed[i + 1] - gap)
    return placed


def vp_chart_image(
    series: Sequence[Sequence[int]], names: Sequence[str], locale: str
) -> Image.Image:
    """The VP chart as an RGB image (``SIZE``); ``vp_chart`` gives its PNG."""
    rounds = series_rounds(series, names)
    axes = vp_axes(series)
    marks = vp_marks(series)
    canvas = _Canvas()
    canvas.frame(axes)
    canvas.titles(
        text("chart.vp.title", locale), text("chart.vp.x", locale), text("chart.vp.y", locale), axes
    )
    for p, line in enumerate(marks):
        canvas.polyline([(m.x, m.y) for m in line], theme.player_rgb(p), LINE_W)
    for i in range(rounds):
        for p, line in enumerate(marks):
            m = line[i]
            colour = theme.player_rgb(p)
            canvas.marker((m.x, m.y), m.radius, theme.player_shape(p), colour, colour)
    # Names at the end of the lines, in the order of the lines, none over another.
    order = sorted(range(len(series)), key=lambda p: (marks[p][-1].y, p))
    gap = line_height(NAME_SIZE) + 2
    heights = _label_heights(
        [marks[p][-1].y for p in order], gap, axes.top + gap / 2, axes.bottom - gap / 2
    )
    x0 = axes.right + 14
    for p, y in zip(order, heights, strict=True):
        last = marks[p][-1]
        colour = theme.player_rgb(p)
        start = last.x + last.radius * SHAPE_SCALE["triangle"] + RING + 2
        knee = max(start, axes.right)
        canvas.pen.line([(start, last.y), (knee, last.y), (x0, y)], colour, 1.5)
        canvas.marker((x0 + 10, y), 8, theme.player_shape(p), colour, colour)
        value = str(series[p][-1])
        value_w = text_width(value, "bold", VALUE_SIZE)
        room = int(WIDTH - PAD - (x0 + 24) - value_w - 10)
        name = fit_text(shown_name(names[p]) or f"P{p + 1}", "regular", NAME_SIZE, room)
        canvas.text((round(x0) + 24, round(y)), name, theme.TEXT, "regular", NAME_SIZE, "lm")
        canvas.text((WIDTH - PAD, round(y)), value, theme.TEXT, "bold", VALUE_SIZE, "rm")
    return canvas.image()


def vp_chart(series: Sequence[Sequence[int]], names: Sequence[str], locale: str) -> bytes:
    """Each player's VP by round (``bot.play.vp_by_round.vp_by_round``) as a PNG line chart:
    x the round, y the VP, a line per player (seat order, ``names``) in their colour with
    their shape at every round and their name and final VP at its end."""
    return encode_png(vp_chart_image(series, names, locale))


def rating_chart_image(
    points: Sequence[int], name: str, locale: str, provisional_until: int = 5
) -> Image.Image:
    """The rating chart as an RGB image (``SIZE``); ``rating_chart`` gives its PNG."""
    marks = rating_marks(points, provisional_until)
    axes = rating_axes(points)
    canvas = _Canvas()
    canvas.frame(axes)
    who = fit_text(shown_name(name, "bold") or "?", "bold", TITLE_SIZE, WIDTH // 2)
    canvas.titles(
        text("chart.rating.title", locale, {"name": who}),
        text("chart.rating.x", locale),
        text("chart.rating.y", locale),
        axes,
    )
    at = [(axes.x(i + 1), axes.y(v)) for i, v in enumerate(points)]
    # A segment takes the style of the game it ends at: dashed up to the last provisional.
    settled = max(provisional_until, 2) - 2  # where the first settled segment starts
    for a, b in itertools.pairwise(at[: settled + 1]):
        canvas.dashed(a, b, PROVISIONAL, 2)
    canvas.polyline(at[settled:], RATING, LINE_W)
    for m in marks:
        if m.provisional:
            canvas.marker((m.x, m.y), m.radius, "circle", None, PROVISIONAL)
        else:
            canvas.marker((m.x, m.y), m.radius, "circle", RATING, RATING)
    last = marks[-1]
    canvas.text(
        (round(last.x + last.radius + 8), round(last.y)),
        str(points[-1]),
        theme.TEXT,
        "bold",
        VALUE_SIZE,
        "lm",
    )
    if any(m.provisional for m in marks):
        legend = text("chart.provisional", locale)
        right = WIDTH - PAD
        y = 80
        canvas.text((right, y), legend, theme.MUTED, "regular", AXIS_SIZE, "rm")
        x = right - text_width(legend, "regular", AXIS_SIZE) - 16
        canvas.marker((x, y), MARKER_MAX - 1, "circle", None, PROVISIONAL)
    return canvas.image()


def rating_chart(
    points: Sequence[int], name: str, locale: str, provisional_until: int = 5
) -> bytes:
    """A member's shown rating after each of their rated games as a PNG: x the game
    (1..n), y the rating, a point per game (every k-th when there are too many to tell
    apart); the games numbered below ``provisional_until`` (whose rating was still
    provisional, ``bot.store.ratings.PROVISIONAL_GAMES``) dashed and hollow, in a muted colour."""
    return encode_png(rating_chart_image(points, name, locale, provisional_until))


__all__ = [
    "SIZE",
    "TEXT_SIZES",
    "Axes",
    "Mark",
    "rating_axes",
    "rating_chart",
    "rating_chart_image",
    "rating_marks",
    "vp_axes",
    "vp_chart",
    "vp_chart_image",
    "vp_marks",
]

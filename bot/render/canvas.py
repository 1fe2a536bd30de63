"""A pen that draws shapes in board coordinates on a larger, supersampled image.

The static background is drawn once at ``scale`` times the board size and scaled
down, which gives smooth circles and rounded corners without per-render cost.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.render.geometry import Rect

Colour = tuple[int, ...]


class Pen:
    """Shape drawing in board pixels on an image ``scale`` times larger."""

    def __init__(self, image: Image.Image, scale: int) -> None:
        self.image = image
        self.scale = scale
        self.draw = ImageDraw.Draw(image, "RGBA")

    def _box(self, r: Rect | Sequence[float]) -> tuple[float, float, float, float]:
        k = self.scale
        if isinstance(r, Rect):
            return (r.x * k, r.y * k, r.right * k - 1, r.bottom * k - 1)
        x0, y0, x1, y1 = r
        return (x0 * k, y0 * k, x1 * k - 1, y1 * k - 1)

    def rect(
        self,
        r: Rect | Sequence[float],
        fill: Colour | None = None,
        outline: Colour | None = None,
        width: float = 1,
        radius: float = 0,
    ) -> None:
        w = max(1, round(width * self.scale)) if outline else 0
        box = self._box(r)
        if radius:
            self.draw.rounded_rectangle(
                box, radius=radius * self.scale, fill=fill, outline=outline, width=w
            )
        else:
            self.draw.rectangle(box, fill=fill, outline=outline, width=w)

    def ellipse(
        self,
        r: Rect | Sequence[float],
        fill: Colour | None = None,
        outline: Colour | None = None,
        width: float = 1,
    ) -> None:
        w = max(1, round(width * self.scale)) if outline else 0
        self.draw.ellipse(self._box(r), fill=fill, outline=outline, width=w)

    def circle(
        self,
        center: tuple[float, float],
        radius: float,
        fill: Colour | None = None,
        outline: Colour | None = None,
        width: float = 1,
    ) -> None:
        cx, cy = center
        self.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill, outline, width)

    def line(self, points: Sequence[tuple[float, float]], fill: Colour, width: float = 1) -> None:
        k = self.scale
        self.draw.line(
            [(x * k, y * k) for x, y in points], fill=fill, width=max(1, round(width * k))
        )

    def polygon(self, points: Sequence[tuple[float, float]], fill: Colour) -> None:
        k = self.scale
        self.draw.polygon([(x * k, y * k) for x, y in points], fill=fill)


TITLE_RADIUS = 10


def titled_box(
    pen: Pen,
    r: Rect,
    fill: Colour,
    edge: Colour,
    title_fill: Colour,
    title_h: int,
    accent: Colour | None = None,
) -> None:
    """A rounded box with a title strip across its top (and an accent bar at its left)."""
    pen.rect(r, fill=fill, radius=TITLE_RADIUS)
    pen.rect((r.x, r.y, r.right, r.y + title_h), fill=title_fill, radius=TITLE_RADIUS)
    pen.rect((r.x, r.y + title_h - TITLE_RADIUS, r.right, r.y + title_h), fill=title_fill)
    if accent is not None:
        pen.rect((r.x + 8, r.y + 7, r.x + 12, r.y + title_h - 7), fill=accent, radius=2)
    pen.rect(r, outline=edge, width=1.5, radius=TITLE_RADIUS)

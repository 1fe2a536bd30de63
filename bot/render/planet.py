"""The planet and its eight territories: colonies, control, field generators, relic ship."""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Final

from PIL import Image, ImageDraw

from bot.render import sprites, theme
from bot.render.canvas import Pen
from bot.render.fonts import draw_label, draw_text, fit_label, text_width
from bot.render.geometry import TILE_H, TILE_W, Layout, Rect
from bot.render.scene import Scene, board_label
from bot.text.strings import thing_name
from engine import FieldId

COLONY_SIZE: Final = 36
TOKEN_SIZE: Final = 32
RELIC_SIZE: Final = 32
FIELD_FONT: Final = 14
TILE_RADIUS: Final = 12


def draw_static(pen: Pen, layout: Layout) -> None:
    """The planet disc with a thin atmosphere, surface patches and shading, then the tiles."""
    (cx, cy), r = layout.planet_center, layout.planet_radius
    for k, alpha in ((9, 12), (5, 18), (2, 30)):
        pen.circle((cx, cy), r + k, fill=(*theme.ATMOSPHERE, alpha))
    pen.circle((cx, cy), r, fill=theme.PLANET)
    # Surface: patches and craters drawn on a layer clipped to the disc.
    k = pen.scale
    size = (2 * r * k, 2 * r * k)
    layer = Image.new("RGBA", size, (0, 0, 0, 0))
    lp = Pen(layer, k)
    rng = random.Random(7)
    for _ in range(14):
        px, py = rng.uniform(0, 2 * r), rng.uniform(0, 2 * r)
        w, h = rng.uniform(60, 200), rng.uniform(30, 90)
        lp.ellipse((px - w / 2, py - h / 2, px + w / 2, py + h / 2), fill=theme.PLANET_DARK)
    for _ in range(10):
        px, py = rng.uniform(0, 2 * r), rng.uniform(0, 2 * r)
        cr = rng.uniform(8, 26)
        lp.circle((px, py), cr, fill=theme.PLANET_DARK, outline=theme.PLANET_LIGHT, width=2)
    # Night side: a darker crescent towards the bottom right.
    shade = Image.new("L", size, 0)
    ImageDraw.Draw(shade).ellipse(
        (-0.55 * r * k, -0.6 * r * k, 1.7 * r * k, 1.65 * r * k), fill=255
    )
    night = Image.new("RGBA", size, (20, 10, 30, 90))
    night.putalpha(shade.point(lambda v: 0 if v else 90))
    layer.alpha_composite(night)
    disc = Image.new("L", size, 0)
    ImageDraw.Draw(disc).ellipse((0, 0, size[0] - 1, size[1] - 1), fill=255)
    clipped = Image.new("L", size, 0)
    clipped.paste(layer.getchannel("A"), (0, 0), disc)
    layer.putalpha(clipped)
    pen.image.alpha_composite(layer, ((cx - r) * k, (cy - r) * k))
    for parts in layout.territories.values():
        pen.rect(parts.tile, fill=(*theme.TILE, 226), radius=TILE_RADIUS)
        pen.rect(parts.tile, outline=(*theme.TILE_EDGE, 150), width=1.5, radius=TILE_RADIUS)
    pen.circle(layout.status.center, 128, fill=(20, 12, 26, 110), outline=(*theme.TILE_EDGE, 70))
    pen.rect(layout.legend, fill=(*theme.TILE, 226), radius=layout.legend.h // 2)


def draw_static_text(image: Image.Image, layout: Layout, locale: str) -> None:
    """Territory names and bonuses, and what a territory's frame and token mean."""
    for t, parts in layout.territories.items():
        name = fit_label(thing_name(t, locale), "cond_bold", 17, parts.name.w, smallest=12)
        draw_label(image, parts.name.center, name, theme.TEXT, "cond_bold", "mm")
        bonus = fit_label(board_label(f"bonus.{t}", locale), "cond", 14, parts.bonus.w, smallest=11)
        draw_label(image, parts.bonus.center, bonus, theme.GOLD, "cond", "mm")
    legend = layout.legend
    words = fit_label(board_label("legend", locale), "cond", 15, legend.w - 20, smallest=11)
    draw_label(image, legend.center, words, theme.TEXT, "cond", "mm")


@lru_cache(maxsize=8)
def _control_frame(seat: int) -> Image.Image:
    """A thick rounded frame in the controller's colour around a territory tile."""
    k = sprites.SS
    big = Image.new("RGBA", (TILE_W * k, TILE_H * k), (0, 0, 0, 0))
    ImageDraw.Draw(big).rounded_rectangle(
        (0, 0, TILE_W * k - 1, TILE_H * k - 1),
        radius=TILE_RADIUS * k,
        outline=theme.player_rgb(seat),
        width=4 * k,
    )
    return big.resize((TILE_W, TILE_H), Image.Resampling.LANCZOS)


@lru_cache(maxsize=64)
def _field_pill(field: FieldId, label: str, size: int = FIELD_FONT) -> Image.Image:
    """A field generator as a coloured pill with its name."""
    w = round(text_width(label, "cond_bold", size)) + 14
    h = 19
    k = sprites.SS
    big = Image.new("RGBA", (w * k, h * k), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    colour = theme.FIELD_COLOURS[field]
    d.rounded_rectangle(
        (0, 0, w * k - 1, h * k - 1), radius=h * k / 2, fill=colour, outline=theme.WHITE, width=k
    )
    pill = big.resize((w, h), Image.Resampling.LANCZOS)
    draw_text(pill, (w // 2, h // 2), label, (*theme.DARK, 255), "cond_bold", size, "mm")
    return pill


def clear_caches() -> None:
    """Forget the field pills drawn (their names are the locale's)."""
    _field_pill.cache_clear()


def _rows_needed(pills: list[Image.Image], width: int) -> int:
    """Rows a left-to-right flow of ``pills`` takes in ``width`` pixels."""
    rows, x = 1, 0
    for pill in pills:
        if x and x + pill.width > width:
            rows, x = rows + 1, 0
        x += pill.width + 4
    return rows


def _field_pills(fields: tuple[FieldId, ...], area: Rect, locale: str) -> list[Image.Image]:
    """Pills for the fields on a territory: full names if two rows hold them, else short ones."""
    for names in (
        [thing_name(f, locale) for f in fields],
        [board_label(f"field_short.{f}", locale) for f in fields],
    ):
        pills = [_field_pill(f, n) for f, n in zip(fields, names, strict=True)]
        if _rows_needed(pills, area.w) <= 2 and all(p.width <= area.w for p in pills):
            for n in names:  # measured against the territory's box (a pill adds 14 pixels)
                fit_label(n, "cond_bold", FIELD_FONT, area.w - 14, smallest=FIELD_FONT)
            return pills
    room = (area.w - 4 * (len(fields) - 1)) // max(1, len(fields)) - 14
    short = [board_label(f"field_short.{f}", locale) for f in fields]
    fitted = [fit_label(n, "cond_bold", FIELD_FONT, room, smallest=9) for n in short]
    size = min(label.size for label in fitted)
    return [_field_pill(f, n, size) for f, n in zip(fields, short, strict=True)]


def draw(scene: Scene) -> None:
    """Control frames and tokens, colony markers, field pills and the relic ship."""
    image, layout = scene.image, scene.layout
    for tv in scene.view.territories:
        parts = layout.territories[tv.id]
        if tv.controller is not None:
            sprites.paste(image, _control_frame(tv.controller), parts.tile.xy)
        sprites.paste_centered(image, sprites.token(TOKEN_SIZE, tv.controller), parts.token.center)
        x = parts.colonies.x
        cy = parts.colonies.center[1]
        step = min(COLONY_SIZE + 3, parts.colonies.w // max(1, sum(1 for c in tv.colonies if c)))
        for seat, count in enumerate(tv.colonies):
            if count:
                marker = sprites.colony(COLONY_SIZE, seat, count)
                sprites.paste(image, marker, (x, cy - COLONY_SIZE // 2))
                x += step
        area = parts.fields
        if not tv.relic_here:  # the relic's corner is free: use the whole width
            area = Rect(area.x, area.y, parts.tile.right - 8 - area.x, area.h)
        pills = _field_pills(tv.fields, area, scene.locale)
        px, py = area.x, area.y
        for pill in pills:
            if px + pill.width > area.right and px > area.x:
                px, py = area.x, py + pill.height + 3
            sprites.paste(image, pill, (px, py))
            px += pill.width + 4
        if tv.relic_here:
            sprites.paste_centered(image, sprites.relic_unowned(RELIC_SIZE), parts.relic.center)
            if not tv.fields:
                room = parts.relic.x - area.x - 6
                label = fit_label(scene.label("relic"), "cond_bold", 14, room, smallest=10)
                xy = (parts.relic.x - 6, parts.relic.center[1])
                draw_label(image, xy, label, theme.GOLD, "cond_bold", "rm")

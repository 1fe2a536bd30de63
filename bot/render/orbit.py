"""The orbital facilities: their docks, the Colony Hub tracks and the Maintenance Bay."""

from __future__ import annotations

from typing import Final

from PIL import Image

from bot.render import sprites, theme
from bot.render.canvas import Pen, titled_box
from bot.render.fonts import draw_label, draw_text, fit_label
from bot.render.geometry import (
    BOX_TITLE_H,
    DOCK_DIE,
    DOCK_SLOT,
    HUB_DIE,
    SMALL_DIE,
    Layout,
    Rect,
)
from bot.render.live import tokens
from bot.render.scene import Scene, board_label
from bot.text.strings import thing_name
from engine import HUB_TRACK_LENGTH, SHARED_FACILITIES, FacilityId

ACCENTS: Final[dict[str, theme.RGB]] = {
    "solar": (255, 170, 40),
    "mine": (150, 170, 200),
    "market": (80, 200, 120),
    "yard": (70, 190, 220),
    "constructor": (240, 200, 70),
    "hub": (120, 160, 255),
    "terraform": (60, 210, 170),
    "artifact": (186, 120, 240),
    "raiders": (236, 80, 70),
    "bay": (170, 170, 190),
}


def _slot(pen: Pen, r: Rect, radius: float = 7) -> None:
    pen.rect(r, fill=theme.SLOT, outline=theme.SLOT_EDGE, width=1.5, radius=radius)


def draw_static(pen: Pen, layout: Layout) -> None:
    """Facility boxes with empty docks, the hub tracks and the bay frame."""
    for f in SHARED_FACILITIES:
        box = layout.facilities[f]
        titled_box(pen, box, theme.BOX, theme.BOX_EDGE, theme.BOX_TITLE, BOX_TITLE_H, ACCENTS[f])
        for plate in layout.groups[f]:
            pen.rect(plate, fill=theme.PLATE, radius=9)
        for r in layout.docks[f]:
            _slot(pen, r)
    hub = layout.hub
    titled_box(pen, hub, theme.BOX, theme.BOX_EDGE, theme.BOX_TITLE, BOX_TITLE_H, ACCENTS["hub"])
    for seat, row in enumerate(layout.hub_rows):
        pen.rect(row.row, fill=theme.row_tint(theme.player_rgb(seat), 0.12), radius=8)
        for i, space in enumerate(row.spaces):
            last = i == HUB_TRACK_LENGTH - 1
            pen.ellipse(
                space,
                fill=theme.SLOT,
                outline=theme.GOLD if last else theme.SLOT_EDGE,
                width=2 if last else 1.2,
            )
        left = row.docks[0].x - 6
        pen.line([(left, row.row.y + 6), (left, row.row.bottom - 6)], theme.BOX_EDGE, 1.5)
        for r in row.docks:
            _slot(pen, r, 6)
    bay = layout.bay
    titled_box(pen, bay, theme.BOX, theme.BOX_EDGE, theme.BOX_TITLE, BOX_TITLE_H, ACCENTS["bay"])
    for seat, cell in enumerate(layout.bay_groups):
        pen.rect(cell, fill=theme.row_tint(theme.player_rgb(seat), 0.12), radius=8)


def _title(image: Image.Image, box: Rect, title: str) -> None:
    label = fit_label(
        title, "cond_bold", 17, box.w - 30, smallest=12, max_lines=2, height=BOX_TITLE_H - 2
    )
    draw_label(image, (box.x + 20, box.y + BOX_TITLE_H // 2), label, theme.TEXT, "cond_bold")


def draw_static_text(image: Image.Image, layout: Layout, locale: str) -> None:
    """Facility titles, hub space numbers and the players' badges on their hub rows."""
    for f in SHARED_FACILITIES:
        _title(image, layout.facilities[f], thing_name(f, locale))
    _title(image, layout.hub, thing_name("hub", locale))
    _title(image, layout.bay, thing_name("bay", locale))
    for seat, row in enumerate(layout.hub_rows):
        sprites.paste(image, sprites.badge(row.badge.w, seat), row.badge.xy)
        for i, space in enumerate(row.spaces):
            colour = theme.GOLD if i == HUB_TRACK_LENGTH - 1 else theme.FAINT
            draw_text(image, space.center, str(i + 1), colour, "cond_bold", 14, "mm")
    for seat, cell in enumerate(layout.bay_groups):
        b = cell.h - 12
        sprites.paste(image, sprites.badge(b, seat), (cell.x + 6, cell.y + 6))


def draw(scene: Scene) -> None:
    """Ships on every dock, blocked docks, hub colonies and ships, the Maintenance Bay."""
    image, layout, view = scene.image, scene.layout, scene.view
    for f in SHARED_FACILITIES:
        _draw_docks(image, layout, f, scene)
    for seat, row in enumerate(layout.hub_rows):
        p = view.players[seat]
        if 1 <= p.hub_space <= HUB_TRACK_LENGTH:
            space = row.spaces[p.hub_space - 1]
            sprites.paste_centered(
                image, sprites.badge(space.w + 2, seat, theme.DARK), space.center
            )
        for slot, ship in zip(row.docks, view.hub_tracks[seat], strict=False):
            sprites.paste_centered(
                image, tokens.ship(HUB_DIE, ship.owner, ship.value, ship.relic), slot.center
            )
    for seat, cell in enumerate(layout.bay_groups):
        ships = view.players[seat].bay
        x = cell.x + cell.h + 4
        step = SMALL_DIE + 4
        room = max(0, (cell.right - 6 - x) // step)
        shown = ships if len(ships) <= room else ships[: max(0, room - 1)]
        for ship in shown:  # no pips: a ship in the bay has no value until it is rolled
            die = tokens.ship(SMALL_DIE, ship.owner, None, ship.relic)
            sprites.paste(image, die, (x, cell.y + (cell.h - SMALL_DIE) // 2))
            x += step
        if len(shown) < len(ships):
            draw_text(
                image,
                (x + 2, cell.y + cell.h // 2),
                f"+{len(ships) - len(shown)}",
                theme.TEXT,
                "cond_bold",
                16,
                "lm",
            )


def _draw_docks(image: Image.Image, layout: Layout, f: FacilityId, scene: Scene) -> None:
    for r, dock in zip(layout.docks[f], scene.view.docks[f], strict=True):
        if dock.blocked:
            sprites.paste_centered(image, sprites.blocked_slot(DOCK_SLOT - 2), r.center)
        elif dock.ship is not None:
            ship = dock.ship
            die = tokens.ship(DOCK_DIE, ship.owner, ship.value, ship.relic, dock.used_up)
            sprites.paste_centered(image, die, r.center)
            if dock.used_up:
                room = layout.facilities[f].right - 6 - (r.right + 6)
                label = fit_label(board_label("used_up", scene.locale), "cond_bold", 14, room)
                draw_label(image, (r.right + 6, r.center[1]), label, theme.GOLD, "cond_bold")

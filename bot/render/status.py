"""The header (round, turn, whose turn) and the turn status in the middle of the planet."""

from __future__ import annotations

from PIL import Image

from bot.render import sprites, theme
from bot.render.canvas import Pen
from bot.render.fonts import draw_label, draw_text, fit_label, fit_text, text_width
from bot.render.geometry import Layout
from bot.render.live import tokens
from bot.render.scene import Scene, board_label

STATUS_DIE = 36


def draw_static(pen: Pen, layout: Layout) -> None:
    h = layout.header
    pen.rect(h, fill=theme.HEADER)
    pen.line([(0, h.bottom - 1), (h.right, h.bottom - 1)], theme.BOX_EDGE, 1.5)


def draw_static_text(image: Image.Image, layout: Layout, locale: str) -> None:
    title = board_label("title", locale).upper()
    draw_text(image, (18, layout.header.center[1]), title, theme.GOLD, "bold", 22, "lm")


def waiting_line(scene: Scene) -> str:
    """What the game waits for, in words."""
    view = scene.view
    if view.over:
        return scene.label("game_over")
    d = view.pending
    if d is None:
        return scene.label("status.dock" if view.undocked else "status.idle")
    if d.kind == "return":
        return scene.label("status.return", excess=d.detail.get("excess", 0))
    return scene.label(f"status.{d.kind}")


def draw(scene: Scene) -> None:
    image, layout, view = scene.image, scene.layout, scene.view
    header = layout.header
    cy = header.center[1]
    parts = [scene.label("round", round=view.round)]
    if view.turn_number > 0:
        parts.append(scene.label("turn", turn=view.turn_number))
    line = " · ".join(parts)
    draw_text(image, (header.center[0] - 20, cy), line, theme.TEXT, "bold", 20, "rm")
    x = header.center[0] + 4
    if view.turn_number > 0 and not view.over:
        sprites.paste(image, sprites.badge(24, view.current), (x, cy - 12))
        name = scene.label("turn_of", player=scene.seat(view.current))
        draw_text(
            image, (x + 32, cy), fit_text(name, "bold", 20, 380), theme.TEXT, "bold", 20, "lm"
        )
    elif view.over:
        draw_text(image, (x, cy), scene.label("game_over"), theme.GOLD, "bold", 20, "lm")
    extras = []
    if view.supply is not None:
        extras.append(scene.label("supply", fuel=view.supply[0], ore=view.supply[1]))
    if view.market_rate is not None:
        extras.append(scene.label("market_rate", rate=view.market_rate))
    if extras:
        room = header.right - 16 - (header.center[0] + 4 + 32 + 380 + 16)
        text = fit_label("   ".join(extras), "cond", 16, room, smallest=11)
        draw_label(image, (header.right - 16, cy), text, theme.MUTED, "cond", "rm")
    _centre(scene)


def _centre(scene: Scene) -> None:
    """Current player, what they are doing and their undocked ships, on the planet."""
    image, layout, view = scene.image, scene.layout, scene.view
    if view.over or view.turn_number == 0:
        return
    box = layout.status
    cx = box.center[0]
    y = box.y + 40
    name = fit_text(scene.seat(view.current), "bold", 22, box.w - 40)
    width = round(text_width(name, "bold", 22)) + 34
    x = cx - width // 2
    sprites.paste(image, sprites.badge(26, view.current), (x, y - 13))
    draw_text(image, (x + 34, y), name, theme.TEXT, "bold", 22, "lm")
    y += 28
    status = fit_label(waiting_line(scene), "cond", 16, box.w - 30, smallest=11, max_lines=2)
    draw_label(image, (cx, y), status, theme.GOLD, "cond", "ma")
    y += max(40, status.height)
    ships = view.undocked
    if not ships:
        return
    per_row = 4
    y += 10
    for start in range(0, len(ships), per_row):
        row = ships[start : start + per_row]
        total = len(row) * STATUS_DIE + (len(row) - 1) * 6
        x = cx - total // 2
        for ship in row:
            sprites.paste(
                image, tokens.ship(STATUS_DIE, ship.owner, ship.value, ship.relic), (x, y)
            )
            x += STATUS_DIE + 6
        y += STATUS_DIE + 6

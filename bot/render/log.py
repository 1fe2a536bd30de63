"""The last few events as lines of text, and the game-over banner."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render import sprites, theme
from bot.render.canvas import Pen, titled_box
from bot.render.fonts import draw_label, draw_text, fit_label, fit_text, text_width, wrap_text
from bot.render.geometry import BOX_TITLE_H, Layout
from bot.render.scene import Scene, board_label
from bot.text.strings import text as catalogue_text
from engine import Event

LINE_H = 21
LOG_FONT = 15
ACCENT = (200, 200, 220)


def draw_static(pen: Pen, layout: Layout) -> None:
    titled_box(pen, layout.log, theme.BOX, theme.BOX_EDGE, theme.BOX_TITLE, BOX_TITLE_H, ACCENT)


def draw_static_text(image: Image.Image, layout: Layout, locale: str) -> None:
    box = layout.log
    title = fit_label(board_label("log", locale), "cond_bold", 17, box.w - 30, smallest=12)
    draw_label(image, (box.x + 20, box.y + BOX_TITLE_H // 2), title, theme.TEXT, "cond_bold")


def event_text(event: Event, names: list[str], locale: str) -> str:
    """One event in words, in ``locale``: a sentence, so capitalised, unless it starts
    with a member's name, which is shown as its member wrote it ("owner", "ßanne")."""
    text = catalogue_text(event.key, locale, {**event.params, "player": event.player}, names)
    if any(name and text.startswith(name) for name in names):
        return text
    return text[:1].upper() + text[1:]


def draw(scene: Scene) -> None:
    """As many of the latest events as fit, oldest first, each marked with its player's shape."""
    image, box = scene.image, scene.layout.log
    top = box.y + BOX_TITLE_H + 6
    capacity = (box.bottom - 6 - top) // LINE_H
    indent = 22
    width = box.w - 16 - indent
    lines: list[tuple[int | None, str, bool]] = []  # (player, text, first line of its event)
    names = list(scene.names)
    for event in reversed(scene.view.events):
        wrapped = wrap_text(event_text(event, names, scene.locale), "cond", LOG_FONT, width)
        chunk = [(event.player, t, i == 0) for i, t in enumerate(wrapped)]
        if len(lines) + len(chunk) > capacity:
            break
        lines = chunk + lines
    if not lines:
        draw_text(image, (box.x + 10, top), scene.label("log_empty"), theme.FAINT, "cond", LOG_FONT)
        return
    newest_from = len(lines) - 1
    while newest_from > 0 and not lines[newest_from][2]:
        newest_from -= 1
    y = top
    for i, (player, text, first) in enumerate(lines):
        colour = theme.TEXT if i >= newest_from else theme.MUTED
        if first and player is not None and player >= 0:
            sprites.paste(image, sprites.badge(14, player, None), (box.x + 10, y + 3))
        draw_text(image, (box.x + 10 + indent, y), text, colour, "cond", LOG_FONT)
        y += LINE_H


@lru_cache(maxsize=4)
def _banner_frame(w: int, h: int) -> Image.Image:
    k = sprites.SS
    big = Image.new("RGBA", (w * k, h * k), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    d.rounded_rectangle((0, 0, w * k - 1, h * k - 1), radius=18 * k, fill=(14, 16, 34, 240))
    d.rounded_rectangle(
        (0, 0, w * k - 1, h * k - 1), radius=18 * k, outline=theme.GOLD, width=4 * k
    )
    return big.resize((w, h), Image.Resampling.LANCZOS)


def draw_banner(scene: Scene) -> None:
    """At game end, in the middle of the planet: the winner(s), final scores, the tie-break."""
    view, image = scene.view, scene.image
    outcome = view.outcome
    if not view.over or outcome is None:
        return
    box = scene.layout.banner
    sprites.paste(image, _banner_frame(box.w, box.h), box.xy)
    cx = box.center[0]
    y = box.y + 28
    title = fit_label(scene.label("game_over").upper(), "bold", 26, box.w - 24, smallest=14)
    draw_label(image, (cx, y), title, theme.GOLD, "bold", "mm")
    y += 32
    winners = outcome.winners
    if len(winners) == 1:
        line = scene.label("winner", player=scene.seat(winners[0]))
    else:
        sep = scene.label("list_sep")
        line = scene.label("shared_win", players=sep.join(scene.seat(w) for w in winners))
    for text in wrap_text(line, "bold", 20, box.w - 28)[:2]:
        draw_text(image, (cx, y), text, theme.TEXT, "bold", 20, "mm")
        y += 25
    y += 8
    order = sorted(range(len(outcome.scores)), key=lambda p: (-outcome.scores[p], p))
    for p in order:
        colour = theme.GOLD if p in winners else theme.TEXT
        sprites.paste(image, sprites.badge(20, p), (box.x + 16, y - 10))
        vp = scene.label("vp", vp=outcome.scores[p])
        vp_w = round(text_width(vp, "bold", 18))
        name = fit_text(scene.seat(p), "bold", 18, box.w - 60 - vp_w - 10)
        draw_text(image, (box.x + 44, y), name, colour, "bold", 18, "lm")
        draw_text(image, (box.right - 16, y), vp, colour, "bold", 18, "rm")
        y += 27
    key = outcome.tiebreak or "none"
    tiebreak = fit_label(
        scene.label(f"tiebreak.{key}"), "cond", 15, box.w - 24, smallest=11, max_lines=3
    )
    draw_label(image, (cx, box.bottom - 14 - tiebreak.height), tiebreak, theme.MUTED, "cond", "ma")

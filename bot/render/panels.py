"""One panel per player: name, VP, resources, colonies, ships, alien tech cards, roll."""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from PIL import Image, ImageDraw

from bot.render import sprites, theme
from bot.render.canvas import Pen, titled_box
from bot.render.fonts import draw_label, draw_text, fit_label, fit_text, text_width
from bot.render.geometry import Layout, PanelParts, Rect
from bot.render.live import tokens
from bot.render.scene import Scene, board_label
from engine import CardId, PlayerView

LABEL_W: Final = 84  # column of the "Colonies" / "Ships" labels
CHIP_H: Final = 23
ROLL_DIE: Final = 32


def _tint(seat: int) -> theme.RGB:
    return theme.mix(theme.BOX, theme.player_rgb(seat), 0.4)


def draw_static(pen: Pen, layout: Layout) -> None:
    """Panel boxes with a header band tinted in the player's colour."""
    for seat, parts in enumerate(layout.panels):
        titled_box(pen, parts.panel, theme.BOX, theme.BOX_EDGE, _tint(seat), parts.header.h)


def draw_static_text(image: Image.Image, layout: Layout, locale: str) -> None:
    """Badges, resource icons and the row labels."""
    for seat, parts in enumerate(layout.panels):
        sprites.paste(image, sprites.badge(parts.badge.w, seat), parts.badge.xy)
        st = parts.stats
        half = st.w // 2
        for i, kind in enumerate(("fuel", "ore")):
            sprites.paste(image, sprites.resource_icon(22, kind), (st.x + i * half, st.y + 3))
        for row, key in ((1, "colonies"), (2, "ships")):
            label = fit_label(board_label(key, locale), "cond", 15, LABEL_W - 6)
            draw_label(image, (st.x, st.y + 14 + row * 26), label, theme.MUTED, "cond")
        label = fit_label(board_label("cards", locale), "cond", 15, parts.cards.w)
        draw_label(image, (parts.cards.x, parts.cards.y), label, theme.MUTED, "cond", "la")


@lru_cache(maxsize=16)
def _highlight(w: int, h: int, colour: theme.RGB) -> Image.Image:
    """A glowing frame around the current player's (or a winner's) panel."""
    k = sprites.SS
    big = Image.new("RGBA", (w * k, h * k), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    d.rounded_rectangle((0, 0, w * k - 1, h * k - 1), radius=10 * k, outline=colour, width=4 * k)
    return big.resize((w, h), Image.Resampling.LANCZOS)


@lru_cache(maxsize=16)
def _tag(label: str, fill: theme.RGB) -> Image.Image:
    """A small pill such as NOW or WINNER."""
    w = round(text_width(label, "cond_bold", 14)) + 16
    h = 22
    k = sprites.SS
    big = Image.new("RGBA", (w * k, h * k), (0, 0, 0, 0))
    ImageDraw.Draw(big).rounded_rectangle((0, 0, w * k - 1, h * k - 1), radius=h * k / 2, fill=fill)
    tag = big.resize((w, h), Image.Resampling.LANCZOS)
    draw_text(tag, (w // 2, h // 2), label, (*theme.DARK, 255), "cond_bold", 14, "mm")
    return tag


@lru_cache(maxsize=256)
def _chip(label: str, w: int, used: bool, vp: bool, used_label: str) -> Image.Image:
    """An owned alien tech card as a chip; a card used this turn is dimmed and struck out."""
    k = sprites.SS
    big = Image.new("RGBA", (w * k, CHIP_H * k), (0, 0, 0, 0))
    fill = theme.CARD_VP if vp else theme.CARD
    if used:
        fill = theme.mix(fill, theme.BOX, 0.6)
    ImageDraw.Draw(big).rounded_rectangle(
        (0, 0, w * k - 1, CHIP_H * k - 1),
        radius=6 * k,
        fill=fill,
        outline=theme.GOLD if vp else theme.mix(theme.CARD_EDGE, theme.BOX, 0.4),
        width=k,
    )
    chip = big.resize((w, CHIP_H), Image.Resampling.LANCZOS)
    tag = _tag(used_label, theme.MUTED) if used else None
    text = fit_label(label, "cond", 15, w - 12 - (tag.width + 4 if tag else 0), smallest=11)
    if tag is not None and not text.fits:  # a long name keeps its letters; the strike says "used"
        tag = None
        text = fit_label(label, "cond", 15, w - 12, smallest=9)
    if tag is not None:
        sprites.paste(chip, tag, (w - tag.width - 1, (CHIP_H - tag.height) // 2))
    colour = theme.FAINT if used else theme.TEXT
    draw_label(chip, (7, CHIP_H // 2), text, (*colour, 255), "cond")
    if used:
        tw = round(text_width(text.lines[0], "cond", text.size))
        ImageDraw.Draw(chip).line((6, CHIP_H // 2, 8 + tw, CHIP_H // 2), fill=theme.FAINT, width=2)
    return chip


def clear_caches() -> None:
    """Forget the tags and chips drawn (their words are the locale's)."""
    _tag.cache_clear()
    _chip.cache_clear()


def _cards(scene: Scene, p: PlayerView, area: Rect) -> None:
    image = scene.image
    top = area.y + 20
    rows = (area.bottom - top + 2) // (CHIP_H + 2)
    if not p.cards:
        draw_text(image, (area.x, top + 2), scene.label("no_cards"), theme.FAINT, "cond", 15)
        return
    cols = max(1, area.w // 170)
    while cols * rows < len(p.cards) and cols < 4:
        cols += 1
    w = (area.w - (cols - 1) * 6) // cols
    shown: list[CardId] = list(p.cards)
    more = 0
    if len(shown) > cols * rows:
        more = len(shown) - (cols * rows - 1)
        shown = shown[: cols * rows - 1]
    for i, card in enumerate(shown):
        col, row = i // rows, i % rows
        chip = _chip(
            scene.name(card),
            w,
            card in p.cards_used,
            card in ("city", "monument"),
            scene.label("card_used"),
        )
        sprites.paste(image, chip, (area.x + col * (w + 6), top + row * (CHIP_H + 2)))
    if more:
        i = len(shown)
        col, row = i // rows, i % rows
        xy = (area.x + col * (w + 6) + 6, top + row * (CHIP_H + 2) + CHIP_H // 2)
        draw_text(image, xy, f"+{more}", theme.TEXT, "cond_bold", 15, "lm")


def _stats(scene: Scene, p: PlayerView, st: Rect) -> None:
    image = scene.image
    half = st.w // 2
    for i, (value, key) in enumerate(((p.fuel, "fuel"), (p.ore, "ore"))):
        x = st.x + i * half + 28
        draw_text(image, (x, st.y + 14), str(value), theme.TEXT, "bold", 21, "lm")
        x += round(text_width(str(value), "bold", 21)) + 6
        draw_text(image, (x, st.y + 15), scene.label(key), theme.MUTED, "cond", 15, "lm")
    left = p.colonies_unplaced + (1 if p.hub_space else 0)  # as /af status counts them
    col = scene.label("colonies_value", left=left, placed=p.colonies_placed)
    ships = scene.label("ships_value", in_play=p.ships_in_play, stock=p.ships_in_stock)
    x = st.x + LABEL_W
    right = st.right
    if p.has_relic:
        relic = sprites.relic_unowned(24)
        sprites.paste(image, relic, (right - relic.width, st.y + 66 - 12))
        right -= relic.width + 6
        # The label takes what the ships' line leaves it (that line needs 150 px); never
        # dropped: a name too long for it is a failing test (every label fits its box).
        label = fit_label(scene.label("relic"), "cond_bold", 14, right - x - 150, smallest=10)
        draw_label(image, (right, st.y + 66), label, theme.GOLD, "cond_bold", "rm")
        right -= round(text_width(label.lines[0], "cond_bold", label.size)) + 8
    for y, line in ((st.y + 40, col), (st.y + 66, ships)):
        fitted = fit_label(line, "cond", 16, right - x, smallest=11)
        draw_label(image, (x, y), fitted, theme.TEXT, "cond")


def _panel(scene: Scene, seat: int, parts: PanelParts) -> None:
    image, view = scene.image, scene.view
    p = view.players[seat]
    header = parts.header
    winners = view.outcome.winners if view.outcome is not None else ()
    tag: Image.Image | None = None
    if view.over and seat in winners:
        tag = _tag(scene.label("winner_tag"), theme.GOLD)
        sprites.paste(
            image, _highlight(parts.panel.w, parts.panel.h, theme.HIGHLIGHT), parts.panel.xy
        )
    elif not view.over and seat == view.current:
        tag = _tag(scene.label("now"), theme.GOLD)
        sprites.paste(
            image, _highlight(parts.panel.w, parts.panel.h, theme.HIGHLIGHT), parts.panel.xy
        )
    vp = scene.label("vp", vp=p.vp)
    draw_text(image, (parts.vp.right, header.center[1]), vp, theme.TEXT, "bold", 24, "rm")
    right = parts.vp.right - round(text_width(vp, "bold", 24)) - 10
    if tag is not None:
        sprites.paste(image, tag, (right - tag.width, header.center[1] - tag.height // 2))
        right -= tag.width + 8
    x = parts.badge.right + 10
    name = fit_text(scene.seat(seat), "bold", 20, right - x)
    draw_text(image, (x, header.center[1]), name, theme.TEXT, "bold", 20, "lm")
    _stats(scene, p, parts.stats)
    _cards(scene, p, parts.cards)
    if seat == view.current and view.undocked and not view.over:
        roll = parts.roll
        label = scene.label("to_dock")
        draw_text(image, (roll.x, roll.center[1]), label, theme.GOLD, "cond_bold", 16, "lm")
        x = roll.x + round(text_width(label, "cond_bold", 16)) + 10
        for ship in view.undocked:
            die = tokens.ship(ROLL_DIE, ship.owner, ship.value, ship.relic)
            sprites.paste(image, die, (x, roll.center[1] - ROLL_DIE // 2))
            x += ROLL_DIE + 5


def draw(scene: Scene) -> None:
    """Every player's panel."""
    for seat, parts in enumerate(scene.layout.panels):
        _panel(scene, seat, parts)

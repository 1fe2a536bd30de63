"""Drawing the live board: what never changes once per player count and language, the
rest at every render (see ``bot.render.live``)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render import sprites, theme
from bot.render.canvas import Pen
from bot.render.fonts import Face, Fitted, draw_label, draw_text, fit_label, fit_text, text_width
from bot.render.geometry import Rect
from bot.render.live import tokens
from bot.render.live.layout import MARKER, MIN_TEXT, SLOT, TOKEN, LiveLayout, live_layout
from bot.render.orbit import ACCENTS
from bot.text.strings import text, thing_name
from engine import (
    HUB_TRACK_LENGTH,
    SHARED_FACILITIES,
    FieldId,
    GameView,
    PlayerView,
    TerritoryView,
    card_vp,
)

SCALE = 2  # shapes of the static board are drawn twice as big, then scaled down
ROW: theme.RGB = (38, 28, 36)  # a territory's row
CHIP_H = 28
COLONY = 24
BONUS: theme.RGB = (232, 196, 130)
HUB_AND_BAY_TINT = 0.14  # a player's row on the Colony Hub, their cell in the bay
HEADER_TINT = 0.4  # a player's panel header


def label(key: str, locale: str, **params: object) -> str:
    return text(f"live.{key}", locale, params)


def fit(words: str, width: int, face: Face = "cond", size: int = MIN_TEXT) -> Fitted:
    """A label at ``size`` or down to ``MIN_TEXT`` pixels (never smaller, never cut)."""
    return fit_label(words, face, size, width, smallest=MIN_TEXT)


def name_in(thing: str, locale: str, width: int, size: int = MIN_TEXT) -> Fitted:
    """A facility's name, or its short name where the long one does not fit."""
    full = thing_name(thing, locale)
    if text_width(full, "cond_bold", MIN_TEXT) > width:
        full = label(f"short.{thing}", locale)
    return fit(full, width, "cond_bold", size)


# ---- the static board -------------------------------------------------------------------


@lru_cache(maxsize=12)
def background(players: int, locale: str) -> Image.Image:
    """Boxes, docks, rows and titles: what a render starts from (copy before drawing)."""
    layout = live_layout(players)
    w, h = layout.size
    big = Image.new("RGBA", (w * SCALE, h * SCALE), (*theme.BACKGROUND, 255))
    pen = Pen(big, SCALE)
    pen.rect(layout.header, fill=theme.HEADER)
    for f in SHARED_FACILITIES:
        _box(pen, layout.facilities[f], ACCENTS[f])
        for plate in layout.plates[f]:
            pen.rect(plate, fill=theme.PLATE, radius=8)
        for r in layout.docks[f]:
            pen.rect(r, fill=theme.SLOT, outline=theme.SLOT_EDGE, width=1.2, radius=7)
    _box(pen, layout.hub, ACCENTS["hub"])
    for seat, row in enumerate(layout.hub_rows):
        pen.rect(row.row, fill=theme.row_tint(theme.player_rgb(seat), HUB_AND_BAY_TINT), radius=7)
        for r in row.docks:
            pen.rect(r, fill=theme.SLOT, outline=theme.SLOT_EDGE, width=1.2, radius=7)
    _box(pen, layout.bay, ACCENTS["bay"])
    for seat, cell in enumerate(layout.bay_cells):
        pen.rect(cell, fill=theme.row_tint(theme.player_rgb(seat), HUB_AND_BAY_TINT), radius=7)
    for r in layout.territories.values():
        pen.rect(r, fill=ROW, radius=9)
    for seat, p in enumerate(layout.panels):
        tint = theme.mix(theme.BOX, theme.player_rgb(seat), HEADER_TINT)
        pen.rect(p.panel, fill=theme.BOX, radius=10)
        pen.rect(p.header, fill=tint, radius=10)
        pen.rect((p.header.x, p.header.y + 20, p.header.right, p.header.bottom), fill=tint)
    image = big.reduce(SCALE).convert("RGB")
    for f in SHARED_FACILITIES:
        box = layout.facilities[f]
        right = layout.display.x - 6 if f == "artifact" else box.right  # the display beside
        _title(image, box, name_in(f, locale, right - box.x - 18))
    _title(image, layout.hub, name_in("hub", locale, layout.hub.w - 18))
    _title(image, layout.bay, name_in("bay", locale, layout.bay.w - 18))
    legend = fit(label("territories", locale), layout.territories_title.w - 8)
    draw_label(image, layout.territories_title.center, legend, theme.MUTED, "cond", "mm")
    for seat, row in enumerate(layout.hub_rows):
        sprites.paste(image, sprites.badge(row.badge.w, seat), row.badge.xy)
    for seat, cell in enumerate(layout.bay_cells):
        sprites.paste(image, sprites.badge(MARKER, seat), (cell.x + 3, cell.y))
    for seat, p in enumerate(layout.panels):
        sprites.paste(image, sprites.badge(p.badge.w, seat), p.badge.xy)
    return image


def _box(pen: Pen, r: Rect, accent: theme.RGB) -> None:
    pen.rect(r, fill=theme.BOX, outline=theme.BOX_EDGE, width=1.5, radius=10)
    pen.rect((r.x + 6, r.y + 8, r.x + 9, r.y + 24), fill=accent, radius=1.5)


def _title(image: Image.Image, box: Rect, title: Fitted) -> None:
    draw_label(image, (box.x + 14, box.y + 16), title, theme.TEXT, "cond_bold")


# ---- what changes ----------------------------------------------------------------------


def draw(image: Image.Image, view: GameView, names: Sequence[str], locale: str) -> None:
    layout = live_layout(len(view.players))
    _header(image, layout, view, names, locale)
    _docks(image, layout, view, locale)
    _hub(image, layout, view)
    _bay(image, layout, view)
    _display(image, layout, view, locale)
    for tv in view.territories:
        _territory(image, layout.territories[tv.id], tv, view, locale)
    for seat in range(len(layout.panels)):
        _panel(image, layout, seat, view, names, locale)


def _header(
    image: Image.Image, layout: LiveLayout, view: GameView, names: Sequence[str], locale: str
) -> None:
    h = layout.header
    cy = h.center[1]
    rnd = text("board.round", locale, {"round": view.round})
    draw_text(image, (14, cy), rnd, theme.GOLD, "bold", 24, "lm")
    x = 14 + round(text_width(rnd, "bold", 24)) + 22
    right = h.right - 14
    if view.supply is not None:
        supply = text("board.supply", locale, {"fuel": view.supply[0], "ore": view.supply[1]})
        fitted = fit(supply, 260)
        draw_label(image, (right, cy), fitted, theme.MUTED, "cond", "rm")
        right -= round(text_width(fitted.lines[0], "cond", fitted.size)) + 18
    if view.over:
        outcome = view.outcome
        words = text("board.game_over", locale)
        if outcome is not None and len(outcome.winners) == 1:
            winner = names[outcome.winners[0]]
            words += " · " + text(
                "board.winner", locale, {"player": fit_text(winner, "bold", 24, 300)}
            )
        draw_text(image, (x, cy), words, theme.GOLD, "bold", 24, "lm")
        return
    sprites.paste(image, sprites.badge(MARKER, view.current), (x, cy - MARKER // 2))
    x += MARKER + 8
    name = fit_text(names[view.current], "bold", 24, 260)
    draw_text(image, (x, cy), name, theme.TEXT, "bold", 24, "lm")
    x += round(text_width(name, "bold", 24)) + 14
    status = fit(_status(view, locale), 260, "cond_bold", 22)
    draw_label(image, (x, cy), status, theme.GOLD, "cond_bold", "lm")
    x += round(text_width(status.lines[0], "cond_bold", status.size)) + 16
    for ship in view.undocked:
        if x + TOKEN > right:
            break
        sprites.paste(
            image, tokens.ship(TOKEN, ship.owner, ship.value, ship.relic), (x, cy - TOKEN // 2)
        )
        x += TOKEN + 6


def _status(view: GameView, locale: str) -> str:
    d = view.pending
    if d is None:
        return label("status.dock" if view.undocked else "status.idle", locale)
    return label(f"status.{d.kind}", locale)


def _docks(image: Image.Image, layout: LiveLayout, view: GameView, locale: str) -> None:
    for f in SHARED_FACILITIES:
        for r, dock in zip(layout.docks[f], view.docks[f], strict=True):
            if dock.blocked:
                sprites.paste_centered(image, sprites.blocked_slot(SLOT - 2), r.center)
            elif dock.ship is not None:
                s = dock.ship
                sprite = tokens.ship(TOKEN, s.owner, s.value, s.relic, dock.used_up)
                sprites.paste_centered(image, sprite, r.center)
    if view.market_rate is not None:  # the rate, as pictures: 3 [fuel] → 1 [ore]
        box = layout.facilities["market"]
        x, cy = box.right - 12, box.y + 16
        for words, kind in (("1", "ore"), (f"{view.market_rate} →", "fuel")):
            x -= 22
            sprites.paste(image, sprites.resource_icon(22, kind), (x, cy - 11))
            x -= 4
            draw_text(image, (x, cy), words, theme.GOLD, "cond_bold", MIN_TEXT, "rm")
            x -= round(text_width(words, "cond_bold", MIN_TEXT)) + 8


def _hub(image: Image.Image, layout: LiveLayout, view: GameView) -> None:
    draw = ImageDraw.Draw(image)
    for seat, row in enumerate(layout.hub_rows):
        p = view.players[seat]
        colour = theme.player_rgb(seat)
        for i, r in enumerate(row.spaces):
            on = i < p.hub_space
            last = i == HUB_TRACK_LENGTH - 1
            edge = theme.GOLD if last else theme.SLOT_EDGE
            draw.ellipse(
                r.box, fill=colour if on else theme.SLOT, outline=edge, width=2 if last else 1
            )
        for r, ship in zip(row.docks, view.hub_tracks[seat], strict=False):
            sprites.paste_centered(
                image, tokens.ship(TOKEN, ship.owner, ship.value, ship.relic), r.center
            )


def _bay(image: Image.Image, layout: LiveLayout, view: GameView) -> None:
    size = MARKER - 2  # a ship without a value: its owner's shape, whole
    for seat, cell in enumerate(layout.bay_cells):
        ships = view.players[seat].bay
        x = cell.x + MARKER + 9
        room = (cell.right - 6 - x) // (size + 4)
        shown = ships if len(ships) <= room else ships[: max(0, room - 1)]
        for ship in shown:
            y = cell.y + (cell.h - size) // 2
            sprites.paste(image, tokens.ship(size, ship.owner, None, ship.relic), (x, y))
            x += size + 4
        if len(shown) < len(ships):
            more = f"+{len(ships) - len(shown)}"
            draw_text(image, (x + 2, cell.center[1]), more, theme.TEXT, "cond_bold", MIN_TEXT, "lm")


def _display(image: Image.Image, layout: LiveLayout, view: GameView, locale: str) -> None:
    r = layout.display
    y = r.y
    for card in view.display:
        vp = card_vp(card) > 0
        fill = theme.CARD_VP if vp else theme.CARD
        name = _card_name(card, locale, r.w, vp)
        sprites.paste(image, tokens.chip(name, fill, theme.TEXT, 28, vp=vp), (r.x, y))
        y += 31


def _card_name(card: str, locale: str, width: int, vp: bool = False) -> str:
    full = thing_name(card, locale)
    star = text_width(tokens.VP_MARK, "cond_bold", MIN_TEXT) + 4 if vp else 0
    if text_width(full, "cond", MIN_TEXT) + 14 + star <= width:
        return full
    return label(f"card.{card}", locale)


def _territory(image: Image.Image, r: Rect, tv: TerritoryView, view: GameView, locale: str) -> None:
    """Name and colonies on the first line; the bonus, then (from the right) who controls
    it, the relic ship and the fields on the second. A controller also frames the row."""
    draw = ImageDraw.Draw(image)
    if tv.controller is not None:
        draw.rounded_rectangle(r.box, radius=9, outline=theme.player_rgb(tv.controller), width=3)
    x = r.right - 10
    for seat in range(len(tv.colonies) - 1, -1, -1):  # one mark a colony, by player
        for _ in range(tv.colonies[seat]):
            x -= COLONY + 2
            sprites.paste(image, tokens.colony(COLONY, seat), (x, r.y + 3))
        if tv.colonies[seat]:
            x -= 5
    name = fit(thing_name(tv.id, locale), x - r.x - 20, "cond_bold", 22)
    draw_label(image, (r.x + 12, r.y + 15), name, theme.TEXT, "cond_bold")
    x = r.right - 10
    if tv.controller is not None:  # its bonus token, in the controller's colours
        x -= 24
        sprites.paste(image, sprites.token(24, tv.controller), (x, r.y + 28))
        x -= 6
    if tv.relic_here:
        x -= 24
        sprites.paste(image, sprites.relic_unowned(24), (x, r.y + 27))
        x -= 6
    words = text(f"board.bonus.{tv.id}", locale)
    # Fields by name where the bonus still fits beside them, else by initial.
    marks = [_field(f, locale, short=False) for f in tv.fields]
    room = x - sum(m.width + 4 for m in marks) - r.x - 20
    if marks and text_width(words, "cond", MIN_TEXT) > room:
        marks = [_field(f, locale, short=True) for f in tv.fields]
    for mark in marks:
        x -= mark.width
        sprites.paste(image, mark, (x, r.y + 27))
        x -= 4
    isolated = "isolation" in tv.fields
    bonus = fit(words, x - r.x - 20)
    colour = theme.FAINT if isolated else BONUS
    draw_label(image, (r.x + 12, r.y + 39), bonus, colour, "cond")
    if isolated:  # the Isolation Field voids the bonus
        bw = round(text_width(bonus.lines[0], "cond", bonus.size))
        draw.line((r.x + 10, r.y + 40, r.x + 14 + bw, r.y + 40), fill=theme.FAINT, width=2)


def _field(field: FieldId, locale: str, short: bool) -> Image.Image:
    """A field generator's mark: its name on a pill, or its initial on a disc."""
    if short:
        return tokens.field(26, field, label(f"field.{field}", locale))
    colour = theme.FIELD_COLOURS[field]
    return tokens.chip(text(f"board.field_short.{field}", locale), colour, theme.DARK, 26)


def _panel(
    image: Image.Image,
    layout: LiveLayout,
    seat: int,
    view: GameView,
    names: Sequence[str],
    locale: str,
) -> None:
    parts = layout.panels[seat]
    p = view.players[seat]
    h = parts.header
    cy = h.center[1]
    winners = view.outcome.winners if view.outcome is not None else ()
    if (view.over and seat in winners) or (not view.over and seat == view.current):
        ImageDraw.Draw(image).rounded_rectangle(
            parts.panel.box, radius=10, outline=theme.HIGHLIGHT, width=3
        )
    vp = text("board.vp", locale, {"vp": p.vp})
    draw_text(image, (h.right - 10, cy), vp, theme.TEXT, "bold", 26, "rm")
    room = h.right - 10 - round(text_width(vp, "bold", 26)) - 10 - (parts.badge.right + 8)
    if p.has_relic:  # the relic ship is theirs: its star beside their name
        room -= 30
        star = (h.right - 10 - round(text_width(vp, "bold", 26)) - 34, cy - 12)
        sprites.paste(image, sprites.relic_unowned(24), star)
    name = fit_text(names[seat], "bold", 22, room)
    draw_text(image, (parts.badge.right + 8, cy), name, theme.TEXT, "bold", 22, "lm")
    _stats(image, parts.stats, p, seat, locale)
    _cards(image, parts.cards, p, locale)


def _stats(image: Image.Image, r: Rect, p: PlayerView, seat: int, locale: str) -> None:
    """Fuel, ore and colonies left (as ``/af status`` counts them: the hub's one too)."""
    x, cy = r.x, r.center[1]
    for kind, value in (("fuel", p.fuel), ("ore", p.ore)):
        sprites.paste(image, sprites.resource_icon(22, kind), (x, cy - 11))
        x += 25
        draw_text(image, (x, cy), str(value), theme.TEXT, "bold", 22, "lm")
        x += round(text_width(str(value), "bold", 22)) + 12
    sprites.paste(image, sprites.badge(MARKER, seat), (x, cy - MARKER // 2))  # their colonies
    x += MARKER + 4
    left = p.colonies_unplaced + (1 if p.hub_space else 0)
    words = fit(label("left", locale, count=left), r.right - x, "cond", 22)
    draw_label(image, (x, cy), words, theme.TEXT, "cond")


def _cards(image: Image.Image, r: Rect, p: PlayerView, locale: str) -> None:
    """The player's cards as chips, row after row; what does not fit is counted (+2)."""
    chips = [
        tokens.chip(
            label(f"card.{card}", locale),
            theme.CARD_VP if card_vp(card) > 0 else theme.CARD,
            theme.TEXT,
            CHIP_H,
            card in p.cards_used,
            vp=card_vp(card) > 0,
        )
        for card in p.cards
    ]
    rows = max(1, (r.h + 3) // (CHIP_H + 3))
    placed: list[tuple[Image.Image, int, int]] = []
    x, y, row = r.x, r.y, 0
    for chip in chips:
        if x > r.x and x + chip.width > r.right:
            row, x, y = row + 1, r.x, y + CHIP_H + 3
        if row >= rows:
            break
        placed.append((chip, x, y))
        x += chip.width + 6
    hidden = len(chips) - len(placed)
    while hidden and placed:
        more = tokens.chip(f"+{hidden}", theme.PLATE, theme.TEXT, CHIP_H)
        chip, cx, cy = placed[-1]
        if cx + chip.width + 6 + more.width <= r.right:
            placed.append((more, cx + chip.width + 6, cy))
            break
        placed.pop()
        hidden += 1
    for chip, cx, cy in placed:
        sprites.paste(image, chip, (cx, cy))

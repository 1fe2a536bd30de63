"""The alien tech display (three face-up cards) with the deck and discard pile counts."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render import sprites, theme
from bot.render.canvas import Pen, titled_box
from bot.render.fonts import draw_label, draw_text, fit_label
from bot.render.geometry import BOX_TITLE_H, Layout
from bot.render.scene import Scene, board_label
from bot.text.strings import thing_name
from engine import CardId, card_vp

ACCENT = (120, 200, 255)


def draw_static(pen: Pen, layout: Layout) -> None:
    """The box, empty card places and the deck / discard counters."""
    titled_box(pen, layout.tech, theme.BOX, theme.BOX_EDGE, theme.BOX_TITLE, BOX_TITLE_H, ACCENT)
    for r in layout.tech_cards:
        pen.rect(r, fill=theme.SLOT, outline=theme.SLOT_EDGE, width=1.2, radius=8)
    for r in (layout.deck, layout.discard):
        pen.rect(r, fill=theme.PLATE, radius=7)


def draw_static_text(image: Image.Image, layout: Layout, locale: str) -> None:
    box = layout.tech
    title = fit_label(
        board_label("display", locale),
        "cond_bold",
        17,
        box.w - 30,
        smallest=12,
        max_lines=2,
        height=BOX_TITLE_H - 2,
    )
    draw_label(image, (box.x + 20, box.y + BOX_TITLE_H // 2), title, theme.TEXT, "cond_bold")
    for r, key in ((layout.deck, "deck"), (layout.discard, "discard")):
        label = fit_label(board_label(key, locale), "cond", 14, r.w - 34)
        draw_label(image, (r.x + 7, r.center[1]), label, theme.MUTED, "cond")


@lru_cache(maxsize=64)
def card_face(card: CardId, locale: str, w: int, h: int) -> Image.Image:
    """A face-up alien tech card: its name, and "+1 VP" for the Alien City and Monument."""
    k = sprites.SS
    big = Image.new("RGBA", (w * k, h * k), (0, 0, 0, 0))
    fill = theme.CARD_VP if card_vp(card) > 0 else theme.CARD
    edge = theme.GOLD if card_vp(card) > 0 else theme.CARD_EDGE
    ImageDraw.Draw(big).rounded_rectangle(
        (0, 0, w * k - 1, h * k - 1), radius=8 * k, fill=fill, outline=edge, width=2 * k
    )
    face = big.resize((w, h), Image.Resampling.LANCZOS)
    extra = (
        fit_label(board_label("vp_card", locale), "cond_bold", 14, w - 10)
        if card_vp(card) > 0
        else None
    )
    room = h - 8 - (extra.height if extra is not None else 0)
    name = fit_label(
        thing_name(card, locale),
        "cond_bold",
        15,
        w - 10,
        smallest=9,
        max_lines=3,
        height=room,
        wrap_first=True,
    )
    top = (h - name.height - (extra.height if extra is not None else 0)) // 2
    draw_label(face, (w // 2, top), name, (*theme.TEXT, 255), "cond_bold", "ma")
    if extra is not None:
        draw_label(face, (w // 2, top + name.height), extra, (*theme.GOLD, 255), "cond_bold", "ma")
    return face


def draw(scene: Scene) -> None:
    """The cards on display and the two counts."""
    image, layout, view = scene.image, scene.layout, scene.view
    for r, card in zip(layout.tech_cards, view.display, strict=False):
        sprites.paste(image, card_face(card, scene.locale, r.w, r.h), r.xy)
    for r in layout.tech_cards[len(view.display) :]:
        draw_text(image, r.center, scene.label("display_empty"), theme.FAINT, "cond", 14, "mm")
    discard = sum(view.discard.values())
    for r, n in ((layout.deck, view.deck_count), (layout.discard, discard)):
        draw_text(image, (r.right - 8, r.center[1]), str(n), theme.TEXT, "bold", 18, "rm")

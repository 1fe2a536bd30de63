"""What every drawing step needs: the image, the layout, the game view, names, locale."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from bot.render.geometry import Layout
from bot.text.strings import text, thing_name
from engine import GameView


def board_label(key: str, locale: str, **params: object) -> str:
    """A board label from ``bot.text.strings`` (keys ``board.*``)."""
    return text(f"board.{key}", locale, params)


def seat_label(seat: int, names: Sequence[str] | None, locale: str) -> str:
    """The display name of a seat: its name if given, else "P1", "P2"..."""
    if names is not None and 0 <= seat < len(names) and names[seat]:
        return names[seat]
    return board_label("seat", locale, number=seat + 1)


@dataclass(frozen=True, slots=True)
class Scene:
    """One render in progress."""

    image: Image.Image
    layout: Layout
    view: GameView
    names: tuple[str, ...]
    locale: str

    def label(self, key: str, **params: object) -> str:
        return board_label(key, self.locale, **params)

    def name(self, thing: str) -> str:
        return thing_name(thing, self.locale)

    def seat(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else f"P{seat + 1}"

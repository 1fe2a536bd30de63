"""Reading the notation: the words of an action and the readers for what they name.

Parsing is forgiving: any case, extra spaces, commas, and the aliases below for
facilities, territories, cards and fields (``mine``, ``lunar``, ``yard``, ``van vogt``...).
Each action's rule reads its own arguments with a ``Tokens`` (engine.rule); the verbs
are dispatched by ``engine.notation.parse``.
"""

from __future__ import annotations

import re
from typing import Final

from engine.actions import Die, sort_dice
from engine.errors import InvalidNotationError
from engine.state import Ship
from engine.tables import (
    CARDS,
    FACILITY_ORDER,
    FIELDS,
    TERRITORIES,
    CardId,
    FacilityId,
    FieldId,
    TerritoryId,
)


def _aliases(table: dict[str, tuple[str, ...]]) -> dict[str, str]:
    out: dict[str, str] = {}
    for canonical, names in table.items():
        out.update(alias_keys(canonical, names))
    return out


def alias_keys(canonical: str, names: tuple[str, ...]) -> dict[str, str]:
    """How a thing may be written (its id and names, any spacing) -> its id."""
    return {canonical: canonical, **{n.replace(" ", ""): canonical for n in names}}


FACILITY_ALIASES: Final = _aliases(
    {
        "solar": ("solar converter", "converter", "sun"),
        "mine": ("lunar mine", "lunar", "moon"),
        "market": ("orbital market", "trade market"),
        "yard": ("shipyard", "ship yard"),
        "constructor": ("colony constructor", "construct", "cc"),
        "hub": ("colony hub", "colonist hub", "colonies"),
        "terraform": ("terraforming station", "terraforming", "terra", "ts"),
        "artifact": ("alien artifact", "artefact", "alien artefact"),
        "raiders": ("raiders outpost", "raiders' outpost", "raider", "raid", "outpost"),
    }
)
TERRITORY_ALIASES: Final = _aliases(
    {
        "asimov": ("asimov crater",),
        "bradbury": ("bradbury plateau",),
        "burroughs": ("burroughs desert", "desert"),
        "heinlein": ("heinlein plains",),
        "herbert": ("herbert valley",),
        "lem": ("lem badlands", "badlands"),
        "pohl": ("pohl foothills", "foothills"),
        "vanvogt": ("van vogt", "van vogt mountains", "vogt", "mountains"),
    }
)
# Filled with each card's id and names by engine.rulebook.register_card (engine.tech.card).
CARD_ALIASES: Final[dict[str, str]] = {}
FIELD_ALIASES: Final = _aliases(
    {
        "isolation": ("isolation field",),
        "positron": ("positron field",),
        "repulsor": ("repulsor field",),
    }
)
_DIE = re.compile(r"^(?:r(\d)|(\d)(r?))$")
_SHIP = re.compile(r"^p(\d):(\d)(r?)$")
_SEAT = re.compile(r"^p?(\d)$")


class Tokens:
    """The words of an action being read, with readers for the things the notation names."""

    def __init__(self, text: str) -> None:
        self.text = text
        cleaned = text.lower().replace("’", "").replace("'", "").replace(",", " ")
        cleaned = re.sub(r"\s*:\s*", ":", cleaned)
        self.words = cleaned.split()
        self.i = 0
        self.last = ""

    def more(self) -> bool:
        return self.i < len(self.words)

    def peek(self) -> str:
        return self.words[self.i] if self.more() else ""

    def take(self) -> str:
        w = self.peek()
        self.i += 1
        self.last = w
        return w

    def fail(self, expected: str) -> InvalidNotationError:
        got = self.peek() or "nothing"
        return InvalidNotationError(
            "notation.expected", after=self._so_far(), expected=expected, got=got
        )

    def _so_far(self) -> str:
        return " ".join(self.words[: self.i]) or "the start"

    def name(self, aliases: dict[str, str], what: str) -> str:
        for n in (4, 3, 2, 1):
            joined = "".join(self.words[self.i : self.i + n])
            if n <= len(self.words) - self.i and joined in aliases:
                self.i += n
                return aliases[joined]
        raise self.fail(what)

    def facility(self) -> FacilityId:
        return self.name(FACILITY_ALIASES, "a facility (" + ", ".join(FACILITY_ORDER) + ")")  # type: ignore[return-value]

    def territory(self) -> TerritoryId:
        return self.name(TERRITORY_ALIASES, "a territory (" + ", ".join(TERRITORIES) + ")")  # type: ignore[return-value]

    def card(self) -> CardId:
        return self.name(CARD_ALIASES, "a card (" + ", ".join(CARDS) + ")")  # type: ignore[return-value]

    def field(self) -> FieldId:
        return self.name(FIELD_ALIASES, "a field (" + ", ".join(FIELDS) + ")")  # type: ignore[return-value]

    def is_die(self) -> bool:
        return bool(_DIE.match(self.peek()))

    def die(self) -> Die:
        m = _DIE.match(self.peek())
        if not m:
            raise self.fail("a ship value like `4` (or `4r` for the relic ship)")
        self.take()
        if m.group(1):
            return Die(int(m.group(1)), True)
        return Die(int(m.group(2)), bool(m.group(3)))

    def dice(self, at_least: int = 1) -> tuple[Die, ...]:
        out = []
        while self.is_die():
            out.append(self.die())
        if len(out) < at_least:
            raise self.fail("ship values like `3 3`")
        return sort_dice(out)

    def ship(self) -> Ship:
        m = _SHIP.match(self.peek())
        if not m:
            raise self.fail("a ship on the board like `p2:4` (`p2:4r` for the relic ship)")
        self.take()
        return Ship(int(m.group(1)) - 1, int(m.group(2)), bool(m.group(3)))

    def seat(self) -> int:
        m = _SEAT.match(self.peek())
        if not m or int(m.group(1)) < 1:
            raise self.fail("a player like `p2`")
        self.take()
        return int(m.group(1)) - 1

    def number(self) -> int:
        w = self.peek()
        if not w.isdigit():
            raise self.fail("a number")
        self.take()
        return int(w)

    def optional(self, *words: str) -> bool:
        if self.peek() in words:
            self.take()
            return True
        return False

    def word(self, *words: str) -> str:
        if self.peek() not in words:
            raise self.fail(" or ".join(f"`{w}`" for w in words))
        return self.take()

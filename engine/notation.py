"""The text notation of actions (docs/notation.md): ``parse(text)`` and ``str(action)``.

Parsing is forgiving: any case, extra spaces, commas, and the aliases below for
facilities, territories, cards and fields (``mine``, ``lunar``, ``yard``, ``van vogt``...).
``parse(str(a)) == a`` for every action.
"""

from __future__ import annotations

import re
from typing import Final, TypeVar

from engine.actions import (
    Action,
    Boost,
    BuyRelic,
    Claim,
    Crystal,
    Cycle,
    Die,
    DiscardBooster,
    DiscardField,
    DiscardPlasma,
    DiscardPolarity,
    DiscardTeleporter,
    DiscardWarper,
    Dock,
    Done,
    EndTurn,
    FirstPlayer,
    Gravity,
    Helm,
    Hit,
    Launch,
    Place,
    Plasma,
    Polarize,
    Resource,
    ReturnExcess,
    Reveal,
    Roll,
    Stasis,
    StealCard,
    StealResource,
    Teleport,
    Trade,
    Warp,
    sort_dice,
)
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

T = TypeVar("T", bound=str)


def _aliases(table: dict[str, tuple[str, ...]]) -> dict[str, str]:
    out: dict[str, str] = {}
    for canonical, names in table.items():
        out[canonical] = canonical
        for n in names:
            out[n.replace(" ", "")] = canonical
    return out


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
CARD_ALIASES: Final = _aliases(
    {
        "booster": ("booster pod", "pod"),
        "crystal": ("data crystal",),
        "gravity": ("gravity manipulator", "manipulator"),
        "decoy": ("holographic decoy",),
        "teleporter": ("orbital teleporter", "teleport"),
        "plasma": ("plasma cannon", "cannon"),
        "polarity": ("polarity device", "polarizer"),
        "cache": ("resource cache",),
        "stasis": ("stasis beam", "beam"),
        "warper": ("temporal warper", "warp"),
        "city": ("alien city",),
        "monument": ("alien monument",),
        "helm": ("mind control helm", "mind control"),
    }
)
FIELD_ALIASES: Final = _aliases(
    {
        "isolation": ("isolation field",),
        "positron": ("positron field",),
        "repulsor": ("repulsor field",),
    }
)
VERBS: Final = (
    "dock",
    "trade",
    "launch",
    "buy relic",
    "cycle",
    "claim",
    "use",
    "discard",
    "place",
    "steal",
    "hit",
    "done",
    "return",
    "end",
    "roll",
    "reveal",
    "first",
)
_DIE = re.compile(r"^(?:r(\d)|(\d)(r?))$")
_SHIP = re.compile(r"^p(\d):(\d)(r?)$")
_SEAT = re.compile(r"^p?(\d)$")


class _Tokens:
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


def parse(text: str) -> Action:
    """Parse the notation into an action; InvalidNotationError says what was expected.

    Anything that is not a string (a number or None from a malformed request) is
    refused the same way, never with a TypeError or AttributeError.
    """
    if not isinstance(text, str):
        raise InvalidNotationError("notation.not_text")
    t = _Tokens(text)
    if not t.more():
        raise InvalidNotationError("notation.empty")
    verb = t.take()
    action = _parse_verb(t, verb)
    if t.more():
        raise InvalidNotationError(
            "notation.trailing", got=" ".join(t.words[t.i :]), text=text.strip()
        )
    return action


def _parse_verb(t: _Tokens, verb: str) -> Action:
    if verb == "dock":
        return Dock(t.facility(), t.dice())
    if verb == "trade":
        return Trade()
    if verb == "launch":
        return Launch()
    if verb == "buy":
        t.optional("relic")
        t.optional("ship")
        return BuyRelic()
    if verb == "cycle":
        return Cycle()
    if verb == "claim":
        return Claim(t.card())
    if verb in ("end", "pass"):
        t.optional("turn")
        return EndTurn()
    if verb == "use":
        return _parse_use(t)
    if verb == "discard":
        return _parse_discard(t)
    if verb == "place":
        return Place(t.territory())
    if verb == "steal":
        if t.optional("card"):
            card = t.card()
            t.optional("from")
            return StealCard(card, t.seat())
        resource: Resource = "fuel" if t.word("fuel", "ore") == "fuel" else "ore"
        t.optional("from")
        return StealResource(resource, t.seat())
    if verb == "hit":
        return Hit(t.ship())
    if verb in ("done", "stop"):
        return Done()
    if verb == "return":
        return _parse_return(t)
    if verb == "roll":
        return Roll(t.dice())
    if verb == "reveal":
        return Reveal(t.card())
    if verb == "first":
        return FirstPlayer(t.seat())
    raise InvalidNotationError("notation.unknown_verb", word=verb, expected=", ".join(VERBS))


def _parse_use(t: _Tokens) -> Action:
    card = t.card()
    if card == "booster":
        return Boost(t.die())
    if card == "stasis":
        return Stasis(t.die())
    if card == "polarity":
        return Polarize(t.die())
    if card == "gravity":
        if t.optional("down", "-"):
            down = t.die()
            t.word("up", "+")
            return Gravity(down, t.die())
        down = t.die()
        return Gravity(down, t.die())
    if card == "warper":
        return Warp(t.dice())
    if card == "crystal":
        return Crystal(t.territory())
    if card == "teleporter":
        source = t.facility()
        die = t.die()
        t.optional("to")
        return Teleport(source, die, t.facility(), t.dice(at_least=0))
    if card == "helm":
        source = t.facility()
        ship = t.ship()
        t.optional("to")
        return Helm(source, ship, t.facility(), t.dice(at_least=0))
    if card == "plasma":
        return Plasma(t.facility(), t.ship())
    raise t.fail("a card with a fuel power")


def _parse_discard(t: _Tokens) -> Action:
    card = t.card()
    if card in ("stasis", "crystal", "gravity"):
        return DiscardField(card, t.territory())
    if card == "booster":
        return DiscardBooster(t.field())
    if card == "teleporter":
        owner = t.seat()
        source = t.territory()
        t.optional("to")
        return DiscardTeleporter(owner, source, t.territory())
    if card == "polarity":
        a = (t.seat(), t.territory())
        t.optional("with", "and")
        b = (t.seat(), t.territory())
        # The swap is symmetric: write it in one order (territories as in TERRITORIES).
        first, second = sorted((a, b), key=lambda x: (TERRITORIES.index(x[1]), x[0]))
        return DiscardPolarity(first[0], first[1], second[0], second[1])
    if card == "plasma":
        return DiscardPlasma(t.facility(), t.ship())
    if card == "warper":
        return DiscardWarper(t.card())
    raise t.fail("a card with a discard power")


def _parse_return(t: _Tokens) -> ReturnExcess:
    amounts = {"fuel": 0, "ore": 0}
    while t.more():
        w = t.peek()
        m = re.match(r"^(\d+)([fo]?)$", w)
        if not m:
            raise t.fail("amounts like `2 fuel 1 ore`")
        t.take()
        n = int(m.group(1))
        kind = {"f": "fuel", "o": "ore"}.get(m.group(2)) or t.word("fuel", "ore")
        amounts[kind] += n
    return ReturnExcess(amounts["fuel"], amounts["ore"])

"""What an alien tech card is (R-TECH-1..4): its id, its copies in the deck, its victory
points and its powers, declared in the card's own module as ``CARD = Card(...)``; and the
catalogue of the cards in play, which ``engine.rulebook`` fills (``register_card``).

The catalogue is read when the rules run, never when modules load, so the card modules
below it can consult it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Literal

from engine.config import GameConfig
from engine.rule import Rule
from engine.state import GameState
from engine.tables import CARDS, CardId

Option = Literal["mind_control_helm"]


@dataclass(frozen=True, eq=False)
class Card:
    """An alien tech card. ``names`` are its other names in the notation; ``use`` is its
    fuel power (``use <card> ...``), ``discard`` its discard power (``discard <card> ...``);
    ``after_roll`` acts right after its owner's roll (R-TURN-2); ``option`` is the game
    option without which the deck holds no copy."""

    id: CardId
    names: tuple[str, ...] = ()  # how the notation may also write it ("booster pod", "pod")
    use: Rule[int, Any] | None = None
    discard: Rule[int, Any] | None = None
    copies: int = 2
    vp: int = 0
    option: Option | None = None
    after_roll: Callable[[GameState, int], None] | None = None

    def copies_in(self, config: GameConfig) -> int:
        """Copies in the deck of a game with this config (section 1)."""
        if self.option is not None and not getattr(config, self.option):
            return 0
        return self.copies

    def powers(self) -> list[Rule[int, Any]]:
        return [r for r in (self.use, self.discard) if r is not None]


CATALOGUE: Final[dict[CardId, Card]] = {}  # by id


def deck_counts(config: GameConfig) -> tuple[int, ...]:
    """Copies of each card in a new deck, in CARDS order: 22, or 24 with the Helm option."""
    return tuple(CATALOGUE[card].copies_in(config) for card in CARDS)


def card_vp(card: CardId) -> int:
    """Victory points a card is worth to its owner (R-TECH-VP)."""
    return CATALOGUE[card].vp


def has_discard_power(card: CardId) -> bool:
    return CATALOGUE[card].discard is not None


def works_by_holding(card: CardId) -> bool:
    """Whether a card has neither a use nor a discard power: it works by being held."""
    return CATALOGUE[card].use is None and CATALOGUE[card].discard is None

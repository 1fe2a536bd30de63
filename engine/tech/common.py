"""What every alien tech card shares (R-TECH-1, R-TECH-2, R-TECH-3, Pohl Foothills): paying
for a fuel power, discarding a card, and the two kinds of rule a card's powers are.
"""

from __future__ import annotations

from typing import TypeVar

from engine.actions import Action, Die, OneShipAction
from engine.board import Refusal, find_die, log, pay, refuse
from engine.rule import POWER_VERBS, Power, TurnRule
from engine.state import GameState, Ship
from engine.tables import CARD_INDEX, DIE_FACES, CardId
from engine.tech.card import has_discard_power
from engine.territories import has_bonus
from engine.tokens import Tokens

A = TypeVar("A", bound=Action)
S = TypeVar("S", bound=OneShipAction)


class CardPower(TurnRule[A]):
    """A card's power, written ``use <card> ...`` (fuel) or ``discard <card> ...``.

    A power is listed only while its card is owned (and, for a discard, while no card
    was discarded this turn): ``legal_actions`` skips it otherwise, as its refusal would.
    """

    card: CardId
    power: Power

    def __init__(self, card: CardId) -> None:
        self.card = card
        self.kind = f"{POWER_VERBS[self.power]}_{card}"


class FuelPower(CardPower[A]):
    """A fuel power: own the card, pay ``fuel``, once per turn (R-TECH-2); then ``use``."""

    power = "fuel"

    def __init__(self, card: CardId, fuel: int) -> None:
        super().__init__(card)
        self.fuel = fuel

    def cost(self, s: GameState, p: int, a: A) -> int:
        """The fuel this use costs p now (Pohl Foothills included)."""
        return fuel_cost(s, p, self.fuel)

    def card_refusal(self, s: GameState, p: int) -> Refusal | None:
        """The card itself, before any argument: owned, unused, its fuel at hand."""
        return power_refusal(s, p, self.card, fuel_cost(s, p, self.fuel))

    def options(self, s: GameState, p: int) -> list[A]:
        # Nothing to look at when the card itself may not be used (the refusal would say so).
        return [] if self.card_refusal(s, p) else super().options(s, p)

    def refusal(self, s: GameState, p: int, a: A) -> Refusal | None:
        return power_refusal(s, p, self.card, self.cost(s, p, a)) or self.use_refusal(s, p, a)

    def use_refusal(self, s: GameState, p: int, a: A) -> Refusal | None:
        """The power's own conditions, once the card may be used and paid for."""
        return None

    def apply(self, s: GameState, p: int, a: A) -> None:
        use_power(s, p, self.card, self.cost(s, p, a))
        self.use(s, p, a)

    def use(self, s: GameState, p: int, a: A) -> None:
        """What the power does (paid already)."""
        raise NotImplementedError


class DiscardPower(CardPower[A]):
    """A discard power: discard the card, once per turn, not after using it (R-TECH-2);
    then ``use``."""

    power = "discard"

    def refusal(self, s: GameState, p: int, a: A) -> Refusal | None:
        return discard_refusal(s, p, self.card) or self.use_refusal(s, p, a)

    def use_refusal(self, s: GameState, p: int, a: A) -> Refusal | None:
        """The power's own conditions, once the card may be discarded."""
        return None

    def options(self, s: GameState, p: int) -> list[A]:
        # Nothing to look at when the card may not be discarded (the refusal would say so).
        return [] if discard_refusal(s, p, self.card) else super().options(s, p)

    def apply(self, s: GameState, p: int, a: A) -> None:
        discard_card(s, p, self.card)
        self.use(s, p, a)

    def use(self, s: GameState, p: int, a: A) -> None:
        """What the power does (the card is discarded already)."""
        raise NotImplementedError


class OneShipPower(FuelPower[S]):
    """A fuel power that changes the value of one undocked ship (R-TECH-3: within 1..6)."""

    tunes_ships = True

    def new_value(self, value: int) -> int:
        raise NotImplementedError

    exact = True

    def candidates(self, s: GameState, p: int) -> list[S]:
        return [
            self.action(d)
            for d in distinct_undocked(s)
            if 1 <= self.new_value(d.value) <= DIE_FACES
        ]

    def use_refusal(self, s: GameState, p: int, a: S) -> Refusal | None:
        if find_die(s.undocked, a.die) is None:
            return refuse("ship.not_undocked", value=str(a.die))
        if not 1 <= self.new_value(a.die.value) <= DIE_FACES:
            return refuse("ship.value_range")
        return None

    def use(self, s: GameState, p: int, a: S) -> None:
        set_undocked_value(s, a.die, self.new_value(a.die.value))

    def parse(self, t: Tokens) -> S:
        return self.action(t.die())


def fuel_cost(s: GameState, p: int, base: int) -> int:
    """Pohl Foothills: each use of a fuel power costs 1 fuel less, never below 0."""
    if has_bonus(s, p, "pohl"):
        return max(0, base - 1)
    return base


def power_refusal(s: GameState, p: int, card: CardId, cost: int) -> Refusal | None:
    """A fuel power: own the card, not used this turn, fuel to pay (R-TECH-2)."""
    if card not in s.players[p].cards:
        return refuse("card.not_owned", card=card)
    if card in s.turn.used:
        return refuse("card.used", card=card)
    if s.players[p].fuel < cost:
        return refuse("card.fuel", card=card, cost=cost, fuel=s.players[p].fuel)
    return None


def use_power(s: GameState, p: int, card: CardId, cost: int) -> None:
    pay(s, p, cost, 0)
    s.turn.used.append(card)
    log(s, "card_used", p, card=card, fuel=cost)


def discard_refusal(s: GameState, p: int, card: CardId) -> Refusal | None:
    """A discard power: own it, not used this turn, no other discard this turn (R-TECH-2)."""
    if card not in s.players[p].cards:
        return refuse("card.not_owned", card=card)
    if not has_discard_power(card):
        return refuse("card.no_discard", card=card)
    if s.turn.discarded:
        return refuse("card.one_discard")
    if card in s.turn.used:
        return refuse("card.used", card=card)
    return None


def discard_card(s: GameState, p: int, card: CardId) -> None:
    s.players[p].cards.remove(card)
    s.discard[CARD_INDEX[card]] += 1
    s.turn.discarded = True  # a copy gained later this turn is a fresh, unused card
    log(s, "card_discarded", p, card=card)


def distinct_undocked(s: GameState) -> list[Die]:
    return sorted({Die(x.value, x.relic) for x in s.undocked})


def set_undocked_value(s: GameState, die: Die, value: int) -> None:
    """R-TECH-3: callers keep values within 1..DIE_FACES."""
    i = find_die(s.undocked, die)
    assert i is not None
    old: Ship = s.undocked[i]
    s.undocked[i] = old.with_value(value)
    log(s, "ship_changed", s.current, old=die.value, new=value)

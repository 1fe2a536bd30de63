"""What every alien tech card shares (R-TECH-1, R-TECH-2, R-TECH-3, Pohl Foothills)."""

from __future__ import annotations

from engine.actions import Die
from engine.board import Refusal, log, pay, refuse
from engine.state import GameState, Ship
from engine.tables import CARD_INDEX, DISCARDABLE, FUEL_POWER_COST, CardId
from engine.territories import has_bonus


def fuel_cost(s: GameState, p: int, base: int) -> int:
    """Pohl Foothills: each use of a fuel power costs 1 fuel less, never below 0."""
    if has_bonus(s, p, "pohl"):
        return max(0, base - 1)
    return base


def power_cost(s: GameState, p: int, card: CardId) -> int:
    return fuel_cost(s, p, FUEL_POWER_COST[card])


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
    if card not in DISCARDABLE:
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


def undocked_index(s: GameState, die: Die) -> int | None:
    """Index of one of the current player's undocked ships matching the die."""
    for i, ship in enumerate(s.undocked):
        if ship.value == die.value and ship.relic == die.relic:
            return i
    return None


def distinct_undocked(s: GameState) -> list[Die]:
    return sorted({Die(x.value, x.relic) for x in s.undocked})


def set_undocked_value(s: GameState, die: Die, value: int) -> None:
    """R-TECH-3: callers keep values within 1..6."""
    i = undocked_index(s, die)
    assert i is not None
    old: Ship = s.undocked[i]
    s.undocked[i] = old.with_value(value)
    log(s, "ship_changed", s.current, old=die.value, new=value)

"""Orbital Market (R-MARKET): dock a pair; trade fuel at the pair's value for 1 ore.

Heinlein Plains: the rate is always 1 fuel per ore.
"""

from __future__ import annotations

from engine.actions import Trade
from engine.board import Refusal, gain, log, pay, refuse
from engine.facilities.base import Facility
from engine.rule import TurnRule
from engine.state import GameState, Ship
from engine.territories import has_bonus


def market_rate(s: GameState, p: int) -> int | None:
    """Fuel per ore for p now, or None if p has no pair docked at the market this turn."""
    if not s.turn.market_rates:
        return None
    if has_bonus(s, p, "heinlein"):
        return 1
    return min(s.turn.market_rates.values())


class TradeRule(TurnRule[Trade]):
    """Pay fuel at your rate for 1 ore, as often as you like this turn (R-MARKET)."""

    verbs = ("trade",)

    def refusal(self, s: GameState, p: int, a: Trade) -> Refusal | None:
        rate = market_rate(s, p)
        if rate is None:
            return refuse("market.no_pair")
        if s.players[p].fuel < rate:
            return refuse("market.no_fuel", rate=rate, fuel=s.players[p].fuel)
        if s.supply is not None and s.supply[1] == 0:
            return refuse("supply.no_ore")
        return None

    def apply(self, s: GameState, p: int, a: Trade) -> None:
        rate = market_rate(s, p)
        assert rate is not None
        pay(s, p, rate, 0)
        gain(s, p, ore=1)
        log(s, "traded", p, fuel=rate)


class OrbitalMarket(Facility):
    id = "market"
    pattern = "pair"

    def effect(self, s: GameState, p: int, ships: list[Ship], group: int) -> None:
        s.turn.market_rates[group] = ships[0].value


TRADE = TradeRule()

"""Colony Constructor (R-CONSTR): three equal values and 3 ore place a colony.

Bradbury Plateau: 2 ore.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.board import Refusal, pay, refuse
from engine.facilities.base import Facility
from engine.facilities.colonies import colony_refusal, take_colony
from engine.state import GameState, PlaceColonyDecision, Ship
from engine.territories import has_bonus


def constructor_cost(s: GameState, p: int) -> int:
    return 2 if has_bonus(s, p, "bradbury") else 3


class ColonyConstructor(Facility):
    id = "constructor"
    pattern = "triple"
    rule_by_ships = False  # the rule looks at the player, not at the values

    def rule_refusal(self, s: GameState, p: int, ships: Sequence[Ship]) -> Refusal | None:
        cost = constructor_cost(s, p)
        if s.players[p].ore < cost:
            return refuse("constructor.cost", ore=cost)
        return colony_refusal(s, p)

    def effect(self, s: GameState, p: int, ships: list[Ship], group: int) -> None:
        pay(s, p, 0, constructor_cost(s, p))
        take_colony(s, p)
        s.pending.insert(0, PlaceColonyDecision(p, "constructor"))

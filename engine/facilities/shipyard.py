"""Shipyard (R-YARD): dock a pair and pay to move a ship from your stock to the Maintenance Bay.

Cost by the number of your colour's ships in play, the new one included: 4th 1+1,
5th 2+2, 6th 3+3. Herbert Valley: 1 fuel and 1 ore less.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.board import Refusal, can_pay, colour_ships_in_play, log, pay, refuse, to_bay
from engine.facilities.base import Facility
from engine.state import GameState, Ship
from engine.tables import SHIPYARD_COST
from engine.territories import has_bonus


def ship_cost(s: GameState, p: int) -> int:
    """Fuel (and the same ore) the next ship costs p."""
    cost = SHIPYARD_COST[colour_ships_in_play(s, p) + 1]
    if has_bonus(s, p, "herbert"):
        cost -= 1
    return cost


class Shipyard(Facility):
    id = "yard"
    pattern = "pair"
    rule_by_ships = False  # the rule looks at the player, not at the values

    def rule_refusal(self, s: GameState, p: int, ships: Sequence[Ship]) -> Refusal | None:
        if s.players[p].stock == 0:
            return refuse("yard.no_stock")
        cost = ship_cost(s, p)
        if not can_pay(s, p, cost, cost):
            return refuse("yard.cost", fuel=cost, ore=cost)
        return None

    def effect(self, s: GameState, p: int, ships: list[Ship], group: int) -> None:
        cost = ship_cost(s, p)
        pay(s, p, cost, cost)
        s.players[p].stock -= 1
        to_bay(s, Ship(p, 1))
        log(s, "ship_built", p, number=colour_ships_in_play(s, p))

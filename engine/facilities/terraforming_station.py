"""Terraforming Station (R-TERR): a 6 and 1 fuel + 1 ore place a colony; the ship is used up.

R-TERR-MIN: not if it would leave you fewer than 3 ships of your colour.
The ship goes to the stock at its owner's next turn (see engine.turn); the relic
ship goes to Burroughs Desert instead (R-TERR-BURR).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from engine.board import Refusal, can_pay, colour_ships_in_play, pay, refuse
from engine.facilities.base import Facility
from engine.facilities.colonies import colony_refusal, take_colony
from engine.state import GameState, PlaceColonyDecision, Ship
from engine.tables import DIE_FACES, MIN_COLOUR_SHIPS


class TerraformingStation(Facility):
    id = "terraform"
    pattern = "single"
    values: ClassVar[frozenset[int]] = frozenset({DIE_FACES})  # a 6

    def rule_refusal(self, s: GameState, p: int, ships: Sequence[Ship]) -> Refusal | None:
        ship = ships[0]
        if ship.value not in self.values:
            return refuse("terraform.needs_six", value=ship.value)
        if ship.owner != p:
            return refuse("terraform.not_own")
        if not ship.relic and colour_ships_in_play(s, p) - 1 < MIN_COLOUR_SHIPS:
            return refuse("terraform.min_ships", minimum=MIN_COLOUR_SHIPS)
        if not can_pay(s, p, 1, 1):
            return refuse("terraform.cost")
        return colony_refusal(s, p)

    def effect(self, s: GameState, p: int, ships: list[Ship], group: int) -> None:
        pay(s, p, 1, 1)
        take_colony(s, p)
        s.pending.insert(0, PlaceColonyDecision(p, "terraform"))

"""Solar Converter (R-SOLAR): any value; ceil(value/2) fuel per ship, +1 with Lem Badlands."""

from __future__ import annotations

from engine.board import gain, log
from engine.facilities.base import Facility
from engine.state import GameState, Ship
from engine.territories import has_bonus


def solar_fuel(value: int) -> int:
    """1->1, 2->1, 3->2, 4->2, 5->3, 6->3."""
    return (value + 1) // 2


class SolarConverter(Facility):
    id = "solar"
    pattern = "single"

    def effect(self, s: GameState, p: int, ships: list[Ship], group: int) -> None:
        bonus = 1 if has_bonus(s, p, "lem") else 0
        fuel, _ = gain(s, p, fuel=sum(solar_fuel(ship.value) + bonus for ship in ships))
        log(s, "gained_fuel", p, amount=fuel)

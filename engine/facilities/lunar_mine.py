"""Lunar Mine (R-MINE): each ship at least the highest docked there; 1 ore per ship.

Van Vogt Mountains: the first ship you dock here each turn may be any value.
Neutral blockers (value 1) count as docked ships, and so never block anything.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.actions import Dock
from engine.board import Refusal, gain, log, refuse
from engine.facilities.base import Facility, PoolGroups
from engine.state import GameState, Ship
from engine.territories import has_bonus


def mine_minimum(s: GameState) -> int:
    """The lowest value the Lunar Mine accepts now."""
    return max([ship.value for ship in s.docks["mine"] if ship is not None], default=1)


class LunarMine(Facility):
    id = "mine"
    pattern = "single"

    def minimum(self, s: GameState, p: int) -> int:
        """The lowest value p may dock here now: any for Van Vogt's first ship this turn."""
        if s.turn.mine_docks == 0 and has_bonus(s, p, "vanvogt"):
            return 1
        return mine_minimum(s)

    def rule_refusal(self, s: GameState, p: int, ships: Sequence[Ship]) -> Refusal | None:
        if ships[0].value >= self.minimum(s, p):
            return None
        low = mine_minimum(s)
        shown = s.undocked if ships[0] in s.undocked else ships  # a moved ship: name it
        return refuse(
            "mine.too_low",
            minimum=low,
            ships=", ".join(str(x.value) for x in sorted(shown, key=lambda x: x.value)),
        )

    def dockable(self, s: GameState, p: int, groups: PoolGroups, docks: list[Dock]) -> list[Dock]:
        # The rule is the minimum: look it up once for every ship.
        if not self.may_have_room(s, p):
            return []
        low = self.minimum(s, p)
        return [dock for dock in docks if dock.dice[0].value >= low]

    def effect(self, s: GameState, p: int, ships: list[Ship], group: int) -> None:
        s.turn.mine_docks += len(ships)
        _, ore = gain(s, p, ore=len(ships))
        log(s, "gained_ore", p, amount=ore)

"""Colony Hub (R-HUB-1..6): your own track of 3 docks and 7 spaces.

Any values. With no colony on your track the first ship puts one on space 1;
every other ship moves it one space. On space 7 it may be launched for 1 fuel +
1 ore. Asimov Crater adds one space once per turn when you have docked more than
one ship here this turn. Steps past space 7 are kept only for an immediate launch.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.actions import Launch
from engine.board import Refusal, can_pay, log, pay, refuse
from engine.facilities.base import Facility
from engine.rule import TurnRule
from engine.state import GameState, PlaceColonyDecision, Ship
from engine.tables import HUB_DOCKS, HUB_TRACK_LENGTH
from engine.territories import has_bonus


class ColonyHub(Facility):
    id = "hub"
    pattern = "any"
    rule_by_ships = False  # the rule looks at the player, not at the values

    def group_sizes(self, s: GameState, p: int) -> range:
        return range(1, HUB_DOCKS - len(s.hub_docks[p]) + 1)

    def may_have_room(self, s: GameState, p: int) -> bool:
        return len(s.hub_docks[p]) < HUB_DOCKS

    def room_refusal(self, s: GameState, p: int, ships: Sequence[Ship]) -> Refusal | None:
        free = HUB_DOCKS - len(s.hub_docks[p])
        if len(ships) > free:
            return refuse("hub.full", free=free)
        return None

    def rule_refusal(self, s: GameState, p: int, ships: Sequence[Ship]) -> Refusal | None:
        pl = s.players[p]
        if pl.hub == HUB_TRACK_LENGTH:
            return refuse("hub.launch_first")
        if pl.hub == 0 and pl.colonies == 0:
            return refuse("colony.none_left")
        return None

    def put(self, s: GameState, p: int, ships: list[Ship]) -> int:
        s.hub_docks[p].extend(ships)
        return 0

    def effect(self, s: GameState, p: int, ships: list[Ship], group: int) -> None:
        pl = s.players[p]
        steps = len(ships)
        if pl.hub == 0:
            pl.colonies -= 1  # the first ship puts the colony on space 1
        position = pl.hub + steps
        s.turn.hub_docks += steps
        if s.turn.hub_docks > 1 and not s.turn.asimov_used and has_bonus(s, p, "asimov"):
            s.turn.asimov_used = True
            position += 1
        if position > HUB_TRACK_LENGTH:
            s.turn.hub_overflow = position - HUB_TRACK_LENGTH
            position = HUB_TRACK_LENGTH
        pl.hub = position
        log(s, "hub_advanced", p, space=position)


class LaunchRule(TurnRule[Launch]):
    """R-HUB-2: pay and place the colony; leftover steps wait for the placement (R-HUB-3)."""

    verbs = ("launch",)
    keeps_hub_steps = True

    def refusal(self, s: GameState, p: int, a: Launch) -> Refusal | None:
        if s.players[p].hub == 0:
            return refuse("hub.no_colony")
        if s.players[p].hub != HUB_TRACK_LENGTH:
            return refuse("hub.not_ready", space=s.players[p].hub)
        if not can_pay(s, p, 1, 1):
            return refuse("hub.launch_cost")
        return None

    def apply(self, s: GameState, p: int, a: Launch) -> None:
        pay(s, p, 1, 1)
        s.players[p].hub = 0
        log(s, "launched", p)
        s.pending.insert(0, PlaceColonyDecision(p, "launch"))


def start_next_colony(s: GameState, p: int) -> None:
    """After a launched colony is placed, leftover steps start the next colony (R-HUB-3)."""
    pl = s.players[p]
    left = s.turn.hub_overflow
    s.turn.hub_overflow = 0
    if left and pl.colonies > 0 and not s.over:
        pl.colonies -= 1
        pl.hub = min(left, HUB_TRACK_LENGTH)


LAUNCH = LaunchRule()

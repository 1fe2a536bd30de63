"""Docking (R-TURN-3, R-TURN-5): ``dock <facility> <ships>`` puts undocked ships on a
facility, whose own rule (engine.facilities) says which ships it takes and what it gives.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.actions import Die, Dock
from engine.board import Refusal, pop_dice, refuse, take_dice
from engine.facilities import FACILITY_RULES
from engine.facilities.base import GroupCache, pool_groups
from engine.rule import TurnRule
from engine.state import GameState
from engine.tables import FACILITY_ORDER, FacilityId
from engine.tokens import Tokens

_ALL: Final = tuple(FACILITY_RULES.values())  # in board order, the order docks are listed


def dock_options(
    s: GameState,
    p: int,
    first_only: bool = False,
    facilities: Sequence[FacilityId] | None = None,
) -> list[Dock]:
    """Every legal way to dock undocked ships now (R-TURN-3, R-TURN-5), at ``facilities``
    (all of them unless told: the bot asks about one facility at a time)."""
    out: list[Dock] = []
    if not s.undocked:
        return out
    groups = pool_groups(tuple(sorted([(x.value, x.relic) for x in s.undocked])))
    chosen = _ALL if facilities is None else tuple([FACILITY_RULES[f] for f in facilities])
    for rules, docks in groups.shaped(chosen):
        out += rules.dockable(s, p, groups, docks)
        if first_only and out:
            return out[:1]
    return out


class DockRule(TurnRule[Dock]):
    verbs = ("dock",)

    def candidates(self, s: GameState, p: int) -> list[Dock]:
        groups = GroupCache(s.undocked)
        return [
            Dock(f, tuple(sorted(Die(x.value, x.relic) for x in group)))
            for f in FACILITY_ORDER
            for group in FACILITY_RULES[f].candidates_from(s, p, groups, None)
        ]

    def options(self, s: GameState, p: int) -> list[Dock]:
        # The candidates the refusal lets through, found fast (Facility.dockable).
        return dock_options(s, p)

    def refusal(self, s: GameState, p: int, a: Dock) -> Refusal | None:
        ships = take_dice(s.undocked, a.dice)
        if ships is None or not a.dice:
            have = ", ".join(str(x.value) + ("r" if x.relic else "") for x in s.undocked)
            return refuse("ship.not_yours", dice=" ".join(map(str, a.dice)), ships=have or "none")
        return FACILITY_RULES[a.facility].refusal(s, p, ships)

    def apply(self, s: GameState, p: int, a: Dock) -> None:
        ships = pop_dice(s.undocked, a.dice)
        FACILITY_RULES[a.facility].dock(s, p, ships)

    def parse(self, t: Tokens) -> Dock:
        return Dock(t.facility(), t.dice())

    def group(self, a: Dock) -> str:
        return f"dock_{a.facility}"


DOCK = DockRule()

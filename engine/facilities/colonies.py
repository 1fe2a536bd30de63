"""Where a colony placed by the Terraforming Station or Colony Constructor comes from,
and where a colony goes: the answer to a pending ``place`` decision.

R-HUB-4: your last unplaced colony is not bound to the Colony Hub; if it sits on
your track, those facilities may take it from there.
"""

from __future__ import annotations

from typing import Final

from engine.actions import Place
from engine.board import Refusal, refuse
from engine.facilities.colony_hub import start_next_colony
from engine.rule import AnswerRule
from engine.state import GameState, PlaceColonyDecision
from engine.tables import TERRITORIES
from engine.territories import place_colony, repulsed
from engine.tokens import Tokens


def colony_refusal(s: GameState, p: int) -> Refusal | None:
    pl = s.players[p]
    if pl.colonies > 0 or pl.hub > 0:
        return None
    return refuse("colony.none_left")


def take_colony(s: GameState, p: int) -> None:
    pl = s.players[p]
    if pl.colonies > 0:
        pl.colonies -= 1
    else:
        pl.hub = 0  # R-HUB-4: the last colony leaves the track


_PLACES: Final = [Place(t) for t in TERRITORIES]  # the actions are values: built once


class PlaceRule(AnswerRule[PlaceColonyDecision, Place]):
    """Put the colony on a territory (R-COL-1) that no Repulsor Field closes (R-FIELD-REP)."""

    verbs = ("place",)
    keeps_hub_steps = True  # R-HUB-3: the launch's leftover steps start the next colony

    exact = True

    def candidates(self, s: GameState, d: PlaceColonyDecision) -> list[Place]:
        return [a for a in _PLACES if not repulsed(s, a.territory)]

    def refusal(self, s: GameState, d: PlaceColonyDecision, a: Place) -> Refusal | None:
        return (
            refuse("colony.repulsor", territory=a.territory) if repulsed(s, a.territory) else None
        )

    def apply(self, s: GameState, d: PlaceColonyDecision, a: Place) -> None:
        s.pending.pop(0)
        place_colony(s, d.player, a.territory)
        if d.source == "launch":
            start_next_colony(s, d.player)

    def parse(self, t: Tokens) -> Place:
        return Place(t.territory())


PLACE = PlaceRule()

"""Where a colony placed by the Terraforming Station or Colony Constructor comes from.

R-HUB-4: your last unplaced colony is not bound to the Colony Hub; if it sits on
your track, those facilities may take it from there.
"""

from __future__ import annotations

from engine.board import Refusal, refuse
from engine.state import GameState


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

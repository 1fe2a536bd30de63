"""The skipped turn: what is played for a member whose turn timed out with the ``skip``
action. It ends the turn with the fewest moves the rules allow, always one of
``legal_actions``, by a fixed choice (no chance, no look-ahead):

1. End the turn as soon as that is legal (R-TURN-4).
2. Ships that must dock (R-TURN-3): the dock that places the most ships at once; among
   those, the first facility in ``SKIP_DOCK_ORDER`` — facilities that cost nothing come
   before those that spend the member's resources — then the lowest dice.
3. A colony to place: the first territory in the board's order (``TERRITORIES``).
4. A raid or a Plasma Cannon shot: stop at once (``done``); if a pick is required, the first.
5. Resources above the limit (R-TURN-7): fuel is returned first, ore kept (ore is the
   scarcer resource), i.e. the return with the most fuel.
6. Anything else (a decision of an unforeseen kind): the first legal action.
"""

from __future__ import annotations

from typing import Final

from engine.actions import Action, Dock, Done, EndTurn, Place, ReturnExcess
from engine.legal import legal_actions
from engine.state import GameState
from engine.tables import TERRITORIES, FacilityId

SKIP_DOCK_ORDER: Final[tuple[FacilityId, ...]] = (
    "solar",
    "mine",
    "hub",
    "artifact",
    "market",
    "raiders",
    "yard",
    "constructor",
    "terraform",
)
_DOCK_RANK: Final = {f: i for i, f in enumerate(SKIP_DOCK_ORDER)}
_TERRITORY_RANK: Final = {t: i for i, t in enumerate(TERRITORIES)}


def skip_move(state: GameState) -> Action:
    """The move a skipped turn makes in ``state`` (see the module docstring)."""
    options = legal_actions(state)
    if not options:
        raise ValueError("no legal action: the game is over or waits on chance")
    for a in options:
        if isinstance(a, EndTurn):
            return a
    docks = [a for a in options if isinstance(a, Dock)]
    if docks:
        return min(
            docks,
            key=lambda d: (
                -len(d.dice),
                _DOCK_RANK.get(d.facility, len(_DOCK_RANK)),
                tuple((x.value, x.relic) for x in d.dice),
            ),
        )
    places = [a for a in options if isinstance(a, Place)]
    if places:
        return min(places, key=lambda a: _TERRITORY_RANK[a.territory])
    for a in options:
        if isinstance(a, Done):
            return a
    returns = [a for a in options if isinstance(a, ReturnExcess)]
    if returns:
        return max(returns, key=lambda a: (a.fuel, -a.ore))
    return options[0]


class SkipPlayer:
    """A chooser (the ``AIPlayer`` shape) that plays ``skip_move``."""

    level = "skip"

    def choose(self, state: GameState) -> Action:
        return skip_move(state)


__all__ = ["SKIP_DOCK_ORDER", "SkipPlayer", "skip_move"]

"""Easy: one step of look-ahead with a plain evaluation and some noise.

It never wastes a six the Terraforming Station could use, and otherwise docks where
the immediate gain looks best, so a new player can beat it.
"""

from __future__ import annotations

from typing import Final

from engine.actions import Action, Dock
from engine.ai.base import AIPlayer, after
from engine.ai.evaluate import Evaluator, Weights
from engine.state import GameState

EASY_WEIGHTS: Final = Weights(
    ship=(0.8, 0.8, 0.8),
    fragile=0.0,
    contest=0.0,
    repulsor_lock=0.0,
    raid=0.0,
    undocked_die=0.0,
    artifact_step=0.03,
)
NOISE: Final = 0.12  # VP: how far from the best an easy choice may stray


class EasyAI(AIPlayer):
    """Greedy over single actions, with noise."""

    level = "easy"

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.ev = Evaluator(EASY_WEIGHTS)

    def _choose(self, s: GameState, seat: int, acts: list[Action]) -> Action:
        if len(acts) == 1:
            return acts[0]
        for a in acts:
            if isinstance(a, Dock) and a.facility == "terraform":
                return a  # never waste a six the Terraforming Station can use
        rng = self.rng_for(s)
        best = acts[0]
        best_score = float("-inf")
        for a in acts:
            sc = self.ev.score(after(s, a), seat) + rng.gauss(0.0, NOISE)
            if sc > best_score:
                best, best_score = a, sc
        return best

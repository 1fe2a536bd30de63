"""Normal: plans its whole turn with a beam search over its own actions and the
hand-written evaluation, then follows the plan while the game goes as planned.
"""

from __future__ import annotations

from typing import Final

from engine.actions import Action
from engine.ai.base import AIPlayer, after
from engine.ai.evaluate import DEFAULT_WEIGHTS, Evaluator, Weights
from engine.ai.planner import Key, TurnPlanner, state_key
from engine.state import GameState

NORMAL_WEIGHTS: Final = DEFAULT_WEIGHTS  # tuned by self-play (tools/tune_weights.py)
MAX_NODES: Final = 1200  # states generated per plan; past it the beam narrows to finish the turn


class PlanFollower(AIPlayer):
    """Keeps the rest of a plan per seat and the state it expects next."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self._plans: dict[int, tuple[Key, list[Action]]] = {}

    def _choose(self, s: GameState, seat: int, acts: list[Action]) -> Action:
        kept = self._plans.pop(seat, None)
        a: Action | None = None
        rest: list[Action] = []
        if kept is not None and kept[1] and kept[0] == state_key(s) and kept[1][0] in acts:
            a, rest = kept[1][0], kept[1][1:]
        elif len(acts) == 1:
            a = acts[0]
        else:
            planned = self.make_plan(s, seat)
            if planned and planned[0] in acts:
                a, rest = planned[0], planned[1:]
        if a is None:
            a = acts[0]
        if rest:
            self._plans[seat] = (state_key(after(s, a)), rest)
        return a

    def make_plan(self, s: GameState, seat: int) -> list[Action]:
        raise NotImplementedError


class NormalAI(PlanFollower):
    """One-turn look-ahead over its own docking plans."""

    level = "normal"

    def __init__(
        self,
        seed: int,
        width: int = 16,
        lookahead: int = 1,
        weights: Weights = NORMAL_WEIGHTS,
        max_nodes: int = MAX_NODES,
    ) -> None:
        super().__init__(seed)
        self.width = width
        self.max_nodes = max_nodes
        self.lookahead = lookahead
        self.ev = Evaluator(weights)

    def make_plan(self, s: GameState, seat: int) -> list[Action]:
        planner = TurnPlanner(
            seat,
            self.ev,
            self.rng_for(s),
            self.width,
            lookahead=self.lookahead,
            max_nodes=self.max_nodes,
        )
        plans = planner.plan(s)
        return plans[0].actions if plans else []

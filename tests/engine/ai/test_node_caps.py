"""The searches are bounded by counts of states generated (nodes), never by time: each
plan of the normal level and each decision of the hard level stays within a cap that
follows from its settings, on decisions of every kind."""

from __future__ import annotations

import random

from engine import GameState
from engine.ai import make_ai
from engine.ai.evaluate import Evaluator
from engine.ai.hard import HardAI
from engine.ai.normal import MAX_NODES, NormalAI
from engine.ai.planner import TurnPlanner

# A node past the budget may still finish expanding: one state's actions and the
# one-step look-ahead of the last of them (fewer than this many in any position).
OVERSHOOT = 400


def test_turn_planner_stops_near_its_node_budget(
    decision_states: dict[str, list[GameState]],
) -> None:
    budgets = (50, 300)
    worst = dict.fromkeys(budgets, 0)
    for s in decision_states["turn"]:
        for budget in budgets:
            p = TurnPlanner(s.current, Evaluator(), random.Random(1), 16, max_nodes=budget)
            assert p.plan(s), "a plan is always found"
            worst[budget] = max(worst[budget], p.nodes)
    for budget in budgets:
        assert worst[budget] <= budget + OVERSHOOT, (budget, worst[budget])
    assert worst[300] > 300  # the cap is reached, so it is what stops the search


def test_normal_plans_within_its_cap(decision_states: dict[str, list[GameState]]) -> None:
    counted: list[int] = []
    original = TurnPlanner.plan

    def counting(self: TurnPlanner, root: GameState) -> list:  # type: ignore[type-arg]
        out = original(self, root)
        counted.append(self.nodes)
        return out

    TurnPlanner.plan = counting  # type: ignore[method-assign]
    try:
        for i, s in enumerate(decision_states["turn"]):
            NormalAI(i).choose(s)
    finally:
        TurnPlanner.plan = original  # type: ignore[method-assign]
    assert counted and max(counted) <= MAX_NODES + OVERSHOOT


def test_hard_decision_nodes_are_bounded(decision_states: dict[str, list[GameState]]) -> None:
    for i, s in enumerate(decision_states["turn"][::4]):
        ai = HardAI(i, width=8, plan_nodes=200, rollouts=4, rollout_nodes=40, turn_nodes=600)
        ai.choose(s)
        # the own-turn search, then at most 4 rollouts of one opponent turn each
        assert ai.nodes <= 200 + OVERSHOOT + 4 * (40 + OVERSHOOT)
        assert ai.rollouts <= 4


def test_make_ai_hard_has_a_fixed_size() -> None:
    ai = make_ai("hard", seed=1)
    assert isinstance(ai, HardAI) and ai.budget_ms is None

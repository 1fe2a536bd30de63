"""Hard: plans its turn with a wider beam, then weighs its best plans by determinized
rollouts: the opponents' next turns are played out with sampled dice by a fast greedy
policy, and each plan is judged by the average evaluation it leads to.

The same sampled dice are used for every plan (common random numbers), and the
weaker half of the plans is dropped after a few samples (successive halving). The
search stops at a time budget per turn (the one allowed non-determinism) or, when
``iterations`` is given, after that many rollouts (fully deterministic).
"""

from __future__ import annotations

import random
import time
from typing import Final

from engine.actions import Action
from engine.ai.base import mix
from engine.ai.evaluate import DEFAULT_WEIGHTS, Evaluator, Weights
from engine.ai.normal import PlanFollower
from engine.ai.planner import Plan, TurnPlanner, state_key
from engine.chance import sample_chance
from engine.rules import apply_in_place
from engine.state import CHANCE, GameState

DEFAULT_BUDGET_MS: Final = 1400
MIN_SHARE: Final = 0.25  # a replan mid-turn still gets this share of the budget
BEAM_SHARE: Final = 0.4  # past this share of the time, the beam narrows to finish the turn
HALVING_AT: Final = (3, 6, 12, 24, 48)  # samples after which the weaker half is dropped


class HardAI(PlanFollower):
    """Beam search over its own turn plus rollouts of the opponents' replies."""

    level = "hard"

    def __init__(
        self,
        seed: int,
        budget_ms: int | None = None,
        iterations: int | None = None,
        width: int = 32,
        candidates: int = 6,
        rollout_width: int = 1,
        own_turn: bool = False,
        weights: Weights = DEFAULT_WEIGHTS,
    ) -> None:
        super().__init__(seed)
        self.budget_ms = DEFAULT_BUDGET_MS if budget_ms is None else budget_ms
        self.iterations = iterations
        self.width = width
        self.candidates = candidates
        self.rollout_width = rollout_width
        self.own_turn = own_turn  # also play out its own next turn in rollouts
        self.ev = Evaluator(weights)
        self._turn: tuple[int, int] = (-1, -1)
        self._spent = 0.0  # seconds spent planning in the current turn
        self.rollouts = 0  # rollouts run, in all (for benchmarks)

    def make_plan(self, s: GameState, seat: int) -> list[Action]:
        start = time.perf_counter()
        if self._turn != (s.turn_number, seat):
            self._turn = (s.turn_number, seat)
            self._spent = 0.0
        budget = self.budget_ms / 1000.0
        deadline = start + max(budget - self._spent, MIN_SHARE * budget)
        try:
            return self._search(s, seat, start, deadline)
        finally:
            self._spent += time.perf_counter() - start

    def _search(self, s: GameState, seat: int, start: float, deadline: float) -> list[Action]:
        beam_deadline = None
        if self.iterations is None:
            beam_deadline = start + BEAM_SHARE * (deadline - start)
        planner = TurnPlanner(
            seat, self.ev, self.rng_for(s), self.width, branch_place=True, deadline=beam_deadline
        )
        plans = planner.plan(s)
        if not plans:
            return []
        top: list[Plan] = []
        seen: set[object] = set()
        for p in plans:
            k = state_key(p.end)
            if k not in seen:
                seen.add(k)
                top.append(p)
            if len(top) == self.candidates:
                break
        if len(top) == 1 or top[0].end.over:
            return top[0].actions
        totals = [0.0] * len(top)
        counts = [0] * len(top)
        alive = list(range(len(top)))
        samples = 0
        budget = self.iterations
        done = 0
        while True:
            for i in alive:
                if budget is not None and done >= budget:
                    break
                if budget is None and done and time.perf_counter() > deadline:
                    break
                totals[i] += self.rollout(top[i].end, seat, mix(self.seed, s.version, samples))
                counts[i] += 1
                done += 1
            else:
                samples += 1
                if samples in HALVING_AT and len(alive) > 2:
                    alive.sort(key=lambda i: (-totals[i] / counts[i], i))
                    alive = sorted(alive[: max(2, (len(alive) + 1) // 2)])
                continue
            break
        self.rollouts += done
        best = max(alive, key=lambda i: (totals[i] / counts[i] if counts[i] else top[i].score, -i))
        return top[best].actions

    def rollout(self, end: GameState, me: int, seed: int) -> float:
        """Play the opponents' turns until ``me`` is to roll again; score the state reached."""
        rng = random.Random(seed)
        st = end.copy()
        mine_done = not self.own_turn
        while not st.over:
            if st.to_act() == CHANCE:
                if st.current == me and mine_done:
                    break
                apply_in_place(st, sample_chance(st, rng))
                continue
            q = st.current
            if q == me:
                mine_done = True
            plans = TurnPlanner(q, self.ev, rng, self.rollout_width, lookahead=0).plan(st)
            if not plans:
                break
            st = plans[0].end
        return self.ev.score(st, me)

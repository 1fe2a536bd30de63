"""The turn planner: the canonical order of plain docks loses no way to end the turn."""

from __future__ import annotations

import random

from engine import CHANCE, GameConfig, GameState, apply_in_place, legal_actions, new_game
from engine.actions import Claim, Cycle, DiscardPlasma, Warp
from engine.ai.base import after
from engine.ai.evaluate import Evaluator
from engine.ai.planner import Plan, TurnPlanner, state_key
from engine.board import set_docks
from engine.selfplay import random_action
from engine.state import NEUTRAL, Ship


def end_states(s: GameState, canonical: bool) -> set[object]:
    """Every end of the turn an unbounded beam finds (plans that turn up no card)."""
    planner = TurnPlanner(s.current, Evaluator(), random.Random(0), 10**6, canonical=canonical)
    plans: list[Plan] = planner.plan(s)
    return {
        state_key(p.end)
        for p in plans
        if not any(isinstance(a, (Cycle, Claim, Warp)) for a in p.actions)
    }


def docking_only(found: GameState, dice: list[int] | None) -> GameState:
    """The state without alien tech cards and with the Artifact full (the orders of docks
    are under test, not the uses of cards, which are slow to search unbounded); with
    ``dice``, the current player's undocked ships show those values instead."""
    s = found.copy()
    for pl in s.players:
        pl.cards = []
    set_docks(s, "artifact", [x or Ship(NEUTRAL, 1) for x in s.docks["artifact"]])
    if dice is not None:
        s.undocked = [Ship(s.current, v) for v in sorted(dice)]
    return s


def test_canonical_dock_order_reaches_the_same_end_states(
    decision_states: dict[str, list[GameState]],
) -> None:
    rng = random.Random(5)
    checked = 0
    for i, found in enumerate(decision_states["turn"]):
        four = [rng.randint(1, 6) for _ in range(4)]
        for s in (docking_only(found, None), docking_only(found, four if i % 3 == 0 else None)):
            if len(s.undocked) < 2:
                continue
            assert end_states(s, canonical=True) == end_states(s, canonical=False)
            checked += 1
    assert checked >= 30


def test_a_key_read_from_the_parents_key_is_the_key_from_scratch(
    decision_states: dict[str, list[GameState]],
) -> None:
    """A search child's key reuses its parent's unchanged docks (``state_key``'s
    ``like``); it must be the key computed from scratch, or the search would change."""
    checked = 0
    for states in decision_states.values():
        for s in states:
            key = state_key(s)
            for a in legal_actions(s):
                child = after(s, a)
                assert state_key(child, (s, key)) == state_key(child), (str(a), s.turn_number)
                checked += 1
    assert checked >= 500


def test_a_planner_never_searches_the_kinds_of_action_it_is_told_to_leave_out() -> None:
    rng = random.Random(7)
    ev = Evaluator()
    found = 0
    for _ in range(40):
        s = new_game(GameConfig(players=2))
        while not s.over and found < 3:
            if s.to_act() != CHANCE and not s.pending:
                full = TurnPlanner(s.current, ev, random.Random(0))
                if any(type(a) is DiscardPlasma for a in full.candidates(s)):
                    found += 1
                    never = TurnPlanner(
                        s.current, ev, random.Random(0), never=frozenset({DiscardPlasma})
                    )
                    kept = [a for a in full.candidates(s) if type(a) is not DiscardPlasma]
                    assert never.candidates(s) == kept
                    plans = never.plan(s)
                    assert plans and not any(
                        type(a) is DiscardPlasma for p in plans for a in p.actions
                    )
            apply_in_place(s, random_action(s, rng))
        if found >= 3:
            return
    raise AssertionError(f"only {found} states with a Plasma Cannon discard to search")

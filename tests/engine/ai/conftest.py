"""Shared helpers for the AI tests: seeded games and harvested decision states."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import pytest

from engine import CHANCE, GameConfig, GameState, apply_in_place, legal_actions, new_game
from engine.actions import Action
from engine.ai import AIPlayer, RandomAI
from engine.ai.hard import HardAI
from engine.chance import sample_chance
from engine.state import (
    PlaceColonyDecision,
    PlasmaDecision,
    RaidDecision,
    ReturnExcessDecision,
)

Chooser = Callable[[GameState], Action]


def quick_hard(seed: int, plan_nodes: int = 300, rollouts: int = 4) -> HardAI:
    """A hard AI with a small node budget (fast tests); like every hard AI without a
    ``budget_ms``, its choices depend only on the seed and the state."""
    return HardAI(seed, width=8, plan_nodes=plan_nodes, rollouts=rollouts)


def play_game(
    players: Sequence[AIPlayer],
    seed: int,
    on_decision: Callable[[GameState, Action], None] | None = None,
    max_actions: int = 20_000,
    max_turns: int | None = None,
) -> tuple[GameState, list[Action]]:
    """One seeded game (or its first ``max_turns`` turns); ``on_decision`` sees every AI
    choice with the state it was made in."""
    rng = random.Random(seed)
    s = new_game(GameConfig(players=len(players)))
    log: list[Action] = []
    while not s.over and len(log) < max_actions:
        if max_turns is not None and s.turn_number > max_turns:
            break
        seat = s.to_act()
        if seat == CHANCE:
            a = sample_chance(s, rng)
        else:
            a = players[seat].choose(s)
            if on_decision is not None:
                on_decision(s, a)
        apply_in_place(s, a)
        log.append(a)
    return s, log


def decision_kind(s: GameState) -> str:
    """``turn`` for a free action, else the pending decision's kind."""
    if not s.pending:
        return "turn"
    d = s.pending[0]
    kinds: dict[type, str] = {
        PlaceColonyDecision: "place",
        RaidDecision: "raid",
        PlasmaDecision: "plasma",
        ReturnExcessDecision: "return",
    }
    return kinds.get(type(d), "chance")


def harvest(
    seeds: range, per_kind: int, players: int = 2, turns: int | None = None
) -> dict[str, list[GameState]]:
    """States where a seat must act, by decision kind, from seeded random games."""
    found: dict[str, list[GameState]] = {}
    for seed in seeds:
        rng = random.Random(seed)
        bots = [RandomAI(seed * 10 + p) for p in range(players)]
        s = new_game(GameConfig(players=players))
        while not s.over:
            seat = s.to_act()
            if seat == CHANCE:
                apply_in_place(s, sample_chance(s, rng))
                continue
            kind = decision_kind(s)
            bucket = found.setdefault(kind, [])
            acts = legal_actions(s)
            limit = turns if kind == "turn" and turns is not None else per_kind
            if len(acts) > 1 and len(bucket) < limit and rng.random() < 0.3:
                bucket.append(s.copy())
            apply_in_place(s, bots[seat].choose(s))
    return found


@pytest.fixture(scope="session")
def decision_states() -> dict[str, list[GameState]]:
    states = harvest(range(40), per_kind=12, players=2, turns=40)
    for kind, extra in harvest(range(100, 115), per_kind=4, players=4, turns=12).items():
        states.setdefault(kind, []).extend(extra)
    return states

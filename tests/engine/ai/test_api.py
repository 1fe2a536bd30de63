"""The public API the bot calls: ``make_ai``, ``LEVELS``, ``AIPlayer.choose`` and ``level``."""

from __future__ import annotations

import random

import pytest

from engine import CHANCE, GameConfig, apply_in_place, legal_actions, new_game, sample_chance
from engine.ai import LEVELS, AIPlayer, make_ai
from engine.ai.hard import HardAI
from tests.engine.ai.conftest import quick_hard


def test_levels_and_make_ai() -> None:
    assert LEVELS == ("easy", "normal", "hard")
    for level in LEVELS:
        ai = make_ai(level, seed=3)
        assert isinstance(ai, AIPlayer)
        assert ai.level == level
    with pytest.raises(ValueError):
        make_ai("expert", seed=1)  # type: ignore[arg-type]


def test_hard_budget() -> None:
    ai = make_ai("hard", seed=1)
    assert isinstance(ai, HardAI) and ai.budget_ms is None  # a fixed search size by default
    ai = make_ai("hard", seed=1, budget_ms=250)
    assert isinstance(ai, HardAI) and ai.budget_ms == 250


def test_choose_refuses_chance_and_finished_states() -> None:
    s = new_game(GameConfig(players=2))
    assert s.to_act() == CHANCE
    with pytest.raises(ValueError):
        make_ai("easy", seed=1).choose(s)


def test_choose_returns_a_legal_action_after_setup() -> None:
    rng = random.Random(0)
    s = new_game(GameConfig(players=3))
    while s.to_act() == CHANCE:
        apply_in_place(s, sample_chance(s, rng))
    for level in LEVELS:
        ai = quick_hard(5) if level == "hard" else make_ai(level, seed=5)
        assert ai.choose(s) in legal_actions(s)

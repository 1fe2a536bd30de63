"""The same seeds give the same game; a fresh AI's choice depends only on seed and state."""

from __future__ import annotations

from engine import GameState
from engine.ai import AIPlayer, make_ai
from tests.engine.ai.conftest import play_game, quick_hard


def logs(make: list[AIPlayer], seed: int, max_turns: int | None = None) -> list[str]:
    _, log = play_game(make, seed, max_turns=max_turns)
    return [str(a) for a in log]


def test_easy_and_normal_games_repeat() -> None:
    first = logs([make_ai("easy", 1), make_ai("normal", 2)], 5, max_turns=24)
    again = logs([make_ai("easy", 1), make_ai("normal", 2)], 5, max_turns=24)
    assert first == again
    other = logs([make_ai("easy", 3), make_ai("normal", 2)], 5, max_turns=24)
    assert other != first  # the seed matters


def test_hard_with_a_node_budget_repeats() -> None:
    first = logs([quick_hard(1, rollouts=12), make_ai("normal", 2)], 9, max_turns=12)
    again = logs([quick_hard(1, rollouts=12), make_ai("normal", 2)], 9, max_turns=12)
    assert first == again


def test_fresh_players_agree_on_each_state(decision_states: dict[str, list[GameState]]) -> None:
    for kind, states in decision_states.items():
        for i, s in enumerate(states[:6]):
            for level in ("easy", "normal"):
                a = make_ai(level, i).choose(s)
                b = make_ai(level, i).choose(s.copy())
                assert a == b, (kind, level)
            assert quick_hard(i).choose(s) == quick_hard(i).choose(s)

"""Every choice of every level is one of ``legal_actions``: on harvested states of every
decision kind, and throughout seeded games."""

from __future__ import annotations

import pytest

from engine import GameState, legal_actions
from engine.actions import Action
from engine.ai import AIPlayer, RandomAI, make_ai
from tests.engine.ai.conftest import decision_kind, play_game, quick_hard

KINDS = ("turn", "place", "raid", "plasma", "return")


def fresh(level: str, seed: int) -> AIPlayer:
    if level == "hard":
        return quick_hard(seed)
    return make_ai(level, seed)  # type: ignore[arg-type]


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_choices_on_harvested_states_are_legal(
    level: str, decision_states: dict[str, list[GameState]]
) -> None:
    for kind in KINDS:
        states = decision_states[kind]
        assert states, f"no {kind} states harvested"
        if level == "hard":
            states = states[:: 2 if kind == "turn" else 1]
        for i, s in enumerate(states):
            before = s.copy()
            a = fresh(level, i).choose(s)
            assert a in legal_actions(s), f"{level} chose {a} in a {kind} state"
            assert s == before, "choose must not change the state"


@pytest.mark.parametrize(
    ("levels", "seed"),
    [
        (("easy", "random"), 1),
        (("normal", "easy"), 2),
        (("normal", "random", "easy"), 3),
        (("easy", "normal", "random", "normal"), 4),
    ],
)
def test_choices_in_whole_games_are_legal(levels: tuple[str, ...], seed: int) -> None:
    players = [
        RandomAI(seed + i) if lv == "random" else fresh(lv, seed + i) for i, lv in enumerate(levels)
    ]
    seen: set[str] = set()

    def check(s: GameState, a: Action) -> None:
        seen.add(decision_kind(s))
        assert a in legal_actions(s), f"chose {a}"

    s, _ = play_game(players, seed, check)
    assert s.over
    assert "turn" in seen and "place" in seen


def test_hard_plays_a_legal_game() -> None:
    players = [quick_hard(7), make_ai("easy", 8)]

    def check(s: GameState, a: Action) -> None:
        assert a in legal_actions(s), f"chose {a}"

    s, _ = play_game(players, 11, check)
    assert s.over

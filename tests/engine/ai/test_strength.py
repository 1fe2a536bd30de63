"""Small seeded mini-tournaments: each level shows a clear edge over the one below."""

from __future__ import annotations

import pytest

from engine.ai import AIPlayer, RandomAI, make_ai
from engine.scoring import outcome
from tests.engine.ai.conftest import play_game


def score(strong: str, weak: str, games: int, seed: int) -> float:
    """The stronger level's points (a shared win counts half), seats alternated."""

    def player(level: str, s: int) -> AIPlayer:
        return RandomAI(s) if level == "random" else make_ai(level, s)  # type: ignore[arg-type]

    points = 0.0
    for g in range(games):
        me = g % 2
        players = [player(weak, seed + g), player(weak, seed + g)]
        players[me] = player(strong, seed + 100 + g)
        s, _ = play_game(players, seed + g)
        o = outcome(s)
        assert o is not None
        if me in o.winners:
            points += 1.0 / len(o.winners)
    return points


def test_easy_beats_random() -> None:
    assert score("easy", "random", 20, 1000) >= 17


@pytest.mark.slow
def test_normal_beats_easy() -> None:
    """The match (about a minute and a half): ``pytest -m slow``. The default run checks
    the normal level's play otherwise (determinism, the planner, the hint)."""
    assert score("normal", "easy", 12, 3000) >= 9


@pytest.mark.slow
def test_hard_beats_normal() -> None:
    """Hard at its full, fixed search size (several minutes): ``pytest -m slow``."""
    assert score("hard", "normal", 12, 5000) >= 7

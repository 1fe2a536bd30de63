"""Seeded random play: 2,000 complete games across 2, 3 and 4 players and the options,
with every invariant checked after every action (engine.invariants), JSON round trips
along the way, and a replay of the notation log equal to the final state at the end.

The default suite plays the first chunk of every config (200 games); the other nine
chunks (1,800 games, the same seeds as ever) are marked ``slow``: ``pytest -m slow``
plays them, ``pytest -m ""`` all 2,000.
"""

from __future__ import annotations

import pytest

from engine.config import GameConfig
from engine.scoring import outcome, places
from engine.selfplay import play_random_game

CONFIGS = [
    GameConfig(players=2),
    GameConfig(players=3),
    GameConfig(players=4),
    GameConfig(players=2, mind_control_helm=True, finite_supply=True),
    GameConfig(players=3, long_game=True, mind_control_helm=True),
    GameConfig(players=4, long_game=True, finite_supply=True),
    GameConfig(players=4, mind_control_helm=True, finite_supply=True),
    GameConfig(players=3, finite_supply=True),
]
CHUNKS = 10  # 8 configs x 10 chunks x 25 games = 2,000 games (seeds 0..249 of each)
GAMES_PER_CHUNK = 25


DEFAULT_CHUNKS = 1  # chunks in the default suite; the rest are slow


@pytest.mark.parametrize(
    "chunk",
    [
        pytest.param(c, marks=[pytest.mark.slow] if c >= DEFAULT_CHUNKS else [])
        for c in range(CHUNKS)
    ],
)
@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: repr(c).replace("GameConfig", ""))
def test_random_games_keep_every_invariant(config: GameConfig, chunk: int) -> None:
    base = 1_000 * CONFIGS.index(config) + GAMES_PER_CHUNK * chunk
    for seed in range(base, base + GAMES_PER_CHUNK):
        result = play_random_game(config, seed, check=True)
        o = outcome(result.state)
        assert o is not None and o.winners
        assert max(o.scores) == o.scores[o.winners[0]]
        # R-END-3: the places follow VP and then the same tie-breaks; the winners are 1st.
        place = places(result.state)
        assert [p for p in range(config.players) if place[p] == 1] == list(o.winners)
        by_vp = sorted(range(config.players), key=lambda p: place[p])
        assert [o.scores[p] for p in by_vp] == sorted(o.scores, reverse=True)

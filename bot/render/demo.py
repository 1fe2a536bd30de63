"""Sample game states made by seeded random play, for the demo boards, tests and benchmark."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from engine import (
    CHANCE,
    GameConfig,
    GameState,
    apply_in_place,
    legal_actions,
    new_game,
    sample_chance,
)

DEMO_NAMES = ("Ada", "Boris", "Zofia", "Chidi")


def play(
    players: int,
    seed: int,
    steps: int | None = None,
    until: Callable[[GameState], bool] | None = None,
    **config: bool,
) -> GameState:
    """A state after ``steps`` random actions (or at game end, or once ``until`` holds)."""
    rng = random.Random(seed)
    s = new_game(GameConfig(players=players, **config))
    n = 0
    while not s.over and (steps is None or n < steps):
        if until is not None and until(s):
            break
        a = sample_chance(s, rng) if s.to_act() == CHANCE else rng.choice(legal_actions(s))
        apply_in_place(s, a)
        n += 1
    return s


def states(players: int, seed: int, every: int, **config: bool) -> Iterator[GameState]:
    """Copies of every ``every``-th state of one random game, and its final state."""
    rng = random.Random(seed)
    s = new_game(GameConfig(players=players, **config))
    n = 0
    while not s.over:
        if n % every == 0:
            yield s.copy()
        a = sample_chance(s, rng) if s.to_act() == CHANCE else rng.choice(legal_actions(s))
        apply_in_place(s, a)
        n += 1
    yield s


def _richness(s: GameState) -> float:
    """How much a state shows: cards, fields, ships in orbit, colonies (for the demo boards)."""
    cards = sum(len(p.cards) for p in s.players) + len(s.turn.used)
    fields = sum(1 for t in s.fields.values() if t is not None)
    docked = sum(1 for docks in s.docks.values() for x in docks if x is not None and x.owner >= 0)
    docked += sum(len(track) for track in s.hub_docks)
    colonies = sum(sum(c) for c in s.colonies.values())
    return 3 * cards + 2 * fields + docked + colonies / 2 + 2 * (not s.relic_on_desert)


def mid_game(players: int = 4, seed: int = 1) -> GameState:
    """A busy mid-game state of one random game: the current player has ships to dock."""
    best: GameState | None = None
    score = -1.0
    for s in states(players, seed, every=1):
        if s.over or s.pending or len(s.undocked) < 2 or s.round < 6:
            continue
        r = _richness(s)
        if r > score:
            best, score = s, r
    assert best is not None
    return best


def finished(players: int = 4, seed: int = 1) -> GameState:
    """A finished game."""
    return play(players, seed)

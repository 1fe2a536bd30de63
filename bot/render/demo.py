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


def mid_game(players: int = 4, seed: int = 1) -> GameState:
    """A lively mid-game state: ships docked, colonies out, the current player with dice."""

    def lively(s: GameState) -> bool:
        placed = sum(sum(c) for c in s.colonies.values())
        return (
            placed >= 3 * players
            and len(s.undocked) >= 2
            and not s.pending
            and any(x is not None for x in s.fields.values())
        )

    return play(players, seed, until=lively)


def finished(players: int = 4, seed: int = 1) -> GameState:
    """A finished game."""
    return play(players, seed)

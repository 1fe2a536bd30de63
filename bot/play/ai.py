"""AI seats: which move an AI player makes, never stalling a game.

The players come from ``engine.ai.make_ai``; if that package is not installed
yet, or an AI fails or proposes an illegal move, a seeded random legal move is
played instead (and the failure logged), so a game with AI seats always goes on.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from typing import Literal, Protocol

from engine import Action, GameState, legal_actions

log = logging.getLogger(__name__)

Level = Literal["easy", "normal", "hard"]
LEVELS: tuple[Level, ...] = ("easy", "normal", "hard")


class Chooser(Protocol):
    """Anything that picks a move for the seat to act (engine.ai.AIPlayer has this shape)."""

    def choose(self, state: GameState) -> Action: ...


AIFactory = Callable[[Level, int, int | None], Chooser]


class RandomPlayer:
    """Plays a uniformly random legal move: the fallback and the demo's "random" seats."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: GameState) -> Action:
        return self.rng.choice(legal_actions(state))


def default_factory(level: Level, seed: int, budget_ms: int | None) -> Chooser:
    """``engine.ai.make_ai`` when it exists, else a random player."""
    try:
        from engine.ai import make_ai
    except ImportError:
        return RandomPlayer(seed)
    player: Chooser = make_ai(level, seed=seed, budget_ms=budget_ms)
    return player


def choose_move(player: Chooser, level: str, seed: int, state: GameState) -> Action:
    """The AI's move for ``state`` (a legal one, whatever happens). Blocking: run in a thread.

    The same ``player`` should be asked for every move of its seat: it keeps the plan it
    made at the start of a turn (and the hard level its time budget per turn)."""
    options = legal_actions(state)
    try:
        move = player.choose(state.copy())
    except Exception:
        log.exception("AI (%s) failed at version %d; playing a random move", level, state.version)
        return random.Random(seed).choice(options)
    if move not in options:
        log.error("AI (%s) proposed illegal %s at version %d", level, move, state.version)
        return random.Random(seed).choice(options)
    return move


HINT_LEVEL: Level = "normal"


def hint_plan(state: GameState, seed: int) -> list[Action]:
    """What the normal AI would do with the rest of the turn of the seat to act (its
    decisions included; chance as it expects it). Blocking: run in a thread."""
    from engine.ai import NormalAI

    seat = state.to_act()
    if state.over or seat < 0:
        return []
    return NormalAI(seed).make_plan(state, seat)

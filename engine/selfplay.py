"""Seeded random self-play with invariant checks: the engine's conformance driver.

Used by ``python -m engine selfplay``, the property tests and the benchmark.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.actions import Action
from engine.chance import sample_chance
from engine.config import GameConfig
from engine.game import Game
from engine.invariants import problems
from engine.legal import legal_actions
from engine.rules import apply_in_place
from engine.serialize import dumps, loads
from engine.setup import new_game
from engine.state import CHANCE, GameState


class InvariantError(AssertionError):
    """A self-played game broke an invariant; the message holds the seed and the log."""


@dataclass(frozen=True, slots=True)
class GameResult:
    config: GameConfig
    seed: int
    state: GameState
    log: tuple[Action, ...]

    @property
    def rounds(self) -> int:
        return self.state.round


def random_action(s: GameState, rng: random.Random) -> Action:
    """A chance outcome sampled for chance decisions, else a uniformly random legal action."""
    if s.to_act() == CHANCE:
        return sample_chance(s, rng)
    return rng.choice(legal_actions(s))


def play_random_game(
    config: GameConfig, seed: int, check: bool = False, max_actions: int = 20_000
) -> GameResult:
    """Play one game of uniformly random legal moves.

    With ``check``, invariants are tested after every action, the state is
    serialised and loaded back every so often, and at the end the log is replayed
    and compared with the final state.
    """
    rng = random.Random(seed)
    s = new_game(config)
    log: list[Action] = []
    while not s.over:
        if len(log) >= max_actions:
            raise InvariantError(f"seed {seed}: no end after {max_actions} actions")
        a = random_action(s, rng)
        apply_in_place(s, a)
        log.append(a)
        if check:
            found = problems(s)
            if found:
                raise InvariantError(f"seed {seed}, action {len(log)} `{a}`: {found}")
            if len(log) % 97 == 0 and loads(dumps(s)) != s:
                raise InvariantError(f"seed {seed}, action {len(log)}: JSON round trip differs")
    if check:
        if loads(dumps(s)) != s:
            raise InvariantError(f"seed {seed}: final JSON round trip differs")
        replayed = Game.replay(config, [str(a) for a in log]).state
        if replayed != s:
            raise InvariantError(f"seed {seed}: replay of the notation log differs")
    return GameResult(config, seed, s, tuple(log))

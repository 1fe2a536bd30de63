"""What every AI player shares: the ``choose`` contract and seeded per-decision RNGs."""

from __future__ import annotations

import gc
import random
from abc import ABC, abstractmethod
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Literal

from engine.actions import Action
from engine.legal import legal_actions
from engine.rules import apply_in_place
from engine.state import CHANCE, GameState

Level = Literal["easy", "normal", "hard"]
_MASK = (1 << 63) - 1


def mix(*parts: int) -> int:
    """A stable integer hash of integers (Python's ``hash`` of str is salted; this is not)."""
    h = 0x243F6A8885A308D3
    for x in parts:
        h = ((h ^ (x & _MASK)) * 0x100000001B3 + 0x9E3779B97F4A7C15) & _MASK
        h ^= h >> 29
    return h


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause Python's cyclic garbage collector for a search. A search allocates tens of
    thousands of short-lived states that hold no reference cycles (reference counting
    frees them), and the collector's repeated passes over them cost as much as the search
    itself (half of a slow decision's time). Collection resumes afterwards; nothing else
    changes, so the choices are the same."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


class AIPlayer(ABC):
    """Chooses an action whenever ``state.to_act()`` is its seat."""

    level: str

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def rng_for(self, s: GameState, salt: int = 0) -> random.Random:
        """An RNG that depends only on the seed and where the game is."""
        return random.Random(mix(self.seed, s.version, s.turn_number, s.current, salt))

    def choose(self, state: GameState) -> Action:
        """One of ``legal_actions(state)`` for the seat to act (never a chance outcome)."""
        seat = state.to_act()
        if state.over or seat == CHANCE:
            raise ValueError("the AI is asked only when one of the seats must act")
        acts = legal_actions(state)
        if not acts:
            raise ValueError("no legal action")
        with paused_gc():
            return self._choose(state, seat, acts)

    @abstractmethod
    def _choose(self, s: GameState, seat: int, acts: list[Action]) -> Action:
        """Pick one of ``acts`` (the legal actions of ``seat`` in ``s``)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(level={self.level!r}, seed={self.seed})"


class RandomAI(AIPlayer):
    """Uniformly random legal play: the benchmark's floor, not a level."""

    level = "random"

    def _choose(self, s: GameState, seat: int, acts: list[Action]) -> Action:
        return self.rng_for(s).choice(acts)


def after(s: GameState, a: Action) -> GameState:
    """A copy of ``s`` with ``a`` applied."""
    c = s.copy()
    apply_in_place(c, a)
    return c

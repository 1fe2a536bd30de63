"""AI players: ``make_ai(level, seed)`` gives an ``AIPlayer`` whose ``choose(state)`` returns
one of ``engine.legal_actions(state)``. Pure and seeded: no I/O, no global RNG.

Levels: ``easy`` (greedy with noise), ``normal`` (plans its own turn with a
hand-written evaluation) and ``hard`` (weighs its best plans by sampling the
opponents' replies with their dice, within a time or iteration budget).
"""

from __future__ import annotations

from typing import Final

from engine.ai.base import AIPlayer, Level, RandomAI
from engine.ai.easy import EasyAI
from engine.ai.normal import NormalAI

LEVELS: Final[tuple[Level, ...]] = ("easy", "normal", "hard")


def make_ai(level: Level, seed: int, budget_ms: int | None = None) -> AIPlayer:
    """An AI player of the given level, deterministic for ``seed``."""
    if level == "easy":
        return EasyAI(seed)
    if level == "normal":
        return NormalAI(seed)
    if level == "hard":
        from engine.ai.hard import HardAI

        return HardAI(seed, budget_ms=budget_ms)
    raise ValueError(f"unknown AI level {level!r}; choose one of {', '.join(LEVELS)}")


__all__ = ["LEVELS", "AIPlayer", "EasyAI", "Level", "NormalAI", "RandomAI", "make_ai"]

"""AI players: ``make_ai(level, seed)`` gives an ``AIPlayer`` whose ``choose(state)`` returns
one of ``engine.legal_actions(state)``. Pure and seeded: no I/O, no global RNG.

Levels: ``easy`` (greedy with noise), ``normal`` (plans its own turn with a
hand-written evaluation) and ``hard`` (weighs its best plans by sampling the
opponents' replies with their dice, within a time or iteration budget).

This is the AI's public face, beside the engine's (``engine``): ``make_ai`` and the levels,
the ``SkipPlayer`` that stands in for a seat whose clock ran out, and the reasons a plan
gives (``explain_plan``, ``Pick``, ``Reason``). The AI is a player built on the engine's face,
not part of the rules, so it is a face of its own and ``import engine`` does not load it.
"""

from __future__ import annotations

from typing import Final

from engine.ai.base import AIPlayer, Level, RandomAI
from engine.ai.easy import EasyAI
from engine.ai.normal import NormalAI
from engine.ai.reasons import Pick, Reason, explain_plan
from engine.ai.skip import SkipPlayer

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


__all__ = [
    "LEVELS",
    "AIPlayer",
    "EasyAI",
    "Level",
    "NormalAI",
    "Pick",
    "RandomAI",
    "Reason",
    "SkipPlayer",
    "explain_plan",
    "make_ai",
]

"""Chance decisions: their outcomes, probabilities, and sampling from a driver's RNG.

The engine never draws random numbers itself: a driver samples an outcome with
its own seeded ``random.Random`` and applies it like any other action, so the
setup plus the action log replays exactly (OpenSpiel's chance player). Each chance
decision's rule (a ``ChanceRule``: the roll in engine.turn, the reveal and the first
player in engine.setup) knows its outcomes.
"""

from __future__ import annotations

import random

from engine.actions import Action
from engine.rulebook import RULEBOOK
from engine.state import GameState


def chance_outcomes(s: GameState) -> list[tuple[Action, float]]:
    """Every outcome of the pending chance decision with its probability."""
    if not s.pending:
        return []
    d = s.pending[0]
    rule = RULEBOOK.chance(type(d))
    return [] if rule is None else list(rule.outcomes(s, d))


def sample_chance(s: GameState, rng: random.Random) -> Action:
    """Draw the pending chance decision's outcome from the driver's RNG."""
    d = s.pending[0] if s.pending else None
    rule = None if d is None else RULEBOOK.chance(type(d))
    if d is None or rule is None:
        raise ValueError("no chance decision is pending")
    return rule.sample(s, d, rng)

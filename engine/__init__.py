"""Alien Frontiers rules engine: pure, deterministic, no I/O.

Typical use::

    from engine import GameConfig, new_game, legal_actions, apply, parse, sample_chance
    s = new_game(GameConfig(players=3))
    s = apply(s, sample_chance(s, rng))   # chance decisions are actions too
    s = apply(s, parse("dock mine 4"))
    check(s, parse("trade"))              # IllegalActionError saying why, if it may not
"""

from engine.actions import Action, Die
from engine.chance import chance_outcomes, sample_chance
from engine.config import GameConfig
from engine.errors import EngineError, IllegalActionError, InvalidNotationError, StateLoadError
from engine.legal import legal_actions
from engine.notation import parse
from engine.rules import apply, apply_in_place, check, refusal
from engine.scoring import Outcome, outcome, victory_points
from engine.setup import new_game
from engine.state import CHANCE, GameState, Ship

__all__ = [
    "CHANCE",
    "Action",
    "Die",
    "EngineError",
    "GameConfig",
    "GameState",
    "IllegalActionError",
    "InvalidNotationError",
    "Outcome",
    "Ship",
    "StateLoadError",
    "apply",
    "apply_in_place",
    "chance_outcomes",
    "check",
    "legal_actions",
    "new_game",
    "outcome",
    "parse",
    "refusal",
    "sample_chance",
    "victory_points",
]

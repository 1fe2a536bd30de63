"""Chance decisions are explicit actions with proper probabilities; the engine is pure."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from engine import Action, GameState, chance_outcomes, legal_actions, sample_chance
from engine.config import GameConfig
from engine.rules import apply_in_place
from engine.setup import new_game
from engine.state import CHANCE, RollDecision
from tests.engine.scenario import scenario

ENGINE = Path(__file__).resolve().parents[2] / "engine"


def test_setup_is_a_sequence_of_chance_decisions() -> None:
    s = new_game(GameConfig(players=3))
    kinds = []
    rng = random.Random(3)
    while s.to_act() == CHANCE and s.turn_number == 0:
        outcomes = chance_outcomes(s)
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
        a = sample_chance(s, rng)
        assert a in [o for o, _ in outcomes]
        kinds.append(str(a).split()[0])
        apply_in_place(s, a)
    assert kinds == ["reveal"] * 6 + ["first"]


@pytest.mark.parametrize(("dice", "relic", "count"), [(3, False, 56), (4, True, 126 * 6)])
def test_roll_outcomes_are_multisets_with_probabilities(dice: int, relic: bool, count: int) -> None:
    s = scenario()
    s.pending.insert(0, RollDecision(dice, relic))
    outcomes = chance_outcomes(s)
    assert len(outcomes) == count
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-9


def test_same_seed_same_game() -> None:
    def play(seed: int) -> list[str]:
        rng = random.Random(seed)
        s = new_game(GameConfig(players=2))
        log = []
        for _ in range(200):
            a = sample_chance(s, rng) if s.to_act() == CHANCE else rng.choice(_legal(s))
            log.append(str(a))
            apply_in_place(s, a)
        return log

    assert play(4) == play(4) and play(4) != play(5)


def _legal(s: GameState) -> list[Action]:
    return legal_actions(s)


FORBIDDEN_MODULES = {
    "discord",
    "PIL",
    "aiosqlite",
    "sqlite3",
    "time",
    "datetime",
    "os",
    "io",
    "socket",
    "asyncio",
    "pathlib",
    "secrets",
    "uuid",
}


def test_engine_imports_no_io_clock_or_ui() -> None:
    for path in ENGINE.rglob("*.py"):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for n in names:
                root = n.split(".")[0]
                if path.name == "__main__.py" and root in {"time", "argparse"}:
                    continue  # the command line measures its own speed
                if path.parent.name == "ai" and root == "time":
                    continue  # the hard AI's time budget
                assert root not in FORBIDDEN_MODULES, f"{path.name} imports {n}"


def test_engine_uses_no_global_random_state() -> None:
    for path in ENGINE.rglob("*.py"):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "random"
            ):
                assert node.attr == "Random", f"{path.name} uses random.{node.attr}"

"""State JSON: exact round trip, schema version, and loading reports problems."""

from __future__ import annotations

import json
import random

import pytest

from engine import StateLoadError
from engine.config import GameConfig
from engine.rules import apply_in_place
from engine.selfplay import random_action
from engine.serialize import SCHEMA_VERSION, StateDoc, dumps, loads
from engine.setup import new_game
from engine.state import GameState


def _mid_game(seed: int = 5, steps: int = 400) -> GameState:
    rng = random.Random(seed)
    s = new_game(GameConfig(players=4, mind_control_helm=True, finite_supply=True))
    for _ in range(steps):
        apply_in_place(s, random_action(s, rng))
    return s


def test_round_trip_is_exact() -> None:
    s = _mid_game()
    text = dumps(s)
    assert loads(text) == s
    assert dumps(loads(text)) == text
    assert json.loads(text)["schema_version"] == SCHEMA_VERSION


@pytest.mark.parametrize("seed", range(6))
def test_the_document_is_the_one_the_schema_writes(seed: int) -> None:
    """dumps writes to_dict without validating it: it must be what StateDoc would write."""
    rng = random.Random(seed)
    players = 2 + seed % 3
    s = new_game(GameConfig(players=players, mind_control_helm=seed % 2 == 0, finite_supply=True))
    while not s.over:
        text = dumps(s)
        assert json.loads(text) == json.loads(StateDoc.model_validate_json(text).model_dump_json())
        apply_in_place(s, random_action(s, rng))


def test_wrong_schema_version_is_refused() -> None:
    doc = json.loads(dumps(_mid_game()))
    doc["schema_version"] = 99
    with pytest.raises(StateLoadError, match="schema_version"):
        loads(json.dumps(doc))


def test_shape_errors_name_the_field() -> None:
    doc = json.loads(dumps(_mid_game()))
    doc["players"][1]["fuel"] = -3
    doc["display"] = ["not-a-card"]
    with pytest.raises(StateLoadError) as err:
        loads(json.dumps(doc))
    assert "players.1.fuel" in str(err.value) and "display.0" in str(err.value)


def test_broken_invariants_are_reported() -> None:
    doc = json.loads(dumps(_mid_game()))
    doc["players"][0]["stock"] = (doc["players"][0]["stock"] + 1) % 4
    doc["players"][2]["ore"] += 5  # breaks the finite supply's total
    with pytest.raises(StateLoadError) as err:
        loads(json.dumps(doc))
    assert "P1 has" in str(err.value) and "supply and holdings" in str(err.value)


def test_not_json_at_all() -> None:
    with pytest.raises(StateLoadError, match="not valid"):
        loads("{not json")

"""Golden counts, the engine's regression oracle (python-chess's perft habit).

Seven fixed games (2, 3 and 4 players, every option; ``tests/engine/golden/logs``) are
replayed through the checked door. At every position the number of legal actions is
summed and hashed; at chosen positions (mid-turn, each kind of pending decision, the
first position listing each type of action, the end) the listed actions (count and
hash of their notation, in order), ``perft2`` and a hash of the state must equal what
``tests/engine/golden/make_golden.py`` recorded before the rules engine was refactored.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine import GameConfig, legal_actions, new_game, parse, refusal
from engine.rulebook import RULEBOOK
from engine.rules import apply_in_place
from tests.engine.golden.make_golden import legal_hash, perft2, position_kind, sha, state_hash

GOLDEN = Path(__file__).resolve().parent / "golden"
COUNTS: dict[str, dict[str, Any]] = json.loads((GOLDEN / "counts.json").read_text())


def test_the_games_cover_every_player_count_and_option() -> None:
    configs = [GameConfig(**g["config"]) for g in COUNTS.values()]
    assert {c.players for c in configs} == {2, 3, 4}
    assert any(c.long_game for c in configs)
    assert any(c.mind_control_helm for c in configs)
    assert any(c.finite_supply for c in configs)


@pytest.mark.parametrize("name", sorted(COUNTS))
def test_golden_counts(name: str) -> None:
    golden = COUNTS[name]
    log = [parse(line) for line in (GOLDEN / "logs" / f"{name}.txt").read_text().splitlines()]
    checkpoints = {c["at"]: c for c in golden["checkpoints"]}
    s = new_game(GameConfig(**golden["config"]))
    counts: list[int] = []
    for at in range(len(log) + 1):
        acts = legal_actions(s)
        counts.append(len(acts))
        expected = checkpoints.get(at)
        if expected is not None:
            found = {
                "at": at,
                "kind": position_kind(s),
                "legal": len(acts),
                "legal_hash": legal_hash(acts),
                "perft2": perft2(s, acts),
                "state": state_hash(s),
            }
            assert found == expected, f"{name}, position {at}"
        if at < len(log):
            a = log[at]
            assert refusal(s, a) is None, f"{name}, action {at + 1} `{a}`: {refusal(s, a)}"
            apply_in_place(s, a)
    assert s.over
    assert len(counts) == golden["positions"]
    assert sum(counts) == golden["legal_total"]
    assert sha(",".join(map(str, counts))) == golden["legal_counts_hash"]
    assert state_hash(s) == golden["final_state"]


def test_every_type_of_action_is_looked_at_closely() -> None:
    """Each action type is listed at some checkpoint, so perft2 applies it there."""
    seen: set[str] = set()
    for name, golden in COUNTS.items():
        log = [parse(line) for line in (GOLDEN / "logs" / f"{name}.txt").read_text().splitlines()]
        s = new_game(GameConfig(**golden["config"]))
        at_checkpoints = {c["at"] for c in golden["checkpoints"]}
        for at in range(len(log) + 1):
            if at in at_checkpoints:
                seen.update(type(a).__name__ for a in legal_actions(s))
            if at < len(log):
                apply_in_place(s, log[at])
    every = {rule.action.__name__ for rule in RULEBOOK.rules()}
    assert len(every) == 31
    assert every <= seen, every - seen

"""Undo (never across a chance action or a revealed card) and replay from the log."""

from __future__ import annotations

import random

import pytest

from engine import IllegalActionError, sample_chance
from engine.config import GameConfig
from engine.game import Game
from engine.state import CHANCE
from tests.engine.scenario import scenario


def _start(players: int = 3, seed: int = 1) -> tuple[Game, random.Random]:
    rng = random.Random(seed)
    g = Game(GameConfig(players=players))
    while g.state.to_act() == CHANCE:
        g.apply(sample_chance(g.state, rng))
    return g, rng


def test_undo_restores_the_state_before_the_last_action() -> None:
    g, _ = _start()
    assert not g.can_undo()  # the roll was the last action
    before = g.state
    move = next(
        a
        for a in (
            "dock solar 1",
            "dock solar 2",
            "dock solar 3",
            "dock solar 4",
            "dock solar 5",
            "dock solar 6",
        )
        if a in {str(x) for x in _legal(g)}
    )
    g.apply(move)
    assert g.can_undo() and g.can_undo(g.state.current)
    assert not g.can_undo((g.state.current + 1) % 3)
    assert g.undo() is not None
    assert g.state == before and g.notation_log()[-1].startswith("roll")


def test_no_undo_across_a_revealed_card() -> None:
    g = Game(GameConfig(players=4))
    g.state = scenario(undocked="3 2 4", display=("city", "monument", "decoy"))
    g.apply("dock artifact 3")
    g.apply("cycle")
    assert not g.can_undo()  # three cards must be revealed now
    rng = random.Random(0)
    while g.state.to_act() == CHANCE:
        g.apply(sample_chance(g.state, rng))
    assert not g.can_undo()
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        g.undo()
    g.apply("dock artifact 2")
    assert g.can_undo()


def test_no_undo_across_the_end_of_the_turn() -> None:
    g = Game(GameConfig(players=4))
    g.state = scenario(undocked="")
    g.apply("end")
    assert not g.can_undo()


def test_replay_of_the_log_rebuilds_the_state() -> None:
    g, rng = _start(players=4, seed=9)
    for _ in range(300):
        s = g.state
        if s.over:
            break
        a = sample_chance(s, rng) if s.to_act() == CHANCE else rng.choice(_legal(g))
        g.apply(a)
    assert Game.replay(g.config, g.notation_log()).state == g.state
    assert Game.replay(g.config, g.notation_log(), checked=True).state == g.state


def _legal(g: Game) -> list:  # type: ignore[type-arg]
    from engine import legal_actions

    return legal_actions(g.state)

"""The skipped turn (a timed-out turn with the ``skip`` action): only the moves the rules
require (R-TURN-3, R-TURN-4, R-TURN-7), each one of ``legal_actions``."""

from __future__ import annotations

import random

from engine import CHANCE, GameConfig, GameState, apply_in_place, legal_actions, new_game
from engine.actions import Dock, Done, EndTurn, Place, ReturnExcess
from engine.ai import RandomAI
from engine.ai.skip import SkipPlayer, skip_move
from engine.chance import sample_chance
from engine.state import ReturnExcessDecision
from tests.engine.ai.conftest import decision_kind

REQUIRED = (Dock, Place, Done, ReturnExcess, EndTurn)


def skip_rest_of_turn(s: GameState, rng: random.Random) -> list[object]:
    """Play skip moves (and chance) until the turn passes; the moves made."""
    seat, turn = s.current, s.turn_number
    made: list[object] = []
    while not s.over and s.turn_number == turn:
        if s.to_act() == CHANCE:
            apply_in_place(s, sample_chance(s, rng))
            continue
        assert s.to_act() == seat
        move = skip_move(s)
        assert move in legal_actions(s), move
        apply_in_place(s, move)
        made.append(move)
        assert len(made) < 20, made
    return made


def test_R_TURN_3_4_skipped_turns_make_only_required_moves_in_random_games() -> None:
    skipped = 0
    for seed in range(40):
        rng = random.Random(seed)
        players = 2 + seed % 3
        s = new_game(GameConfig(players=players, mind_control_helm=seed % 2 == 0))
        bots = [RandomAI(seed * 7 + p) for p in range(players)]
        while not s.over and s.turn_number < 30:
            seat = s.to_act()
            if seat == CHANCE:
                apply_in_place(s, sample_chance(s, rng))
            elif rng.random() < 0.25 and decision_kind(s) == "turn":
                made = skip_rest_of_turn(s, rng)
                assert all(isinstance(m, REQUIRED) for m in made), made
                skipped += 1
            else:
                apply_in_place(s, bots[seat].choose(s))
    assert skipped > 100


def test_R_TURN_4_skip_ends_the_turn_as_soon_as_the_rules_allow() -> None:
    rng = random.Random(3)
    s = new_game(GameConfig(players=2))
    while s.to_act() == CHANCE or not any(isinstance(a, EndTurn) for a in legal_actions(s)):
        if s.to_act() == CHANCE:
            apply_in_place(s, sample_chance(s, rng))
        else:
            apply_in_place(s, RandomAI(1).choose(s))
    assert isinstance(SkipPlayer().choose(s), EndTurn)


def test_R_TURN_7_skip_returns_fuel_before_ore() -> None:
    rng = random.Random(5)
    s = new_game(GameConfig(players=2))
    while s.to_act() == CHANCE:
        apply_in_place(s, sample_chance(s, rng))
    p = s.current
    s.players[p].fuel, s.players[p].ore = 7, 4
    s.pending.insert(0, ReturnExcessDecision(p, 3))
    move = skip_move(s)
    assert move == ReturnExcess(3, 0) and move in legal_actions(s)
    s.players[p].fuel = 1
    s.players[p].ore = 10
    s.pending[0] = ReturnExcessDecision(p, 3)
    assert skip_move(s) == ReturnExcess(1, 2)

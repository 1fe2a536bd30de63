"""The story of a game in numbers (``bot.play.vp_by_round.vp_by_round``): each player's VP at
the end of every round, replayed from the stored log, ending at the game's final score
(R-END-1, R-END-2)."""

from __future__ import annotations

import random

import pytest

from bot.play.vp_by_round import vp_by_round
from bot.store.game_config import GameSettings, Variants
from engine import GameConfig, apply_in_place, new_game, outcome, parse
from engine.scoring import recount_victory_points
from engine.selfplay import play_random_game, random_action

CONFIGS = [
    GameConfig(players=2),
    GameConfig(players=3, mind_control_helm=True),
    GameConfig(players=4),
    GameConfig(players=4, long_game=True, finite_supply=True),
]


def played(config: GameConfig, seed: int) -> tuple[list[str], list[list[int]], int]:
    """A game of random legal moves: its log, every player's VP recounted from the board
    whenever a new round started (the round before's end) and at the end, and its rounds."""
    rng = random.Random(seed)
    state = new_game(config)
    log: list[str] = []
    ends: list[list[int]] = []
    while not state.over:
        before = state.round
        action = random_action(state, rng)
        apply_in_place(state, action)
        log.append(str(action))
        if state.round != before:
            ends.append(recount_victory_points(state))
    ends.append(recount_victory_points(state))
    return log, [list(column) for column in zip(*ends, strict=True)], state.round


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.players}p")
def test_R_END_1_vp_by_round_ends_at_each_players_final_score(config: GameConfig) -> None:
    for seed in range(2):
        result = play_random_game(config, seed)
        story = vp_by_round(config, [str(a) for a in result.log])
        final = outcome(result.state)
        assert final is not None
        assert len(story) == config.players
        assert [line[-1] for line in story] == list(final.scores)
        assert all(len(line) == result.state.round for line in story)  # one per round played


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.players}p")
def test_vp_by_round_is_the_board_recounted_at_the_end_of_every_round(
    config: GameConfig,
) -> None:
    log, recounted, rounds = played(config, seed=11)
    story = vp_by_round(config, log)
    assert story == recounted
    assert len(story[0]) == rounds > 5
    assert any(line[0] != line[-1] for line in story)  # the story moves


def test_R_END_2_the_last_round_cut_short_still_counts_as_a_round() -> None:
    """The game ends at once when a last colony lands (R-END-2): the round it ends in is
    the last entry, though not every player had their turn in it."""
    config = GameConfig(players=3)
    cut = next(
        r
        for r in (play_random_game(config, seed) for seed in range(20))
        if r.state.turn_number % config.players
    )
    story = vp_by_round(config, [str(a) for a in cut.log])
    assert len(story[0]) == -(-cut.state.turn_number // config.players)
    final = outcome(cut.state)
    assert final is not None and [line[-1] for line in story] == list(final.scores)


def test_a_log_cut_mid_game_tells_the_rounds_so_far() -> None:
    config = GameConfig(players=2)
    log, recounted, _ = played(config, seed=5)
    half = log[: len(log) // 2]
    state = new_game(config)
    for notation in half:
        apply_in_place(state, parse(notation))
    story = vp_by_round(config, half)
    assert len(story[0]) == state.round
    assert [line[-1] for line in story] == recount_victory_points(state)
    assert [line[:-1] for line in story] == [line[: state.round - 1] for line in recounted]


def test_the_bots_stored_config_replays_the_same_story() -> None:
    """The bot passes ``GameSettings.engine(seats)``, built from the stored config."""
    stored = GameSettings(Variants(mind_control_helm=True)).to_json()
    config = GameSettings.from_json(stored).engine(3)
    log, recounted, _ = played(GameConfig(players=3, mind_control_helm=True), seed=2)
    assert vp_by_round(config, log) == recounted


def test_a_game_just_started_is_one_round_of_zeros() -> None:
    assert vp_by_round(GameConfig(players=4), []) == [[0], [0], [0], [0]]

"""The AI levels' anchor ratings (bot/store/ai_anchors.py) and the fit that measured them
(tests/benchmarks/ai_anchors.py): the anchors are ordered and on openskill's scale, and
the fit finds the ratings openskill's own updates leave where they are."""

from __future__ import annotations

import math
import random
from collections import Counter

from openskill.models import PlackettLuce

from bot.play.ai import LEVELS as BOT_LEVELS
from bot.store.ai_anchors import AI_ANCHORS
from tests.benchmarks.ai_anchors import (
    SIGMA_FLOOR,
    Placing,
    fit_ratings,
    openskill_drift,
    schedule,
)

MODEL = PlackettLuce()


def test_every_bot_level_has_an_anchor_at_every_seat_count() -> None:
    assert set(AI_ANCHORS) == {2, 3, 4}
    for levels in AI_ANCHORS.values():
        assert set(levels) == set(BOT_LEVELS)


def test_anchors_ordered_easy_below_normal_below_hard() -> None:
    for levels in AI_ANCHORS.values():
        assert levels["easy"][0] < levels["normal"][0] < levels["hard"][0]


def test_normal_anchor_sits_where_a_newcomer_starts() -> None:
    for levels in AI_ANCHORS.values():
        assert levels["normal"][0] == MODEL.mu == 25.0


def test_anchor_sigmas_between_the_floor_and_a_newcomers() -> None:
    for levels in AI_ANCHORS.values():
        for mu, sigma in levels.values():
            assert SIGMA_FLOOR == 1.0
            assert 1.0 <= sigma <= MODEL.sigma
            assert math.isfinite(mu)


def test_fit_puts_the_level_that_always_wins_highest() -> None:
    games: list[Placing] = []
    for lineup in (["easy", "hard"], ["hard", "normal"], ["normal", "easy", "hard"]):
        for _ in range(3):
            ranks = [0 if lv == "hard" else 1 for lv in lineup]
            if len(lineup) == 3:
                ranks = [{"hard": 0, "normal": 1, "easy": 2}[lv] for lv in lineup]
            games.append((lineup, ranks))
    games += [(["easy", "normal"], [1, 0]), (["normal", "easy"], [1, 0])]  # one win each
    fit = fit_ratings(games)
    assert fit.mu["normal"] == 25.0
    assert fit.mu["hard"] > fit.mu["normal"] > fit.mu["easy"]
    # Finite despite a level that never lost (openskill's prior), and few games give
    # a wide uncertainty, kept within [1, 25/3].
    assert all(math.isfinite(mu) for mu in fit.mu.values())
    assert fit.sigma["normal"] == SIGMA_FLOOR
    assert all(SIGMA_FLOOR <= s <= MODEL.sigma for s in fit.sigma.values())
    assert fit.sigma["hard"] > 2.0


def test_fit_gives_a_shared_rank_equal_ratings() -> None:
    # easy and hard always share first against normal, and tie with each other: equals.
    games: list[Placing] = [(["easy", "hard"], [0, 0])] * 4
    games += [(["easy", "normal"], [0, 1]), (["normal", "easy"], [0, 1])] * 2
    games += [(["hard", "normal"], [0, 1]), (["normal", "hard"], [0, 1])] * 2
    games += [(["easy", "normal", "hard"], [0, 2, 0])] * 2
    fit = fit_ratings(games)
    assert math.isclose(fit.mu["easy"], fit.mu["hard"], abs_tol=1e-6)
    assert fit.mu["easy"] > 25.0


def synthetic_games(count: int, seed: int) -> list[Placing]:
    """Plackett–Luce orders of 2-4 seats drawn from known strengths: no shared ranks."""
    rng = random.Random(seed)
    strength = {"easy": 0.3, "normal": 1.0, "hard": 2.5}
    games: list[Placing] = []
    for _ in range(count):
        lineup = [rng.choice(BOT_LEVELS) for _ in range(rng.choice((2, 3, 4)))]
        left = list(range(len(lineup)))
        ranks = [0] * len(lineup)
        for place in range(len(lineup)):
            seat = rng.choices(left, [strength[lineup[s]] for s in left])[0]
            ranks[seat] = place
            left.remove(seat)
        games.append((lineup, ranks))
    return games


def test_fit_is_where_openskills_own_updates_rest() -> None:
    games = synthetic_games(80, seed=5)
    fit = fit_ratings(
        games, prior_sigma=1e6
    )  # no prior: the pure maximum of openskill's likelihood
    drift = openskill_drift(games, {lv: (fit.mu[lv], fit.sigma[lv]) for lv in fit.mu})
    assert all(abs(d) < 1e-6 for d in drift.values()), drift
    # Anywhere else openskill's updates move the levels: the check can fail.
    shifted = {lv: (fit.mu[lv] + (3.0 if lv == "hard" else 0.0), fit.sigma[lv]) for lv in fit.mu}
    assert openskill_drift(games, shifted, MODEL)["hard"] < -0.02


def test_fit_recovers_the_order_of_known_strengths() -> None:
    fit = fit_ratings(synthetic_games(300, seed=8))
    assert fit.mu["easy"] < fit.mu["normal"] < fit.mu["hard"]
    assert all(fit.spread[lv] < 2.0 for lv in ("easy", "hard"))


def test_schedule_rotates_every_level_through_every_seat() -> None:
    for players, cycle in ((2, 6), (3, 6), (4, 12)):
        specs = schedule(players, 2 * cycle, seed=1)
        seats = Counter((lv, seat) for s in specs for seat, lv in enumerate(s.levels))
        for lv in BOT_LEVELS:
            assert len({seats[(lv, seat)] for seat in range(players)}) == 1, (players, lv)
        for a in BOT_LEVELS:
            for b in BOT_LEVELS:
                if a != b:
                    assert any({a, b} <= set(s.levels) for s in specs), (players, a, b)
        assert [s.cycle for s in specs] == [g // cycle for g in range(2 * cycle)]

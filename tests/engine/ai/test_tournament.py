"""The tournament's arithmetic and seating (its games are benchmarks, not tests)."""

from __future__ import annotations

import pytest

from tests.benchmarks.ai_tournament import GameSpec, play, report, seating, wilson


def test_wilson_interval() -> None:
    lo, hi = wilson(130, 200)  # 65 % of 200: the target, with its margin
    assert lo == pytest.approx(0.5815, abs=1e-3) and hi == pytest.approx(0.7133, abs=1e-3)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(1 - hi)


def test_twins_swap_the_sides() -> None:
    two = [seating(GameSpec(("a", "b"), 2, 1, g)) for g in range(4)]
    assert two == [(0, 1), (1, 0), (0, 1), (1, 0)]
    four = [seating(GameSpec(("a", "b"), 4, 1, g)) for g in range(8)]
    for first, second in zip(four[::2], four[1::2], strict=True):
        assert [1 - x for x in first] == list(second)
    assert all(sorted(x) == [0, 0, 1, 1] for x in four)


def test_twins_share_their_dice_and_a_mirror_pair_reports_sides(
    capsys: pytest.CaptureFixture[str],
) -> None:
    results = [play(GameSpec(("random", "random"), 2, 3, g)) for g in range(2)]
    assert results[0].first == results[1].first  # the same chance outcomes
    assert results[0].sides != results[1].sides
    report(("random", "random"), results, 2)
    out = capsys.readouterr().out
    first = out.splitlines()[0]
    assert first.startswith("random vs random: random wins ") and "over 2 games" in first
    assert "side A" in out and "equal play: 50 %" in out


def test_stats_count_what_each_side_did(capsys: pytest.CaptureFixture[str]) -> None:
    spec = GameSpec(("random", "easy"), 2, 5, 0, stats=True, slowest=2)
    r = play(spec)
    seats = [x for lv in ("random", "easy") for x in r.tally[lv]]
    assert len(seats) == 2
    # every colony a side placed was counted once, by the facility that placed it
    for seat in seats:
        by_source = sum(v for k, v in seat.items() if k.startswith("colonies by "))
        assert by_source == seat.get("colonies placed", 0)
        assert seat["end: colonies left"] + by_source == 8
    assert len(r.slowest) == 2 and r.slowest[0][0] >= r.slowest[1][0]
    for lv in ("random", "easy"):  # each level's slowest decision is kept, to time it again
        assert r.slowest_each[lv][0] == max(r.decisions[lv])
    report(("random", "easy"), [r], 2)
    out = capsys.readouterr().out
    assert "easy per seat and game (1 seats):" in out and "slow " in out
    assert out.count("(that decision again alone: ") == 2

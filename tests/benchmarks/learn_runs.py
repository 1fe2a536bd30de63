"""How the guided game (``/af learn``) goes for three kinds of learner: one who follows every
⭐, one who picks something else half of the time, one who picks at random. Prints, per
learner and seed: the lessons shown (of all), taught, let go; the picks and learner turns
the script took; whether it ended before the game; the "comes back later" lines kept;
and for the follower how often the normal AI's first pick (the Hint) is the ⭐ pick.

    python tests/benchmarks/learn_runs.py [--seeds 8] [--hint]

Asserts nothing (tests/bot/test_learn_script.py holds the figures it needs).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.play.learn import LESSONS
from tests.bot.test_learn_script import Played, kept_promises, play

LEARNERS = (("follows", 1.0), ("strays half the time", 0.5), ("picks at random", 0.0))
LANGUAGES = ("en", "ru", "pl")


def hint_agreement(seed: int) -> tuple[int, int]:
    """For a follower: decisions where the normal AI's plan starts with the ⭐ pick."""
    import random

    from bot.play.ai import hint_plan
    from bot.play.learn import (
        LEARNER,
        advance,
        guidance,
        opponent_move,
        scripted_outcome,
        start,
    )
    from engine import CHANCE, GameConfig, apply, legal_actions, new_game
    from engine.ai import make_ai
    from engine.chance import sample_chance

    s = new_game(GameConfig(players=2))
    p = start()
    ai = make_ai("easy", seed=seed)
    same = total = 0
    while not s.over and not p.over:
        if s.to_act() == CHANCE:
            a = scripted_outcome(p, s) or sample_chance(s, random.Random(s.version))
        elif s.to_act() == LEARNER:
            g = guidance(p, s)
            assert g is not None
            a = g.action
            if len(legal_actions(s)) > 1:
                total += 1
                same += hint_plan(s, seed)[:1] == [a]
        else:
            a = opponent_move(p, s, ai.choose(s))
        after = apply(s, a)
        p = advance(p, s, a, after)
        s = after
    return same, total


def line(name: str, runs: Sequence[Played]) -> str:
    n = len(LESSONS)
    seen = [len(set(r.progress.seen)) for r in runs]
    taught = [len(r.progress.taught) for r in runs]
    first = sum(r.progress.over_turn < r.state.turn_number for r in runs)
    promises = sum(len(r.promises) for r in runs)
    broken = sum(len(kept_promises(r)) for r in runs)
    turns = [r.learner_turns for r in runs]
    picks = [r.picks for r in runs]
    return (
        f"{name:22s} lessons shown {min(seen)}-{max(seen)} of {n} "
        f"(all in {sum(x == n for x in seen)}/{len(runs)}), taught median "
        f"{statistics.median(taught):.0f}, script ended before the game {first}/{len(runs)}, "
        f"learner turns median {statistics.median(turns):.0f}, picks median "
        f"{statistics.median(picks):.0f}, 'comes back later' kept {promises - broken}/{promises}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=8)
    parser.add_argument("--hint", action="store_true", help="the Hint against the ⭐ too")
    args = parser.parse_args(argv)
    for name, follow in LEARNERS:
        runs = [play(seed, LANGUAGES[seed % 3], follow) for seed in range(1, args.seeds + 1)]
        print(line(name, runs))
        for r, seed in zip(runs, range(1, args.seeds + 1), strict=True):
            unseen = [x.id for x in LESSONS if x.id not in r.progress.seen]
            if unseen:
                print(f"    seed {seed}: not shown {unseen}")
    if args.hint:
        same = total = 0
        for seed in range(1, 4):
            s, t = hint_agreement(seed)
            same, total = same + s, total + t
        print(f"the normal AI's first pick is the ⭐ pick at {same} of {total} follower decisions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

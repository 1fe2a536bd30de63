"""How the guided game (``/af learn``) goes for learners who follow the ⭐ or stray from it,
played on the panel as a member plays it (``tests/bot/play/learn/learn_sim.py``: combined
picks, cut at a lesson's decision). Per kind of learner, over seeds: the lessons whose rule
was said (of all), the lessons done, the learner's turns and picks the script took, whether
it ended before the game, the "comes back" lines kept, and the claims the texts make about
the position, checked on it (``tests/bot/play/learn/test_learn_strays.py``: false ones
listed).

    python tests/benchmarks/learn_runs.py [--seeds 8] [--hint]

``--hint``: also the Hint along the ⭐ picks (``bot.play.tutor.guided_plan``), every
reason checked by the hint-truth benchmark's checks, and how often the normal AI would
start with the ⭐ pick. Asserts nothing (the default suite runs a seeded version).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.play.learn import LESSONS
from tests.bot.play.learn.learn_sim import Run, play
from tests.bot.play.learn.test_learn_strays import broken_promises, false_claims

# (name, straying style, share of ⭐ followed)
LEARNERS = (
    ("follows every ⭐", "mixed", 1.0),
    ("strays half (mixed)", "mixed", 0.5),
    ("strays half (End turn)", "early", 0.5),
    ("strays every other", "alternate", 0.5),
    ("strays half (combined)", "combo", 0.5),
    ("strays half (cards)", "cards", 0.5),
    ("strays 80% (mixed)", "mixed", 0.2),
    ("picks at random", "random", 0.0),
)
LANGUAGES = ("en", "ru", "pl")


def line(name: str, runs: Sequence[Run]) -> str:
    n = len(LESSONS)
    stated = [len(r.stated) for r in runs]
    taught = [len(r.progress.taught) for r in runs]
    first = sum(r.progress.over_turn < r.state.turn_number for r in runs)
    turns = [r.learner_turns for r in runs]
    picks = [r.picks for r in runs]
    promises = sum(
        x.tail in ("learn.back", "learn.back.now", "learn.back.rule") for r in runs for x in r.shown
    )
    broken = sum(len(broken_promises(r)) for r in runs)
    claims = [false_claims(r) for r in runs]
    checked = sum(c for c, _ in claims)
    false = sum(len(f) for _, f in claims)
    return (
        f"{name:24s} rules said {min(stated)}-{max(stated)} of {n} (all in "
        f"{sum(x == n for x in stated)}/{len(runs)}), done median "
        f"{statistics.median(taught):.0f}, learner turns median {statistics.median(turns):.0f} "
        f"({min(turns)}-{max(turns)}), picks median {statistics.median(picks):.0f}, script "
        f"ended first {first}/{len(runs)}, 'comes back' kept {promises - broken}/{promises}, "
        f"position claims {checked} checked, {false} false"
    )


def hint_figures(seeds: range) -> str:
    """The Hint along the ⭐ picks: its reasons checked, and the AI's first pick vs the ⭐."""
    from bot.play import learn
    from bot.play.ai import hint_plan
    from bot.play.tutor import guided_plan
    from engine import GameConfig, apply, new_game
    from tests.benchmarks import hint_truth

    checks = []
    same = total = 0
    for seed in seeds:
        for follow in (1.0, 0.5):
            run = play(seed, "mixed", follow)
            progress, s = learn.start(), new_game(GameConfig(players=2))
            for a in run.log:
                if s.to_act() == learn.LEARNER and learn.guidance(progress, s) is not None:
                    plan = guided_plan(progress, s)
                    checks += hint_truth.check_plan(s, plan)
                    total += 1
                    same += hint_plan(s, seed)[:1] == plan[:1]
                after = apply(s, a)
                progress = learn.advance(progress, s, a, after)
                s = after
    tally = Counter(c.verdict for c in checks)
    return (
        f"the Hint along the ⭐ picks: {len(checks)} reasons checked, {tally['true']} true, "
        f"{tally['misleading']} misleading, {tally['false']} false; the normal AI's first pick "
        f"is the ⭐ pick at {same} of {total} decisions (else the Hint says its pick and why)"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=8)
    parser.add_argument("--hint", action="store_true", help="the Hint along the ⭐ picks too")
    args = parser.parse_args(argv)
    seeds = range(1, args.seeds + 1)
    for name, style, follow in LEARNERS:
        runs = [play(seed, style, follow, LANGUAGES[seed % 3]) for seed in seeds]
        print(line(name, runs))
        for r in runs:
            unsaid = [x.id for x in LESSONS if x.id not in r.stated]
            if unsaid:
                print(f"    seed {r.seed}: rule never said {unsaid}")
            false = false_claims(r)[1]
            if false:
                print(f"    seed {r.seed}: false {false}")
    if args.hint:
        print(hint_figures(range(1, min(args.seeds, 4) + 1)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

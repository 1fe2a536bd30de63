"""Fixed AI games: a hash of each game's action log and the CPU time of each level's
decisions; prints figures, asserts nothing.

    python tests/benchmarks/ai_fixed_games.py [--pairs hard:normal:6,normal:normal:2]
        [--seed 1] [--runs 1]

Each game is game ``index`` of its pair in ``ai_tournament.py`` (played by its ``play``:
the same seating, players' seeds and dice). A speed-up of the AI that must not change
its play is checked by running this before and after: every game's hash must be the
same. The CPU time (``time.process_time``) is summed over each level's decisions; with
``--runs N`` every game is played N times and the median of each figure is printed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.benchmarks.ai_tournament import GameSpec, play


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--pairs", default="hard:normal:6,normal:normal:2,hard:hard:2")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=1)
    args = ap.parse_args(argv)
    totals: dict[str, list[float]] = {}
    for run in range(args.runs):
        sums: dict[str, float] = {}
        for part in args.pairs.split(","):
            a, b, games = part.split(":")
            for g in range(int(games)):
                result = play(GameSpec((a, b), args.players, args.seed, g))
                if run == 0:
                    print(
                        f"{a}:{b} game {g}: {result.actions} actions, log {result.log_hash}",
                        flush=True,
                    )
                for level, times in result.decisions.items():
                    sums[level] = sums.get(level, 0.0) + sum(times)
        line = ", ".join(f"{lv} {sec:.2f} s" for lv, sec in sorted(sums.items()))
        print(f"run {run + 1}: CPU time deciding: {line}", flush=True)
        for level, sec in sums.items():
            totals.setdefault(level, []).append(sec)
    line = ", ".join(f"{lv} {statistics.median(x):.2f} s" for lv, x in sorted(totals.items()))
    print(f"median of {args.runs} runs: {line}")


if __name__ == "__main__":
    main()

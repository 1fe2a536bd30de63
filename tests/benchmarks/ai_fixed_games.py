"""Fixed AI games: a hash of each game's action log and the CPU time of each level's
decisions; prints figures, asserts nothing.

    python tests/benchmarks/ai_fixed_games.py [--pairs hard:normal:6,normal:normal:2]
        [--seed 1] [--runs 1]

Each game is played exactly as ``ai_tournament.py`` plays game ``index`` of its pair
(the same seating, players' seeds and dice). A speed-up of the AI that must not change
its play is checked by running this before and after: every game's hash must be the
same. The CPU time (``time.process_time``) is summed over each level's decisions; with
``--runs N`` every game is played N times and the median of each figure is printed.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine import CHANCE, GameConfig, apply_in_place, new_game, sample_chance
from engine.ai.base import mix
from tests.benchmarks.ai_tournament import MAX_ACTIONS, GameSpec, make_player, seating


def play_logged(spec: GameSpec) -> tuple[str, int, dict[str, float]]:
    """Game ``spec.index`` of its pair as the tournament plays it: the hash of its log,
    its length in actions, and the CPU seconds spent deciding, per level."""
    sides = seating(spec)
    twin = spec.index // 2
    seeds = [mix(spec.seed, spec.index, seat, side) for seat, side in enumerate(sides)]
    players = [make_player(spec.pair[side], seeds[seat]) for seat, side in enumerate(sides)]
    rng = random.Random(mix(spec.seed, twin, 99))
    s = new_game(GameConfig(players=spec.players))
    digest = hashlib.sha256()
    cpu: dict[str, float] = {}
    actions = 0
    while not s.over and actions < MAX_ACTIONS:
        seat = s.to_act()
        if seat == CHANCE:
            a = sample_chance(s, rng)
        else:
            level = spec.pair[sides[seat]]
            t = time.process_time()
            a = players[seat].choose(s)
            cpu[level] = cpu.get(level, 0.0) + time.process_time() - t
        digest.update(str(a).encode())
        digest.update(b"\n")
        apply_in_place(s, a)
        actions += 1
    return digest.hexdigest()[:16], actions, cpu


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
                spec = GameSpec((a, b), args.players, args.seed, g)
                h, n, cpu = play_logged(spec)
                if run == 0:
                    print(f"{a}:{b} game {g}: {n} actions, log {h}", flush=True)
                for level, sec in cpu.items():
                    sums[level] = sums.get(level, 0.0) + sec
        line = ", ".join(f"{lv} {sec:.2f} s" for lv, sec in sorted(sums.items()))
        print(f"run {run + 1}: CPU time deciding: {line}", flush=True)
        for level, sec in sums.items():
            totals.setdefault(level, []).append(sec)
    line = ", ".join(f"{lv} {statistics.median(x):.2f} s" for lv, x in sorted(totals.items()))
    print(f"median of {args.runs} runs: {line}")


if __name__ == "__main__":
    main()

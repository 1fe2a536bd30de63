"""Board image speed: prints figures, asserts nothing (tests never assert on time).

    python tests/benchmarks/bench_render.py [--runs 5] [--renders 40]

Renders a 4-player mid-game state (seeded random play) ``--renders`` times per run,
PNG encoding included, and prints the median per render (median of the runs' medians)
and the PNG size. The first render of a process (background cache) is reported apart.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.render import render_board
from engine.config import GameConfig
from engine.rules import apply_in_place
from engine.selfplay import random_action
from engine.setup import new_game
from engine.state import CHANCE, GameState


def mid_game(seed: int = 7, actions: int = 450) -> GameState:
    rng = random.Random(seed)
    s = new_game(GameConfig(players=4))
    while s.version < actions or s.to_act() == CHANCE:
        apply_in_place(s, random_action(s, rng))
    return s


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--renders", type=int, default=40)
    args = parser.parse_args()
    s = mid_game()
    names = ["Ada", "Boris", "Zofia", "Chidi"]
    t = time.perf_counter()
    png = render_board(s, names)
    first = time.perf_counter() - t
    medians = []
    for _ in range(args.runs):
        times = []
        for _ in range(args.renders):
            t = time.perf_counter()
            png = render_board(s, names)
            times.append(time.perf_counter() - t)
        medians.append(statistics.median(times))
    print(f"state: 4 players, round {s.round}, {s.version} actions in")
    print(f"first render (builds the cached background): {first * 1000:.0f} ms")
    print(f"median per render incl. PNG encoding: {statistics.median(medians) * 1000:.1f} ms")
    print(f"  (runs: {', '.join(f'{m * 1000:.1f}' for m in medians)} ms)")
    print(f"PNG size: {len(png) / 1024:.0f} KB")


if __name__ == "__main__":
    main()

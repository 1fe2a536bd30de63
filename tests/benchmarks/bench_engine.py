"""Engine speed: prints figures, asserts nothing (tests never assert on time).

    python tests/benchmarks/bench_engine.py [--runs 5] [--games 40]

Figures (each the median of --runs runs, one core):
  complete random 4-player games per second, applied actions per second (by the wall
  clock, and by the CPU time of this process, steadier on a shared machine),
  median microseconds of legal_actions, of serialise + load, and of replaying a whole game.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.config import GameConfig
from engine.game import Game
from engine.legal import legal_actions
from engine.rules import apply_in_place
from engine.selfplay import play_random_game, random_action
from engine.serialize import dumps, loads
from engine.setup import new_game
from engine.state import CHANCE, GameState


def games_per_second(games: int, seed: int) -> tuple[float, float, float, float]:
    """Games and actions per second of wall clock, then per second of CPU time."""
    config = GameConfig(players=4)
    start = time.perf_counter()
    cpu = time.process_time()
    actions = 0
    for g in range(games):
        actions += len(play_random_game(config, seed + g).log)
    elapsed = time.perf_counter() - start
    used = time.process_time() - cpu
    return games / elapsed, actions / elapsed, games / used, actions / used


def sample_states(seed: int, count: int) -> list[GameState]:
    rng = random.Random(seed)
    out: list[GameState] = []
    while len(out) < count:
        s = new_game(GameConfig(players=4))
        while not s.over and len(out) < count:
            if s.to_act() != CHANCE and rng.random() < 0.1:
                out.append(s.copy())
            apply_in_place(s, random_action(s, rng))
    return out


def median_us(fn: object, items: list[object]) -> float:
    times = []
    for item in items:
        t = time.perf_counter()
        fn(item)  # type: ignore[operator]
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--games", type=int, default=40)
    args = parser.parse_args()
    states = sample_states(1, 400)
    logs = [
        [str(a) for a in play_random_game(GameConfig(players=4), 500 + i).log] for i in range(10)
    ]
    keys = ("gps", "aps", "gps_cpu", "aps_cpu", "legal", "json", "replay")
    rows: dict[str, list[float]] = {k: [] for k in keys}
    for run in range(args.runs):
        for key, value in zip(keys, games_per_second(args.games, 1000 * run), strict=False):
            rows[key].append(value)
        rows["legal"].append(median_us(legal_actions, states))  # type: ignore[arg-type]
        rows["json"].append(median_us(lambda s: loads(dumps(s)), states))  # type: ignore[arg-type]
        rows["replay"].append(
            median_us(lambda log: Game.replay(GameConfig(players=4), log), logs)  # type: ignore[arg-type]
        )
    med = {k: statistics.median(v) for k, v in rows.items()}
    print(f"runs: {args.runs} (median of runs), games per run: {args.games}")
    print(f"complete random 4-player games/s: {med['gps']:.1f}")
    print(f"applied actions/s:                {med['aps']:.0f}")
    print(f"games/s, actions/s of CPU time:   {med['gps_cpu']:.1f}, {med['aps_cpu']:.0f}")
    print(f"legal_actions median:             {med['legal']:.0f} us")
    print(f"serialise + load median:          {med['json']:.0f} us")
    print(f"replay of a whole game median:    {med['replay'] / 1000:.1f} ms")


if __name__ == "__main__":
    main()

"""AI tournament: seeded games between AI levels; prints figures, asserts nothing.

    python tests/benchmarks/ai_tournament.py --games 200 --players 2 --seed 1 \\
        [--budget-ms 1400] [--pairs hard:normal,normal:easy,easy:random] [--procs 2]

For each pair A:B, game g seats the two levels alternately around the table, the
first seat going to A in even games and to B in odd ones (with 3 or 4 players the
seats rotate as well). Printed per pair: each level's win rate (a shared win counts
half), the mean game length in rounds, and the time per decision (median and max);
for the hard level also the time per turn (all its decisions in one turn).
``random`` (uniform random legal play) may be used as a level.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine import CHANCE, GameConfig, apply_in_place, new_game, outcome, sample_chance
from engine.ai import LEVELS, AIPlayer, RandomAI, make_ai
from engine.ai.base import mix
from engine.ai.hard import DEFAULT_BUDGET_MS

MAX_ACTIONS = 20_000


@dataclass(frozen=True)
class GameSpec:
    pair: tuple[str, str]
    players: int
    seed: int
    index: int
    budget_ms: int | None


@dataclass
class GameResult:
    spec: GameSpec
    seats: tuple[str, ...]
    winners: tuple[int, ...]
    rounds: int
    finished: bool
    decisions: dict[str, list[float]] = field(default_factory=dict)
    turns: dict[str, list[float]] = field(default_factory=dict)


def make_player(level: str, seed: int, budget_ms: int | None) -> AIPlayer:
    if level == "random":
        return RandomAI(seed)
    if level not in LEVELS:
        raise SystemExit(f"unknown level {level!r}")
    return make_ai(level, seed, budget_ms)


def seating(spec: GameSpec) -> tuple[str, ...]:
    """Levels alternate around the table; A starts in even games; seats rotate by game."""
    a, b = spec.pair
    order = [a, b] if spec.index % 2 == 0 else [b, a]
    seats = [order[i % 2] for i in range(spec.players)]
    shift = (spec.index // 2) % spec.players if spec.players > 2 else 0
    return tuple(seats[shift:] + seats[:shift])


def play(spec: GameSpec) -> GameResult:
    seats = seating(spec)
    players = [
        make_player(level, mix(spec.seed, spec.index, seat), spec.budget_ms)
        for seat, level in enumerate(seats)
    ]
    rng = random.Random(mix(spec.seed, spec.index, 99))
    s = new_game(GameConfig(players=spec.players))
    result = GameResult(spec, seats, (), 0, False)
    turn_time: dict[tuple[int, int], float] = {}
    actions = 0
    while not s.over and actions < MAX_ACTIONS:
        seat = s.to_act()
        if seat == CHANCE:
            a = sample_chance(s, rng)
        else:
            t = time.perf_counter()
            a = players[seat].choose(s)
            dt = time.perf_counter() - t
            result.decisions.setdefault(seats[seat], []).append(dt)
            key = (s.turn_number, seat)
            turn_time[key] = turn_time.get(key, 0.0) + dt
        apply_in_place(s, a)
        actions += 1
    for (_, seat), dt in turn_time.items():
        result.turns.setdefault(seats[seat], []).append(dt)
    result.rounds = s.round
    result.finished = s.over
    o = outcome(s)
    result.winners = o.winners if o is not None else ()
    return result


def specs(args: argparse.Namespace) -> Iterator[GameSpec]:
    for pair_text in args.pairs.split(","):
        a, b = pair_text.split(":")
        for g in range(args.games):
            yield GameSpec((a, b), args.players, args.seed, g, args.budget_ms)


def ms(xs: list[float]) -> str:
    if not xs:
        return "-"
    return f"median {statistics.median(xs) * 1000:.1f} ms, max {max(xs) * 1000:.0f} ms"


def report(pair: tuple[str, str], results: list[GameResult], players: int) -> None:
    a, b = pair
    points = {a: 0.0, b: 0.0}
    seats_of = {a: 0, b: 0}
    unfinished = 0
    for r in results:
        if not r.finished:
            unfinished += 1
        for w in r.winners:
            points[r.seats[w]] += 1.0 / len(r.winners)
        for lv in r.seats:
            seats_of[lv] += 1
    n = len(results)
    print(f"== {a} vs {b}: {n} games, {players} players")
    for lv in (a, b):
        fair = seats_of[lv] / (players * n) if n else 0.0
        print(
            f"  {lv:<7} win rate {points[lv] / n:6.1%} ({points[lv]:g} of {n} games;"
            f" equal play would give {fair:.0%})"
        )
    rounds = [r.rounds for r in results if r.finished]
    if rounds:
        print(f"  mean game length {statistics.mean(rounds):.1f} rounds")
    if unfinished:
        print(f"  {unfinished} games stopped unfinished after {MAX_ACTIONS} actions")
    for lv in (a, b) if a != b else (a,):
        dec = [x for r in results for x in r.decisions.get(lv, [])]
        line = f"  {lv:<7} time per decision: {ms(dec)}"
        if lv == "hard":
            turns = [x for r in results for x in r.turns.get(lv, [])]
            line += f"; per turn: {ms(turns)}"
        print(line)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--budget-ms", type=int, default=None, help="hard level's budget per turn")
    ap.add_argument("--pairs", default="hard:normal,normal:easy,easy:random")
    ap.add_argument("--procs", type=int, default=2, help="worker processes")
    args = ap.parse_args(argv)
    if args.budget_ms is not None and args.budget_ms != DEFAULT_BUDGET_MS:
        print(
            f"NOTE: hard level's budget set to {args.budget_ms} ms per turn"
            f" (default {DEFAULT_BUDGET_MS} ms)"
        )
    print(f"seed {args.seed}, {args.games} games per pair, {args.procs} processes")
    todo = list(specs(args))
    start = time.perf_counter()
    if args.procs > 1:
        with Pool(args.procs) as pool:
            results = list(pool.imap_unordered(play, todo, chunksize=1))
    else:
        results = [play(x) for x in todo]
    by_pair: dict[tuple[str, str], list[GameResult]] = {}
    for r in results:
        by_pair.setdefault(r.spec.pair, []).append(r)
    for pair_text in args.pairs.split(","):
        a, b = pair_text.split(":")
        report((a, b), sorted(by_pair.get((a, b), []), key=lambda r: r.spec.index), args.players)
    print(f"wall time {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()

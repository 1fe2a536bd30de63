"""AI tournament: seeded games between AI levels; prints figures, asserts nothing.

    python tests/benchmarks/ai_tournament.py --games 200 --players 2 --seed 1 \\
        [--pairs hard:normal,normal:easy,easy:random] [--procs 2]

For each pair A:B the games come in twins that share their dice (common random
numbers: the same chance outcomes, the same first player): in the first of a twin A
sits in the even seats and B in the odd ones, in the second they swap. With 3 or 4
players the seats also rotate from one twin to the next. A mirror pair (normal:normal)
is played the same way between two sides of the same level, so its win rate is a
check of the seating (it should be near 50 %), and its game length is the figure that
matters. Every game is determined by ``--seed`` and its number.

Printed per pair: ``A vs B: A wins W % [lo–hi] over N games, R rounds`` (a shared win
counts half; the 95 % Wilson score interval), the win rate of each seat in turn order
(first player, second...) overall and for each side, the mean game length in rounds
and the time per decision (median, max) per level; for the hard level also per turn.
Times are the CPU time of the deciding process (what the decision costs on an idle
machine, whatever else runs here), followed by the wall-clock figures.
With ``--stats``, also what each level does per game (why games last as long as they
do): colonies placed by the Colony Constructor, the Terraforming Station and launches
from the Colony Hub, the round of its first colony and of its 5th and 6th ships,
colonies placed per round from the first on, ships docked at each facility, cards
claimed, raids, Plasma Cannon discards, ships sent to the Maintenance Bay unused, and
what it holds at the end (fuel, ore, ships, cards, colonies left).
The slowest decision of each level is made again alone at the end (see ``--slowest``)
and its time printed beside the run's maximum: on this shared machine a decision's CPU
time in a run can be several times what it costs.
``--slowest N`` prints the N slowest decisions with the state each was made in
(``engine.serialize`` JSON), to find what makes a search slow, and each one's time
again, made alone in this process by a fresh player of the same seed (median of 3): on
a shared machine a decision's CPU time in the run can be several times what it costs.
``random`` (uniform random legal play) may be used as a level.
A level named with ``-noplasma`` (``normal-noplasma``, ``hard-noplasma``) is an
experiment, not a level: that AI never considers discarding the Plasma Cannon, to
measure how much of the games' length is the fight over ships, and what the discard is
worth (README, "Why games are long").
"""

from __future__ import annotations

import argparse
import hashlib
import math
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine import CHANCE, GameConfig, GameState, apply_in_place, new_game, outcome, sample_chance
from engine.actions import Action, Claim, DiscardPlasma, Dock, EndTurn, Place
from engine.ai import LEVELS, AIPlayer, RandomAI, make_ai
from engine.ai.base import mix
from engine.ai.normal import PlanFollower
from engine.serialize import dumps, loads
from engine.tables import SHIPS_PER_COLOUR

MAX_ACTIONS = 20_000
Z95 = 1.959964


@dataclass(frozen=True)
class GameSpec:
    pair: tuple[str, str]
    players: int
    seed: int
    index: int
    stats: bool = False
    slowest: int = 0


@dataclass
class GameResult:
    spec: GameSpec
    sides: tuple[int, ...]  # per seat: 0 for side A, 1 for side B
    first: int  # the seat that played first
    winners: tuple[int, ...]
    rounds: int
    finished: bool
    decisions: dict[str, list[float]] = field(default_factory=dict)
    turns: dict[str, list[float]] = field(default_factory=dict)
    wall: dict[str, list[float]] = field(default_factory=dict)
    tally: dict[str, list[dict[str, float]]] = field(default_factory=dict)  # per level: seats
    # (seconds, level, player's seed, state)
    slowest: list[tuple[float, str, int, str]] = field(default_factory=list)
    # per level: its slowest decision in the game (seconds, player's seed, state)
    slowest_each: dict[str, tuple[float, int, str]] = field(default_factory=dict)
    actions: int = 0  # actions played, chance outcomes included
    log_hash: str = ""  # of the action log: the same game gives the same hash

    def points(self, side: int) -> float:
        """The side's points in this game (a shared win counts half)."""
        return sum(1.0 / len(self.winners) for w in self.winners if self.sides[w] == side)

    def position(self, seat: int) -> int:
        """Where the seat came in turn order (0: first player)."""
        return (seat - self.first) % len(self.sides)


NO_PLASMA = "-noplasma"  # a level's variant that never discards the Plasma Cannon


def make_player(level: str, seed: int) -> AIPlayer:
    if level == "random":
        return RandomAI(seed)
    base = level.removesuffix(NO_PLASMA)
    if base not in LEVELS:
        raise SystemExit(f"unknown level {level!r}; choose from {', '.join(LEVELS)}, random")
    player = make_ai(base, seed)
    if base != level:
        if not isinstance(player, PlanFollower):
            raise SystemExit(f"{NO_PLASMA} is for the searching levels (normal, hard)")
        player.never = frozenset({DiscardPlasma})
    return player


def seating(spec: GameSpec) -> tuple[int, ...]:
    """Per seat, its side: A in the even seats of the first game of a twin, B in the
    second; with 3 or 4 players the seats rotate from twin to twin."""
    swap = spec.index % 2
    sides = [(i + swap) % 2 for i in range(spec.players)]
    shift = (spec.index // 2) % spec.players if spec.players > 2 else 0
    return tuple(sides[shift:] + sides[:shift])


def count(s: GameState, a: Action, seat: int, c: Counter[str]) -> None:
    """What the seat's action ``a`` in ``s`` does, added to ``c`` (``--stats``)."""
    if isinstance(a, Dock):
        c[f"docks at {a.facility}"] += 1
        c["ships docked"] += len(a.dice)
    elif isinstance(a, Place):
        c[f"colonies by {getattr(s.pending[0], 'source', '?')}"] += 1
        c["colonies placed"] += 1
        c.setdefault("first colony, round", s.round)
    elif isinstance(a, EndTurn):
        c["ships unused"] += len(s.undocked)
    elif isinstance(a, Claim):
        c["cards claimed"] += 1
    elif isinstance(a, DiscardPlasma):
        c["Plasma Cannon discards"] += 1


def milestones(s: GameState, c: list[Counter[str]]) -> None:
    """The rounds in which each seat first has 5 and 6 ships (``--stats``)."""
    for seat, pl in enumerate(s.players):
        ships = SHIPS_PER_COLOUR - pl.stock
        for k in (5, 6):
            if ships >= k:
                c[seat].setdefault(f"ship {k}, round", s.round)


def end_of_game(s: GameState, seat: int, c: Counter[str]) -> None:
    """What the seat holds when the game ends, and its pace (``--stats``)."""
    pl = s.players[seat]
    c["end: fuel"] = pl.fuel
    c["end: ore"] = pl.ore
    c["end: ships"] = SHIPS_PER_COLOUR - pl.stock
    c["end: cards"] = len(pl.cards)
    c["end: colonies left"] = pl.colonies + (1 if pl.hub else 0)
    if "first colony, round" in c:
        span = s.round - c["first colony, round"] + 1
        c["colonies per round from the first"] = c["colonies placed"] / span  # type: ignore[assignment]


def play(spec: GameSpec) -> GameResult:
    sides = seating(spec)
    twin = spec.index // 2
    seeds = [mix(spec.seed, spec.index, seat, side) for seat, side in enumerate(sides)]
    players = [make_player(spec.pair[side], seeds[seat]) for seat, side in enumerate(sides)]
    rng = random.Random(mix(spec.seed, twin, 99))  # the twins share their dice
    s = new_game(GameConfig(players=spec.players))
    result = GameResult(spec, sides, 0, (), 0, False)
    turn_time: dict[tuple[int, int], float] = {}
    actions = 0
    counts: list[Counter[str]] = [Counter() for _ in sides]
    digest = hashlib.sha256()
    while not s.over and actions < MAX_ACTIONS:
        seat = s.to_act()
        if seat == CHANCE:
            a = sample_chance(s, rng)
        else:
            level = spec.pair[sides[seat]]
            t, w = time.process_time(), time.perf_counter()
            a = players[seat].choose(s)
            dt = time.process_time() - t
            result.decisions.setdefault(level, []).append(dt)
            result.wall.setdefault(level, []).append(time.perf_counter() - w)
            key = (s.turn_number, seat)
            turn_time[key] = turn_time.get(key, 0.0) + dt
            if spec.stats:
                count(s, a, seat, counts[seat])
            top = result.slowest_each.get(level)
            if top is None or dt > top[0]:
                result.slowest_each[level] = (dt, seeds[seat], dumps(s))
            if spec.slowest and (len(result.slowest) < spec.slowest or dt > result.slowest[-1][0]):
                result.slowest.append((dt, level, seeds[seat], dumps(s)))
                result.slowest.sort(key=lambda x: -x[0])
                del result.slowest[spec.slowest :]
        digest.update(f"{a}\n".encode())
        apply_in_place(s, a)
        actions += 1
        if spec.stats:
            milestones(s, counts)
    for (_, seat), dt in turn_time.items():
        result.turns.setdefault(spec.pair[sides[seat]], []).append(dt)
    if spec.stats:
        for seat, c in enumerate(counts):
            end_of_game(s, seat, c)
            result.tally.setdefault(spec.pair[sides[seat]], []).append(dict(c))
    result.actions = actions
    result.log_hash = digest.hexdigest()[:16]
    result.first = s.first_player
    result.rounds = s.round
    result.finished = s.over
    o = outcome(s)
    result.winners = o.winners if o is not None else ()
    return result


def specs(args: argparse.Namespace) -> Iterator[GameSpec]:
    for pair in pairs(args.pairs):
        for g in range(args.games):
            yield GameSpec(pair, args.players, args.seed, g, args.stats, args.slowest)


def pairs(text: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for part in text.split(","):
        a, _, b = part.partition(":")
        if not a or not b:
            raise SystemExit(f"a pair is written A:B, not {part!r}")
        out.append((a, b))
    return out


def wilson(points: float, n: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of a rate of ``points`` in ``n`` trials."""
    if n == 0:
        return (0.0, 1.0)
    p = points / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def ms(xs: list[float]) -> str:
    if not xs:
        return "-"
    return f"median {statistics.median(xs) * 1000:.1f} ms, max {max(xs) * 1000:.0f} ms"


def pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def report(pair: tuple[str, str], results: list[GameResult], players: int) -> None:
    a, b = pair
    n = len(results)
    if n == 0:
        return
    mirror = a == b
    names = (f"{a} (side A)", f"{b} (side B)") if mirror else (a, b)
    points_a = sum(r.points(0) for r in results)
    lo, hi = wilson(points_a, n)
    finished = [r.rounds for r in results if r.finished]
    mean_rounds = statistics.mean(finished) if finished else float("nan")
    print(
        f"{a} vs {b}: {a} wins {pct(points_a / n)} [{pct(lo)}–{pct(hi)}]"
        f" over {n} games, {mean_rounds:.1f} rounds"
    )
    if mirror:
        print("  (a mirror pair: side A against side B of the same level; equal play: 50 %)")
    else:
        fair = sum(r.sides.count(0) for r in results) / (players * n)
        print(f"  {b} wins {pct(1 - points_a / n)}; equal play would give {a} {pct(fair)}")
    # Win rates by turn order: of whichever side sat there, and of each side.
    first_line = []
    for pos in range(players):
        won = sum(1.0 / len(r.winners) for r in results for w in r.winners if r.position(w) == pos)
        first_line.append(f"{ordinal(pos + 1)} {pct(won / n)}")
    print(f"  by seat in turn order: {', '.join(first_line)}")
    for side, name in enumerate(names):
        parts = []
        for pos in range(players):
            there = [
                r
                for r in results
                for seat in range(players)
                if r.position(seat) == pos and r.sides[seat] == side
            ]
            won = sum(
                1.0 / len(r.winners) for r in there for w in r.winners if r.position(w) == pos
            )
            parts.append(
                f"{ordinal(pos + 1)} {pct(won / len(there)) if there else '-'} ({len(there)})"
            )
        print(f"  {name} seated {ordinal(1)}..{ordinal(players)}: {', '.join(parts)}")
    if finished:
        sd = statistics.stdev(finished) if len(finished) > 1 else 0.0
        print(f"  game length {mean_rounds:.1f} rounds (sd {sd:.1f}, {len(finished)} games)")
    if len(finished) < n:
        print(f"  {n - len(finished)} games stopped unfinished after {MAX_ACTIONS} actions")
    for lv in (a,) if mirror else (a, b):
        dec = [x for r in results for x in r.decisions.get(lv, [])]
        wall = [x for r in results for x in r.wall.get(lv, [])]
        line = f"  {lv:<7} time per decision: {ms(dec)}"
        tops = [r.slowest_each[lv] for r in results if lv in r.slowest_each]
        if tops:
            dt, seed, state = max(tops, key=lambda x: x[0])
            line += f" (that decision again alone: {retimed(lv, seed, state) * 1000:.0f} ms)"
        if lv.startswith("hard"):
            turns = [x for r in results for x in r.turns.get(lv, [])]
            line += f"; per turn: {ms(turns)}"
        print(f"{line} (wall clock: {ms(wall)})")
    for lv in (a,) if mirror else (a, b):
        seats = [x for r in results for x in r.tally.get(lv, [])]
        if seats:
            print_tally(lv, seats)
    slow = sorted((x for r in results for x in r.slowest), key=lambda x: -x[0])
    for dt, lv, seed, state in slow[: results[0].spec.slowest]:
        alone = retimed(lv, seed, state)
        print(
            f"  slow {lv} decision, {dt * 1000:.0f} ms CPU (alone: {alone * 1000:.0f} ms): {state}"
        )


def retimed(level: str, seed: int, state: str, runs: int = 3) -> float:
    """The CPU time of a decision in ``state`` made again here by a fresh player, median."""
    times = []
    for _ in range(runs):
        s = loads(state)
        player = make_player(level, seed)
        t = time.process_time()
        player.choose(s)
        times.append(time.process_time() - t)
    return statistics.median(times)


def print_tally(level: str, seats: list[dict[str, float]]) -> None:
    """Per seat of the level, the mean of each count (``--stats``); a milestone's mean
    is over the seats that reached it."""
    print(f"  {level} per seat and game ({len(seats)} seats):")
    keys = sorted({k for x in seats for k in x})
    for k in keys:
        got = [x[k] for x in seats if k in x]
        if "round" in k or "per round" in k:
            print(f"    {k:<36} {statistics.mean(got):6.2f} ({len(got)} seats)")
        else:
            print(f"    {k:<36} {sum(got) / len(seats):6.2f}")


def ordinal(k: int) -> str:
    return f"{k}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(k, 'th') }"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--games", type=int, default=20, help="games per pair (even: twins)")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pairs", default="hard:normal,normal:easy,easy:random")
    ap.add_argument("--procs", type=int, default=2, help="worker processes")
    ap.add_argument("--stats", action="store_true", help="what each level does per game")
    ap.add_argument("--slowest", type=int, default=0, help="print the N slowest decisions")
    args = ap.parse_args(argv)
    todo = list(specs(args))
    print(
        f"seed {args.seed}, {args.games} games per pair, {args.players} players,"
        f" {args.procs} processes",
        flush=True,
    )
    start = time.perf_counter()
    if args.procs > 1:
        with Pool(args.procs) as pool:
            results = list(pool.imap_unordered(play, todo, chunksize=1))
    else:
        results = [play(x) for x in todo]
    by_pair: dict[tuple[str, str], list[GameResult]] = {}
    for r in results:
        by_pair.setdefault(r.spec.pair, []).append(r)
    for pair in pairs(args.pairs):
        report(pair, sorted(by_pair.get(pair, []), key=lambda r: r.spec.index), args.players)
    print(f"wall time {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()

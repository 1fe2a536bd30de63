"""Tune the evaluation's weights by self-play (SPSA), and compare sets of weights.

    python tools/tune_weights.py spsa --iterations 300 --seed 1 [--start FILE] [--procs 2]
    python tools/tune_weights.py match --weights FILE [--against FILE|NAME] --games 40
    python tools/tune_weights.py match --set late_floor=0 --set 'ship*=0.7' --against issue17a

``spsa``: simultaneous perturbation stochastic approximation, as chess engines tune
their evaluations. Every iteration draws ``--batch`` random directions (a sign per
weight); for each it plays a twin of games between the weights moved one way and the
weights moved the other way, with the same dice in both games of the twin and the
seats swapped (common random numbers: the dice cancel out of the comparison), and
steps the weights along each direction in proportion to the result. The result of a
game counts the win (a shared win half) and, with ``--vp-weight``, the VP margin, which
rewards building more and sooner and is less noisy than the win alone. Steps shrink
over the run (a_k = a / (k + 1 + A)^0.602, c_k = c / (k + 1)^0.101, Spall's gains).
Games are played by the normal level's planner at a narrower beam and a smaller node
cap (``--width``, ``--nodes``), which is fast and ranks weights like the full search.
Everything is seeded: the same command gives the same weights. Both cores are used
(``--procs``). The weights are printed every 10 iterations and written, as a
``Weights(...)`` expression, to ``--out`` (``engine/ai/normal.py`` takes them in by hand).

With ``--length-weight``, a win also counts for more the shorter the game (against
``--par`` rounds), so that of two ways to win the quicker one is preferred: games
between our AIs lasted half again as long as games between strong players.

``match``: twins of 2-player games between two sets of weights at the normal level's
full search; prints the win rate with its 95 % Wilson interval and the mean length.
``--against`` takes a file or the name of a kept set (``REFERENCES``: earlier normal
levels), so a new set can be shown to be at least as strong as the one it replaces.
``--set`` changes the weights (``NAME=VALUE``, ``NAME*=FACTOR`` to scale a weight or a
table, ``card.plasma=2`` for one entry of a table), so a variant needs no file. The VP
margin is printed with its standard error over the twins (the two games of a twin share
their dice, so their mean is one sample): a margin within two standard errors of 0 is
noise.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import random
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import CHANCE, GameConfig, apply_in_place, new_game, outcome, sample_chance
from engine.ai.base import mix
from engine.ai.evaluate import Weights
from engine.ai.normal import MAX_NODES, NORMAL_WEIGHTS, TUNED_17A, NormalAI

# Earlier weights of the normal level, kept to measure a new set against (match --against).
REFERENCES: dict[str, Weights] = {
    "issue17a": TUNED_17A,  # the first issue-17 round (games of 21.9 rounds)
    # issue17a with a Plasma Cannon worth 2 VP (was 0.32): it beats issue17a (63 % of 160
    # games, VP margin +2.7) but between themselves its games last 30 rounds (a ship war);
    # weights that shorten games should hold against it too.
    "plasma2": dataclasses.replace(TUNED_17A, card={**TUNED_17A.card, "plasma": 2.0}),
}
SKIP = {"opp_max"}  # only matters with three or more players
FIXED_CARDS = {"city", "monument"}  # worth exactly their VP
AT_MOST_ONE = {"late_floor", "used_up"}  # shares


def flatten(w: Weights) -> tuple[list[str], list[float]]:
    """The tuned parameters: each plain weight, and one multiplier (``name*``, 1 at the
    start) for each table of weights (the marginal worths of fuel, ore and ships, the
    territory bonuses, the cards), which keeps the tables' shapes and the number of
    parameters small for the few games a run can afford."""
    names: list[str] = []
    values: list[float] = []
    for f in dataclasses.fields(w):
        if f.name in SKIP:
            continue
        v = getattr(w, f.name)
        names.append(f"{f.name}*" if isinstance(v, (tuple, dict)) else f.name)
        values.append(1.0 if isinstance(v, (tuple, dict)) else float(v))
    return names, values


def unflatten(names: list[str], values: list[float], base: Weights) -> Weights:
    kw: dict[str, Any] = {}
    for name, x in zip(names, values, strict=True):
        x = max(0.0, x)
        if name.endswith("*"):
            fld = name[:-1]
            v = getattr(base, fld)
            if isinstance(v, tuple):
                kw[fld] = tuple(round(y * x, 4) for y in v)
            else:
                kw[fld] = {k: y if k in FIXED_CARDS else round(y * x, 4) for k, y in v.items()}
        else:
            kw[name] = round(min(x, 1.0) if name in AT_MOST_ONE else x, 4)
    return dataclasses.replace(base, **kw)


def load(path: str | None) -> Weights:
    """Weights from a file holding a ``Weights(...)`` expression, or a kept set by name
    (``REFERENCES``); the normal level's own weights without a path."""
    if path is None:
        return NORMAL_WEIGHTS
    if path in REFERENCES:
        return REFERENCES[path]
    return eval(Path(path).read_text(), {"Weights": Weights})  # type: ignore[no-any-return]


def with_changes(w: Weights, changes: list[str]) -> Weights:
    """``w`` with each ``NAME=VALUE``, ``NAME*=FACTOR`` or ``TABLE.KEY=VALUE`` applied in
    turn (``--set``)."""
    for change in changes:
        name, sep, text = change.partition("=")
        if not sep or not name:
            raise ValueError(f"--set wants NAME=VALUE or NAME*=FACTOR, not {change!r}")
        scale = name.endswith("*")
        name = name.removesuffix("*")
        table, _, key = name.partition(".")
        x = float(text)
        if table not in {f.name for f in dataclasses.fields(w)}:
            raise ValueError(f"no weight named {table!r}")
        old = getattr(w, table)
        new: Any
        if key:
            if not isinstance(old, dict) or key not in old:
                raise ValueError(f"{table!r} has no entry {key!r}")
            new = {**old, key: old[key] * x if scale else x}
        elif isinstance(old, tuple):
            new = tuple(y * x for y in old) if scale else tuple(x for _ in old)
        elif isinstance(old, dict):
            new = {k: y * x for k, y in old.items()} if scale else dict.fromkeys(old, x)
        else:
            new = old * x if scale else x
        w = dataclasses.replace(w, **{table: new})
    return w


def margin_error(margins: list[float]) -> float:
    """The standard error of the mean VP margin, each twin (two consecutive games on the
    same dice, seats swapped) one sample."""
    twins = [(a + b) / 2 for a, b in zip(margins[::2], margins[1::2], strict=True)]
    return statistics.stdev(twins) / math.sqrt(len(twins)) if len(twins) > 1 else math.inf


Job = tuple[Weights, Weights, int, int, int, int]


def game(job: Job) -> tuple[float, int, int]:
    """One 2-player game between weights A and B: A's points (a shared win counts half),
    A's VP minus B's, and the rounds played. ``seat_a`` is A's seat; the dice come from
    ``seed`` alone, so the two games of a twin share them."""
    wa, wb, seed, seat_a, width, nodes = job
    bots = [
        NormalAI(mix(seed, 1), width=width, weights=wa, max_nodes=nodes),
        NormalAI(mix(seed, 2), width=width, weights=wb, max_nodes=nodes),
    ]
    if seat_a == 1:
        bots.reverse()
    rng = random.Random(seed)
    s = new_game(GameConfig(players=2))
    while not s.over:
        seat = s.to_act()
        a = sample_chance(s, rng) if seat == CHANCE else bots[seat].choose(s)
        apply_in_place(s, a)
    o = outcome(s)
    assert o is not None
    points = sum(1.0 / len(o.winners) for w in o.winners if w == seat_a)
    return points, o.scores[seat_a] - o.scores[1 - seat_a], s.round


def spsa(args: argparse.Namespace) -> None:
    base = load(args.start)
    names, theta = flatten(base)
    scale = [abs(x) + 0.05 for x in theta]
    rng = random.Random(args.seed)
    start = time.perf_counter()
    big_a = 0.1 * args.iterations
    rounds: list[int] = []
    with Pool(args.procs) as pool:
        for k in range(args.iterations):
            ak = args.a / (k + 1 + big_a) ** 0.602 * (1 + big_a) ** 0.602
            ck = args.c / (k + 1) ** 0.101
            deltas = [[rng.choice((-1.0, 1.0)) for _ in theta] for _ in range(args.batch)]
            jobs: list[Job] = []
            for j, d in enumerate(deltas):
                plus = [t + ck * s_ * dd for t, s_, dd in zip(theta, scale, d, strict=True)]
                minus = [t - ck * s_ * dd for t, s_, dd in zip(theta, scale, d, strict=True)]
                wp, wm = unflatten(names, plus, base), unflatten(names, minus, base)
                seed = mix(args.seed, k, j)
                for seat in (0, 1):
                    jobs.append((wp, wm, seed, seat, args.width, args.nodes))
            results = pool.map(game, jobs, chunksize=1)
            for j, d in enumerate(deltas):
                r = 0.0
                for points, margin, played in results[2 * j : 2 * j + 2]:
                    r += (2 * points - 1) * (1 + args.length_weight * quick(played, args.par))
                    r += args.vp_weight * max(-1.0, min(1.0, margin / 4))
                    rounds.append(played)
                r /= 2 * (1 + args.vp_weight + args.length_weight)  # in [-1, 1]
                for i in range(len(theta)):
                    theta[i] += ak * scale[i] * r * d[i] / args.batch
                    theta[i] = max(0.0, theta[i])
            if (k + 1) % 10 == 0 or k + 1 == args.iterations:
                elapsed = time.perf_counter() - start
                recent = rounds[-20 * 2 * args.batch :]
                print(
                    f"iteration {k + 1}, {elapsed:.0f} s,"
                    f" recent games {statistics.mean(recent):.1f} rounds",
                    flush=True,
                )
                for n, t, t0 in zip(names, theta, flatten(base)[1], strict=True):
                    if abs(t - t0) > 0.1 * (abs(t0) + 0.05):
                        print(f"  {n:<18} {t0:+.3f} -> {t:+.3f}", flush=True)
                Path(args.out).write_text(repr(unflatten(names, theta, base)) + "\n")


def quick(rounds: int, par: float) -> float:
    """How much shorter than ``par`` rounds a game was, in [-1, 1]."""
    return max(-1.0, min(1.0, (par - rounds) / par))


def wilson(points: float, n: int) -> tuple[float, float]:
    z = 1.959964
    p = points / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def match(args: argparse.Namespace) -> None:
    wa, wb = with_changes(load(args.weights), args.set), load(args.against)
    jobs: list[Job] = []
    for t in range(args.games // 2):
        for seat in (0, 1):
            jobs.append((wa, wb, mix(args.seed, t, 7), seat, args.width, args.nodes))
    start = time.perf_counter()
    with Pool(args.procs) as pool:
        results = pool.map(game, jobs, chunksize=1)
    n = len(results)
    points = sum(r[0] for r in results)
    lo, hi = wilson(points, n)
    margins = [float(r[1]) for r in results]
    name = " ".join([args.weights or "normal", *args.set])
    print(
        f"{name} vs {args.against or 'normal'}: wins {100 * points / n:.1f} %"
        f" [{100 * lo:.1f}–{100 * hi:.1f}] over {n} games,"
        f" {statistics.mean(r[2] for r in results):.1f} rounds,"
        f" VP margin {statistics.mean(margins):+.2f} ± {margin_error(margins):.2f}"
        f" ({time.perf_counter() - start:.0f} s)"
    )


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    sp = sub.add_parser("spsa", help="tune by self-play")
    sp.add_argument("--iterations", type=int, default=300)
    sp.add_argument("--batch", type=int, default=2, help="directions per step")
    sp.add_argument("--seed", type=int, default=1)
    sp.add_argument("--a", type=float, default=0.04, help="first step (share of a weight)")
    sp.add_argument("--c", type=float, default=0.2, help="first perturbation (share)")
    sp.add_argument("--vp-weight", type=float, default=1.0, help="weight of the VP margin")
    sp.add_argument("--length-weight", type=float, default=0.0, help="extra worth of a quick win")
    sp.add_argument("--par", type=float, default=20.0, help="rounds of a game of usual length")
    sp.add_argument("--start", default=None, help="weights file to start from")
    sp.add_argument("--width", type=int, default=6)
    sp.add_argument("--nodes", type=int, default=400)
    sp.add_argument("--procs", type=int, default=2)
    sp.add_argument("--out", default="tuned_weights.txt")
    mp = sub.add_parser("match", help="compare two sets of weights")
    mp.add_argument("--weights", default=None, help="a file or a kept set; normal's without")
    mp.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="change a weight: NAME=VALUE, NAME*=FACTOR, TABLE.KEY=VALUE (repeatable)",
    )
    mp.add_argument("--against", default=None, help=f"a file or one of {', '.join(REFERENCES)}")
    mp.add_argument("--games", type=int, default=40)
    mp.add_argument("--seed", type=int, default=1)
    mp.add_argument("--width", type=int, default=16)
    mp.add_argument("--nodes", type=int, default=MAX_NODES)
    mp.add_argument("--procs", type=int, default=2)
    args = ap.parse_args(argv)
    if args.command == "spsa":
        spsa(args)
    else:
        match(args)


if __name__ == "__main__":
    main()

"""Tune the hand-written evaluation's weights by self-play (SPSA).

    python tools/tune_weights.py --iterations 400 --seed 1 [--start engine] [--procs 2]

Simultaneous perturbation stochastic approximation, as chess engines tune their
evaluations: every iteration perturbs all the weights at once by +-c (a random sign
each), plays a pair of games between the two perturbed sets (same dice, seats
swapped), and moves the weights along the perturbation in proportion to the result.
Games are played by the normal level's planner at a narrow beam (width 6), which is
fast and ranks weights the same way the wider searches do.

Prints the weights every 20 iterations and writes the final ones, as a ``Weights(...)``
expression, to ``--out`` (default ``tuned_weights.txt``).
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import CHANCE, GameConfig, apply_in_place, new_game, outcome, sample_chance
from engine.ai.base import mix
from engine.ai.evaluate import DEFAULT_WEIGHTS, Weights
from engine.ai.normal import NormalAI

SKIP = {"opp_max"}  # only matters with three or more players
FIXED_CARDS = {"city", "monument"}  # worth exactly their VP


def flatten(w: Weights) -> tuple[list[str], list[float]]:
    names: list[str] = []
    values: list[float] = []
    for f in dataclasses.fields(w):
        v = getattr(w, f.name)
        if f.name in SKIP:
            continue
        if isinstance(v, tuple):
            for i, x in enumerate(v):
                names.append(f"{f.name}[{i}]")
                values.append(float(x))
        elif isinstance(v, dict):
            for k, x in v.items():
                if f.name == "card" and k in FIXED_CARDS:
                    continue
                names.append(f"{f.name}.{k}")
                values.append(float(x))
        else:
            names.append(f.name)
            values.append(float(v))
    return names, values


def unflatten(names: list[str], values: list[float], base: Weights = DEFAULT_WEIGHTS) -> Weights:
    kw: dict[str, object] = {}
    for f in dataclasses.fields(base):
        v = getattr(base, f.name)
        kw[f.name] = list(v) if isinstance(v, tuple) else dict(v) if isinstance(v, dict) else v
    for name, x in zip(names, values, strict=True):
        if "[" in name:
            field, idx = name[:-1].split("[")
            kw[field][int(idx)] = x  # type: ignore[index]
        elif "." in name:
            field, key = name.split(".")
            kw[field][key] = x  # type: ignore[index]
        else:
            kw[name] = x
    for k, v in kw.items():
        if isinstance(v, list):
            kw[k] = tuple(v)
    return Weights(**kw)  # type: ignore[arg-type]


def game(args: tuple[Weights, Weights, int, int]) -> float:
    """Points of the first weights (a shared win counts half) in one 2-player game."""
    wa, wb, seed, seat_a = args
    bots = [
        NormalAI(mix(seed, 1), width=6, weights=wa),
        NormalAI(mix(seed, 2), width=6, weights=wb),
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
    return sum(1.0 / len(o.winners) for w in o.winners if w == seat_a)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--iterations", type=int, default=400)
    ap.add_argument("--batch", type=int, default=4, help="perturbations per step")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--a", type=float, default=0.5, help="step size (share of c)")
    ap.add_argument("--c", type=float, default=0.2, help="relative perturbation")
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--out", default="tuned_weights.txt")
    args = ap.parse_args(argv)
    names, theta = flatten(DEFAULT_WEIGHTS)
    scale = [abs(x) + 0.05 for x in theta]
    rng = random.Random(args.seed)
    start = time.perf_counter()
    with Pool(args.procs) as pool:
        for k in range(args.iterations):
            deltas = [[rng.choice((-1.0, 1.0)) for _ in theta] for _ in range(args.batch)]
            jobs = []
            for j, d in enumerate(deltas):
                plus = [t + args.c * s_ * dd for t, s_, dd in zip(theta, scale, d, strict=True)]
                minus = [t - args.c * s_ * dd for t, s_, dd in zip(theta, scale, d, strict=True)]
                wp, wm = unflatten(names, plus), unflatten(names, minus)
                seed = mix(args.seed, k, j)
                jobs += [(wp, wm, seed, 0), (wp, wm, seed, 1)]
            results = pool.map(game, jobs, chunksize=1)
            for j, d in enumerate(deltas):
                r = results[2 * j] + results[2 * j + 1] - 1.0  # in [-1, 1]
                for i in range(len(theta)):
                    theta[i] += args.a * args.c * scale[i] * r * d[i] / args.batch
            if (k + 1) % 20 == 0 or k + 1 == args.iterations:
                elapsed = time.perf_counter() - start
                print(f"iteration {k + 1}, {elapsed:.0f} s", flush=True)
                for n, t, t0 in zip(names, theta, flatten(DEFAULT_WEIGHTS)[1], strict=True):
                    if abs(t - t0) > 0.1 * (abs(t0) + 0.05):
                        print(f"  {n:<18} {t0:+.3f} -> {t:+.3f}", flush=True)
                Path(args.out).write_text(repr(unflatten(names, theta)) + "\n")


if __name__ == "__main__":
    main()

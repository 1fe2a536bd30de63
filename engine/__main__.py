"""Command line: ``python -m engine selfplay --games N --players P --seed S [--helm]``."""

from __future__ import annotations

import argparse
import time

from engine.config import GameConfig
from engine.scoring import outcome
from engine.selfplay import play_random_game
from engine.tables import PLAYER_COUNT_RULES


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine")
    sub = parser.add_subparsers(dest="command", required=True)
    sp = sub.add_parser("selfplay", help="play random legal games with invariant checks")
    sp.add_argument("--games", type=int, default=100)
    sp.add_argument("--players", type=int, default=4, choices=tuple(PLAYER_COUNT_RULES))
    sp.add_argument("--seed", type=int, default=0)
    sp.add_argument("--helm", action="store_true", help="Mind Control Helm option")
    sp.add_argument("--long", action="store_true", help="long game variant")
    sp.add_argument("--finite", action="store_true", help="finite supply option")
    sp.add_argument("--no-check", action="store_true", help="skip invariant checks (speed)")
    args = parser.parse_args(argv)
    config = GameConfig(args.players, args.long, args.helm, args.finite)
    rounds = actions = 0
    wins = [0.0] * args.players
    start = time.perf_counter()
    for g in range(args.games):
        result = play_random_game(config, args.seed + g, check=not args.no_check)
        rounds += result.rounds
        actions += len(result.log)
        o = outcome(result.state)
        assert o is not None
        for w in o.winners:
            wins[w] += 1 / len(o.winners)
    elapsed = time.perf_counter() - start
    print(f"config: {config}")
    print(f"games: {args.games}  checks: {'off' if args.no_check else 'on'}")
    print(f"mean rounds: {rounds / args.games:.1f}  mean actions: {actions / args.games:.0f}")
    print(f"games/s: {args.games / elapsed:.1f}  actions/s: {actions / elapsed:.0f}")
    print("wins by seat: " + ", ".join(f"P{i + 1} {w:.0f}" for i, w in enumerate(wins)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

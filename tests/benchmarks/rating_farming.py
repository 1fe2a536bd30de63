"""Farming the easy AI: a member's shown rating after many two-player games against a
weaker AI level, rated as the bot rates them; prints figures, asserts nothing.

    python -m tests.benchmarks.rating_farming [--games 100] [--member normal]
        [--against easy] [--seed 1] [--jobs 2]

Why: a competitive player's cheapest way up a ladder is volume against an opponent they
always beat. The "member" here is an AI level playing a member's seat (the normal AI: a
member exactly as strong as the normal level, whose rating should stay where the normal
AI's is, 1000), against ``--against`` in two-seat games, the seats alternating. Each
game is the engine's own (``tests/benchmarks/ai_anchors.py``'s ``play``, the same seeded
games), and is rated by ``bot.store.rating_rules.end_changes`` from the member's rating
before it, with the AI levels' anchors of ``bot/store/ai_anchors.py``.

Printed: the member's wins, their shown rating every tenth game and at the end, with
``mu`` and ``sigma``; the AI levels' shown ratings at two seats (the hard one is the
bar: a member as strong as normal must stay below it); and, for comparison, what the
rules before issue 38 gave for the same games (one anchor per level for every seat
count, easy 20.84 and hard 28.86, openskill's own update, ``1000 + 40 (mu − 3 sigma)``
shown).
"""

from __future__ import annotations

import argparse
import sys
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from openskill.models import PlackettLuce

from bot.store.ai_anchors import anchor
from bot.store.rating_rules import SeatPlay, end_changes
from bot.store.ratings import NEWCOMER, Skill, shown
from tests.benchmarks.ai_anchors import GameResult, GameSpec, play

MEMBER = 1
OLD_ANCHORS = {"easy": (20.84, 1.28), "normal": (25.0, 1.0), "hard": (28.86, 1.25)}


def specs(games: int, member: str, against: str, seed: int) -> list[GameSpec]:
    """The member's seat first in even games, second in odd ones (each its own dice)."""
    out = []
    for g in range(games):
        levels = (member, against) if g % 2 == 0 else (against, member)
        out.append(GameSpec(2, seed, g, levels, g))
    return out


def rated(results: list[GameResult], member: str, against: str) -> tuple[list[Skill], int]:
    """The member's rating after each game, as the bot rates it, and their wins."""
    skill = NEWCOMER
    after = []
    wins = 0
    for r in sorted(results, key=lambda r: r.index):
        mine = 0 if r.index % 2 == 0 else 1
        place = r.ranks[mine] + 1
        wins += place == 1
        seats = [
            SeatPlay(mine, place, MEMBER, None, r.rounds, r.rounds, 0),
            SeatPlay(1 - mine, r.ranks[1 - mine] + 1, None, against, r.rounds, 0, r.rounds),
        ]
        (change,) = end_changes(seats, (), {MEMBER: skill})
        skill = change.after
        after.append(skill)
    return after, wins


def rated_before(results: list[GameResult], against: str) -> int:
    """The shown rating the rules before issue 38 gave after the same games."""
    model = PlackettLuce()
    me = model.rating()
    for r in sorted(results, key=lambda r: r.index):
        mine = 0 if r.index % 2 == 0 else 1
        teams = [[me], [model.rating(*OLD_ANCHORS[against])]]
        ranks = [float(r.ranks[mine]), float(r.ranks[1 - mine])]
        me = model.rate(teams, ranks=ranks)[0][0]
    return round(1000 + 40 * (me.mu - 3 * me.sigma))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--member", default="normal", help="the AI level playing the member's seat")
    ap.add_argument("--against", default="easy")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    todo = specs(args.games, args.member, args.against, args.seed)
    with Pool(args.jobs) as pool:
        results = list(pool.imap_unordered(play, todo, chunksize=1))
    after, wins = rated(results, args.member, args.against)
    print(
        f"a member as strong as the {args.member} AI, {args.games} two-seat games against the"
        f" {args.against} AI (seed {args.seed}): {wins} won"
    )
    for n, skill in enumerate(after, start=1):
        if n % 10 == 0 or n == len(after):
            print(
                f"  after {n:3d} games: shown {skill.shown:5d}"
                f"  mu {skill.mu:6.2f}  sigma {skill.sigma:5.2f}"
            )
    levels = {lv: anchor(lv, 2) for lv in ("easy", "normal", "hard")}
    print(
        "the AI levels at two seats: "
        + ", ".join(f"{lv} {shown(a[0])}" for lv, a in levels.items() if a is not None)
    )
    hard = levels["hard"]
    final = after[-1].shown
    if hard is not None:
        below = "below" if final < shown(hard[0]) else "NOT below"
        print(f"final shown rating {final}: {below} the hard AI's {shown(hard[0])}")
    before = rated_before(results, args.against)
    print(f"the rules before (one anchor per level, mu - 3 sigma shown): {before}")


if __name__ == "__main__":
    main()

"""Farming the easy AI: a member's shown rating after many games against weaker AI
seats, at two, three and four seats, rated as the bot rates them; prints figures,
asserts nothing.

    python -m tests.benchmarks.rating_farming [--games 100] [--seats 2 3 4]
        [--member normal] [--against easy] [--seed 1] [--jobs 2]

Why: a competitive player's cheapest way up a ladder is volume against opponents they
always beat. The "member" here is an AI level playing a member's seat (the normal AI: a
member exactly as strong as the normal level, whose rating should stay where the normal
AI's is, 1000), against ``--against`` in every other seat, the member's seat rotating.
Each game is the engine's own (``tests/benchmarks/ai_anchors.py``'s ``play``, the same
seeded games), and is rated by ``bot.store.rating_rules.end_changes`` from the member's
rating before it, with the AI levels' anchors of ``bot/store/ai_anchors.py``.

Printed, per seat count: the member's wins, their shown rating every tenth game and at
the end, with ``mu`` and ``sigma``; the final shown rating against the hard AI's at that
seat count (the bar: a member as strong as normal must stay below it) and the normal
AI's (where they should stay); and, for comparison, what the rules before the fixes gave
for the same games: at two seats those before issue 38 (one anchor per level for every
seat count, easy 20.84 and hard 28.86, openskill's own update, ``1000 + 40 (mu − 3
sigma)`` shown), at three and four those of issue 38 (no gain only from a seat 500 points
below), where the easy AI's anchors close to normal's let a member farm them to 1418 at
four seats (197 of 200 won).
"""

from __future__ import annotations

import argparse
import sys
from multiprocessing import Pool
from pathlib import Path
from unittest.mock import patch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from openskill.models import PlackettLuce

from bot.store import ratings
from bot.store.ai_anchors import anchor
from bot.store.rating_rules import SeatPlay, end_changes
from bot.store.ratings import NEWCOMER, Entrant, Skill, shown
from tests.benchmarks.ai_anchors import GameResult, GameSpec, play

MEMBER = 1
OLD_ANCHORS = {"easy": (20.84, 1.28), "normal": (25.0, 1.0), "hard": (28.86, 1.25)}


def specs(players: int, games: int, member: str, against: str, seed: int) -> list[GameSpec]:
    """The member's seat rotating (game g: seat g mod players), each game its own dice."""
    out = []
    for g in range(games):
        levels = tuple(member if i == g % players else against for i in range(players))
        out.append(GameSpec(players, seed, g, levels, g))
    return out


def rated(results: list[GameResult], against: str) -> tuple[list[Skill], int]:
    """The member's rating after each game, as the bot rates it, and their wins."""
    skill = NEWCOMER
    after = []
    wins = 0
    for r in sorted(results, key=lambda r: r.index):
        mine = r.index % r.players
        wins += r.ranks[mine] == 0
        seats = [
            SeatPlay(i, r.ranks[i] + 1, MEMBER, None, r.rounds, r.rounds, 0)
            if i == mine
            else SeatPlay(i, r.ranks[i] + 1, None, against, r.rounds, 0, r.rounds)
            for i in range(r.players)
        ]
        (change,) = end_changes(seats, (), {MEMBER: skill})
        skill = change.after
        after.append(skill)
    return after, wins


def rated_by_issue_38(results: list[GameResult], against: str) -> int:
    """The shown rating issue 38's rules gave after the same games: no gain only from a
    seat 500 points below (the AI seats counted as members' are)."""
    plain = ratings.updated

    def issue_38(entrants: list[Entrant], who: int) -> tuple[float, float]:
        return plain([Entrant(e.mu, e.sigma, e.place) for e in entrants], who)

    with patch("bot.store.rating_rules.updated", issue_38):
        return rated(results, against)[0][-1].shown


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
    ap.add_argument("--seats", type=int, nargs="+", default=[2, 3, 4])
    ap.add_argument("--member", default="normal", help="the AI level playing the member's seat")
    ap.add_argument("--against", default="easy")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    for players in args.seats:
        todo = specs(players, args.games, args.member, args.against, args.seed)
        with Pool(args.jobs) as pool:
            results = list(pool.imap_unordered(play, todo, chunksize=1))
        after, wins = rated(results, args.against)
        print(
            f"a member as strong as the {args.member} AI, {args.games} {players}-seat games"
            f" against the {args.against} AI (seed {args.seed}): {wins} won"
        )
        for n, skill in enumerate(after, start=1):
            if n % 10 == 0 or n == len(after):
                print(
                    f"  after {n:3d} games: shown {skill.shown:5d}"
                    f"  mu {skill.mu:6.2f}  sigma {skill.sigma:5.2f}"
                )
        levels = {lv: anchor(lv, players) for lv in ("easy", "normal", "hard")}
        print(
            f"  the AI levels at {players} seats: "
            + ", ".join(f"{lv} {shown(a[0])}" for lv, a in levels.items() if a is not None)
        )
        hard = levels["hard"]
        final = after[-1].shown
        if hard is not None:
            below = "below" if final < shown(hard[0]) else "NOT below"
            print(f"  final shown rating {final}: {below} the hard AI's {shown(hard[0])}")
        if players == 2:
            before = rated_before(results, args.against)
            print(f"  the rules before issue 38 (one anchor per level, mu - 3 sigma): {before}")
        else:
            by_38 = rated_by_issue_38(results, args.against)
            print(f"  issue 38's rules (no gain only from 500 below): {by_38}")


if __name__ == "__main__":
    main()

"""The fixed openskill ratings of the AI levels, per seat count: an AI never gains or loses.

Why fixed: a member's rating is measured against whoever they play. On a small server
that is mostly the AI seats; if the AI's ratings moved, a rating would measure the
server's history rather than the member's play. Fixed anchors, measured once from
AI-vs-AI games, put every server on the same scale, with the normal level at mu = 25,
openskill's default: a newcomer is presumed as strong as the normal AI until their
games show otherwise.

Why per seat count: the levels are much further apart with two seats than with four
(with four, the dice and the other seats blur who is better). One rating per level for
every seat count, a compromise between them, overrated beating the easy AI at two seats:
a member as strong as the normal AI, farming two-seat games against the easy one, rose
above the hard AI. Each seat count now has the levels' ratings fitted on its own games.

How they were measured (engine at commit d233da6), by ``tests/benchmarks/ai_anchors.py``
(its docstring says how in full)::

    python -m tests.benchmarks.ai_anchors --games 24 --seed 1 --save seed1.jsonl
    python -m tests.benchmarks.ai_anchors --games 24 --seed 2 --save seed2.jsonl
    python -m tests.benchmarks.ai_anchors --load seed1.jsonl seed2.jsonl

144 AI-vs-AI games, 48 each of 2, 3 and 4 seats (seeds 1 and 2), every level against
every other with the seats rotated, the hard level at its fixed search size (what the
bot plays when ``AI_BUDGET_MS`` is unset). Each game's order is the engine's outcome
carried down the table (VP, then cards, ore, fuel). The mu's are the maximum of
openskill's own Plackett–Luce likelihood of those orders at each seat count (where the
bot's updates, on average over the games, would leave each level's rating), with the
normal level held at 25 and a newcomer's prior on the others, which keeps the fit finite
where a level wins every game: the normal AI beat the easy one in every two-seat game
(16 of 16 here, 200 of 200 in ``docs/ai.md``), so the two-seat easy rating is only as
low as the prior lets a few games put it; openskill's own update at these anchors still
moves that level by -0.18 a seat (every other level by less than 0.01). The easy AI far
below is why ``bot.store.ratings`` gives no gain for a win over a seat rated far below
the winner; and since at three and four seats these AI-vs-AI fits put the easy level
close to the normal one while the normal AI beats three easy AIs in nearly every game,
a win over any AI seat rated below the winner gives nothing either. The fit on each
half of the games (the first and the second half of each
seed's games) moved a level by 2.2 at most (at 3 and 4 seats; none at 2). Fitted over
all seat counts at once, as before, the same games give easy 20.87 and hard 28.82: the
compromise that overrated the easy AI at two seats.

A sigma is the uncertainty of the fit of the level's mu relative to the normal level's
(the normal level is the scale's origin), never below 1.0: an AI seat's sigma only sets
how far a member's update trusts the seat's mu. Measure again when an AI level's play
changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

# Per seat count, per AI level: (mu, sigma) on openskill's scale (PlackettLuce defaults:
# mu 25, sigma 25/3).
AI_ANCHORS: Final[Mapping[int, Mapping[str, tuple[float, float]]]] = MappingProxyType(
    {
        2: MappingProxyType({"easy": (7.42, 4.81), "normal": (25.0, 1.0), "hard": (36.33, 3.94)}),
        3: MappingProxyType({"easy": (23.02, 2.05), "normal": (25.0, 1.0), "hard": (30.72, 2.16)}),
        4: MappingProxyType({"easy": (22.25, 2.01), "normal": (25.0, 1.0), "hard": (25.65, 1.99)}),
    }
)


def anchor(level: str, players: int) -> tuple[float, float] | None:
    """An AI level's rating in a game of ``players`` seats (None for an unknown level)."""
    return AI_ANCHORS.get(players, AI_ANCHORS[4]).get(level)


__all__ = ["AI_ANCHORS", "anchor"]

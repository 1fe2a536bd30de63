"""The fixed openskill ratings of the AI levels: an AI seat never gains or loses rating.

Why fixed: a member's rating is measured against whoever they play. On a small server
that is mostly the AI seats; if the AI's ratings moved, a rating would measure the
server's history rather than the member's play. Fixed anchors, measured once from
AI-vs-AI games, put every server on the same scale, with the normal level at mu = 25,
openskill's default: a newcomer is presumed as strong as the normal AI until their
games show otherwise.

How they were measured (2026-11-26, engine at commit f3e2cf7), by
``tests/benchmarks/ai_anchors.py`` (its docstring says how in full)::

    python -m tests.benchmarks.ai_anchors --games 24 --seed 1 --jobs 2 --save seed1.jsonl
    python -m tests.benchmarks.ai_anchors --games 24 --seed 2 --jobs 2 --save seed2.jsonl
    python -m tests.benchmarks.ai_anchors --load seed1.jsonl seed2.jsonl

144 AI-vs-AI games, 48 each of 2, 3 and 4 seats (seeds 1 and 2), every level against
every other with the seats rotated, the hard level at its fixed search size (what the
bot plays when ``AI_BUDGET_MS`` is unset). Each game's order is the engine's outcome
carried down the table (VP, then cards, ore, fuel). The mu's are the maximum of
openskill's own Plackett–Luce likelihood of those orders (where openskill's updates,
on average over the games, would leave each level's rating), with the normal level
held at 25; openskill's own ``rate`` at these values moves no level by more than
0.001 per seat over the games. The runs alone gave easy 20.46 and 21.09, hard 28.16
and 29.68; the two halves of the games (the first and the second half of each seed's
game numbers), easy 20.53 and 20.99, hard 29.17 and 28.69: a spread of 0.48 at most.

One rating per level serves every seat count, and the levels are much further apart
with 2 seats than with 4 (fitted alone: 2 seats easy 7.4, hard 36.3; 3 seats easy 23.0,
hard 30.7; 4 seats easy 22.2, hard 25.7); the anchors are the compromise over equal
numbers of games of each.

A sigma is the uncertainty of the fit of the level's mu relative to the normal level's
(the normal level is the scale's origin), never below 1.0: an AI seat's sigma only
sets how far a member's update trusts the seat's mu, and a seat with almost no
uncertainty still gives an ordinary openskill update, whereas a sigma near 0 would
claim that a few hundred AI games fix exactly how a member fares against it.
Measure again when an AI level's play changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

# Per AI level: (mu, sigma) on openskill's scale (PlackettLuce defaults: mu 25, sigma 25/3).
AI_ANCHORS: Final[Mapping[str, tuple[float, float]]] = MappingProxyType(
    {
        "easy": (20.84, 1.28),
        "normal": (25.0, 1.0),
        "hard": (28.86, 1.25),
    }
)

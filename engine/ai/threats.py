"""What the other seats may do to a seat before its next turn: raids on its resources.

Shared by the hand-written evaluation and the learned one's features.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import cache
from itertools import combinations_with_replacement
from math import factorial
from typing import Final

from engine.state import GameState, PlayerState, RollDecision
from engine.tables import DIE_FACES, RAID_STEAL_LIMIT, SHIPS_PER_COLOUR

MAX_DICE: Final = SHIPS_PER_COLOUR + 1  # a full fleet and the relic ship


def _run_table() -> dict[int, list[float]]:
    """P(k dice show three consecutive values starting at a or above), for a = 1..4."""
    table: dict[int, list[float]] = {}
    for k in range(0, MAX_DICE + 1):
        probs = [0.0] * 6  # index a: run starting at >= a (a = 1..4), 5 = none possible
        if k < 3:
            table[k] = probs
            continue
        total = DIE_FACES**k
        for values in combinations_with_replacement(range(1, DIE_FACES + 1), k):
            ways = factorial(k)
            for c in Counter(values).values():
                ways //= factorial(c)
            present = set(values)
            starts = [a for a in range(1, DIE_FACES - 1) if {a, a + 1, a + 2} <= present]
            if starts:
                top = max(starts)
                for a in range(1, top + 1):
                    probs[a] += ways / total
        table[k] = probs
    return table


RUN_PROB: Final = _run_table()


def colour_ships(s: GameState, p: int) -> int:
    """Ships of p's colour that will be rolled at p's next turn (a used-up ship is lost)."""
    n = SHIPS_PER_COLOUR - s.players[p].stock
    t = s.docks["terraform"][0]
    if t is not None and t.owner == p and not t.relic:
        n -= 1
    return n


def has_relic(s: GameState, p: int) -> bool:
    """The relic ship follows control of Burroughs Desert (R-COL-4)."""
    return not s.relic_on_desert and s.controller["burroughs"] == p


def raid_probability(s: GameState, q: int) -> float:
    """Chance that q's next roll takes the Raiders' Outpost as it stands."""
    # One pass over the docks (the evaluation asks this for every state a search makes).
    there = False
    held = 0
    others = False  # a ship of another seat is there
    for x in s.docks["raiders"]:
        if x is not None:
            there = True
            held += x.value
            if x.owner != q:
                others = True
    if there:
        if not others:
            return 0.0
        start = held // 3  # a run starting at a sums 3a + 3: need 3a + 3 > held
        if start > 4:
            return 0.0
        start = max(start, 1)
    else:
        start = 1
    dice = colour_ships(s, q) + int(has_relic(s, q))
    return RUN_PROB[min(dice, MAX_DICE)][start]


def _rolling(s: GameState) -> bool:
    """Whether the current player is about to roll (its turn has not started)."""
    return bool(s.pending) and isinstance(s.pending[0], RollDecision) and not s.pending[0].reroll


@cache
def attackers(n: int, c: int, rolling: bool, p: int) -> tuple[tuple[int, float], ...]:
    """Seats that roll before p's next turn, with how surely the threat stands, with n
    seats, c to play and whether c is about to roll (kept: the evaluation asks for every
    state a search generates)."""
    out: list[tuple[int, float]] = []
    if p == c and not rolling:
        # p is mid-turn: every other seat rolls before p's next turn, but p may still spend.
        for k in range(1, n):
            out.append(((c + k) % n, 0.8))
        return tuple(out)
    seat = c if rolling else (c + 1) % n
    while seat != p:
        out.append((seat, 1.0))
        seat = (seat + 1) % n
    return tuple(out)


def raid_exposure(
    s: GameState, worth: Callable[[PlayerState], float] | None = None
) -> tuple[list[float], list[float]]:
    """Per seat: resources it may expect to lose to raids before its next turn, and to
    gain by raiding others (a raider is assumed to split its picks between its victims);
    ``worth`` weighs each resource by what its victim holds (default: 1 each)."""
    players = s.players
    n = len(players)
    c = s.current
    rolling = _rolling(s)
    share = 1.0 if n == 2 else 1.0 / (n - 1)
    probs: dict[int, float] = {}
    loss = [0.0] * n
    gain = [0.0] * n
    for p, pl in enumerate(players):
        if "decoy" in pl.cards:
            continue
        exposed = min(RAID_STEAL_LIMIT, pl.fuel + pl.ore) * (1.0 if worth is None else worth(pl))
        if not exposed:
            continue
        for q, sure in attackers(n, c, rolling, p):
            pr = probs.get(q)
            if pr is None:
                pr = probs[q] = raid_probability(s, q)
            x = sure * share * pr * exposed
            loss[p] += x
            gain[q] += x
    return loss, gain

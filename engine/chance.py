"""Chance decisions: their outcomes, probabilities, and sampling from a driver's RNG.

The engine never draws random numbers itself: a driver samples an outcome with
its own seeded ``random.Random`` and applies it like any other action, so the
setup plus the action log replays exactly (OpenSpiel's chance player).
Deck order is not stored: each revealed card is a chance outcome weighted by the
copies left in the deck, which is the same as drawing from a shuffled deck.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations_with_replacement
from math import factorial

from engine.actions import Action, Die, FirstPlayer, Reveal, Roll
from engine.state import FirstPlayerDecision, GameState, RevealDecision, RollDecision
from engine.tables import CARDS


def deck_for_reveal(s: GameState) -> list[int]:
    """Copies per card that a reveal draws from: the deck, or the reshuffled discard (R-TECH-4)."""
    return s.deck if sum(s.deck) else s.discard


def chance_outcomes(s: GameState) -> list[tuple[Action, float]]:
    """Every outcome of the pending chance decision with its probability."""
    d = s.pending[0] if s.pending else None
    if isinstance(d, FirstPlayerDecision):
        n = s.num_players
        return [(FirstPlayer(i), 1 / n) for i in range(n)]
    if isinstance(d, RevealDecision):
        counts = deck_for_reveal(s)
        total = sum(counts)
        return [(Reveal(c), counts[i] / total) for i, c in enumerate(CARDS) if counts[i]]
    if isinstance(d, RollDecision):
        out: list[tuple[Action, float]] = []
        relics = range(1, 7) if d.relic else [0]
        for values in combinations_with_replacement(range(1, 7), d.dice):
            ways = factorial(d.dice)
            for c in Counter(values).values():
                ways //= factorial(c)
            prob = ways / 6**d.dice
            for r in relics:
                dice = [Die(v) for v in values] + ([Die(r, True)] if r else [])
                out.append((Roll(tuple(sorted(dice))), prob / (6 if r else 1)))
        return out
    return []


def sample_chance(s: GameState, rng: random.Random) -> Action:
    """Draw the pending chance decision's outcome from the driver's RNG."""
    d = s.pending[0]
    if isinstance(d, RollDecision):
        dice = [Die(rng.randint(1, 6)) for _ in range(d.dice)]
        if d.relic:
            dice.append(Die(rng.randint(1, 6), True))
        return Roll(tuple(sorted(dice)))
    if isinstance(d, RevealDecision):
        counts = deck_for_reveal(s)
        k = rng.randrange(sum(counts))
        for i, c in enumerate(counts):
            if k < c:
                return Reveal(CARDS[i])
            k -= c
        raise AssertionError("deck counts changed while sampling")
    if isinstance(d, FirstPlayerDecision):
        return FirstPlayer(rng.randrange(s.num_players))
    raise ValueError("no chance decision is pending")

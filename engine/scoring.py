"""Victory points (R-END-1) and the outcome of a finished game (R-END-2, R-END-3)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine.state import GameState
from engine.tables import TERRITORIES
from engine.tech.card import card_vp
from engine.territories import colonies_placed, leader

TieBreak = Literal["cards", "ore", "fuel", "shared"]


def victory_points(s: GameState, p: int) -> int:
    """1 per colony on the planet, per controlled territory, per Alien City/Monument,
    and 1 for controlling the territory with the Positron Field (``score_parts`` gives
    the same number part by part; this is the fast path the AI uses)."""
    vp = colonies_placed(s, p)
    vp += sum(1 for t in TERRITORIES if s.controller[t] == p)
    vp += sum(card_vp(c) for c in s.players[p].cards)
    positron = s.fields["positron"]
    if positron is not None and s.controller[positron] == p:
        vp += 1
    return vp


@dataclass(frozen=True, slots=True)
class ScoreParts:
    """Where a player's VP come from (R-END-1); ``total`` equals ``victory_points``."""

    colonies: int  # 1 per colony on the planet
    territories: int  # 1 per territory controlled
    positron: int  # 1 for controlling the territory with the Positron Field
    cards: int  # 1 per Alien City or Alien Monument

    @property
    def total(self) -> int:
        return self.colonies + self.territories + self.positron + self.cards


def score_parts(s: GameState, p: int) -> ScoreParts:
    """Player p's VP, part by part (the game-over breakdown)."""
    positron = s.fields["positron"]
    return ScoreParts(
        colonies=colonies_placed(s, p),
        territories=sum(1 for t in TERRITORIES if s.controller[t] == p),
        positron=int(positron is not None and s.controller[positron] == p),
        cards=sum(card_vp(c) for c in s.players[p].cards),
    )


def recount_victory_points(s: GameState) -> list[int]:
    """Every player's VP from the board alone, recomputing control instead of reading the cache."""
    vp = [0] * s.num_players
    for t in TERRITORIES:
        counts = s.colonies[t]
        for p, c in enumerate(counts):
            vp[p] += c
        lead = leader(counts)
        if lead is not None:
            vp[lead] += 2 if s.fields["positron"] == t else 1
    for p, pl in enumerate(s.players):
        vp[p] += sum(card_vp(c) for c in pl.cards)
    return vp


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: the winners (seats), everyone's VP, and which tie-break decided."""

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    tiebreak: TieBreak | None  # None: VP alone decided
    reason: str = "last_colony"


def _standing(s: GameState, p: int) -> tuple[int, int, int, int]:
    """What orders players at the end: VP, then the tie-breaks of R-END-3 in their order
    (alien tech cards held, then ore, then fuel)."""
    pl = s.players[p]
    return (victory_points(s, p), len(pl.cards), pl.ore, pl.fuel)


def places(s: GameState) -> tuple[int, ...]:
    """Each player's place in a finished game (1 = won), by VP and then the tie-breaks in
    the order ``outcome`` applies them; players equal on all of them share a place and the
    next place is skipped (1, 1, 3). The winners of ``outcome`` are exactly the 1st."""
    standing = [_standing(s, p) for p in range(s.num_players)]
    return tuple(1 + sum(1 for other in standing if other > mine) for mine in standing)


def outcome(s: GameState) -> Outcome | None:
    """The outcome of a finished game, or None while it goes on."""
    if not s.over:
        return None
    scores = tuple(victory_points(s, p) for p in range(s.num_players))
    best = max(scores)
    tied = [p for p in range(s.num_players) if scores[p] == best]
    if len(tied) == 1:
        return Outcome(tuple(tied), scores, None)
    keys: list[tuple[TieBreak, list[int]]] = [
        ("cards", [len(pl.cards) for pl in s.players]),
        ("ore", [pl.ore for pl in s.players]),
        ("fuel", [pl.fuel for pl in s.players]),
    ]
    for name, values in keys:
        top = max(values[p] for p in tied)
        narrowed = [p for p in tied if values[p] == top]
        if len(narrowed) == 1:
            return Outcome(tuple(narrowed), scores, name)
        tied = narrowed
    return Outcome(tuple(tied), scores, "shared")

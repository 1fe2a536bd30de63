"""Finding the legal picks a lesson or a step suggests, by what they are for.

Every finder returns one of ``legal_actions(state)`` or None: the script never
suggests a move the rules would refuse, because it only ever picks from that list.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import pairwise
from typing import Final

from engine import (
    ARTIFACT_CLAIM_TOTAL,
    SHIPS_PER_COLOUR,
    Action,
    CardId,
    Claim,
    Die,
    DiscardField,
    Dock,
    FacilityId,
    GameState,
    Place,
    TerritoryId,
    legal_actions,
)

LEARNER: Final = 0  # the member who learns: seat 0, who plays first
OPPONENT: Final = 1  # the easy AI


def first_legal(s: GameState, candidates: Iterable[Action]) -> Action | None:
    """The first candidate that is a legal action now."""
    legal = set(legal_actions(s))
    return next((a for a in candidates if a in legal), None)


def dice(s: GameState) -> list[Die]:
    """The learner's undocked ships as dice, lowest first."""
    return sorted(Die(ship.value, ship.relic) for ship in s.undocked)


def dock(s: GameState, facility: FacilityId, groups: Iterable[Sequence[Die]]) -> Action | None:
    """Docking the first group of ships that may legally dock at ``facility``."""
    return first_legal(s, (Dock(facility, tuple(sorted(g))) for g in groups))


def singles(s: GameState, highest_first: bool = True) -> list[tuple[Die]]:
    ships = dice(s)
    return [(d,) for d in (reversed(ships) if highest_first else ships)]


def pairs(s: GameState) -> list[tuple[Die, Die]]:
    ships = dice(s)
    return [(a, b) for a, b in pairwise(ships) if a.value == b.value]


def triples(s: GameState) -> list[tuple[Die, Die, Die]]:
    ships = dice(s)
    return [
        (a, b, c)
        for a, b, c in zip(ships, ships[1:], ships[2:], strict=False)
        if a.value == b.value == c.value
    ]


def runs(s: GameState) -> list[tuple[Die, Die, Die]]:
    """Three consecutive values among the undocked ships (one ship per value)."""
    by_value = {d.value: d for d in reversed(dice(s))}
    return [
        (by_value[v], by_value[v + 1], by_value[v + 2])
        for v in sorted(by_value)
        if v + 1 in by_value and v + 2 in by_value
    ]


def lowered_to_pair(s: GameState) -> Die | None:
    """A ship that −1 turns into a pair with another ship (none is paired already)."""
    ships = dice(s)
    if pairs(s):
        return None
    values = [d.value for d in ships]
    return next((d for d in ships if d.value > 1 and d.value - 1 in values), None)


def lowered_to_run(s: GameState) -> Die | None:
    """A ship that −1 completes a run of three with two others (no run yet)."""
    if runs(s):
        return None
    ships = dice(s)
    for i, d in enumerate(ships):
        others = {x.value for j, x in enumerate(ships) if j != i}
        v = d.value - 1
        if v >= 1 and any({v + k, v + k + 1, v + k + 2} - {v} <= others for k in (-2, -1, 0)):
            return d
    return None


def mine_dock(s: GameState) -> Action | None:
    """The highest ship the Lunar Mine takes now."""
    return dock(s, "mine", singles(s))


def artifact_dock(s: GameState) -> Action | None:
    """A ship at the Alien Artifact toward a claim: the lowest that reaches 8 with the
    ships there, else the highest."""
    total = s.turn.artifact_total
    ships = dice(s)
    reach = [(d,) for d in ships if total + d.value >= ARTIFACT_CLAIM_TOTAL]
    return dock(s, "artifact", [*reach, *singles(s)])


def artifact_reach(s: GameState) -> int:
    """The Alien Artifact's total the learner can still reach this turn: the total now
    (from 0 again after a claim, R-ART-2) and their highest undocked ships, as many as
    there are free docks."""
    free = sum(1 for x in s.docks["artifact"] if x is None)
    ships = sorted((d.value for d in dice(s)), reverse=True)[:free]
    return s.turn.artifact_total + sum(ships)


def colour_ships(s: GameState) -> int:
    """The learner's ships of their colour in play (the relic ship not counted)."""
    return SHIPS_PER_COLOUR - s.players[LEARNER].stock


def claim(s: GameState, wanted: Sequence[CardId] = ()) -> Action | None:
    """Claiming a display card: one the lessons want first, else any."""
    return first_legal(s, [Claim(c) for c in (*wanted, *s.display)])


def held_territories(s: GameState, seat: int) -> list[TerritoryId]:
    """Territories by the seat's colonies there, most first; controlled ones first."""
    held = [t for t in s.colonies if s.colonies[t][seat] > 0]
    return sorted(held, key=lambda t: (s.controller[t] != seat, -s.colonies[t][seat]))


def discard_field(s: GameState, card: CardId, territories: Iterable[TerritoryId]) -> Action | None:
    """Discarding ``card`` to put its field on the first of ``territories`` it may go to,
    else anywhere it may."""
    chosen = first_legal(s, (DiscardField(card, t) for t in territories))
    if chosen is not None:
        return chosen
    return next(
        (a for a in legal_actions(s) if isinstance(a, DiscardField) and a.card == card), None
    )


# Where the learner's colonies go when no lesson says: the bonuses a beginner uses most.
PLACE_ORDER: Final[tuple[TerritoryId, ...]] = (
    "lem",
    "heinlein",
    "herbert",
    "vanvogt",
    "bradbury",
    "asimov",
    "pohl",
    "burroughs",
)


def gains_control(s: GameState, t: TerritoryId) -> bool:
    """Whether one more learner colony on ``t`` gives (or keeps) the learner its control."""
    counts = s.colonies[t]
    return counts[LEARNER] + 1 > max(c for p, c in enumerate(counts) if p != LEARNER)


def place(s: GameState, preferred: Sequence[TerritoryId] = ()) -> Action | None:
    """Placing the colony: a preferred territory, else one it gains control of."""
    order = [*preferred, *[t for t in PLACE_ORDER if gains_control(s, t)], *PLACE_ORDER]
    return first_legal(s, (Place(t) for t in order))

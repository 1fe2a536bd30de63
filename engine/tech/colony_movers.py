"""Discard powers that move colonies on the planet (R-FIELD-REP forbids both on a
Repulsor Field territory): Orbital Teleporter moves one colony to another territory;
Polarity Device swaps two colonies of different players on two territories.
"""

from __future__ import annotations

from engine.actions import DiscardPolarity, DiscardTeleporter
from engine.board import Refusal, log, refuse
from engine.state import GameState
from engine.tables import TERRITORIES
from engine.tech.common import discard_card, discard_refusal
from engine.territories import add_colony, remove_colony, repulsed, update_control


def move_refusal(s: GameState, p: int, action: DiscardTeleporter) -> Refusal | None:
    r = discard_refusal(s, p, "teleporter")
    if r:
        return r
    if not 0 <= action.owner < s.num_players:
        return refuse("colony.owner")
    if action.source == action.target:
        return refuse("colony.same_territory")
    if s.colonies[action.source][action.owner] == 0:
        return refuse("colony.absent", player=action.owner, territory=action.source)
    for t in (action.source, action.target):
        if repulsed(s, t):
            return refuse("colony.repulsor", territory=t)
    return None


def move(s: GameState, p: int, action: DiscardTeleporter) -> None:
    discard_card(s, p, "teleporter")
    remove_colony(s, action.owner, action.source)
    add_colony(s, action.owner, action.target)
    log(s, "colony_moved", p, owner=action.owner, source=action.source, target=action.target)


def move_options(s: GameState, p: int) -> list[DiscardTeleporter]:
    if discard_refusal(s, p, "teleporter"):
        return []
    out = []
    for src in TERRITORIES:
        if repulsed(s, src):
            continue
        for owner, n in enumerate(s.colonies[src]):
            if n:
                out += [
                    DiscardTeleporter(owner, src, dst)
                    for dst in TERRITORIES
                    if dst != src and not repulsed(s, dst)
                ]
    return out


def swap_refusal(s: GameState, p: int, action: DiscardPolarity) -> Refusal | None:
    r = discard_refusal(s, p, "polarity")
    if r:
        return r
    a, b = (action.owner_a, action.territory_a), (action.owner_b, action.territory_b)
    if not (0 <= a[0] < s.num_players and 0 <= b[0] < s.num_players):
        return refuse("colony.owner")
    if a[1] == b[1]:
        return refuse("colony.same_territory")
    if a[0] == b[0]:
        return refuse("polarity.same_colour")
    for owner, t in (a, b):
        if s.colonies[t][owner] == 0:
            return refuse("colony.absent", player=owner, territory=t)
        if repulsed(s, t):
            return refuse("colony.repulsor", territory=t)
    return None


def swap(s: GameState, p: int, action: DiscardPolarity) -> None:
    discard_card(s, p, "polarity")
    oa, ta, ob, tb = action.owner_a, action.territory_a, action.owner_b, action.territory_b
    # Change both territories before rechecking control, so no passing state counts.
    s.colonies[ta][oa] -= 1
    s.colonies[ta][ob] += 1
    s.colonies[tb][ob] -= 1
    s.colonies[tb][oa] += 1
    update_control(s, ta)
    update_control(s, tb)
    log(s, "colonies_swapped", p, owner_a=oa, territory_a=ta, owner_b=ob, territory_b=tb)


def swap_options(s: GameState, p: int) -> list[DiscardPolarity]:
    if discard_refusal(s, p, "polarity"):
        return []
    spots = [
        (o, t) for t in TERRITORIES if not repulsed(s, t) for o, n in enumerate(s.colonies[t]) if n
    ]
    out = []
    for i, (oa, ta) in enumerate(spots):
        for ob, tb in spots[i + 1 :]:
            if ta != tb and oa != ob:
                out.append(DiscardPolarity(oa, ta, ob, tb))
    return out

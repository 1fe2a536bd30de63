"""Temporal Warper (R-TECH-WARP): 1 fuel, reroll any of your undocked ships (a chance
decision follows); discard it to take any card from the discard pile.
"""

from __future__ import annotations

from itertools import combinations

from engine.actions import Die, DiscardWarper, Warp
from engine.board import Refusal, log, refuse
from engine.state import GameState, RollDecision
from engine.tables import CARD_INDEX, CARDS
from engine.tech.common import (
    discard_card,
    discard_refusal,
    power_cost,
    power_refusal,
    undocked_index,
    use_power,
)


def warp_refusal(s: GameState, p: int, action: Warp) -> Refusal | None:
    r = power_refusal(s, p, "warper", power_cost(s, p, "warper"))
    if r:
        return r
    if not action.dice:
        return refuse("warp.none")
    pool = list(s.undocked)
    for die in action.dice:
        for i, ship in enumerate(pool):
            if ship.value == die.value and ship.relic == die.relic:
                del pool[i]
                break
        else:
            return refuse("ship.not_undocked", value=str(die))
    return None


def warp(s: GameState, p: int, action: Warp) -> None:
    use_power(s, p, "warper", power_cost(s, p, "warper"))
    relic = False
    for die in action.dice:
        i = undocked_index(s, die)
        assert i is not None
        relic = relic or s.undocked[i].relic
        del s.undocked[i]
    s.pending.insert(0, RollDecision(len(action.dice) - int(relic), relic, reroll=True))


def warp_options(s: GameState, p: int) -> list[Warp]:
    if "warper" not in s.players[p].cards or power_refusal(
        s, p, "warper", power_cost(s, p, "warper")
    ):
        return []
    dice = sorted(Die(x.value, x.relic) for x in s.undocked)
    seen: set[tuple[Die, ...]] = set()
    for k in range(1, len(dice) + 1):
        seen.update(combinations(dice, k))
    return [Warp(c) for c in sorted(seen)]


def take_refusal(s: GameState, p: int, action: DiscardWarper) -> Refusal | None:
    r = discard_refusal(s, p, "warper")
    if r:
        return r
    if s.discard[CARD_INDEX[action.card]] == 0:
        return refuse("warp.not_in_discard", card=action.card)
    if action.card in s.players[p].cards:
        return refuse("card.already_owned", card=action.card)
    return None


def take(s: GameState, p: int, action: DiscardWarper) -> None:
    s.discard[CARD_INDEX[action.card]] -= 1
    discard_card(s, p, "warper")
    s.players[p].cards.append(action.card)
    log(s, "took_from_discard", p, card=action.card)


def take_options(s: GameState, p: int) -> list[DiscardWarper]:
    if "warper" not in s.players[p].cards or discard_refusal(s, p, "warper"):
        return []
    acts = [DiscardWarper(c) for c in CARDS if s.discard[CARD_INDEX[c]]]
    return [a for a in acts if take_refusal(s, p, a) is None]

"""Temporal Warper (R-TECH-WARP): 1 fuel, reroll any of your undocked ships (a chance
decision follows); discard it to take any card from the discard pile.
"""

from __future__ import annotations

from itertools import combinations

from engine.actions import Die, DiscardWarper, Warp
from engine.board import Refusal, find_die, log, pop_dice, refuse
from engine.state import GameState, RollDecision
from engine.tables import CARD_INDEX, CARDS
from engine.tech.card import Card
from engine.tech.common import DiscardPower, FuelPower
from engine.tokens import Tokens


class WarperUse(FuelPower[Warp]):
    exact = True  # any subset of the undocked ships

    def candidates(self, s: GameState, p: int) -> list[Warp]:
        dice = sorted(Die(x.value, x.relic) for x in s.undocked)
        seen: set[tuple[Die, ...]] = set()
        for k in range(1, len(dice) + 1):
            seen.update(combinations(dice, k))
        return [Warp(c) for c in sorted(seen)]

    def use_refusal(self, s: GameState, p: int, a: Warp) -> Refusal | None:
        if not a.dice:
            return refuse("warp.none")
        pool = list(s.undocked)
        for die in a.dice:
            i = find_die(pool, die)
            if i is None:
                return refuse("ship.not_undocked", value=str(die))
            del pool[i]
        return None

    def use(self, s: GameState, p: int, a: Warp) -> None:
        ships = pop_dice(s.undocked, a.dice)
        relic = any(x.relic for x in ships)
        s.pending.insert(0, RollDecision(len(a.dice) - int(relic), relic, reroll=True))

    def parse(self, t: Tokens) -> Warp:
        return Warp(t.dice())


class WarperDiscard(DiscardPower[DiscardWarper]):
    exact = True

    def candidates(self, s: GameState, p: int) -> list[DiscardWarper]:
        owned = s.players[p].cards
        return [DiscardWarper(c) for c in CARDS if s.discard[CARD_INDEX[c]] and c not in owned]

    def use_refusal(self, s: GameState, p: int, a: DiscardWarper) -> Refusal | None:
        if s.discard[CARD_INDEX[a.card]] == 0:
            return refuse("warp.not_in_discard", card=a.card)
        if a.card in s.players[p].cards:
            return refuse("card.already_owned", card=a.card)
        return None

    def use(self, s: GameState, p: int, a: DiscardWarper) -> None:
        s.discard[CARD_INDEX[a.card]] -= 1
        s.players[p].cards.append(a.card)
        log(s, "took_from_discard", p, card=a.card)

    def parse(self, t: Tokens) -> DiscardWarper:
        return DiscardWarper(t.card())


USE = WarperUse("warper", fuel=1)
DISCARD = WarperDiscard("warper")
CARD = Card("warper", ("temporal warper", "warp"), use=USE, discard=DISCARD)

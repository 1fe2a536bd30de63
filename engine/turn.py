"""The flow of a turn (section 3): gather and roll, the Resource Cache, ending the turn,
discarding down to 8, and passing to the next seat.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from itertools import combinations_with_replacement
from math import factorial
from operator import attrgetter
from typing import Final

from engine.actions import Action, Die, Dock, EndTurn, ReturnExcess, Roll
from engine.board import Refusal, log, pay, refuse, set_docks, to_bay, to_stock
from engine.docking import dock_options
from engine.rule import AnswerRule, ChanceRule, TurnRule
from engine.state import GameState, ReturnExcessDecision, RollDecision, Ship, TurnState, ship_of
from engine.tables import DIE_FACES, HAND_LIMIT, SHARED_FACILITIES
from engine.tech.card import CATALOGUE
from engine.tokens import Tokens


def gather(s: GameState, p: int) -> list[Ship]:
    """R-TURN-1: take back p's ships from every facility and the Maintenance Bay.

    A ship used up on the Terraforming Station goes to the stock instead (the relic
    ship to Burroughs Desert). Ships moved by a Mind Control Helm are gathered too.
    """
    ships: list[Ship] = []
    for facility in SHARED_FACILITIES:
        slots = s.docks[facility]
        if not any(slots):
            continue  # no ship there (docks are None or a ship, and every ship is true)
        ours = [ship for ship in slots if ship is not None and ship.owner == p]
        if not ours:
            continue
        set_docks(s, facility, [None if ship in ours else ship for ship in slots])
        if facility == "terraform":
            for ship in ours:
                to_stock(s, ship)
                log(s, "ship_used_up", p)
        else:
            ships += ours
    for track in s.hub_docks:
        mine = [x for x in track if x.owner == p]
        if mine:
            ships += mine
            track[:] = [x for x in track if x.owner != p]
    pl = s.players[p]
    ships += pl.bay
    pl.bay = []
    return ships


def start_turn(s: GameState, p: int) -> None:
    s.current = p
    s.turn_number += 1
    s.turn = TurnState()
    ships = gather(s, p)
    relic = any(x.relic for x in ships)
    s.undocked = []
    log(s, "turn_started", p, round=s.round)
    s.pending.insert(0, RollDecision(len(ships) - int(relic), relic))


_FACES: Final = {v: Die(v) for v in range(1, DIE_FACES + 1)}  # a die showing each face


class RollRule(ChanceRule[RollDecision, Roll]):
    """The dice of a turn's roll (R-TURN-1) or of a Temporal Warper reroll."""

    verbs = ("roll",)

    def outcomes(self, s: GameState, d: RollDecision) -> list[tuple[Roll, float]]:
        out: list[tuple[Roll, float]] = []
        faces = range(1, DIE_FACES + 1)
        relics = faces if d.relic else [0]
        for values in combinations_with_replacement(faces, d.dice):
            ways = factorial(d.dice)
            for c in Counter(values).values():
                ways //= factorial(c)
            prob = ways / DIE_FACES**d.dice
            for r in relics:
                dice = [Die(v) for v in values] + ([Die(r, True)] if r else [])
                out.append((Roll(tuple(sorted(dice))), prob / (DIE_FACES if r else 1)))
        return out

    def sample(self, s: GameState, d: RollDecision, rng: random.Random) -> Roll:
        dice = [_FACES[rng.randint(1, DIE_FACES)] for _ in range(d.dice)]
        if d.relic:
            dice.append(Die(rng.randint(1, DIE_FACES), True))
        return Roll(tuple(sorted(dice)))

    def refusal(self, s: GameState, d: RollDecision, a: Roll) -> Refusal | None:
        relics = sum(1 for x in a.dice if x.relic)
        if len(a.dice) - relics != d.dice or relics != int(d.relic):
            return refuse("chance.roll_count", dice=d.dice, relic=int(d.relic))
        if any(not 1 <= x.value <= DIE_FACES for x in a.dice):
            return refuse("ship.value_range")
        return None

    def apply(self, s: GameState, d: RollDecision, a: Roll) -> None:
        p = s.current
        s.pending.pop(0)
        s.undocked += [ship_of(p, x.value, x.relic) for x in a.dice]
        s.undocked.sort(key=attrgetter("value", "relic"))
        log(s, "rerolled" if d.reroll else "rolled", p, values=" ".join([str(x) for x in a.dice]))
        if not d.reroll:
            for card in list(s.players[p].cards):  # R-TURN-2: before any card is used
                after_roll = CATALOGUE[card].after_roll
                if after_roll is not None:
                    after_roll(s, p)

    def parse(self, t: Tokens) -> Roll:
        return Roll(t.dice())


class EndTurnRule(TurnRule[EndTurn]):
    """End the turn once no undocked ship can dock (R-TURN-4)."""

    verbs = ("end", "pass")

    def refusal(self, s: GameState, p: int, a: EndTurn) -> Refusal | None:
        options = dock_options(s, p, first_only=True)
        if options:
            return refuse("turn.must_dock", example=str(options[0]))
        return None

    def options_after(self, s: GameState, p: int, listed: list[Action]) -> list[EndTurn]:
        # The docks are listed first: the turn may end when none was.
        return [] if Dock in map(type, listed) else [EndTurn()]

    def apply(self, s: GameState, p: int, a: EndTurn) -> None:
        end_turn(s, p)

    def parse(self, t: Tokens) -> EndTurn:
        t.optional("turn")
        return EndTurn()


def end_turn(s: GameState, p: int) -> None:
    """R-TURN-4: ships left undocked go to the Maintenance Bay; then R-TURN-7."""
    for ship in s.undocked:
        to_bay(s, ship)
    if s.undocked:
        log(s, "to_bay", p, count=len(s.undocked))
    s.undocked = []
    pl = s.players[p]
    excess = pl.fuel + pl.ore - HAND_LIMIT
    if excess > 0:
        s.pending.insert(0, ReturnExcessDecision(p, excess))
    else:
        next_turn(s)


def next_turn(s: GameState) -> None:
    log(s, "turn_ended", s.current)
    start_turn(s, (s.current + 1) % s.num_players)


class ReturnRule(AnswerRule[ReturnExcessDecision, ReturnExcess]):
    """Return resources above the limit to the supply (R-TURN-7), then the next turn."""

    verbs = ("return",)

    exact = True

    def candidates(self, s: GameState, d: ReturnExcessDecision) -> list[ReturnExcess]:
        pl = s.players[d.player]  # the fuel returned: within what is held, with the ore
        fuel = range(max(0, d.excess - pl.ore), min(pl.fuel, d.excess) + 1)
        return [ReturnExcess(f, d.excess - f) for f in fuel]

    def refusal(self, s: GameState, d: ReturnExcessDecision, a: ReturnExcess) -> Refusal | None:
        pl = s.players[d.player]
        if a.fuel < 0 or a.ore < 0 or a.fuel + a.ore != d.excess:
            return refuse("return.amount", excess=d.excess)
        if a.fuel > pl.fuel or a.ore > pl.ore:
            return refuse("return.more_than_held", fuel=pl.fuel, ore=pl.ore)
        return None

    def apply(self, s: GameState, d: ReturnExcessDecision, a: ReturnExcess) -> None:
        pay(s, d.player, a.fuel, a.ore)
        log(s, "returned", d.player, fuel=a.fuel, ore=a.ore)
        s.pending.pop(0)
        next_turn(s)

    def parse(self, t: Tokens) -> ReturnExcess:
        amounts = {"fuel": 0, "ore": 0}
        while t.more():
            m = re.match(r"^(\d+)([fo]?)$", t.peek())
            if not m:
                raise t.fail("amounts like `2 fuel 1 ore`")
            t.take()
            n = int(m.group(1))
            kind = {"f": "fuel", "o": "ore"}.get(m.group(2)) or t.word("fuel", "ore")
            amounts[kind] += n
        return ReturnExcess(amounts["fuel"], amounts["ore"])


ROLL = RollRule()
END_TURN = EndTurnRule()
RETURN = ReturnRule()

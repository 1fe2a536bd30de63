"""The flow of a turn (section 3): gather and roll, the Resource Cache, ending the turn,
discarding down to 8, and passing to the next seat.
"""

from __future__ import annotations

from engine.actions import ReturnExcess, Roll
from engine.board import Refusal, log, pay, refuse, to_bay, to_stock
from engine.state import GameState, ReturnExcessDecision, RollDecision, Ship, TurnState
from engine.tables import HAND_LIMIT, SHARED_FACILITIES
from engine.tech.resource_cache import resolve_after_roll


def gather(s: GameState, p: int) -> list[Ship]:
    """R-TURN-1: take back p's ships from every facility and the Maintenance Bay.

    A ship used up on the Terraforming Station goes to the stock instead (the relic
    ship to Burroughs Desert). Ships moved by a Mind Control Helm are gathered too.
    """
    ships: list[Ship] = []
    for facility in SHARED_FACILITIES:
        slots = s.docks[facility]
        for i, ship in enumerate(slots):
            if ship is not None and ship.owner == p:
                slots[i] = None
                if facility == "terraform":
                    to_stock(s, ship)
                    log(s, "ship_used_up", p)
                else:
                    ships.append(ship)
    for track in s.hub_docks:
        ships += [x for x in track if x.owner == p]
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


def roll_refusal(s: GameState, d: RollDecision, action: Roll) -> Refusal | None:
    relics = sum(1 for x in action.dice if x.relic)
    if len(action.dice) - relics != d.dice or relics != int(d.relic):
        return refuse("chance.roll_count", dice=d.dice, relic=int(d.relic))
    if any(not 1 <= x.value <= 6 for x in action.dice):
        return refuse("ship.value_range")
    return None


def apply_roll(s: GameState, d: RollDecision, action: Roll) -> None:
    p = s.current
    s.pending.pop(0)
    s.undocked += [Ship(p, x.value, x.relic) for x in action.dice]
    s.undocked.sort(key=lambda x: (x.value, x.relic))
    log(s, "rerolled" if d.reroll else "rolled", p, values=" ".join(str(x) for x in action.dice))
    if not d.reroll:
        resolve_after_roll(s, p)  # R-TURN-2


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


def return_refusal(s: GameState, d: ReturnExcessDecision, action: ReturnExcess) -> Refusal | None:
    pl = s.players[d.player]
    if action.fuel < 0 or action.ore < 0 or action.fuel + action.ore != d.excess:
        return refuse("return.amount", excess=d.excess)
    if action.fuel > pl.fuel or action.ore > pl.ore:
        return refuse("return.more_than_held", fuel=pl.fuel, ore=pl.ore)
    return None


def apply_return(s: GameState, d: ReturnExcessDecision, action: ReturnExcess) -> None:
    pay(s, d.player, action.fuel, action.ore)
    log(s, "returned", d.player, fuel=action.fuel, ore=action.ore)
    s.pending.pop(0)
    next_turn(s)


def return_options(s: GameState, d: ReturnExcessDecision) -> list[ReturnExcess]:
    pl = s.players[d.player]
    return [
        ReturnExcess(f, d.excess - f)
        for f in range(d.excess + 1)
        if f <= pl.fuel and d.excess - f <= pl.ore
    ]

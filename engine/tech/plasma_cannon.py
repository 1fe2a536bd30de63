"""Plasma Cannon (R-TECH-PLASMA): 1 fuel per ship, send any number of opponents' ships
docked at one facility to their Maintenance Bays (from the Terraforming Station to the
stock, R-TERR-LOCK). Discard: send one opponent's docked ship to its stock, only if its
owner keeps at least 3 ships of their colour at the start of their next turn.
"""

from __future__ import annotations

from engine.actions import DiscardPlasma, Hit, Plasma
from engine.board import (
    Refusal,
    colour_ships_in_play,
    consumed_ship,
    docked_ships,
    is_opponent_ship,
    log,
    pay,
    refuse,
    remove_docked,
    to_bay,
    to_stock,
)
from engine.state import GameState, PlasmaDecision, Ship
from engine.tables import FACILITY_ORDER, MIN_COLOUR_SHIPS, FacilityId
from engine.tech.common import discard_card, discard_refusal, fuel_cost, power_refusal, use_power


def _targets(s: GameState, p: int, facility: FacilityId) -> list[Ship]:
    return sorted(
        {x for x in docked_ships(s, facility) if is_opponent_ship(x, p)},
        key=lambda x: (x.owner, x.value, x.relic),
    )


def _remove(s: GameState, facility: FacilityId, ship: Ship) -> None:
    remove_docked(s, facility, ship)
    if facility == "terraform":
        to_stock(s, ship)
    else:
        to_bay(s, ship)
    log(s, "ship_removed", ship.owner, facility=facility, value=ship.value)


def fire_refusal(s: GameState, p: int, action: Plasma) -> Refusal | None:
    r = power_refusal(s, p, "plasma", fuel_cost(s, p, 1))
    if r:
        return r
    if action.ship not in _targets(s, p, action.facility):
        return refuse("plasma.target", facility=action.facility)
    return None


def fire(s: GameState, p: int, action: Plasma) -> None:
    use_power(s, p, "plasma", fuel_cost(s, p, 1))
    _remove(s, action.facility, action.ship)
    _continue(s, p, PlasmaDecision(p, action.facility, 1), first=True)


def _continue(s: GameState, p: int, d: PlasmaDecision, first: bool) -> None:
    more = bool(_targets(s, p, d.facility)) and s.players[p].fuel >= 1
    if first:
        if more:
            s.pending.insert(0, d)
    elif more:
        s.pending[0] = d
    else:
        s.pending.pop(0)


def hit_refusal(s: GameState, d: PlasmaDecision, action: Hit) -> Refusal | None:
    if s.players[d.player].fuel < 1:
        return refuse("card.fuel", card="plasma", cost=1, fuel=s.players[d.player].fuel)
    if action.ship not in _targets(s, d.player, d.facility):
        return refuse("plasma.target", facility=d.facility)
    return None


def hit(s: GameState, d: PlasmaDecision, action: Hit) -> None:
    pay(s, d.player, 1, 0)
    _remove(s, d.facility, action.ship)
    _continue(s, d.player, PlasmaDecision(d.player, d.facility, d.removed + 1), first=False)


def hit_options(s: GameState, d: PlasmaDecision) -> list[Hit]:
    if s.players[d.player].fuel < 1:
        return []
    return [Hit(x) for x in _targets(s, d.player, d.facility)]


def fire_options(s: GameState, p: int) -> list[Plasma]:
    if power_refusal(s, p, "plasma", fuel_cost(s, p, 1)):
        return []
    return [Plasma(f, x) for f in FACILITY_ORDER for x in _targets(s, p, f)]


def ships_next_turn(s: GameState, owner: int, removed: Ship | None, facility: FacilityId) -> int:
    """Ships of ``owner``'s colour at the start of their next turn if ``removed`` goes to stock."""
    count = colour_ships_in_play(s, owner) - int(consumed_ship(s, owner))
    if removed is not None and not removed.relic and facility != "terraform":
        count -= 1
    return count


def discard_fire_refusal(s: GameState, p: int, action: DiscardPlasma) -> Refusal | None:
    r = discard_refusal(s, p, "plasma")
    if r:
        return r
    if action.ship not in _targets(s, p, action.facility):
        return refuse("plasma.target", facility=action.facility)
    if ships_next_turn(s, action.ship.owner, action.ship, action.facility) < MIN_COLOUR_SHIPS:
        return refuse("plasma.min_ships", player=action.ship.owner, minimum=MIN_COLOUR_SHIPS)
    return None


def discard_fire(s: GameState, p: int, action: DiscardPlasma) -> None:
    discard_card(s, p, "plasma")
    remove_docked(s, action.facility, action.ship)
    to_stock(s, action.ship)
    log(s, "ship_destroyed", action.ship.owner, facility=action.facility, value=action.ship.value)


def discard_options(s: GameState, p: int) -> list[DiscardPlasma]:
    if discard_refusal(s, p, "plasma"):
        return []
    acts = [DiscardPlasma(f, x) for f in FACILITY_ORDER for x in _targets(s, p, f)]
    return [a for a in acts if discard_fire_refusal(s, p, a) is None]

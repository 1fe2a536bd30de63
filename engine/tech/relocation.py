"""Moving a docked ship to another facility, where it docks anew (it may combine with
undocked ships and must meet that facility's rules; its value does not change):
Orbital Teleporter (R-TECH-TELE) for your own ship, Mind Control Helm (R-TECH-HELM)
for an opponent's ship used as yours. Neither moves a ship from the Maintenance Bay
(ships there are not docked) or from the Terraforming Station (R-TERR-LOCK), nor
back to the facility it came from; the Helm cannot go to the Terraforming Station.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from engine.actions import Die, Helm, Teleport
from engine.board import Refusal, docked_ships, is_opponent_ship, log, refuse, remove_docked
from engine.facilities import FACILITY_RULES
from engine.state import GameState, Ship
from engine.tables import FACILITY_ORDER, CardId, FacilityId
from engine.tech.common import power_cost, power_refusal, use_power

Relocation = Teleport | Helm


def _card(action: Relocation) -> CardId:
    return "teleporter" if isinstance(action, Teleport) else "helm"


def _moved_ship(s: GameState, p: int, action: Relocation) -> Ship:
    if isinstance(action, Teleport):
        return Ship(p, action.die.value, action.die.relic)
    return action.ship


def _take_dice(pool: list[Ship], dice: tuple[Die, ...]) -> list[Ship] | None:
    """The undocked ships named by the dice, or None if they are not all there."""
    rest = list(pool)
    taken: list[Ship] = []
    for die in dice:
        for i, ship in enumerate(rest):
            if ship.value == die.value and ship.relic == die.relic:
                taken.append(rest.pop(i))
                break
        else:
            return None
    return taken


def relocation_refusal(s: GameState, p: int, action: Relocation) -> Refusal | None:
    card = _card(action)
    r = power_refusal(s, p, card, power_cost(s, p, card))
    if r:
        return r
    ship = _moved_ship(s, p, action)
    if action.source == "terraform":
        return refuse("move.from_terraform")
    if card == "helm" and action.target == "terraform":
        return refuse("helm.to_terraform")
    if action.source == action.target:
        return refuse("move.same_facility")
    if card == "helm" and not is_opponent_ship(ship, p):
        return refuse("helm.not_opponent")
    if ship not in docked_ships(s, action.source):
        return refuse("move.not_docked", facility=action.source)
    companions = _take_dice(s.undocked, action.dice)
    if companions is None:
        return refuse("ship.not_undocked", value=" ".join(str(d) for d in action.dice))
    with _paid(s, p, power_cost(s, p, card)):
        return FACILITY_RULES[action.target].refusal(s, p, [ship, *companions])


@contextmanager
def _paid(s: GameState, p: int, fuel: int) -> Iterator[None]:
    """The card is paid before the ship docks anew: judge the docking without that fuel."""
    s.players[p].fuel -= fuel
    try:
        yield
    finally:
        s.players[p].fuel += fuel


def relocate(s: GameState, p: int, action: Relocation) -> None:
    card = _card(action)
    use_power(s, p, card, power_cost(s, p, card))
    ship = _moved_ship(s, p, action)
    remove_docked(s, action.source, ship)
    companions = _take_dice(s.undocked, action.dice)
    assert companions is not None
    for c in companions:
        s.undocked.remove(c)
    log(s, "ship_moved", p, source=action.source, target=action.target, value=ship.value)
    FACILITY_RULES[action.target].dock(s, p, [ship, *companions])


def _sources(s: GameState, p: int, card: CardId) -> list[tuple[FacilityId, Ship]]:
    found: set[tuple[FacilityId, Ship]] = set()
    for facility in FACILITY_ORDER:
        if facility == "terraform":
            continue
        for ship in docked_ships(s, facility):
            mine = ship.owner == p
            if (card == "teleporter" and mine) or (card == "helm" and is_opponent_ship(ship, p)):
                found.add((facility, ship))
    return sorted(
        found, key=lambda fs: (FACILITY_ORDER.index(fs[0]), fs[1].owner, fs[1].value, fs[1].relic)
    )


def options(s: GameState, p: int) -> list[Relocation]:
    out: list[Relocation] = []
    for card in ("teleporter", "helm"):
        if card not in s.players[p].cards or power_refusal(s, p, card, power_cost(s, p, card)):
            continue
        for source, ship in _sources(s, p, card):
            for target in FACILITY_ORDER:
                if target == source or (card == "helm" and target == "terraform"):
                    continue
                rules = FACILITY_RULES[target]
                for group in rules.candidates(s, p, s.undocked, ship):
                    with _paid(s, p, power_cost(s, p, card)):
                        if rules.refusal(s, p, group) is not None:
                            continue
                    dice = tuple(sorted(Die(x.value, x.relic) for x in group[1:]))
                    if card == "teleporter":
                        out.append(Teleport(source, Die(ship.value, ship.relic), target, dice))
                    else:
                        out.append(Helm(source, ship, target, dice))
    return out

"""Plasma Cannon (R-TECH-PLASMA): 1 fuel per ship, send any number of opponents' ships
docked at one facility to their Maintenance Bays (from the Terraforming Station to the
stock, R-TERR-LOCK): the first ship is the card's use, each further one a ``hit`` while
the cannon's decision is pending, until ``done``. Discard: send one opponent's docked
ship to its stock, only if its owner keeps at least 3 ships of their colour at the start
of their next turn.
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
from engine.rule import AnswerRule, Stop
from engine.state import GameState, PlasmaDecision, Ship
from engine.tables import FACILITY_ORDER, MIN_COLOUR_SHIPS, FacilityId
from engine.tech.card import Card
from engine.tech.common import DiscardPower, FuelPower
from engine.tokens import Tokens


def targets(s: GameState, p: int, facility: FacilityId) -> list[Ship]:
    """Opponents' ships p may fire at on a facility (never p's own or a neutral ship)."""
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


def _keep_firing(s: GameState, p: int, d: PlasmaDecision, first: bool) -> None:
    """Wait for another hit while there is a target and fuel to pay for it."""
    more = bool(targets(s, p, d.facility)) and s.players[p].fuel >= 1
    if first:
        if more:
            s.pending.insert(0, d)
    elif more:
        s.pending[0] = d
    else:
        s.pending.pop(0)


def _target_refusal(s: GameState, p: int, facility: FacilityId, ship: Ship) -> Refusal | None:
    if ship not in targets(s, p, facility):
        return refuse("plasma.target", facility=facility)
    return None


class PlasmaUse(FuelPower[Plasma]):
    exact = True

    def candidates(self, s: GameState, p: int) -> list[Plasma]:
        return [Plasma(f, x) for f in FACILITY_ORDER for x in targets(s, p, f)]

    def use_refusal(self, s: GameState, p: int, a: Plasma) -> Refusal | None:
        return _target_refusal(s, p, a.facility, a.ship)

    def use(self, s: GameState, p: int, a: Plasma) -> None:
        _remove(s, a.facility, a.ship)
        _keep_firing(s, p, PlasmaDecision(p, a.facility, 1), first=True)

    def parse(self, t: Tokens) -> Plasma:
        return Plasma(t.facility(), t.ship())


class PlasmaHit(AnswerRule[PlasmaDecision, Hit]):
    """Another ship at the facility fired at, 1 fuel each (never cheaper)."""

    verbs = ("hit",)

    exact = True

    def candidates(self, s: GameState, d: PlasmaDecision) -> list[Hit]:
        if s.players[d.player].fuel < 1:
            return []
        return [Hit(x) for x in targets(s, d.player, d.facility)]

    def refusal(self, s: GameState, d: PlasmaDecision, a: Hit) -> Refusal | None:
        fuel = s.players[d.player].fuel
        if fuel < 1:
            return refuse("card.fuel", card="plasma", cost=1, fuel=fuel)
        return _target_refusal(s, d.player, d.facility, a.ship)

    def apply(self, s: GameState, d: PlasmaDecision, a: Hit) -> None:
        pay(s, d.player, 1, 0)
        _remove(s, d.facility, a.ship)
        _keep_firing(s, d.player, PlasmaDecision(d.player, d.facility, d.removed + 1), first=False)

    def parse(self, t: Tokens) -> Hit:
        return Hit(t.ship())


def ships_next_turn(s: GameState, owner: int, removed: Ship | None, facility: FacilityId) -> int:
    """Ships of ``owner``'s colour at the start of their next turn if ``removed`` goes to stock."""
    count = colour_ships_in_play(s, owner) - int(consumed_ship(s, owner))
    if removed is not None and not removed.relic and facility != "terraform":
        count -= 1
    return count


class PlasmaDiscard(DiscardPower[DiscardPlasma]):
    exact = True

    def candidates(self, s: GameState, p: int) -> list[DiscardPlasma]:
        return [
            DiscardPlasma(f, x)
            for f in FACILITY_ORDER
            for x in targets(s, p, f)
            if ships_next_turn(s, x.owner, x, f) >= MIN_COLOUR_SHIPS
        ]

    def use_refusal(self, s: GameState, p: int, a: DiscardPlasma) -> Refusal | None:
        r = _target_refusal(s, p, a.facility, a.ship)
        if r:
            return r
        if ships_next_turn(s, a.ship.owner, a.ship, a.facility) < MIN_COLOUR_SHIPS:
            return refuse("plasma.min_ships", player=a.ship.owner, minimum=MIN_COLOUR_SHIPS)
        return None

    def use(self, s: GameState, p: int, a: DiscardPlasma) -> None:
        remove_docked(s, a.facility, a.ship)
        to_stock(s, a.ship)
        log(s, "ship_destroyed", a.ship.owner, facility=a.facility, value=a.ship.value)

    def parse(self, t: Tokens) -> DiscardPlasma:
        return DiscardPlasma(t.facility(), t.ship())


USE = PlasmaUse("plasma", fuel=1)  # per ship: each further one is a hit
HIT = PlasmaHit()
STOP_FIRING = Stop(PlasmaDecision)
DISCARD = PlasmaDiscard("plasma")
CARD = Card("plasma", ("plasma cannon", "cannon"), use=USE, discard=DISCARD)

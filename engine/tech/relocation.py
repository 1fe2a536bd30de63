"""Moving a docked ship to another facility, where it docks anew (it may combine with
undocked ships and must meet that facility's rules; its value does not change): the
mechanism of the Orbital Teleporter's and the Mind Control Helm's fuel powers (their
modules say whose ships they move and where they may not go). No ship moves from the
Maintenance Bay (ships there are not docked) or from the Terraforming Station
(R-TERR-LOCK), nor back to the facility it came from.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TypeVar

from engine.actions import Die, Relocation
from engine.board import (
    Refusal,
    docked_ships,
    log,
    pop_dice,
    refuse,
    remove_docked,
    take_dice,
)
from engine.facilities import FACILITY_RULES
from engine.state import GameState, Ship
from engine.tables import FACILITY_ORDER, FacilityId
from engine.tech.common import FuelPower

R = TypeVar("R", bound=Relocation)


class RelocationPower(FuelPower[R]):
    """A fuel power that moves a docked ship to another facility and docks it there."""

    def moved(self, p: int, a: R) -> Ship:
        """The ship the action moves."""
        raise NotImplementedError

    def make(self, source: FacilityId, ship: Ship, target: FacilityId, dice: tuple[Die, ...]) -> R:
        """The action moving ``ship`` from ``source`` to ``target`` with ``dice``."""
        raise NotImplementedError

    def may_move(self, ship: Ship, p: int) -> bool:
        """Whether p may move this docked ship with the power."""
        raise NotImplementedError

    def may_go(self, target: FacilityId) -> bool:
        """Whether the power may move a ship to this facility (another rule than the ship's)."""
        return True

    def target_refusal(self, a: R) -> Refusal | None:
        return None

    def ship_refusal(self, ship: Ship, p: int) -> Refusal | None:
        return None

    def use_refusal(self, s: GameState, p: int, a: R) -> Refusal | None:
        ship = self.moved(p, a)
        if a.source == "terraform":
            return refuse("move.from_terraform")
        r = self.target_refusal(a)
        if r:
            return r
        if a.source == a.target:
            return refuse("move.same_facility")
        r = self.ship_refusal(ship, p)
        if r:
            return r
        if ship not in docked_ships(s, a.source):
            return refuse("move.not_docked", facility=a.source)
        companions = take_dice(s.undocked, a.dice)
        if companions is None:
            return refuse("ship.not_undocked", value=" ".join(str(d) for d in a.dice))
        with _paid(s, p, self.cost(s, p, a)):
            return FACILITY_RULES[a.target].refusal(s, p, [ship, *companions])

    def use(self, s: GameState, p: int, a: R) -> None:
        ship = self.moved(p, a)
        remove_docked(s, a.source, ship)
        companions = pop_dice(s.undocked, a.dice)
        where = {"source": a.source, "target": a.target, "value": ship.value}
        if ship.owner == p:
            log(s, "ship_moved", p, **where)
        else:  # the Mind Control Helm moves an opponent's ship: its log names whose
            log(s, "opponent_ship_moved", p, owner=ship.owner, **where)
        FACILITY_RULES[a.target].dock(s, p, [ship, *companions])

    def sources(self, s: GameState, p: int) -> list[tuple[FacilityId, Ship]]:
        """The docked ships the power may move, in board order."""
        found: set[tuple[FacilityId, Ship]] = set()
        for facility in FACILITY_ORDER:
            if facility == "terraform":
                continue
            for ship in docked_ships(s, facility):
                if self.may_move(ship, p):
                    found.add((facility, ship))
        return sorted(
            found,
            key=lambda fs: (FACILITY_ORDER.index(fs[0]), fs[1].owner, fs[1].value, fs[1].relic),
        )

    def _moves(self, s: GameState, p: int, checked: bool) -> Iterator[R]:
        """Every move of a docked ship with undocked ships of the target's shape; only
        those the target accepts once the card is paid if ``checked``."""
        for source, ship in self.sources(s, p):
            for target in FACILITY_ORDER:
                if checked and (target == source or not self.may_go(target)):
                    continue
                rules = FACILITY_RULES[target]
                for group in rules.candidates(s, p, s.undocked, ship):
                    a = self.make(source, ship, target, tuple(sorted(_dice(group[1:]))))
                    if checked:
                        with _paid(s, p, self.cost(s, p, a)):
                            if rules.refusal(s, p, group) is not None:
                                continue
                    yield a

    def candidates(self, s: GameState, p: int) -> Iterator[R]:
        return self._moves(s, p, checked=False)

    def options(self, s: GameState, p: int) -> list[R]:
        if self.card_refusal(s, p):
            return []
        return list(self._moves(s, p, checked=True))


def _dice(ships: list[Ship]) -> list[Die]:
    return [Die(x.value, x.relic) for x in ships]


@contextmanager
def _paid(s: GameState, p: int, fuel: int) -> Iterator[None]:
    """The card is paid before the ship docks anew: judge the docking without that fuel."""
    s.players[p].fuel -= fuel
    try:
        yield
    finally:
        s.players[p].fuel += fuel

"""Orbital Teleporter (R-TECH-TELE): 2 fuel, move one of your docked ships to another
facility, where it docks anew (engine.tech.relocation). Discard: move one colony (any
player's) from one territory to another (R-FIELD-REP forbids a Repulsor Field territory).
"""

from __future__ import annotations

from engine.actions import Die, DiscardTeleporter, Teleport
from engine.board import Refusal, log, refuse
from engine.state import GameState, Ship
from engine.tables import TERRITORIES, FacilityId
from engine.tech.card import Card
from engine.tech.common import DiscardPower
from engine.tech.relocation import RelocationPower
from engine.territories import add_colony, remove_colony, repulsed
from engine.tokens import Tokens


class TeleporterUse(RelocationPower[Teleport]):
    def moved(self, p: int, a: Teleport) -> Ship:
        return Ship(p, a.die.value, a.die.relic)

    def make(
        self, source: FacilityId, ship: Ship, target: FacilityId, dice: tuple[Die, ...]
    ) -> Teleport:
        return Teleport(source, Die(ship.value, ship.relic), target, dice)

    def may_move(self, ship: Ship, p: int) -> bool:
        return ship.owner == p

    def parse(self, t: Tokens) -> Teleport:
        source = t.facility()
        die = t.die()
        t.optional("to")
        return Teleport(source, die, t.facility(), t.dice(at_least=0))


class TeleporterDiscard(DiscardPower[DiscardTeleporter]):
    exact = True

    def candidates(self, s: GameState, p: int) -> list[DiscardTeleporter]:
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

    def use_refusal(self, s: GameState, p: int, a: DiscardTeleporter) -> Refusal | None:
        if not 0 <= a.owner < s.num_players:
            return refuse("colony.owner")
        if a.source == a.target:
            return refuse("colony.same_territory")
        if s.colonies[a.source][a.owner] == 0:
            return refuse("colony.absent", player=a.owner, territory=a.source)
        for t in (a.source, a.target):
            if repulsed(s, t):
                return refuse("colony.repulsor", territory=t)
        return None

    def use(self, s: GameState, p: int, a: DiscardTeleporter) -> None:
        remove_colony(s, a.owner, a.source)
        add_colony(s, a.owner, a.target)
        log(s, "colony_moved", p, owner=a.owner, source=a.source, target=a.target)

    def parse(self, t: Tokens) -> DiscardTeleporter:
        owner = t.seat()
        source = t.territory()
        t.optional("to")
        return DiscardTeleporter(owner, source, t.territory())


USE = TeleporterUse("teleporter", fuel=2)
DISCARD = TeleporterDiscard("teleporter")
CARD = Card("teleporter", ("orbital teleporter", "teleport"), use=USE, discard=DISCARD)

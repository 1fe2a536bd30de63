"""Mind Control Helm (R-TECH-HELM, a 2nd-edition option): 3 fuel, move one opponent's
docked ship to another facility and use it as yours there, alone or with your undocked
ships (engine.tech.relocation). Not to the Terraforming Station. Its owner gathers it
as usual on their turn. No discard power.
"""

from __future__ import annotations

from engine.actions import Die, Helm
from engine.board import Refusal, is_opponent_ship, refuse
from engine.state import Ship
from engine.tables import FacilityId
from engine.tech.card import Card
from engine.tech.relocation import RelocationPower
from engine.tokens import Tokens


class HelmUse(RelocationPower[Helm]):
    def moved(self, p: int, a: Helm) -> Ship:
        return a.ship

    def make(
        self, source: FacilityId, ship: Ship, target: FacilityId, dice: tuple[Die, ...]
    ) -> Helm:
        return Helm(source, ship, target, dice)

    def may_move(self, ship: Ship, p: int) -> bool:
        return is_opponent_ship(ship, p)

    def may_go(self, target: FacilityId) -> bool:
        return target != "terraform"

    def target_refusal(self, a: Helm) -> Refusal | None:
        return refuse("helm.to_terraform") if a.target == "terraform" else None

    def ship_refusal(self, ship: Ship, p: int) -> Refusal | None:
        return None if is_opponent_ship(ship, p) else refuse("helm.not_opponent")

    def parse(self, t: Tokens) -> Helm:
        source = t.facility()
        ship = t.ship()
        t.optional("to")
        return Helm(source, ship, t.facility(), t.dice(at_least=0))


USE = HelmUse("helm", fuel=3)
CARD = Card("helm", ("mind control helm", "mind control"), use=USE, option="mind_control_helm")

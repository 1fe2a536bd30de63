"""Data Crystal (R-TECH-CRYSTAL): pay fuel equal to the colonies on a territory to use its
bonus this turn. Not an empty or isolated territory, never Burroughs Desert.
Discard: place or move the Positron Field (R-FIELD-POS: its territory's controller
scores 1 extra VP).
"""

from __future__ import annotations

from engine.actions import Crystal
from engine.board import Refusal, log, refuse
from engine.fields import FieldDiscard
from engine.state import GameState
from engine.tables import TERRITORIES
from engine.tech.card import Card
from engine.tech.common import FuelPower, fuel_cost
from engine.territories import colony_total, has_bonus
from engine.tokens import Tokens


class CrystalUse(FuelPower[Crystal]):
    def cost(self, s: GameState, p: int, a: Crystal) -> int:
        return fuel_cost(s, p, colony_total(s, a.territory))

    def candidates(self, s: GameState, p: int) -> list[Crystal]:
        return [Crystal(t) for t in TERRITORIES]

    def use_refusal(self, s: GameState, p: int, a: Crystal) -> Refusal | None:
        t = a.territory
        if t == "burroughs":
            return refuse("crystal.burroughs")
        if colony_total(s, t) == 0:
            return refuse("crystal.empty", territory=t)
        if s.fields["isolation"] == t:
            return refuse("crystal.isolated", territory=t)
        if has_bonus(s, p, t):
            return refuse("crystal.already", territory=t)
        return None

    def use(self, s: GameState, p: int, a: Crystal) -> None:
        s.turn.borrowed.append(a.territory)
        log(s, "bonus_borrowed", p, territory=a.territory)

    def parse(self, t: Tokens) -> Crystal:
        return Crystal(t.territory())


USE = CrystalUse("crystal", fuel=0)  # as many as the territory has colonies
DISCARD = FieldDiscard("crystal")
CARD = Card("crystal", ("data crystal",), use=USE, discard=DISCARD)

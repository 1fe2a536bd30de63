"""Booster Pod (R-TECH-BOOST): 1 fuel, +1 on one undocked ship. Discard: remove one field
generator from the board (section 7); the usual discards may place it again later.
"""

from __future__ import annotations

from engine.actions import Boost, DiscardBooster
from engine.board import Refusal, log, refuse
from engine.state import GameState
from engine.tables import FIELDS
from engine.tech.card import Card
from engine.tech.common import DiscardPower, OneShipPower
from engine.territories import set_field
from engine.tokens import Tokens


class BoosterUse(OneShipPower[Boost]):
    def new_value(self, value: int) -> int:
        return value + 1


class BoosterDiscard(DiscardPower[DiscardBooster]):
    exact = True

    def candidates(self, s: GameState, p: int) -> list[DiscardBooster]:
        return [DiscardBooster(f) for f in FIELDS if s.fields[f] is not None]

    def use_refusal(self, s: GameState, p: int, a: DiscardBooster) -> Refusal | None:
        if s.fields[a.field] is None:
            return refuse("field.not_placed", field=a.field)
        return None

    def use(self, s: GameState, p: int, a: DiscardBooster) -> None:
        set_field(s, a.field, None)
        log(s, "field_removed", p, field=a.field)

    def parse(self, t: Tokens) -> DiscardBooster:
        return DiscardBooster(t.field())


USE = BoosterUse("booster", fuel=1)
DISCARD = BoosterDiscard("booster")
CARD = Card("booster", ("booster pod", "pod"), use=USE, discard=DISCARD)

"""The relic ship and Burroughs Desert's bonus (R-COL-4, R-TERR-BURR).

The controller of Burroughs Desert (without an Isolation Field there; Data Crystal
cannot borrow this bonus) may buy the relic ship for 1 fuel + 1 ore while it is on the
desert: it goes to their Maintenance Bay and joins their fleet next turn. Its
returns to the desert are in board.to_stock and territories.return_relic.
"""

from __future__ import annotations

from engine.actions import BuyRelic
from engine.board import Refusal, can_pay, log, pay, refuse, to_bay
from engine.rule import TurnRule
from engine.state import GameState, Ship
from engine.tokens import Tokens


class BuyRelicRule(TurnRule[BuyRelic]):
    verbs = ("buy relic", "buy")

    def refusal(self, s: GameState, p: int, a: BuyRelic) -> Refusal | None:
        if s.controller["burroughs"] != p:
            return refuse("relic.not_controller")
        if s.fields["isolation"] == "burroughs":
            return refuse("relic.isolated")
        if not s.relic_on_desert:
            return refuse("relic.not_on_desert")
        if not can_pay(s, p, 1, 1):
            return refuse("relic.cost")
        return None

    def apply(self, s: GameState, p: int, a: BuyRelic) -> None:
        pay(s, p, 1, 1)
        s.relic_on_desert = False
        to_bay(s, Ship(p, 1, relic=True))
        log(s, "relic_bought", p)

    def parse(self, t: Tokens) -> BuyRelic:
        t.optional("ship")
        return BuyRelic()


BUY_RELIC = BuyRelicRule()

"""Polarity Device (R-TECH-POLAR): 1 fuel, turn one undocked ship to its opposite face
(7 - value). Discard: swap two colonies of different players on two territories
(R-FIELD-REP forbids a Repulsor Field territory); two of one colour are not offered.
"""

from __future__ import annotations

from engine.actions import DiscardPolarity, Polarize
from engine.board import Refusal, log, refuse
from engine.state import GameState
from engine.tables import DIE_FACES, TERRITORIES
from engine.tech.card import Card
from engine.tech.common import DiscardPower, OneShipPower
from engine.territories import count_colony, repulsed, update_control
from engine.tokens import Tokens


class PolarityUse(OneShipPower[Polarize]):
    def new_value(self, value: int) -> int:
        return DIE_FACES + 1 - value


class PolarityDiscard(DiscardPower[DiscardPolarity]):
    exact = True

    def candidates(self, s: GameState, p: int) -> list[DiscardPolarity]:
        spots = [
            (o, t)
            for t in TERRITORIES
            if not repulsed(s, t)
            for o, n in enumerate(s.colonies[t])
            if n
        ]
        out = []
        for i, (oa, ta) in enumerate(spots):
            for ob, tb in spots[i + 1 :]:
                if ta != tb and oa != ob:
                    out.append(DiscardPolarity(oa, ta, ob, tb))
        return out

    def use_refusal(self, s: GameState, p: int, a: DiscardPolarity) -> Refusal | None:
        one, other = (a.owner_a, a.territory_a), (a.owner_b, a.territory_b)
        if not (0 <= one[0] < s.num_players and 0 <= other[0] < s.num_players):
            return refuse("colony.owner")
        if one[1] == other[1]:
            return refuse("colony.same_territory")
        if one[0] == other[0]:
            return refuse("polarity.same_colour")
        for owner, t in (one, other):
            if s.colonies[t][owner] == 0:
                return refuse("colony.absent", player=owner, territory=t)
            if repulsed(s, t):
                return refuse("colony.repulsor", territory=t)
        return None

    def use(self, s: GameState, p: int, a: DiscardPolarity) -> None:
        oa, ta, ob, tb = a.owner_a, a.territory_a, a.owner_b, a.territory_b
        # Change both territories before rechecking control, so no passing state counts.
        count_colony(s, oa, ta, -1)
        count_colony(s, ob, ta, 1)
        count_colony(s, ob, tb, -1)
        count_colony(s, oa, tb, 1)
        update_control(s, ta)
        update_control(s, tb)
        log(s, "colonies_swapped", p, owner_a=oa, territory_a=ta, owner_b=ob, territory_b=tb)

    def parse(self, t: Tokens) -> DiscardPolarity:
        a = (t.seat(), t.territory())
        t.optional("with", "and")
        b = (t.seat(), t.territory())
        # The swap is symmetric: write it in one order (territories as in TERRITORIES).
        first, second = sorted((a, b), key=lambda x: (TERRITORIES.index(x[1]), x[0]))
        return DiscardPolarity(first[0], first[1], second[0], second[1])


USE = PolarityUse("polarity", fuel=1)
DISCARD = PolarityDiscard("polarity")
CARD = Card("polarity", ("polarity device", "polarizer"), use=USE, discard=DISCARD)

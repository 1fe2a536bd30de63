"""Field generators (section 7): discarding Stasis Beam, Data Crystal or Gravity
Manipulator places its field (Isolation, Positron, Repulsor) on a territory, or moves it
to a different one; those cards' modules declare this discard power as a ``FieldDiscard``.
(Booster Pod's discard, removing a field, is in its own module.)
The fields' effects are read where they apply: Isolation in territories.has_bonus,
Positron in scoring, Repulsor in territories.repulsed.
"""

from __future__ import annotations

from engine.actions import DiscardField
from engine.board import Refusal, log, refuse
from engine.state import GameState
from engine.tables import FIELD_OF_CARD, TERRITORIES
from engine.tech.common import DiscardPower, discard_refusal
from engine.territories import return_relic, set_field
from engine.tokens import Tokens


class FieldDiscard(DiscardPower[DiscardField]):
    """Discard ``card`` to place or move its field generator (``discard <card> <territory>``)."""

    def claims(self, a: DiscardField) -> bool:
        return a.card == self.card

    exact = True

    def candidates(self, s: GameState, p: int) -> list[DiscardField]:
        here = s.fields[FIELD_OF_CARD[self.card]]  # moved to a different territory
        return [DiscardField(self.card, t) for t in TERRITORIES if t != here]

    def unclaimed(self, s: GameState, p: int, a: DiscardField) -> Refusal:
        return discard_refusal(s, p, a.card) or refuse("field.card", card=a.card)

    def use_refusal(self, s: GameState, p: int, a: DiscardField) -> Refusal | None:
        field = FIELD_OF_CARD[a.card]
        if s.fields[field] == a.territory:
            return refuse("field.same_territory", field=field, territory=a.territory)
        return None

    def use(self, s: GameState, p: int, a: DiscardField) -> None:
        field = FIELD_OF_CARD[a.card]
        set_field(s, field, a.territory)
        log(s, "field_placed", p, field=field, territory=a.territory)
        if field == "isolation" and a.territory == "burroughs" and not s.relic_on_desert:
            return_relic(s)  # R-COL-4

    def parse(self, t: Tokens) -> DiscardField:
        return DiscardField(self.card, t.territory())

"""Field generators (section 7): discarding Stasis Beam, Data Crystal or Gravity
Manipulator places its field (Isolation, Positron, Repulsor) on a territory, or moves it
to a different one; discarding Booster Pod removes a field from the board.
The fields' effects are read where they apply: Isolation in territories.has_bonus,
Positron in scoring, Repulsor in territories.repulsed.
"""

from __future__ import annotations

from engine.actions import DiscardBooster, DiscardField
from engine.board import Refusal, log, refuse
from engine.state import GameState
from engine.tables import FIELD_OF_CARD, FIELDS, TERRITORIES
from engine.tech.common import discard_card, discard_refusal
from engine.territories import return_relic


def field_refusal(s: GameState, p: int, action: DiscardField) -> Refusal | None:
    r = discard_refusal(s, p, action.card)
    if r:
        return r
    if action.card not in FIELD_OF_CARD:
        return refuse("field.card", card=action.card)
    if s.fields[FIELD_OF_CARD[action.card]] == action.territory:
        return refuse(
            "field.same_territory", field=FIELD_OF_CARD[action.card], territory=action.territory
        )
    return None


def place_field(s: GameState, p: int, action: DiscardField) -> None:
    discard_card(s, p, action.card)
    field = FIELD_OF_CARD[action.card]
    s.fields[field] = action.territory
    log(s, "field_placed", p, field=field, territory=action.territory)
    if field == "isolation" and action.territory == "burroughs" and not s.relic_on_desert:
        return_relic(s)  # R-COL-4


def field_options(s: GameState, p: int) -> list[DiscardField]:
    out = []
    for card, field in FIELD_OF_CARD.items():
        if card in s.players[p].cards and discard_refusal(s, p, card) is None:
            out += [DiscardField(card, t) for t in TERRITORIES if s.fields[field] != t]
    return out


def remove_refusal(s: GameState, p: int, action: DiscardBooster) -> Refusal | None:
    r = discard_refusal(s, p, "booster")
    if r:
        return r
    if s.fields[action.field] is None:
        return refuse("field.not_placed", field=action.field)
    return None


def remove_field(s: GameState, p: int, action: DiscardBooster) -> None:
    discard_card(s, p, "booster")
    s.fields[action.field] = None
    log(s, "field_removed", p, field=action.field)


def remove_options(s: GameState, p: int) -> list[DiscardBooster]:
    if "booster" not in s.players[p].cards or discard_refusal(s, p, "booster"):
        return []
    return [DiscardBooster(f) for f in FIELDS if s.fields[f] is not None]

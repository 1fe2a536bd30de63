"""``legal_actions``: the single source of truth for what may be done now.

Every list here is built from candidate actions filtered by the same refusal
functions the checked ``apply`` uses to explain why something is not allowed.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import turn
from engine.actions import (
    Action,
    BuyRelic,
    Claim,
    Cycle,
    Die,
    Dock,
    Done,
    EndTurn,
    Launch,
    Place,
    StealCard,
    StealResource,
    Trade,
)
from engine.chance import chance_outcomes
from engine.facilities import FACILITY_RULES
from engine.facilities.alien_artifact import claim_refusal, cycle_refusal
from engine.facilities.base import GroupCache
from engine.facilities.colony_hub import launch_refusal
from engine.facilities.orbital_market import trade_refusal
from engine.facilities.raiders_outpost import steal_card_refusal, steal_resource_refusal
from engine.fields import field_options, remove_options
from engine.relic_ship import buy_refusal
from engine.state import (
    GameState,
    PlaceColonyDecision,
    PlasmaDecision,
    RaidDecision,
    ReturnExcessDecision,
)
from engine.tables import FACILITY_ORDER, TERRITORIES, FacilityId
from engine.tech import (
    colony_movers,
    data_crystal,
    plasma_cannon,
    relocation,
    ship_modifiers,
    temporal_warper,
)
from engine.territories import repulsed


def dock_options(
    s: GameState,
    p: int,
    first_only: bool = False,
    facilities: Sequence[FacilityId] = FACILITY_ORDER,
) -> list[Dock]:
    """Every legal way to dock undocked ships now (R-TURN-3, R-TURN-5), at ``facilities``
    (all of them unless told: the bot asks about one facility at a time)."""
    out: list[Dock] = []
    if not s.undocked:
        return out
    groups = GroupCache(s.undocked)
    for f in facilities:
        rules = FACILITY_RULES[f]
        if not rules.may_have_room(s, p):
            continue
        for group in rules.candidates_from(s, p, groups, None):
            if rules.refusal(s, p, group) is None:
                out.append(Dock(f, tuple(sorted(Die(x.value, x.relic) for x in group))))
                if first_only:
                    return out
    return out


def can_dock(s: GameState, p: int) -> bool:
    return bool(dock_options(s, p, first_only=True))


def decision_options(s: GameState) -> list[Action]:
    d = s.pending[0]
    if isinstance(d, PlaceColonyDecision):
        return [Place(t) for t in TERRITORIES if not repulsed(s, t)]
    if isinstance(d, RaidDecision):
        out: list[Action] = []
        for v in range(s.num_players):
            for r in ("fuel", "ore"):
                if steal_resource_refusal(s, d, r, v) is None:
                    out.append(StealResource(r, v))
        if not d.stolen:
            for v in range(s.num_players):
                if v != d.player:
                    for c in sorted(set(s.players[v].cards)):
                        if steal_card_refusal(s, d, c, v) is None:
                            out.append(StealCard(c, v))
        out.append(Done())
        return out
    if isinstance(d, PlasmaDecision):
        return [*plasma_cannon.hit_options(s, d), Done()]
    if isinstance(d, ReturnExcessDecision):
        return list(turn.return_options(s, d))
    return [a for a, _ in chance_outcomes(s)]


def turn_options(s: GameState, p: int) -> list[Action]:
    """The current player's free actions when no decision is pending."""
    out: list[Action] = list(dock_options(s, p))
    if trade_refusal(s, p) is None:
        out.append(Trade())
    if launch_refusal(s, p) is None:
        out.append(Launch())
    if buy_refusal(s, p) is None:
        out.append(BuyRelic())
    if cycle_refusal(s, p) is None:
        out.append(Cycle())
    for card in s.display:
        if claim_refusal(s, p, card) is None and Claim(card) not in out:
            out.append(Claim(card))
    cards = s.players[p].cards
    if cards:
        out += ship_modifiers.options(s, p)
        out += temporal_warper.warp_options(s, p)
        out += data_crystal.options(s, p)
        out += relocation.options(s, p)
        if "plasma" in cards:
            out += plasma_cannon.fire_options(s, p)
        if not s.turn.discarded:
            out += field_options(s, p)
            out += remove_options(s, p)
            out += colony_movers.move_options(s, p) if "teleporter" in cards else []
            out += colony_movers.swap_options(s, p) if "polarity" in cards else []
            out += plasma_cannon.discard_options(s, p) if "plasma" in cards else []
            out += temporal_warper.take_options(s, p)
    if not any(isinstance(a, Dock) for a in out):
        out.append(EndTurn())  # R-TURN-4
    return out


def legal_actions(s: GameState) -> list[Action]:
    """Every legal action for whoever must act now (a chance decision lists its outcomes)."""
    if s.over:
        return []
    if s.pending:
        return decision_options(s)
    return turn_options(s, s.current)

"""The two doors: a checked ``apply`` that refuses illegal actions with a reason and leaves
the state untouched, and ``apply_in_place``, the unchecked fast path for replay and search.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import turn
from engine.actions import (
    CHANCE_ACTIONS,
    Action,
    Boost,
    BuyRelic,
    Claim,
    Crystal,
    Cycle,
    DiscardBooster,
    DiscardField,
    DiscardPlasma,
    DiscardPolarity,
    DiscardTeleporter,
    DiscardWarper,
    Dock,
    Done,
    EndTurn,
    FirstPlayer,
    Gravity,
    Helm,
    Hit,
    Launch,
    Place,
    Plasma,
    Polarize,
    ReturnExcess,
    Reveal,
    Roll,
    Stasis,
    StealCard,
    StealResource,
    Teleport,
    Trade,
    Warp,
)
from engine.board import Refusal, log, refuse
from engine.errors import IllegalActionError
from engine.facilities import FACILITY_RULES
from engine.facilities import alien_artifact as artifact
from engine.facilities import colony_hub as hub
from engine.facilities import orbital_market as market
from engine.facilities import raiders_outpost as raiders
from engine.fields import field_refusal, place_field, remove_field, remove_refusal
from engine.legal import dock_options, legal_actions
from engine.relic_ship import buy, buy_refusal
from engine.setup import apply_first_player, apply_reveal, reveal_refusal
from engine.state import (
    CHANCE,
    Decision,
    FirstPlayerDecision,
    GameState,
    PlaceColonyDecision,
    PlasmaDecision,
    RaidDecision,
    ReturnExcessDecision,
    RevealDecision,
    RollDecision,
    Ship,
)
from engine.tech import (
    colony_movers,
    data_crystal,
    plasma_cannon,
    relocation,
    ship_modifiers,
    temporal_warper,
)
from engine.territories import place_colony, repulsed

# What answers each kind of decision.
_ANSWERS: dict[type, tuple[type, ...]] = {
    RevealDecision: (Reveal,),
    FirstPlayerDecision: (FirstPlayer,),
    RollDecision: (Roll,),
    PlaceColonyDecision: (Place,),
    RaidDecision: (StealResource, StealCard, Done),
    PlasmaDecision: (Hit, Done),
    ReturnExcessDecision: (ReturnExcess,),
}
_DECISION_KEYS: dict[type, str] = {
    RevealDecision: "decision.reveal",
    FirstPlayerDecision: "decision.first_player",
    RollDecision: "decision.roll",
    PlaceColonyDecision: "decision.place",
    RaidDecision: "decision.raid",
    PlasmaDecision: "decision.plasma",
    ReturnExcessDecision: "decision.return",
}
ANSWER_TYPES = frozenset(t for ts in _ANSWERS.values() for t in ts)


def _undocked_ships(s: GameState, dice: tuple[Any, ...]) -> list[Ship] | None:
    rest = list(s.undocked)
    taken: list[Ship] = []
    for die in dice:
        for i, ship in enumerate(rest):
            if ship.value == die.value and ship.relic == die.relic:
                taken.append(rest.pop(i))
                break
        else:
            return None
    return taken


def _dock_refusal(s: GameState, p: int, a: Dock) -> Refusal | None:
    ships = _undocked_ships(s, a.dice)
    if ships is None or not a.dice:
        have = ", ".join(str(x.value) + ("r" if x.relic else "") for x in s.undocked) or "none"
        return refuse("ship.not_yours", dice=" ".join(str(d) for d in a.dice), ships=have)
    return FACILITY_RULES[a.facility].refusal(s, p, ships)


def _end_refusal(s: GameState, p: int, a: EndTurn) -> Refusal | None:
    options = dock_options(s, p, first_only=True)
    if options:
        return refuse("turn.must_dock", example=str(options[0]))
    return None


def _decision_refusal(s: GameState, d: Decision, a: Action) -> Refusal | None:
    if isinstance(a, Roll) and isinstance(d, RollDecision):
        return turn.roll_refusal(s, d, a)
    if isinstance(a, Reveal):
        return reveal_refusal(s, a)
    if isinstance(a, FirstPlayer):
        return None if 0 <= a.seat < s.num_players else refuse("chance.seat")
    if isinstance(a, Place):
        return (
            refuse("colony.repulsor", territory=a.territory) if repulsed(s, a.territory) else None
        )
    if isinstance(a, StealResource) and isinstance(d, RaidDecision):
        return raiders.steal_resource_refusal(s, d, a.resource, a.victim)
    if isinstance(a, StealCard) and isinstance(d, RaidDecision):
        return raiders.steal_card_refusal(s, d, a.card, a.victim)
    if isinstance(a, Hit) and isinstance(d, PlasmaDecision):
        return plasma_cannon.hit_refusal(s, d, a)
    if isinstance(a, ReturnExcess) and isinstance(d, ReturnExcessDecision):
        return turn.return_refusal(s, d, a)
    return None


_TURN_REFUSALS: dict[type, Callable[[GameState, int, Any], Refusal | None]] = {
    Dock: _dock_refusal,
    EndTurn: _end_refusal,
    Trade: lambda s, p, a: market.trade_refusal(s, p),
    Launch: lambda s, p, a: hub.launch_refusal(s, p),
    BuyRelic: lambda s, p, a: buy_refusal(s, p),
    Cycle: lambda s, p, a: artifact.cycle_refusal(s, p),
    Claim: lambda s, p, a: artifact.claim_refusal(s, p, a.card),
    Boost: ship_modifiers.single_refusal,
    Stasis: ship_modifiers.single_refusal,
    Polarize: ship_modifiers.single_refusal,
    Gravity: ship_modifiers.gravity_refusal,
    Warp: temporal_warper.warp_refusal,
    Crystal: data_crystal.crystal_refusal,
    Teleport: relocation.relocation_refusal,
    Helm: relocation.relocation_refusal,
    Plasma: plasma_cannon.fire_refusal,
    DiscardField: field_refusal,
    DiscardBooster: remove_refusal,
    DiscardTeleporter: colony_movers.move_refusal,
    DiscardPolarity: colony_movers.swap_refusal,
    DiscardPlasma: plasma_cannon.discard_fire_refusal,
    DiscardWarper: temporal_warper.take_refusal,
}


def refusal(s: GameState, a: Action, player: int | None = None) -> Refusal | None:
    """Why ``a`` may not be applied now (by ``player``, if given), or None if nothing found."""
    if s.over:
        return refuse("game.over")
    actor = s.to_act()
    if player is not None and player != actor:
        return refuse("turn.chance" if actor == CHANCE else "turn.not_yours", player=actor)
    if s.pending:
        d = s.pending[0]
        if not isinstance(a, _ANSWERS[type(d)]):
            return refuse(_DECISION_KEYS[type(d)])
        return _decision_refusal(s, d, a)
    if isinstance(a, (*CHANCE_ACTIONS, *ANSWER_TYPES)):
        return refuse("decision.none")
    check = _TURN_REFUSALS.get(type(a))
    if check is None:
        return refuse("action.unknown")
    return check(s, s.current, a)


def apply(s: GameState, a: Action, player: int | None = None) -> GameState:
    """Checked door: a new state with ``a`` applied, or IllegalActionError saying why."""
    r = refusal(s, a, player)
    if r is not None:
        raise IllegalActionError(r[0], **r[1])
    if not isinstance(a, CHANCE_ACTIONS) and a not in legal_actions(s):
        raise IllegalActionError("action.not_legal", action=str(a))
    new = s.copy()
    apply_in_place(new, a)
    return new


def apply_in_place(s: GameState, a: Action) -> None:
    """Unchecked door: apply a legal action to ``s`` itself (replay, search, self-play)."""
    s.version += 1
    if s.turn.hub_overflow and not isinstance(a, (Launch, Place)):
        s.turn.hub_overflow = 0  # R-HUB-3: only an immediate launch keeps the steps
    if s.pending:
        _answer(s, s.pending[0], a)
        return
    p = s.current
    if isinstance(a, Dock):
        ships = _undocked_ships(s, a.dice)
        assert ships is not None
        for ship in ships:
            s.undocked.remove(ship)
        FACILITY_RULES[a.facility].dock(s, p, ships)
    elif isinstance(a, EndTurn):
        turn.end_turn(s, p)
    elif isinstance(a, Trade):
        market.trade(s, p)
    elif isinstance(a, Launch):
        hub.launch(s, p)
    elif isinstance(a, BuyRelic):
        buy(s, p)
    elif isinstance(a, Cycle):
        artifact.cycle(s, p)
    elif isinstance(a, Claim):
        artifact.claim(s, p, a.card)
    elif isinstance(a, (Boost, Stasis, Polarize)):
        ship_modifiers.apply_single(s, p, a)
    elif isinstance(a, Gravity):
        ship_modifiers.apply_gravity(s, p, a)
    elif isinstance(a, Warp):
        temporal_warper.warp(s, p, a)
    elif isinstance(a, Crystal):
        data_crystal.crystal(s, p, a)
    elif isinstance(a, (Teleport, Helm)):
        relocation.relocate(s, p, a)
    elif isinstance(a, Plasma):
        plasma_cannon.fire(s, p, a)
    elif isinstance(a, DiscardField):
        place_field(s, p, a)
    elif isinstance(a, DiscardBooster):
        remove_field(s, p, a)
    elif isinstance(a, DiscardTeleporter):
        colony_movers.move(s, p, a)
    elif isinstance(a, DiscardPolarity):
        colony_movers.swap(s, p, a)
    elif isinstance(a, DiscardPlasma):
        plasma_cannon.discard_fire(s, p, a)
    elif isinstance(a, DiscardWarper):
        temporal_warper.take(s, p, a)
    else:
        raise IllegalActionError("action.unknown")


def _answer(s: GameState, d: Decision, a: Action) -> None:
    if isinstance(d, RollDecision) and isinstance(a, Roll):
        turn.apply_roll(s, d, a)
    elif isinstance(d, RevealDecision) and isinstance(a, Reveal):
        apply_reveal(s, d, a)
    elif isinstance(d, FirstPlayerDecision) and isinstance(a, FirstPlayer):
        apply_first_player(s, a)
    elif isinstance(d, PlaceColonyDecision) and isinstance(a, Place):
        s.pending.pop(0)
        place_colony(s, d.player, a.territory)
        if d.source == "launch":
            hub.start_next_colony(s, d.player)
    elif isinstance(d, RaidDecision) and isinstance(a, StealResource):
        raiders.steal_resource(s, d, a.resource, a.victim)
    elif isinstance(d, RaidDecision) and isinstance(a, StealCard):
        raiders.steal_card(s, d, a.card, a.victim)
    elif isinstance(d, PlasmaDecision) and isinstance(a, Hit):
        plasma_cannon.hit(s, d, a)
    elif isinstance(d, (RaidDecision, PlasmaDecision)) and isinstance(a, Done):
        s.pending.pop(0)
        log(s, "stopped", d.player)
    elif isinstance(d, ReturnExcessDecision) and isinstance(a, ReturnExcess):
        turn.apply_return(s, d, a)
    else:
        raise IllegalActionError(_DECISION_KEYS[type(d)])

"""When each lesson applies and what it marks: the ``suggest``, ``dice``, ``cost``,
``params`` and ``followed`` functions the lesson table (``bot.play.learn.lessons``) is made of.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.play.learn import picks
from bot.play.learn.lesson import Cost, Params, Seen, Suggest
from bot.play.learn.picks import LEARNER, OPPONENT
from bot.play.learn.steps import cycle_first, step
from engine import Action, Die, GameState
from engine.actions import (
    BuyRelic,
    Claim,
    Cycle,
    Dock,
    EndTurn,
    Launch,
    Place,
    Stasis,
    StealCard,
    StealResource,
    Trade,
)
from engine.facilities.colony_constructor import constructor_cost
from engine.facilities.lunar_mine import mine_minimum
from engine.facilities.orbital_market import market_rate
from engine.facilities.shipyard import ship_cost
from engine.state import PlaceColonyDecision, RaidDecision
from engine.tables import HUB_DOCKS, HUB_TRACK_LENGTH, CardId, FacilityId, TerritoryId
from engine.tech.common import fuel_cost


def _turn(seen: Seen) -> bool:
    """The learner's free decision of the turn (no decision pending)."""
    return not seen.state.pending


def _deciding(seen: Seen, kind: type) -> bool:
    d = seen.state.pending[0] if seen.state.pending else None
    return isinstance(d, kind) and getattr(d, "player", None) == LEARNER


def owns(card: CardId) -> Callable[[GameState], bool]:
    def holds(s: GameState) -> bool:
        return card in s.players[LEARNER].cards

    return holds


def colonies_left(s: GameState) -> bool:
    me = s.players[LEARNER]
    return me.colonies > 0 or me.hub > 0


def stock_left(s: GameState) -> bool:
    return s.players[LEARNER].stock > 0


def dock_highest(facility: FacilityId) -> Suggest:
    def suggest(seen: Seen) -> Action | None:
        return picks.dock(seen.state, facility, picks.singles(seen.state)) if _turn(seen) else None

    return suggest


def dock_lowest(facility: FacilityId) -> Suggest:
    def suggest(seen: Seen) -> Action | None:
        if not _turn(seen):
            return None
        return picks.dock(seen.state, facility, picks.singles(seen.state, highest_first=False))

    return suggest


def dock_pair(facility: FacilityId) -> Suggest:
    def suggest(seen: Seen) -> Action | None:
        return picks.dock(seen.state, facility, picks.pairs(seen.state)) if _turn(seen) else None

    return suggest


def triple(seen: Seen) -> Action | None:
    return picks.dock(seen.state, "constructor", picks.triples(seen.state)) if _turn(seen) else None


def run(seen: Seen) -> Action | None:
    return picks.dock(seen.state, "raiders", picks.runs(seen.state)) if _turn(seen) else None


def mine(seen: Seen) -> Action | None:
    return picks.mine_dock(seen.state) if _turn(seen) else None


def end(seen: Seen) -> Action | None:
    return picks.first_legal(seen.state, [EndTurn()]) if _turn(seen) else None


def stasis(target: Callable[[GameState], Die | None]) -> Suggest:
    def suggest(seen: Seen) -> Action | None:
        if not _turn(seen):
            return None
        die = target(seen.state)
        return None if die is None else picks.first_legal(seen.state, [Stasis(die)])

    return suggest


def stasis_params(seen: Seen, a: Action) -> Params:
    assert isinstance(a, Stasis)
    return {"old": a.die.value, "new": a.die.value - 1}


def dock_values(seen: Seen, a: Action) -> Params:
    assert isinstance(a, Dock)
    return {"values": " ".join(str(d) for d in a.dice)}


def hub_many(seen: Seen) -> Action | None:
    """Two (or three) ships at once on the Colony Hub: Asimov Crater's bonus counts them."""
    if not _turn(seen):
        return None
    ships = picks.dice(seen.state)
    room = HUB_DOCKS - len(seen.state.hub_docks[LEARNER])
    groups = [tuple(ships[:n]) for n in (2, 3) if n <= min(room, len(ships))]
    return picks.dock(seen.state, "hub", groups)


def place(territory: TerritoryId) -> Suggest:
    def suggest(seen: Seen) -> Action | None:
        if not _deciding(seen, PlaceColonyDecision):
            return None
        return picks.first_legal(seen.state, [Place(territory)])

    return suggest


def colony(seen: Seen) -> Action | None:
    """The first placement: on Asimov Crater while its lesson is to come (docking two ships
    at the Colony Hub then pays at once), where it gives control."""
    if not _deciding(seen, PlaceColonyDecision):
        return None
    wanted: list[TerritoryId] = []
    if "asimov" in seen.pending and picks.gains_control(seen.state, "asimov"):
        wanted = ["asimov"]
    return picks.place(seen.state, wanted)


def territory(seen: Seen, a: Action) -> Params:
    return {"territory": getattr(a, "territory", "")}


def trade(seen: Seen) -> Action | None:
    return picks.first_legal(seen.state, [Trade()]) if _turn(seen) else None


def rate(seen: Seen, a: Action) -> Params:
    return {"rate": market_rate(seen.state, LEARNER) or 0}


def claim(seen: Seen) -> Action | None:
    """Claim the card the lessons need (the steps cycle the display first if it is not
    on display but still in the deck)."""
    if not _turn(seen) or cycle_first(seen.state, seen.need):
        return None
    return picks.claim(seen.state, seen.need.cards)


def card(seen: Seen, a: Action) -> Params:
    return {"card": getattr(a, "card", "")}


def discard(card: CardId, where: Callable[[GameState], list[TerritoryId]]) -> Suggest:
    def suggest(seen: Seen) -> Action | None:
        return picks.discard_field(seen.state, card, where(seen.state)) if _turn(seen) else None

    return suggest


def ours(s: GameState) -> list[TerritoryId]:
    return picks.held_territories(s, LEARNER)


def theirs(s: GameState) -> list[TerritoryId]:
    """Where the Isolation Field hurts the opponent: their territories, else any but ours."""
    ours = set(picks.held_territories(s, LEARNER))
    rest = [t for t in picks.PLACE_ORDER if t not in ours]
    return [*[t for t in picks.held_territories(s, OPPONENT) if t not in ours], *rest]


def steal(seen: Seen) -> Action | None:
    """A card worth a victory point if the opponent has one, else their ore or fuel."""
    if not _deciding(seen, RaidDecision):
        return None
    cards = [StealCard(c, OPPONENT) for c in ("city", "monument")]
    steals = [StealResource("ore", OPPONENT), StealResource("fuel", OPPONENT)]
    return picks.first_legal(seen.state, [*cards, *steals])


def steal_params(seen: Seen, a: Action) -> Params:
    if isinstance(a, StealCard):
        return {"card": a.card, "victim": OPPONENT}
    return {"victim": OPPONENT}


def steal_variant(a: Action) -> str | None:
    return "resources" if isinstance(a, StealResource) else None


def stole(taken: Action, suggested: Action) -> bool:
    return isinstance(taken, (StealCard, StealResource))


def launch(seen: Seen) -> Action | None:
    """Launch at space 7; before that, the ships that take the colony there this turn."""
    if not _turn(seen):
        return None
    launch = picks.first_legal(seen.state, [Launch()])
    if launch is not None:
        return launch
    me = seen.state.players[LEARNER]
    needed = HUB_TRACK_LENGTH - me.hub
    ships = picks.dice(seen.state)
    room = HUB_DOCKS - len(seen.state.hub_docks[LEARNER])
    if me.hub == 0 or needed > min(room, len(ships)):
        return None
    return picks.dock(seen.state, "hub", [tuple(ships[:needed])])


def launched(taken: Action, suggested: Action) -> bool:
    return isinstance(taken, Launch)


def relic(seen: Seen) -> Action | None:
    return picks.first_legal(seen.state, [BuyRelic()]) if _turn(seen) else None


def cycle(seen: Seen) -> Action | None:
    """Cycle the display (not while it shows a card the lessons need: claim it first);
    before that, a ship at the Alien Artifact earns the cycle."""
    if not _turn(seen):
        return None
    if seen.state.turn.artifact_cycles == 0:
        return dock_highest("artifact")(seen)
    if any(c in seen.state.display for c in seen.need.cards):
        return None
    return picks.first_legal(seen.state, [Cycle()])


def cycled(taken: Action, suggested: Action) -> bool:
    return isinstance(taken, Cycle)


def placed(taken: Action, suggested: Action) -> bool:
    return isinstance(taken, Place)


def claimed(taken: Action, suggested: Action) -> bool:
    return isinstance(taken, Claim)


def anything(taken: Action, suggested: Action) -> bool:
    return True


def the_step(seen: Seen) -> Action | None:
    """A lesson with nothing of its own to do marks the step's pick."""
    return step(seen.state, seen.need).action


# ---- dice the rolls need, and costs ------------------------------------------------------


def values(*values: int) -> Callable[[Seen], tuple[int, ...]]:
    def dice(seen: Seen) -> tuple[int, ...]:
        return values

    return dice


def mine_die(seen: Seen) -> tuple[int, ...]:
    return (min(6, max(4, mine_minimum(seen.state))),)


def yard_dice(seen: Seen) -> tuple[int, ...]:
    return () if "use" in seen.pending else (2, 2)  # the Stasis Beam makes the pair


def raid_dice(seen: Seen) -> tuple[int, ...]:
    return () if "pohl" in seen.pending else (1, 2, 3)  # the Stasis Beam makes the run


def launch_dice(seen: Seen) -> tuple[int, ...]:
    hub = seen.state.players[LEARNER].hub
    return (1,) * min(HUB_DOCKS, HUB_TRACK_LENGTH - hub) if hub else ()


def costs(fuel: int, ore: int) -> Cost:
    def cost(s: GameState) -> tuple[int, int]:
        return (fuel, ore)

    return cost


def ship(s: GameState) -> tuple[int, int]:
    n = ship_cost(s, LEARNER) if s.players[LEARNER].stock else 0
    return (n, n)


def card_power(s: GameState) -> tuple[int, int]:
    return (fuel_cost(s, LEARNER, 1), 0)


def constructor(s: GameState) -> tuple[int, int]:
    return (0, constructor_cost(s, LEARNER))

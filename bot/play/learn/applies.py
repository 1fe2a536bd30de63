"""When each lesson applies and what it marks: the ``suggest``, ``setup``, ``dice``, ``cost``,
``params`` and ``followed`` functions the lesson table (``bot.play.learn.lessons``) is made of.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.play.learn import finders
from bot.play.learn.finders import LEARNER, OPPONENT
from bot.play.learn.lesson import Cost, Params, Seen, Suggest
from bot.play.learn.steps import SPARE_COLONIES, cycle_first, step
from engine import (
    ARTIFACT_CLAIM_TOTAL,
    CARD_INDEX,
    HUB_DOCKS,
    HUB_TRACK_LENGTH,
    MIN_COLOUR_SHIPS,
    Action,
    Boost,
    BuyRelic,
    CardId,
    Claim,
    Cycle,
    Die,
    Dock,
    EndTurn,
    FacilityId,
    GameState,
    Gravity,
    Launch,
    Place,
    PlaceColonyDecision,
    Plasma,
    Polarize,
    RaidDecision,
    Stasis,
    StealCard,
    StealResource,
    Teleport,
    TerritoryId,
    Trade,
    Warp,
    apply,
    constructor_cost,
    deck_for_reveal,
    docked_ships,
    fuel_cost,
    legal_actions,
    market_rate,
    mine_minimum,
    ship_cost,
)


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


def dock_highest(facility: FacilityId) -> Suggest:
    def suggest(seen: Seen) -> Action | None:
        return (
            finders.dock(seen.state, facility, finders.singles(seen.state)) if _turn(seen) else None
        )

    return suggest


def dock_lowest(facility: FacilityId) -> Suggest:
    def suggest(seen: Seen) -> Action | None:
        if not _turn(seen):
            return None
        return finders.dock(seen.state, facility, finders.singles(seen.state, highest_first=False))

    return suggest


def dock_pair(facility: FacilityId) -> Suggest:
    def suggest(seen: Seen) -> Action | None:
        return (
            finders.dock(seen.state, facility, finders.pairs(seen.state)) if _turn(seen) else None
        )

    return suggest


def triple(seen: Seen) -> Action | None:
    return (
        finders.dock(seen.state, "constructor", finders.triples(seen.state))
        if _turn(seen)
        else None
    )


def run(seen: Seen) -> Action | None:
    return finders.dock(seen.state, "raiders", finders.runs(seen.state)) if _turn(seen) else None


def mine(seen: Seen) -> Action | None:
    return finders.mine_dock(seen.state) if _turn(seen) else None


def end(seen: Seen) -> Action | None:
    return finders.first_legal(seen.state, [EndTurn()]) if _turn(seen) else None


def stasis(target: Callable[[GameState], Die | None]) -> Suggest:
    def suggest(seen: Seen) -> Action | None:
        if not _turn(seen):
            return None
        die = target(seen.state)
        return None if die is None else finders.first_legal(seen.state, [Stasis(die)])

    return suggest


def use_beam(seen: Seen) -> Action | None:
    """The Stasis Beam's first use: −1 on a ship that then makes a pair the Shipyard
    takes (its cost paid after the beam's fuel); else on the ship that makes a pair, else
    on the highest ship above 1 (said without the Shipyard: ``use_variant``)."""
    if not _turn(seen):
        return None
    s = seen.state
    uses = sorted((a for a in legal_actions(s) if isinstance(a, Stasis)), key=lambda a: a.die)
    for a in uses:
        if pair_for_yard(s, a):
            return a
    die = finders.lowered_to_pair(s)
    return next((a for a in uses if a.die == die), uses[-1] if uses else None)


def pair_for_yard(s: GameState, a: Action) -> bool:
    """Whether the ship ``a`` lowers then makes a pair the Shipyard takes (and pays)."""
    if not isinstance(a, Stasis):
        return False
    after = apply(s, a)
    made = [p for p in finders.pairs(after) if p[0].value == a.die.value - 1]
    return finders.dock(after, "yard", made) is not None


def use_variant(seen: Seen, a: Action) -> str | None:
    """The Stasis Beam's lesson says "a pair for the Shipyard" only when it is one."""
    return None if pair_for_yard(seen.state, a) else "plain"


def lowered(seen: Seen, a: Action) -> Params:
    """A ship's value before and after a one-ship power (−1, +1, turned over)."""
    assert isinstance(a, (Stasis, Polarize, Boost))
    if isinstance(a, Stasis):
        new = a.die.value - 1
    elif isinstance(a, Boost):
        new = a.die.value + 1
    else:
        new = 7 - a.die.value
    return {"old": a.die.value, "new": new}


def dock_values(seen: Seen, a: Action) -> Params:
    assert isinstance(a, Dock)
    return {"values": " ".join(str(d) for d in a.dice)}


def dock_where(seen: Seen, a: Action) -> Params:
    """The ships and the facility of a dock (a setup's pick)."""
    if isinstance(a, Dock):
        return {"values": " ".join(str(d) for d in a.dice), "facility": a.facility}
    return {"values": "", "facility": "artifact"}


def asimov_bonus(s: GameState) -> bool:
    """Whether the learner has Asimov Crater's bonus (its control, no Isolation Field)."""
    return s.controller["asimov"] == LEARNER and s.fields["isolation"] != "asimov"


def hub_many(seen: Seen) -> Action | None:
    """Two (or three) ships on the Colony Hub this turn: Asimov Crater's bonus counts them
    (a second ship when one is docked there already); only while the learner has the
    bonus (else the docking would not show it)."""
    if not _turn(seen) or not asimov_bonus(seen.state):
        return None
    ships = finders.dice(seen.state)
    docked = seen.state.turn.hub_docks
    room = HUB_DOCKS - len(seen.state.hub_docks[LEARNER])
    if docked >= 1:
        return finders.dock(seen.state, "hub", [(d,) for d in ships])
    groups = [tuple(ships[:n]) for n in (2, 3) if n <= min(room, len(ships))]
    return finders.dock(seen.state, "hub", groups)


def place(territory: TerritoryId) -> Suggest:
    def suggest(seen: Seen) -> Action | None:
        if not _deciding(seen, PlaceColonyDecision):
            return None
        return finders.first_legal(seen.state, [Place(territory)])

    return suggest


def colony(seen: Seen) -> Action | None:
    """The first placement: on Asimov Crater while its lesson is to come (docking two ships
    at the Colony Hub then pays at once), where it gives control."""
    if not _deciding(seen, PlaceColonyDecision):
        return None
    wanted: list[TerritoryId] = []
    if "asimov" in seen.pending and finders.gains_control(seen.state, "asimov"):
        wanted = ["asimov"]
    return finders.place(seen.state, wanted)


def territory(seen: Seen, a: Action) -> Params:
    return {"territory": getattr(a, "territory", "")}


def pay_colony(seen: Seen) -> Action | None:
    """The pick that pays for a colony to place: the Terraforming Station with a 6, the
    Colony Constructor with three alike."""
    if not _turn(seen):
        return None
    s = seen.state
    options = [
        finders.dock(s, "terraform", [(d,) for d in finders.dice(s) if d.value == 6]),
        finders.dock(s, "constructor", finders.triples(s)),
    ]
    return next((a for a in options if a is not None), None)


def placing(target: TerritoryId | None, control: bool = False) -> Suggest:
    """A placement lesson's setup: place the colony there when one is to be placed, else
    pay for one (while the learner has colonies to spare); ``control``: only where the
    colony gives the learner control, and no Isolation Field voids the bonus."""

    def setup(seen: Seen) -> Action | None:
        s = seen.state
        voided = target is not None and s.fields["isolation"] == target
        if target is not None and control and (voided or not finders.gains_control(s, target)):
            return None
        if _deciding(seen, PlaceColonyDecision):
            if target is None:
                return finders.place(s)
            return finders.first_legal(s, [Place(target)])
        if s.players[LEARNER].colonies <= SPARE_COLONIES:
            return None
        return pay_colony(seen)

    return setup


def asimov_dice(seen: Seen) -> tuple[int, ...]:
    """Two ships for the Colony Hub; first the dice of a colony for Asimov Crater while the
    learner does not have its bonus."""
    if asimov_bonus(seen.state):
        return (1, 3)
    return (*colony_dice(seen), 1, 3)


def relic_dice(seen: Seen) -> tuple[int, ...]:
    """The relic lesson set up again: a colony for Burroughs Desert while the learner does
    not control it."""
    if seen.state.controller["burroughs"] == LEARNER:
        return ()
    return colony_dice(seen)


def colony_dice(seen: Seen) -> tuple[int, ...]:
    """Dice that pay for a colony (while the learner has colonies to spare): a 6 for the
    Terraforming Station while the learner has 4 ships or more, else three 4s for the
    Colony Constructor."""
    s = seen.state
    if s.players[LEARNER].colonies <= SPARE_COLONIES:
        return ()
    if finders.colour_ships(s) > MIN_COLOUR_SHIPS:
        return (6,)
    return (4, 4, 4)


def terraform_dice(seen: Seen) -> tuple[int, ...]:
    """A 6; and a pair for a new ship first while the learner has only 3 (the station
    needs one to spare, R-TERR-MIN)."""
    return (6,) if finders.colour_ships(seen.state) > MIN_COLOUR_SHIPS else (2, 2, 6)


def spare_ship(seen: Seen) -> Action | None:
    """The terraform lesson's setup while the learner has only 3 ships: a new one."""
    if not _turn(seen) or finders.colour_ships(seen.state) > MIN_COLOUR_SHIPS:
        return None
    return dock_pair("yard")(seen)


def yard_dice(seen: Seen) -> tuple[int, ...]:
    """The pair: a 2 and a 3 while the Stasis Beam lesson is to come (it makes the pair),
    else two 2s."""
    return (2, 3) if "use" in seen.pending and can_lower(seen.state) else (2, 2)


def stasis_dice(partner: str, dice: tuple[int, ...]) -> Callable[[Seen], tuple[int, ...]]:
    """A Stasis Beam lesson's dice: none while the lesson it serves (``partner``) rolls them
    (a 3 and a 2 for the Shipyard's pair, a 4 in a run of 1-2-4), else ``dice``."""

    def roll(seen: Seen) -> tuple[int, ...]:
        return () if partner in seen.pending else dice

    return roll


def can_lower(s: GameState) -> bool:
    """Whether the learner can use the Stasis Beam this turn (held, fuel to pay)."""
    me = s.players[LEARNER]
    return "stasis" in me.cards and me.fuel >= fuel_cost(s, LEARNER, 1)


def raid_dice(seen: Seen) -> tuple[int, ...]:
    """The run: 1, 2 and 4 while the Stasis Beam's lesson before it is to come and the
    learner can use the beam (it makes the 3), else 1, 2, 3."""
    return (1, 2, 4) if "pohl" in seen.pending and can_lower(seen.state) else (1, 2, 3)


def trade(seen: Seen) -> Action | None:
    return finders.first_legal(seen.state, [Trade()]) if _turn(seen) else None


def rate(seen: Seen, a: Action) -> Params:
    return {"rate": market_rate(seen.state, LEARNER) or 0}


def claim(seen: Seen) -> Action | None:
    """Claim the card the lessons need (the steps cycle the display first if it is not
    on display but still in the deck)."""
    if not _turn(seen) or cycle_first(seen.state, seen.need):
        return None
    return finders.claim(seen.state, seen.need.cards)


def to_claim(seen: Seen) -> Action | None:
    """The claim lesson's setup: the ship at the Alien Artifact that reaches 8, else its
    highest ship there, while 8 can still be reached this turn (R-ART-2: the total starts
    again after a claim)."""
    if not _turn(seen) or finders.artifact_reach(seen.state) < ARTIFACT_CLAIM_TOTAL:
        return None
    return finders.artifact_dock(seen.state)


def card(seen: Seen, a: Action) -> Params:
    return {"card": getattr(a, "card", "")}


def in_deck(s: GameState, card_id: CardId) -> bool:
    return bool(deck_for_reveal(s)[CARD_INDEX[card_id]])


def get_card(card_id: CardId) -> Suggest:
    """A card lesson's setup: claim the card; or cycle the display for it (in the deck,
    not on display); or dock at the Alien Artifact toward 8, while 8 can be reached this
    turn. Nothing while the card is out of reach (held by the AI, in the discard pile)."""

    def setup(seen: Seen) -> Action | None:
        s = seen.state
        if not _turn(seen) or card_id in s.players[LEARNER].cards:
            return None
        shown = card_id in s.display
        if not shown and not in_deck(s, card_id):
            return None
        if shown and s.turn.artifact_total >= ARTIFACT_CLAIM_TOTAL:
            return finders.first_legal(s, [Claim(card_id)])
        if not shown and s.turn.artifact_cycles:
            return finders.first_legal(s, [Cycle()])
        if finders.artifact_reach(s) < ARTIFACT_CLAIM_TOTAL:
            return None
        return finders.artifact_dock(s)

    return setup


def card_params(card_id: CardId) -> Callable[[Seen, Action], Params]:
    def params(seen: Seen, a: Action) -> Params:
        return {**dock_where(seen, a), "card": card_id}

    return params


def artifact_dice(seen: Seen) -> tuple[int, ...]:
    return (6, 2)


def discard(card_id: CardId, where: Callable[[GameState], list[TerritoryId]]) -> Suggest:
    def suggest(seen: Seen) -> Action | None:
        if not _turn(seen):
            return None
        return finders.discard_field(seen.state, card_id, where(seen.state))

    return suggest


def ours(s: GameState) -> list[TerritoryId]:
    return finders.held_territories(s, LEARNER)


def theirs(s: GameState) -> list[TerritoryId]:
    """Where the Isolation Field hurts the opponent: their territories, else any but ours."""
    mine_ = set(finders.held_territories(s, LEARNER))
    rest = [t for t in finders.PLACE_ORDER if t not in mine_]
    return [*[t for t in finders.held_territories(s, OPPONENT) if t not in mine_], *rest]


def steal(seen: Seen) -> Action | None:
    """A card worth a victory point if the opponent has one, else their ore or fuel."""
    if not _deciding(seen, RaidDecision):
        return None
    cards = [StealCard(c, OPPONENT) for c in ("city", "monument")]
    steals = [StealResource("ore", OPPONENT), StealResource("fuel", OPPONENT)]
    return finders.first_legal(seen.state, [*cards, *steals])


def steal_params(seen: Seen, a: Action) -> Params:
    if isinstance(a, StealCard):
        return {"card": a.card, "victim": OPPONENT}
    return {"victim": OPPONENT}


def steal_variant(seen: Seen, a: Action) -> str | None:
    return "resources" if isinstance(a, StealResource) else None


def stole(taken: Action, suggested: Action) -> bool:
    return isinstance(taken, (StealCard, StealResource))


def victim(seen: Seen, a: Action) -> Params:
    return {**dock_where(seen, a), "victim": OPPONENT}


def launch(seen: Seen) -> Action | None:
    """Launch at space 7; before that, the ships that take the colony there this turn."""
    if not _turn(seen):
        return None
    found = finders.first_legal(seen.state, [Launch()])
    if found is not None:
        return found
    return to_space_7(seen)


def to_space_7(seen: Seen) -> Action | None:
    """The ships that take the colony to space 7 this turn (all at once), else as many as
    the track takes: the launch lesson's setup."""
    if not _turn(seen):
        return None
    me = seen.state.players[LEARNER]
    ships = finders.dice(seen.state)
    room = HUB_DOCKS - len(seen.state.hub_docks[LEARNER])
    needed = HUB_TRACK_LENGTH - me.hub if me.hub else HUB_TRACK_LENGTH
    if me.hub == 0 or needed > min(room, len(ships)):
        if me.hub == HUB_TRACK_LENGTH:
            return None
        return finders.dock(seen.state, "hub", [tuple(ships[: min(room, len(ships))])])
    return finders.dock(seen.state, "hub", [tuple(ships[:needed])])


def launched(taken: Action, suggested: Action) -> bool:
    return isinstance(taken, Launch)


def relic(seen: Seen) -> Action | None:
    return finders.first_legal(seen.state, [BuyRelic()]) if _turn(seen) else None


def cycle(seen: Seen) -> Action | None:
    """Cycle the display (not while it shows a card the lessons need: claim it first);
    before that, a ship at the Alien Artifact earns the cycle."""
    if not _turn(seen):
        return None
    if seen.state.turn.artifact_cycles == 0:
        return dock_highest("artifact")(seen)
    if any(c in seen.state.display for c in seen.need.cards):
        return None
    return finders.first_legal(seen.state, [Cycle()])


def cycled(taken: Action, suggested: Action) -> bool:
    return isinstance(taken, Cycle)


def placed(taken: Action, suggested: Action) -> bool:
    return isinstance(taken, Place)


def claimed(taken: Action, suggested: Action) -> bool:
    return isinstance(taken, Claim)


def claimed_or_mark(taken: Action, suggested: Action) -> bool:
    """A claim (any card: the lesson is about what cards are), or the marked pick."""
    return isinstance(taken, Claim) or taken == suggested


def unless_claim(seen: Seen, a: Action) -> str | None:
    """The variant of a card lesson said without its card (out of reach): ``gone``."""
    return None if isinstance(a, Claim) else "gone"


def anything(taken: Action, suggested: Action) -> bool:
    return True


def not_a_claim(a: Action) -> bool:
    """``with_step`` of a card lesson said without its card: the step's pick."""
    return not isinstance(a, Claim)


def same_type(taken: Action, suggested: Action) -> bool:
    """Any use of the same power (another ship, another target)."""
    return type(taken) is type(suggested)


def the_step(seen: Seen) -> Action | None:
    """A lesson with nothing of its own to do marks the step's pick."""
    return step(seen.state, seen.need).action


# ---- the cards' powers ---------------------------------------------------------------------


def gravity(seen: Seen) -> Action | None:
    """Gravity Manipulator: a pair made of two ships one apart (the lower up, the higher
    down would only swap them: one down to meet another), else any use."""
    if not _turn(seen):
        return None
    s = seen.state
    uses = [a for a in legal_actions(s) if isinstance(a, Gravity)]
    values = [d.value for d in finders.dice(s)]

    def pairs_after(a: Gravity) -> int:
        after = list(values)
        after.remove(a.down.value)
        after.remove(a.up.value)
        after += [a.down.value - 1, a.up.value + 1]
        return sum(after.count(v) // 2 for v in set(after))

    return max(uses, key=pairs_after, default=None)


def gravity_params(seen: Seen, a: Action) -> Params:
    assert isinstance(a, Gravity)
    return {
        "down": a.down.value,
        "up": a.up.value,
        "lower": a.down.value - 1,
        "higher": a.up.value + 1,
    }


def plasma(seen: Seen) -> Action | None:
    """Plasma Cannon: fire at the opponent's ships where they are most (never the learner's)."""
    if not _turn(seen):
        return None
    shots = [a for a in legal_actions(seen.state) if isinstance(a, Plasma)]
    return max(
        shots,
        key=lambda a: (a.facility != "hub", len(_theirs_at(seen.state, a.facility))),
        default=None,
    )


def _theirs_at(s: GameState, facility: FacilityId) -> list[object]:
    return [x for x in docked_ships(s, facility) if x.owner == OPPONENT]


def plasma_params(seen: Seen, a: Action) -> Params:
    assert isinstance(a, Plasma)
    return {"facility": a.facility, "victim": OPPONENT}


def teleport(seen: Seen) -> Action | None:
    """Orbital Teleporter: a docked ship moved where it earns something again: the Lunar
    Mine or the Solar Converter."""
    if not _turn(seen):
        return None
    moves = [a for a in legal_actions(seen.state) if isinstance(a, Teleport) and not a.dice]
    order = {"mine": 0, "solar": 1}
    return min(moves, key=lambda a: (order.get(a.target, 2), -a.die.value), default=None)


def teleport_params(seen: Seen, a: Action) -> Params:
    assert isinstance(a, Teleport)
    return {"value": a.die.value, "source": a.source, "target": a.target}


def polarity(seen: Seen) -> Action | None:
    """Polarity Device: a low ship turned into a high one (a 1 becomes a 6)."""
    if not _turn(seen):
        return None
    flips = [a for a in legal_actions(seen.state) if isinstance(a, Polarize)]
    return min(flips, key=lambda a: a.die.value, default=None)


def boost(seen: Seen) -> Action | None:
    """Booster Pod: +1 on the learner's lowest undocked ship below 6."""
    if not _turn(seen):
        return None
    boosts = [a for a in legal_actions(seen.state) if isinstance(a, Boost)]
    return min(boosts, key=lambda a: a.die.value, default=None)


def warp(seen: Seen) -> Action | None:
    """Temporal Warper: reroll the learner's lowest undocked ships (all of them but the
    highest)."""
    if not _turn(seen):
        return None
    ships = finders.dice(seen.state)
    if len(ships) < 2:
        return None
    return finders.first_legal(seen.state, [Warp(tuple(ships[:-1]))])


def warp_params(seen: Seen, a: Action) -> Params:
    assert isinstance(a, Warp)
    return {"values": " ".join(str(d) for d in a.dice)}


def claim_card(card_id: CardId) -> Suggest:
    """Claiming this card (a card lesson whose power works by being held). When the card
    is out of reach (neither on display nor in the deck: cycled to the discard pile), the
    lesson is said with the step's pick: it stands without the card."""

    def suggest(seen: Seen) -> Action | None:
        if not _turn(seen):
            return None
        s = seen.state
        if card_id not in s.display and not deck_for_reveal(s)[CARD_INDEX[card_id]]:
            return None if card_id in s.players[LEARNER].cards else the_step(seen)
        return finders.first_legal(s, [Claim(card_id)])

    return suggest


# ---- dice the rolls need, and costs ------------------------------------------------------


def values(*values: int) -> Callable[[Seen], tuple[int, ...]]:
    def dice(seen: Seen) -> tuple[int, ...]:
        return values

    return dice


def mine_die(seen: Seen) -> tuple[int, ...]:
    return (min(6, max(4, mine_minimum(seen.state))),)


def launch_dice(seen: Seen) -> tuple[int, ...]:
    hub = seen.state.players[LEARNER].hub
    return (1,) * min(HUB_DOCKS, HUB_TRACK_LENGTH - hub) if hub else (1,)


def costs(fuel: int, ore: int) -> Cost:
    def cost(s: GameState) -> tuple[int, int]:
        return (fuel, ore)

    return cost


def ship(s: GameState) -> tuple[int, int]:
    n = ship_cost(s, LEARNER) if s.players[LEARNER].stock else 0
    return (n, n)


def card_power(s: GameState) -> tuple[int, int]:
    return (fuel_cost(s, LEARNER, 1), 0)


def fuel(n: int) -> Cost:
    def cost(s: GameState) -> tuple[int, int]:
        return (fuel_cost(s, LEARNER, n), 0)

    return cost


def constructor(s: GameState) -> tuple[int, int]:
    return (0, constructor_cost(s, LEARNER))

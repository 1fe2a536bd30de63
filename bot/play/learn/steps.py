"""Steps: what the guide suggests at a decision no lesson is about.

A lesson teaches one thing once; between lessons the learner still has ships to dock,
a colony to place or a turn to end. A step is one short line (``learn.step.*``) and a
sensible legal pick, so the panel always has a mark and the learner never wonders what
to do. The picks gather what the coming lessons will cost (``Need``): ore at the Lunar
Mine or the Orbital Market, fuel at the Solar Converter; and they move the colony on
the Colony Hub while its launch is this turn's lesson.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from bot.play.learn import finders
from bot.play.learn.finders import LEARNER, OPPONENT
from engine import (
    ARTIFACT_CLAIM_TOTAL,
    CARD_INDEX,
    HUB_TRACK_LENGTH,
    Action,
    CardId,
    Cycle,
    Dock,
    Done,
    EndTurn,
    FacilityId,
    GameState,
    Hit,
    Launch,
    PlaceColonyDecision,
    PlasmaDecision,
    RaidDecision,
    ReturnExcess,
    ReturnExcessDecision,
    StealCard,
    StealResource,
    Trade,
    deck_for_reveal,
    legal_actions,
    market_rate,
)


class Need(NamedTuple):
    """What the coming lessons will ask for: fuel and ore (``soon``: this turn's and the
    next one's lessons; else the next few turns'), the alien tech cards they need, and
    whether the launch from the Colony Hub is near (its colony must reach space 7)."""

    fuel: int = 0
    ore: int = 0
    hub: bool = False
    cards: tuple[CardId, ...] = ()
    soon_fuel: int = 0
    soon_ore: int = 0


class Suggestion(NamedTuple):
    """A suggestion with its one line: ``key`` and ``params`` for ``bot.text.strings.text``."""

    key: str
    params: dict[str, object]
    action: Action


NOTHING_NEEDED: Final = Need()
# Colonies the learner keeps unplaced while the script runs, beyond those its lessons
# place: the steps launch no other colony, a lesson set up again pays for none (the game
# ends when someone places their last: never before the last lesson).
SPARE_COLONIES: Final = 3


def step(s: GameState, need: Need = NOTHING_NEEDED) -> Suggestion:
    """The step at the learner's decision now."""
    d = s.pending[0] if s.pending else None
    found: Suggestion | None = None
    if d is None:
        found = turn_step(s, need)
    elif isinstance(d, PlaceColonyDecision):
        a = finders.place(s)
        if a is not None:
            found = Suggestion("learn.step.place", {"territory": getattr(a, "territory", "")}, a)
    elif isinstance(d, RaidDecision):
        found = raid_step(s)
    elif isinstance(d, PlasmaDecision):
        found = plasma_step(s, d, need)
    elif isinstance(d, ReturnExcessDecision):
        returns = [a for a in legal_actions(s) if isinstance(a, ReturnExcess)]
        if returns:  # keep the ore: it is the scarcer resource
            a = max(returns, key=lambda r: kept_worth(s, r, need))
            which = "both" if a.fuel and a.ore else ("fuel" if a.fuel else "ore")
            found = Suggestion(f"learn.step.return.{which}", {"fuel": a.fuel, "ore": a.ore}, a)
    if found is not None:
        return found
    return Suggestion("learn.step.any", {}, harmless(s))  # never stuck


def kept_worth(s: GameState, r: ReturnExcess, need: Need) -> tuple[int, int]:
    """How well returning ``r`` keeps what the coming lessons need (then the most ore)."""
    me = s.players[LEARNER]
    fuel, ore = me.fuel - r.fuel, me.ore - r.ore
    return (min(fuel, need.fuel) + min(ore, need.ore), ore)


def harmless(s: GameState) -> Action:
    """A legal move that gives nothing up (no card discarded), if there is one."""
    legal = legal_actions(s)
    kept = [a for a in legal if not type(a).__name__.startswith("Discard")]
    return (kept or legal)[0]


def raid_step(s: GameState) -> Suggestion:
    """The raid's next take: the AI's ore, its fuel, else a card the learner does not hold
    (a Holographic Decoy shields the AI's resources: only the Decoy may be taken); then
    stop, saying why: nothing left, or only cards the learner holds (taken, they would be
    discarded, R-RAID-4)."""
    for resource in ("ore", "fuel"):
        a = finders.first_legal(s, [StealResource(resource, OPPONENT)])
        if a is not None:
            return Suggestion(f"learn.step.steal.{resource}", {"victim": OPPONENT}, a)
    held = s.players[LEARNER].cards
    for a in legal_actions(s):
        if isinstance(a, StealCard) and a.card not in held:
            return Suggestion("learn.step.steal.card", {"card": a.card, "victim": a.victim}, a)
    legal = legal_actions(s)
    key = "learn.step.done" if legal == [Done()] else "learn.step.done.held"
    return Suggestion(key, {}, Done())


def plasma_step(s: GameState, d: PlasmaDecision, need: Need) -> Suggestion:
    """The Plasma Cannon's next shot: another of the AI's ships at that facility while the
    fuel the coming lessons need is kept; else stop firing, saying so."""
    hits = [a for a in legal_actions(s) if isinstance(a, Hit)]
    if hits and s.players[LEARNER].fuel - 1 >= need.fuel:
        a = hits[0]
        params: dict[str, object] = {
            "victim": a.ship.owner,
            "value": a.ship.value,
            "facility": d.facility,
        }
        return Suggestion("learn.step.hit", params, a)
    return Suggestion("learn.step.plasma.stop", {}, Done())


def turn_step(s: GameState, need: Need) -> Suggestion | None:
    """A free decision of the learner's turn: claim (after cycling the display for a card
    the lessons need), launch, trade for missing ore, dock the rest where it helps most, or
    end the turn."""
    chosen = finders.claim(s, need.cards)
    if chosen is not None and cycle_first(s, need):
        return Suggestion("learn.step.cycle", {}, Cycle())
    if chosen is not None:
        return Suggestion("learn.step.claim", {"card": getattr(chosen, "card", "")}, chosen)
    spare = s.players[LEARNER].colonies > SPARE_COLONIES
    if (need.hub or spare) and finders.first_legal(s, [Launch()]) is not None:
        return Suggestion("learn.step.launch", {}, Launch())
    me = s.players[LEARNER]
    rate = market_rate(s, LEARNER)
    short = rate is not None and me.ore < need.ore and me.fuel - rate >= need.soon_fuel
    if short and finders.first_legal(s, [Trade()]) is not None:
        return Suggestion("learn.step.trade", {"rate": rate}, Trade())
    total = s.turn.artifact_total
    if 0 < total < ARTIFACT_CLAIM_TOTAL:  # one more ship there may reach the claim
        reach = [(d,) for d in finders.dice(s) if total + d.value >= ARTIFACT_CLAIM_TOTAL]
        a = finders.dock(s, "artifact", reach)
        if isinstance(a, Dock):
            return dock_step("learn.step.artifact", a)
    filler = filler_dock(s, need)
    if filler is not None:
        named = filler.facility in ("mine", "solar", "hub")
        return dock_step(f"learn.step.{filler.facility}" if named else "learn.step.dock", filler)
    if finders.first_legal(s, [EndTurn()]) is not None:
        return Suggestion("learn.step.end", {}, EndTurn())
    return None


def cycle_first(s: GameState, need: Need) -> bool:
    """Whether to cycle the display before claiming: a card the lessons need is in the
    deck, none is on display, and a cycle is at hand."""
    wanted = [c for c in need.cards if c not in s.players[LEARNER].cards]
    if any(c in s.display for c in wanted):
        return False
    counts = deck_for_reveal(s)
    if not any(counts[CARD_INDEX[c]] for c in wanted):
        return False
    return finders.first_legal(s, [Cycle()]) is not None


def dock_step(key: str, a: Dock) -> Suggestion:
    values = " ".join(str(d) for d in a.dice)
    return Suggestion(key, {"values": values, "facility": a.facility}, a)


def filler_dock(s: GameState, need: Need) -> Dock | None:
    """Where a ship no lesson needs goes: what the next lessons lack first (ore at the Lunar
    Mine, fuel at the Solar Converter; the Colony Hub while the launch is near), then
    what the lessons after them lack, then ore (the scarcer resource), fuel, anywhere it
    may go (never the Colony Hub but for the launch: a colony placed early could end the
    game before the last lesson)."""
    if not s.undocked:
        return None
    me = s.players[LEARNER]
    order: list[FacilityId] = []
    if me.ore < need.soon_ore:
        order.append("mine")
    if me.fuel < need.soon_fuel:
        order.append("solar")
    if need.hub and me.hub < HUB_TRACK_LENGTH:
        order.append("hub")
    if me.ore < need.ore:
        order.append("mine")
    if me.fuel < need.fuel:
        order.append("solar")
    order += ["mine", "solar"]
    for facility in order:
        highest = facility != "hub"  # low ships move the colony as well as high ones
        a = finders.dock(s, facility, finders.singles(s, highest_first=highest))
        if isinstance(a, Dock):
            return a
    return next((x for x in legal_actions(s) if isinstance(x, Dock)), None)

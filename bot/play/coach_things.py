"""The coach (``/af coach on``, kept per member): the first time in a game that a member
can use a facility, an alien tech card or a territory bonus they have not used before,
their private answer adds one line explaining it. Pure: what may be used and what a move
uses, read from the engine; the bot stores what each member has used.

Things have stable ids, which the bot stores:

- ``facility:<id>`` an orbital facility (``engine.tables.FACILITY_ORDER``), e.g.
  ``facility:mine``: used by docking there (or moving a ship there with the Orbital
  Teleporter or the Mind Control Helm), and the facility's own actions: trading at the
  Orbital Market, launching from the Colony Hub, cycling or claiming at the Alien Artifact.
- ``card:<id>`` an alien tech card (``engine.tables.CARDS``), e.g. ``card:crystal``: used
  by its fuel or discard power (and the Plasma Cannon's further hits). A card without a
  power (Holographic Decoy, Resource Cache, Alien City, Alien Monument) works by being
  held: it counts as usable and used at every decision of the seat holding it.
- ``bonus:<id>`` a territory's bonus (``engine.tables.TERRITORIES``), e.g. ``bonus:lem``:
  used by a move the bonus changes, while the seat controls the territory (or borrows its
  bonus with the Data Crystal) and no Isolation Field voids it: docking at the Solar
  Converter (Lem Badlands), at the Shipyard (Herbert Valley), at the Colony Constructor
  (Bradbury Plateau), a pair above 1 at the Orbital Market or a trade there at a better
  rate (Heinlein Plains), the first ship at the Lunar Mine below its minimum (Van Vogt
  Mountains), the ship at the Colony Hub that earns the extra space (Asimov Crater),
  buying the relic ship (Burroughs Desert), a card's fuel power (Pohl Foothills).

The bot's flow: at a decision of a member with the coach on, before they pick, the turn
message carries the lines of ``first_things(usable_things(state, seat) - used -
explained)`` (``used``: what the member has used before, in any game; ``explained``: the
lines this game has shown them); their hint adds the line of ``first_thing`` of the
same; after their move ``used_things(state, move)`` joins what they have used.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from bot.text.strings import SOURCES, text
from engine import (
    CARDS,
    CHANCE,
    FACILITY_ORDER,
    RULEBOOK,
    TERRITORIES,
    Action,
    BuyRelic,
    Claim,
    Cycle,
    Dock,
    FacilityId,
    GameState,
    Helm,
    Hit,
    Launch,
    Teleport,
    TerritoryId,
    Trade,
    has_bonus,
    legal_actions,
    mine_minimum,
    works_by_holding,
)

# The order the coach explains things in when several are new at once: the facilities
# first (every turn is docking), then the bonuses that change them, then the cards.
ORDER: Final[tuple[str, ...]] = (
    *(f"facility:{f}" for f in FACILITY_ORDER),
    *(f"bonus:{t}" for t in TERRITORIES),
    *(f"card:{c}" for c in CARDS),
)

# Lines the turn message carries at most at one decision (the rest come at the next).
LINES_BEFORE_PICK: Final = 6

# The territory whose bonus changes docking at a facility (R-COL-4).
DOCKING_BONUS: Final[dict[FacilityId, TerritoryId]] = {
    "solar": "lem",
    "mine": "vanvogt",
    "market": "heinlein",
    "yard": "herbert",
    "constructor": "bradbury",
    "hub": "asimov",
}


def thing_key(thing: str) -> str:
    """The catalogue key of a thing's coach line: ``facility:mine`` → ``coach.facility.mine``."""
    return "coach." + thing.replace(":", ".", 1)


def first_thing(things_new: Iterable[str]) -> str | None:
    """The thing the coach explains first (in ``ORDER``) of ``things_new``; None when there
    is none (or none has a line)."""
    new = set(things_new)
    order = [*ORDER, *sorted(new - set(ORDER))]  # (a card registered later: after the rest)
    for thing in order:
        if thing in new and thing_key(thing) in SOURCES:
            return thing
    return None


def first_things(things_new: Iterable[str], limit: int = LINES_BEFORE_PICK) -> list[str]:
    """The things the coach explains first (in ``ORDER``) of ``things_new``, ``limit`` at
    most (those with a line)."""
    new = set(things_new)
    order = [*ORDER, *sorted(new - set(ORDER))]
    return [t for t in order if t in new and thing_key(t) in SOURCES][:limit]


def coach_line(things_new: Iterable[str], locale: str = "en") -> str | None:
    """The line explaining the first (in ``ORDER``) of ``things_new``, the things a member
    may use now and has not used before; None when there is none (or none has a line)."""
    thing = first_thing(things_new)
    return None if thing is None else text(thing_key(thing), locale)


def usable_things(state: GameState, seat: int) -> set[str]:
    """The things ``seat`` can use at this decision (none unless the seat is to act): what
    its legal actions use, and the cards without a power it holds."""
    if state.over or seat == CHANCE or state.to_act() != seat:
        return set()
    found = held_passives(state, seat)
    for action in legal_actions(state):
        found |= _uses(state, seat, action)
    return found


def used_things(state_before: GameState, action: Action) -> set[str]:
    """The things ``action`` uses, taken by the seat to act in ``state_before`` (a chance
    outcome uses nothing)."""
    seat = state_before.to_act()
    if state_before.over or seat == CHANCE:
        return set()
    return held_passives(state_before, seat) | _uses(state_before, seat, action)


def held_passives(state: GameState, seat: int) -> set[str]:
    """The cards without a power the seat holds: they work by being held."""
    return {f"card:{c}" for c in state.players[seat].cards if works_by_holding(c)}


def _uses(s: GameState, p: int, a: Action) -> set[str]:
    """The facility, card and bonuses one action of p uses."""
    found: set[str] = set()
    context = type(s.pending[0]) if s.pending else None
    rule = RULEBOOK.rule_of(a, context)
    if rule is not None and rule.card is not None:
        found.add(f"card:{rule.card}")
        if rule.power == "fuel" and has_bonus(s, p, "pohl"):
            found.add("bonus:pohl")  # (every fuel power costs 1 fuel or more)
    if isinstance(a, Hit):
        found.add("card:plasma")
    if isinstance(a, Dock):
        found |= _docking(s, p, a.facility, [d.value for d in a.dice])
    elif isinstance(a, (Teleport, Helm)):
        moved = a.die.value if isinstance(a, Teleport) else a.ship.value
        found |= _docking(s, p, a.target, [moved, *(d.value for d in a.dice)])
    elif isinstance(a, Trade):
        found.add("facility:market")
        rates = s.turn.market_rates.values()
        if rates and min(rates) > 1 and has_bonus(s, p, "heinlein"):
            found.add("bonus:heinlein")
    elif isinstance(a, Launch):
        found.add("facility:hub")
    elif isinstance(a, (Cycle, Claim)):
        found.add("facility:artifact")
    elif isinstance(a, BuyRelic):
        found.add("bonus:burroughs")
    return found


def _docking(s: GameState, p: int, facility: FacilityId, values: Sequence[int]) -> set[str]:
    """Docking ships of these values at a facility: the facility, and the bonus it uses."""
    found = {f"facility:{facility}"}
    bonus = DOCKING_BONUS.get(facility)
    if bonus is None or not has_bonus(s, p, bonus):
        return found
    if facility == "market" and values[0] == 1:
        return found  # a pair of 1s trades at 1 anyway
    if facility == "mine" and (s.turn.mine_docks or values[0] >= mine_minimum(s)):
        return found  # the ship docks there without the bonus
    if facility == "hub" and (s.turn.asimov_used or s.turn.hub_docks + len(values) < 2):
        return found  # no second ship at the hub this turn yet
    found.add(f"bonus:{bonus}")
    return found

"""Low-level moves shared by many rules: resources and the supply, moving ships, events.

Nothing here decides whether something is allowed; callers check the rules first.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from engine.actions import Die
from engine.state import NEUTRAL, UNRECORDED, Event, GameState, Ship
from engine.tables import SHIPS_PER_COLOUR, FacilityId

EVENTS_KEPT: Final = 40
Refusal = tuple[str, dict[str, object]]


def refuse(key: str, **params: object) -> Refusal:
    """A reason an action is not allowed: a message key (engine.messages) and its parameters."""
    return (key, params)


def log(s: GameState, key: str, player: int | None = None, **params: str | int) -> None:
    """Record what happened, keeping the last EVENTS_KEPT events (none in a state that
    records none, ``GameState.copy_unrecorded``)."""
    if s.events is UNRECORDED:
        return
    s.events.append(Event(key, player, params, s.version))
    if len(s.events) > EVENTS_KEPT + 20:
        del s.events[:-EVENTS_KEPT]


# ---- resources (R-RES-1..4) -------------------------------------------------------------


def can_pay(s: GameState, p: int, fuel: int, ore: int) -> bool:
    pl = s.players[p]
    return pl.fuel >= fuel and pl.ore >= ore


def pay(s: GameState, p: int, fuel: int, ore: int) -> None:
    """Pay to the supply (R-TURN-6)."""
    pl = s.players[p]
    pl.fuel -= fuel
    pl.ore -= ore
    if s.supply is not None:
        s.supply[0] += fuel
        s.supply[1] += ore


def gain(s: GameState, p: int, fuel: int = 0, ore: int = 0) -> tuple[int, int]:
    """Take from the supply; under the finite-supply option only what is left there."""
    if s.supply is not None:
        fuel = min(fuel, s.supply[0])
        ore = min(ore, s.supply[1])
        s.supply[0] -= fuel
        s.supply[1] -= ore
    pl = s.players[p]
    pl.fuel += fuel
    pl.ore += ore
    return fuel, ore


# ---- ships -------------------------------------------------------------------------------


def find_die(pool: Sequence[Ship], die: Die) -> int | None:
    """Index of a ship in the pool that the die names (same value, relic or not), or None."""
    value, relic = die
    for i, ship in enumerate(pool):
        if ship.value == value and ship.relic == relic:
            return i
    return None


def take_dice(pool: Sequence[Ship], dice: Iterable[Die]) -> list[Ship] | None:
    """The ships of the pool the dice name, one ship per die, or None if some are missing."""
    rest = list(pool)
    taken: list[Ship] = []
    for die in dice:
        i = find_die(rest, die)
        if i is None:
            return None
        taken.append(rest.pop(i))
    return taken


def pop_dice(pool: list[Ship], dice: Iterable[Die]) -> list[Ship]:
    """Take the ships the dice name out of the pool, one ship per die (the caller made sure
    they are there): the ships ``take_dice`` names."""
    taken: list[Ship] = []
    for die in dice:
        i = find_die(pool, die)
        assert i is not None
        taken.append(pool.pop(i))
    return taken


def colour_ships_in_play(s: GameState, p: int) -> int:
    """Ships of p's colour not in the ship stock (the relic ship is not counted)."""
    return SHIPS_PER_COLOUR - s.players[p].stock


def consumed_ship(s: GameState, p: int) -> bool:
    """Whether a ship of p's colour sits on the Terraforming Station (used up at p's next turn)."""
    ship = s.docks["terraform"][0]
    return ship is not None and ship.owner == p and not ship.relic


def docked_ships(s: GameState, facility: FacilityId) -> list[Ship]:
    """Ships docked at a facility, blockers included (all hub tracks for the Colony Hub)."""
    if facility == "hub":
        return [ship for track in s.hub_docks for ship in track]
    return [ship for ship in s.docks[facility] if ship is not None]


def set_docks(s: GameState, facility: FacilityId, slots: Sequence[Ship | None]) -> None:
    """Give a facility these docks: a new map of the docks, as copies of the state share
    it (``engine.state.SHARED_BY_COPIES``); the only way the docks change."""
    s.docks = {**s.docks, facility: tuple(slots)}


def with_docks_emptied(s: GameState, facility: FacilityId) -> GameState:
    """A copy of the state with no ship docked at a facility: for asking what the facility's
    own rule says of some dice, whoever sits there now."""
    emptied = s.copy()
    set_docks(emptied, facility, [None] * len(s.docks[facility]))
    return emptied


def set_dock(s: GameState, facility: FacilityId, i: int, ship: Ship | None) -> None:
    """Put a ship on one dock of a facility (None: free it)."""
    slots = list(s.docks[facility])
    slots[i] = ship
    set_docks(s, facility, slots)


def remove_docked(s: GameState, facility: FacilityId, ship: Ship) -> None:
    """Take one ship matching ``ship`` off a facility."""
    if facility == "hub":
        # A ship sits on its owner's track unless a Mind Control Helm put it on another's.
        tracks = [s.hub_docks[ship.owner], *s.hub_docks]
        for track in tracks:
            if ship in track:
                track.remove(ship)
                return
        raise LookupError(f"{ship} is not on the Colony Hub")
    for i, docked in enumerate(s.docks[facility]):
        if docked == ship:
            set_dock(s, facility, i, None)
            if facility == "market":
                group = i // 2
                s.turn.market_rates.pop(group, None)
            return
    raise LookupError(f"{ship} is not docked at {facility}")


def to_bay(s: GameState, ship: Ship) -> None:
    """A ship goes to its owner's Maintenance Bay (R-BAY)."""
    s.players[ship.owner].bay.append(ship)


def to_stock(s: GameState, ship: Ship) -> None:
    """A ship goes to its owner's ship stock; the relic ship goes to Burroughs Desert instead."""
    if ship.relic:
        s.relic_on_desert = True
        log(s, "relic_returns")
    else:
        s.players[ship.owner].stock += 1


def remove_relic_from_play(s: GameState) -> bool:
    """Find the relic ship wherever it is in play and take it away; True if it was in play."""
    if s.relic_on_desert:
        return False
    for i, ship in enumerate(s.undocked):
        if ship.relic:
            del s.undocked[i]
            return True
    for pl in s.players:
        for i, ship in enumerate(pl.bay):
            if ship.relic:
                del pl.bay[i]
                return True
    for track in s.hub_docks:
        for i, ship in enumerate(track):
            if ship.relic:
                del track[i]
                return True
    for facility, slots in s.docks.items():
        for i, docked in enumerate(slots):
            if docked is not None and docked.relic:
                set_dock(s, facility, i, None)
                if facility == "market":
                    s.turn.market_rates.pop(i // 2, None)
                return True
    # Only a pending reroll can hold it outside every list (Temporal Warper).
    return True


def is_opponent_ship(ship: Ship, p: int) -> bool:
    return ship.owner != p and ship.owner != NEUTRAL

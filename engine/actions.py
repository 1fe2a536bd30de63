"""Actions: small frozen values. ``str(action)`` is the engine's notation (docs/notation.md).

Own ships are named by value, the relic ship marked ``r`` (``Die``); ships of
other players on the board by seat and value (``Ship``, written ``p2:4``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Literal, NamedTuple

from engine.state import Ship
from engine.tables import CardId, FacilityId, FieldId, TerritoryId

Resource = Literal["fuel", "ore"]


class Action:
    """An action: a small frozen value whose ``str()`` is its notation.

    Every action type subclasses this and is declared with
    ``@dataclass(frozen=True, slots=True)``; its rule (when it is legal, why not, what it
    does, how it is read) is declared once in ``engine.rulebook``'s registry.
    """

    __slots__ = ()
    __dataclass_fields__: ClassVar[dict[str, Any]]  # every action type is a dataclass


class Die(NamedTuple):
    """One of the acting player's ships, by value; ``relic`` marks the relic ship."""

    value: int
    relic: bool = False

    def __str__(self) -> str:
        return f"{self.value}r" if self.relic else str(self.value)


def dice_text(dice: tuple[Die, ...]) -> str:
    return " ".join(str(d) for d in dice)


def ship_text(ship: Ship) -> str:
    return f"p{ship.owner + 1}:{ship.value}{'r' if ship.relic else ''}"


def sort_dice(dice: tuple[Die, ...] | list[Die]) -> tuple[Die, ...]:
    return tuple(sorted(dice))


# ---- chance -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Roll(Action):
    """Chance outcome: the values rolled (a turn's roll or a Temporal Warper reroll)."""

    dice: tuple[Die, ...]

    def __str__(self) -> str:
        return f"roll {dice_text(self.dice)}"


@dataclass(frozen=True, slots=True)
class Reveal(Action):
    """Chance outcome: the card turned up from the deck."""

    card: CardId

    def __str__(self) -> str:
        return f"reveal {self.card}"


@dataclass(frozen=True, slots=True)
class FirstPlayer(Action):
    """Chance outcome: the seat (0-based) that starts."""

    seat: int

    def __str__(self) -> str:
        return f"first p{self.seat + 1}"


# ---- the turn -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Dock(Action):
    """Dock undocked ships at a facility (R-TURN-3)."""

    facility: FacilityId
    dice: tuple[Die, ...]

    def __str__(self) -> str:
        return f"dock {self.facility} {dice_text(self.dice)}"


@dataclass(frozen=True, slots=True)
class Trade(Action):
    """Orbital Market: pay fuel at your rate for 1 ore (R-MARKET)."""

    def __str__(self) -> str:
        return "trade"


@dataclass(frozen=True, slots=True)
class Launch(Action):
    """Colony Hub: pay 1 fuel + 1 ore to launch the colony on space 7 (R-HUB-2)."""

    def __str__(self) -> str:
        return "launch"


@dataclass(frozen=True, slots=True)
class BuyRelic(Action):
    """Burroughs Desert: buy the relic ship for 1 fuel + 1 ore (R-COL-4)."""

    def __str__(self) -> str:
        return "buy relic"


@dataclass(frozen=True, slots=True)
class Cycle(Action):
    """Alien Artifact: discard the display and lay out three new cards (R-ART-1)."""

    def __str__(self) -> str:
        return "cycle"


@dataclass(frozen=True, slots=True)
class Claim(Action):
    """Alien Artifact: take a display card (R-ART-2)."""

    card: CardId

    def __str__(self) -> str:
        return f"claim {self.card}"


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """End the turn; undocked ships that cannot dock go to the Maintenance Bay (R-TURN-4)."""

    def __str__(self) -> str:
        return "end"


# ---- alien tech fuel powers -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OneShipAction(Action):
    """A fuel power on one of the current player's undocked ships."""

    die: Die


@dataclass(frozen=True, slots=True)
class Boost(OneShipAction):
    """Booster Pod: +1 on one undocked ship."""

    def __str__(self) -> str:
        return f"use booster {self.die}"


@dataclass(frozen=True, slots=True)
class Stasis(OneShipAction):
    """Stasis Beam: -1 on one undocked ship."""

    def __str__(self) -> str:
        return f"use stasis {self.die}"


@dataclass(frozen=True, slots=True)
class Polarize(OneShipAction):
    """Polarity Device: turn an undocked ship to its opposite face."""

    def __str__(self) -> str:
        return f"use polarity {self.die}"


@dataclass(frozen=True, slots=True)
class Gravity(Action):
    """Gravity Manipulator: -1 on ``down`` and +1 on ``up`` (two different undocked ships)."""

    down: Die
    up: Die

    def __str__(self) -> str:
        return f"use gravity down {self.down} up {self.up}"


@dataclass(frozen=True, slots=True)
class Warp(Action):
    """Temporal Warper: reroll these undocked ships."""

    dice: tuple[Die, ...]

    def __str__(self) -> str:
        return f"use warper {dice_text(self.dice)}"


@dataclass(frozen=True, slots=True)
class Crystal(Action):
    """Data Crystal: use a territory's bonus this turn."""

    territory: TerritoryId

    def __str__(self) -> str:
        return f"use crystal {self.territory}"


class Relocation(Action):
    """A fuel power moving a docked ship to another facility, where it docks anew with
    ``dice`` (undocked ships). Only declares what both kinds have; not a dataclass."""

    __slots__ = ()
    __dataclass_fields__: ClassVar[dict[str, Any]]  # every action type is a dataclass
    source: FacilityId
    target: FacilityId
    dice: tuple[Die, ...]


@dataclass(frozen=True, slots=True)
class Teleport(Relocation):
    """Orbital Teleporter: move your docked ship to another facility, docking it anew."""

    source: FacilityId
    die: Die
    target: FacilityId
    dice: tuple[Die, ...] = ()  # undocked ships docked with it

    def __str__(self) -> str:
        extra = f" {dice_text(self.dice)}" if self.dice else ""
        return f"use teleporter {self.source} {self.die} to {self.target}{extra}"


@dataclass(frozen=True, slots=True)
class Helm(Relocation):
    """Mind Control Helm: move an opponent's docked ship to another facility and use it."""

    source: FacilityId
    ship: Ship
    target: FacilityId
    dice: tuple[Die, ...] = ()

    def __str__(self) -> str:
        extra = f" {dice_text(self.dice)}" if self.dice else ""
        return f"use helm {self.source} {ship_text(self.ship)} to {self.target}{extra}"


@dataclass(frozen=True, slots=True)
class Plasma(Action):
    """Plasma Cannon: fire at one facility, removing a first opponent's ship."""

    facility: FacilityId
    ship: Ship

    def __str__(self) -> str:
        return f"use plasma {self.facility} {ship_text(self.ship)}"


# ---- alien tech discard powers -----------------------------------------------------


@dataclass(frozen=True, slots=True)
class DiscardField(Action):
    """Discard Stasis Beam, Data Crystal or Gravity Manipulator to place or move its field."""

    card: CardId
    territory: TerritoryId

    def __str__(self) -> str:
        return f"discard {self.card} {self.territory}"


@dataclass(frozen=True, slots=True)
class DiscardBooster(Action):
    """Discard Booster Pod to remove a field generator from the board."""

    field: FieldId

    def __str__(self) -> str:
        return f"discard booster {self.field}"


@dataclass(frozen=True, slots=True)
class DiscardTeleporter(Action):
    """Discard Orbital Teleporter to move one colony to another territory."""

    owner: int
    source: TerritoryId
    target: TerritoryId

    def __str__(self) -> str:
        return f"discard teleporter p{self.owner + 1} {self.source} to {self.target}"


@dataclass(frozen=True, slots=True)
class DiscardPolarity(Action):
    """Discard Polarity Device to swap two colonies of different players."""

    owner_a: int
    territory_a: TerritoryId
    owner_b: int
    territory_b: TerritoryId

    def __str__(self) -> str:
        return (
            f"discard polarity p{self.owner_a + 1} {self.territory_a} "
            f"p{self.owner_b + 1} {self.territory_b}"
        )


@dataclass(frozen=True, slots=True)
class DiscardPlasma(Action):
    """Discard Plasma Cannon to send an opponent's docked ship to its stock."""

    facility: FacilityId
    ship: Ship

    def __str__(self) -> str:
        return f"discard plasma {self.facility} {ship_text(self.ship)}"


@dataclass(frozen=True, slots=True)
class DiscardWarper(Action):
    """Discard Temporal Warper to take a card from the discard pile."""

    card: CardId

    def __str__(self) -> str:
        return f"discard warper {self.card}"


# ---- answers to decisions -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Place(Action):
    """Place the pending colony on a territory."""

    territory: TerritoryId

    def __str__(self) -> str:
        return f"place {self.territory}"


@dataclass(frozen=True, slots=True)
class StealResource(Action):
    """Raiders' Outpost: take one fuel or ore from an opponent."""

    resource: Resource
    victim: int

    def __str__(self) -> str:
        return f"steal {self.resource} p{self.victim + 1}"


@dataclass(frozen=True, slots=True)
class StealCard(Action):
    """Raiders' Outpost: take one alien tech card from an opponent."""

    card: CardId
    victim: int

    def __str__(self) -> str:
        return f"steal card {self.card} p{self.victim + 1}"


@dataclass(frozen=True, slots=True)
class Hit(Action):
    """Plasma Cannon: remove one more opponent's ship at the facility fired at."""

    ship: Ship

    def __str__(self) -> str:
        return f"hit {ship_text(self.ship)}"


@dataclass(frozen=True, slots=True)
class Done(Action):
    """Stop stealing at the Raiders' Outpost, or stop firing the Plasma Cannon."""

    def __str__(self) -> str:
        return "done"


@dataclass(frozen=True, slots=True)
class ReturnExcess(Action):
    """End of turn: return resources to the supply down to 8 (R-TURN-7)."""

    fuel: int
    ore: int

    def __str__(self) -> str:
        return f"return {self.fuel} fuel {self.ore} ore"

"""The game state: plain mutable records with an explicit, cheap copy.

The engine mutates a state in place on its fast path; the checked door copies
first. Values that never change inside (ships, decisions) are frozen, and events
are never changed once logged, so a copy only duplicates the containers. The docks and
the planet's maps (colonies, control, field generators: ``SHARED_BY_COPIES``) change
once or a few times a turn against thousands of copies in a search, so they are never
changed in place: a change replaces the map (``engine.board.set_docks``,
``engine.territories``), and copies share it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, ClassVar, Final, Literal

from engine.config import GameConfig
from engine.tables import CardId, FacilityId, FieldId, TerritoryId

NEUTRAL: Final = -1  # owner of the blocked-dock ships (R-SETUP-6)
CHANCE: Final = -1  # "player" who acts on chance decisions


@dataclass(frozen=True, slots=True)
class Ship:
    """A die. The relic ship has no colour; its owner is whoever bought it."""

    owner: int
    value: int
    relic: bool = False
    # The ship as one small int, for the AI's search keys (engine.ai.planner.state_key):
    # computed once here, as a ship is built far less often than keys are.
    code: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "code", (self.owner + 2) * 16 + self.value * 2 + self.relic)

    def with_value(self, value: int) -> Ship:
        return ship_of(self.owner, value, self.relic)


@cache
def ship_of(owner: int, value: int, relic: bool = False) -> Ship:
    """The ship of that owner and value, shared: ships are values, and building a frozen
    dataclass costs more than looking one up (a roll builds several every turn)."""
    return Ship(owner, value, relic)


# ---- pending decisions -------------------------------------------------------
# The first decision in ``GameState.pending`` must be answered before anything
# else happens; chance decisions are answered by the driver's sampled outcome.
# Each kind of decision declares its ``kind``: its id in the saved state, in the
# view, and in the refusal ``decision.<kind>`` given to any other action.


class Decision:
    """A decision the game waits for. ``kind`` is its stable id."""

    __slots__ = ()
    kind: ClassVar[str]
    __dataclass_fields__: ClassVar[dict[str, Any]]  # every decision type is a dataclass


class ChanceDecision(Decision):
    """A decision the dice or the deck take: the driver samples it (engine.chance)."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class PlayerDecision(Decision):
    """A decision one seat must take."""

    player: int


@dataclass(frozen=True, slots=True)
class RevealDecision(ChanceDecision):
    """Chance: turn up ``count`` cards from the deck, to the display or a player (R-SETUP-2)."""

    kind: ClassVar[str] = "reveal"
    count: int
    to_player: int | None = None  # None: the alien tech display


@dataclass(frozen=True, slots=True)
class FirstPlayerDecision(ChanceDecision):
    """Chance: the first player is chosen at random (R-SETUP-5)."""

    kind: ClassVar[str] = "first_player"


@dataclass(frozen=True, slots=True)
class RollDecision(ChanceDecision):
    """Chance: roll the current player's undocked ships (R-TURN-1) or a Warper reroll."""

    kind: ClassVar[str] = "roll"
    dice: int  # coloured ships rolled
    relic: bool  # whether the relic ship is rolled too
    reroll: bool = False


@dataclass(frozen=True, slots=True)
class PlaceColonyDecision(PlayerDecision):
    """Choose the territory for a colony (Terraforming, Constructor, launch)."""

    kind: ClassVar[str] = "place"
    source: Literal["terraform", "constructor", "launch"]


@dataclass(frozen=True, slots=True)
class RaidDecision(PlayerDecision):
    """Choose what to steal at the Raiders' Outpost (R-RAID-2), one pick at a time."""

    kind: ClassVar[str] = "raid"
    stolen: int = 0  # resources taken so far; >0 means resources were chosen


@dataclass(frozen=True, slots=True)
class PlasmaDecision(PlayerDecision):
    """Plasma Cannon fired at ``facility``: remove more opponents' ships there, or stop."""

    kind: ClassVar[str] = "plasma"
    facility: FacilityId
    removed: int


@dataclass(frozen=True, slots=True)
class ReturnExcessDecision(PlayerDecision):
    """End of turn: choose which resources to return above the limit of 8 (R-TURN-7)."""

    kind: ClassVar[str] = "return"
    excess: int


@dataclass(slots=True)
class Event:
    """Something that happened, as data: a message key, who did it, and parameters.

    Never changed once logged (copies of the state share it); not a frozen dataclass
    only because building one costs about three times as much (each field goes through
    ``object.__setattr__``), and every action logs events: a sixteenth of a random game's
    time went to it."""

    key: str
    player: int | None = None
    params: dict[str, str | int] = field(default_factory=dict)
    at: int = 0  # the state version (action number) whose action caused it


@dataclass(slots=True)
class PlayerState:
    """What one seat owns. Colonies on planet are in ``GameState.colonies``."""

    fuel: int = 0
    ore: int = 0
    colonies: int = 0  # unplaced colonies, not counting one on the hub track
    hub: int = 0  # space of the colony on this player's hub track; 0 = none
    stock: int = 3  # ships of this colour in the ship stock
    bay: list[Ship] = field(default_factory=list)  # Maintenance Bay
    cards: list[CardId] = field(default_factory=list)

    def copy(self) -> PlayerState:
        return PlayerState(
            self.fuel, self.ore, self.colonies, self.hub, self.stock, self.bay[:], self.cards[:]
        )


@dataclass(slots=True)
class TurnState:
    """What the current player has done this turn, for once-per-turn rules."""

    used: list[CardId] = field(default_factory=list)  # cards used or discarded this turn
    discarded: bool = False  # R-TECH-2: one discard per turn
    mine_docks: int = 0  # ships docked at the Lunar Mine (Van Vogt)
    hub_docks: int = 0  # ships docked at the Colony Hub (Asimov)
    asimov_used: bool = False
    hub_overflow: int = 0  # R-HUB-3: steps past space 7, kept only for an immediate launch
    artifact_cycles: int = 0  # cycles earned and not yet used (R-ART-1)
    artifact_total: int = 0  # value docked at the Artifact since the last claim (R-ART-2)
    market_rates: dict[int, int] = field(default_factory=dict)  # market group -> pair value
    borrowed: list[TerritoryId] = field(default_factory=list)  # Data Crystal bonuses

    def copy(self) -> TurnState:
        return TurnState(
            self.used[:],
            self.discarded,
            self.mine_docks,
            self.hub_docks,
            self.asimov_used,
            self.hub_overflow,
            self.artifact_cycles,
            self.artifact_total,
            self.market_rates.copy(),
            self.borrowed[:],
        )


# The events of a state that records none: a search (engine.ai) copies thousands of
# states whose events nobody reads. ``engine.board.log`` leaves it empty (it is never
# appended to), and copies share it. See ``GameState.copy_unrecorded``.
UNRECORDED: Final[list[Event]] = []

# Fields of GameState that copies share: maps replaced whenever they change, never
# changed in place (their type, a read-only Mapping of tuples, keeps writers out).
SHARED_BY_COPIES: Final = frozenset({"docks", "colonies", "controller", "fields"})


@dataclass(slots=True)
class GameState:
    """The whole game at one moment. Build one with ``engine.setup.new_game``."""

    config: GameConfig
    players: list[PlayerState]
    # Shared facilities: docks each, None = free (R-SETUP-6 blockers are NEUTRAL ships).
    # Replaced, never changed in place (SHARED_BY_COPIES): see engine.board.set_docks.
    docks: Mapping[FacilityId, tuple[Ship | None, ...]]
    hub_docks: list[list[Ship]]  # per player: ships on that player's hub track
    # Replaced, never changed in place (SHARED_BY_COPIES): see engine.territories.
    colonies: Mapping[TerritoryId, tuple[int, ...]]  # territory -> colonies per player
    controller: Mapping[TerritoryId, int | None]
    fields: Mapping[FieldId, TerritoryId | None]
    relic_on_desert: bool = True
    deck: list[int] = field(default_factory=list)  # copies per card kind (engine.tables.CARDS)
    discard: list[int] = field(default_factory=list)
    display: list[CardId] = field(default_factory=list)
    supply: list[int] | None = None  # [fuel, ore] under the finite-supply option
    current: int = 0
    first_player: int = 0
    turn_number: int = 0  # turns started so far
    undocked: list[Ship] = field(default_factory=list)  # current player's rolled, undocked ships
    turn: TurnState = field(default_factory=TurnState)
    pending: list[Decision] = field(default_factory=list)
    over: bool = False
    events: list[Event] = field(default_factory=list)
    version: int = 0  # actions applied so far

    def copy(self) -> GameState:
        # Slices and dict.copy: the quickest copies of a list and a dict (search copies a lot).
        return GameState(
            self.config,
            [p.copy() for p in self.players],
            self.docks,  # (SHARED_BY_COPIES, as the planet's maps below)
            [h[:] for h in self.hub_docks],
            self.colonies,  # (SHARED_BY_COPIES: replaced, never changed in place)
            self.controller,
            self.fields,
            self.relic_on_desert,
            self.deck[:],
            self.discard[:],
            self.display[:],
            None if self.supply is None else self.supply[:],
            self.current,
            self.first_player,
            self.turn_number,
            self.undocked[:],
            self.turn.copy(),
            self.pending[:],
            self.over,
            self.events if self.events is UNRECORDED else self.events[:],
            self.version,
        )

    def copy_unrecorded(self) -> GameState:
        """A copy that records no events, nor will its copies: for search."""
        c = self.copy()
        c.events = UNRECORDED
        return c

    @property
    def num_players(self) -> int:
        return len(self.players)

    def to_act(self) -> int:
        """Seat that must act now, or CHANCE for a chance decision."""
        if self.pending:
            d = self.pending[0]
            if isinstance(d, PlayerDecision):
                return d.player
            return CHANCE
        return self.current

    @property
    def round(self) -> int:
        """1-based round number (a round is one turn of every player)."""
        return (max(self.turn_number, 1) - 1) // self.num_players + 1

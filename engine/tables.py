"""Declared game data: facilities, territories, cards, fields and player-count tables.

Everything the rules look up by name lives here as data, so a reader finds the
numbers of the game in one place and the rule modules stay free of literals.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal, get_args

# The ids of the game's things, declared once: each tuple below is read from its type.
FacilityId = Literal[
    "solar", "mine", "market", "yard", "constructor", "hub", "terraform", "artifact", "raiders"
]
TerritoryId = Literal[
    "asimov", "bradbury", "burroughs", "heinlein", "herbert", "lem", "pohl", "vanvogt"
]
CardId = Literal[
    "booster",
    "crystal",
    "gravity",
    "decoy",
    "teleporter",
    "plasma",
    "polarity",
    "cache",
    "stasis",
    "warper",
    "city",
    "monument",
    "helm",
]
FieldId = Literal["isolation", "positron", "repulsor"]

FACILITY_ORDER: Final[tuple[FacilityId, ...]] = get_args(FacilityId)  # board order
TERRITORIES: Final[tuple[TerritoryId, ...]] = get_args(TerritoryId)
FIELDS: Final[tuple[FieldId, ...]] = get_args(FieldId)
# The cards' ids, in the order of the deck and discard counts; a card registered later
# (engine.rulebook.register_card) is appended. What each card is: engine.tech.<card>.
CARDS: Final[list[CardId]] = list(get_args(CardId))
CARD_INDEX: Final[dict[CardId, int]] = {c: i for i, c in enumerate(CARDS)}


@dataclass(frozen=True, slots=True)
class FacilityInfo:
    """Shape of an orbital facility: docks grouped into sets that are filled together."""

    id: FacilityId
    groups: int  # how many sets of docks
    group_size: int  # docks per set (1 = ships dock one by one)

    @property
    def docks(self) -> int:
        return self.groups * self.group_size


# (sets of docks, docks per set) with 4 players (R-SETUP-6 blocks some with fewer).
# The Colony Hub is per player (R-HUB): each player's track has its docks.
_DOCKS: Final[dict[FacilityId, tuple[int, int]]] = {
    "solar": (8, 1),
    "mine": (5, 1),
    "market": (2, 2),
    "yard": (3, 2),
    "constructor": (2, 3),
    "hub": (1, 3),
    "terraform": (1, 1),
    "artifact": (4, 1),
    "raiders": (1, 3),
}
FACILITIES: Final[dict[FacilityId, FacilityInfo]] = {
    f: FacilityInfo(f, *_DOCKS[f]) for f in FACILITY_ORDER
}
SHARED_FACILITIES: Final[tuple[FacilityId, ...]] = tuple(f for f in FACILITY_ORDER if f != "hub")
HUB_DOCKS: Final = FACILITIES["hub"].docks
HUB_TRACK_LENGTH: Final = 7

# Which card's discard places or moves which field generator (section 7).
FIELD_OF_CARD: Final[dict[CardId, FieldId]] = {
    "stasis": "isolation",
    "crystal": "positron",
    "gravity": "repulsor",
}


@dataclass(frozen=True, slots=True)
class PlayerCountRules:
    """What changes with the number of players (R-SETUP-3, R-SETUP-5, R-SETUP-6)."""

    colonies: int
    colonies_long_game: int
    # (fuel, ore) for the 1st, 2nd, ... player in turn order.
    compensation: tuple[tuple[int, int], ...]
    # Docks permanently filled by neutral ships showing 1.
    blocked: dict[FacilityId, int]


PLAYER_COUNT_RULES: Final[dict[int, PlayerCountRules]] = {
    2: PlayerCountRules(
        colonies=8,
        colonies_long_game=8,
        compensation=((0, 0), (1, 0)),
        blocked={"solar": 1, "mine": 2, "market": 2, "constructor": 3, "yard": 4},
    ),
    3: PlayerCountRules(
        colonies=7,
        colonies_long_game=8,
        compensation=((0, 0), (1, 0), (0, 1)),
        blocked={"solar": 1, "mine": 1, "market": 2, "yard": 2},
    ),
    4: PlayerCountRules(
        colonies=6,
        colonies_long_game=8,
        compensation=((0, 0), (1, 0), (0, 1), (1, 1)),
        blocked={},
    ),
}

# Shipyard cost per new ship, by the number of your colour's ships in play
# counting the new one (R-YARD): 4th 1+1, 5th 2+2, 6th 3+3.
SHIPYARD_COST: Final[dict[int, int]] = {4: 1, 5: 2, 6: 3}
SHIPS_PER_COLOUR: Final = 6
DIE_FACES: Final = 6  # a ship shows 1..6 (R-TECH-3); the opposite face of v is 7 - v
SHIPS_AT_START: Final = 3
MIN_COLOUR_SHIPS: Final = 3
HAND_LIMIT: Final = 8
ARTIFACT_CLAIM_TOTAL: Final = 8
RAID_STEAL_LIMIT: Final = 4
DISPLAY_SIZE: Final = 3
FINITE_SUPPLY: Final = (30, 20)  # (fuel, ore) in the box, R-RES-4
PLAYER_COLOURS: Final[tuple[str, ...]] = ("red", "blue", "green", "yellow")
MAX_PLAYERS: Final = max(PLAYER_COUNT_RULES)

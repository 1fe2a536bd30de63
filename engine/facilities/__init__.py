"""The orbital facilities, one module each, and the registry the rules use."""

from __future__ import annotations

from typing import Final

from engine.facilities.alien_artifact import AlienArtifact
from engine.facilities.base import Facility
from engine.facilities.colony_constructor import ColonyConstructor
from engine.facilities.colony_hub import ColonyHub
from engine.facilities.lunar_mine import LunarMine
from engine.facilities.orbital_market import OrbitalMarket
from engine.facilities.raiders_outpost import RaidersOutpost
from engine.facilities.shipyard import Shipyard
from engine.facilities.solar_converter import SolarConverter
from engine.facilities.terraforming_station import TerraformingStation
from engine.tables import FACILITY_ORDER, FacilityId

_ALL: Final[list[Facility]] = [
    SolarConverter(),
    LunarMine(),
    OrbitalMarket(),
    Shipyard(),
    ColonyConstructor(),
    ColonyHub(),
    TerraformingStation(),
    AlienArtifact(),
    RaidersOutpost(),
]
FACILITY_RULES: Final[dict[FacilityId, Facility]] = {f.id: f for f in _ALL}
assert tuple(FACILITY_RULES) == FACILITY_ORDER

__all__ = ["FACILITY_RULES", "Facility"]

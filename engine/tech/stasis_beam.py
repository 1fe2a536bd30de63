"""Stasis Beam (R-TECH-STASIS): 1 fuel, -1 on one undocked ship. Discard: place or move the
Isolation Field (R-FIELD-ISO: the territory's bonus is void).
"""

from __future__ import annotations

from engine.actions import Stasis
from engine.fields import FieldDiscard
from engine.tech.card import Card
from engine.tech.common import OneShipPower


class StasisUse(OneShipPower[Stasis]):
    def new_value(self, value: int) -> int:
        return value - 1


USE = StasisUse("stasis", fuel=1)
DISCARD = FieldDiscard("stasis")
CARD = Card("stasis", ("stasis beam", "beam"), use=USE, discard=DISCARD)

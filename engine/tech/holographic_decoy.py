"""Holographic Decoy (R-TECH-DECOY, R-RAID-3): no powers. It protects its owner's
resources from raiders, and a raider taking a card from its owner may take only the Decoy.
"""

from __future__ import annotations

from engine.board import Refusal, refuse
from engine.state import GameState
from engine.tables import CardId
from engine.tech.card import Card


def resources_protected(s: GameState, victim: int) -> bool:
    return "decoy" in s.players[victim].cards


def card_theft_refusal(s: GameState, victim: int, card: CardId) -> Refusal | None:
    if "decoy" in s.players[victim].cards and card != "decoy":
        return refuse("raid.decoy_card", victim=victim)
    return None


CARD = Card("decoy", ("holographic decoy",))

"""Alien City (R-TECH-VP): 1 VP to its owner; no powers. One copy in the deck."""

from __future__ import annotations

from engine.tech.card import Card

CARD = Card("city", ("alien city",), copies=1, vp=1)

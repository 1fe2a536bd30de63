"""Resource Cache (R-TECH-CACHE): resolved right after the roll (R-TURN-2).

More odd ships: 1 ore; more even: 1 fuel; equal: 1 fuel + 1 ore and the card is
discarded. "Not on the turn you gain it" holds by construction: the roll that
triggers it only opens a turn, and every way to gain a card happens after it.
"""

from __future__ import annotations

from engine.board import gain, log
from engine.state import GameState
from engine.tables import CARD_INDEX
from engine.tech.card import Card


def resolve_after_roll(s: GameState, p: int) -> None:
    odd = sum(1 for ship in s.undocked if ship.value % 2)
    even = len(s.undocked) - odd
    if odd > even:
        fuel, ore = gain(s, p, ore=1)
    elif even > odd:
        fuel, ore = gain(s, p, fuel=1)
    else:
        fuel, ore = gain(s, p, fuel=1, ore=1)
        s.players[p].cards.remove("cache")
        s.discard[CARD_INDEX["cache"]] += 1
        log(s, "cache_spent", p)
    log(s, "cache_paid", p, fuel=fuel, ore=ore)


CARD = Card("cache", ("resource cache",), after_roll=resolve_after_roll)

"""Compact scenario fixtures: build a mid-turn state in one call.

Example::

    s = scenario(undocked="3 4 6", docks={"mine": "p2:1 p2:4"})
    s = act(s, "dock mine 4")

Seats are 0-based in Python and ``p1``..``p4`` in notation. Ships are written
like the notation: ``4`` (an undocked ship of the current player), ``4r`` (the
relic ship), ``p2:4`` (a ship of seat 1 on a facility), ``-`` (leave a dock free).
Every ship a player does not have on the board, undocked or in the bay stays in
their ship stock; each player has at least 3 ships of their colour in play (the
missing ones wait in their Maintenance Bay) unless ``stock`` says otherwise.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from engine import GameConfig, IllegalActionError, apply, parse
from engine.actions import Action
from engine.board import set_dock, set_docks
from engine.invariants import problems
from engine.setup import new_game
from engine.state import GameState, Ship
from engine.tables import (
    CARD_INDEX,
    SHIPS_AT_START,
    SHIPS_PER_COLOUR,
    TERRITORIES,
    CardId,
    FacilityId,
    FieldId,
    TerritoryId,
)
from engine.territories import set_field, update_control


def _ship(word: str, owner: int) -> Ship | None:
    if word == "-":
        return None
    if word.startswith("p") and ":" in word:
        seat, value = word[1:].split(":")
        owner = int(seat) - 1
        word = value
    relic = word.endswith("r")
    return Ship(owner, int(word.rstrip("r")), relic)


def scenario(
    players: int = 4,
    *,
    current: int = 0,
    undocked: str = "",
    docks: Mapping[FacilityId, str] | None = None,
    colonies: Mapping[TerritoryId, Sequence[int]] | None = None,
    fuel: Sequence[int] | int = 0,
    ore: Sequence[int] | int = 0,
    cards: Mapping[int, Sequence[CardId]] | None = None,
    hub: Mapping[int, int] | None = None,
    stock: Mapping[int, int] | None = None,
    bay: Mapping[int, str] | None = None,
    fields: Mapping[FieldId, TerritoryId] | None = None,
    display: Sequence[CardId] = ("city", "monument", "decoy"),
    supply: tuple[int, int] | None = None,
    check: bool = True,
    **config: Any,
) -> GameState:
    """A state in the middle of ``current``'s turn, after the roll, with nothing pending."""
    s = new_game(GameConfig(players=players, **config))
    s.pending.clear()
    s.current = current
    s.first_player = 0
    s.turn_number = current + 1
    n = players
    for p in range(n):
        s.players[p].bay = []
        s.players[p].fuel = fuel if isinstance(fuel, int) else fuel[p]
        s.players[p].ore = ore if isinstance(ore, int) else ore[p]
    placed = [0] * n
    relic_used = False
    s.undocked = [x for w in undocked.split() if (x := _ship(w, current)) is not None]
    for x in s.undocked:
        placed[x.owner] += not x.relic
        relic_used |= x.relic
    for facility, spec in (docks or {}).items():
        ships = [_ship(w, current) for w in spec.split()]
        if facility == "hub":
            for x in ships:
                if x is not None:
                    s.hub_docks[x.owner].append(x)
        else:
            slots = list(s.docks[facility])
            for i, x in enumerate(ships):
                assert slots[i] is None, f"dock {i} of {facility} is blocked"
                slots[i] = x
            set_docks(s, facility, slots)
        for x in ships:
            if x is not None:
                placed[x.owner] += not x.relic
                relic_used |= x.relic
    for p, spec in (bay or {}).items():
        for w in spec.split():
            x = _ship(w, p)
            assert x is not None
            s.players[p].bay.append(x)
            placed[p] += not x.relic
            relic_used |= x.relic
    for p in range(n):
        in_play = SHIPS_PER_COLOUR - (stock or {}).get(
            p, SHIPS_PER_COLOUR - max(SHIPS_AT_START, placed[p])
        )
        s.players[p].bay += [Ship(p, 1)] * max(0, in_play - placed[p])
        s.players[p].stock = SHIPS_PER_COLOUR - max(in_play, placed[p])
    for t, counts in (colonies or {}).items():
        assert t in TERRITORIES, t
        s.colonies = {**s.colonies, t: tuple(counts)}
        update_control(s, t)  # the relic ship is still "on the desert" here: nothing moves
    s.relic_on_desert = not relic_used
    for p, space in (hub or {}).items():
        s.players[p].hub = space
    total = s.config.colonies_per_player
    for p in range(n):
        on_planet = sum(s.colonies[t][p] for t in TERRITORIES)
        s.players[p].colonies = total - on_planet - int(s.players[p].hub > 0)
    for f, t in (fields or {}).items():
        set_field(s, f, t)
    deck = s.deck
    s.display = list(display)
    for c in s.display:
        deck[CARD_INDEX[c]] -= 1
    for p, owned in (cards or {}).items():
        s.players[p].cards = list(owned)
        for c in owned:
            deck[CARD_INDEX[c]] -= 1
    if supply is not None:
        s.supply = [supply[0], supply[1]]
    elif s.supply is not None:
        s.supply[0] -= sum(pl.fuel for pl in s.players)
        s.supply[1] -= sum(pl.ore for pl in s.players)
    s.events.clear()
    if check:
        found = problems(s)
        assert not found, found
    return s


def game_states(config: GameConfig, seed: int, every: int, chance: bool = False) -> list[GameState]:
    """Copies of every ``every``-th position of a seeded random game where a seat acts
    (with ``chance``: every position, chance decisions and the end included)."""
    from engine.rules import apply_in_place
    from engine.selfplay import random_action
    from engine.state import CHANCE

    rng = random.Random(seed)
    s = new_game(config)
    out = []
    i = 0
    while not s.over:
        if (chance or s.to_act() != CHANCE) and i % every == 0:
            out.append(s.copy())
        apply_in_place(s, random_action(s, rng))
        i += 1
    if chance:
        out.append(s)
    return out


def act(s: GameState, *moves: str | Action) -> GameState:
    """Apply moves through the checked door, in order."""
    for m in moves:
        s = apply(s, parse(m) if isinstance(m, str) else m)
    return s


def legal(s: GameState) -> set[str]:
    """The legal actions in notation."""
    from engine import legal_actions

    return {str(a) for a in legal_actions(s)}


def refused(s: GameState, move: str, message: str) -> None:
    """``move`` is refused with ``message``, is not listed as legal, and changes nothing."""
    before = s.copy()
    with pytest.raises(IllegalActionError, match=re.escape(message)):
        act(s, move)
    assert s == before
    assert str(parse(move)) not in legal(s)


def with_relic(s: GameState, p: int, where: str, value: int = 4) -> GameState:
    """Give ``p`` the relic ship showing ``value``: in p's bay, undocked, on p's hub track
    or on a free dock of a facility; placed after the scenario, whose set-up of Burroughs
    Desert's control would send it back to the desert."""
    ship = Ship(p, value, relic=True)
    if where == "bay":
        s.players[p].bay.append(ship)
    elif where == "undocked":
        s.undocked.append(ship)
    elif where == "hub":
        s.hub_docks[p].append(ship)
    else:
        slots = s.docks[where]  # type: ignore[index]
        set_dock(s, where, slots.index(None), ship)  # type: ignore[arg-type]
    s.relic_on_desert = False
    assert not problems(s), problems(s)
    return s

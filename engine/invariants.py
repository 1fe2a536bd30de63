"""Invariants that hold after every action; checked by self-play, tests and state loading."""

from __future__ import annotations

from engine.board import docked_ships
from engine.scoring import recount_victory_points, score_parts, victory_points
from engine.state import GameState, PlaceColonyDecision, RollDecision
from engine.tables import (
    CARDS,
    DISPLAY_SIZE,
    FACILITIES,
    FINITE_SUPPLY,
    HUB_DOCKS,
    HUB_TRACK_LENGTH,
    MIN_COLOUR_SHIPS,
    SHARED_FACILITIES,
    SHIPS_PER_COLOUR,
    TERRITORIES,
)
from engine.tech.card import deck_counts
from engine.territories import leader


def problems(s: GameState) -> list[str]:
    """Every broken invariant, in words; empty when the state is sound."""
    out: list[str] = []
    n = s.num_players
    on_board = [ship for f in SHARED_FACILITIES for ship in docked_ships(s, f)]
    on_board += [ship for track in s.hub_docks for ship in track]
    everywhere = on_board + s.undocked + [x for pl in s.players for x in pl.bay]
    rolling = s.pending[0] if s.pending and isinstance(s.pending[0], RollDecision) else None
    for p in range(n):
        count = sum(1 for x in everywhere if x.owner == p and not x.relic) + s.players[p].stock
        if rolling is not None and p == s.current:
            count += rolling.dice
        if count != SHIPS_PER_COLOUR:
            out.append(f"P{p + 1} has {count} ships of their colour, not {SHIPS_PER_COLOUR}")
        in_play = SHIPS_PER_COLOUR - s.players[p].stock
        if in_play < MIN_COLOUR_SHIPS and not s.over:
            out.append(f"P{p + 1} has only {in_play} ships in play")
    relics = sum(1 for x in everywhere if x.relic) + int(bool(rolling and rolling.relic))
    if relics + int(s.relic_on_desert) != 1:
        out.append(f"the relic ship is in {relics + int(s.relic_on_desert)} places")
    for f in SHARED_FACILITIES:
        if len(s.docks[f]) != FACILITIES[f].docks:
            out.append(f"{f} has {len(s.docks[f])} docks")
    for p, track in enumerate(s.hub_docks):
        if len(track) > HUB_DOCKS:
            out.append(f"P{p + 1}'s hub track holds {len(track)} ships")
    total = s.config.colonies_per_player
    recount = recount_victory_points(s)
    for p, pl in enumerate(s.players):
        placing = sum(1 for d in s.pending if isinstance(d, PlaceColonyDecision) and d.player == p)
        placed = sum(s.colonies[t][p] for t in TERRITORIES)
        if pl.colonies + int(pl.hub > 0) + placed + placing != total:
            out.append(f"P{p + 1}'s colonies do not add up to {total}")
        if min(pl.fuel, pl.ore, pl.colonies, pl.stock) < 0 or not 0 <= pl.hub <= HUB_TRACK_LENGTH:
            out.append(f"P{p + 1} has a negative count or a bad hub space")
        if len(set(pl.cards)) != len(pl.cards):
            out.append(f"P{p + 1} owns two copies of a card")
        if victory_points(s, p) != recount[p]:
            out.append(f"P{p + 1}'s VP differ from a recount")
        if score_parts(s, p).total != recount[p]:
            out.append(f"P{p + 1}'s VP broken down do not add up to a recount")
    for t in TERRITORIES:
        if min(s.colonies[t]) < 0:
            out.append(f"negative colonies on {t}")
        if s.controller[t] != leader(s.colonies[t]):
            out.append(f"control of {t} is stale")
    cards = [s.deck[i] + s.discard[i] + s.display.count(c) for i, c in enumerate(CARDS)]
    for pl in s.players:
        for c in pl.cards:
            cards[CARDS.index(c)] += 1
    if tuple(cards) != deck_counts(s.config):
        out.append("alien tech cards are not conserved")
    if min(s.deck + s.discard) < 0 or len(s.display) > DISPLAY_SIZE:
        out.append("bad deck, discard or display")
    if s.supply is not None:
        fuel = s.supply[0] + sum(pl.fuel for pl in s.players)
        ore = s.supply[1] + sum(pl.ore for pl in s.players)
        if (fuel, ore) != FINITE_SUPPLY or min(s.supply) < 0:
            out.append(f"supply and holdings are {fuel} fuel, {ore} ore")
    return out

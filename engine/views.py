"""A read-only picture of the state for the bot, the board image and the AI.

Everything a player at the table could see, as frozen data, with ids (not
display names): front ends look names up in engine.messages.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from engine.board import colour_ships_in_play, consumed_ship
from engine.facilities.orbital_market import market_rate
from engine.scoring import Outcome, outcome, victory_points
from engine.state import NEUTRAL, Event, GameState, PlayerDecision, Ship
from engine.tables import (
    CARDS,
    FACILITY_ORDER,
    PLAYER_COLOURS,
    SHARED_FACILITIES,
    TERRITORIES,
    CardId,
    FacilityId,
    FieldId,
    TerritoryId,
)
from engine.territories import colonies_placed


@dataclass(frozen=True, slots=True)
class DockView:
    """One dock: free (ship None, blocked False), blocked by a neutral ship, or holding a ship."""

    ship: Ship | None
    blocked: bool = False
    used_up: bool = False  # a ship on the Terraforming Station


@dataclass(frozen=True, slots=True)
class PlayerView:
    seat: int
    colour: str
    vp: int
    fuel: int
    ore: int
    colonies_unplaced: int  # not counting one on the hub track
    colonies_placed: int
    hub_space: int  # 0 = no colony on the track
    ships_in_play: int  # colour ships not in the stock
    ships_in_stock: int
    bay: tuple[Ship, ...]
    cards: tuple[CardId, ...]
    cards_used: tuple[CardId, ...]  # this turn (the current player's; none once over)
    has_relic: bool


@dataclass(frozen=True, slots=True)
class TerritoryView:
    id: TerritoryId
    colonies: tuple[int, ...]  # per seat
    controller: int | None
    fields: tuple[FieldId, ...]
    relic_here: bool


@dataclass(frozen=True, slots=True)
class DecisionView:
    kind: str  # reveal, first_player, roll, place, raid, plasma, return
    player: int | None  # None for chance
    detail: dict[str, int | str]


@dataclass(frozen=True, slots=True)
class GameView:
    players: tuple[PlayerView, ...]
    current: int
    round: int
    turn_number: int
    undocked: tuple[Ship, ...]
    docks: dict[FacilityId, tuple[DockView, ...]]
    hub_tracks: tuple[tuple[Ship, ...], ...]  # per seat: ships on that seat's hub track
    territories: tuple[TerritoryView, ...]
    fields: dict[FieldId, TerritoryId | None]
    relic_on_desert: bool
    display: tuple[CardId, ...]
    deck_count: int
    discard: dict[CardId, int]
    supply: tuple[int, int] | None
    market_rate: int | None
    pending: DecisionView | None
    events: tuple[Event, ...]
    over: bool
    outcome: Outcome | None
    version: int


def _decision(s: GameState) -> DecisionView | None:
    """The pending decision: its kind, who takes it, and its other fields (flags as 0/1;
    a seat the cards go to is left out, it is not a detail anyone is asked about)."""
    if not s.pending:
        return None
    d = s.pending[0]
    detail: dict[str, int | str] = {}
    for f in fields(d):
        value = getattr(d, f.name)
        if f.name not in ("player", "to_player"):
            detail[f.name] = int(value) if isinstance(value, bool) else value
    return DecisionView(d.kind, d.player if isinstance(d, PlayerDecision) else None, detail)


def _has_relic(s: GameState, p: int) -> bool:
    ships = [*s.undocked, *s.players[p].bay]
    ships += [x for f in SHARED_FACILITIES for x in s.docks[f] if x is not None]
    ships += [x for track in s.hub_docks for x in track]
    return any(x.relic and x.owner == p for x in ships)


def view(s: GameState) -> GameView:
    """The read-only view of ``s``."""
    players = tuple(
        PlayerView(
            seat=p,
            colour=PLAYER_COLOURS[p],
            vp=victory_points(s, p),
            fuel=pl.fuel,
            ore=pl.ore,
            colonies_unplaced=pl.colonies,
            colonies_placed=colonies_placed(s, p),
            hub_space=pl.hub,
            ships_in_play=colour_ships_in_play(s, p),
            ships_in_stock=pl.stock,
            bay=tuple(pl.bay),
            cards=tuple(pl.cards),
            cards_used=tuple(s.turn.used) if p == s.current and not s.over else (),
            has_relic=not s.relic_on_desert and _has_relic(s, p),
        )
        for p, pl in enumerate(s.players)
    )
    docks: dict[FacilityId, tuple[DockView, ...]] = {}
    for f in FACILITY_ORDER:
        if f == "hub":
            continue
        docks[f] = tuple(
            DockView(
                ship if ship is not None and ship.owner != NEUTRAL else None,
                blocked=ship is not None and ship.owner == NEUTRAL,
                used_up=f == "terraform" and ship is not None,
            )
            for ship in s.docks[f]
        )
    territories = tuple(
        TerritoryView(
            id=t,
            colonies=tuple(s.colonies[t]),
            controller=s.controller[t],
            fields=tuple(f for f, where in s.fields.items() if where == t),
            relic_here=t == "burroughs" and s.relic_on_desert,
        )
        for t in TERRITORIES
    )
    return GameView(
        players=players,
        current=s.current,
        round=s.round,
        turn_number=s.turn_number,
        undocked=tuple(s.undocked),
        docks=docks,
        hub_tracks=tuple(tuple(track) for track in s.hub_docks),
        territories=territories,
        fields=dict(s.fields),
        relic_on_desert=s.relic_on_desert,
        display=tuple(s.display),
        deck_count=sum(s.deck),
        discard={c: s.discard[i] for i, c in enumerate(CARDS) if s.discard[i]},
        supply=None if s.supply is None else (s.supply[0], s.supply[1]),
        market_rate=market_rate(s, s.current) if s.turn.market_rates else None,
        pending=_decision(s),
        events=tuple(s.events[-12:]),
        over=s.over,
        outcome=outcome(s),
        version=s.version,
    )


__all__ = [
    "DecisionView",
    "DockView",
    "GameView",
    "PlayerView",
    "TerritoryView",
    "consumed_ship",
    "view",
]

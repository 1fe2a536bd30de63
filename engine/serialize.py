"""State to JSON and back (docs/state.md), validated with pydantic at this boundary.

``dumps(state)`` writes a JSON document with a ``schema_version``; ``loads(text)``
validates its shape and its invariants and raises StateLoadError naming each
problem. A round trip is exact: ``loads(dumps(s)) == s``.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, cast

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError

from engine.config import GameConfig
from engine.errors import StateLoadError
from engine.invariants import problems
from engine.state import (
    NEUTRAL,
    Decision,
    Event,
    FirstPlayerDecision,
    GameState,
    PlaceColonyDecision,
    PlasmaDecision,
    PlayerState,
    RaidDecision,
    ReturnExcessDecision,
    RevealDecision,
    RollDecision,
    Ship,
    TurnState,
)
from engine.tables import (
    CARDS,
    DIE_FACES,
    FIELDS,
    HUB_TRACK_LENGTH,
    MAX_PLAYERS,
    PLAYER_COUNT_RULES,
    RAID_STEAL_LIMIT,
    SHARED_FACILITIES,
    SHIPS_PER_COLOUR,
    TERRITORIES,
    CardId,
    FacilityId,
    FieldId,
    TerritoryId,
)

SCHEMA_VERSION = 1
Count = Annotated[int, Field(ge=0)]


def _known_card(card: str) -> str:
    if card not in CARDS:
        raise ValueError(f"{card!r} is not an alien tech card")
    return card


CardName = Annotated[str, AfterValidator(_known_card)]  # the cards in play (engine.tables)
Seat = Annotated[int, Field(ge=0, le=MAX_PLAYERS - 1)]
Value = Annotated[int, Field(ge=1, le=DIE_FACES)]


class _Doc(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ShipDoc(_Doc):
    owner: Annotated[int, Field(ge=NEUTRAL, le=MAX_PLAYERS - 1)]
    value: Value
    relic: bool = False


class ConfigDoc(_Doc):
    players: Annotated[int, Field(ge=min(PLAYER_COUNT_RULES), le=MAX_PLAYERS)]
    long_game: bool
    mind_control_helm: bool
    finite_supply: bool


class PlayerDoc(_Doc):
    fuel: Count
    ore: Count
    colonies: Count
    hub: Annotated[int, Field(ge=0, le=HUB_TRACK_LENGTH)]
    stock: Annotated[int, Field(ge=0, le=SHIPS_PER_COLOUR)]
    bay: list[ShipDoc]
    cards: list[CardName]


class TurnDoc(_Doc):
    used: list[CardName]
    discarded: bool
    mine_docks: Count
    hub_docks: Count
    asimov_used: bool
    hub_overflow: Count
    artifact_cycles: Count
    artifact_total: Count
    market_rates: dict[int, Value]
    borrowed: list[TerritoryId]


class RevealDoc(_Doc):
    kind: Literal["reveal"]
    count: Annotated[int, Field(ge=1)]
    to_player: Seat | None


class FirstPlayerDoc(_Doc):
    kind: Literal["first_player"]


class RollDoc(_Doc):
    kind: Literal["roll"]
    dice: Annotated[int, Field(ge=0, le=SHIPS_PER_COLOUR)]
    relic: bool
    reroll: bool


class PlaceDoc(_Doc):
    kind: Literal["place"]
    player: Seat
    source: Literal["terraform", "constructor", "launch"]


class RaidDoc(_Doc):
    kind: Literal["raid"]
    player: Seat
    stolen: Annotated[int, Field(ge=0, le=RAID_STEAL_LIMIT)]


class PlasmaDoc(_Doc):
    kind: Literal["plasma"]
    player: Seat
    facility: FacilityId
    removed: Count


class ReturnDoc(_Doc):
    kind: Literal["return"]
    player: Seat
    excess: Annotated[int, Field(ge=1)]


DecisionDoc = Annotated[
    RevealDoc | FirstPlayerDoc | RollDoc | PlaceDoc | RaidDoc | PlasmaDoc | ReturnDoc,
    Field(discriminator="kind"),
]
_DECISIONS: dict[str, type[Decision]] = {
    d.kind: d
    for d in (
        RevealDecision,
        FirstPlayerDecision,
        RollDecision,
        PlaceColonyDecision,
        RaidDecision,
        PlasmaDecision,
        ReturnExcessDecision,
    )
}


class EventDoc(_Doc):
    key: str
    player: Seat | None
    params: dict[str, str | int]
    at: Count


class StateDoc(_Doc):
    schema_version: Literal[1]
    config: ConfigDoc
    players: list[PlayerDoc]
    docks: dict[FacilityId, list[ShipDoc | None]]
    hub_docks: list[list[ShipDoc]]
    colonies: dict[TerritoryId, list[Count]]
    controller: dict[TerritoryId, Seat | None]
    fields: dict[FieldId, TerritoryId | None]
    relic_on_desert: bool
    deck: list[Count]
    discard: list[Count]
    display: list[CardName]
    supply: list[Count] | None
    current: Seat
    first_player: Seat
    turn_number: Count
    undocked: list[ShipDoc]
    turn: TurnDoc
    pending: list[DecisionDoc]
    over: bool
    events: list[EventDoc]
    version: Count


def _ship(x: Ship | None) -> dict[str, Any] | None:
    return None if x is None else {"owner": x.owner, "value": x.value, "relic": x.relic}


def to_dict(s: GameState) -> dict[str, Any]:
    """The state as plain JSON-ready data."""
    c = s.config
    t = s.turn
    return {
        "schema_version": SCHEMA_VERSION,
        "config": {
            "players": c.players,
            "long_game": c.long_game,
            "mind_control_helm": c.mind_control_helm,
            "finite_supply": c.finite_supply,
        },
        "players": [
            {
                "fuel": p.fuel,
                "ore": p.ore,
                "colonies": p.colonies,
                "hub": p.hub,
                "stock": p.stock,
                "bay": [_ship(x) for x in p.bay],
                "cards": list(p.cards),
            }
            for p in s.players
        ],
        "docks": {f: [_ship(x) for x in slots] for f, slots in s.docks.items()},
        "hub_docks": [[_ship(x) for x in track] for track in s.hub_docks],
        "colonies": {k: list(v) for k, v in s.colonies.items()},
        "controller": dict(s.controller),
        "fields": dict(s.fields),
        "relic_on_desert": s.relic_on_desert,
        "deck": list(s.deck),
        "discard": list(s.discard),
        "display": list(s.display),
        "supply": None if s.supply is None else list(s.supply),
        "current": s.current,
        "first_player": s.first_player,
        "turn_number": s.turn_number,
        "undocked": [_ship(x) for x in s.undocked],
        "turn": {
            "used": list(t.used),
            "discarded": t.discarded,
            "mine_docks": t.mine_docks,
            "hub_docks": t.hub_docks,
            "asimov_used": t.asimov_used,
            "hub_overflow": t.hub_overflow,
            "artifact_cycles": t.artifact_cycles,
            "artifact_total": t.artifact_total,
            "market_rates": {str(k): v for k, v in t.market_rates.items()},
            "borrowed": list(t.borrowed),
        },
        "pending": [_decision(d) for d in s.pending],
        "over": s.over,
        "events": [
            {"key": e.key, "player": e.player, "params": dict(e.params), "at": e.at}
            for e in s.events
        ],
        "version": s.version,
    }


def _decision(d: Decision) -> dict[str, Any]:
    data: dict[str, Any] = {"kind": d.kind}
    for name in d.__dataclass_fields__:
        data[name] = getattr(d, name)
    return data


def _cards(names: list[str]) -> list[CardId]:
    return [cast(CardId, c) for c in names]  # validated by CardName


def _from_ship(x: ShipDoc) -> Ship:
    return Ship(x.owner, x.value, x.relic)


def from_doc(doc: StateDoc) -> GameState:
    c = doc.config
    t = doc.turn
    pending: list[Decision] = []
    for d in doc.pending:
        fields = d.model_dump()
        cls = _DECISIONS[fields.pop("kind")]
        pending.append(cls(**fields))
    return GameState(
        config=GameConfig(c.players, c.long_game, c.mind_control_helm, c.finite_supply),
        players=[
            PlayerState(
                p.fuel,
                p.ore,
                p.colonies,
                p.hub,
                p.stock,
                [_from_ship(x) for x in p.bay],
                _cards(p.cards),
            )
            for p in doc.players
        ],
        docks={
            f: tuple([None if x is None else _from_ship(x) for x in slots])
            for f, slots in doc.docks.items()
        },
        hub_docks=[[_from_ship(x) for x in track] for track in doc.hub_docks],
        colonies={k: tuple(v) for k, v in doc.colonies.items()},
        controller=dict(doc.controller),
        fields=dict(doc.fields),
        relic_on_desert=doc.relic_on_desert,
        deck=list(doc.deck),
        discard=list(doc.discard),
        display=_cards(doc.display),
        supply=None if doc.supply is None else list(doc.supply),
        current=doc.current,
        first_player=doc.first_player,
        turn_number=doc.turn_number,
        undocked=[_from_ship(x) for x in doc.undocked],
        turn=TurnState(
            _cards(t.used),
            t.discarded,
            t.mine_docks,
            t.hub_docks,
            t.asimov_used,
            t.hub_overflow,
            t.artifact_cycles,
            t.artifact_total,
            dict(t.market_rates),
            list(t.borrowed),
        ),
        pending=pending,
        over=doc.over,
        events=[Event(e.key, e.player, dict(e.params), e.at) for e in doc.events],
        version=doc.version,
    )


def dumps(s: GameState) -> str:
    """The state as a JSON document: ``to_dict`` written as compact JSON, the document
    ``StateDoc`` describes (a test checks it field for field). Not validated on the way
    out, since the bot writes one after every move: a state is checked when it is
    loaded (``loads``), and the states written here are the engine's own."""
    return json.dumps(to_dict(s), ensure_ascii=False, separators=(",", ":"))


def loads(text: str | bytes) -> GameState:
    """Load a JSON document; StateLoadError lists every problem found."""
    try:
        doc = StateDoc.model_validate_json(text)
    except ValidationError as e:
        details = "; ".join(
            f"{'.'.join(str(x) for x in err['loc']) or 'document'}: {err['msg']}"
            for err in e.errors()
        )
        raise StateLoadError("state.invalid", details=details) from None
    s = from_doc(doc)
    found = _shape_problems(s) or problems(s)
    if found:
        raise StateLoadError("state.invalid", details="; ".join(found))
    return s


def _shape_problems(s: GameState) -> list[str]:
    n = s.config.players
    out = []
    if len(s.players) != n or len(s.hub_docks) != n:
        out.append(f"the config has {n} players but the state has {len(s.players)}")
    if any(len(v) != n for v in s.colonies.values()) or len(s.colonies) != len(TERRITORIES):
        out.append(f"colonies must list {len(TERRITORIES)} territories, one count per player")
    if len(s.deck) != len(CARDS) or len(s.discard) != len(CARDS):
        out.append(f"deck and discard must count the {len(CARDS)} kinds of card")
    if (
        len(s.docks) != len(SHARED_FACILITIES)
        or len(s.controller) != len(TERRITORIES)
        or len(s.fields) != len(FIELDS)
    ):
        out.append("docks, controllers or fields are incomplete")
    if not (0 <= s.current < n and 0 <= s.first_player < n):
        out.append("current or first player is not a seat")
    return out

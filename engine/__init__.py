"""Alien Frontiers rules engine: pure, deterministic, no I/O.

Typical use::

    from engine import GameConfig, new_game, legal_actions, apply, parse, sample_chance
    s = new_game(GameConfig(players=3))
    s = apply(s, sample_chance(s, rng))   # chance decisions are actions too
    s = apply(s, parse("dock mine 4"))
    check(s, parse("trade"))              # IllegalActionError saying why, if it may not

**The engine's public face.** What is exported here is what a client of the rules (the bot)
may use; everything else under ``engine/`` is the engine's own business. The face holds:
the state and its decisions, events and ships; the actions; the one door for the rules
(``legal_actions``, ``check``, ``refusal``, ``apply``); the game with its history
(``Game``), the players' view (``view``), scoring, the JSON form (``dumps``/``loads``);
the tables of the game's names and numbers; the rulebook; the English of its messages;
and the rules' questions a player's screen asks (what the market pays, what a ship costs,
whether a bonus applies...), each a named function rather than the module that holds it.

The AI players have their own face, ``engine.ai`` (``make_ai``, the levels, the skip
player, the reasons of a plan): the AI is a player built on the face above, not part of
the rules, and ``import engine`` does not load the planners. The bot imports only these
two faces: the import-linter contract "The bot imports the engine through its faces"
(pyproject.toml; tests/test_layers.py) holds it. The engine's own tests may reach inside.
"""

from engine.actions import (
    Action,
    Boost,
    BuyRelic,
    Claim,
    Crystal,
    Cycle,
    Die,
    DiscardBooster,
    DiscardField,
    DiscardPlasma,
    DiscardPolarity,
    DiscardTeleporter,
    DiscardWarper,
    Dock,
    Done,
    EndTurn,
    FirstPlayer,
    Gravity,
    Helm,
    Hit,
    Launch,
    OneShipAction,
    Place,
    Plasma,
    Polarize,
    Relocation,
    ReturnExcess,
    Reveal,
    Roll,
    Stasis,
    StealCard,
    StealResource,
    Teleport,
    Trade,
    Warp,
)
from engine.board import docked_ships, with_docks_emptied
from engine.chance import chance_outcomes, sample_chance
from engine.config import GameConfig
from engine.docking import dock_options
from engine.errors import EngineError, IllegalActionError, InvalidNotationError, StateLoadError
from engine.facilities.colony_constructor import constructor_cost
from engine.facilities.lunar_mine import mine_minimum
from engine.facilities.orbital_market import market_rate
from engine.facilities.shipyard import ship_cost
from engine.game import Game
from engine.legal import legal_actions
from engine.messages import (
    AMOUNT_PARAMS,
    MESSAGES_EN,
    NAMES_EN,
    RELIC_DIE,
    VARIANT_PARAMS,
    Plural,
    Source,
    fill,
    render,
    shown_params,
)
from engine.notation import parse
from engine.rule import AnyRule
from engine.rulebook import RULEBOOK
from engine.rules import apply, apply_in_place, check, refusal
from engine.scoring import Outcome, ScoreParts, outcome, places, score_parts, victory_points
from engine.serialize import dumps, loads
from engine.setup import deck_for_reveal, new_game
from engine.state import (
    CHANCE,
    Event,
    FirstPlayerDecision,
    GameState,
    PlaceColonyDecision,
    PlasmaDecision,
    RaidDecision,
    ReturnExcessDecision,
    RevealDecision,
    RollDecision,
    Ship,
)
from engine.tables import (
    ARTIFACT_CLAIM_TOTAL,
    CARD_INDEX,
    CARDS,
    DIE_FACES,
    FACILITIES,
    FACILITY_ORDER,
    FIELD_OF_CARD,
    FIELDS,
    HAND_LIMIT,
    HUB_DOCKS,
    HUB_TRACK_LENGTH,
    MIN_COLOUR_SHIPS,
    PLAYER_COLOURS,
    RAID_STEAL_LIMIT,
    SHARED_FACILITIES,
    SHIPS_PER_COLOUR,
    TERRITORIES,
    CardId,
    FacilityId,
    FieldId,
    TerritoryId,
)
from engine.tech.card import card_vp, works_by_holding
from engine.tech.common import fuel_cost
from engine.territories import has_bonus
from engine.views import GameView, PlayerView, TerritoryView, view

__all__ = [
    "AMOUNT_PARAMS",
    "ARTIFACT_CLAIM_TOTAL",
    "CARDS",
    "CARD_INDEX",
    "CHANCE",
    "DIE_FACES",
    "FACILITIES",
    "FACILITY_ORDER",
    "FIELDS",
    "FIELD_OF_CARD",
    "HAND_LIMIT",
    "HUB_DOCKS",
    "HUB_TRACK_LENGTH",
    "MESSAGES_EN",
    "MIN_COLOUR_SHIPS",
    "NAMES_EN",
    "PLAYER_COLOURS",
    "RAID_STEAL_LIMIT",
    "RELIC_DIE",
    "RULEBOOK",
    "SHARED_FACILITIES",
    "SHIPS_PER_COLOUR",
    "TERRITORIES",
    "VARIANT_PARAMS",
    "Action",
    "AnyRule",
    "Boost",
    "BuyRelic",
    "CardId",
    "Claim",
    "Crystal",
    "Cycle",
    "Die",
    "DiscardBooster",
    "DiscardField",
    "DiscardPlasma",
    "DiscardPolarity",
    "DiscardTeleporter",
    "DiscardWarper",
    "Dock",
    "Done",
    "EndTurn",
    "EngineError",
    "Event",
    "FacilityId",
    "FieldId",
    "FirstPlayer",
    "FirstPlayerDecision",
    "Game",
    "GameConfig",
    "GameState",
    "GameView",
    "Gravity",
    "Helm",
    "Hit",
    "IllegalActionError",
    "InvalidNotationError",
    "Launch",
    "OneShipAction",
    "Outcome",
    "Place",
    "PlaceColonyDecision",
    "Plasma",
    "PlasmaDecision",
    "PlayerView",
    "Plural",
    "Polarize",
    "RaidDecision",
    "Relocation",
    "ReturnExcess",
    "ReturnExcessDecision",
    "Reveal",
    "RevealDecision",
    "Roll",
    "RollDecision",
    "ScoreParts",
    "Ship",
    "Source",
    "Stasis",
    "StateLoadError",
    "StealCard",
    "StealResource",
    "Teleport",
    "TerritoryId",
    "TerritoryView",
    "Trade",
    "Warp",
    "apply",
    "apply_in_place",
    "card_vp",
    "chance_outcomes",
    "check",
    "constructor_cost",
    "deck_for_reveal",
    "dock_options",
    "docked_ships",
    "dumps",
    "fill",
    "fuel_cost",
    "has_bonus",
    "legal_actions",
    "loads",
    "market_rate",
    "mine_minimum",
    "new_game",
    "outcome",
    "parse",
    "places",
    "refusal",
    "render",
    "sample_chance",
    "score_parts",
    "ship_cost",
    "shown_params",
    "victory_points",
    "view",
    "with_docks_emptied",
    "works_by_holding",
]

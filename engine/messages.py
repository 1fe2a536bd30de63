"""The English source of every player-facing text of the engine.

Refusals and events carry a key and parameters; ``render`` turns them into English
words. Parameters named after things of the game (facility, territory, card, field,
resource, source, target) are shown by their names, and seats as "P2".

These dictionaries are the source texts of the translations: the bot's gettext
catalogues (``bot/text/locales/*.po``, see ``bot.text.i18n``) are made from them, with the
key as the message context. A text that counts something is a ``Plural``: its
English singular and plural, and the parameter holding the number, so each
language picks its CLDR plural form (1 корабль, 2 корабля, 5 кораблей).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from gettext import NullTranslations
from typing import Final, NamedTuple


class Plural(NamedTuple):
    """A text with plural forms: English singular, English plural, the counting parameter."""

    one: str
    other: str
    n: str


Source = str | Plural

NAMES_EN: Final[dict[str, str]] = {
    # facilities
    "solar": "Solar Converter",
    "mine": "Lunar Mine",
    "market": "Orbital Market",
    "yard": "Shipyard",
    "constructor": "Colony Constructor",
    "hub": "Colony Hub",
    "terraform": "Terraforming Station",
    "artifact": "Alien Artifact",
    "raiders": "Raiders' Outpost",
    "bay": "Maintenance Bay",
    # territories
    "asimov": "Asimov Crater",
    "bradbury": "Bradbury Plateau",
    "burroughs": "Burroughs Desert",
    "heinlein": "Heinlein Plains",
    "herbert": "Herbert Valley",
    "lem": "Lem Badlands",
    "pohl": "Pohl Foothills",
    "vanvogt": "Van Vogt Mountains",
    # cards
    "booster": "Booster Pod",
    "crystal": "Data Crystal",
    "gravity": "Gravity Manipulator",
    "decoy": "Holographic Decoy",
    "teleporter": "Orbital Teleporter",
    "plasma": "Plasma Cannon",
    "polarity": "Polarity Device",
    "cache": "Resource Cache",
    "stasis": "Stasis Beam",
    "warper": "Temporal Warper",
    "city": "Alien City",
    "monument": "Alien Monument",
    "helm": "Mind Control Helm",
    # fields
    "isolation": "Isolation Field",
    "positron": "Positron Field",
    "repulsor": "Repulsor Field",
    # resources
    "fuel": "fuel",
    "ore": "ore",
}

MESSAGES_EN: Final[dict[str, Source]] = {
    # ---- refusals -----------------------------------------------------------------
    "game.over": "the game is over",
    "turn.not_yours": "it is not your turn: {player} must act",
    "turn.chance": "the dice or the deck must decide first",
    "turn.must_dock": "you must dock your ships while you can (for example `{example}`)",
    "decision.none": "there is no decision to answer now",
    "decision.reveal": "a card must be revealed from the deck first",
    "decision.first_player": "the first player must be chosen first",
    "decision.roll": "the ships must be rolled first",
    "decision.place": "first choose the territory for your colony (`place <territory>`)",
    "decision.raid": "first choose what to steal (`steal fuel p2`, `steal card <card> p2`, `done`)",
    "decision.plasma": "first choose another ship to hit (`hit p2:4`) or `done`",
    "decision.return": "first choose what to return to the supply (`return 1 fuel 1 ore`)",
    "action.unknown": "that is not an action of this game",
    "action.not_legal": "`{action}` is not allowed now",
    "chance.roll_count": "the roll must have {dice} coloured dice and {relic} relic die",
    "chance.card_not_in_deck": "no {card} is left in the deck",
    "chance.seat": "there is no such seat",
    "ship.not_yours": "you have no undocked ships {dice}; your undocked ships are {ships}",
    "ship.not_undocked": "you have no undocked ship {value}",
    "ship.value_range": "a ship's value must stay between 1 and 6",
    "dock.full": "the {facility} has no free docks for them",
    "solar.pattern": "dock one ship at a time at the {facility}",
    "mine.pattern": "dock one ship at a time at the {facility}",
    "artifact.pattern": "dock one ship at a time at the {facility}",
    "terraform.pattern": "the {facility} takes one ship",
    "market.pattern": "the {facility} needs a pair of equal values",
    "yard.pattern": "the {facility} needs a pair of equal values",
    "constructor.pattern": "the {facility} needs three equal values",
    "raiders.pattern": "the {facility} needs three consecutive values (like 2-3-4)",
    "hub.pattern": "dock one to three ships at the {facility}",
    "mine.too_low": "the Lunar Mine needs a ship of {minimum} or more; your ships are {ships}",
    "market.no_pair": "you have no pair docked at the Orbital Market this turn",
    "market.no_fuel": Plural(
        "trading costs {rate} fuel per ore; you have {fuel}",
        "trading costs {rate} fuel per ore; you have {fuel}",
        "rate",
    ),
    "supply.no_ore": "the supply has no ore left",
    "yard.no_stock": "your ship stock is empty",
    "yard.cost": "your next ship costs {fuel} fuel and {ore} ore",
    "constructor.cost": Plural(
        "the Colony Constructor costs {ore} ore", "the Colony Constructor costs {ore} ore", "ore"
    ),
    "colony.none_left": "you have no colony left to place",
    "terraform.needs_six": "the Terraforming Station needs a 6, not a {value}",
    "terraform.not_own": "only your own ship may be used up at the Terraforming Station",
    "terraform.min_ships": Plural(
        "that would leave you fewer than {minimum} ship of your colour",
        "that would leave you fewer than {minimum} ships of your colour",
        "minimum",
    ),
    "terraform.cost": "the Terraforming Station costs 1 fuel and 1 ore",
    "artifact.no_cycle": "dock a ship at the Alien Artifact to cycle the cards",
    "artifact.no_cards": "there are no cards left to lay out",
    "artifact.total": "your ships at the Alien Artifact total {total} since your last claim; "
    "you need {needed}",
    "artifact.not_displayed": "{card} is not on display",
    "card.already_owned": "you already own {card}",
    "raiders.sum": "the Raiders' Outpost is held by ships totalling {sum}; you need a run "
    "totalling more",
    "raid.victim": "steal from an opponent",
    "raid.limit": Plural(
        "you may steal at most {limit} resource", "you may steal at most {limit} resources", "limit"
    ),
    "raid.decoy": "{victim}'s Holographic Decoy protects their resources",
    "raid.nothing": "{victim} has no {resource}",
    # Variants by resource (``bot.text.strings.text`` picks ``<key>.<resource>`` when there is
    # one): languages that decline "fuel" and "ore" need a sentence for each.
    "raid.nothing.fuel": "{victim} has no fuel",
    "raid.nothing.ore": "{victim} has no ore",
    "raid.mixed": "you already chose to steal resources",
    "raid.no_card": "{victim} has no {card}",
    "raid.decoy_card": "{victim} has a Holographic Decoy: you may only take the Decoy",
    "hub.full": Plural(
        "your Colony Hub track has {free} free dock",
        "your Colony Hub track has {free} free docks",
        "free",
    ),
    "hub.launch_first": "your colony is on space 7: launch it before docking here again",
    "hub.not_ready": "your colony must be on space 7 to launch (it is on {space})",
    "hub.no_colony": "you have no colony on your Colony Hub track",
    "hub.launch_cost": "launching costs 1 fuel and 1 ore",
    "card.not_owned": "you do not have {card}",
    "card.used": "you already used {card} this turn",
    "card.fuel": Plural(
        "{card} costs {cost} fuel; you have {fuel}",
        "{card} costs {cost} fuel; you have {fuel}",
        "cost",
    ),
    "card.no_discard": "{card} has no discard power",
    "card.one_discard": "you may discard only one card per turn",
    "gravity.two_ships": "the Gravity Manipulator needs two different undocked ships",
    "warp.none": "choose at least one ship to reroll",
    "warp.not_in_discard": "{card} is not in the discard pile",
    "crystal.burroughs": "the Data Crystal cannot borrow Burroughs Desert's bonus",
    "crystal.empty": "{territory} has no colonies",
    "crystal.isolated": "{territory} is under the Isolation Field",
    "crystal.already": "you already have the bonus of {territory}",
    "move.from_terraform": "a ship on the Terraforming Station cannot be moved",
    "helm.to_terraform": "the Mind Control Helm cannot move a ship to the Terraforming Station",
    "move.same_facility": "the ship must go to another facility",
    "helm.not_opponent": "the Mind Control Helm moves an opponent's ship",
    "move.not_docked": "there is no such ship at the {facility}",
    "plasma.target": "there is no such opponent's ship at the {facility}",
    "plasma.min_ships": Plural(
        "{player} would have fewer than {minimum} ship of their colour",
        "{player} would have fewer than {minimum} ships of their colour",
        "minimum",
    ),
    "colony.owner": "there is no such player",
    "colony.same_territory": "choose two different territories",
    "colony.absent": "{player} has no colony on {territory}",
    "colony.repulsor": "the Repulsor Field on {territory} lets no colony come or go",
    "polarity.same_colour": "swap colonies of two different players",
    "field.card": "{card} places no field generator",
    "field.same_territory": "the {field} is already on {territory}",
    "field.not_placed": "the {field} is not on the board",
    "relic.not_controller": "you must control Burroughs Desert to buy the relic ship",
    "relic.isolated": "the Isolation Field on Burroughs Desert voids its bonus",
    "relic.not_on_desert": "the relic ship is not on Burroughs Desert",
    "relic.cost": "the relic ship costs 1 fuel and 1 ore",
    "undo.not_allowed": "nothing to undo: only your last action this turn, before any roll or "
    "revealed card, can be taken back",
    "state.invalid": "the saved game is not valid: {details}",
    "return.amount": Plural(
        "return exactly {excess} resource", "return exactly {excess} resources", "excess"
    ),
    "return.more_than_held": "you have {fuel} fuel and {ore} ore",
    # ---- notation -------------------------------------------------------------------
    "notation.empty": "type an action, for example `dock solar 3` or `end`",
    "notation.not_text": "an action is text, for example `dock solar 3` or `end`",
    "notation.unknown_verb": "unknown action `{word}`; expected one of: {expected}",
    "notation.expected": "after `{after}` expected {expected}, got `{got}`",
    "notation.trailing": "unexpected `{got}` at the end of `{text}`",
    # ---- events -----------------------------------------------------------------------
    "revealed": "{card} is revealed",
    "dealt": "{player} is dealt {card}",
    "reshuffled": "the discard pile is shuffled into a new deck",
    "first_player": "{player} goes first",
    "compensation": "{player} starts with {fuel} fuel and {ore} ore",
    # Variants by resource for when the other amount is 0 (``bot.text.strings.text`` picks
    # ``<key>.fuel`` when ``ore`` is 0, see ``AMOUNT_PARAMS``): "1 fuel", never "1 fuel and
    # 0 ore".
    "compensation.fuel": Plural(
        "{player} starts with {fuel} fuel", "{player} starts with {fuel} fuel", "fuel"
    ),
    "compensation.ore": Plural(
        "{player} starts with {ore} ore", "{player} starts with {ore} ore", "ore"
    ),
    "turn_started": "{player}'s turn (round {round})",
    "turn_ended": "{player} ends the turn",
    "rolled": "{player} rolls {values}",
    "rerolled": "{player} rerolls: {values}",
    "docked": "{player} docks {values} at the {facility}",
    "gained_fuel": Plural("{player} gains {amount} fuel", "{player} gains {amount} fuel", "amount"),
    "gained_ore": Plural("{player} gains {amount} ore", "{player} gains {amount} ore", "amount"),
    "hub_advanced": "{player}'s colony moves to space {space} of the Colony Hub",
    "to_bay": Plural(
        "{player} sends {count} ship to the Maintenance Bay",
        "{player} sends {count} ships to the Maintenance Bay",
        "count",
    ),
    "ship_used_up": "{player}'s ship on the Terraforming Station is used up",
    "traded": Plural(
        "{player} trades {fuel} fuel for 1 ore", "{player} trades {fuel} fuel for 1 ore", "fuel"
    ),
    "ship_built": "{player} builds a ship ({number} in play)",
    "cycled": "{player} cycles the alien tech display",
    "claimed": "{player} claims {card}",
    "displaced": "{player}'s {value} is driven from the Raiders' Outpost",
    "stole_resource": "{player} steals 1 {resource} from {victim}",
    "stole_resource.fuel": "{player} steals 1 fuel from {victim}",
    "stole_resource.ore": "{player} steals 1 ore from {victim}",
    "stole_card": "{player} steals {card} from {victim}",
    "stole_card_discarded": "{player} steals {card} from {victim} and discards it (already owned)",
    "stopped": "{player} is done",
    "launched": "{player} launches a colony from the Colony Hub",
    "colony_placed": "{player} places a colony on {territory}",
    "control_gained": "{player} takes control of {territory}",
    "control_lost": "{player} loses control of {territory}",
    "relic_returns": "the relic ship returns to Burroughs Desert",
    "relic_bought": "{player} buys the relic ship",
    "card_used": Plural(
        "{player} uses {card} ({fuel} fuel)", "{player} uses {card} ({fuel} fuel)", "fuel"
    ),
    "card_discarded": "{player} discards {card}",
    "ship_changed": "{player} turns a {old} into a {new}",
    "took_from_discard": "{player} takes {card} from the discard pile",
    "bonus_borrowed": "{player} uses the bonus of {territory} this turn",
    "cache_paid": "{player}'s Resource Cache pays {fuel} fuel and {ore} ore",
    "cache_paid.fuel": Plural(
        "{player}'s Resource Cache pays {fuel} fuel",
        "{player}'s Resource Cache pays {fuel} fuel",
        "fuel",
    ),
    "cache_paid.ore": Plural(
        "{player}'s Resource Cache pays {ore} ore",
        "{player}'s Resource Cache pays {ore} ore",
        "ore",
    ),
    "cache_spent": "{player}'s Resource Cache is discarded",
    "ship_moved": "{player} moves a {value} from the {source} to the {target}",
    "opponent_ship_moved": "{player} moves {owner}'s {value} from the {source} to the {target}",
    "ship_removed": "{player}'s {value} is blasted from the {facility}",
    "ship_destroyed": "{player}'s {value} at the {facility} goes back to the stock",
    "colony_moved": "{player} moves {owner}'s colony from {source} to {target}",
    "colonies_swapped": "{player} swaps {owner_a}'s colony on {territory_a} with "
    "{owner_b}'s on {territory_b}",
    "field_placed": "{player} puts the {field} on {territory}",
    "field_removed": "{player} removes the {field}",
    "returned": "{player} returns {fuel} fuel and {ore} ore to the supply",
    "returned.fuel": Plural(
        "{player} returns {fuel} fuel to the supply",
        "{player} returns {fuel} fuel to the supply",
        "fuel",
    ),
    "returned.ore": Plural(
        "{player} returns {ore} ore to the supply",
        "{player} returns {ore} ore to the supply",
        "ore",
    ),
    "game_over": "{player} placed their last colony: the game is over",
}

NAME_PARAMS: Final = frozenset(
    {
        "facility",
        "territory",
        "territory_a",
        "territory_b",
        "card",
        "field",
        "resource",
        "source",
        "target",
    }
)
SEAT_PARAMS: Final = frozenset({"player", "victim", "owner", "owner_a", "owner_b"})
# Dice in the notation ("1 1 2r 3": ``r`` marks the relic ship's die), shown in words.
DICE_PARAMS: Final = frozenset({"values"})
# Parameters whose value picks a variant of a text (``<key>.<value>``), when it has one.
VARIANT_PARAMS: Final = ("resource",)
# Amounts of each resource: when all but one of them are 0, a text that has a variant
# named after that one (``returned.fuel``) says it alone, not "2 fuel and 0 ore".
AMOUNT_PARAMS: Final = ("fuel", "ore")
RELIC_DIE: Final = "{value} (relic)"  # the English of ``die.relic``
_ENGLISH: Final = NullTranslations()  # gettext's rule for the source language


def name(thing: str) -> str:
    """The English name of a facility, territory, card, field or resource id."""
    return NAMES_EN.get(thing, thing)


def relic_die(value: str) -> str:
    """The English of the relic ship's die of ``value``."""
    return RELIC_DIE.format(value=value)


def dice_shown(values: str, relic: Callable[[str], str] = relic_die) -> str:
    """Dice in the notation ("1 2r 3") as people read them: the relic die in words."""
    return " ".join(relic(v[:-1]) if v.endswith("r") else v for v in values.split())


def shown_params(
    params: Mapping[str, object] | None,
    name_of: Callable[[str], str] = name,
    seat_names: Sequence[str] | None = None,
    relic: Callable[[str], str] = relic_die,
) -> dict[str, object]:
    """Parameters ready to format: ids of things as their names, 0-based seats as names or
    "P2", dice with the relic die in words (``relic``); ``player`` is always present (some
    texts have none)."""
    shown: dict[str, object] = {}
    for k, v in (params or {}).items():
        if k in NAME_PARAMS and isinstance(v, str):
            shown[k] = name_of(v)
        elif k in SEAT_PARAMS and isinstance(v, int) and not isinstance(v, bool):
            shown[k] = seat_names[v] if seat_names and 0 <= v < len(seat_names) else f"P{v + 1}"
        elif k in DICE_PARAMS and isinstance(v, str):
            shown[k] = dice_shown(v, relic)
        else:
            shown[k] = v
    shown.setdefault("player", "")
    return shown


def fill(template: str, params: Mapping[str, object]) -> str:
    """``template`` with its ``{name}`` fields filled (left as they are if one is missing)."""
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return template


def count_of(source: Plural, params: Mapping[str, object]) -> int:
    """The number a plural text counts (0 when the parameter is missing)."""
    value = params.get(source.n, 0)
    return value if isinstance(value, int) else 0


def render(
    key: str,
    params: Mapping[str, object] | None = None,
    seat_names: Sequence[str] | None = None,
) -> str:
    """The English text of a message key (the key itself if unknown)."""
    source = MESSAGES_EN.get(key, key)
    shown = shown_params(params, name, seat_names)
    if isinstance(source, Plural):
        template = _ENGLISH.ngettext(source.one, source.other, count_of(source, shown))
    else:
        template = source
    return fill(template, shown)

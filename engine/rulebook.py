"""The rulebook: the rule of every type of action, each declared once where it belongs (a
facility, a card, the turn, the setup), listed here in the order ``legal_actions`` lists
their actions. ``engine.legal`` and the doors in ``engine.rules`` are generic over it;
``engine.notation`` reads the verbs from it.

A rule answers in a *context*: ``None`` (a free action of the current player) or the type
of the pending decision it answers. Several rules may share an action type in one
context (the three cards that place a field generator all discard with
``discard <card> <territory>``): ``Rule.claims`` says whose the action is.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from engine.actions import Action
from engine.docking import DOCK
from engine.facilities import alien_artifact, colonies, colony_hub, orbital_market
from engine.facilities import raiders_outpost as raiders
from engine.relic_ship import BUY_RELIC
from engine.rule import AnyRule, ChanceRule, Power, Rule
from engine.setup import FIRST_PLAYER, REVEAL
from engine.state import Decision
from engine.tables import CARD_INDEX, CARDS, CardId
from engine.tech import (
    alien_city,
    alien_monument,
    booster_pod,
    data_crystal,
    gravity_manipulator,
    holographic_decoy,
    mind_control_helm,
    orbital_teleporter,
    plasma_cannon,
    polarity_device,
    resource_cache,
    stasis_beam,
    temporal_warper,
)
from engine.tech.card import CATALOGUE, Card
from engine.tokens import CARD_ALIASES, alias_keys
from engine.turn import END_TURN, RETURN, ROLL

Context = type[Decision] | None
# A rule legal_actions asks for its options, and whether it reads what was listed before
# it (``options_after`` is called only for those).
Lister = tuple[AnyRule, bool]
# What a card's powers need before they look (R-TECH-2): the cards the player holds, those
# used or discarded this turn, and whether a card was discarded this turn.
Hand = tuple[tuple[CardId, ...], tuple[CardId, ...], bool]


class Rulebook:
    """Rules by context, in listing order, with the lookups the doors and the notation use."""

    def __init__(self, rules: Iterable[AnyRule]) -> None:
        self._listing: dict[Context, list[AnyRule]] = {}
        self._by_type: dict[Context, dict[type[Action], list[AnyRule]]] = {}
        self._verbs: dict[str, AnyRule] | None = None
        self._powers: dict[tuple[Power, CardId], AnyRule] | None = None
        self._listers: dict[Context, list[Lister]] = {}
        self._turn_listers: dict[Hand, list[Lister]] = {}
        self._chance: set[type[Action]] | None = None
        self._discards: frozenset[type[Action]] | None = None
        self._tuners: frozenset[type[Action]] | None = None
        # Action types whose rules have one kind in every context (labels ask per action).
        self._kinds: dict[type[Action], str] = {}
        # For each context, the action types with one rule there (the fast lookup).
        self.sole: dict[Context, dict[type[Action], AnyRule]] = {}
        for rule in rules:
            self.add(rule)

    def add(self, rule: AnyRule, before: AnyRule | None = None) -> None:
        """List a rule (last, or just before ``before``)."""
        listing = self._listing.setdefault(rule.answers, [])
        if rule in listing:
            raise ValueError(f"{rule!r} is in the rulebook already")
        listing.insert(listing.index(before) if before is not None else len(listing), rule)
        self._by_type.setdefault(rule.answers, {}).setdefault(rule.action, []).append(rule)
        self._changed(rule.answers)

    def remove(self, rule: AnyRule) -> None:
        self._listing[rule.answers].remove(rule)
        shared = self._by_type[rule.answers][rule.action]
        shared.remove(rule)
        if not shared:
            del self._by_type[rule.answers][rule.action]
        self._changed(rule.answers)

    def _changed(self, context: Context) -> None:
        self._verbs = self._powers = self._chance = self._discards = self._tuners = None
        self._kinds.clear()
        self._listers.clear()
        self._turn_listers.clear()
        sole = self.sole.setdefault(context, {})
        sole.clear()  # the same dict: the doors hold it
        sole.update({t: rules[0] for t, rules in self._by_type[context].items() if len(rules) == 1})

    def listing(self, context: Context) -> list[AnyRule]:
        """The rules of a context in the order their actions are listed."""
        return self._listing.get(context, [])

    def listers(self, context: Context) -> list[Lister]:
        """For legal_actions, the listing of a context with whether each rule reads what
        was listed before it."""
        found = self._listers.get(context)
        if found is None:
            found = self._listers[context] = [
                (rule, type(rule).options_after is not Rule.options_after)
                for rule in self.listing(context)
            ]
        return found

    def turn_listers(self, hand: Hand) -> list[Lister]:
        """The free turn's listers that may list anything for a player with this hand:
        a card's powers need the card, not used this turn, and a discard power needs no
        discard yet this turn (R-TECH-2: their refusals say so)."""
        found = self._turn_listers.get(hand)
        if found is None:
            if len(self._turn_listers) >= 4096:  # the hands seen by a long-lived process
                self._turn_listers.clear()
            cards, used, discarded = hand
            found = self._turn_listers[hand] = [
                (rule, reads)
                for rule, reads in self.listers(None)
                if rule.card is None
                or (
                    rule.card in cards
                    and rule.card not in used
                    and not (discarded and rule.power == "discard")
                )
            ]
        return found

    def rules(self) -> list[AnyRule]:
        """Every rule: free actions first, then answers to decisions."""
        return [r for rules in self._listing.values() for r in rules]

    def of_type(self, context: Context, action: type[Action]) -> list[AnyRule] | None:
        """The rules of an action type in a context (None: the type means nothing there)."""
        by_type = self._by_type.get(context)
        return None if by_type is None else by_type.get(action)

    def rule_of(self, a: Action, context: Context = None) -> AnyRule | None:
        """The rule of an action in a context (whose ``kind`` and ``group`` describe it)."""
        shared = self.of_type(context, type(a))
        if not shared:
            return None
        if len(shared) > 1:
            for rule in shared:
                if rule.claims(a):
                    return rule
        return shared[0]

    def kind_of(self, a: Action) -> str | None:
        """The kind of an action's rule wherever it is taken (an action type keeps its kind
        in every context), None if no rule reads it."""
        kind = self._kinds.get(type(a))
        if kind is not None:
            return kind
        kinds = {r.kind for by_type in self._by_type.values() for r in by_type.get(type(a), ())}
        if len(kinds) == 1:
            kind = self._kinds[type(a)] = kinds.pop()
            return kind
        for context in self._by_type:
            rule = self.rule_of(a, context)
            if rule is not None:
                return rule.kind
        return None

    def answers(self, action: type[Action]) -> bool:
        """Whether the action type answers some decision."""
        return any(action in by_type for c, by_type in self._by_type.items() if c is not None)

    def chance(self, context: Context) -> ChanceRule[Decision, Action] | None:
        """The rule of a chance decision (None for a decision a seat takes)."""
        for rule in self.listing(context):
            if isinstance(rule, ChanceRule):
                return rule
        return None

    def is_chance(self, action: Action) -> bool:
        """Whether the action is a chance outcome (a roll, a card revealed, a first player)."""
        if self._chance is None:
            self._chance = {r.action for r in self.rules() if isinstance(r, ChanceRule)}
        return type(action) in self._chance

    def discards(self) -> frozenset[type[Action]]:
        """The action types of the cards' discard powers."""
        if self._discards is None:
            self._discards = frozenset(r.action for r in self.rules() if r.power == "discard")
        return self._discards

    def tuners(self) -> frozenset[type[Action]]:
        """The action types that change the value of undocked ships (``Rule.tunes_ships``)."""
        if self._tuners is None:
            self._tuners = frozenset(r.action for r in self.rules() if r.tunes_ships)
        return self._tuners

    def verbs(self) -> dict[str, AnyRule]:
        """Notation: each verb (a word or two) and the rule that reads what follows it."""
        if self._verbs is None:
            self._verbs = {}
            for rule in self.rules():
                for verb in rule.verbs:
                    self._verbs.setdefault(verb, rule)
        return self._verbs

    def powers(self) -> dict[tuple[Power, CardId], AnyRule]:
        """Notation: ``use <card>`` and ``discard <card>``, the card's power that reads the rest."""
        if self._powers is None:
            self._powers = {
                (r.power, r.card): r
                for r in self.rules()
                if r.card is not None and r.power is not None
            }
        return self._powers


RULEBOOK: Final = Rulebook(
    [
        # The turn: free actions of the current player (R-TURN-3), in the order listed.
        DOCK,
        orbital_market.TRADE,
        colony_hub.LAUNCH,
        BUY_RELIC,
        alien_artifact.CYCLE,
        alien_artifact.CLAIM,
        # fuel powers
        booster_pod.USE,
        stasis_beam.USE,
        polarity_device.USE,
        gravity_manipulator.USE,
        temporal_warper.USE,
        data_crystal.USE,
        orbital_teleporter.USE,
        mind_control_helm.USE,
        plasma_cannon.USE,
        # discard powers
        stasis_beam.DISCARD,
        data_crystal.DISCARD,
        gravity_manipulator.DISCARD,
        booster_pod.DISCARD,
        orbital_teleporter.DISCARD,
        polarity_device.DISCARD,
        plasma_cannon.DISCARD,
        temporal_warper.DISCARD,
        END_TURN,  # R-TURN-4: listed only when no ship can dock
        # Answers to the decisions players take.
        colonies.PLACE,
        raiders.STEAL_RESOURCE,
        raiders.STEAL_CARD,
        raiders.STOP_RAID,
        plasma_cannon.HIT,
        plasma_cannon.STOP_FIRING,
        RETURN,
        # Chance: outcomes the driver samples (engine.chance).
        REVEAL,
        FIRST_PLAYER,
        ROLL,
    ]
)


def register_card(card: Card) -> None:
    """Add an alien tech card to the game: to the catalogue (its copies join new decks),
    and its powers to the rulebook, listed before ending the turn. The built-in cards are
    registered below; a new card needs only its module and this call."""
    if card.id in CATALOGUE:
        raise ValueError(f"{card.id} is a card already")
    if card.id not in CARDS:
        CARDS.append(card.id)
        CARD_INDEX[card.id] = len(CARDS) - 1
    CATALOGUE[card.id] = card
    CARD_ALIASES.update(alias_keys(card.id, card.names))
    for power in card.powers():
        if power not in RULEBOOK.listing(None):
            RULEBOOK.add(power, before=END_TURN)


def unregister_card(card: Card) -> None:
    """Take a card registered with ``register_card`` out of the game again (tests)."""
    for power in card.powers():
        RULEBOOK.remove(power)
    del CATALOGUE[card.id]
    for name, canonical in list(CARD_ALIASES.items()):
        if canonical == card.id:
            del CARD_ALIASES[name]
    if CARDS[-1] == card.id:
        CARDS.pop()
        del CARD_INDEX[card.id]


# The cards of the game, in the order of engine.tables.CARDS (their powers are listed in
# the rulebook above, in the order legal_actions has always listed them).
for _card in (
    booster_pod.CARD,
    data_crystal.CARD,
    gravity_manipulator.CARD,
    holographic_decoy.CARD,
    orbital_teleporter.CARD,
    plasma_cannon.CARD,
    polarity_device.CARD,
    resource_cache.CARD,
    stasis_beam.CARD,
    temporal_warper.CARD,
    alien_city.CARD,
    alien_monument.CARD,
    mind_control_helm.CARD,
):
    register_card(_card)
assert list(CATALOGUE) == CARDS, "the catalogue lists every card of engine.tables.CARDS"

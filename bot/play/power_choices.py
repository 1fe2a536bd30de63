"""The cards and other powers menu's choices: trading, launching, the relic ship, the
display, then each card's powers (a long list of one card's options asked in two steps)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from itertools import groupby
from typing import Any

from bot.play.choice_grouping import (
    FINISHED,
    Kinds,
    action_leaf,
    applied,
    by_kind,
    fields_of,
    group_nodes,
    sequences_of,
)
from bot.play.choice_tree import MAX_OPTIONS, Leaf, Node
from bot.text.choice_words import Words, amount_text, said_in
from bot.text.labels import kind_of
from bot.text.limits import LABEL_LIMIT
from bot.text.strings import text
from engine import (
    FACILITY_ORDER,
    RULEBOOK,
    TERRITORIES,
    Action,
    AnyRule,
    Die,
    DiscardPlasma,
    DiscardPolarity,
    DiscardTeleporter,
    Done,
    GameState,
    Gravity,
    Helm,
    Plasma,
    Relocation,
    ReturnExcess,
    ReturnExcessDecision,
    Ship,
    Teleport,
    Warp,
    legal_actions,
)


def power_branches(state: GameState, kinds: Kinds, words: Words) -> list[Node]:
    """Trading, launching, the relic ship, the display, then each card's powers."""
    seat = state.current
    out: list[Node] = []
    if "trade" in kinds:

        def step(s: GameState) -> list[Action]:
            if s.pending or s.current != seat or s.over:
                return []
            return [a for a in legal_actions(s) if kind_of(a) == "trade"]

        rate = words.rate or 0
        leaves: list[Node] = []
        for seq in sequences_of(state, step, key=lambda a: ()):
            label = _trade(words, rate * len(seq), len(seq))
            leaves.append(Leaf(label, label, tuple(str(a) for a in seq), group="trade"))
        market = words.n("market")
        out.append(group_nodes(market, market, leaves, locale=words.locale))
    for launch_action in kinds.get("launch", ()):  # the colony and, in the same pick, where
        launch = action_leaf(launch_action, words)
        places: list[Node] = [launch]
        for a in kinds_after(state, launch_action).get("place", ()):
            label = said_in("choice.launch_to", words.locale, fields_of(a), [])
            places.append(Leaf(label, label, (*launch.moves, str(a)), 1, launch.group))
        out.append(group_nodes(launch.label, launch.label, places, locale=words.locale))
    for kind in ("buy_relic", "cycle"):
        out += [action_leaf(a, words) for a in kinds.get(kind, ())]
    for end in kinds.get("end", ()):  # ending above 8 resources: end and return in one pick
        after = applied(state, [end])
        if after.pending and isinstance(after.pending[0], ReturnExcessDecision):
            leaves = []
            for r in legal_actions(after):
                assert isinstance(r, ReturnExcess)
                label = text("choice.end_return", words.locale, {"fuel": r.fuel, "ore": r.ore})
                leaves.append(Leaf(label, label, (str(end), str(r)), group="end"))
            title = text("choice.end_and_return", words.locale)
            out.append(group_nodes(title, title, leaves, locale=words.locale))
    claims = [action_leaf(a, words) for a in kinds.get("claim", ())]
    if claims:
        title = text("choice.claim", words.locale)
        out.append(group_nodes(title, title, claims, locale=words.locale))
    cards = [(rule, kinds[rule.kind]) for rule in _card_powers() if rule.kind in kinds]
    for rule, acts in cards:
        out.append(_card_branch(rule, acts, words, state))
    return out


def kinds_after(state: GameState, action: Action) -> Kinds:
    """The legal actions by kind once ``action`` is played."""
    return by_kind(legal_actions(applied(state, [action])))


def _card_powers() -> list[AnyRule]:
    """The rules of the cards' powers in the order the panel shows them: the fuel powers,
    then the discard powers, each in the order the rulebook lists the fuel powers."""
    free = RULEBOOK.listing(None)
    cards = [r.card for r in free if r.power == "fuel"]

    def place(rule: AnyRule) -> tuple[int, int]:
        at = cards.index(rule.card) if rule.card in cards else len(cards)
        return (0 if rule.power == "fuel" else 1, at)

    return sorted((r for r in free if r.card is not None), key=place)


def _card_branch(rule: AnyRule, acts: list[Action], words: Words, state: GameState) -> Node:
    """One card's power: its options, asked in two steps when there are more than 25."""
    verb = "choice.use" if rule.power == "fuel" else "choice.discard"
    title = text(verb, words.locale, {"card": words.n(str(rule.card))})
    pairs = [(a, leaf) for a in acts for leaf in _card_leaves(a, words, state)]
    split = _SPLITS.get(rule.kind)
    if split is None or len(pairs) <= MAX_OPTIONS:  # one step: each option says it all
        whole = [replace(leaf, short=leaf.label) for _, leaf in pairs]
        return group_nodes(title, title, whole, locale=words.locale)
    children: list[Node] = []
    pairs.sort(key=lambda x: _order(split(x[0])))
    for part, members in groupby(pairs, key=lambda x: split(x[0])):
        short = words.names.label(partial(_part_label, part, words))
        full = words.names.label(partial(_step_label, title, part, words))
        children.append(group_nodes(full, full, [m[1] for m in members], short, words.locale))
    return group_nodes(title, title, children, locale=words.locale)


def _card_leaves(a: Action, words: Words, state: GameState) -> list[Leaf]:
    """A card's option, and what often follows it in the same pick: cycling the display
    after moving a ship to the Alien Artifact; stopping after a Plasma Cannon's first hit."""
    leaf = action_leaf(a, words, state)
    out = [leaf]
    then: tuple[str, Action] | None = None
    if isinstance(a, Relocation) and a.target == "artifact":
        cycles = kinds_after(state, a).get("cycle")
        if cycles:
            then = ("choice.and_cycle", cycles[0])
    elif leaf.group in FINISHED and Done() in legal_actions(applied(state, (a,))):
        # (only while the shot leaves a choice: a last target or the last fuel ends it)
        then = ("choice.and_stop", Done())
    if then is not None:
        full = text(then[0], words.locale, {"label": leaf.label})
        short = text(then[0], words.locale, {"label": leaf.short})
        if len(full) <= LABEL_LIMIT:  # else the plain option alone (a long name in it)
            out.append(Leaf(full, short, (*leaf.moves, str(then[1])), 1, leaf.group))
    return out


def _order(part: tuple[object, ...]) -> tuple[str, ...]:
    return tuple(str(x) for x in part)


# How a long list of one card's options is asked in two steps: the part chosen first
# ("which ship", "which colony"), then the rest ("where").
def _split_helm(a: Helm) -> tuple[object, ...]:
    return ("ship", FACILITY_ORDER.index(a.source), a.source, a.ship)


def _split_teleport(a: Teleport) -> tuple[object, ...]:
    return ("die", FACILITY_ORDER.index(a.source), a.source, a.die)


def _split_gravity(a: Gravity) -> tuple[object, ...]:
    return ("down", a.down)


def _split_warp(a: Warp) -> tuple[object, ...]:
    return ("count", len(a.dice))


def _split_plasma(a: Plasma | DiscardPlasma) -> tuple[object, ...]:
    return ("at", FACILITY_ORDER.index(a.facility), a.facility)


def _split_move(a: DiscardTeleporter) -> tuple[object, ...]:
    return ("colony", TERRITORIES.index(a.source), a.owner, a.source)


def _split_swap(a: DiscardPolarity) -> tuple[object, ...]:
    return ("colony", TERRITORIES.index(a.territory_a), a.owner_a, a.territory_a)


_SPLITS: dict[str, Callable[[Any], tuple[object, ...]]] = {  # by kind
    "use_helm": _split_helm,
    "use_teleporter": _split_teleport,
    "use_gravity": _split_gravity,
    "use_warper": _split_warp,
    "use_plasma": _split_plasma,
    "discard_plasma": _split_plasma,
    "discard_teleporter": _split_move,
    "discard_polarity": _split_swap,
}


def _step_label(title: str, part: tuple[object, ...], words: Words, seats: list[str]) -> str:
    step = _part_label(part, words, seats)
    return text("choice.step", words.locale, {"title": title, "part": step})


def _part_label(part: tuple[object, ...], words: Words, seats: list[str]) -> str:
    """The label of the first step of a split (see ``_SPLITS``), with ``seats`` as names."""
    kind = part[0]
    loc = words.locale
    if kind == "ship":
        source, ship = part[2], part[3]
        assert isinstance(ship, Ship)
        params = {"ship": words.ship(ship, seats), "facility": words.n(str(source))}
        return text("choice.ship_at", loc, params)
    if kind == "die":
        source, die = part[2], part[3]
        assert isinstance(die, Die)
        return text("choice.die_at", loc, {"die": words.die(die), "facility": words.n(str(source))})
    if kind == "down":
        die = part[1]
        assert isinstance(die, Die)
        return text("choice.down", loc, {"die": words.die(die)})
    if kind == "count":
        return text("choice.reroll_count", loc, {"count": part[1]})
    if kind == "at":
        return text("choice.at", loc, {"facility": words.n(str(part[2]))})
    return text("choice.colony_on", loc, {"owner": part[2], "territory": part[3]}, seats)


def _trade(words: Words, fuel: int, ore: int) -> str:
    params = {"fuel": amount_text(words, "fuel", fuel), "ore": amount_text(words, "ore", ore)}
    return text("choice.trade", words.locale, params)

"""What the action panel offers: the legal actions as a tree of choices, in words.

The panel has three menus that keep their places (see ``bot.discord.panel``): docking, cards
and other powers, and the choice being made now (or, while nothing is to be chosen,
what the first two could not show). Each is the root of a small tree:

* a **leaf** is one pick. It applies one engine action or a short sequence of them
  (a *macro*): "Solar Converter: 1 + 2" docks two ships one after the other, "2 fuel +
  2 ore from Anna" takes four resources at the Raiders' Outpost. Macros are found by
  trying sequences with ``legal_actions`` and ``apply`` on copies of the state, so they
  follow the engine's rules without restating them; each of their actions is checked and
  committed again when it is played.
* a **branch** is asked in a second step ("Mind Control Helm: which ship?", then
  "where?") instead of pages of 25 options. A menu shows as many leaves as fit in
  Discord's 25 options, the rest behind the branch's entry.

Labels say first what tells the options apart and stay under Discord's 100 characters:
long member names are shortened (never the end of a label), and the names of two
members that look alike get their colour marker.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import partial
from itertools import groupby
from typing import Any

from bot.text.gains import description
from bot.text.labels import dice_text, die_text, kind_of, said, ship_text, wording
from bot.text.strings import text, thing_name
from engine import Action, GameState, apply_in_place, legal_actions, parse
from engine.actions import (
    Die,
    DiscardPlasma,
    DiscardPolarity,
    DiscardTeleporter,
    Dock,
    Done,
    Gravity,
    Helm,
    Plasma,
    Relocation,
    ReturnExcess,
    StealResource,
    Teleport,
    Warp,
)
from engine.docking import dock_options
from engine.rule import AnyRule
from engine.rulebook import RULEBOOK
from engine.state import (
    PlaceColonyDecision,
    PlasmaDecision,
    RaidDecision,
    ReturnExcessDecision,
    Ship,
)
from engine.tables import (
    FACILITIES,
    FACILITY_ORDER,
    PLAYER_COLOURS,
    RAID_STEAL_LIMIT,
    TERRITORIES,
    FacilityId,
)
from engine.view import GameView, view

MAX_OPTIONS = 25  # options in one Discord select menu
LABEL_LIMIT = 100  # characters of an option's label
VALUE_LIMIT = 100  # characters of an option's value
MAX_MOVES = 8  # engine actions one pick may apply
NAME_LENGTHS = (32, 20, 12, 7)  # member names are cut to these lengths, in turn, to fit
ROOTS = ("d", "c", "p", "o")  # docking, cards and powers, the choice now, what overflows
MOVE_SEPARATOR = ";"
# The tests set this to a list to see every label that needed the counter of ``distinct``.
REPEATS: list[str] | None = None


@dataclass(frozen=True, slots=True)
class Leaf:
    """One pick: the engine actions it applies, in order (notation)."""

    label: str  # read on its own, in any menu
    short: str  # read under its branch's prompt
    moves: tuple[str, ...]
    rank: int = 0  # shown before leaves of a higher rank when a menu cannot show them all
    # The kind of the pick (``engine.rule.Rule.kind`` of its first action): the section of
    # the panel it is offered in ("dock", "trade", "use_helm", "steal_card"...).
    group: str = ""

    @property
    def value(self) -> str:
        return MOVE_SEPARATOR.join(self.moves)


@dataclass(frozen=True, slots=True)
class Branch:
    """A choice asked in a step of its own: its entry opens it in the choice menu."""

    title: str  # read on its own ("Solar Converter")
    short: str  # read under its parent's prompt
    prompt: str  # the placeholder of the menu once opened
    children: tuple[Node, ...]
    rest: bool = False  # the rest of a branch of more than 25 ("Solar Converter: more")

    def leaves(self) -> int:
        return sum(1 if isinstance(c, Leaf) else c.leaves() for c in self.children)


Node = Leaf | Branch


@dataclass(frozen=True, slots=True)
class Entry:
    """One option of a menu: a pick (value: moves) or a step to open (value: ``@path``)."""

    label: str
    value: str
    description: str | None = None


@dataclass(frozen=True, slots=True)
class Choices:
    """The roots of the panel's menus, and whether the turn may end now.

    The docking and the cards menus show as many picks as fit; what does not fit goes to
    ``more``, shown in the choice menu while no decision waits there."""

    dock: Branch
    powers: Branch
    pending: Branch | None  # the engine's decision waiting for an answer
    can_end: bool
    more: Branch | None = None
    # What the picks yield (``yields``): worked out from this state, in these words.
    state: GameState | None = None
    names: tuple[str, ...] = ()
    locale: str = "en"
    _yields: dict[str, str | None] = field(default_factory=dict, compare=False, repr=False)
    _before: list[GameView] = field(default_factory=list, compare=False, repr=False)

    def yields(self, value: str) -> str | None:
        """What the pick of ``value`` (its moves) yields, in words within Discord's 100
        characters ("+2 fuel, now 3"; None for a step, or a pick that changes nothing
        countable): the option's description, for everyone."""
        if self.state is None or value.startswith("@"):
            return None
        if value not in self._yields:
            try:
                moves = [parse(m) for m in split_moves(value)]
            except ValueError:
                moves = []
            if not self._before:
                self._before.append(view(self.state))
            before = self._before[0]
            said = (
                description(self.state, moves, self.names, self.locale, before) if moves else None
            )
            self._yields[value] = said
        return self._yields[value]

    def root(self, key: str) -> Branch | None:
        return {"d": self.dock, "c": self.powers, "p": self.pending, "o": self.more}.get(key)

    def node(self, path: str) -> Branch | None:
        """The branch at ``path`` ("d", "c.3", "p.1.0"...), or None if there is none."""
        parts = path.split(".")
        node: Node | None = self.root(parts[0])
        for part in parts[1:]:
            if not isinstance(node, Branch) or not part.isdigit():
                return None
            index = int(part)
            if index >= len(node.children):
                return None
            node = node.children[index]
        return node if isinstance(node, Branch) else None


def valid_path(path: str) -> bool:
    root, *indices = path.split(".")
    return root in ROOTS and len(indices) <= 3 and all(i.isdigit() and len(i) <= 3 for i in indices)


def parent_path(path: str) -> str | None:
    """The path one step up, or None at a menu's root."""
    head, _, _ = path.rpartition(".")
    return head or None


def split_moves(value: str) -> list[str]:
    """The moves of a picked value (one, or a macro's several)."""
    return [m.strip() for m in value.split(MOVE_SEPARATOR) if m.strip()]


# ---- names in labels ------------------------------------------------------------------------


def _cut(name: str, length: int) -> str:
    name = " ".join(name.split())
    return name if len(name) <= length else name[: length - 1].rstrip() + "…"


class Names:
    """Members' names for labels, shortened when a label would be too long; two names that
    read the same get their colour marker so that no two options look alike."""

    def __init__(self, names: Sequence[str], players: int, locale: str) -> None:
        self.full = [
            names[i] if i < len(names) and names[i] else f"P{i + 1}" for i in range(players)
        ]
        self.locale = locale
        self._by_length = {n: self._distinct(n) for n in NAME_LENGTHS}

    def _distinct(self, length: int) -> list[str]:
        cut = [_cut(n, length) for n in self.full]
        folded = [c.casefold() for c in cut]
        return [
            f"{c} {text(f'colour.{PLAYER_COLOURS[i]}', self.locale)}"
            if folded.count(folded[i]) > 1
            else c
            for i, c in enumerate(cut)
        ]

    def at(self, length: int) -> list[str]:
        return self._by_length[length]

    def label(self, make: Callable[[list[str]], str]) -> str:
        """``make(names)`` with the longest names that keep it within ``LABEL_LIMIT``."""
        for length in NAME_LENGTHS:
            out = " ".join(make(self.at(length)).split())
            if len(out) <= LABEL_LIMIT:
                return out
        return out[: LABEL_LIMIT - 1] + "…"  # never reached by the catalogue's texts


# ---- words --------------------------------------------------------------------------------


def _said(key: str, locale: str, params: Mapping[str, object], seats: list[str]) -> str:
    return said(key, params, locale, seats)


class Words:
    """Labels of choices in one language, with member names shortened to fit."""

    def __init__(self, locale: str, names: Names, rate: int | None, seat: int = 0) -> None:
        self.locale = locale
        self.names = names
        self.rate = rate
        self.seat = seat  # the player choosing

    def t(self, key: str, params: dict[str, object] | None = None) -> str:
        params = dict(params or {})
        return self.names.label(lambda seats: text(key, self.locale, params, seats))

    def n(self, thing: str) -> str:
        return thing_name(thing, self.locale)

    def said(self, key: str, params: dict[str, object]) -> Callable[[list[str]], str]:
        """The text of ``key`` as a function of the names members are shown by."""
        return partial(_said, key, self.locale, params)

    def die(self, die: Die) -> str:
        return die_text(die, self.locale)

    def dice(self, dice: Iterable[Die], sep: str = " + ") -> str:
        return dice_text(dice, self.locale, sep)

    def ship(self, ship: Ship, seats: Sequence[str]) -> str:
        return ship_text(ship, seats, self.locale)


# ---- building the tree ----------------------------------------------------------------------


def choices(
    state: GameState,
    names: Sequence[str] = (),
    locale: str = "en",
    rate: int | None = None,
    actions: Iterable[Action] | None = None,
) -> Choices:
    """The choices of the player to act in ``state`` (a member's turn or decision), from its
    legal ``actions`` (worked out here unless given)."""
    words = Words(locale, Names(names, state.num_players, locale), rate, state.current)
    if actions is None:
        actions = legal_actions(state) if not state.over else []
    kinds = by_kind(actions)
    pending = None
    if state.pending:
        pending = _decision(state, kinds, words)
        kinds = {}
    dock = _root(text("panel.dock_prompt", locale), _docking(state, kinds, words), locale)
    powers = _root(text("panel.powers_prompt", locale), _powers(state, kinds, words), locale)
    rest = [*_overflow(dock), *_overflow(powers)]
    more = _root(text("panel.more_prompt", locale), rest, locale) if rest else None
    shown = tuple(words.names.at(NAME_LENGTHS[0]))
    return Choices(dock, powers, pending, "end" in kinds, more, state, shown, locale)


Kinds = dict[str, list[Action]]  # actions by the kind of their rule, in the order listed


def by_kind(actions: Iterable[Action]) -> Kinds:
    """The actions by the kind of their rule (``engine.rule.Rule.kind``): the panel's
    sections are made by kind, never by the actions' types."""
    out: Kinds = {}
    for a in actions:
        out.setdefault(kind_of(a) or "", []).append(a)
    return out


def _overflow(root: Branch) -> list[Node]:
    """What the menu of ``root`` cannot show (see ``menu(..., spill=True)``)."""
    out: list[Node] = []
    kids = root.children
    if len(kids) > MAX_OPTIONS:
        return []
    for kid, n in zip(kids, _layout(kids, "spill"), strict=True):
        if isinstance(kid, Branch) and n < len(kid.children):
            rest = kid.children[n:]
            out.append(
                rest[0] if len(rest) == 1 else Branch(kid.title, kid.short, kid.prompt, rest)
            )
    return out


def _root(prompt: str, children: Sequence[Node], locale: str) -> Branch:
    return Branch(prompt, prompt, prompt, _fit(children, prompt, prompt, locale))


def _group(
    title: str, prompt: str, children: Sequence[Node], short: str | None = None, locale: str = "en"
) -> Node:
    """A branch of ``children`` (a pick offered twice once: two alike ships give the engine
    two alike actions; a macro too long for a menu's value left out, its actions being
    picks of their own); a single child stands for itself."""
    seen: set[tuple[str, ...]] = set()
    unique: list[Node] = []
    for child in children:
        if isinstance(child, Leaf):
            if child.moves in seen or (len(child.moves) > 1 and len(child.value) > VALUE_LIMIT):
                continue
            seen.add(child.moves)
        unique.append(child)
    children = unique
    if len(children) == 1:  # the one child stands for itself: its label says it all
        only = children[0]
        if isinstance(only, Leaf):
            return replace(only, short=only.label)
        return Branch(only.title, only.title, only.prompt, only.children)
    kids = _fit(children, title, prompt, locale)
    return Branch(title, short if short is not None else title, prompt, kids)


def _fit(children: Sequence[Node], title: str, prompt: str, locale: str) -> tuple[Node, ...]:
    """At most 25 children: the first 24 (by rank) and a step with the rest, so that a
    menu never needs pages."""
    if len(children) <= MAX_OPTIONS:
        return tuple(children)
    rest = text("choice.rest", locale, {"label": title})
    more = Branch(
        rest, rest, prompt, _fit(children[MAX_OPTIONS - 1 :], title, prompt, locale), rest=True
    )
    return (*children[: MAX_OPTIONS - 1], more)


def _run(state: GameState, moves: Sequence[Action]) -> GameState:
    """A copy of ``state`` with ``moves`` applied (legal ones, found by ``legal_actions``)."""
    s = state.copy()
    for a in moves:
        apply_in_place(s, a)
    return s


def _finished(state: GameState, moves: tuple[Action, ...]) -> tuple[Action, ...]:
    """``moves`` and, when they leave a raid or a Plasma Cannon with nothing more to take
    or hit, the ``done`` that must follow them."""
    after = _run(state, moves)
    if after.pending and legal_actions(after) == [Done()]:
        return (*moves, Done())
    return moves


def _sequences(
    state: GameState,
    step: Callable[[GameState], list[Action]],
    key: Callable[[Action], tuple[object, ...]],
    limit: int = MAX_MOVES,
) -> list[tuple[Action, ...]]:
    """Sequences of actions taken one after another, each legal where it is taken (``step``
    lists those that may follow in a state), in a canonical order: ``key`` never decreases."""
    out: list[tuple[Action, ...]] = []

    def grow(s: GameState, seq: tuple[Action, ...]) -> None:
        if len(seq) >= limit:
            return
        for a in step(s):
            if seq and key(a) < key(seq[-1]):
                continue
            longer = (*seq, a)
            out.append(longer)
            nxt = s.copy()
            apply_in_place(nxt, a)
            grow(nxt, longer)

    grow(state, ())
    return out


# ---- docking --------------------------------------------------------------------------------


def _docking(state: GameState, kinds: Kinds, words: Words) -> list[Node]:
    """A branch per facility: each way of docking there, one ship group or several in a row."""
    seat = state.current
    out: list[Node] = []
    facilities = {a.facility for a in kinds.get("dock", ()) if isinstance(a, Dock)}
    for f in FACILITY_ORDER:
        if f not in facilities:
            continue

        def step(s: GameState, f: FacilityId = f) -> list[Action]:
            if s.pending or s.current != seat or s.over:
                return []
            return list(dock_options(s, seat, facilities=(f,)))

        found: dict[tuple[Die, ...], tuple[Action, ...]] = {}
        for seq in _sequences(state, step, key=_dice_of):
            ships = tuple(sorted(d for a in seq for d in _dice_of(a)))
            if ships not in found or len(seq) < len(found[ships]):
                found[ships] = seq
        facility = words.n(f)
        leaves: list[Leaf] = []
        for seq in sorted(found.values(), key=_dock_rank):
            if all(len(_dice_of(a)) == 1 for a in seq):  # one ship a dock: 1 + 2 + 5
                groups = words.dice(d for a in seq for d in _dice_of(a))
            else:  # pairs or triples: 3 + 3, 5 + 5
                groups = ", ".join(words.dice(_dice_of(a)) for a in seq)
            params: dict[str, object] = {"facility": facility, "dice": groups}
            label = text("choice.dock", words.locale, params)
            short = text("choice.dock_short", words.locale, params)
            params["locale"] = words.locale
            played = tuple(str(a) for a in seq)
            rank = _leaf_rank(f, seq)
            leaves.append(Leaf(label, short, played, rank, "dock"))
            follow = f == "artifact" or FACILITIES[f].group_size > 1 or f == "terraform"
            for then, key, extra in _follow_ups(_run(state, seq), f, words) if follow else ():
                full = words.names.label(partial(_then, f"choice.dock_then_{key}", params, extra))
                short = words.names.label(partial(_then, f"choice.then_{key}", params, extra))
                moves = (*played, *(str(a) for a in then))
                leaves.append(Leaf(full, short, moves, rank + (1 if key != "do" else 2), "dock"))
        leaves.sort(key=lambda leaf: leaf.rank)
        prompt = text("choice.dock_prompt", words.locale, {"facility": facility})
        out.append(_group(facility, prompt, leaves, locale=words.locale))
    return out


def _dice_of(a: Action) -> tuple[Die, ...]:
    return a.dice if isinstance(a, Dock) else ()


def _leaf_rank(facility: str, seq: tuple[Action, ...]) -> int:
    """How far a docking pick is from one plain dock: each more action, and each more ship
    docked at once where ships dock one by one (the Colony Hub), counts 2. A pair or a
    triple is one plain dock where a group is what the facility takes."""
    ships = sum(len(_dice_of(a)) for a in seq)
    grouped = FACILITIES[facility].group_size > 1 and facility != "hub"  # type: ignore[index]
    extra = 0 if grouped else ships - len(seq)
    return 2 * (len(seq) - 1 + extra)


Said = Callable[[list[str]], str]  # a text, given the names to show members by


def _then(key: str, params: dict[str, object], then: Said, seats: list[str]) -> str:
    return text(key, str(params["locale"]), {**params, "then": then(seats)})


def _follow_ups(
    after: GameState, facility: str, words: Words
) -> list[tuple[tuple[Action, ...], str, Said]]:
    """What often comes right after a dock, offered in the same pick: cycling or claiming
    at the Alien Artifact, the territory of a colony the dock placed, what a raid takes.
    Each: the actions, the key of its words and the words for what they do."""
    if after.over or after.current != words.seat or (facility != "artifact" and not after.pending):
        return []
    out: list[tuple[tuple[Action, ...], str, Said]] = []
    actions = legal_actions(after)
    for a in actions:
        follow = FOLLOW_UPS.get(kind_of(a) or "")
        if follow is not None and (follow[0] == "do" or facility == "artifact"):
            out.append(((a,), follow[0], words.said(follow[1], _fields(a))))
    if after.pending and isinstance(after.pending[0], RaidDecision):
        for take, words_of in _best_takes(after, by_kind(actions), words):
            out.append((take, "do", words_of))
    return out


# What a dock's pick may go on to do, by kind: cycling or claiming at the Alien Artifact
# ("then ..."), placing the colony the dock brought (" → ..."); the key of the pick's
# words and the words of the action (their parameters: the action's fields).
FOLLOW_UPS: dict[str, tuple[str, str]] = {
    "cycle": ("cycle", "label.cycle"),
    "claim": ("claim", "choice.claim_card"),
    "place": ("do", "choice.colony_to"),
}


def _fields(a: Action) -> dict[str, object]:
    return {f.name: getattr(a, f.name) for f in fields(a)}


def _dock_rank(seq: tuple[Action, ...]) -> tuple[int, int, tuple[Die, ...]]:
    """Single actions first (every legal dock, fewest ships first), then the ways of docking
    more ships in a row, most ships first."""
    ships = tuple(d for a in seq for d in _dice_of(a))
    if len(seq) == 1:
        return (0, len(ships), ships)
    return (1, -len(ships), ships)


# ---- cards and other powers -----------------------------------------------------------------


def _powers(state: GameState, kinds: Kinds, words: Words) -> list[Node]:
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
        for seq in _sequences(state, step, key=lambda a: ()):
            label = _trade(words, rate * len(seq), len(seq))
            leaves.append(Leaf(label, label, tuple(str(a) for a in seq), group="trade"))
        market = words.n("market")
        out.append(_group(market, market, leaves, locale=words.locale))
    for launch_action in kinds.get("launch", ()):  # the colony and, in the same pick, where
        launch = _leaf(launch_action, words)
        places: list[Node] = [launch]
        for a in kinds_after(state, launch_action).get("place", ()):
            label = _said("choice.launch_to", words.locale, _fields(a), [])
            places.append(Leaf(label, label, (*launch.moves, str(a)), 1, launch.group))
        out.append(_group(launch.label, launch.label, places, locale=words.locale))
    for kind in ("buy_relic", "cycle"):
        out += [_leaf(a, words) for a in kinds.get(kind, ())]
    for end in kinds.get("end", ()):  # ending above 8 resources: end and return in one pick
        after = _run(state, [end])
        if after.pending and isinstance(after.pending[0], ReturnExcessDecision):
            leaves = []
            for r in legal_actions(after):
                assert isinstance(r, ReturnExcess)
                label = text("choice.end_return", words.locale, {"fuel": r.fuel, "ore": r.ore})
                leaves.append(Leaf(label, label, (str(end), str(r)), group="end"))
            title = text("choice.end_and_return", words.locale)
            out.append(_group(title, title, leaves, locale=words.locale))
    claims = [_leaf(a, words) for a in kinds.get("claim", ())]
    if claims:
        title = text("choice.claim", words.locale)
        out.append(_group(title, title, claims, locale=words.locale))
    cards = [(rule, kinds[rule.kind]) for rule in _card_powers() if rule.kind in kinds]
    for rule, acts in cards:
        out.append(_card_branch(rule, acts, words, state))
    return out


def kinds_after(state: GameState, action: Action) -> Kinds:
    """The legal actions by kind once ``action`` is played."""
    return by_kind(legal_actions(_run(state, [action])))


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
        return _group(title, title, whole, locale=words.locale)
    children: list[Node] = []
    pairs.sort(key=lambda x: _order(split(x[0])))
    for part, members in groupby(pairs, key=lambda x: split(x[0])):
        short = words.names.label(partial(_part_label, part, words))
        full = words.names.label(partial(_step_label, title, part, words))
        children.append(_group(full, full, [m[1] for m in members], short, words.locale))
    return _group(title, title, children, locale=words.locale)


def _card_leaves(a: Action, words: Words, state: GameState) -> list[Leaf]:
    """A card's option, and what often follows it in the same pick: cycling the display
    after moving a ship to the Alien Artifact; stopping after a Plasma Cannon's first hit."""
    leaf = _leaf(a, words, state)
    out = [leaf]
    then: tuple[str, Action] | None = None
    if isinstance(a, Relocation) and a.target == "artifact":
        cycles = kinds_after(state, a).get("cycle")
        if cycles:
            then = ("choice.and_cycle", cycles[0])
    elif leaf.group in FINISHED and Done() in legal_actions(_run(state, (a,))):
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
    params = {"fuel": _amount(words, "fuel", fuel), "ore": _amount(words, "ore", ore)}
    return text("choice.trade", words.locale, params)


def _amount(words: Words, resource: str, count: int) -> str:
    return text(f"choice.{resource}", words.locale, {"count": count})


# The Plasma Cannon's shots: a pick that leaves nothing more to hit also says ``done``.
FINISHED = ("use_plasma", "hit")


def _leaf(a: Action, words: Words, state: GameState | None = None) -> Leaf:
    """The leaf of one action, with its label in full and under its branch; given the
    state, a Plasma Cannon shot that leaves nothing more to hit also says ``done``."""
    kind = kind_of(a) or ""
    full, short = _labels(a, words)
    moves: tuple[Action, ...] = (a,)
    if state is not None and kind in FINISHED:
        moves = _finished(state, moves)
    return Leaf(full, short, tuple(str(m) for m in moves), group=kind)


def _labels(a: Action, words: Words) -> tuple[str, str]:
    """(label, short label) of one action, in the words of its kind (``bot.text.labels``): the
    short one is read under its card's name."""
    said_as = wording(a, words.locale, words.rate)
    if said_as is None:
        return str(a), str(a)
    full = words.names.label(partial(_said, said_as.key, words.locale, said_as.params))
    if said_as.short is not None:
        short = partial(_said, said_as.short, words.locale, said_as.params)
        return full, words.names.label(short)
    return full, words.n(said_as.name) if said_as.name is not None else full


# ---- the decision waiting for an answer -----------------------------------------------------


def _decision(state: GameState, kinds: Kinds, words: Words) -> Branch:
    d = state.pending[0]
    if isinstance(d, RaidDecision):
        return _raid(state, kinds, words)
    kind = {PlasmaDecision: "plasma", PlaceColonyDecision: "place"}.get(type(d), "return")
    prompt = text(f"choice.prompt.{kind}", words.locale)
    leaves = [
        _stop(words, "plasma") if group == "done" else _leaf(a, words)
        for group, actions in kinds.items()
        for a in actions
    ]
    return Branch(prompt, prompt, prompt, tuple(leaves))


def _stop(words: Words, decision: str) -> Leaf:
    label = text(f"choice.stop.{decision}", words.locale)
    return Leaf(label, label, (str(Done()),), group="done")


Take = tuple[int, tuple[Action, ...], "Said", str]  # resources, actions, words, kind


def _takes(
    state: GameState, kinds: Kinds, words: Words, said: str = "choice."
) -> dict[int, list[Take]]:
    """Per opponent, what a raid can take from them in one pick, most first: resources
    (with the ``done`` that must follow when nothing else is left) and cards. Each:
    how many resources, the actions, the words for them (``said``: the keys' prefix, for
    an option of its own or what follows a dock), their kind."""
    seat = state.current

    def step(s: GameState) -> list[Action]:
        if not s.pending or not isinstance(s.pending[0], RaidDecision) or s.current != seat:
            return []
        return by_kind(legal_actions(s)).get("steal_resource", [])

    found: dict[int, dict[tuple[int, int], tuple[Action, ...]]] = {}
    for seq in _sequences(state, step, key=_steal_key):
        victims = {a.victim for a in seq if isinstance(a, StealResource)}
        if len(victims) == 1:
            fuel = sum(1 for a in seq if isinstance(a, StealResource) and a.resource == "fuel")
            found.setdefault(victims.pop(), {})[(fuel, len(seq) - fuel)] = seq
    out: dict[int, list[Take]] = {}
    for victim in range(state.num_players):
        takes = out.setdefault(victim, [])
        ranked = sorted(found.get(victim, {}).items(), key=lambda x: (-sum(x[0]), -x[0][1]))
        for (fuel, ore), seq in ranked:
            parts = [_amount(words, r, c) for r, c in (("fuel", fuel), ("ore", ore)) if c]
            params: dict[str, object] = {"amounts": " + ".join(parts), "victim": victim}
            moves = _finished(state, seq) if len(seq) < RAID_STEAL_LIMIT else seq
            takes.append((fuel + ore, moves, words.said(f"{said}steal", params), "steal_resource"))
        for a in kinds.get("steal_card", ()):
            params = _fields(a)  # the card and the victim
            if params["victim"] == victim:
                takes.append((0, (a,), words.said(f"{said}steal_card", params), "steal_card"))
    return out


def _best_takes(
    state: GameState, kinds: Kinds, words: Words
) -> list[tuple[tuple[Action, ...], Said]]:
    """The raids worth offering with the dock: the most resources from one opponent (each
    mix), or one of their cards."""
    out = []
    for takes in _takes(state, kinds, words, "choice.then_").values():
        most = max((n for n, _, _, _ in takes), default=0)
        out += [(moves, w) for n, moves, w, _ in takes if n == most or n == 0]
    return out


def _raid(state: GameState, kinds: Kinds, words: Words) -> Branch:
    """What to steal, in one pick per opponent: "2 fuel + 2 ore from Anna" (then more from
    someone else, or stop), or a card."""
    children: list[Node] = []
    for victim, takes in _takes(state, kinds, words).items():
        leaves: list[Node] = []
        for _, moves, words_of, kind in takes:
            label = words.names.label(words_of)
            leaves.append(Leaf(label, label, tuple(str(a) for a in moves), group=kind))
        if leaves:
            title = words.t("choice.steal_from", {"victim": victim})
            children.append(_group(title, title, leaves, locale=words.locale))
    children += [_stop(words, "raid") for a in kinds.get("done", ())]
    prompt = text("choice.prompt.raid", words.locale)
    return Branch(prompt, prompt, prompt, tuple(children))


def _steal_key(a: Action) -> tuple[object, ...]:
    assert isinstance(a, StealResource)
    return (a.victim, a.resource)


# ---- menus --------------------------------------------------------------------------------


def menu(
    branch: Branch, path: str, locale: str = "en", inner: bool = False, spill: bool = False
) -> list[Entry]:
    """The options of ``branch``'s menu: its children, and as many of their own children
    inline as Discord's 25 options allow, lowest rank first, round by round among the
    branches. What is left is behind an entry per branch ("Solar Converter: more…") or,
    with ``spill``, left out for the choice menu to show (``Choices.more``). Children read
    under the branch's prompt (``inner``) use their short labels.

    More than 25 children (rare: ``_fit`` nests them) are all returned: the caller pages.
    """
    kids = branch.children
    if len(kids) > MAX_OPTIONS:
        shown = [0] * len(kids)
    else:
        shown = _layout(kids, "spill" if spill else "own")
    entries: list[Entry] = []
    for i, kid in enumerate(kids):
        here = f"{path}.{i}"
        name = kid.short if inner else (kid.label if isinstance(kid, Leaf) else kid.title)
        if isinstance(kid, Leaf):
            entries.append(Entry(name, kid.value))
            continue
        for j, grand in enumerate(kid.children[: shown[i]]):
            if isinstance(grand, Leaf):
                entries.append(Entry(grand.label, grand.value))
            else:
                entries.append(_step(grand, f"{here}.{j}", grand.title, locale))
        if shown[i] < len(kid.children) and not spill:
            rest = isinstance(kid, Branch) and kid.rest
            key = "choice.more" if shown[i] and not rest else "choice.open"
            entries.append(_step(kid, here, text(key, locale, {"label": name}), locale))
    return distinct(entries)


def _layout(kids: tuple[Node, ...], mode: str) -> list[int]:
    """How many children of each branch a menu shows, lowest rank first, round by round:
    with an entry for the rest of each branch (``own``), or none, the rest shown elsewhere
    (``spill``)."""
    shown = [0] * len(kids)
    branches = {i for i, k in enumerate(kids) if isinstance(k, Branch)}
    open_ = set(branches)  # branches with children not shown (need an entry)
    leaves = len(kids) - len(branches)

    def total() -> int:
        if mode == "spill":
            return leaves + sum(shown)
        return leaves + sum(shown[i] + (1 if i in open_ else 0) for i in branches)

    growing = set(branches)
    while growing:
        i = min(growing, key=lambda i: (_rank(kids[i], shown[i]), shown[i], i))
        kid = kids[i]
        assert isinstance(kid, Branch)
        shown[i] += 1
        last = shown[i] == len(kid.children)
        if last:
            open_.discard(i)
        if total() > MAX_OPTIONS:
            shown[i] -= 1
            open_.add(i)
            growing.discard(i)
        elif last:
            growing.discard(i)
    return shown


def _rank(node: Node, index: int) -> int:
    child = (
        node.children[index] if isinstance(node, Branch) and index < len(node.children) else node
    )
    return child.rank if isinstance(child, Leaf) else 0


def _step(node: Branch, path: str, label: str, locale: str) -> Entry:
    if not label.endswith("…"):
        label = text("choice.open", locale, {"label": label})
    count = node.leaves()
    return Entry(label, "@" + path, text("panel.options", locale, {"count": count}))


def distinct(entries: list[Entry]) -> list[Entry]:
    """The entries with no two labels alike and none longer than Discord allows. The labels
    are written to differ (what tells them apart comes first, names are shortened); a
    counter on a repeat is the last resort."""
    seen: dict[str, int] = {}
    out = []
    for e in entries:
        label = e.label if len(e.label) <= LABEL_LIMIT else e.label[: LABEL_LIMIT - 1] + "…"
        key = label.casefold()
        if key in seen:
            if REPEATS is not None:
                REPEATS.append(label)
            seen[key] += 1
            suffix = f" ({seen[key]})"
            label = label[: LABEL_LIMIT - len(suffix)] + suffix
            key = label.casefold()
        seen.setdefault(key, 1)
        out.append(Entry(label, e.value, e.description))
    return out


def path_to(choices: Choices, moves: Sequence[str]) -> list[str] | None:
    """The branches to open, outermost first, to reach the leaf playing exactly ``moves``
    (None if no leaf does), the menu's root first ("d", "c", "p" or "o", the choices that
    the first two menus cannot show): how a player finds a pick (tests, benchmarks).
    A pick shown by a menu needs no step opened, whatever its path."""
    wanted = tuple(moves)

    def search(node: Branch, path: str) -> list[str] | None:
        for i, kid in enumerate(node.children):
            here = f"{path}.{i}"
            if isinstance(kid, Leaf):
                if kid.moves == wanted:
                    return []
            else:
                found = search(kid, here)
                if found is not None:
                    return [here, *found]
        return None

    for key in ("o", "d", "c", "p"):
        root = choices.root(key)
        if root is not None:
            found = search(root, key)
            if found is not None:
                return [key, *found]
    return None

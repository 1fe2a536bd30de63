"""Picks made and grouped: the legal actions by kind, the leaf of one action, sequences of
actions found by trying them on copies (macros), and children grouped into branches of at
most 25."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import fields, replace
from functools import partial

from bot.play.choice_tree import MAX_MOVES, MAX_OPTIONS, VALUE_LIMIT, Branch, Leaf, Node
from bot.text.choice_words import Words, said_in
from bot.text.labels import kind_of, wording
from bot.text.strings import text
from engine import Action, Done, GameState, apply_in_place, legal_actions

Kinds = dict[str, list[Action]]  # actions by the kind of their rule, in the order listed


def by_kind(actions: Iterable[Action]) -> Kinds:
    """The actions by the kind of their rule (``engine.rule.Rule.kind``): the panel's
    sections are made by kind, never by the actions' types."""
    out: Kinds = {}
    for a in actions:
        out.setdefault(kind_of(a) or "", []).append(a)
    return out


Said = Callable[[list[str]], str]  # a text, given the names to show members by


def fields_of(a: Action) -> dict[str, object]:
    return {f.name: getattr(a, f.name) for f in fields(a)}


def group_nodes(
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
    kids = fit_menu(children, title, prompt, locale)
    return Branch(title, short if short is not None else title, prompt, kids)


def fit_menu(children: Sequence[Node], title: str, prompt: str, locale: str) -> tuple[Node, ...]:
    """At most 25 children: the first 24 (by rank) and a step with the rest, so that a
    menu never needs pages."""
    if len(children) <= MAX_OPTIONS:
        return tuple(children)
    rest = text("choice.rest", locale, {"label": title})
    more = Branch(
        rest, rest, prompt, fit_menu(children[MAX_OPTIONS - 1 :], title, prompt, locale), rest=True
    )
    return (*children[: MAX_OPTIONS - 1], more)


def applied(state: GameState, moves: Sequence[Action]) -> GameState:
    """A copy of ``state`` with ``moves`` applied (legal ones, found by ``legal_actions``)."""
    s = state.copy()
    for a in moves:
        apply_in_place(s, a)
    return s


def with_done(state: GameState, moves: tuple[Action, ...]) -> tuple[Action, ...]:
    """``moves`` and, when they leave a raid or a Plasma Cannon with nothing more to take
    or hit, the ``done`` that must follow them."""
    after = applied(state, moves)
    if after.pending and legal_actions(after) == [Done()]:
        return (*moves, Done())
    return moves


def sequences_of(
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


# The Plasma Cannon's shots: a pick that leaves nothing more to hit also says ``done``.
FINISHED = ("use_plasma", "hit")


def action_leaf(a: Action, words: Words, state: GameState | None = None) -> Leaf:
    """The leaf of one action, with its label in full and under its branch; given the
    state, a Plasma Cannon shot that leaves nothing more to hit also says ``done``."""
    kind = kind_of(a) or ""
    full, short = action_labels(a, words)
    moves: tuple[Action, ...] = (a,)
    if state is not None and kind in FINISHED:
        moves = with_done(state, moves)
    return Leaf(full, short, tuple(str(m) for m in moves), group=kind)


def action_labels(a: Action, words: Words) -> tuple[str, str]:
    """(label, short label) of one action, in the words of its kind (``bot.text.labels``): the
    short one is read under its card's name."""
    said_as = wording(a, words.locale, words.rate)
    if said_as is None:
        return str(a), str(a)
    full = words.names.label(partial(said_in, said_as.key, words.locale, said_as.params))
    if said_as.short is not None:
        short = partial(said_in, said_as.short, words.locale, said_as.params)
        return full, words.names.label(short)
    return full, words.n(said_as.name) if said_as.name is not None else full

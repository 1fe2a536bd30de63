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

from collections.abc import Iterable, Sequence

from bot.play.choice_grouping import by_kind, fit_menu
from bot.play.choice_tree import (
    MAX_OPTIONS,
    Branch,
    Choices,
    Entry,
    Leaf,
    Node,
)
from bot.play.decision_choices import decision_branch
from bot.play.dock_choices import docking_branches
from bot.play.power_choices import power_branches
from bot.text.choice_words import NAME_LENGTHS, Names, Words
from bot.text.limits import LABEL_LIMIT
from bot.text.strings import text
from engine import Action, GameState, legal_actions

# The tests set this to a list to see every label that needed the counter of ``distinct``.
REPEATS: list[str] | None = None


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
        pending = decision_branch(state, kinds, words)
        kinds = {}
    dock = _root(text("panel.dock_prompt", locale), docking_branches(state, kinds, words), locale)
    powers = _root(text("panel.powers_prompt", locale), power_branches(state, kinds, words), locale)
    rest = [*_overflow(dock), *_overflow(powers)]
    more = _root(text("panel.more_prompt", locale), rest, locale) if rest else None
    shown = tuple(words.names.at(NAME_LENGTHS[0]))
    return Choices(dock, powers, pending, "end" in kinds, more, state, shown, locale)


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
    return Branch(prompt, prompt, prompt, fit_menu(children, prompt, prompt, locale))


# ---- menus --------------------------------------------------------------------------------


def menu(
    branch: Branch, path: str, locale: str = "en", inner: bool = False, spill: bool = False
) -> list[Entry]:
    """The options of ``branch``'s menu: its children, and as many of their own children
    inline as Discord's 25 options allow, lowest rank first, round by round among the
    branches. What is left is behind an entry per branch ("Solar Converter: more…") or,
    with ``spill``, left out for the choice menu to show (``Choices.more``). Children read
    under the branch's prompt (``inner``) use their short labels.

    More than 25 children (rare: ``fit_menu`` nests them) are all returned: the caller pages.
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

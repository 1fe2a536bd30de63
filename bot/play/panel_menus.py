"""What each menu of the action panel shows now: its options (as many as a Discord menu
holds, the choice menu a page of them), each with what it yields as its description, and
which of them lead to the pick a guided game marks. Worked out from the panel's choices
(``bot.play.choices``) once per panel; laid out as components by ``bot.discord.panel``."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from bot.play.choice_tree import MAX_OPTIONS, Branch, Choices, Entry, Leaf, Node, split_moves
from bot.play.choices import menu


@dataclass(frozen=True, slots=True)
class Menu:
    """One menu as shown: its path ("d", "c", "p", "o", or an opened step's), its prompt,
    the options shown (described), the values of those that lead to the marked pick, and
    its page of how many."""

    path: str
    prompt: str
    entries: tuple[Entry, ...]
    leading: frozenset[str] = frozenset()
    page: int = 0
    pages: int = 1


@dataclass(frozen=True, slots=True)
class PanelMenus:
    """The panel's menus now: docking, cards and powers, the choice (the step opened, the
    engine's decision, or what the first two could not show; None: nothing to choose),
    the step opened (None: none), whether the turn may end, and the marked pick."""

    dock: Menu | None
    powers: Menu | None
    choice: Menu | None
    opened: str | None
    can_end: bool
    marked: str | None = None


def panel_menus(
    choices: Choices,
    locale: str,
    marked: str | None = None,
    open_path: str | None = None,
    page: int = 0,
) -> PanelMenus:
    """The menus of the panel for ``choices``; ``open_path``: the second step opened (if
    it still exists), at ``page``; ``marked``: the notation of a pick to mark."""
    dock = _row(choices, choices.dock, "d", locale, marked)
    powers = _row(choices, choices.powers, "c", locale, marked)
    opened = choices.node(open_path) if open_path else None
    if opened is None:
        open_path = None
    path, node = (open_path, opened) if opened is not None else ("p", choices.pending)
    if node is None and choices.more is not None:  # what the two menus above cannot show
        path, node = "o", choices.more
    choice = None
    if node is not None and node.children:
        assert path is not None
        entries = menu(node, path, locale, inner=path != "o")
        pages = max(1, math.ceil(len(entries) / MAX_OPTIONS))
        page = min(max(page, 0), pages - 1)
        shown = described(choices, entries[page * MAX_OPTIONS : (page + 1) * MAX_OPTIONS])
        choice = Menu(path, node.prompt, shown, leading(choices, shown, marked), page, pages)
    return PanelMenus(dock, powers, choice, open_path, choices.can_end, marked)


def _row(choices: Choices, root: Branch, path: str, locale: str, marked: str | None) -> Menu | None:
    entries: Sequence[Entry] = menu(root, path, locale, spill=True) if root.children else ()
    if not entries:
        return None
    shown = described(choices, entries[:MAX_OPTIONS])
    return Menu(path, root.prompt, shown, leading(choices, shown, marked))


def described(choices: Choices, entries: Sequence[Entry]) -> tuple[Entry, ...]:
    """The entries with what each pick yields as its description ("+2 fuel, now 3"), for
    everyone: a step keeps its count of options."""
    return tuple(
        e if e.description is not None else replace(e, description=choices.yields(e.value))
        for e in entries
    )


def leading(choices: Choices, entries: Sequence[Entry], marked: str | None) -> frozenset[str]:
    """The values of the entries that lead to the pick ``marked`` (its notation): the pick
    that plays exactly it (never a combined pick that goes on past it), or a step that
    offers it."""
    if marked is None:
        return frozenset()
    return frozenset(e.value for e in entries if _leads(choices, e, marked))


def _leads(choices: Choices, entry: Entry, marked: str) -> bool:
    if entry.value.startswith("@"):
        node = choices.node(entry.value[1:])
        return node is not None and any(m == (marked,) for m in _picks(node))
    return split_moves(entry.value) == [marked]


def _picks(node: Node) -> Iterator[tuple[str, ...]]:
    """The moves of every pick under a node."""
    if isinstance(node, Leaf):
        yield node.moves
        return
    for child in node.children:
        yield from _picks(child)

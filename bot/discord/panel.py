"""The action panel: the same five rows in every turn and at every step.

1. **Docking** — every way to dock now, one pick per facility choice ("Shipyard: 3 + 3",
   "Solar Converter: 1 + 2" docks both ships).
2. **Cards and other actions** — trading, launching, the relic ship, the display, the
   powers of the alien tech cards.
3. **The choice now** — the engine's pending decision (where the colony goes, what a raid
   takes, what to return), or the second step of a long choice ("Mind Control Helm:
   which ship?", then "where?").
4. **Buttons** — End turn, Undo, Hint (a private look at what the normal AI would do),
   and Back while a second step is open.
5. **Pages** — only when a step still has more than 25 options (rare).

A row with nothing to offer stays in its place, greyed out (left out in a game followed
with a screen reader). The choices themselves
come from ``bot.play.choices``; the components (persistent, restart-proof) from
``bot.discord.components``. Every option says what it does in words, a symbol only after
them (the suggested pick's ⭐), and a pick's description says what it yields ("+2 fuel,
now 3": ``Choices.yields``).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import replace

from bot.discord.components import (
    ActionButton,
    ActionSelect,
    HintButton,
    PageButton,
    PanelView,
    UndoButton,
)
from bot.play.choice_tree import (
    MAX_OPTIONS,
    Branch,
    Choices,
    Entry,
    Leaf,
    Node,
    parent_path,
    split_moves,
)
from bot.play.choices import menu
from bot.text.describe import shorten
from bot.text.limits import LABEL_LIMIT
from bot.text.strings import text

MAX_ROWS = 5
ROW_DOCK, ROW_POWERS, ROW_CHOICE, ROW_BUTTONS, ROW_PAGES = range(MAX_ROWS)
CLOSE = "-"  # the path of "no second step open"


def build_panel(
    game_id: int,
    version: int,
    choices: Choices,
    *,
    can_undo: bool = False,
    locale: str = "en",
    open_path: str | None = None,
    page: int = 0,
    marked: str | None = None,
    spoken: bool = False,
) -> PanelView:
    """The panel for the player to act (see the module docstring for its rows); ``marked``:
    the notation of a pick to mark as suggested (a guided game's lesson), on the option
    that plays exactly it and the steps that lead to it; ``spoken``: for a game followed
    with a screen reader, a row with nothing to offer is left out, and so are End turn and
    Undo when they may not be used (a greyed-out menu or button is one more thing read at
    every turn)."""
    view = PanelView()
    mark = Marker(choices, marked)
    idle = not spoken  # whether a row with nothing to offer shows, greyed out
    _menu_row(
        view, game_id, version, choices.dock, "d", ROW_DOCK, locale, "panel.no_docks", mark, idle
    )
    _menu_row(
        view,
        game_id,
        version,
        choices.powers,
        "c",
        ROW_POWERS,
        locale,
        "panel.no_powers",
        mark,
        idle,
    )
    opened = choices.node(open_path) if open_path else None
    if opened is None:
        open_path = None
    path, node = (open_path, opened) if opened is not None else ("p", choices.pending)
    if node is None and choices.more is not None:  # what the two menus above cannot show
        path, node = "o", choices.more
    pages = 1
    if node is None or not node.children:
        if idle:
            waiting = text("panel.choice_idle", locale)
            view.add_item(ActionSelect.idle(game_id, version, "@p", waiting, ROW_CHOICE))
    else:
        assert path is not None
        entries = menu(node, path, locale, inner=path != "o")
        pages = max(1, math.ceil(len(entries) / MAX_OPTIONS))
        page = min(max(page, 0), pages - 1)
        shown = mark.entries(
            described(choices, entries[page * MAX_OPTIONS : (page + 1) * MAX_OPTIONS])
        )
        prompt = node.prompt
        if pages > 1:
            params = {"prompt": prompt, "page": page + 1, "pages": pages}
            prompt = text("panel.page_of", locale, params)
        view.add_item(ActionSelect(game_id, version, "@" + path, page, prompt, shown, ROW_CHOICE))
    end = mark.label(text("panel.end", locale), marked == "end")
    if idle or choices.can_end:  # for a screen reader, no greyed-out button either
        view.add_item(ActionButton(game_id, version, "end", end, ROW_BUTTONS, not choices.can_end))
    if idle or can_undo:
        view.add_item(
            UndoButton(game_id, version, text("panel.undo", locale), ROW_BUTTONS, not can_undo)
        )
    view.add_item(HintButton(game_id, version, text("panel.hint", locale), ROW_BUTTONS))
    if open_path is not None:
        back = parent_path(open_path)
        target = back if back is not None and "." in back else CLOSE
        view.add_item(
            PageButton(game_id, version, target, 0, text("panel.back", locale), ROW_BUTTONS)
        )
    if pages > 1:
        assert path is not None
        if page > 0:
            label = text("panel.previous", locale)
            view.add_item(PageButton(game_id, version, path, page - 1, label, ROW_PAGES))
        if page < pages - 1:
            label = text("panel.next", locale)
            view.add_item(PageButton(game_id, version, path, page + 1, label, ROW_PAGES))
    return view


def _menu_row(
    view: PanelView,
    game_id: int,
    version: int,
    root: Branch,
    path: str,
    row: int,
    locale: str,
    idle: str,
    mark: Marker,
    shown_idle: bool = True,
) -> None:
    entries: Sequence[Entry] = menu(root, path, locale, spill=True) if root.children else ()
    if not entries:
        if shown_idle:
            view.add_item(ActionSelect.idle(game_id, version, path, text(idle, locale), row))
        return
    shown = mark.entries(described(mark.choices, entries[:MAX_OPTIONS]))
    view.add_item(ActionSelect(game_id, version, path, 0, root.prompt, shown, row))


def described(choices: Choices, entries: Sequence[Entry]) -> list[Entry]:
    """The entries with what each pick yields as its description ("+2 fuel, now 3"), for
    everyone: a step keeps its count of options."""
    return [
        e if e.description is not None else replace(e, description=choices.yields(e.value))
        for e in entries
    ]


class Marker:
    """Marks the options that lead to a suggested pick (its notation): the pick that plays
    exactly it (never a combined pick that goes on past it), or a step that offers it."""

    SIGN = "⭐"

    def __init__(self, choices: Choices, marked: str | None) -> None:
        self.choices = choices
        self.marked = marked

    def label(self, label: str, on: bool) -> str:
        """The label, with the mark after its words when it leads to the suggested pick."""
        return f"{shorten(label, LABEL_LIMIT - len(self.SIGN) - 1)} {self.SIGN}" if on else label

    def entries(self, entries: Sequence[Entry]) -> list[Entry]:
        """The entries, marked; a step ("…: more…") only when the pick itself is not one
        of them (one mark a menu)."""
        shown = any(not e.value.startswith("@") and self.leads(e) for e in entries)
        return [
            replace(
                e, label=self.label(e.label, self.leads(e) and not (shown and e.value[:1] == "@"))
            )
            for e in entries
        ]

    def leads(self, entry: Entry) -> bool:
        if self.marked is None:
            return False
        if entry.value.startswith("@"):
            node = self.choices.node(entry.value[1:])
            return node is not None and any(m == (self.marked,) for m in _picks(node))
        return split_moves(entry.value) == [self.marked]


def _picks(node: Node) -> Iterator[tuple[str, ...]]:
    """The moves of every pick under a node."""
    if isinstance(node, Leaf):
        yield node.moves
        return
    for child in node.children:
        yield from _picks(child)

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

from collections.abc import Sequence
from dataclasses import replace

from bot.discord.components import (
    ActionButton,
    ActionSelect,
    HintButton,
    PageButton,
    PanelView,
    UndoButton,
)
from bot.play.choice_tree import Choices, Entry, parent_path
from bot.play.panel_menus import Menu, PanelMenus, leading, panel_menus
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
    menus = panel_menus(choices, locale, marked, open_path, page)
    return lay_out(game_id, version, menus, can_undo=can_undo, locale=locale, spoken=spoken)


def lay_out(
    game_id: int,
    version: int,
    menus: PanelMenus,
    *,
    can_undo: bool = False,
    locale: str = "en",
    spoken: bool = False,
) -> PanelView:
    """The panel's components for its menus as worked out (``bot.play.panel_menus``)."""
    view = PanelView()
    idle = not spoken  # whether a row with nothing to offer shows, greyed out
    _menu_row(view, game_id, version, menus.dock, "d", ROW_DOCK, locale, "panel.no_docks", idle)
    _menu_row(
        view, game_id, version, menus.powers, "c", ROW_POWERS, locale, "panel.no_powers", idle
    )
    choice = menus.choice
    if choice is None:
        if idle:
            waiting = text("panel.choice_idle", locale)
            view.add_item(ActionSelect.idle(game_id, version, "@p", waiting, ROW_CHOICE))
    else:
        prompt = choice.prompt
        if choice.pages > 1:
            params = {"prompt": prompt, "page": choice.page + 1, "pages": choice.pages}
            prompt = text("panel.page_of", locale, params)
        shown = marked_entries(choice.entries, choice.leading)
        view.add_item(
            ActionSelect(
                game_id, version, "@" + choice.path, choice.page, prompt, shown, ROW_CHOICE
            )
        )
    end = label_of(text("panel.end", locale), menus.marked == "end")
    if idle or menus.can_end:  # for a screen reader, no greyed-out button either
        view.add_item(ActionButton(game_id, version, "end", end, ROW_BUTTONS, not menus.can_end))
    if idle or can_undo:
        view.add_item(
            UndoButton(game_id, version, text("panel.undo", locale), ROW_BUTTONS, not can_undo)
        )
    view.add_item(HintButton(game_id, version, text("panel.hint", locale), ROW_BUTTONS))
    if menus.opened is not None:
        back = parent_path(menus.opened)
        target = back if back is not None and "." in back else CLOSE
        view.add_item(
            PageButton(game_id, version, target, 0, text("panel.back", locale), ROW_BUTTONS)
        )
    if choice is not None and choice.pages > 1:
        if choice.page > 0:
            label = text("panel.previous", locale)
            view.add_item(
                PageButton(game_id, version, choice.path, choice.page - 1, label, ROW_PAGES)
            )
        if choice.page < choice.pages - 1:
            label = text("panel.next", locale)
            view.add_item(
                PageButton(game_id, version, choice.path, choice.page + 1, label, ROW_PAGES)
            )
    return view


def _menu_row(
    view: PanelView,
    game_id: int,
    version: int,
    shown: Menu | None,
    path: str,
    row: int,
    locale: str,
    idle: str,
    shown_idle: bool = True,
) -> None:
    if shown is None:
        if shown_idle:
            view.add_item(ActionSelect.idle(game_id, version, path, text(idle, locale), row))
        return
    entries = marked_entries(shown.entries, shown.leading)
    view.add_item(ActionSelect(game_id, version, path, 0, shown.prompt, entries, row))


SIGN = "⭐"  # after the words of an option that leads to the suggested pick


def label_of(label: str, on: bool) -> str:
    """The label, with the mark after its words when it leads to the suggested pick."""
    return f"{shorten(label, LABEL_LIMIT - len(SIGN) - 1)} {SIGN}" if on else label


def marked_entries(entries: Sequence[Entry], leading: frozenset[str]) -> list[Entry]:
    """The entries, marked (``leading``: the values of those that lead to the suggested
    pick); a step ("…: more…") only when the pick itself is not one of them (one mark a
    menu)."""
    shown = any(not e.value.startswith("@") and e.value in leading for e in entries)
    return [
        replace(
            e,
            label=label_of(e.label, e.value in leading and not (shown and e.value[:1] == "@")),
        )
        for e in entries
    ]


class Marker:
    """Marks the options that lead to a suggested pick (its notation): the pick that plays
    exactly it (never a combined pick that goes on past it), or a step that offers it."""

    SIGN = SIGN

    def __init__(self, choices: Choices, marked: str | None) -> None:
        self.choices = choices
        self.marked = marked

    def label(self, label: str, on: bool) -> str:
        return label_of(label, on)

    def entries(self, entries: Sequence[Entry]) -> list[Entry]:
        return marked_entries(entries, leading(self.choices, entries, self.marked))

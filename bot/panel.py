"""The action panel: buttons and select menus built from ``legal_actions``.

Layout: argument-free actions (end the turn, trade, launch, ...) are buttons; the
others are grouped by facility or verb (dock at the Shipyard, use the Booster
Pod, place the colony...) into select menus. When the groups do not fit in
Discord's five rows, one menu lists every action if there are 25 at most;
otherwise a "choose what to do" menu opens one group at a time, with page buttons.

The components themselves (persistent, restart-proof) are in ``bot.components``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import discord

from bot.components import (
    MAX_OPTIONS,
    ActionButton,
    ActionSelect,
    Choice,
    Group,
    GroupSelect,
    PageButton,
    PanelView,
    UndoButton,
)
from bot.describe import action_label
from bot.strings import text, thing_name
from engine import Action
from engine.actions import (
    BuyRelic,
    Claim,
    Cycle,
    DiscardBooster,
    DiscardField,
    DiscardPlasma,
    DiscardPolarity,
    DiscardTeleporter,
    DiscardWarper,
    Dock,
    Done,
    EndTurn,
    Launch,
    Place,
    ReturnExcess,
    StealCard,
    StealResource,
    Trade,
)
from engine.tables import FACILITY_ORDER

MAX_ROWS = 5
BUTTONS_PER_ROW = 5


def group_key(action: Action) -> str | None:
    """The group of an action; None for argument-free actions (shown as buttons)."""
    if isinstance(action, (Trade, Launch, BuyRelic, Cycle, EndTurn, Done)):
        return None
    if isinstance(action, Dock):
        return f"dock_{action.facility}"
    notation = str(action).split()
    if notation[0] == "use":
        return f"use_{notation[1]}"
    if isinstance(
        action,
        (
            DiscardField,
            DiscardBooster,
            DiscardTeleporter,
            DiscardPolarity,
            DiscardPlasma,
            DiscardWarper,
        ),
    ):
        return f"discard_{notation[1]}"
    if isinstance(action, (StealResource, StealCard)):
        return "steal"
    if isinstance(action, (Claim, Place, ReturnExcess)):
        return notation[0]
    return notation[0]


def group_label(key: str, locale: str = "en") -> str:
    verb, _, thing = key.partition("_")
    if thing:
        return text(f"group.{verb}", locale, {"thing": thing_name(thing, locale)})
    return text(f"group.{key}", locale)


def _order(key: str) -> tuple[int, int, str]:
    verb, _, thing = key.partition("_")
    if verb == "dock":
        return (0, FACILITY_ORDER.index(thing) if thing in FACILITY_ORDER else 99, key)
    ranks = {"place": 0, "steal": 0, "hit": 0, "return": 0, "claim": 1, "use": 2, "discard": 3}
    return (1 + ranks.get(verb, 4), 0, key)


def arrange(
    actions: Sequence[Action],
    locale: str = "en",
    names: Sequence[str] = (),
    rate: int | None = None,
) -> tuple[list[Choice], list[Group]]:
    """Split legal actions into buttons and ordered groups, with their labels."""
    buttons: list[Choice] = []
    grouped: dict[str, list[Choice]] = {}
    for a in actions:
        choice = Choice(str(a), action_label(a, locale, names, rate))
        key = group_key(a)
        if key is None:
            buttons.append(choice)
        else:
            grouped.setdefault(key, []).append(choice)
    if len(grouped) > MAX_OPTIONS:  # merge the docks so the group menu fits
        docks = [c for k in list(grouped) if k.startswith("dock_") for c in grouped.pop(k)]
        grouped = {"docks": docks, **grouped}
    groups = [
        Group(k, group_label(k, locale), tuple(grouped[k])) for k in sorted(grouped, key=_order)
    ]
    buttons.sort(key=lambda c: c.move in ("end", "done"))  # ending comes last
    return buttons, groups


def group_keys(actions: Sequence[Action]) -> set[str]:
    """The groups a panel of these actions can open (the values of its group menu)."""
    return {g.key for g in arrange(actions)[1]}


def build_panel(
    game_id: int,
    version: int,
    actions: Sequence[Action],
    *,
    can_undo: bool = False,
    locale: str = "en",
    names: Sequence[str] = (),
    rate: int | None = None,
    open_group: str | None = None,
    page: int = 0,
) -> PanelView:
    """The panel for the player to act, from the legal actions (see the module docstring)."""
    view = PanelView()
    buttons, groups = arrange(actions, locale, names, rate)
    row = 0
    items: list[discord.ui.Item[Any]] = [
        ActionButton(game_id, version, c.move, c.label, 0) for c in buttons
    ]
    if can_undo:
        items.append(UndoButton(game_id, version, text("panel.undo", locale), 0))
    for i, item in enumerate(items):
        item.row = i // BUTTONS_PER_ROW
    for item in items:
        view.add_item(item)
    row = math.ceil(len(items) / BUTTONS_PER_ROW)
    by_key = {g.key: g for g in groups}
    fits = len(groups) <= MAX_ROWS - row and all(len(g.choices) <= MAX_OPTIONS for g in groups)
    if open_group is None and fits:
        for g in groups:
            view.add_item(ActionSelect(game_id, version, g.key, 0, g.label, g.choices, row))
            row += 1
        return view
    every = [c for g in groups for c in g.choices]
    if open_group is None and len(every) <= MAX_OPTIONS:
        placeholder = text("panel.choose_action", locale)
        view.add_item(ActionSelect(game_id, version, "all", 0, placeholder, every, row))
        return view
    if open_group not in by_key:
        open_group = None
    placeholder = text("panel.choose_group", locale)
    view.add_item(GroupSelect(game_id, version, groups, open_group, placeholder, locale, row))
    row += 1
    if open_group is None:
        return view
    group = by_key[open_group]
    pages = max(1, math.ceil(len(group.choices) / MAX_OPTIONS))
    page = min(max(page, 0), pages - 1)
    shown = group.choices[page * MAX_OPTIONS : (page + 1) * MAX_OPTIONS]
    title = group.label
    if pages > 1:
        title = text("panel.page", locale, {"group": group.label, "page": page + 1, "pages": pages})
    view.add_item(ActionSelect(game_id, version, group.key, page, title, shown, row))
    row += 1
    if page > 0:
        label = text("panel.previous", locale)
        view.add_item(PageButton(game_id, version, group.key, page - 1, label, row))
    if page < pages - 1:
        view.add_item(
            PageButton(game_id, version, group.key, page + 1, text("panel.next", locale), row)
        )
    return view

"""The action panel fits Discord's limits and offers every legal action, in many game states."""

from __future__ import annotations

import random
from typing import Any

import discord

from bot.components import ActionButton, ActionSelect, GroupSelect, PageButton
from bot.describe import action_label
from bot.panel import build_panel, group_key
from engine import CHANCE, GameConfig, legal_actions, sample_chance
from engine.game import Game


def components(view: discord.ui.View) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = view.to_components()
    return rows


def check_limits(view: discord.ui.View) -> None:
    rows = components(view)
    assert len(rows) <= 5
    ids = []
    for row in rows:
        items = row["components"]
        assert len(items) <= 5
        if any(i["type"] == 3 for i in items):
            assert len(items) == 1
        for item in items:
            ids.append(item["custom_id"])
            assert len(item["custom_id"]) <= 100
            if item["type"] == 2:
                assert 1 <= len(item["label"]) <= 80
            else:
                assert 1 <= len(item["options"]) <= 25
                assert len(item.get("placeholder", "")) <= 150
                for option in item["options"]:
                    assert 1 <= len(option["label"]) <= 100 and len(option["value"]) <= 100
    assert len(ids) == len(set(ids))


def reachable(game_id: int, version: int, actions: list[Any], **kw: Any) -> set[str]:
    """Every move the panel can send, following group menus and pages like a player."""
    found: set[str] = set()
    seen: set[tuple[str | None, int]] = set()
    todo: list[tuple[str | None, int]] = [(None, 0)]
    while todo:
        group, page = todo.pop()
        if (group, page) in seen:
            continue
        seen.add((group, page))
        view = build_panel(game_id, version, actions, open_group=group, page=page, **kw)
        check_limits(view)
        for item in view.children:
            if isinstance(item, ActionButton):
                found.add(item.move)
            elif isinstance(item, ActionSelect):
                found |= {o.value for o in item.item.options}
            elif isinstance(item, GroupSelect):
                todo += [(o.value, 0) for o in item.item.options]
            elif isinstance(item, PageButton):
                todo.append((item.group, item.page))
    return found


def test_every_legal_action_is_reachable_within_discord_limits() -> None:
    rng = random.Random(11)
    checked = 0
    biggest = 0
    for seed in range(6):
        game = Game(GameConfig(players=4, mind_control_helm=True))
        while not game.state.over and checked < 3000:
            s = game.state
            if s.to_act() == CHANCE:
                game.apply(sample_chance(s, rng))
                continue
            actions = legal_actions(s)
            biggest = max(biggest, len(actions))
            if checked % 7 == 0 or len(actions) > 25:
                moves = reachable(seed, s.version, actions, can_undo=checked % 2 == 0)
                assert moves == {str(a) for a in actions}
            checked += 1
            game.apply(rng.choice(actions))
    assert biggest > 25  # the paging path was exercised


def test_small_turns_are_one_click_per_action() -> None:
    game = Game(GameConfig(players=2))
    rng = random.Random(1)
    while game.state.to_act() == CHANCE:
        game.apply(sample_chance(game.state, rng))
    actions = legal_actions(game.state)
    view = build_panel(1, game.state.version, actions)
    assert not any(isinstance(i, GroupSelect) for i in view.children)


def test_labels_read_well() -> None:
    from engine import parse

    names = ["Ann", "Bob"]
    assert action_label(parse("dock yard 3 3")) == "Dock 3 3 at the Shipyard"
    assert action_label(parse("dock hub 2r")) == "Dock 2 (relic) at the Colony Hub"
    assert action_label(parse("use plasma mine p2:4"), names=names) == (
        "Plasma Cannon: fire at the Lunar Mine, hitting Bob's 4"
    )
    assert action_label(parse("trade"), rate=3) == "Trade 3 fuel for 1 ore"
    assert action_label(parse("steal card decoy p1"), names=names) == (
        "Steal Holographic Decoy from Ann"
    )
    assert group_key(parse("use helm solar p3:2 to market 2")) == "use_helm"
    assert group_key(parse("discard warper city")) == "discard_warper"
    assert group_key(parse("end")) is None


def test_names_are_escaped_in_messages_not_in_labels() -> None:
    from bot.describe import chat_name
    from engine import parse

    assert chat_name("__bob__") == "\\_\\_bob\\_\\_"
    label = action_label(parse("steal fuel p2"), names=["ann", "__bob__"])
    assert label == "Steal 1 fuel from __bob__"

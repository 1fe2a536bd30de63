"""Every menu of the panel, over 30 random 4-player games with 32-character names (Latin,
Cyrillic, Polish): no two options with the same label, nothing past a Discord limit.

The default suite plays the first 15 games; the other 15 (the same seeds as ever) are
marked ``slow`` (``pytest -m slow``)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

import bot.play.choices
from bot.discord.panel import build_panel
from bot.play.choice_tree import Branch, Choices
from bot.play.choices import choices, menu
from bot.play.games import ActiveGame
from bot.play.turn_view import words_of
from bot.store.game_config import GameSettings, Variants
from bot.store.rows import GameRow, SeatRow
from bot.text.turn_message import turn_message
from engine import CHANCE, GameConfig, apply, legal_actions, sample_chance
from engine.game import Game

# 32 characters each; two of them differ only at the end, so cut short they would read alike.
NAMES = (
    "Aleksandra Wiśniewska-Kowalczyk1",
    "Aleksandra Wiśniewska-Kowalczyk2",
    "Владимир Александрович Петров-Ив",
    "Bartholomew Featherstonehaugh Jr",
    "Żaneta Łukaszewicz-Grzegorczykóś",
    "Екатерина Сергеевна Воскресенска",
)
LOCALES = ("en", "ru", "pl")
GAMES = 30
DEFAULT_GAMES = 10  # in the default suite; the rest are slow
LETTER = re.compile(r"[^\W\d_]")
WORDS_OR_VALUES = re.compile(r"[^\W_]")


def test_names_are_32_characters() -> None:
    assert all(len(name) == 32 for name in NAMES)


def check_menu(entries: list[Any], where: str) -> None:
    labels = [e.label for e in entries]
    assert len(labels) == len(set(labels)), (where, labels)
    for e in entries:
        assert 1 <= len(e.label) <= 100, (where, e.label)
        assert 1 <= len(e.value) <= 100, (where, e.value)
        assert len(e.description or "") <= 100, (where, e.description)


def check_view(payload: list[dict[str, Any]], where: str) -> None:
    """The components as sent to Discord: 5 rows, 25 options, lengths, distinct ids."""
    assert len(payload) <= 5, where
    ids = []
    for row in payload:
        items = row["components"]
        assert 1 <= len(items) <= 5, where
        for item in items:
            ids.append(item["custom_id"])
            assert len(item["custom_id"]) <= 100, where
            if item["type"] == 2:
                assert 1 <= len(item["label"]) <= 80, where
                assert LETTER.search(item["label"]), (where, item)  # words, not an emoji alone
                continue
            assert len(items) == 1 and 1 <= len(item["options"]) <= 25, where
            assert len(item.get("placeholder", "")) <= 150, (where, item.get("placeholder"))
            labels = [o["label"] for o in item["options"]]
            assert len(labels) == len(set(labels)), (where, labels)
            values = [o["value"] for o in item["options"]]
            assert len(values) == len(set(values)), (where, values)
            for o in item["options"]:
                assert 1 <= len(o["label"]) <= 100 and 1 <= len(o["value"]) <= 100, (where, o)
                # Read aloud: words or the ships' values ("5 + 6" under its facility's
                # menu), never a symbol alone.
                assert WORDS_OR_VALUES.search(o["label"]), (where, o)
                assert len(o.get("description") or "") <= 100, (where, o)
    assert len(ids) == len(set(ids)), where


def steps(c: Choices) -> list[tuple[str, Branch]]:
    """Every step the panel can open, with its path."""
    out: list[tuple[str, Branch]] = []

    def walk(node: Branch, path: str) -> None:
        for i, kid in enumerate(node.children):
            if isinstance(kid, Branch):
                out.append((f"{path}.{i}", kid))
                walk(kid, f"{path}.{i}")

    for key in ("d", "c", "p", "o"):
        root = c.root(key)
        if root is not None:
            walk(root, key)
    return out


def active_game(game: Game, names: list[str], locale: str) -> ActiveGame:
    """The game as the bot holds it, enough for the turn message's text."""
    row = GameRow(
        id=1,
        guild_id=1,
        channel_id=2,
        host_id=10,
        status="playing",
        max_players=4,
        seed=1,
        locale=locale,
        lobby_message_id=None,
        turn_message_id=3,
        turn_message_turn=game.state.turn_number,
        waiting_on_user=None,
        reminded_at=None,
        created_at=0.0,
        updated_at=0.0,
        config=GameSettings(Variants(mind_control_helm=True)),
    )
    seats = [SeatRow(seat=i, user_id=100 + i, ai_level=None, name=n) for i, n in enumerate(names)]
    return ActiveGame(row, seats, game)


@pytest.fixture
def repeats() -> Iterator[list[str]]:
    """Labels that came out alike and needed ``distinct``'s last-resort counter."""
    bot.play.choices.REPEATS = []
    try:
        yield bot.play.choices.REPEATS
    finally:
        bot.play.choices.REPEATS = None


@pytest.mark.parametrize(
    "first",
    [
        pytest.param(f, marks=[pytest.mark.slow] if f >= DEFAULT_GAMES else [])
        for f in range(0, GAMES, 5)
    ],
)
def test_no_menu_has_two_alike_labels_or_goes_past_a_limit(first: int, repeats: list[str]) -> None:
    checked = 0
    for number in range(first, first + 5):
        rng = random.Random(number)
        names = [*NAMES[:2], *rng.sample(NAMES[2:], 2)]  # the two alike always play
        rng.shuffle(names)
        locale = LOCALES[number % len(LOCALES)]
        game = Game(GameConfig(players=4, mind_control_helm=True, finite_supply=number % 2 == 1))
        active = active_game(game, names, locale)
        state = game.state
        while not state.over:
            if state.to_act() == CHANCE:
                game.state = state = apply(state, sample_chance(state, rng))
                continue
            c = choices(state, names, locale, rate=3)
            where = f"game {number} version {state.version}"
            view = build_panel(1, state.version, c, can_undo=True, locale=locale)
            check_view(view.to_components(), where)
            for path, node in steps(c):
                check_menu(menu(node, path, locale, inner=True), f"{where} {path}")
            text = turn_message(words_of(active))  # the turn message's text
            assert 0 < len(text) <= 2000, where
            checked += 1
            game.state = state = apply(state, rng.choice(legal_actions(state)))
    assert checked > 1000
    assert not repeats, repeats[:10]  # the labels were written alike: no counter needed

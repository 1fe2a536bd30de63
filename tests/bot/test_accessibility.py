"""Playable without seeing the picture: every image the bot sends carries a description
(alt text) in the language of its message, and ``/af board text:true`` gives the whole
board in words; both state the same facts as the view the picture is drawn from."""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bot.render.board_text import ALT_LIMIT, alt_text, board_text, facts, message_parts
from bot.text.strings import text, thing_name
from engine import CHANCE, GameConfig, GameState, apply, legal_actions, new_game, sample_chance
from engine.tables import FACILITY_ORDER
from engine.view import GameView, view
from tests.bot.table import Table
from tests.bot.test_deliveries_e2e import table
from tests.discord_fake import StartBot

NAMES = ["Ann", "Bob", "Cy", "Di"]


def states(players: int, seed: int, every: int = 7) -> list[GameState]:
    """States of a seeded random game (every ``every``-th version, and the last)."""
    rng = random.Random(seed)
    s = new_game(GameConfig(players=players, finite_supply=seed % 2 == 0))
    out = []
    while not s.over:
        action = sample_chance(s, rng) if s.to_act() == CHANCE else rng.choice(legal_actions(s))
        s = apply(s, action)
        if s.version % every == 0:
            out.append(s)
    return [*out, s]


# ---- the text board and the alt text, against the view ----------------------------------


def sections(board: str) -> dict[str, list[str]]:
    """The English text board's sections: heading -> its facts (without "- ")."""
    out: dict[str, list[str]] = {}
    current = ""
    for line in board.splitlines():
        if line.startswith("## "):
            current = line[3:]
            out[current] = []
        elif line.startswith("- "):
            out[current].append(line[2:])
        else:
            assert line == "", line  # no decoration: headings, facts, blank lines
    return out


def ships_said(words: str) -> Counter[tuple[str, str]]:
    """ "Ann 4, Bob 5 (relic)" as a multiset of (owner, value)."""
    pairs = re.findall(r"(\w+) (\d(?: \(relic\))?)", words)
    return Counter((owner, value) for owner, value in pairs)


def check_text_board(s: GameState, v: GameView) -> None:
    names = NAMES[: len(v.players)]
    said = sections(board_text(s, names))
    assert said.keys() >= {"The turn", "Ships on the facilities", "Territories", "Alien tech"}
    turn = said["The turn"]
    if v.over:
        assert v.outcome is not None
        ranking = [line for line in turn if line.startswith("Place ")]
        assert len(ranking) == len(names)
        for seat, score in enumerate(v.outcome.scores):
            line = next(x for x in ranking if f": {names[seat]}, " in x or f" {names[seat]}, " in x)
            assert line.endswith(f"victory points: {score}")
            assert ("winner" in line) == (seat in v.outcome.winners)
    else:
        assert turn[0] == f"Round {v.round}, turn {v.turn_number}"
        assert turn[1].startswith(f"{names[v.current]} to act")
    for p in v.players:
        heading = next(h for h in said if h.startswith(f"{names[p.seat]} ("))
        lines = said[heading]
        assert f"victory points: {p.vp}" in lines
        assert f"fuel: {p.fuel}" in lines and f"ore: {p.ore}" in lines
        left = p.colonies_unplaced + (1 if p.hub_space else 0)
        assert f"colonies left: {left}, on the planet: {p.colonies_placed}" in lines
        cards = ", ".join(thing_name(c) for c in p.cards) or "none"
        assert f"alien tech cards: {cards}" in lines
        assert f"ships in play: {p.ships_in_play}, in stock: {p.ships_in_stock}" in lines
        assert f"Colony Hub track: space {p.hub_space} of 7" in lines
    docked: dict[str, Counter[tuple[str, str]]] = {}
    for line in said["Ships on the facilities"]:
        name, _, listed = line.partition(": ")
        docked[name] = ships_said(listed)
    for f in FACILITY_ORDER:
        if f == "hub":
            ships = [x for track in v.hub_tracks for x in track]
        else:
            ships = [d.ship for d in v.docks[f] if d.ship is not None]
        expected = Counter(
            (names[x.owner], f"{x.value} (relic)" if x.relic else str(x.value)) for x in ships
        )
        assert docked.get(thing_name(f), Counter()) == expected, f  # only occupied ones
    for t in v.territories:
        line = next(x for x in said["Territories"] if x.startswith(f"{thing_name(t.id)}: "))
        if t.controller is None:
            assert "controlled by" not in line
        else:
            assert f"controlled by {names[t.controller]}" in line
        for seat, n in enumerate(t.colonies):
            assert (f"{names[seat]} {n}" in line) == bool(n), (line, seat, n)
        for field in t.fields:
            assert thing_name(field) in line
    tech = said["Alien tech"]
    assert f"on display: {', '.join(thing_name(c) for c in v.display) or 'none'}" in tech
    assert f"cards in the deck: {v.deck_count}" in tech


def check_alt_text(s: GameState, v: GameView, locale: str) -> None:
    names = NAMES[: len(v.players)]
    alt = alt_text(s, names, locale)
    assert 0 < len(alt) <= ALT_LIMIT
    assert alt.startswith(text("a11y.alt_intro", locale))
    # Made of whole facts, in the board's order, and separators: nothing cut.
    pos = len(text("a11y.alt_intro", locale))
    for fact in facts(s, names, locale):
        said = f"{fact.line}:" if fact.heading else fact.said()
        while alt.startswith((" ", ";", "."), pos):
            pos += 1
        if fact.in_alt and alt.startswith(said, pos):
            pos += len(said)
    while alt.startswith((" ", ";", "."), pos):
        pos += 1
    assert pos == len(alt), alt[pos:]
    # What is kept the longest: the turn (or the ranking) and each player's VP.
    for p in v.players:
        assert f"{names[p.seat]} (" in alt
        assert text("a11y.vp", locale, {"vp": p.vp}) in alt


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_text_board_and_the_alt_text_state_the_views_facts(players: int) -> None:
    checked = 0
    for seed in range(2):
        for s in states(players, seed + 10 * players):
            v = view(s)
            check_text_board(s, v)
            for locale in ("en", "ru", "pl"):
                check_alt_text(s, v, locale)
            checked += 1
    assert checked > 40


def test_a_long_alt_text_leaves_out_whole_facts_the_least_important_first() -> None:
    s = states(4, 3)[-1]
    full = alt_text(s, NAMES, "en", limit=100_000)
    short = alt_text(s, NAMES, "en", limit=600)
    assert len(short) <= 600 < len(full)
    assert "Place 1" in short and "victory points" in short  # the ranking stays
    assert "cards in the deck" in full and "cards in the deck" not in short  # tech goes first
    assert not short.endswith("…")


def test_the_text_board_is_sent_in_messages_cut_between_sections() -> None:
    board = board_text(states(4, 5)[-1], NAMES, "ru")
    parts = message_parts(board, limit=400)
    assert len(parts) > 1 and all(len(p) <= 400 for p in parts)
    lines = [line for part in parts for line in part.splitlines() if line]
    assert lines == [line for line in board.splitlines() if line]  # all, in order
    assert all(part.startswith("## ") for part in parts[:1])


def test_no_emoji_in_the_text_board() -> None:
    for locale in ("en", "ru", "pl"):
        board = board_text(states(3, 7)[-1], NAMES[:3], locale)
        assert not re.search(r"[\U0001F300-\U0001FAFF\u2600-\u27BF]", board), locale


# ---- every image the bot sends has its description --------------------------------------


def images(t: Table) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(message, attachment) of every image in the channel, public and private."""
    return [
        (m, a)
        for m in t.h.messages(include_ephemeral=True)
        for a in m.get("attachments", [])
        if str(a.get("filename", "")).endswith((".png", ".gif"))
    ]


async def test_every_image_of_a_played_game_has_a_description_in_its_language(
    tmp_path: Path, start_bot: StartBot
) -> None:
    t, _ = await table(tmp_path / "af.db", start_bot)
    t.locales["member"] = "pl"
    await t.cmd("af new", {"players": 2, "watch": True, "language": "ru"}, "owner")
    t.bot.service.new_seed = lambda: 41
    await t.cmd("af join", member="member")
    await t.cmd("af bot", {"level": "easy"}, "owner")
    await t.cmd("af settings", {"takeover": "easy"}, "owner")
    await t.cmd("af start", member="owner")
    mid = await t.cmd("af board", member="member")  # private, in the member's language
    words = await t.cmd("af board", {"text": True}, member="member")
    game = t.game()
    await t.cmd("af kick", {"player": "member"}, "owner")  # the AI plays to the end
    await t.settle()
    assert game.row.status == "over"
    await t.cmd("af replay", member="member")
    ru, pl = text("a11y.alt_intro", "ru"), text("a11y.alt_intro", "pl")
    assert len({ru, pl, text("a11y.alt_intro", "en")}) == 3  # translated
    shown = images(t)
    assert len(shown) >= 3
    for message, attachment in shown:
        about = attachment.get("description") or ""
        assert 0 < len(about) <= ALT_LIMIT, attachment
        private = bool(int(message.get("flags") or 0) & 64)
        if attachment["filename"].endswith(".gif"):
            assert about.startswith(text("a11y.replay", "ru", {"game": 1, "frames": 0})[:6])
        elif attachment["filename"].startswith("vp-"):  # the game over's chart of VP
            assert about.startswith(text("chart.vp.alt", "ru", {"rounds": 0})[:12]), about
        elif private:
            assert about.startswith(pl), about
        else:
            assert about.startswith(ru), about
    assert mid.message is not None and mid.message["attachments"][0]["description"].startswith(pl)
    said = [str(r.json.get("content")) for r in words.requests if r.json and "content" in r.json]
    board = "\n\n".join(said)
    assert text("a11y.section.territories", "pl") in board
    assert text("a11y.section.tech", "pl") in board

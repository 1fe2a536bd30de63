"""Playable without seeing the picture: every image the bot sends carries a short
description (alt text) in the language of its message, and ``/af board text:true`` gives
the whole board in words; both state the facts of the view the picture is drawn from
(WCAG 1.1.1 for a complex image: a short alternative and a long description)."""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bot.text.board_words import (
    ALT_SUMMARY,
    FULL_BOARD,
    alt_text,
    board_text,
    message_parts,
    ranking,
)
from bot.text.limits import ALT_LIMIT
from bot.text.strings import text, thing_name
from engine import CHANCE, GameConfig, GameState, apply, legal_actions, new_game, sample_chance
from engine.tables import FACILITY_ORDER
from engine.tech.card import card_vp
from engine.views import GameView, view
from tests.bot.discord.test_deliveries_e2e import table
from tests.bot.table import Table, jobs_of
from tests.discord_fake import StartBot
from tests.engine.scenario import scenario

NAMES = ["Ann", "Bob", "Cy", "Di"]
LONG = [
    "Aleksandra Wiśniewska-Kowalczyk1",
    "Владимир Александрович Петров-Ив",
    "AI 2 (normal)",
    "Żaneta Łukaszewicz-Grzegorczykóś",
]


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


# ---- the text board, against the view -------------------------------------------------


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
    """ "ships 4, 5 of Ann; ship 5 (relic) of Bob" as a multiset of (owner, value)."""
    out: Counter[tuple[str, str]] = Counter()
    for group in words.split("; "):
        m = re.fullmatch(r"ships? (.+) of (\w+)", group)
        assert m, group
        for value in m[1].split(", "):
            out[m[2], value] += 1
    return out


def check_text_board(s: GameState, v: GameView) -> None:
    names = NAMES[: len(v.players)]
    said = sections(board_text(s, names))
    assert said.keys() >= {"The turn", "Ships on the facilities", "Territories", "Alien tech"}
    order = list(said)
    if v.over:  # the ships no longer matter: the territories first
        assert order.index("Territories") < order.index("Ships on the facilities")
    else:
        assert order.index("Ships on the facilities") < order.index("Territories")
    turn = said["The turn"]
    if v.over:
        assert v.outcome is not None
        ranking = [line for line in turn if line.startswith("Place ")]
        assert len(ranking) == len(names)
        for seat, score in enumerate(v.outcome.scores):
            line = next(x for x in ranking if f" {names[seat]}, " in x)
            assert line.endswith(f"victory points: {score}")
            assert ("winner" in line) == (seat in v.outcome.winners)
    else:
        assert turn[0] == f"Round {v.round}, turn {v.turn_number}"
        assert turn[1].startswith(f"{names[v.current]} to act")
    for p in v.players:
        heading = next(h for h in said if h.startswith(f"{names[p.seat]} ("))
        lines = said[heading]
        assert f"Victory points: {p.vp}" in lines
        assert f"Fuel: {p.fuel}" in lines and f"Ore: {p.ore}" in lines
        left = p.colonies_unplaced + (1 if p.hub_space else 0)
        assert f"Colonies left: {left}, on the planet: {p.colonies_placed}" in lines
        cards = ", ".join(
            f"{thing_name(c)} ({card_vp(c)} VP)" if card_vp(c) else thing_name(c) for c in p.cards
        )
        assert f"Alien tech cards: {cards or 'none'}" in lines
        assert f"Ships in play: {p.ships_in_play}, in stock: {p.ships_in_stock}" in lines
        assert f"Colony Hub track: space {p.hub_space} of 7" in lines
        bay = [x for x in lines if "Maintenance Bay" in x]
        if p.bay:  # how many, never a value: a ship there has none until it is rolled
            (line,) = bay
            assert re.fullmatch(rf"In the Maintenance Bay: {len(p.bay)} ships?, no value .*", line)
        else:
            assert not bay
    docked: dict[str, Counter[tuple[str, str]]] = {}
    for line in said["Ships on the facilities"]:
        if line.startswith("Free docks: ") or line == "No ship is docked":
            continue
        name, _, listed = line.partition(": ")
        docked[name] = ships_said(listed.removesuffix(", used up"))
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
        bonus = text(f"a11y.bonus.{t.id}")
        assert bonus in line  # every territory says its bonus, and whose it is
        if t.controller is None:
            assert f"controlled by nobody; its bonus: {bonus}" in line
        elif "isolation" in t.fields:
            assert f"controlled by {names[t.controller]}; its bonus is void" in line
        else:
            assert f"controlled by {names[t.controller]}, who has its bonus: {bonus}" in line
        for seat, n in enumerate(t.colonies):
            assert (f"{n} of {names[seat]}" in line) == bool(n), (line, seat, n)
        for field in t.fields:
            assert f"{thing_name(field)} ({text(f'a11y.field.{field}')})" in line
    tech = said["Alien tech"]
    display = ", ".join(
        f"{thing_name(c)} ({card_vp(c)} VP)" if card_vp(c) else thing_name(c) for c in v.display
    )
    assert f"On display: {display or 'none'}" in tech
    assert f"Cards in the deck: {v.deck_count}" in tech
    # Each card on the board, held, shown or discarded, says what it does: once.
    named = {c for p in v.players for c in p.cards} | set(v.display) | set(v.discard)
    powers = said.get("What the cards do", [])
    assert len(powers) == len(named)
    for card in named:
        assert f"{thing_name(card)}: {text(f'a11y.power.{card}')}" in powers


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_text_board_states_the_views_facts_bonuses_and_card_powers(players: int) -> None:
    checked = 0
    for seed in range(2):
        for s in states(players, seed + 10 * players):
            check_text_board(s, view(s))
            checked += 1
    assert checked > 40


def test_the_text_board_names_each_bonus_holder_and_the_isolated_ones() -> None:
    s = scenario(
        colonies={"lem": [2, 1, 0, 0], "heinlein": [0, 1, 0, 0]}, fields={"isolation": "heinlein"}
    )
    board = board_text(s, NAMES)
    assert (
        "- Lem Badlands: controlled by Ann, who has its bonus: 1 more fuel for each ship docked at "
        "the Solar Converter; colonies: 2 of Ann, 1 of Bob" in board
    )
    assert "- Heinlein Plains: controlled by Bob; its bonus is void (Isolation Field)" in board
    assert "fields: Isolation Field (its bonus is void)" in board


def test_ships_in_the_maintenance_bay_have_no_value_in_words() -> None:
    """A ship in the bay has no value until it is rolled: "Bob 1, Bob 1" said a value."""
    ones = board_text(scenario(2, bay={1: "1 1"}), NAMES[:2])
    sixes = board_text(scenario(2, bay={1: "6 6"}), NAMES[:2])
    assert ones == sixes
    assert "- In the Maintenance Bay: 3 ships, no value until they are rolled" in ones
    assert "Bob 1" not in ones and "1, 1" not in ones


def test_ships_are_grouped_by_owner_so_names_with_digits_stay_apart_from_the_dice() -> None:
    s = scenario(docks={"mine": "p3:6 p4:6 p3:6"})
    board = board_text(s, ["Ann", "Bob", "AI 2 (normal)", "AI 3 (hard)"])
    assert "- Lunar Mine: ships 6, 6 of AI 2 (normal); ship 6 of AI 3 (hard)" in board


def test_a_private_answer_marks_the_members_own_seat() -> None:
    s = states(3, 4)[3]
    board = board_text(s, NAMES[:3], "en", you=1)
    assert "## Bob (you) (blue, squares)" in board
    assert "(you)" not in board_text(s, NAMES[:3], "en")
    for locale in ("ru", "pl"):
        assert text("a11y.you", locale, {"name": "Bob"}) in board_text(s, NAMES[:3], locale, 1)


def test_at_game_over_the_territories_come_before_the_ships() -> None:
    board = board_text(states(4, 3)[-1], NAMES)
    assert board.index("## Territories") < board.index("## Ships on the facilities")


# ---- the alt text: a short alternative ------------------------------------------------


def check_alt_text(s: GameState, v: GameView, names: list[str], locale: str) -> None:
    alt = alt_text(s, names, locale)
    assert 0 < len(alt) <= ALT_SUMMARY, (len(alt), alt)
    assert alt.endswith(FULL_BOARD)  # where the whole board is
    if v.over:
        assert v.outcome is not None
        for rank, seat in enumerate(ranking(v), start=1):  # the ranking
            key = "a11y.alt.rank_winner" if seat in v.outcome.winners else "a11y.alt.rank"
            params = {"rank": rank, "name": names[seat], "vp": v.outcome.scores[seat]}
            assert text(key, locale, params)[1:] in alt, (locale, params, alt)
        return
    assert text("a11y.alt.round", locale, {"round": v.round, "turn": v.turn_number}) in alt
    for p in v.players:  # every player's score
        assert text("a11y.alt.score", locale, {"name": names[p.seat], "vp": p.vp}) in alt


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_alt_text_is_a_short_summary_in_every_language(players: int) -> None:
    """About 60 words (a quarter of a minute aloud), 4 names of 32 characters included:
    the round, who acts and their dice, the scores, the way to the whole board."""
    checked = 0
    for s in states(players, 20 + players, every=11):
        v = view(s)
        for locale in ("en", "ru", "pl"):
            check_alt_text(s, v, NAMES[:players], locale)
            check_alt_text(s, v, LONG[:players], locale)
        checked += 1
    assert checked > 10


def test_the_alt_text_tells_this_turns_changes_and_what_it_leaves_out() -> None:
    s = scenario(undocked="2 3 4", fuel=[0, 3, 1, 0], ore=[0, 2, 5, 0])
    for move in ("dock raiders 2 3 4", "steal fuel p2", "steal fuel p2", "steal ore p3"):
        s = apply(s, legal_actions(s)[[str(a) for a in legal_actions(s)].index(move)])
    alt = alt_text(s, NAMES)
    assert "This turn: Ann steals 2 fuel from Bob; Ann steals 1 ore from Cy." in alt
    short = alt_text(s, NAMES, limit=len(alt) - 5)  # room for one change, not two
    assert "This turn: Ann steals 2 fuel from Bob; 1 more in /af log." in short
    assert len(short) <= len(alt) - 5


def test_the_old_alt_text_is_over_a_minute_of_listening() -> None:
    """The board's alt text was run-together facts up to 1,024 characters; now it stays a
    summary (the whole board is in words with ``/af board text:true``)."""
    s = states(4, 3)[-8]
    assert len(alt_text(s, LONG)) <= ALT_SUMMARY < ALT_LIMIT


# ---- sentence case, in every language --------------------------------------------------


def check_sentence_case(words: str, names: list[str], locale: str) -> None:
    """A capital after ". " (a new sentence) unless a member's name begins it; a small
    letter after "; " (the same sentence) unless a name of the game or a member does."""
    things = [thing_name(x, locale) for x in (*FACILITY_ORDER, "bay")]
    for m in re.finditer(r"\. (\w)", words):
        rest = words[m.start(1) :]
        assert m[1].isupper() or m[1].isdigit() or rest.startswith(tuple(names)), (locale, rest)
    for m in re.finditer(r"; (\w)", words):
        rest = words[m.start(1) :]
        allowed = rest.startswith(tuple(names + things)) or m[1].isdigit()
        assert m[1].islower() or allowed, (locale, rest[:40])


def test_generated_sentences_keep_sentence_case_in_every_language() -> None:
    """«…; Ходит owner» and «…1. пришвартованных кораблей нет.» were slips."""
    names = ["owner", "member", "AI 1 (easy)"]
    for s in states(3, 9, every=9):
        for locale in ("en", "ru", "pl"):
            check_sentence_case(alt_text(s, names, locale), names, locale)
            for line in board_text(s, names, locale).splitlines():
                if line.startswith("- "):
                    fact = line[2:]
                    assert fact[0].isupper() or fact.startswith(tuple(names)), (locale, fact)
                    check_sentence_case(fact, names, locale)


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
    jobs_of(t.bot).lobby.new_seed = lambda: 41
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
    board = {
        locale: text("a11y.alt.round", locale, {"round": 0, "turn": 0})[:12]
        for locale in ("en", "ru", "pl")
    }
    assert len(set(board.values())) == 3  # translated
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
        else:
            assert len(about) <= ALT_SUMMARY, about
            assert about.startswith(board["pl" if private else "ru"]), about
    assert mid.message is not None
    about = mid.message["attachments"][0]["description"]
    assert about.startswith(board["pl"])
    assert text("a11y.you", "pl", {"name": "member"}) in about  # the member's own seat
    said = [str(r.json.get("content")) for r in words.requests if r.json and "content" in r.json]
    text_board = "\n\n".join(said)
    assert text("a11y.section.territories", "pl") in text_board
    assert text("a11y.section.tech", "pl") in text_board
    assert text("a11y.you", "pl", {"name": "member"}) in text_board

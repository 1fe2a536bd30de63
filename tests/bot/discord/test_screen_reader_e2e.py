"""Screen-reader mode, end to end through the fake Discord: ``/af notify
screen_reader:on`` makes a member's private answers and the channel of a game they sit in
plain words (no emoji read aloud as "game die", no "bullet", "right arrow", "3/7"), each
fact said once, the picture's words short, and after each panel pick a private line with
what it did and what is left (an edited message is not reliably read aloud)."""

from __future__ import annotations

import random
import re
from pathlib import Path

from bot.text.board_words import FULL_BOARD
from bot.text.spoken import plain
from bot.text.strings import text
from tests.bot.table import Table, jobs_of, make_bot
from tests.discord_fake import StartBot

# What a screen reader reads as noise: an emoji or a bullet starting a line, arrows and
# middle dots anywhere, a fraction like 3/7 (not in a link).
NOISE = re.compile(
    r"^[\W_]*[\U0001F000-\U0001FAFF\u2600-\u27BF•]|[→·⇄]|(?<![\w/])\d+/\d+(?![\w/])", re.M
)


async def started(tmp_path: Path, start_bot: StartBot, reader: bool) -> Table:
    t = Table(await start_bot(make_bot(tmp_path / "af.db")), seed=3)
    if reader:
        on = await t.cmd("af notify", {"screen_reader": "on"}, "member")
        said = str((on.message or {}).get("content") or on.data.get("content"))
        assert said == plain(text("notify.reader.on")) and FULL_BOARD in said
    await t.open(humans=("owner", "member"))
    return t


async def test_screen_reader_mode_end_to_end(tmp_path: Path, start_bot: StartBot) -> None:
    t = await started(tmp_path, start_bot, reader=True)
    shown = await t.cmd("af notify", member="member")  # alone: both choices, in plain words
    assert "ping you in each game's channel" in shown.data["content"]
    assert "Screen-reader mode is on" in shown.data["content"]
    game = t.game()
    picks = told = 0
    while told < 3 and picks < 40 and not game.state.over:
        message = t.turn_message()
        content = str(message["content"])
        assert not NOISE.search(content), content
        (picture,) = message["attachments"]
        # The message says the turn: the picture's words say only what it is.
        assert picture["description"] == text("a11y.alt.brief", "en")
        # The roll is said once: in the message, not again as "ships to dock".
        rolled = re.search(r"rolls ([\d ]+)", content)
        if rolled and "docks" not in content:
            assert content.count(rolled[1].strip()) == 1, content
        assert "Use the panel below" not in content  # no reminder read at every turn
        member = t.member_to_act()
        move = t.seeded_move(random.Random(picks), prefer_end=False)
        result = await t.click_move(move, member)
        picks += 1
        answers = [
            str(r.json.get("content"))
            for r in result.requests
            if r.json and int(r.json.get("flags") or 0) & 64 and "content" in r.json
        ]
        if member == "member":  # the reader hears what the pick did and what is left
            (line,) = answers
            told += 1
            assert line.startswith("Done: "), line
            assert re.search(
                r"(Left to dock: [\d ]+\.|Every ship is docked\.|It is \w+'s turn now\.|Now .*)$",
                line,
            ), line
            assert not NOISE.search(line), line
        else:  # a member without the mode is not told privately
            assert answers == []
    assert told == 3
    status = await t.cmd("af status", member="member")
    assert not NOISE.search(status.data["content"]), status.data["content"]
    assert not NOISE.search(t.turn_message()["content"])


async def test_without_the_mode_the_channel_keeps_its_symbols(
    tmp_path: Path, start_bot: StartBot
) -> None:
    t = await started(tmp_path, start_bot, reader=False)
    content = str(t.turn_message()["content"])
    assert NOISE.search(content)  # the check above can fail: 🎲, •, ➡️, hub 0/7
    (picture,) = t.turn_message()["attachments"]
    assert picture["description"].startswith("Alien Frontiers board, round 1")


def test_plain_words_for_a_screen_reader() -> None:
    said = plain(
        "🎲 **Round 1 — Ann's turn** <@123>\n• Ann rolls 1 1 2\n"
        "🟥 **Ann** — 0 VP · 0 fuel · hub 3/7 · cards: none\n➡️ Ann to act · ships to dock: 1 1 2\n"
        "1. Dock 1 at the Lunar Mine ×2 → +2 ore\nhttps://discord.com/channels/1/2/3"
    )
    assert said == (
        "**Round 1, Ann's turn** <@123>\nAnn rolls 1 1 2\n"
        "**Ann**, 0 VP, 0 fuel, hub 3 of 7, cards: none\nAnn to act, ships to dock: 1 1 2\n"
        "1. Dock 1 at the Lunar Mine 2 times, +2 ore\nhttps://discord.com/channels/1/2/3"
    )
    assert plain("hub 3/7", "ru") == "hub 3 из 7"


# ---- what is heard as it happens: new messages, not edits ------------------------------------


def posted(t: Table, after: int = 0) -> list[tuple[int, str]]:
    """The channel's new messages since request ``after``: their ids and their text as
    posted (what a screen reader announces; an edit it does not)."""
    return [
        (int(r.response["id"]), str((r.json or {}).get("content") or ""))
        for r in t.fake.requests[after:]
        if r.method == "POST" and re.fullmatch(r"/channels/\d+/messages", r.path) and r.status < 300
    ]


def edited(t: Table, after: int = 0) -> set[int]:
    """The messages whose text was edited since request ``after``."""
    return {
        int(r.path.rsplit("/", 1)[1])
        for r in t.fake.requests[after:]
        if r.method == "PATCH"
        and re.fullmatch(r"/channels/\d+/messages/\d+", r.path)
        and "content" in (r.json or {})
    }


async def against_the_ai(tmp_path: Path, start_bot: StartBot) -> Table:
    """A member in screen-reader mode against an easy AI, after the AI's first turn."""
    t = Table(await start_bot(make_bot(tmp_path / "af.db")), seed=5)
    await t.cmd("af notify", {"screen_reader": "on"}, "member")
    await t.open(humans=("member",), bots=("easy",))
    rng = random.Random(1)
    while t.state.round < 2 or t.game().user_to_act() is None:
        await t.play_turn(rng)
    return t


async def test_an_ai_turn_is_posted_whole_for_a_screen_reader(
    tmp_path: Path, start_bot: StartBot
) -> None:
    t = await against_the_ai(tmp_path, start_bot)
    ai_turns = [(i, c) for i, c in posted(t) if "AI 1 (easy)'s turn" in c.split("\n")[0]]
    assert ai_turns, posted(t)
    rows = await jobs_of(t.bot).store.action_log.actions(t.game().id)
    docks = sum(1 for r in rows if r.actor == 1 and r.notation.startswith("dock"))
    heard = "\n".join(c for _, c in ai_turns)
    # Every action of the AI's turn is in the message as posted, and never edited in.
    assert docks and heard.count("docks ") == docks, heard
    assert not {i for i, _ in ai_turns} & edited(t)


async def test_the_scores_are_said_at_each_members_turn_and_when_they_change(
    tmp_path: Path, start_bot: StartBot
) -> None:
    """A member's turn message says everyone's VP; an AI's turn, posted when it ends, says
    them again only if they changed since (heard for nothing otherwise)."""
    t = await against_the_ai(tmp_path, start_bot)
    turns = [c for _, c in posted(t) if c.startswith("**Round")]
    assert len(turns) >= 3, turns
    heard = None
    for content in turns:
        said = re.findall(r"Scores: member: (\d+); AI 1(?: \(easy\))?: (\d+)\.", content)
        assert content.count("Scores: ") == len(said) <= 1, content
        if "member's turn" in content.split("\n")[0]:
            assert said, content
        if said:
            assert said[0] != heard or "member's turn" in content, content  # a change
            heard = said[0]
    assert heard is not None


async def test_the_turn_of_another_member_is_heard_when_it_ends(
    tmp_path: Path, start_bot: StartBot
) -> None:
    t = await started(tmp_path, start_bot, reader=True)  # "member" listens, "owner" does not
    rng = random.Random(2)
    for _ in range(3):
        player = t.member_to_act()
        before = len(t.fake.requests)
        await t.play_turn(rng)
        new = [c for _, c in posted(t, before)]
        said = [c for c in new if c.startswith("**Round") and f"{player}'s turn**" in c]
        if player == "owner":  # heard by the member as a new message, with what was done
            (turn,) = said
            assert "docks " in turn and "rolls " in turn, new
        else:  # the member's own turn: they heard each pick privately
            assert said == [], new


async def test_a_refusal_comes_without_its_symbol_for_a_screen_reader(
    tmp_path: Path, start_bot: StartBot
) -> None:
    """ "⛔" is read "no entry" before every refusal: not for a member with the mode on."""
    t = await started(tmp_path, start_bot, reader=True)
    for member in ("member", "owner"):
        refused = await t.cmd("play", {"move": "dock terraform 7"}, member)
        said = str(refused.data["content"])
        assert refused.ephemeral and said
        assert said.startswith("⛔") == (member == "owner"), said


async def test_the_full_board_command_is_said_once_a_message(
    tmp_path: Path, start_bot: StartBot
) -> None:
    """Default mode: the picture a turn message is posted with says where the whole board
    in words is; its redrawn pictures, after each action, do not say it again."""
    t = await started(tmp_path, start_bot, reader=False)
    before = len(t.fake.requests)
    (posted,) = t.turn_message()["attachments"]
    assert FULL_BOARD in posted["description"]
    await t.click_move(t.seeded_move(random.Random(4)), t.member_to_act())
    (redrawn,) = t.turn_message()["attachments"]
    assert redrawn["description"].startswith("Alien Frontiers board, round 1")
    assert FULL_BOARD not in redrawn["description"]
    assert len(t.fake.requests) > before

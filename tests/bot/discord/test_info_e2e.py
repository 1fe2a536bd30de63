"""Looking at a game: ``/af board``, ``status``, ``log``, ``rules``; turn reminders."""

from __future__ import annotations

import random
from pathlib import Path

from bot.store.rows import ActionRow
from bot.text import describe
from bot.text.log_lines import action_lines
from bot.text.rules_topics import RULE_GROUPS, RULE_TOPICS
from bot.text.strings import BOT_EN, thing_name
from engine import GameState
from engine.state import Event
from tests.bot.table import Table, attachment_png, jobs_of, make_bot
from tests.discord_fake import StartBot


async def test_board_status_and_log_for_players_and_spectators(
    tmp_path: Path, start_bot: StartBot
) -> None:
    bot = make_bot(tmp_path / "af.db")
    t = Table(await start_bot(bot))
    t.renders = []  # which board each render drew (detail or not)
    plain = bot.parts.boards.pictures.renderer

    def recording(
        state: GameState, names: list[str] | None, locale: str, detail: bool = False
    ) -> bytes:
        t.renders.append(detail)
        return plain(state, names, locale, detail)

    bot.parts.boards.pictures.renderer = recording
    none = await t.cmd("af board", member="manager")
    assert "no game in this channel" in (none.message or {}).get("content", "")

    await t.open(humans=("owner", "member"))
    rng = random.Random(3)
    for _ in range(4):
        await t.play(t.seeded_move(rng))

    mark = len(t.renders)
    board = await t.cmd("af board", member="manager")
    assert board.callback_type == 5 and board.ephemeral
    followup = await board.followup()
    assert followup.message is not None
    attachment_png(t.fake, followup.message)
    assert t.renders[mark:] and True not in t.renders[mark:]  # the live board, as posted

    mark = len(t.renders)
    detail = await t.cmd("af board", {"detail": True}, member="manager")
    followup = await detail.followup()
    assert followup.message is not None and followup.message["content"].startswith("The full")
    attachment_png(t.fake, followup.message)
    assert True in t.renders[mark:]  # the full board: log, deck, stock...

    status = await t.cmd("af status", member="manager")
    assert status.ephemeral
    for name in ("owner", "member"):
        assert f"**{name}**" in status.data["content"]
    assert "VP" in status.data["content"] and "to act" in status.data["content"]

    log = await t.cmd("af log", {"count": 3}, "manager")
    assert log.ephemeral
    content = log.data["content"]
    actions = await jobs_of(t.bot).store.action_log.actions(t.game().id)
    assert content.startswith(f"The last 3 of {len(actions)} actions")
    # The last moves as sentences (their events), not notation.
    expected = [
        describe.event_line(Event(e["key"], e["player"], e["params"], 0), "en", ["owner", "member"])
        for a in actions[-3:]
        for e in a.events
    ]
    assert expected and all(line in content for line in expected)
    assert not any(a.notation in content.splitlines() for a in actions[-3:])
    # "The last 3 actions": three lines (a turn's start may head one), heard as said.
    said = [line for line in content.splitlines()[1:] if not line.startswith("**")]
    assert len(said) == 3, content
    (attached,) = log.files
    full = attached.data.decode()
    # The file has every action's notation (what replays the game) and its sentences.
    for a in actions:
        assert f"#{a.seq + 1} " in full and a.notation in full
    assert all(line in full for line in expected)


async def test_rules_topics_autocomplete_and_text(tmp_path: Path, start_bot: StartBot) -> None:
    t = Table(await start_bot(make_bot(tmp_path / "af.db")))
    for topic in RULE_TOPICS:
        assert f"rules.{topic}" in BOT_EN, topic
    choices = await t.h.interact(t.h.autocomplete("af rules", "topic", {"topic": "van"}))
    assert [c["value"] for c in choices.choices] == ["vanvogt"]
    every = await t.h.interact(t.h.autocomplete("af rules", "topic", {"topic": ""}))
    # Nothing typed: Discord shows 25 choices, fewer than the topics. Each topic is one of
    # them, or in a group that is (the cards, territories, fields: each said in its group).
    listed = [c["value"] for c in every.choices]
    assert len(listed) <= 25
    for topic in RULE_TOPICS:
        groups = [g for g, members in RULE_GROUPS.items() if topic in members]
        assert topic in listed or any(g in listed for g in groups), topic
    for group, members in RULE_GROUPS.items():
        for locale in ("en-US", "ru", "pl"):
            t.locales["manager"] = locale
            said = (await t.cmd("af rules", {"topic": group}, "manager")).data["content"]
            assert len(said) <= 2000
            for topic in members:  # each member of the group by name, with what it does
                name = thing_name(topic, {"en-US": "en"}.get(locale, locale))
                assert name in said, (group, topic, locale)
        t.locales["manager"] = "en-US"
    mine = await t.cmd("af rules", {"topic": "mine"}, "manager")
    assert mine.ephemeral and mine.data["content"].startswith("**Lunar Mine**")
    by_name = await t.cmd("af rules", {"topic": "Plasma"}, "manager")
    assert by_name.data["content"].startswith("**Plasma Cannon**")
    unknown = await t.cmd("af rules", {"topic": "warp drive"}, "manager")
    assert unknown.ephemeral and "no rules topic" in unknown.data["content"]


def test_the_log_says_an_end_of_turn_above_the_next_turns_heading() -> None:
    """`/af log`: "owner ends the turn" is said in owner's turn, above the heading of the
    turn it starts (a blind player heard it under the next player's heading)."""
    end = ActionRow(
        seq=9,
        actor=0,
        user_id=1,
        notation="end",
        events=[
            {"key": "turn_ended", "player": 0, "params": {}},
            {"key": "turn_started", "player": 1, "params": {"round": 2}},
        ],
    )
    assert action_lines(end, ["owner", "member"], "en") == [
        "• owner ends the turn",
        "**member's turn (round 2)**",
    ]

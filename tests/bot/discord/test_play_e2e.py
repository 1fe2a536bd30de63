"""Playing on the fake Discord: refusals, stale panels, undo, races, restarts, autocomplete."""

from __future__ import annotations

import asyncio
import logging
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import bot.play.games
import engine
from bot.store.storage import Storage
from engine import GameState, legal_actions
from tests.bot.discord.test_hostile_input import forge
from tests.bot.table import Table, button, jobs_of, make_bot
from tests.discord_fake import StartBot
from tests.discord_fake.extra import click_snapshot, select_snapshot
from tests.discord_fake.payloads import STRING_SELECT, iter_components


async def started(tmp_path: Path, start_bot: StartBot, **kwargs: Any) -> Table:
    t = Table(await start_bot(make_bot(tmp_path / "af.db", **kwargs)))
    await t.open(humans=("owner", "member"))
    return t


def other(t: Table) -> str:
    return "member" if t.member_to_act() == "owner" else "owner"


def conflicting_dock(t: Table) -> str:
    """A dock that cannot be played twice in a row (it uses every ship of its values)."""
    state = t.state
    for action in legal_actions(state):
        if str(action).startswith("dock"):
            after = engine.apply(state, action)
            if after.current == state.current and action not in legal_actions(after):
                return str(action)
    raise AssertionError("no dock to race on")


async def test_turn_message_has_board_mention_roll_and_panel(
    tmp_path: Path, start_bot: StartBot
) -> None:
    t = await started(tmp_path, start_bot)
    message = t.turn_message()
    user = t.game().user_to_act()
    assert f"<@{user}>" in message["content"]
    (posted,) = [
        r
        for r in t.fake.find(method="POST", route="/channels/{channel_id}/messages")
        if r.message is not None and r.message["id"] == message["id"]
    ]
    assert [int(u) for u in posted.json["allowed_mentions"]["users"]] == [user]
    assert posted.json["allowed_mentions"].get("parse", []) == []
    assert "rolls" in message["content"]
    assert message["attachments"][0]["filename"].endswith(".png")
    ids = [c.get("custom_id", "") for c in iter_components(message["components"])]
    version = t.state.version
    assert ids and all(i.startswith("af:") and f":{version}" in i for i in ids if i)


async def test_only_the_player_to_act_may_use_the_panel(
    tmp_path: Path, start_bot: StartBot
) -> None:
    t = await started(tmp_path, start_bot)
    message = t.turn_message()
    version = t.state.version
    select = button(message, "af:s:")
    value = select["options"][0]["value"]
    for member, said in (
        (other(t), "It is not your turn"),  # the other player
        ("manager", "You are not playing in this game"),  # a spectator: not "your turn"
    ):
        result = await t._send(t.h.select(message, select["custom_id"], [value], member=member))
        assert result.ephemeral and said in result.data["content"]
    assert t.state.version == version


async def test_play_refusals_are_private_with_the_engine_reason(
    tmp_path: Path, start_bot: StartBot
) -> None:
    t = await started(tmp_path, start_bot)
    version = t.state.version
    to_act = t.member_to_act()
    name = t.game().seat_names[t.game().to_act() or 0]

    out_of_turn = await t.play("end", member=other(t))
    assert out_of_turn.ephemeral
    assert f"it is not your turn: {name} must act" in out_of_turn.data["content"]

    spectator = await t.play("end", member="manager")
    assert spectator.ephemeral and "not playing in this game" in spectator.data["content"]

    illegal = await t.play("dock terraform 7", member=to_act)
    assert illegal.ephemeral and illegal.data["content"].startswith("⛔")

    nonsense = await t.play("fly to the moon", member=to_act)
    assert nonsense.ephemeral and "unknown action `fly`" in nonsense.data["content"]

    must_dock = await t.play("end", member=to_act)
    assert must_dock.ephemeral and "you must dock your ships" in must_dock.data["content"]
    assert t.state.version == version


async def test_stale_panel_points_to_the_current_one(tmp_path: Path, start_bot: StartBot) -> None:
    t = await started(tmp_path, start_bot)
    old = t.turn_message()
    select = button(old, "af:s:")
    move = select["options"][0]["value"]
    await t.play(move)
    assert t.state.version != int(select["custom_id"].split(":")[3])

    payload = select_snapshot(t.h, old, select["custom_id"], [move], member=t.member_to_act())
    stale = await t._send(payload)
    assert stale.ephemeral
    assert "out of date" in stale.data["content"]
    assert str(t.game().row.turn_message_id) in stale.data["content"]


async def test_undo_by_command_and_by_panel(tmp_path: Path, start_bot: StartBot) -> None:
    t = await started(tmp_path, start_bot)
    game = t.game()
    before = game.state
    log_length = len(game.game.log)  # type: ignore[union-attr]
    move = next(str(a) for a in legal_actions(before) if str(a).startswith("dock"))

    await t.play(move)
    assert button(t.turn_message(), "af:u:")["label"] == "Undo"
    undone = await t.cmd("undo", member=t.member_to_act())
    assert undone.ephemeral and f"Took back `{move}`" in undone.data["content"]
    assert game.state == before

    await t.click_move(move)
    message = t.turn_message()
    result = await t._send(
        t.h.click(message, button(message, "af:u:")["custom_id"], member=t.member_to_act())
    )
    assert result.callback_type == 7
    assert game.state == before
    assert "Took back" in t.turn_message()["content"]

    # The database agrees: the undone actions are gone from the log.
    assert len(await jobs_of(t.bot).store.action_log.actions(game.id)) == log_length

    refused = await t.cmd("undo", member=t.member_to_act())
    assert refused.ephemeral and "nothing to undo" in refused.data["content"]


async def test_two_simultaneous_moves_apply_exactly_one(
    tmp_path: Path, start_bot: StartBot
) -> None:
    t = await started(tmp_path, start_bot)
    game = t.game()
    move = conflicting_dock(t)
    member = t.member_to_act()
    logged = len(await jobs_of(t.bot).store.action_log.actions(game.id))

    slash = t.h.interact(t.h.slash("play", {"move": move}, member=member), expect_response=False)
    first, second = await asyncio.gather(
        slash,
        t.h.interact(t.h.slash("play", {"move": move}, member=member), expect_response=False),
    )
    await asyncio.gather(first.done(), second.done())
    await t.settle()
    replies = []
    for r in (first, second):
        message = t.fake.get_message(t.fake.interactions[r.id].original_message_id)
        replies.append(message["content"])
        assert message["flags"] & 64  # both answers are private
    assert sorted(r.startswith("✅") for r in replies) == [False, True]
    assert any(r.startswith("⛔") for r in replies)
    actions = await jobs_of(t.bot).store.action_log.actions(game.id)
    assert len(actions) == logged + 1
    assert actions[-1].notation == move


async def test_panel_click_and_play_race(tmp_path: Path, start_bot: StartBot) -> None:
    t = await started(tmp_path, start_bot)
    move = conflicting_dock(t)
    member = t.member_to_act()
    message = t.turn_message()
    select = next(
        c
        for c in iter_components(message["components"])
        if c.get("custom_id", "").startswith("af:s:")
        and any(o["value"] == move for o in c.get("options", []))
    )
    version = t.state.version
    click = t.h.interact(t.h.select(message, select["custom_id"], [move], member=member))
    play = t.h.interact(t.h.slash("play", {"move": move}, member=member), expect_response=False)
    a, b = await asyncio.gather(click, play)
    await asyncio.gather(a.done(), b.done())
    await t.settle()
    # exactly one of them moved the game on (one action, no chance needed mid-turn)
    assert t.state.version == version + 1


async def test_restart_mid_game_old_panel_still_works(db_url: str, start_bot: StartBot) -> None:
    db = db_url
    first = await start_bot(make_bot(db))
    t = Table(first)
    await t.open(humans=("owner", "member"))
    rng = random.Random(7)
    for _ in range(5):
        await t.play(t.seeded_move(rng))
    state_before = t.state
    state_before_log = await jobs_of(first.bot).store.action_log.actions(t.game().id)
    members = dict(t.members)
    panel = t.turn_message()
    await first.close()

    second = await start_bot(make_bot(db))
    t2 = Table(second)
    t2.members = members
    game = await jobs_of(second.bot).games.by_id(panel_game_id(panel))
    assert game is not None and game.state == state_before  # rebuilt from the database
    result = await t2.click_move(t2.seeded_move(rng))
    assert result.callback_type in (6, 7)
    assert result.payload["message"]["id"] == panel["id"]  # the panel posted before the restart
    assert game.state.version > state_before.version
    logged = await jobs_of(second.bot).store.action_log.actions(game.id)
    assert logged[len(state_before_log) :] and logged[: len(state_before_log)] == state_before_log


def panel_game_id(message: dict[str, Any]) -> int:
    return int(button(message, "af:")["custom_id"].split(":")[2])


async def test_restart_resumes_a_turn_message_lost_in_a_crash(
    db_url: str, start_bot: StartBot
) -> None:
    db = db_url
    first = await start_bot(make_bot(db))
    t = Table(first)
    await t.open(humans=("owner", "member"))
    game_id = t.game().id
    turn = t.state.turn_number
    await first.close()
    # Simulate a crash after the commit of a new turn, before its message was posted.
    store = await Storage.open(db)
    await store.game_rows.update_game(game_id, turn_message_turn=turn - 1)
    await store.close()

    second = await start_bot(make_bot(db))
    game = await jobs_of(second.bot).games.by_id(game_id)
    assert game is not None and game.row.turn_message_turn == turn
    newest = second.last_message(include_ephemeral=False)
    assert newest["id"] == str(game.row.turn_message_id)
    assert newest["attachments"] and newest["components"]


async def test_autocomplete_lists_the_callers_legal_moves(
    tmp_path: Path, start_bot: StartBot
) -> None:
    t = await started(tmp_path, start_bot)
    legal = {str(a) for a in legal_actions(t.state)}
    mine = await t.h.interact(
        t.h.autocomplete("play", "move", {"move": ""}, member=t.member_to_act())
    )
    assert 0 < len(mine.choices) <= 25
    assert {c["value"] for c in mine.choices} <= legal
    docks = await t.h.interact(
        t.h.autocomplete("play", "move", {"move": "dock sol"}, member=t.member_to_act())
    )
    assert docks.choices and all(c["value"].startswith("dock solar") for c in docks.choices)
    theirs = await t.h.interact(t.h.autocomplete("play", "move", {"move": ""}, member=other(t)))
    assert theirs.choices == []


async def test_unexpected_error_is_logged_and_apologised_for(
    tmp_path: Path, start_bot: StartBot, caplog: pytest.LogCaptureFixture, monkeypatch: Any
) -> None:
    t = await started(tmp_path, start_bot)

    async def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("database on fire")

    monkeypatch.setattr(jobs_of(t.bot).moves, "play", broken)
    move = next(str(a) for a in legal_actions(t.state))
    with caplog.at_level(logging.ERROR, logger="bot.store.errors"):
        result = await t.play(move)
    assert result.ephemeral and "Something went wrong" in result.data["content"]
    (record,) = [r for r in caplog.records if r.name == "bot.store.errors"]
    assert "/play" in record.getMessage() and move in record.getMessage()
    assert "database on fire" in str(record.exc_info[1]) if record.exc_info else False

    message = t.turn_message()
    select = button(message, "af:s:")
    with caplog.at_level(logging.ERROR, logger="bot.store.errors"):
        clicked = await t._send(
            t.h.select(
                message,
                select["custom_id"],
                [select["options"][0]["value"]],
                member=t.member_to_act(),
            )
        )
    assert clicked.ephemeral and "Something went wrong" in clicked.data["content"]
    assert any(
        "component" in r.getMessage() for r in caplog.records if r.name == "bot.store.errors"
    )


async def test_a_click_on_a_finished_game_is_answered(tmp_path: Path, start_bot: StartBot) -> None:
    t = await started(tmp_path, start_bot)
    panel = t.turn_message()
    await t.cmd("af abort", member="owner")
    select = button(panel, "af:s:")
    payload = click_or_select(t, panel, select)
    result = await t._send(payload)
    assert result.ephemeral and "no longer running" in result.data["content"]


def click_or_select(t: Table, message: dict[str, Any], comp: dict[str, Any]) -> dict[str, Any]:
    if comp["type"] == 2:
        return click_snapshot(t.h, message, comp["custom_id"], member="owner")
    return select_snapshot(
        t.h, message, comp["custom_id"], [comp["options"][0]["value"]], member="owner"
    )


async def finish_turn(t: Table) -> str:
    """Play until the next move can end the turn; return that move (not played)."""
    for _ in range(40):
        state = t.state
        options = legal_actions(state)
        for action in options:
            if engine.apply(state, action).turn_number != state.turn_number:
                return str(action)
        await t.play(next((str(o) for o in options if str(o).startswith("dock")), str(options[0])))
    raise AssertionError("the turn does not end")


async def test_a_board_that_cannot_be_drawn_does_not_stop_the_game(
    tmp_path: Path, start_bot: StartBot, caplog: pytest.LogCaptureFixture
) -> None:
    t = await started(tmp_path, start_bot)

    def broken(*args: Any) -> bytes:
        raise ValueError("no paint")

    t.bot.parts.boards.pictures.renderer = broken
    last = await finish_turn(t)
    turn = t.state.turn_number
    with caplog.at_level(logging.ERROR, logger="bot.discord.announce"):
        await t.play(last)
    assert t.state.turn_number == turn + 1
    message = t.turn_message()
    assert message["attachments"] == [] and message["components"]
    assert any("could not be drawn" in r.getMessage() for r in caplog.records)


async def test_a_macro_pick_plays_each_move_and_undo_takes_the_pick_back(
    tmp_path: Path, start_bot: StartBot
) -> None:
    """ "Solar Converter: 1 + 2" is one pick: each dock is checked and logged; Undo takes
    back the whole pick."""
    t = await started(tmp_path, start_bot)
    game = t.game()
    before = game.state
    message = t.turn_message()
    dock = button(message, "af:s:")
    macro = next(o for o in dock["options"] if ";" in o["value"])
    moves = macro["value"].split(";")
    result = await t._send(
        t.h.select(message, dock["custom_id"], [macro["value"]], member=t.member_to_act())
    )
    assert result.callback_type == 7  # the turn message itself was updated
    logged = [a.notation for a in await jobs_of(t.bot).store.action_log.actions(game.id)]
    assert logged[-len(moves) :] == moves
    content = t.turn_message()["content"]
    assert content.count("docks") >= len(moves)  # a line per dock
    message = t.turn_message()
    undone = await t._send(
        t.h.click(message, button(message, "af:u:")["custom_id"], member=t.member_to_act())
    )
    assert undone.callback_type == 7
    assert game.state == before
    assert f"Took back `{moves[0]}`" in t.turn_message()["content"]


async def test_the_hint_is_private_and_changes_nothing(tmp_path: Path, start_bot: StartBot) -> None:
    t = await started(tmp_path, start_bot)
    version = t.state.version
    message = t.turn_message()
    hint = button(message, "af:h:")
    assert hint["label"] == "Hint" and "emoji" not in hint  # a word, no symbol read aloud
    result = await t._send(t.h.click(message, hint["custom_id"], member=t.member_to_act()))
    assert result.callback_type == 5 and result.ephemeral  # thinking, privately
    answer = (await result.followup()).json
    assert answer["content"].startswith("💡") and "1. " in answer["content"]
    assert int(answer.get("flags") or 0) & 64
    assert t.state.version == version
    # Someone else's hint is refused like any click on another player's panel.
    refused = await t._send(t.h.click(message, hint["custom_id"], member=other(t)))
    assert refused.ephemeral and "not your turn" in refused.data["content"]


async def test_each_state_works_out_its_moves_view_and_choices_once(
    tmp_path: Path, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A move's reply, its turn message and panel, and the panel's second steps share one
    reckoning of each state's legal actions, view and panel choices (``bot.play.games.Shown``);
    after an undo the panel is the one of the state it went back to (worked out anew)."""
    counts: Counter[tuple[str, int]] = Counter()
    seen: list[GameState] = []  # kept alive: no two states share an id

    def counting(name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def counted(state: GameState, *args: Any) -> Any:
            counts[name, id(state)] += 1
            seen.append(state)
            return real(state, *args)

        return counted

    for name in ("legal_actions", "view", "choices"):
        monkeypatch.setattr(bot.play.games, name, counting(name, getattr(bot.play.games, name)))
    t = await started(tmp_path, start_bot)
    first = t.turn_message()["components"]
    dock = button(t.turn_message(), "af:s:")
    macro = next(o["value"] for o in dock["options"] if ";" in o["value"])
    await t.click_pick(macro.split(";"))
    message = t.turn_message()
    await t._send(
        t.h.click(message, button(message, "af:u:")["custom_id"], member=t.member_to_act())
    )
    assert t.turn_message()["components"] == first  # the panel of the state gone back to
    counts.clear()  # (that state was worked out again: only the game's state now is kept)
    game, version = t.game().id, t.state.version
    step_id = f"af:s:{game}:{version}:p:0"
    for path in ("@d.0", "@d.1"):  # second steps: the docking choices at one facility
        message = forge(t.turn_message(), step_id, STRING_SELECT, options=[path])
        await t._send(select_snapshot(t.h, message, step_id, [path], member=t.member_to_act()))
        assert t.turn_message()["components"] != first
    rng = random.Random(3)
    for _ in range(12):  # moves, some of them ending a turn
        await t.play(t.seeded_move(rng, prefer_end=rng.random() < 0.3))
    assert {name for name, _ in counts} == {"legal_actions", "view", "choices"}
    assert max(counts.values()) == 1, counts

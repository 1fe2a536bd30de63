"""A committed move is answered as committed, and applied once (the move's idempotency key).

Everything after a move's commit is best effort: a read that fails after it (the seats of a
member with a timeout on record, the second move of a two-move panel pick, the row after
an undo or a seat change) is logged and repaired, never turned into "please try again" —
a member told that tries again, and a move applied twice is a move lost for the other
players. The commit of a PostgreSQL (or SQLite) transaction whose acknowledgement is lost
is found by the move's key: made, it is answered as made. The same key again — a double
click on a pick, the same interaction given to a second process — is answered with the
first result and applied once. And the board only ever shows the game as committed.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any

import asyncpg
import pytest

import engine
from bot.play import outbox
from bot.play.choice_tree import Branch, Leaf
from bot.store.storage import Storage
from engine import legal_actions
from tests.bot.discord.test_deliveries_e2e import APOLOGY, BUSY, assert_told_once, opened, recover
from tests.bot.discord.test_play_e2e import finish_turn
from tests.bot.store_areas import area_of
from tests.bot.table import Table, jobs_of, make_bot
from tests.discord_fake import StartBot

Member = str


def docks(t: Table) -> list[str]:
    return [str(a) for a in legal_actions(t.state) if str(a).startswith("dock")]


async def move_like_a_member(t: Table, move: str, member: Member) -> str:
    """``/play move`` as a member would: told to try again, they do. Their first answer."""
    said = await t.cmd("play", {"move": move}, member)
    content = str(said.data.get("content", ""))
    if APOLOGY in content or BUSY in content:
        await t.cmd("play", {"move": move}, member)
    return content


def count_in_log(logged: list[str], move: str) -> int:
    return Counter(logged)[move]


async def logged(t: Table) -> list[str]:
    return [a.notation for a in await jobs_of(t.bot).store.action_log.actions(t.game().id)]


def failing_after(store: Storage, commit: str, method: str, error: BaseException) -> list[bool]:
    """Make ``store``'s ``method`` fail once its ``commit`` has run (after the commit)."""
    committed = [False]
    original_commit = getattr(area_of(store, commit), commit)
    original = getattr(area_of(store, method), method)

    async def committing(*args: Any, **kwargs: Any) -> Any:
        result = await original_commit(*args, **kwargs)
        committed[0] = True
        return result

    async def failing(*args: Any, **kwargs: Any) -> Any:
        if committed[0]:
            committed[0] = False
            raise error
        return await original(*args, **kwargs)

    setattr(area_of(store, commit), commit, committing)
    setattr(area_of(store, method), method, failing)
    return committed


async def test_a_move_whose_member_had_a_timeout_is_answered_as_made_when_a_read_fails(
    tmp_path: Path, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The member's seat has a timeout on record (the bot played their last turn): their
    next move resets it, and the seats were read back after the commit. That read failing
    must not turn the committed move into "try again" (then played twice)."""
    t, clock = await opened(tmp_path / "af.db", start_bot)
    late = t.member_to_act()
    clock.advance(49)  # past the turn limit: the AI plays the turn for them
    assert (await t.bot.background.tick())["timeout"] == 1
    await t.settle()
    last = await finish_turn(t)  # the other member's turn
    await t.play(last)
    assert t.member_to_act() == late
    game = t.game()
    seat = game.seat_of(t.user_id(late))
    assert seat is not None and game.seats[seat].timeouts == 1
    store = jobs_of(t.bot).store
    for name in ("commit_actions", "seats"):
        monkeypatch.setattr(area_of(store, name), name, getattr(area_of(store, name), name))
    failing_after(store, "commit_actions", "seats", sqlite3.OperationalError("disk I/O error"))
    move = docks(t)[0]
    before = len(await logged(t))
    answer = await move_like_a_member(t, move, late)
    assert answer.startswith("✅") and APOLOGY not in answer
    assert count_in_log((await logged(t))[before:], move) == 1
    assert t.game().seats[seat].timeouts == 0  # as stored
    await recover(t, clock)
    await assert_told_once(t)


async def test_a_commit_whose_acknowledgement_is_lost_is_found_by_its_key(
    db_url: str, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database commits the move, then the connection drops before it says so (a lost
    PostgreSQL acknowledgement): the move's key is looked up, found, and the member told
    their move was made — once, never "try again"."""
    t, clock = await opened(db_url, start_bot, timeout=15.0)
    store = jobs_of(t.bot).store
    commit = store.action_log.commit_actions
    fails = [1]

    async def acknowledgement_lost(*args: Any, **kwargs: Any) -> Any:
        result = await commit(*args, **kwargs)
        if fails[0]:
            fails[0] -= 1
            if store.dialect == "postgresql":
                raise asyncpg.exceptions.ConnectionDoesNotExistError("connection was closed")
            raise sqlite3.OperationalError("disk I/O error")
        return result

    monkeypatch.setattr(store.action_log, "commit_actions", acknowledgement_lost)
    member = t.member_to_act()
    move = docks(t)[0]
    version = t.state.version
    before = len(await logged(t))
    answer = await move_like_a_member(t, move, member)
    assert not fails[0]
    assert answer.startswith(f"✅ `{move}`") and APOLOGY not in answer
    assert count_in_log((await logged(t))[before:], move) == 1
    assert t.state.version > version  # the game in memory is the game as stored
    await recover(t, clock)
    await assert_told_once(t)


async def test_a_move_the_database_cannot_confirm_is_neither_done_nor_try_again(
    tmp_path: Path, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The commit fails and the database cannot be asked whether it was made: the member is
    told to look at the turn message (not to play it again); the game leaves memory and is
    loaded as stored at the turn clock's next check."""
    t, clock = await opened(tmp_path / "af.db", start_bot)
    game = t.game()
    version = game.state.version
    store = jobs_of(t.bot).store
    broken = sqlite3.OperationalError("disk I/O error")

    async def fails(*args: Any, **kwargs: Any) -> Any:
        raise broken

    with monkeypatch.context() as m:
        for name in ("commit_actions", "keyed_move", "game"):
            m.setattr(area_of(store, name), name, fails)
        said = await t.cmd("play", {"move": docks(t)[0]}, t.member_to_act(), wait=False)
        await said.done()
    content = str(said.data.get("content", ""))
    assert content.startswith("⏳") and APOLOGY not in content
    assert jobs_of(t.bot).games.held(game.id) is None
    await t.bot.background.tick()
    back = jobs_of(t.bot).games.held(game.id)
    assert back is not None and back.state.version == version  # as stored: not made
    await recover(t, clock)
    await assert_told_once(t)


def macro_pick(t: Table) -> list[str]:
    """A pick of the panel that plays two moves or more (a dock of several ships)."""
    choices = t.bot.announcer.choices(t.game())
    todo: list[Any] = [choices.dock, choices.powers]
    while todo:
        node = todo.pop()
        if isinstance(node, Leaf) and len(node.moves) >= 2:
            return list(node.moves)
        if isinstance(node, Branch):
            todo.extend(node.children)
    raise LookupError("no pick of several moves on the panel")


async def test_the_second_move_of_a_pick_failing_leaves_the_first_made_and_said(
    tmp_path: Path, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A panel pick of two moves: the first is committed, the second's commit fails. The
    member sees the first on the turn message, never "try again"."""
    t, clock = await opened(tmp_path / "af.db", start_bot)
    for _ in range(12):
        try:
            moves = macro_pick(t)
            break
        except LookupError:
            await t.play(await finish_turn(t))
    else:
        pytest.skip("no pick of several moves came up")
    store = jobs_of(t.bot).store
    commit = store.action_log.commit_actions
    calls = [0]

    async def second_fails(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        if calls[0] == 2:
            raise sqlite3.OperationalError("database is locked")
        return await commit(*args, **kwargs)

    monkeypatch.setattr(store.action_log, "commit_actions", second_fails)
    version = t.state.version
    clicked = await t.click_pick(moves)
    answers = [
        str((r.json or {}).get("data", r.json or {}).get("content", "")) for r in clicked.requests
    ]
    assert not [a for a in answers if APOLOGY in a], answers
    assert calls[0] == 2
    made = await logged(t)
    assert moves[0] in made and t.state.version > version
    assert t.turn_message()["components"]  # the panel of the game as it is now
    versions = {
        int(str(c["custom_id"]).split(":")[3])
        for row in t.turn_message()["components"]
        for c in row.get("components", [])
        if str(c.get("custom_id", "")).startswith("af:")
    }
    assert versions == {t.state.version}
    monkeypatch.setattr(store.action_log, "commit_actions", commit)
    await recover(t, clock)
    await assert_told_once(t)


async def test_a_double_click_on_a_pick_is_played_once_and_answered_as_played(
    tmp_path: Path, start_bot: StartBot
) -> None:
    """The same pick clicked twice (the second click on the panel as it was): played once,
    and the second click is answered as played, not refused as out of date."""
    from tests.discord_fake.extra import select_snapshot

    t, clock = await opened(tmp_path / "af.db", start_bot)
    message = t.turn_message()
    member = t.member_to_act()
    pick = None
    for row in message["components"]:
        for c in row.get("components", []):
            for option in c.get("options", []):
                if not str(option["value"]).startswith("@"):
                    pick = (c["custom_id"], str(option["value"]))
                    break
            if pick:
                break
        if pick:
            break
    assert pick is not None
    before = len(await logged(t))
    first = await t._send(select_snapshot(t.h, message, pick[0], [pick[1]], member=member))
    second = await t._send(select_snapshot(t.h, message, pick[0], [pick[1]], member=member))
    said = [
        str((r.json or {}).get("data", {}).get("content", ""))
        for r in [*first.requests, *second.requests]
    ]
    assert not [s for s in said if "out of date" in s or APOLOGY in s], said
    assert count_in_log((await logged(t))[before:], pick[1]) == 1
    await recover(t, clock)
    await assert_told_once(t)


async def test_an_undo_is_answered_as_made_when_the_read_after_it_fails(
    tmp_path: Path, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    t, clock = await opened(tmp_path / "af.db", start_bot)
    member = t.member_to_act()
    move = docks(t)[0]
    before = len(await logged(t))
    await t.play(move, member)
    store = jobs_of(t.bot).store
    for name in ("undo_action", "game_as_logged"):  # the read of the game as committed
        monkeypatch.setattr(area_of(store, name), name, getattr(area_of(store, name), name))
    failing_after(
        store, "undo_action", "game_as_logged", sqlite3.OperationalError("disk I/O error")
    )
    said = await t.cmd("undo", member=member)
    content = str(said.data.get("content", ""))
    assert content.startswith("↩️") and APOLOGY not in content
    assert len(await logged(t)) == before
    await recover(t, clock)
    await assert_told_once(t)


async def test_a_seat_change_is_answered_as_made_when_the_read_after_it_fails(
    tmp_path: Path, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The host hands a member's seat to the AI; the reads after the commit fail: the
    channel is told, the host is not told to try again."""
    t, clock = await opened(tmp_path / "af.db", start_bot)
    store = jobs_of(t.bot).store
    for name in ("commit_seat_change", "game", "seats"):
        monkeypatch.setattr(area_of(store, name), name, getattr(area_of(store, name), name))
    failing_after(store, "commit_seat_change", "game", sqlite3.OperationalError("disk I/O error"))
    failing_after(store, "commit_seat_change", "seats", sqlite3.OperationalError("disk I/O error"))
    said = await t.cmd("af kick", {"player": "member"}, "owner")
    assert APOLOGY not in str(said.data.get("content", ""))
    assert t.said("AI")  # the seat's change is said in the channel
    game = t.game()
    assert game.seats[1].is_ai and game.seats[1].former_user_id == t.user_id("member")
    row = await store.game_rows.game(game.id)
    assert row is not None and row.waiting_on_user == game.waiting_on()
    await recover(t, clock)


async def test_the_board_never_shows_a_move_that_was_not_committed(
    tmp_path: Path, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A delivery renders the turn message while a move is being committed, and the commit
    then fails: the turn message shows the game as committed (not the move), and its panel
    works."""
    t, clock = await opened(tmp_path / "af.db", start_bot)
    game = t.game()
    store = jobs_of(t.bot).store
    commit = store.action_log.commit_actions
    member = t.member_to_act()
    move = docks(t)[0]
    before = t.turn_message()["content"]

    async def shown_then_refused(*args: Any, **kwargs: Any) -> Any:
        # Meanwhile the worker shows the turn message (a delivery queued before the move).
        await store.deliveries.queue([outbox.turn_shown(game, jobs_of(t.bot).moves.clock())])
        await t.bot.deliveries.settle()
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(store.action_log, "commit_actions", shown_then_refused)
    said = await t.cmd("play", {"move": move}, member)
    assert BUSY in str(said.data.get("content", ""))  # not made: they may try again
    monkeypatch.setattr(store.action_log, "commit_actions", commit)
    shown = t.turn_message()
    assert shown["content"] == before and move not in await logged(t)
    versions = {
        int(str(c["custom_id"]).split(":")[3])
        for row in shown["components"]
        for c in row.get("components", [])
        if str(c.get("custom_id", "")).startswith("af:")
    }
    assert versions == {game.state.version}  # its panel is the game's as stored
    await t.click_move(move, member)  # and it works
    assert move in await logged(t)
    await recover(t, clock)
    await assert_told_once(t)


async def test_one_interaction_given_to_two_processes_is_played_once(
    db_url: str, start_bot: StartBot
) -> None:
    """Two processes over the same shards (a rolling restart) both receive the member's
    ``/play``; the second gets it once the first committed it, on a copy of the game as
    it is now, where the same move is legal again: applied once (its key, the
    interaction), and answered once — on PostgreSQL the second process finds the
    interaction taken by the first (bot.discord.owners) and does nothing at all; on SQLite
    (one process per file, the second refused by the bot lock in real life) it answers as
    the first did, and Discord refuses that second answer."""
    t, clock = await opened(db_url, start_bot, timeout=15.0)
    member = t.member_to_act()
    state = t.state
    again = [
        m
        for m in docks(t)
        if m in {str(a) for a in legal_actions(engine.apply(state, engine.parse(m)))}
    ]
    assert again, "no dock that may be played twice"
    move = again[0]
    before = len(await logged(t))
    payload = t.h.slash("play", {"move": move}, member=member)
    first = await t.h.interact(payload)
    await t.settle(first)
    other = await start_bot(make_bot(db_url, clock=clock), timeout=15.0)  # loads it now
    second = await other.interact(payload, expect_response=False)
    await second.done()
    await Table(other).settle()
    assert count_in_log((await logged(t))[before:], move) == 1
    answers = [
        str((r.json or {}).get("data", {}).get("content", ""))
        for r in t.fake.find(interaction_id=first.id)
    ]
    answered = 1 if db_url.startswith("postgres") else 2  # SQLite: the 2nd too late, refused
    assert len([a for a in answers if a.startswith("✅")]) == answered, answers
    assert not [a for a in answers if APOLOGY in a or "⛔" in a], answers

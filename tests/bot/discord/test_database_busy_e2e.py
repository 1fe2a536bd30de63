"""The database busy or refusing writes for a while, through discord.py and the fake Discord.

An AI move the database refuses is tried again after a short backoff (doubling, capped
at a minute), so the AI seat plays again soon after writes come back, not at the turn
clock's next check. A command or click that waits on the database (another program
holding SQLite's write lock) is deferred before Discord's 3-second deadline, and its
answer comes as a follow-up: the move as committed (applied once), or, when nothing was
committed, "the database is busy, nothing was changed".
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.discord.background import AI_RETRY_CAP_SECONDS, ai_retry_wait
from engine import legal_actions
from tests.bot.discord.test_committed_moves_e2e import docks, logged
from tests.bot.discord.test_deliveries_e2e import APOLOGY, recover
from tests.bot.table import Clock, Table, jobs_of, make_bot
from tests.discord_fake import StartBot
from tests.discord_fake.harness import CALLBACK_ROUTE, FOLLOWUP_ROUTE
from tests.postgres import refuse_writes

BUSY = "The database is busy"
DEFERRED = 5  # the callback type of a deferral with "thinking…"
DEFERRED_UPDATE = 6  # a click's deferral: its message is edited later


async def table(db: Path | str, start_bot: StartBot, **settings: Any) -> tuple[Table, Clock]:
    clock = Clock()
    bot = make_bot(db, clock=clock, **settings)
    t = Table(await start_bot(bot))
    return t, clock


def test_ai_retry_waits_double_up_to_a_minute_and_never_run_hot() -> None:
    waits = [ai_retry_wait(n, 2.0) for n in range(1, 40)]
    assert waits[:5] == [2.0, 4.0, 8.0, 16.0, 32.0]
    assert max(waits) == AI_RETRY_CAP_SECONDS and waits[-1] == AI_RETRY_CAP_SECONDS
    assert min(ai_retry_wait(n, 0.0) for n in range(1, 5)) > 0


async def test_an_ai_move_refused_by_the_database_is_played_soon_after_writes_come_back(
    tmp_path: Path, start_bot: StartBot
) -> None:
    """The database refuses writes when the AI seat is to act: the AI move fails again and
    again, each time after a longer wait, and once writes come back the AI plays on its own
    — no turn clock check (``tick``, ``restart_stalled``) is needed."""
    t, _ = await table(tmp_path / "af.db", start_bot, ai_retry_seconds=0.01)
    store = jobs_of(t.bot).store
    commit = store.action_log.commit_actions
    refused = [0]
    refusing = [False]

    async def read_only(*args: Any, **kwargs: Any) -> Any:
        if refusing[0] and t.game().ai_to_act() is not None:
            refused[0] += 1
            raise sqlite3.OperationalError("attempt to write a readonly database")
        return await commit(*args, **kwargs)

    store.action_log.commit_actions = read_only  # type: ignore[method-assign]
    await t.open(humans=("owner",), bots=("easy",))
    refusing[0] = True
    while (game := t.game()).ai_to_act() is None:  # the owner plays until the AI is to act
        moves = [str(a) for a in legal_actions(game.state)]
        move = next((m for m in moves if m.startswith("dock")), moves[0])
        played = await t.cmd("play", {"move": move}, t.member_to_act(), wait=False)
        await played.done()
    for _ in range(500):  # the AI move fails several times (a bounded wait)
        if refused[0] >= 3:
            break
        await asyncio.sleep(0.01)
    assert refused[0] >= 3, refused
    refusing[0] = False  # writes come back
    await t.bot.background.wait_idle()  # the AI's own retry, no check of the clock
    game = t.game()
    assert game.user_to_act() == t.user_id("owner")
    assert game.game is not None and await logged(t) == [str(a) for a in game.game.log]


def hold_write_lock(db: Path) -> sqlite3.Connection:
    """Another program takes SQLite's write lock (``BEGIN IMMEDIATE``) and keeps it."""
    other = sqlite3.connect(db, isolation_level=None, timeout=0.1)
    other.execute("BEGIN IMMEDIATE")
    return other


async def panel_payload(t: Table, move: str, member: str) -> dict[str, Any]:
    """The click on the turn message's panel that plays ``move`` (the steps leading to it
    are clicked, the last one is returned unsent)."""
    final: dict[str, Any] = {}
    send = t._send

    async def capture(payload: dict[str, Any]) -> Any:
        values = payload.get("data", {}).get("values") or []
        if values and str(values[0]).startswith("@"):
            return await send(payload)
        final["payload"] = payload
        return None

    t._send = capture  # type: ignore[method-assign]
    try:
        await t.click_pick([move], member)
    finally:
        t._send = send  # type: ignore[method-assign]
    payload: dict[str, Any] = final["payload"]
    return payload


@pytest.mark.parametrize("how", ["command", "click"])
async def test_a_move_during_a_held_sqlite_lock_is_deferred_then_answered_and_applied_once(
    tmp_path: Path, start_bot: StartBot, how: str
) -> None:
    """Another program holds SQLite's write lock while a member plays (by ``/af play`` or
    on the panel): the interaction is deferred before Discord's deadline; once the lock
    lifts the move is committed, answered as committed through the deferral (an answer to
    the interaction itself would now be refused, 10062), and applied once."""
    db = tmp_path / "af.db"
    t, clock = await table(db, start_bot, defer_after_seconds=0.05)
    await t.open(humans=("owner", "member"))
    member = t.member_to_act()
    move = docks(t)[0]
    before = await logged(t)
    if how == "click":
        await panel_payload(t, move, member)  # the panel's steps opened before the lock
    other = hold_write_lock(db)
    try:
        if how == "command":
            payload = t.h.slash("play", {"move": move}, member=member)
        else:
            payload = await panel_payload(t, move, member)
        t.members[t.user_id(member)] = member
        result = await t.h.interact(payload, timeout=3.0)  # its first answer: the deferral
        assert result.callback_type == (DEFERRED if how == "command" else DEFERRED_UPDATE)
        t.fake.interaction_deadline = 0.0  # Discord's 3 s are over: no callback now
    finally:
        other.rollback()
        other.close()
    await t.settle(result)
    made = await logged(t)
    assert made == [*before, move]  # applied once
    rejected = [r for r in result.requests if r.status >= 400]
    assert not rejected, rejected
    if how == "command":
        answer = await result.original_edit(timeout=1.0)  # the "thinking…" edited
        assert answer.json is not None and move in str(answer.json.get("content"))
        assert BUSY not in str(answer.json.get("content"))
    else:
        assert t.game().state.version > 0
        shown = t.turn_message()
        versions = {
            int(str(c["custom_id"]).split(":")[3])
            for row in shown["components"]
            for c in row.get("components", [])
            if str(c.get("custom_id", "")).startswith("af:")
        }
        assert versions == {t.game().state.version}  # the board edited through the click
    t.fake.interaction_deadline = None
    await recover(t, clock)


async def test_a_move_the_busy_database_refuses_is_told_nothing_was_changed(
    tmp_path: Path, start_bot: StartBot
) -> None:
    """The database stays busy past the wait (``database is locked``): the member, deferred
    before the deadline, is told privately that the database is busy and nothing was
    changed — not the apology for a bug — and the move was not made."""
    t, clock = await table(tmp_path / "af.db", start_bot, defer_after_seconds=0.05)
    await t.open(humans=("owner", "member"))
    store = jobs_of(t.bot).store
    commit = store.action_log.commit_actions
    release = asyncio.Event()

    async def locked(*args: Any, **kwargs: Any) -> Any:
        await release.wait()  # SQLite's busy wait, then its verdict
        raise sqlite3.OperationalError("database is locked")

    store.action_log.commit_actions = locked  # type: ignore[method-assign]
    member = t.member_to_act()
    move = docks(t)[0]
    before = await logged(t)
    t.members[t.user_id(member)] = member
    result = await t.h.interact(t.h.slash("play", {"move": move}, member=member), timeout=3.0)
    assert result.callback_type == DEFERRED and result.ephemeral
    t.fake.interaction_deadline = 0.0
    release.set()
    await t.settle(result)
    answer = await result.original_edit(timeout=1.0)  # the "thinking…" edited
    content = str((answer.json or {}).get("content"))
    assert BUSY in content and "Nothing was changed" in content and APOLOGY not in content
    assert await logged(t) == before
    store.action_log.commit_actions = commit  # type: ignore[method-assign]
    t.fake.interaction_deadline = None
    await recover(t, clock)
    assert [r for r in t.fake.find(route=FOLLOWUP_ROUTE) if r.status >= 400] == []


async def test_the_deferral_never_crosses_an_answer_in_flight(
    tmp_path: Path, start_bot: StartBot
) -> None:
    """A command's answer is on its way (Discord slow to acknowledge it) when the deferral
    is due: discord.py marks the interaction answered only once Discord replied, yet the
    deferral waits for the answer and then does nothing — one callback, no 40060."""
    t, _ = await table(tmp_path / "af.db", start_bot, defer_after_seconds=0.05)
    fake = t.fake
    held = asyncio.Event()
    go = asyncio.Event()

    async def slow_callback(call: Any) -> Any:
        held.set()
        await go.wait()
        return await fake._interaction_callback(call)

    fake.set_handler("POST", CALLBACK_ROUTE, slow_callback)
    payload = t.h.slash("af rules", {"topic": "Plasma"}, member="member")
    result = await t.h.interact(payload, expect_response=False)
    await asyncio.wait_for(held.wait(), 3.0)
    await asyncio.sleep(0.3)  # the deferral falls due meanwhile
    go.set()
    await result.done()
    await asyncio.sleep(0.1)  # a deferral (if one were sent) lands
    callbacks = result.requests
    assert [r.status for r in callbacks if r.route == CALLBACK_ROUTE] == [200], callbacks
    assert [r for r in callbacks if r.route != CALLBACK_ROUTE] == []


async def test_a_bot_whose_schema_is_current_starts_while_postgresql_refuses_writes(
    pg_url: str, start_bot: StartBot
) -> None:
    """PostgreSQL refuses writes (read-only after a failover) when the bot starts: its
    schema is current, so the start only reads (nothing to migrate, nothing created), and
    the bot is up with its games, answering what only reads (``/af status``), while every
    write is still refused. Before, the start wrote (``CREATE TABLE IF NOT EXISTS``) and
    failed: the supervisor restarted it for as long as the database was read-only."""
    t, clock = await table(pg_url, start_bot)
    await t.open(humans=("owner", "member"))
    game_id = t.game().id
    await t.h.close()
    await refuse_writes(pg_url, True)
    again = Table(await start_bot(make_bot(pg_url, clock=clock)))
    again.members = dict(t.members)
    assert jobs_of(again.bot).games.held(game_id) is not None
    with pytest.raises(asyncpg.ReadOnlySQLTransactionError):
        await jobs_of(again.bot).store.meta.set_meta("written", "no")
    status = await again.cmd("af status")
    answer = str(status.data.get("content", ""))
    assert "**Round 1** (turn 1)" in answer and "Waiting on member" in answer, answer

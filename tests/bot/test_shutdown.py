"""``bot.close()`` stops cleanly: new interactions are refused, the ones in flight finish
(answered, not cut off by a closed session), AI moves are not cut in half, the database
is closed."""

from __future__ import annotations

import asyncio
import logging
import random
from pathlib import Path

import pytest

from bot.discord.shutdown import Gate, hold_locks
from tests.bot.table import Table, jobs_of, make_bot
from tests.discord_fake import StartBot
from tests.discord_fake.extra import HeldCallback
from tests.discord_fake.harness import CALLBACK_ROUTE

RESTARTING = "The bot is restarting"
# Generous bounds for awaiting, never measured: the bot's own grace is 5 seconds.
WAIT = 10.0


async def test_close_finishes_the_move_in_flight_and_refuses_new_work(
    tmp_path: Path, start_bot: StartBot, caplog: pytest.LogCaptureFixture
) -> None:
    t = Table(await start_bot(make_bot(tmp_path / "af.db")))
    await t.open(humans=("owner", "member"))
    game = t.game()
    to_act = t.member_to_act()
    move = t.seeded_move(random.Random(5))
    store = jobs_of(t.bot).store
    before = len(await store.action_log.actions(game.id))

    payload = t.h.slash("play", {"move": move}, member=to_act)
    held = HeldCallback(t.fake, int(payload["id"]))
    playing = await t.h.interact(payload, expect_response=False)
    await asyncio.wait_for(held.arrived.wait(), WAIT)  # committed, being answered
    assert len(await store.action_log.actions(game.id)) > before

    closing = asyncio.create_task(t.bot.close())
    await asyncio.sleep(0)
    assert t.bot.gate.closing and not closing.done()
    # New work while stopping: refused privately, nothing done.
    refused = await t.h.interact(t.h.slash("play", {"move": "end"}, member=to_act))
    assert refused.ephemeral and RESTARTING in refused.data["content"]
    complete = await t.h.interact(t.h.autocomplete("play", "move", {"move": ""}, member=to_act))
    assert complete.callback_type == 8 and complete.choices == []
    assert not closing.done()

    held.release.set()
    await asyncio.wait_for(closing, WAIT)
    await playing.done(timeout=WAIT)
    (answer,) = [r for r in playing.requests if r.route == CALLBACK_ROUTE]
    assert answer.status == 200 and answer.json["data"]["content"].startswith("✅")
    shown = [r for r in t.fake.requests[answer.index :] if r.route.startswith("/channels/")]
    assert shown and all(r.status < 300 for r in shown)  # the turn message was updated too
    assert not jobs_of(t.bot).database.is_open and t.bot.is_closed()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_gate_waits_a_bounded_time() -> None:
    gate = Gate()
    release = asyncio.Event()

    async def handler() -> None:
        assert gate.admit()
        await release.wait()

    task = asyncio.create_task(handler())
    await asyncio.sleep(0)
    assert gate.in_flight == 1
    assert await gate.close(timeout=0.05) == 1  # still running when the time is up
    assert not gate.admit()
    release.set()
    await task
    assert gate.in_flight == 0 and await gate.close() == 0


async def test_hold_locks_waits_for_a_move_then_keeps_the_locks() -> None:
    busy, free = asyncio.Lock(), asyncio.Lock()
    await busy.acquire()
    holding = asyncio.create_task(hold_locks([free, busy], timeout=WAIT))
    await asyncio.sleep(0)
    assert free.locked() and not holding.done()
    busy.release()  # the move being applied ends
    assert await holding == [free, busy]
    assert busy.locked() and free.locked()
    timed_out = await hold_locks([busy], timeout=0.01)
    assert timed_out == []

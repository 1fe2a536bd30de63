"""One owner per interaction: two processes over one PostgreSQL database, both given every
interaction (a rolling restart: Discord lets two sessions of a shard overlap).

Each command or click is acted on and answered by the process that claims it first
(``bot.discord.owners``); the other does nothing and answers nothing. A lobby command is
applied once, a member is never told a failure for what happened, a move is answered
once; and what one process queued in a lane the other holds is delivered from the game
as committed, whichever process last saw it (``HeldGames.as_committed``).
"""

from __future__ import annotations

import asyncio
import copy
import random
from typing import Any

from engine import legal_actions
from engine.serialize import loads
from tests.bot.discord.test_deliveries_e2e import APOLOGY, table, turn_messages
from tests.bot.table import Clock, Table, jobs_of, make_bot
from tests.discord_fake import BotHarness, StartBot


async def both(t: Table, other: BotHarness, payload: dict[str, Any]) -> list[str]:
    """Give ``payload`` to both processes at once (the same interaction, as Discord sends it
    to both sessions); wait for both to finish; what the member saw (every answer that
    Discord took: callbacks and follow-ups of the interaction)."""
    start = len(t.fake.requests)
    first = await t.h.interact(payload, expect_response=False)
    second = await other.interact(copy.deepcopy(payload), expect_response=False)
    await first.done()
    await second.done()
    await t.settle()
    await Table(other).settle()
    iid = int(payload["id"])
    seen = []
    for r in t.fake.requests[start:]:
        if r.interaction_id == iid and r.status < 300:
            data = (r.json or {}).get("data", r.json or {})
            seen.append(str(data.get("content", "")) or f"<{(r.json or {}).get('type')}>")
    return seen


def refused(answers: list[str]) -> list[str]:
    return [a for a in answers if "⛔" in a or APOLOGY in a]


async def two_processes(pg_url: str, start_bot: StartBot) -> tuple[Table, BotHarness, Clock]:
    t, clock = await table(pg_url, start_bot, timeout=15.0)
    other = await start_bot(make_bot(pg_url, clock=clock), timeout=15.0)
    return t, other, clock


async def test_a_lobby_given_to_two_processes_is_made_once_and_answered_once(
    pg_url: str, start_bot: StartBot
) -> None:
    """``/af new``, ``/af join``, ``/af bot`` and ``/af start`` each given to both
    processes: each applied once (one game, one AI seat, one start), each answered once,
    no member told of a failure for what happened; the first turn message is posted."""
    t, other, _ = await two_processes(pg_url, start_bot)
    h = t.h
    answers = {
        "new": await both(t, other, h.slash("af new", {"players": 3}, member="owner")),
        "join": await both(t, other, h.slash("af join", None, member="member")),
        "bot": await both(t, other, h.slash("af bot", None, member="owner")),
        "start": await both(t, other, h.slash("af start", None, member="owner")),
    }
    for name, seen in answers.items():
        assert not refused(seen), (name, seen)
        assert len([a for a in seen if not a.startswith("<")]) == 1, (name, seen)
    store = jobs_of(t.bot).store
    games = await store.db.fetch("SELECT id, status FROM games")
    assert [str(g["status"]) for g in games] == ["playing"], games
    game_id = int(games[0]["id"])
    seats = await store.seat_rows.seats(game_id)
    assert len(seats) == 3, answers
    assert sum(s.ai_level is not None for s in seats) == 1, seats
    assert len(t.said("takes a seat")) == 1, t.said("takes a seat")
    assert len(t.said("The game starts")) == 1
    assert await store.deliveries.pending_deliveries() == []
    row = await store.game_rows.game(game_id)
    assert row is not None and row.turn_message_turn is not None
    assert sum(turn_messages(t, game_id).values()) == 1


async def test_each_interaction_is_answered_by_one_process_only(
    pg_url: str, start_bot: StartBot
) -> None:
    """Every interaction given to both processes, moves too, gets one callback: the process
    that did not take it sends nothing (no second answer refused with 40060, no follow-up);
    each move is applied once and acknowledged once."""
    t, other, _ = await two_processes(pg_url, start_bot)
    h = t.h
    payloads = [
        h.slash("af new", {"players": 2}, member="owner"),
        h.slash("af join", None, member="member"),
        h.slash("af start", None, member="owner"),
    ]
    for payload in payloads:
        seen = await both(t, other, payload)
        assert len(seen) == 1 and not refused(seen), seen
    rng = random.Random(3)
    store = jobs_of(t.bot).store
    game_id = int((await store.db.fetch("SELECT id FROM games"))[0]["id"])
    for _ in range(4):
        before = len(await store.action_log.actions(game_id))
        row, snapshot = (
            await store.game_rows.game(game_id),
            await store.action_log.snapshot(game_id),
        )
        assert row is not None and snapshot is not None  # the game as committed
        member = "owner" if row.waiting_on_user == t.user_id("owner") else "member"
        actions = [str(a) for a in legal_actions(loads(snapshot[1]))]
        move = rng.choice([a for a in actions if a.startswith("dock")] or actions)
        payload = h.slash("play", {"move": move}, member=member)
        payloads.append(payload)
        seen = await both(t, other, payload)
        assert len([a for a in seen if a.startswith("✅")]) == 1, seen
        assert not refused(seen), seen
        assert len(await store.action_log.actions(game_id)) > before
    for payload in payloads:
        calls = [r for r in t.fake.find(interaction_id=int(payload["id"])) if "callback" in r.path]
        assert len(calls) == 1, [(c.status, c.json) for c in calls]
        followups = [
            r
            for r in t.fake.find(interaction_id=int(payload["id"]))
            if r.method == "POST" and "webhooks" in r.path
        ]
        assert followups == [], [(c.status, c.json) for c in followups]


async def test_a_game_started_by_the_other_process_gets_its_turn_message(
    pg_url: str, start_bot: StartBot
) -> None:
    """The first process made the lobby and holds its channel's lane; the second takes
    ``/af start``: its deliveries wait for the first, whose copy of the game is still the
    lobby. The first delivers them, at its next look (within seconds: it holds a lane), from
    the game as committed: the start, then the first turn message with its ping, recorded
    (not dropped as out of date)."""
    t, other, _ = await two_processes(pg_url, start_bot)
    await t.cmd("af new", {"players": 2})  # the first process only: the lane is its own
    await t.cmd("af join", member="member")
    game_id = t.game().id
    started = await other.interact(other.slash("af start", None, member="owner"))
    await started.done()
    await Table(other).settle()  # the lane is the first's: left to it
    # The first process's worker finds them by itself (it looks every HELD_POLL_SECONDS
    # while it holds a lane), not only at its next look at the outbox (POLL_SECONDS).
    for _ in range(100):
        if turn_messages(t, game_id):
            break
        await asyncio.sleep(0.1)
    assert sum(turn_messages(t, game_id).values()) == 1
    await t.settle()
    store = jobs_of(t.bot).store
    assert await store.deliveries.pending_deliveries() == []
    row = await store.game_rows.game(game_id)
    assert row is not None and row.status == "playing" and row.turn_message_turn is not None
    assert sum(turn_messages(t, game_id).values()) == 1
    assert len(t.said("The game starts")) == 1
    assert t.game().game is not None  # the first process's copy is the game as committed

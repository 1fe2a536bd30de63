"""Nothing a player must see is lost (the outbox: bot/play/outbox.py, bot/discord/delivery.py).

Discord misbehaves at each step of a turn change — the move's answer, the edit that closes
the old turn message, the new turn message, the DM — with a 503, a connection reset before
or after the request took effect, a 429, a permission taken away, an interaction answered
too late; the database fails between the commit and the delivery; the bot restarts with
deliveries pending. Each time: the mover's move is acknowledged as made (never "please try
again"), and once Discord answers again the member to act is told, exactly once; no move
is lost or doubled; no turn gets two turn messages.
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bot.discord.delivery import MAX_AGE_SECONDS
from bot.discord.health import Heartbeat, backlog_text
from engine import legal_actions
from tests.bot.discord.test_play_e2e import finish_turn
from tests.bot.store_areas import area_of
from tests.bot.table import Clock, Table, jobs_of, make_bot
from tests.discord_fake import StartBot
from tests.discord_fake.payloads import STRING_SELECT, iter_components
from tests.discord_fake.server import ApiError, FakeResponse
from tests.postgres import NoPostgres, PostgresServer

MESSAGES = "/channels/{channel_id}/messages"
CALLBACK = "/interactions/{interaction_id}/{token}/callback"
APOLOGY = "Something went wrong"
BUSY = "The database is busy"  # a move the database refused: nothing was changed

FAULTS: dict[str, dict[str, Any]] = {
    "503": {"status": 503, "code": 0, "message": "Service Unavailable"},
    "reset": {"mode": "reset"},  # the connection drops before the request is handled
    "reset_after": {"mode": "reset_after"},  # it took effect, the answer is lost
    "forbidden": {"status": 403, "code": 50013, "message": "Missing Permissions"},
    "429": {"status": 429, "code": 0, "message": "You are being rate limited."},
}


async def table(
    db: Path | str, start_bot: StartBot, timeout: float = 5.0, **kwargs: Any
) -> tuple[Table, Clock]:
    clock = Clock()
    t = Table(await start_bot(make_bot(db, clock=clock, **kwargs), timeout=timeout))
    return t, clock


async def opened(
    db: Path | str, start_bot: StartBot, timeout: float = 5.0, **kwargs: Any
) -> tuple[Table, Clock]:
    t, clock = await table(db, start_bot, timeout, **kwargs)
    await t.open(humans=("owner", "member"))
    return t, clock


def arm(t: Table, method: str, route: str, fault: str, times: int = 1) -> None:
    """The next ``times`` requests to ``route`` fail with ``fault``."""
    spec = dict(FAULTS[fault])
    if fault == "429":  # discord.py waits out a 429 itself and tries again: seen by nobody
        t.fake.fault_hook = _once(method, route, times)
        return
    t.fake.fail_next(method, route, times=times, **spec)


def _once(method: str, route: str, times: int) -> Any:
    from tests.discord_fake.server import Fault

    left = [times]

    def hook(m: str, template: str, path: str) -> Fault | None:
        if m == method and route in (template, path) and left[0] > 0:
            left[0] -= 1
            return Fault(status=429, retry_after=0.05)
        return None

    return hook


async def recover(t: Table, clock: Clock, rounds: int = 8) -> None:
    """Let Discord answer again: time passes (past any retry's wait) and what is due is
    delivered, until nothing is left to deliver."""
    store = jobs_of(t.bot).store
    for _ in range(rounds):
        await t.bot.parts.boards.flush()
        await t.settle()
        if not await store.deliveries.pending_deliveries():
            return
        clock.advance(0.1)  # six minutes
        await t.bot.deliveries.settle()
    raise AssertionError(f"still pending: {await store.deliveries.pending_deliveries()}")


def turn_messages(t: Table, game_id: int) -> Counter[int]:
    """How many messages of the channel show each turn's board (a turn message keeps its
    turn's picture, also once closed)."""
    found: Counter[int] = Counter()
    pattern = re.compile(rf"board-{game_id}-turn(\d+)\.png")
    for m in t.channel_messages():
        for a in m.get("attachments", []):
            if (hit := pattern.fullmatch(a["filename"])) is not None:
                found[int(hit[1])] += 1
    return found


def pings(t: Table, user: int) -> dict[int, str]:
    """The messages created with a ping for ``user`` (a post retried counted once): id ->
    content."""
    seen: dict[int, str] = {}
    for r in t.fake.find(method="POST", route=MESSAGES):
        body = r.json or {}
        users = [int(u) for u in (body.get("allowed_mentions") or {}).get("users", [])]
        if user in users and isinstance(r.response, dict) and "id" in r.response:
            seen[int(r.response["id"])] = str(r.response.get("content", ""))
    return seen


def turn_of(t: Table, game_id: int, message_id: int) -> int | None:
    """The turn whose board a message shows (None: no board)."""
    message = t.fake.messages.get(message_id)
    for a in (message or {}).get("attachments", []):
        hit = re.fullmatch(rf"board-{game_id}-turn(\d+)\.png", a["filename"])
        if hit is not None:
            return int(hit[1])
    return None


async def assert_told_once(t: Table, channel_pings: bool = True, apologies: int = 0) -> None:
    """Nothing left to deliver; at most one message per turn, exactly one for the turn in
    play, recorded as its turn message; its member pinged by it (if they hear of their
    turns in the channel: ``channel_pings``), and once per turn only; the log as stored is
    the game's; no apology anywhere (but for ``apologies`` moves that were not made)."""
    game = t.game()
    store = jobs_of(t.bot).store
    assert await store.deliveries.pending_deliveries() == []
    counts = turn_messages(t, game.id)
    assert all(n == 1 for n in counts.values()), counts
    turn = game.state.turn_number
    assert counts[turn] == 1, counts
    row = await store.game_rows.game(game.id)
    assert row is not None and row.turn_message_turn == turn
    user = game.waiting_on()
    if user is not None and channel_pings:
        told = pings(t, user)
        per_turn = Counter(turn_of(t, game.id, m) for m in told)
        assert per_turn[turn] == 1 and row.turn_message_id in told, told
        assert all(n == 1 for n in per_turn.values()), per_turn
    logged = [a.notation for a in await store.action_log.actions(game.id)]
    assert game.game is not None and logged == [str(a) for a in game.game.log]
    assert len([m for m in t.h.messages() if APOLOGY in m["content"]]) == apologies


# ---- a fault at each step of a turn change -----------------------------------------------


@pytest.mark.parametrize(
    ("step", "fault"),
    [
        ("close", "503"),
        ("close", "reset"),
        ("close", "forbidden"),
        ("post", "503"),
        ("post", "reset"),
        ("post", "reset_after"),
        ("post", "forbidden"),
        ("post", "429"),
        ("answer", "503"),
        ("answer", "reset"),
    ],
)
async def test_a_turn_change_that_discord_fails_is_told_once_when_it_answers(
    tmp_path: Path, start_bot: StartBot, step: str, fault: str
) -> None:
    t, clock = await opened(tmp_path / "af.db", start_bot)
    last = await finish_turn(t)
    game = t.game()
    turn = game.state.turn_number
    old = game.row.turn_message_id
    await t.bot.parts.boards.flush()
    if step == "close":
        arm(t, "PATCH", f"/channels/{t.h.guild.channel_id}/messages/{old}", fault)
    elif step == "post":
        arm(t, "POST", MESSAGES, fault)
    else:
        arm(t, "POST", CALLBACK, fault)
    mover = t.member_to_act()
    result = await t.h.interact(
        t.h.slash("play", {"move": last}, member=mover), expect_response=False
    )
    await t.settle(result)
    assert game.state.turn_number == turn + 1  # the move is made, and stays made
    acked = [m["content"] for m in t.h.messages() if m["content"].startswith("✅")]
    assert acked or step == "answer"  # the mover is told their move was made
    next_user = game.waiting_on()
    assert next_user is not None
    if fault == "forbidden":
        host = t.user_id("owner")
        dms = [
            m["content"]
            for c in t.fake.channels.values()
            if c.get("type") == 1 and int(c["recipients"][0]["id"]) == host
            for m in t.fake.messages_in(int(c["id"]))
        ]
        assert len(dms) == 1 and dms[0].startswith("⚠️ I cannot post in"), dms
    await recover(t, clock)
    await assert_told_once(t)
    closed = t.fake.get_message(old)
    assert closed["components"] == [] and "🎲" in closed["content"]


def a_pick(t: Table) -> tuple[str, dict[str, Any]]:
    """A move on the turn message's panel as it is (no second step), and its click."""
    message = t.turn_message()
    member = t.member_to_act()
    for c in iter_components(message.get("components", [])):
        if c["type"] == STRING_SELECT:
            for option in c["options"]:
                value = str(option["value"])
                if not value.startswith("@"):
                    payload = t.h.select(message, c["custom_id"], [value], member=member)
                    return value, payload
    raise LookupError("no pick on the panel")


async def test_a_turn_message_posted_unknowingly_is_not_posted_again_by_a_later_delivery(
    tmp_path: Path, start_bot: StartBot
) -> None:
    """The post of the next turn's message took effect but its answer was lost; the next
    player saw it and moved before the retry: the later delivery of that turn takes the
    earlier one's place and finds the same message (the turn's nonce), not a second one."""
    t, clock = await opened(tmp_path / "af.db", start_bot)
    last = await finish_turn(t)
    arm(t, "POST", MESSAGES, "reset_after")
    await t.play(last)
    game = t.game()
    assert turn_messages(t, game.id)[game.state.turn_number] == 1  # posted, not recorded
    dock = next(str(a) for a in legal_actions(game.state) if str(a).startswith("dock"))
    await t.play(dock)
    await recover(t, clock)
    await assert_told_once(t)


@pytest.mark.parametrize("fault", ["503", "reset", "late"])
async def test_a_click_whose_answer_fails_is_shown_and_never_called_a_failure(
    tmp_path: Path, start_bot: StartBot, fault: str
) -> None:
    """The panel's answer (the edit of the turn message through the click) fails: the turn
    message is edited through the channel instead, and the member sees no apology."""
    t, clock = await opened(tmp_path / "af.db", start_bot)
    game = t.game()
    version = game.state.version
    message_id = int(t.turn_message()["id"])
    before = t.turn_message()["content"]
    picked, payload = a_pick(t)
    if fault == "late":
        t.fake.interaction_deadline = 0.0  # every answer comes too late: 10062
    else:
        arm(t, "POST", CALLBACK, fault)
    result = await t.h.interact(payload, expect_response=False)
    await t.settle(result)
    t.fake.interaction_deadline = None
    await recover(t, clock)
    assert game.state.version > version  # the pick was played
    shown = t.fake.get_message(message_id)  # through the click, or else the channel
    assert shown["content"] != before and shown["content"].count("\n• ") >= 1
    versions = {
        int(str(c["custom_id"]).split(":")[3])
        for c in iter_components(t.turn_message()["components"])
        if str(c.get("custom_id", "")).startswith("af:")
    }
    assert versions == {game.state.version}  # the panel is the one of the game now
    assert picked.split()[0] == "dock"
    await assert_told_once(t)


async def test_a_dm_that_fails_is_sent_once_when_discord_answers(
    db_url: str, start_bot: StartBot
) -> None:
    t, clock = await table(db_url, start_bot)
    await t.cmd("af notify", {"mode": "dm"}, "member")
    prefs = (await jobs_of(t.bot).store.members.prefs([t.user_id("member")]))[t.user_id("member")]
    dm = prefs.dm_channel_id
    assert dm is not None
    await t.open(humans=("owner", "member"))
    rng = random.Random(4)
    while t.member_to_act() != "owner":
        await t.play_turn(rng)
    last = await finish_turn(t)
    for fault in ("503", "reset", "reset_after"):
        arm(t, "POST", f"/channels/{dm}/messages", fault)
    await t.play(last)
    game = t.game()
    assert game.waiting_on() == t.user_id("member")
    await recover(t, clock)
    turn_link = str(game.row.turn_message_id)
    sent = [m["content"] for m in t.fake.messages_in(dm) if turn_link in m["content"]]
    assert len(sent) == 1 and sent[0].startswith("🎲 It is your turn")
    await assert_told_once(t, channel_pings=False)
    assert pings(t, t.user_id("member")) == {}  # DMs only: never pinged in the channel


# ---- the start, an AI turn, a reminder, the game over ----------------------------------


async def test_the_first_turn_message_of_a_start_that_discord_fails_comes_once(
    db_url: str, start_bot: StartBot
) -> None:
    t, clock = await table(db_url, start_bot)
    await t.cmd("af new", {"players": 2}, "owner")
    await t.cmd("af join", member="member")
    arm(t, "POST", CALLBACK, "reset")  # the start's own answer
    arm(t, "POST", MESSAGES, "503", times=2)  # its message in the channel, the first turn's
    result = await t.h.interact(t.h.slash("af start", member="owner"), expect_response=False)
    await t.settle(result)
    game = t.game()
    assert game.row.status == "playing" and game.row.turn_message_id is None
    await recover(t, clock)
    assert len(t.said("The game starts!")) == 1
    await assert_told_once(t)


async def test_an_ai_turn_that_discord_fails_ends_with_the_member_told_once(
    tmp_path: Path, start_bot: StartBot
) -> None:
    t, clock = await table(tmp_path / "af.db", start_bot)
    await t.open(humans=("owner",), bots=("easy",))
    while t.game().waiting_on() is None:
        await t.settle()
    last = await finish_turn(t)
    game = t.game()
    turn = game.state.turn_number
    # The AI's own turn message and everything after it fail, while the AI plays its turn.
    arm(t, "POST", MESSAGES, "503", times=3)
    await t.play(last)
    await t.settle()
    assert game.state.turn_number >= turn + 2 and game.waiting_on() == t.user_id("owner")
    await recover(t, clock)
    await assert_told_once(t)
    # The AI's turn has no turn message of its own (it never got one): its lines are
    # posted once, when its turn ended.
    assert turn_messages(t, game.id)[turn + 1] == 0
    assert len(t.said("AI 1 (easy)")) >= 1


async def test_a_reminder_that_discord_fails_comes_once(db_url: str, start_bot: StartBot) -> None:
    t, clock = await opened(db_url, start_bot)
    game = t.game()
    user = game.waiting_on()
    assert user is not None
    clock.advance(13)
    arm(t, "POST", MESSAGES, "503")
    assert await t.bot.background.tick() == {"remind": 1}
    assert not t.said("⏰")
    await recover(t, clock)
    reminders = t.said("⏰")
    assert len(reminders) == 1 and reminders[0].startswith(f"⏰ <@{user}>")
    assert (await t.bot.background.tick()) == {}  # reminded once: not again
    assert len(t.said("⏰")) == 1


async def test_the_game_over_post_that_discord_fails_comes_once(
    tmp_path: Path, start_bot: StartBot
) -> None:
    from tests.bot.discord.test_notifications_e2e import finish_with_member_seat_to_ai

    t, clock = await table(tmp_path / "af.db", start_bot)
    create = t.fake._create_message
    failed = [0]

    async def flaky(call: Any) -> FakeResponse:
        if "Game over" in str((call.json or {}).get("content", "")) and failed[0] < 2:
            failed[0] += 1
            raise ApiError(503, 0, "Service Unavailable")
        made: FakeResponse = await create(call)
        return made

    t.fake.set_handler("POST", MESSAGES, flaky)
    game_id = await finish_with_member_seat_to_ai(t, 41)
    assert failed[0] >= 1 and not t.said("Game over")
    await recover(t, clock)
    assert failed[0] == 2
    over = t.said("Game over")
    assert len(over) == 1 and over[0].startswith("🏁")
    row = await jobs_of(t.bot).store.game_rows.game(game_id)
    assert row is not None and row.status == "over"


# ---- restarts and the database ------------------------------------------------------------


async def test_the_worker_stops_when_woken_as_it_is_stopped(
    tmp_path: Path, start_bot: StartBot
) -> None:
    """A wake-up arriving with the cancellation must not swallow it (Python 3.11's
    ``asyncio.wait_for`` does): else the bot never finishes stopping."""
    t, _ = await opened(tmp_path / "af.db", start_bot)
    deliveries = t.bot.deliveries
    for _ in range(3):
        deliveries.start()
        await asyncio.sleep(0.05)  # the worker is waiting to be woken
        deliveries.wake()
        async with asyncio.timeout(10):  # a bound for a hang, not a measure
            await deliveries.stop()


async def test_deliveries_pending_at_a_restart_are_delivered_once_by_the_next_start(
    db_url: str, start_bot: StartBot
) -> None:
    t, clock = await opened(db_url, start_bot)
    last = await finish_turn(t)
    game_id = t.game().id
    arm(t, "POST", MESSAGES, "503", times=50)  # Discord is down until the restart
    await t.play(last)
    pending = await jobs_of(t.bot).store.deliveries.pending_deliveries()
    assert [d.kind for d in pending] == ["turn", "notify"]
    await t.h.close()
    t.fake.clear_failures()
    clock.advance(0.1)
    again = Table(await start_bot(make_bot(db_url, clock=clock)))
    again.members = dict(t.members)
    await recover(again, clock)
    assert again.game().id == game_id
    await assert_told_once(again)


async def test_a_delivery_made_but_not_recorded_is_never_made_again(
    tmp_path: Path, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The turn message is posted, then the database fails to record it: the next attempt
    records it without posting again."""
    t, clock = await opened(tmp_path / "af.db", start_bot)
    last = await finish_turn(t)
    store = jobs_of(t.bot).store
    delivered = store.deliveries.delivered
    failures = [0]

    async def locked(delivery_id: int, game_id: int, *args: Any, **fields: Any) -> None:
        if "turn_message_id" in fields and failures[0] == 0:
            failures[0] += 1
            raise sqlite3.OperationalError("database is locked")
        await delivered(delivery_id, game_id, *args, **fields)

    monkeypatch.setattr(store.deliveries, "delivered", locked)
    await t.play(last)
    assert failures[0] == 1
    await recover(t, clock)
    await assert_told_once(t)


@pytest.mark.parametrize("error", ["database is locked", "disk I/O error"])
async def test_sqlite_failing_between_the_commit_and_the_delivery(
    tmp_path: Path, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch, error: str
) -> None:
    t, clock = await opened(tmp_path / "af.db", start_bot)
    last = await finish_turn(t)
    store = jobs_of(t.bot).store
    calls = {"pending_deliveries": 0, "game": 0, "prefs": 0}
    originals = {name: getattr(area_of(store, name), name) for name in calls}
    failing_now = [True]

    def failing(name: str) -> Any:
        async def call(*args: Any, **kwargs: Any) -> Any:
            calls[name] += 1
            if failing_now[0]:
                raise sqlite3.OperationalError(error)
            return await originals[name](*args, **kwargs)

        return call

    for name in calls:
        monkeypatch.setattr(area_of(store, name), name, failing(name))
    played = await t.cmd("play", {"move": last}, t.member_to_act(), wait=False)
    await played.done()
    failing_now[0] = False  # the database is back
    assert played.message is not None and played.message["content"].startswith("✅")
    assert calls["pending_deliveries"] >= 1  # the delivery after the commit met it
    await recover(t, clock)
    await assert_told_once(t)


async def test_a_move_the_database_refuses_is_not_made_and_may_be_played_again(
    tmp_path: Path, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database refuses a move's commit (and the reads after it): nothing was made —
    the move's key is not stored — so the member is told the database is busy and nothing
    was changed, the game in memory
    is the game as stored, and the same move then plays."""
    t, clock = await opened(tmp_path / "af.db", start_bot)
    game = t.game()
    version = game.state.version
    store = jobs_of(t.bot).store
    broken = sqlite3.OperationalError("disk I/O error")

    async def fails(*args: Any, **kwargs: Any) -> Any:
        raise broken

    dock = next(str(a) for a in legal_actions(game.state) if str(a).startswith("dock"))
    with monkeypatch.context() as m:
        m.setattr(store.action_log, "commit_actions", fails)
        m.setattr(store.game_rows, "game", fails)
        said = await t.cmd("play", {"move": dock}, t.member_to_act(), wait=False)
        await said.done()
    assert BUSY in said.data.get("content", "")  # not made: nothing to take back
    held = jobs_of(t.bot).games.held(game.id)
    assert held is not None and held.state.version == version  # as stored: not made
    await t.play(dock)
    await recover(t, clock)
    await assert_told_once(t)


async def test_postgresql_restarting_between_the_commit_and_the_delivery(
    start_bot: StartBot,
) -> None:
    try:
        server = PostgresServer.start()
    except NoPostgres as e:
        pytest.skip(str(e))
    if server.process is None:
        pytest.skip("TEST_DATABASE_URL is a server this test may not restart")
    try:
        url = await server.create_database()
        t, clock = await opened(url, start_bot, timeout=30.0)
        last = await finish_turn(t)
        run = t.bot.deliveries.run
        restarted = [False]

        async def restart_first(channel_id: int, interaction: Any = None) -> None:
            if not restarted[0]:
                restarted[0] = True
                await asyncio.to_thread(server.restart)  # committed; now the database goes
            await run(channel_id, interaction)

        t.bot.deliveries.run = restart_first  # type: ignore[method-assign]
        played = await t.play(last)
        assert restarted[0] and played.message is not None
        assert played.message["content"].startswith("✅")
        await recover(t, clock)
        await assert_told_once(t)
        await t.h.close()
    finally:
        server.stop()


# ---- the policy per error: what is logged, given up, repaired, reported -------------------


async def test_each_failed_attempt_is_one_warning(
    tmp_path: Path, start_bot: StartBot, caplog: pytest.LogCaptureFixture
) -> None:
    t, clock = await opened(tmp_path / "af.db", start_bot)
    last = await finish_turn(t)
    arm(t, "POST", MESSAGES, "503")
    with caplog.at_level(logging.WARNING, logger="bot"):
        await t.play(last)
        await recover(t, clock)
    failed = [r for r in caplog.records if r.name == "bot.discord.delivery"]
    assert len(failed) == 1 and failed[0].levelno == logging.WARNING
    line = failed[0].getMessage()
    assert "attempt 1 failed: POST /channels/" in line and "/messages 503" in line
    assert failed[0].exc_info is None  # no traceback for an error Discord is known to give
    caplog.clear()


async def test_a_delivery_failing_for_days_is_given_up(tmp_path: Path, start_bot: StartBot) -> None:
    t, clock = await opened(tmp_path / "af.db", start_bot)
    last = await finish_turn(t)
    arm(t, "POST", MESSAGES, "forbidden", times=10_000)  # the bot was removed for good
    await t.play(last)
    store = jobs_of(t.bot).store
    clock.advance(MAX_AGE_SECONDS / 3600 + 1)
    await t.bot.deliveries.settle()
    pending, _, failed = await store.deliveries.delivery_counts()
    assert failed >= 1 and pending <= 1  # given up; the lane moves on to what follows


async def test_the_health_file_reports_pending_deliveries_and_the_oldest_age(
    tmp_path: Path, start_bot: StartBot
) -> None:
    health = tmp_path / "alive"
    t, clock = await opened(tmp_path / "af.db", start_bot, health_file=str(health))
    last = await finish_turn(t)
    arm(t, "POST", MESSAGES, "503")
    await t.play(last)
    clock.now += 42
    await t.bot.deliveries.check()  # the worker's look: what waits
    heartbeat = t.bot.heartbeat
    assert isinstance(heartbeat, Heartbeat)
    assert await heartbeat.beat()
    assert backlog_text(health) == "deliveries: 2 pending, the oldest 42 s old; 0 given up"
    await recover(t, clock)
    await t.bot.deliveries.check()
    assert await heartbeat.beat()
    assert backlog_text(health) == "deliveries: none pending; 0 given up"

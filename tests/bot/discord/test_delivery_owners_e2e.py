"""The outbox's deliveries: one owner each, no duplicate after any restart, a backoff that
cannot run hot, and the host and the admin told of what is stuck.

A delivery is made by the one process holding its lane's lease (two processes over one
database never both send it); one attempted but not recorded is looked for among the
messages posted since it was queued before it is made again, however long after and
however many members posted meanwhile (Discord forgets a nonce in minutes), and so is an
interaction's answer whose fate is unknown; a failure that cannot be recorded still waits
its backoff; Discord's count of invalid requests slows every lane down as it climbs; the
host's DM about missing permissions is remembered across restarts; ``/af panel``'s repost
and a season's announcement are deliveries too; the host sees a game's failed deliveries
in ``/af status``, the admin in ``python -m bot health``.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.discord import delivery
from bot.discord import messenger as couriers
from bot.discord.health import Heartbeat, backlog_text
from bot.play import outbox
from bot.store.rows import ActionRow, ResultRow
from tests.bot.discord.test_deliveries_e2e import (
    CALLBACK,
    MESSAGES,
    arm,
    assert_told_once,
    opened,
    recover,
    table,
    turn_messages,
)
from tests.bot.discord.test_lifecycle_e2e import dms_to
from tests.bot.discord.test_play_e2e import finish_turn
from tests.bot.store_areas import area_of
from tests.bot.table import Clock, Table, jobs_of, make_bot
from tests.discord_fake import StartBot
from tests.discord_fake.server import FakeResponse


async def test_a_channel_refusing_the_bot_while_the_database_refuses_writes_is_not_hammered(
    tmp_path: Path, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database takes reads but refuses writes (a disk full, a read-only PostgreSQL after
    a failover) while the game's channel answers 403: the failure cannot be recorded, and
    the lane still waits its backoff — no burst of requests to a channel that refuses them
    (Discord bans past 10,000 invalid requests in ten minutes)."""
    t, clock = await opened(tmp_path / "af.db", start_bot)
    last = await finish_turn(t)
    channel = t.h.guild.channel_id
    arm(t, "POST", MESSAGES, "forbidden", times=10**6)
    store = jobs_of(t.bot).store
    refused = sqlite3.OperationalError("attempt to write a readonly database")

    async def read_only(*args: Any, **kwargs: Any) -> Any:
        raise refused

    for name in ("delivery_failed", "delivered", "tell_host", "queue", "forget_deliveries"):
        monkeypatch.setattr(area_of(store, name), name, read_only)
    start = len(t.fake.requests)
    await t.play(last)  # committed; its deliveries then meet the 403
    await asyncio.sleep(2.0)  # the worker runs meanwhile (real time: the loop's pace)
    posts = [
        r
        for r in t.fake.requests[start:]
        if r.method == "POST" and r.path == f"/channels/{channel}/messages"
    ]
    assert 1 <= len(posts) <= 2, len(posts)
    monkeypatch.undo()
    t.fake.clear_failures()
    await recover(t, clock)
    await assert_told_once(t)


async def test_a_lane_stays_its_holders_while_a_slow_delivery_is_under_way(
    tmp_path: Path, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A delivery that outlasts its lane's lease (Discord's 5xx and resets are tried again
    within one call): its process renews the lease meanwhile, so another process over the
    database cannot take the lane and make the same post again (the chaos benchmark's one
    doubled turn message)."""
    monkeypatch.setattr(delivery, "KEEP_SECONDS", 0.05)
    t, clock = await opened(tmp_path / "af.db", start_bot)
    last = await finish_turn(t)
    channel = t.h.guild.channel_id
    entered, release = asyncio.Event(), asyncio.Event()
    original = t.fake._create_message

    async def slow(call: Any) -> FakeResponse:
        if int(call.params["channel_id"]) == channel:
            entered.set()
            await release.wait()
        made: FakeResponse = await original(call)
        return made

    t.fake.set_handler("POST", MESSAGES, slow)
    play = asyncio.create_task(t.play(last))
    await asyncio.wait_for(entered.wait(), 10)
    for _ in range(3):  # the post under way for twice the lease and more
        clock.advance(delivery.LEASE_SECONDS * 0.75 / 3600)
        await asyncio.sleep(0.3)  # the lease's keeper looks meanwhile
    now = jobs_of(t.bot).moves.clock()
    store = jobs_of(t.bot).store
    took, _ = await store.deliveries.claim_lane(
        channel, "another", now, now + delivery.LEASE_SECONDS
    )
    release.set()
    await play
    assert not took


async def test_discords_count_of_invalid_requests_slows_every_lane_down(
    tmp_path: Path, start_bot: StartBot, caplog: pytest.LogCaptureFixture
) -> None:
    """The bot counts the invalid requests Discord answers (401, 403, 429: every one the
    fake counts), and past its threshold (far below Discord's 10,000) logs a WARNING and
    spaces its attempts out across all lanes: deliveries due at once go one at a time."""
    t, clock = await opened(tmp_path / "af.db", start_bot)
    guard = t.bot.invalid_requests
    guard.slow_from, guard.stop_at = 5, 50
    game = t.game()
    t.fake.fail_next("GET", "/users/{user_id}", status=403, code=50013, times=8)
    with caplog.at_level(logging.WARNING, logger="bot"):
        for _ in range(8):
            with pytest.raises(discord.Forbidden):
                await t.bot.http.get_user(1)
    assert guard.count() == t.fake.invalid_requests() == 8
    assert [r for r in caplog.records if "invalid requests" in r.getMessage()]
    assert guard.spacing() > 0
    now = jobs_of(t.bot).moves.clock()
    lines = [outbox.notice(game, now, "lobby.left", {"name": f"n{i}"}) for i in range(4)]
    await jobs_of(t.bot).store.deliveries.queue(lines)
    start = len(t.fake.requests)
    await t.bot.deliveries.settle()
    posts = [r for r in t.fake.requests[start:] if r.method == "POST" and r.route == MESSAGES]
    assert len(posts) == 1  # the others wait their turn
    guard.slow_from = guard.stop_at = 10**6  # the count falls back: all of them go
    await recover(t, clock)
    assert len(t.said("n3 leaves the lobby")) == 1


async def test_a_post_made_but_not_recorded_is_not_made_again_after_a_restart_past_the_nonce(
    db_url: str, start_bot: StartBot
) -> None:
    """The bot posts the next turn's message, and the answer is lost; it stops before
    recording it and starts again an hour later, when Discord has forgotten the nonce:
    the message is found among the channel's latest and recorded, not posted again."""
    t, clock = await opened(db_url, start_bot)
    t.fake.clock = clock
    last = await finish_turn(t)
    game_id = t.game().id
    arm(t, "POST", MESSAGES, "reset_after")
    await t.play(last)
    turn = t.state.turn_number
    assert turn_messages(t, game_id)[turn] == 1  # posted, its answer lost
    await t.h.close()
    clock.advance(1)  # an hour: Discord forgot the nonce
    again = Table(await start_bot(make_bot(db_url, clock=clock)))
    again.members = dict(t.members)
    await recover(again, clock)
    assert turn_messages(again, game_id)[turn] == 1
    await assert_told_once(again)


async def next_turn_posted_answer_lost(
    db: Path, start_bot: StartBot
) -> tuple[Table, Clock, int, int]:
    """A game whose turn ends and whose next turn's message reaches Discord, its answer lost
    (the bot cannot know it was posted). The table, its clock (the bot's and Discord's ids
    agree, as in production), the game and the turn now in play."""
    clock = Clock(time.time())
    t = Table(await start_bot(make_bot(db, clock=clock)))
    await t.open(humans=("owner", "member"))
    last = await finish_turn(t)
    game_id = t.game().id
    arm(t, "POST", MESSAGES, "reset_after")
    await t.play(last)
    turn = t.state.turn_number
    assert turn_messages(t, game_id)[turn] == 1  # posted, its answer lost
    return t, clock, game_id, turn


async def killed_after_posting_then_chat(
    tmp_path: Path, start_bot: StartBot, chat: int, later: float | None = None
) -> tuple[Table, Clock, int, int]:
    """The bot is killed right after its post of the next turn's message reaches Discord
    (the answer lost); while it is down, past Discord's memory of the nonce, the members
    write ``chat`` messages in the channel. ``later``: another delivery of the turn's
    message was queued that many seconds after the first. The table, its clock, the game
    and the turn."""
    db = tmp_path / "af.db"
    t, clock, game_id, turn = await next_turn_posted_answer_lost(db, start_bot)
    if later is not None:
        await jobs_of(t.bot).store.deliveries.queue([outbox.turn_shown(t.game(), clock() + later)])
    await t.h.close()
    member = t.h.guild.member["user"]
    for i in range(chat):
        t.fake.member_says(t.h.guild.channel_id, member, f"chatter {i}")
    t.fake.nonce_seconds = 0.0  # Discord forgot the nonce meanwhile
    again = Table(await start_bot(make_bot(db, clock=clock)))
    again.members = dict(t.members)
    return again, clock, game_id, turn


async def test_a_turn_message_posted_unrecorded_is_found_after_sixty_members_messages(
    tmp_path: Path, start_bot: StartBot
) -> None:
    """Issue 37: restarted after 60 members' messages (more than a page of the channel's
    latest), the bot looks for its post among the messages posted since the delivery was
    queued, however many: one turn message, one ping — not a second live panel."""
    t, clock, game_id, turn = await killed_after_posting_then_chat(tmp_path, start_bot, 60)
    await recover(t, clock)
    assert turn_messages(t, game_id)[turn] == 1
    await assert_told_once(t)


async def test_a_later_delivery_of_the_turn_looks_since_the_first_that_may_have_posted(
    tmp_path: Path, start_bot: StartBot
) -> None:
    """The turn's message was posted unrecorded by a delivery, and another delivery of the
    turn was queued ten minutes later (a move in the turn): the later one, which stands for
    both, looks for the message since the first was queued — one turn message."""
    t, clock, game_id, turn = await killed_after_posting_then_chat(
        tmp_path, start_bot, 60, later=600.0
    )
    await recover(t, clock)
    assert turn_messages(t, game_id)[turn] == 1
    await assert_told_once(t)


async def test_a_later_delivery_due_at_once_looks_since_the_first_that_may_have_posted(
    tmp_path: Path, start_bot: StartBot
) -> None:
    """As above, but both deliveries are due when the lane is delivered (the later one was
    queued two minutes after the first, and six minutes have passed): the later one, taken
    in the same pass, looks since the first was queued — one turn message. The chaos
    benchmark found two: the later one looked only since itself was queued."""
    t, clock, game_id, turn = await killed_after_posting_then_chat(
        tmp_path, start_bot, 0, later=120.0
    )
    clock.advance(0.1)  # six minutes: both are due
    await recover(t, clock)
    assert turn_messages(t, game_id)[turn] == 1
    await assert_told_once(t)


async def test_past_the_messages_looked_through_a_turn_message_is_posted_again_with_a_warning(
    tmp_path: Path, start_bot: StartBot, caplog: pytest.LogCaptureFixture
) -> None:
    """The look is bounded (``LOOK_BACK`` messages since the delivery was queued): past it,
    the turn message is posted again — better twice than never — and a WARNING says so."""
    t, clock, game_id, turn = await killed_after_posting_then_chat(tmp_path, start_bot, 0)
    looked = len(t.channel_messages())
    with pytest.MonkeyPatch.context() as patch, caplog.at_level(logging.WARNING, logger="bot"):
        patch.setattr(couriers, "LOOK_BACK", 3)  # the game's first messages fill it
        await recover(t, clock)
    assert looked > 3
    assert turn_messages(t, game_id)[turn] == 2
    assert [r for r in caplog.records if "not found among the 3 messages" in r.getMessage()]


async def test_an_answer_through_an_interaction_whose_fate_is_unknown_is_not_posted_again(
    db_url: str, start_bot: StartBot
) -> None:
    """The start's answer (the command's own reply) reaches Discord, but its acknowledgement
    is lost: the start is not posted a second time in the channel."""
    t, clock = await table(db_url, start_bot)
    await t.cmd("af new", {"players": 2}, "owner")
    await t.cmd("af join", member="member")
    t.fake.fail_next("POST", CALLBACK, mode="reset_after")
    started = await t.h.interact(t.h.slash("af start", member="owner"), expect_response=False)
    await t.settle(started)
    await recover(t, clock)
    assert len(t.said("The game starts!")) == 1
    await assert_told_once(t)


async def test_two_processes_over_one_database_send_a_delivery_once(
    db_url: str, start_bot: StartBot
) -> None:
    """A rolling restart: the new process starts before the old one stops, both over the
    same database and shards. A delivery due is sent by one of them only, however long
    Discord remembers nonces; when the first stops, the second takes its lanes over."""
    t, clock = await opened(db_url, start_bot, timeout=15.0)
    t.fake.nonce_seconds = 0.0  # no nonce to save a second post
    create = t.fake._create_message
    arrived: list[str] = []

    async def together(call: Any) -> FakeResponse:
        # A post of these lines waits (a fifth of a second at most) for the other process's:
        # two processes that both took the delivery both post it.
        content = str((call.json or {}).get("content", ""))
        if "leaves the lobby" in content:
            arrived.append(content)
            for _ in range(10):
                if arrived.count(content) >= 2:
                    break
                await asyncio.sleep(0.02)
        made: FakeResponse = await create(call)
        return made

    t.fake.set_handler("POST", MESSAGES, together)
    second = await start_bot(make_bot(db_url, clock=clock), timeout=15.0)
    game = t.game()
    now = jobs_of(t.bot).moves.clock()
    await jobs_of(t.bot).store.deliveries.queue(
        [outbox.notice(game, now, "lobby.left", {"name": f"n{i}"}) for i in range(3)]
    )
    await asyncio.gather(t.bot.deliveries.settle(), second.bot.deliveries.settle())  # type: ignore[attr-defined]
    await asyncio.gather(t.bot.deliveries.settle(), second.bot.deliveries.settle())  # type: ignore[attr-defined]
    for i in range(3):
        assert len(t.said(f"n{i} leaves the lobby")) == 1
    await t.h.close()  # the first stops: its lanes are let go, taken within seconds
    clock.advance(0.01)
    await jobs_of(second.bot).store.deliveries.queue(
        [outbox.notice(game, now, "lobby.left", {"name": "late"})]
    )
    await second.bot.deliveries.settle()  # type: ignore[attr-defined]
    assert len(t.said("late leaves the lobby")) == 1


async def test_the_host_is_told_of_missing_permissions_once_across_restarts(
    db_url: str, start_bot: StartBot
) -> None:
    t, clock = await opened(db_url, start_bot)
    last = await finish_turn(t)
    arm(t, "POST", f"/channels/{t.h.guild.channel_id}/messages", "forbidden", times=10**6)
    await t.play(last)
    await t.bot.deliveries.settle()
    host = t.user_id("owner")
    assert len([m for m in dms_to(t, host) if "I cannot post in" in m]) == 1
    await t.h.close()
    clock.advance(0.1)
    again = Table(await start_bot(make_bot(db_url, clock=clock)))
    again.members = dict(t.members)
    for _ in range(3):
        clock.advance(0.1)
        await again.bot.deliveries.settle()
    assert len([m for m in dms_to(again, host) if "I cannot post in" in m]) == 1
    again.fake.clear_failures()
    await recover(again, clock)
    await assert_told_once(again)


async def test_a_refused_dms_notice_takes_the_dms_place_in_the_lane(
    db_url: str, start_bot: StartBot
) -> None:
    """The turn's DM of a member who hears of their turns by DM only fails (503), a notice
    is queued in the channel meanwhile, then the DM is refused for good (closed DMs): its
    ping in the channel comes before that notice, in the order the turn began."""
    t, clock = await table(db_url, start_bot)
    await t.cmd("af notify", {"mode": "dm"}, "member")
    prefs = (await jobs_of(t.bot).store.members.prefs([t.user_id("member")]))[t.user_id("member")]
    await t.open(humans=("owner", "member"))
    while t.member_to_act() != "owner":
        await t.play(await finish_turn(t))
    last = await finish_turn(t)
    dm = f"/channels/{prefs.dm_channel_id}/messages"
    t.fake.fail_next("POST", dm, status=503, code=0, message="Service Unavailable")
    t.fake.fail_next("POST", dm, status=403, code=50007, message="Cannot send messages")
    await t.play(last)
    game = t.game()  # a notice queued after the DM
    await jobs_of(t.bot).store.deliveries.queue(
        [outbox.notice(game, jobs_of(t.bot).moves.clock(), "lobby.left", {"name": "later"})]
    )
    await recover(t, clock)
    said = [m["content"] for m in t.channel_messages()]
    pinged = next(i for i, m in enumerate(said) if "I could not send you a DM" in m)
    changed = next(i for i, m in enumerate(said) if "later leaves the lobby" in m)
    assert pinged < changed, said[-5:]


async def test_af_panel_reposts_through_the_outbox_when_discord_fails(
    db_url: str, start_bot: StartBot
) -> None:
    t, clock = await opened(db_url, start_bot)
    game = t.game()
    old = game.row.turn_message_id
    arm(t, "POST", MESSAGES, "503", times=2)
    said = await t.cmd("af panel", member="owner")
    assert "will be posted again" in said.data["content"]  # not an apology
    await recover(t, clock)
    new = game.row.turn_message_id
    assert new != old and "continues further down" in t.fake.get_message(old)["content"]
    assert len(turn_messages(t, game.id)) == 1 and turn_messages(t, game.id)[1] == 2  # moved
    assert await jobs_of(t.bot).store.deliveries.pending_deliveries() == []


async def test_a_season_start_is_announced_once_even_when_discord_fails(
    db_url: str, start_bot: StartBot
) -> None:
    """The announcement of a new season is queued with it: Discord failing the command's
    answer (too late) and the channel (a 503) loses nothing — it is announced once Discord
    answers, and the admin has no reason to start it again."""
    t, clock = await table(db_url, start_bot)
    store = jobs_of(t.bot).store
    guild = t.h.guild.id
    played = await store.game_rows.create_game(
        guild_id=guild,
        channel_id=1,
        host_id=t.user_id("owner"),
        host_name="owner",
        max_players=2,
        seed=1,
        locale="en",
        now=1.0,
    )
    results = [
        ResultRow(seat, user, None, f"P{seat}", 9 - seat, 0, 0, 0, 0, seat == 0, None, seat + 1)
        for seat, user in enumerate((t.user_id("owner"), t.user_id("member")))
    ]
    first = ActionRow(0, 0, t.user_id("owner"), "end", [], 2.0)
    await store.action_log.commit_actions(
        played, [first], "{}", None, results, rated_in=guild, status="over"
    )
    assert len(await store.results.seasons(guild)) == 1  # a season with a rated game
    t.fake.interaction_deadline = 0.0  # every answer comes too late (10062)
    arm(t, "POST", MESSAGES, "503")
    said = await t.h.interact(
        t.h.slash("af season start", {"name": "Winter"}, member="owner"), expect_response=False
    )
    await t.settle(said)
    t.fake.interaction_deadline = None
    await recover(t, clock)
    assert len(t.said("Winter")) == 1  # announced once Discord answers: no need to retry
    assert [x.name for x in await store.results.seasons(guild)] == ["Winter", ""]


async def test_the_host_sees_a_games_failed_deliveries_and_the_admin_by_kind_and_age(
    tmp_path: Path, start_bot: StartBot
) -> None:
    health = tmp_path / "alive"
    t, clock = await opened(tmp_path / "af.db", start_bot, health_file=str(health))
    game = t.game()
    t.fake.fail_next("POST", MESSAGES, status=400, code=50035, message="Invalid Form Body")
    await jobs_of(t.bot).store.deliveries.queue(
        [outbox.notice(game, jobs_of(t.bot).moves.clock(), "lobby.left", {"name": "x"})]
    )
    await t.bot.deliveries.settle()
    host = await t.cmd("af status", member="owner")
    assert "1 message of this game could not be delivered" in host.data["content"]
    member = await t.cmd("af status", member="member")
    assert "could not be delivered" not in member.data["content"]
    clock.advance(3)
    t.bot.deliveries._kinds_at = -float("inf")  # summed up now (else once a minute)
    await t.bot.deliveries.check()
    heartbeat = t.bot.heartbeat
    assert isinstance(heartbeat, Heartbeat) and await heartbeat.beat()
    assert "given up, by kind: notice 1 (the oldest 3 h old)" in backlog_text(health)
    clock.now += 30 * 86400  # failed rows are kept 30 days (bot.discord.delivery)
    t.bot.deliveries._pruned_at = -float("inf")
    await t.bot.deliveries.check()  # failed rows are pruned after 30 days
    assert await jobs_of(t.bot).store.deliveries.failed_deliveries() == []


async def test_the_fake_discord_is_as_hard_as_discord(start_bot: StartBot) -> None:
    """The fake forgets a nonce after a few minutes, and bans past its limit of invalid
    requests (403 on every route, not JSON)."""
    import aiohttp

    from tests.discord_fake import FakeDiscord

    async with FakeDiscord() as fake:
        clock = [1000.0]
        fake.clock = lambda: clock[0]
        channel = fake.guild.channel_id if fake.guild else 0
        url = f"{fake.api_base}/channels/{channel}/messages"
        auth = {"Authorization": "Bot x"}
        body = {"content": "hi", "nonce": "n1", "enforce_nonce": True}
        async with aiohttp.ClientSession() as http:
            first = await (await http.post(url, json=body, headers=auth)).json()
            again = await (await http.post(url, json=body, headers=auth)).json()
            assert first["id"] == again["id"]  # within minutes: the same message
            clock[0] += fake.nonce_seconds + 1
            later = await (await http.post(url, json=body, headers=auth)).json()
            assert later["id"] != first["id"]  # forgotten
            fake.ban_after = 5
            for _ in range(6):
                await http.get(f"{fake.api_base}/users/@me")  # 401: no token
            banned = await http.post(url, json={"content": "x"}, headers=auth)
            assert banned.status == 403 and "1015" in await banned.text()
            clock[0] += fake.ban_seconds + 1
            assert (await http.post(url, json={"content": "x"}, headers=auth)).status == 200

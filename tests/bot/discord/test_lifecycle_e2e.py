"""Failures that will never heal end, and someone is told: Discord's lifecycle.

A turn message Discord rejects (a 400) is sent as text with its ping, the host told once,
and no repair loop posts the rejected body again; a deleted channel or thread, or a server
that removed the bot (the gateway's event, or the REST answer when the event was missed),
orphans the game: nothing more is sent there, its host is told once by DM what happened and
what to do — continue it in another channel, or end it unrated — and when the bot is
added back, its games there go on. A thread Discord archived for being quiet is reopened
when its game edits a message there: a play-by-post game in a thread never stalls for it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine import legal_actions
from tests.bot.discord.test_deliveries_e2e import (
    FAULTS,
    MESSAGES,
    assert_told_once,
    opened,
    pings,
    recover,
)
from tests.bot.discord.test_play_e2e import finish_turn
from tests.bot.table import Table, jobs_of, make_bot
from tests.discord_fake import StartBot
from tests.discord_fake import payloads as p
from tests.discord_fake.server import ApiError, FakeResponse

EDIT = "/channels/{channel_id}/messages/{message_id}"
CALLBACK = "/interactions/{interaction_id}/{token}/callback"


def dms_to(t: Table, user: int) -> list[str]:
    """The bot's DMs to a member."""
    return [
        m["content"]
        for c in t.fake.channels.values()
        if c.get("type") == p.DM and int(c["recipients"][0]["id"]) == user
        for m in t.fake.messages_in(int(c["id"]))
    ]


async def until(condition: Callable[[], bool], what: str) -> None:
    for _ in range(200):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never: {what}")


def reject_turn_messages(t: Table, channel: int) -> list[str]:
    """Discord rejects, for good, every message with a panel or a picture in ``channel``
    (a body it will never take): a 400 naming the field. Returns the routes rejected."""
    rejected: list[str] = []

    def has_more(body: dict[str, Any], files: list[Any]) -> bool:
        return bool(body.get("components") or files or body.get("attachments"))

    for method, route, original in (
        ("POST", MESSAGES, t.fake._create_message),
        ("PATCH", EDIT, t.fake._edit_message),
    ):

        def handler(
            method: str = method, route: str = route, original: Any = original
        ) -> Callable[[Any], Any]:
            async def handle(call: Any) -> FakeResponse:
                body = call.json or {}
                if int(call.params["channel_id"]) == channel and has_more(body, call.files):
                    rejected.append(f"{method} {route}")
                    raise ApiError(
                        400,
                        50035,
                        "Invalid Form Body",
                        {"components": {"0": {"_errors": [{"code": "X", "message": "bad"}]}}},
                    )
                made: FakeResponse = await original(call)
                return made

            return handle

        t.fake.set_handler(method, route, handler())
    return rejected


# ---- a body Discord rejects -----------------------------------------------------------------


async def test_a_turn_message_discord_rejects_is_sent_as_text_and_the_host_told_once(
    db_url: str, start_bot: StartBot, caplog: pytest.LogCaptureFixture
) -> None:
    """A 400 on the turn message: one ERROR line naming the route and the rejected field,
    a turn message as text with its ping (the member to act is told), the host told once;
    six hours of the turn clock's checks post nothing again."""
    t, clock = await opened(db_url, start_bot)
    channel = t.h.guild.channel_id
    last = await finish_turn(t)
    rejected = reject_turn_messages(t, channel)
    with caplog.at_level(logging.WARNING, logger="bot"):
        await t.play(last)
        await t.settle()
        for _ in range(72):  # six simulated hours of checks, five minutes apart
            clock.advance(5 / 60)
            await t.bot.background.tick()
            await t.bot.deliveries.settle()
    game = t.game()
    assert rejected == [f"POST {MESSAGES}"]  # rejected once, never posted again
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1, errors
    assert f"POST /channels/{channel}/messages 400/50035" in errors[0]
    assert "components" in errors[0]  # the rejected field
    row = await jobs_of(t.bot).store.game_rows.game(game.id)
    assert row is not None and row.turn_message_turn == game.state.turn_number
    shown = t.fake.get_message(row.turn_message_id)
    assert shown["components"] == [] and shown["attachments"] == []
    assert "`/play`" in shown["content"]
    user = game.waiting_on()
    assert user is not None and row.turn_message_id in pings(t, user)  # the player told
    told = [m for m in dms_to(t, t.user_id("owner")) if "refuses the messages" in m]
    assert len(told) == 1 and "components" in told[0]
    assert await jobs_of(t.bot).store.deliveries.pending_deliveries() == []
    # The next turn: rejected once again, sent as text again; the host not told again.
    member = t.member_to_act()
    await t.cmd("play", {"move": await finish_turn(t)}, member)
    await recover(t, clock)
    assert len([m for m in dms_to(t, t.user_id("owner")) if "refuses the messages" in m]) == 1
    row = await jobs_of(t.bot).store.game_rows.game(game.id)
    assert row is not None and row.turn_message_turn == t.state.turn_number


class Paced:
    """The board edits' own time: a wait passes at once."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds


async def test_a_game_whose_pictures_discord_rejects_gets_no_picture_sent_again(
    db_url: str, start_bot: StartBot
) -> None:
    """A game whose turn message Discord rejected goes on as text: its moves ask for no new
    picture of the board (a hostile-network pass saw each move's picture edit sent and
    rejected again, 72 times in 75 s)."""
    t, clock = await opened(db_url, start_bot)
    boards = t.bot.parts.boards  # paced as in production: moves' pictures wait their turn
    paced = Paced()
    boards.interval, boards.clock, boards.sleep = 1.0, paced, paced.sleep
    channel = t.h.guild.channel_id
    last = await finish_turn(t)
    rejected = reject_turn_messages(t, channel)
    await t.play(last)
    await t.bot.parts.boards.flush()
    await recover(t, clock)
    # The turn message rejected (and a picture of the turn that ended, if one was asked for
    # before): each rejected once.
    first = list(rejected)
    assert f"POST {MESSAGES}" in first and first.count(f"PATCH {EDIT}") <= 1
    for _ in range(2):  # two more turns: their moves and their ends change the board
        await t.play(await finish_turn(t))
        await t.bot.parts.boards.flush()
        await recover(t, clock)
    assert rejected == first  # nothing sent again to be rejected


# ---- a channel deleted, the bot removed from a server ----------------------------------------


@pytest.mark.parametrize("event", [True, False], ids=["event", "missed"])
async def test_a_deleted_channel_orphans_its_game_and_its_host_is_told_once(
    db_url: str, start_bot: StartBot, event: bool
) -> None:
    """The game's channel is deleted (the gateway's CHANNEL_DELETE, or, missed, the 10003 of
    the next delivery there): the game leaves play for 'orphaned', nothing more is sent
    there, the host is told once by DM; it goes on in another channel with ``/af panel
    game:``, its member to act pinged there."""
    t, clock = await opened(db_url, start_bot)
    game = t.game()
    channel = t.h.guild.channel_id
    t.fake.delete_channel(channel, event=event)
    if not event:  # a reminder is due: its delivery meets the deleted channel
        clock.advance(13)
        await t.bot.background.tick()
    await until(lambda: game.id not in jobs_of(t.bot).games._games, "orphaned")
    await t.bot.deliveries.settle()
    store = jobs_of(t.bot).store
    row = await store.game_rows.game(game.id)
    assert row is not None and (row.status, row.orphaned) == ("orphaned", "channel")
    told = [m for m in dms_to(t, t.user_id("owner")) if f"#{game.id}" in m]
    assert len(told) == 1 and "deleted" in told[0] and f"/af panel game:{game.id}" in told[0]
    requests = len(t.fake.requests)
    clock.advance(60)  # days pass: nothing is sent to the deleted channel, nobody told again
    await t.bot.background.tick()
    await t.bot.deliveries.settle()
    assert not [r for r in t.fake.requests[requests:] if str(channel) in r.path]
    assert len([m for m in dms_to(t, t.user_id("owner")) if f"#{game.id}" in m]) == 1

    # The host goes on with it in another channel.
    new = int(t.fake.add_channel(p.text_channel(t.h.guild.id, "elsewhere"))["id"])
    said = await t.h.interact(
        t.h.slash("af panel", {"game": game.id}, member="owner", channel_id=new)
    )
    await t.settle(said)
    moved = t.game()
    assert (moved.id, moved.row.channel_id, moved.row.status) == (game.id, new, "playing")
    assert moved.row.turn_message_id is not None
    here = [m["content"] for m in t.fake.messages_in(new)]
    assert any(f"Game #{game.id} goes on here" in m for m in here)
    user = moved.waiting_on()
    assert user is not None and moved.row.turn_message_id in pings(t, user)
    row = await jobs_of(t.bot).store.game_rows.game(game.id)
    assert row is not None and row.waiting_on_user == user  # `/af mygames`: your turn
    played = await t.h.interact(
        t.h.slash("play", {"move": _a_dock(t)}, member=t.member_to_act(), channel_id=new)
    )
    await t.settle(played)
    assert str(played.data.get("content", "")).startswith("✅")  # it goes on there


def _a_dock(t: Table) -> str:
    return next(str(a) for a in legal_actions(t.state) if str(a).startswith("dock"))


async def test_a_deleted_thread_orphans_its_game(db_url: str, start_bot: StartBot) -> None:
    t, _ = await opened(db_url, start_bot)
    game = t.game()
    assert game.row.channel_id == t.h.guild.channel_id
    # A guided game is played in a thread: /af learn opens one.
    await t.cmd("af learn", member="member")
    learner = [g for g in jobs_of(t.bot).games.active_games() if g.row.config.tutorial]
    assert len(learner) == 1
    thread = learner[0].row.channel_id
    t.fake.delete_channel(thread)
    await until(lambda: learner[0].id not in jobs_of(t.bot).games._games, "orphaned")
    row = await jobs_of(t.bot).store.game_rows.game(learner[0].id)
    assert row is not None and row.status == "orphaned"
    assert jobs_of(t.bot).games.held(game.id) is not None  # the channel's own game goes on


@pytest.mark.parametrize("event", [True, False], ids=["event", "missed"])
async def test_a_server_that_removed_the_bot_orphans_its_games_until_it_is_added_back(
    db_url: str, start_bot: StartBot, event: bool
) -> None:
    """The bot is removed from the server (GUILD_DELETE; or, missed, 50001 Missing Access
    on the next delivery, confirmed by Discord refusing the server itself): its games there
    are orphaned, their host told once (by DM: they share another server with the bot).
    When the bot is added back (GUILD_CREATE), the games go on in their channels."""
    t, clock = await opened(db_url, start_bot)
    game = t.game()
    other = p.build_test_guild(t.fake.bot_user, name="Elsewhere")
    t.fake.add_guild(other.payload)
    t.fake.add_member(other.id, t.fake.get_member(t.h.guild.id, t.user_id("owner")))
    t.fake.remove_bot(t.h.guild.id, event=event)
    if not event:
        clock.advance(13)
        await t.bot.background.tick()
    await until(lambda: game.id not in jobs_of(t.bot).games._games, "orphaned")
    await t.bot.deliveries.settle()
    store = jobs_of(t.bot).store
    row = await store.game_rows.game(game.id)
    assert row is not None and (row.status, row.orphaned) == ("orphaned", "guild")
    told = [m for m in dms_to(t, t.user_id("owner")) if f"#{game.id}" in m]
    assert len(told) == 1 and "removed" in told[0]
    invalid = t.fake.invalid_requests()
    clock.advance(60)
    await t.bot.background.tick()
    await t.bot.deliveries.settle()
    assert t.fake.invalid_requests() == invalid  # nothing more tried there

    t.fake.add_bot(t.h.guild.id)
    await until(lambda: jobs_of(t.bot).games.held(game.id) is not None, "back in play")
    await t.settle()
    back = t.game()
    assert back.row.status == "playing" and back.row.channel_id == t.h.guild.channel_id
    assert t.said(f"game #{game.id} goes on")
    await recover(t, clock)
    await assert_told_once(t)


async def test_an_orphaned_game_is_ended_unrated_by_its_host_only(
    db_url: str, start_bot: StartBot
) -> None:
    t, _ = await opened(db_url, start_bot)
    game = t.game()
    t.fake.delete_channel(t.h.guild.channel_id)
    await until(lambda: game.id not in jobs_of(t.bot).games._games, "orphaned")
    new = int(t.fake.add_channel(p.text_channel(t.h.guild.id, "elsewhere"))["id"])
    refused = await t.h.interact(
        t.h.slash("af abort", {"game": game.id}, member="member", channel_id=new)
    )
    assert refused.ephemeral and "Only the host" in refused.data["content"]
    typing = [p.option("game", "", type=p.OPT_INTEGER, focused=True)]
    choices = await t.h.interact(
        t.h.autocomplete("af abort", "game", typing, member="owner", channel_id=new)
    )
    assert [c["value"] for c in choices.choices] == [game.id]
    ended = await t.h.interact(
        t.h.slash("af abort", {"game": game.id}, member="owner", channel_id=new)
    )
    assert ended.ephemeral and "ended (unrated)" in ended.data["content"]
    row = await jobs_of(t.bot).store.game_rows.game(game.id)
    assert row is not None and row.status == "aborted"
    assert await jobs_of(t.bot).store.results.rating_changes(game.id) == []
    again = await t.h.interact(
        t.h.slash("af panel", {"game": game.id}, member="owner", channel_id=new)
    )
    assert again.ephemeral and "no game" in again.data["content"]


# ---- threads go to sleep --------------------------------------------------------------------


async def test_a_game_in_an_archived_thread_reopens_it_and_goes_on(
    db_url: str, start_bot: StartBot
) -> None:
    """A play-by-post game in a thread: the thread goes quiet for a day and Discord archives
    it; an edit there is refused (50083), a post would reopen it. The member's next move
    reopens it, its turn message shows the move, and the game goes on."""
    t, clock = await opened(db_url, start_bot)
    t.fake.clock = clock  # the thread's quiet is measured on the test's clock
    await t.cmd("af learn", member="member")
    (game,) = [g for g in jobs_of(t.bot).games.active_games() if g.row.config.tutorial]
    thread = game.row.channel_id
    assert "thread_metadata" in t.fake.get_channel(thread)
    clock.advance(25)  # quiet for more than its 24 hours
    await t.bot.background.tick()
    await t.settle()
    meta = t.fake.get_channel(thread)["thread_metadata"]
    version = game.state.version
    dock = next(str(a) for a in legal_actions(game.state) if str(a).startswith("dock"))
    played = await t.h.interact(
        t.h.slash("play", {"move": dock}, member="member", channel_id=thread)
    )
    await t.settle(played)
    assert game.state.version > version
    assert not meta["archived"]  # reopened
    message = t.fake.get_message(game.row.turn_message_id)
    assert any(
        int(str(c["custom_id"]).split(":")[3]) == game.state.version
        for row in message["components"]
        for c in row.get("components", [])
        if str(c.get("custom_id", "")).startswith("af:")
    )
    assert [
        d for d in await jobs_of(t.bot).store.deliveries.failed_deliveries() if d.game_id == game.id
    ] == []


async def test_a_channel_deleted_while_the_bot_was_away_is_found_at_its_next_start(
    db_url: str, start_bot: StartBot
) -> None:
    """The bot is stopped; the game's channel is deleted meanwhile (the event never reaches
    it): once ready again, it finds the channel gone (Discord says so), orphans the game,
    and tells its host."""
    t, clock = await opened(db_url, start_bot)
    game_id = t.game().id
    await t.h.close()
    t.fake.delete_channel(t.h.guild.channel_id, event=False)
    again = Table(await start_bot(make_bot(db_url, clock=clock)))
    again.members = dict(t.members)
    await until(lambda: game_id not in jobs_of(again.bot).games._games, "orphaned")
    await again.bot.deliveries.settle()
    row = await jobs_of(again.bot).store.game_rows.game(game_id)
    assert row is not None and (row.status, row.orphaned) == ("orphaned", "channel")
    told = [m for m in dms_to(again, again.user_id("owner")) if f"#{game_id}" in m]
    assert len(told) == 1 and "deleted" in told[0]


async def test_a_channel_deleted_while_the_bot_was_away_is_checked_again_when_discord_failed_to_say(
    db_url: str, start_bot: StartBot
) -> None:
    """As above, but Discord fails the bot's question about the channel at its start (a
    503): the turn clock's next check asks again, orphans the game and tells its host — a
    game with nothing left to deliver in its lost channel would otherwise wait there for
    good, its host never told (the chaos benchmark's untold orphaned game)."""
    t, clock = await opened(db_url, start_bot)
    game_id = t.game().id
    channel = t.h.guild.channel_id
    await t.h.close()
    t.fake.delete_channel(channel, event=False)
    t.fake.fail_next("GET", f"/channels/{channel}", **FAULTS["503"])
    again = Table(await start_bot(make_bot(db_url, clock=clock)))
    again.members = dict(t.members)
    await until(
        lambda: any(
            r.method == "GET" and r.path == f"/channels/{channel}" and r.status == 503
            for r in t.fake.requests
        ),
        "asked about the channel",
    )
    await again.bot.background.wait_first_check()
    await again.bot.background.tick()
    await again.bot.deliveries.settle()
    row = await jobs_of(again.bot).store.game_rows.game(game_id)
    assert row is not None and (row.status, row.orphaned) == ("orphaned", "channel")
    told = [m for m in dms_to(again, again.user_id("owner")) if f"#{game_id}" in m]
    assert len(told) == 1 and "deleted" in told[0]
    await again.bot.background.tick()  # asked once more: not again
    await again.bot.deliveries.settle()
    assert len([m for m in dms_to(again, again.user_id("owner")) if f"#{game_id}" in m]) == 1


@pytest.mark.parametrize("gone", ["channel", "guild"])
async def test_a_place_lost_while_the_gateway_was_away_is_found_at_the_new_sessions_ready(
    tmp_path: Path, start_bot: StartBot, gone: str
) -> None:
    """The gateway connection drops and cannot resume: Discord starts a new session (READY
    again) and replays nothing of the outage. The game's channel was deleted meanwhile, or
    the bot removed from its server, with no event: at the new READY the bot checks its
    games' places again, orphans the game and tells its host once (not 12 h later, when a
    reminder meets the lost channel), and another READY tells nobody again."""
    t, clock = await opened(tmp_path / "af.db", start_bot)
    game = t.game()
    guild = t.h.guild.id
    if gone == "channel":
        t.fake.delete_channel(t.h.guild.channel_id, event=False)
    else:  # the host shares another server with the bot: the DM reaches them
        other = p.build_test_guild(t.fake.bot_user, name="Elsewhere")
        t.fake.add_guild(other.payload)
        t.fake.add_member(other.id, t.fake.get_member(guild, t.user_id("owner")))
        t.fake.remove_bot(guild, event=False)
    await t.h._ready()  # the new session's READY, its cache filled from it
    await until(lambda: game.id not in jobs_of(t.bot).games._games, "orphaned")
    await t.bot.deliveries.settle()
    row = await jobs_of(t.bot).store.game_rows.game(game.id)
    assert row is not None and (row.status, row.orphaned) == ("orphaned", gone)
    said = "deleted" if gone == "channel" else "removed"
    told = [m for m in dms_to(t, t.user_id("owner")) if f"#{game.id}" in m]
    assert len(told) == 1 and said in told[0]

    await t.h._ready()  # yet another new session, and the clock's check: nobody told again
    clock.advance(1)
    await t.bot.background.tick()
    await t.bot.deliveries.settle()
    assert len([m for m in dms_to(t, t.user_id("owner")) if f"#{game.id}" in m]) == 1

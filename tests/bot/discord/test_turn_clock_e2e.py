"""The play-by-post turn clock over simulated days, through discord.py and the fake API.

Reminders (at most two a turn), the final warning with its deadline, each timeout
action (ai, skip, none), timeouts in a row handing the seat to the AI, away members,
and restarts of the bot (same SQLite file, new bot object) at every step of a timeout.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from bot.play.games import ActiveGame
from bot.text.strings import text
from engine import parse
from engine.actions import Dock, Done, EndTurn, Place, ReturnExcess
from tests.bot.table import Clock, Table, button, jobs_of, make_bot
from tests.discord_fake import StartBot

H = 3600.0


async def open_table(
    tmp_path: Path | str, start_bot: StartBot, clock: Clock, name: str = "af.db", **options: Any
) -> Table:
    """A game in play between owner and member; ``tmp_path`` may be a ``db_url``."""
    db = tmp_path if isinstance(tmp_path, str) else tmp_path / name
    t = Table(await start_bot(make_bot(db, clock=clock)))
    await t.open(humans=("owner", "member"), **options)
    return t


async def restart(t: Table, start_bot: StartBot, db: Path | str, clock: Clock) -> Table:
    """Close the bot and start a new one on the same database (a restart)."""
    members = dict(t.members)
    await t.h.close()
    again = Table(await start_bot(make_bot(db, clock=clock)))
    again.members = members
    await again.settle()
    return again


def notices(t: Table, start: int) -> list[str]:
    """Reminder and warning messages posted since message index ``start``."""
    return [
        m["content"] for m in t.channel_messages()[start:] if m["content"].startswith(("⏰", "⚠️"))
    ]


async def test_a_quiet_turn_gets_a_reminder_then_a_final_warning_then_the_ai_plays_it(
    db_url: str, start_bot: StartBot
) -> None:
    clock = Clock()
    db = db_url  # on SQLite and on PostgreSQL
    t = await open_table(db, start_bot, clock)
    game = t.game()
    quiet, seat, turn = game.user_to_act(), game.to_act(), game.state.turn_number
    assert quiet is not None and seat is not None
    start = clock.now
    before = len(t.channel_messages())

    clock.advance(11.9)
    assert not await t.bot.background.tick()
    t = await restart(t, start_bot, db, clock)  # the clock keeps counting across restarts
    clock.now = start + 12 * H
    assert await t.bot.background.tick() == {"remind": 1}
    reminder = t.last_public()
    assert reminder.startswith(
        f"⏰ <@{quiet}>, it is your turn (the clock started <t:{int(start)}:R>)"
    )
    assert str(t.game().row.turn_message_id) in reminder
    request = t.fake.find(method="POST", route="/channels/{channel_id}/messages")[-1]
    assert [int(u) for u in request.json["allowed_mentions"]["users"]] == [quiet]
    clock.now = start + 30 * H
    assert not await t.bot.background.tick()

    clock.now = start + 36 * H
    assert await t.bot.background.tick() == {"warn": 1}
    warning = t.last_public()
    assert warning.startswith(f"⚠️ <@{quiet}>, final warning")
    assert f"<t:{int(start + 48 * H)}:R>" in warning and "the AI plays this turn for you" in warning
    clock.now = start + 47.9 * H
    assert not await t.bot.background.tick()

    turn_message = t.game().row.turn_message_id
    clock.now = start + 48 * H
    assert await t.bot.background.tick() == {"timeout": 1}
    await t.settle()
    game = t.game()
    assert game.state.turn_number == turn + 1  # the AI played the turn through
    assert game.seats[seat].user_id == quiet and game.seats[seat].timeouts == 1
    assert t.said("⌛ Time is up for") and t.said("the seat stays theirs")
    closed = t.fake.get_message(turn_message)
    assert f"played for <@{quiet}> by the AI" in closed["content"]
    assert closed["components"] == []
    assert len(notices(t, before)) == 2  # one reminder, one warning: never more

    # The next member's clock counts from the end of the AI's turn.
    other = game.user_to_act()
    assert other is not None and other != quiet
    clock.advance(11.9)
    assert not await t.bot.background.tick()
    clock.advance(0.2)
    assert await t.bot.background.tick() == {"remind": 1}
    assert t.last_public().startswith(f"⏰ <@{other}>")


async def test_timeouts_in_a_row_hand_the_seat_to_the_ai_until_the_member_rejoins(
    db_url: str, start_bot: StartBot
) -> None:
    clock = Clock()
    t = await open_table(db_url, start_bot, clock)
    changed = await t.cmd("af settings", {"timeouts": 2}, "owner")
    assert not changed.ephemeral and "After 2 timed-out turns in a row" in changed.data["content"]
    member = t.user_id("member")
    rng = random.Random(4)
    game = t.game()
    seat = next(s.seat for s in game.seats if s.user_id == member)
    timeouts = 0
    while game.seats[seat].user_id == member:
        if game.user_to_act() == member:
            clock.advance(48.1)
            assert await t.bot.background.tick() == {"timeout": 1}
            await t.settle()
            timeouts += 1
        else:
            await t.play_turn(rng)
            clock.advance(1)
    assert timeouts == 2
    row = game.seats[seat]
    assert row.ai_level == "normal" and row.former_user_id == member
    assert row.name == "member (AI normal)"
    (told,) = t.said("missed 2 turns in a row")
    assert f"<@{member}>" in told and f"<@{t.user_id('owner')}>" in told
    request = next(
        r
        for r in t.fake.find(method="POST", route="/channels/{channel_id}/messages")
        if "missed 2 turns" in r.json.get("content", "")
    )
    pinged = {int(u) for u in request.json["allowed_mentions"]["users"]}
    assert pinged == {member, t.user_id("owner")}

    # The AI now plays the seat by itself: the owner is to act, and the member takes it back.
    assert game.user_to_act() == t.user_id("owner")
    back = await t.cmd("af join", member="member")
    assert not back.ephemeral and "member takes their seat back" in back.data["content"]
    row = game.seats[seat]
    assert row.user_id == member and row.ai_level is None and row.name == "member"
    assert row.timeouts == 0 and row.former_user_id is None
    again = await t.cmd("af join", member="member")
    assert again.ephemeral and "already have a seat" in again.data["content"]


async def test_playing_a_turn_starts_the_count_of_timeouts_again(
    tmp_path: Path, start_bot: StartBot
) -> None:
    clock = Clock()
    t = await open_table(tmp_path, start_bot, clock)
    rng = random.Random(8)
    game = t.game()
    member = t.user_id("member")
    seat = next(s.seat for s in game.seats if s.user_id == member)
    while game.user_to_act() != member:
        await t.play_turn(rng)
    clock.advance(48)
    await t.bot.background.tick()
    await t.settle()
    assert game.seats[seat].timeouts == 1
    while game.user_to_act() != member:
        await t.play_turn(rng)
    await t.play(t.seeded_move(rng), "member")
    assert game.seats[seat].timeouts == 0
    assert (await jobs_of(t.bot).store.seat_rows.seats(game.id))[seat].timeouts == 0


async def test_skip_ends_a_timed_out_turn_with_only_the_required_moves(
    tmp_path: Path, start_bot: StartBot
) -> None:
    clock = Clock()
    t = await open_table(tmp_path, start_bot, clock)
    await t.cmd("af settings", {"on_timeout": "skip"}, "owner")
    warned = t.game()
    clock.advance(36)
    await t.bot.background.tick()
    assert "your turn is skipped" in t.last_public()
    game = warned
    quiet, seat, turn = game.user_to_act(), game.to_act(), game.state.turn_number
    first = len(await jobs_of(t.bot).store.action_log.actions(game.id))
    turn_message = game.row.turn_message_id
    clock.advance(12)
    assert await t.bot.background.tick() == {"timeout": 1}
    await t.settle()
    assert game.state.turn_number == turn + 1
    played = [
        a
        for a in (await jobs_of(t.bot).store.action_log.actions(game.id))[first:]
        if a.actor == seat
    ]
    assert played and all(
        isinstance(parse(a.notation), (Dock, Place, Done, ReturnExcess, EndTurn)) for a in played
    )
    assert f"skipped for <@{quiet}>" in t.fake.get_message(turn_message)["content"]
    assert t.said("their turn is skipped")


async def test_timeout_action_none_tells_the_host_and_stops_the_reminders(
    tmp_path: Path, start_bot: StartBot
) -> None:
    clock = Clock()
    t = await open_table(tmp_path, start_bot, clock)
    await t.cmd("af settings", {"on_timeout": "none"}, "owner")
    game = t.game()
    quiet, version = game.user_to_act(), game.state.version
    clock.advance(48)
    assert await t.bot.background.tick() == {"timeout": 1}
    await t.settle()
    owner = t.user_id("owner")
    assert t.last_public().startswith(f"⌛ <@{owner}>: ")
    assert "has not played for 48 hours" in t.last_public()
    request = t.fake.find(method="POST", route="/channels/{channel_id}/messages")[-1]
    assert [int(u) for u in request.json["allowed_mentions"]["users"]] == [owner]
    assert game.state.version == version and game.user_to_act() == quiet
    count = len(t.channel_messages())
    for _ in range(5):
        clock.advance(24)
        assert not await t.bot.background.tick()
    assert len(t.channel_messages()) == count  # the host decides; no more pings
    await t.play(t.seeded_move(random.Random(1)))  # the member can still play


async def test_a_game_without_a_clock_never_reminds(tmp_path: Path, start_bot: StartBot) -> None:
    clock = Clock()
    t = await open_table(tmp_path, start_bot, clock, turn_limit=0.0)
    assert "Turn clock: off" in t.said("hosted by owner")[0]
    for _ in range(10):
        clock.advance(24)
        assert not await t.bot.background.tick()
    on = await t.cmd("af settings", {"clock": True, "turn_limit": 2.0}, "owner")
    assert "at 2 hours the AI (normal) plays the turn" in on.data["content"]
    clock.advance(0.6)
    assert await t.bot.background.tick() == {"remind": 1}


async def test_away_members_are_not_reminded_until_they_are_back(
    tmp_path: Path, start_bot: StartBot
) -> None:
    clock = Clock()
    t = await open_table(tmp_path, start_bot, clock)
    game = t.game()
    quiet = t.member_to_act()
    start = clock.now
    too_long = await t.cmd("af away", {"days": 30}, quiet)
    assert too_long.ephemeral and "`days` takes a value from 0 to 14" in too_long.data["content"]
    assert await jobs_of(t.bot).seats.away([t.user_id(quiet)]) == {}
    away = await t.cmd("af away", {"days": 2}, quiet)
    assert away.ephemeral and f"<t:{int(start + 48 * H)}:f>" in away.data["content"]
    status = await t.cmd("af status", member="manager")
    assert f"is away until <t:{int(start + 48 * H)}:f>" in status.data["content"]
    names = await t.bot.parts.boards.pictures.board_names(
        game
    )  # the board marks them, with the day
    assert names[game.to_act() or 0] == f"{quiet} (away until 14 Jan)"
    clock.now = start + 59.9 * H
    assert not await t.bot.background.tick()  # the clock starts when the absence ends
    clock.now = start + 60 * H
    assert await t.bot.background.tick() == {"remind": 1}
    await t.cmd("af away", {"days": 1}, quiet)
    clock.now = start + 70 * H
    back = await t.cmd("af away", {"days": 0}, quiet)
    assert "Welcome back" in back.data["content"]
    clock.now = start + 70 * H + 35.9 * H
    assert not await t.bot.background.tick()
    clock.now = start + 70 * H + 36 * H
    assert await t.bot.background.tick() == {"warn": 1}
    assert game.user_to_act() == t.user_id(quiet)


async def test_host_or_manage_channels_kick_and_replace_seats(
    tmp_path: Path, start_bot: StartBot
) -> None:
    clock = Clock()
    t = Table(await start_bot(make_bot(tmp_path / "af.db", clock=clock)))
    await t.cmd("af new", {"players": 3}, "owner")
    await t.cmd("af join", member="member")
    await t.cmd("af join", member="manager")
    store = jobs_of(t.bot).store
    game = t.game()
    seats_before = await store.seat_rows.seats(game.id)
    refused = await t.cmd("af kick", {"player": "owner"}, "member")
    assert refused.ephemeral and "Only the host or members with Manage" in refused.data["content"]
    assert await store.seat_rows.seats(game.id) == seats_before
    kicked = await t.cmd("af kick", {"player": "3"}, "owner")
    assert "owner removed manager from the lobby" in kicked.data["content"]
    assert [s.name for s in game.seats] == ["owner", "member"]
    await t.cmd("af bot", {"level": "easy"}, "owner")
    await t.cmd("af start", member="owner")

    choices = await t.h.interact(t.h.autocomplete("af kick", "player", {"player": ""}))
    assert [c["value"] for c in choices.choices] == ["1", "2", "3"]
    assert choices.choices[1]["name"] == "2 · member"
    row_before = await store.game_rows.game(game.id)
    for player, who, reason in (
        ("1", "owner", "use `/af leave`"),
        ("3", "owner", "already played by the AI"),
        ("zorro", "owner", "No seat matches “zorro”"),
        ("9", "owner", "There is no seat 9"),
        ("2", "member", "To give up your own seat, use `/af leave`"),
        ("1", "member", "once their turn has had no move for 16 days"),
    ):
        no = await t.cmd("af kick", {"player": player}, who)
        assert no.ephemeral and reason in no.data["content"], (player, no.data)
    assert await store.game_rows.game(game.id) == row_before

    out = await t.cmd("af kick", {"player": "member"}, "manager")  # Manage Channels
    assert "handed member's seat to the AI (normal)" in out.data["content"]
    assert game.seats[1].ai_level == "normal" and game.seats[1].former_user_id == t.user_id(
        "member"
    )
    for member, reason in (
        (t.h.guild.owner, "already has a seat"),
        (t.h.fake.members[t.h.guild.id][int(t.h.fake.bot_user["id"])], "is a bot account"),
    ):
        no = await t.cmd("af replace", {"player": "2", "with": member}, "owner")
        assert no.ephemeral and reason in no.data["content"]
    offered = await t.cmd("af replace", {"player": "2", "with": t.h.guild.manager}, "owner")
    assert "owner offers member (AI normal)'s seat to <@" in offered.data["content"]
    assert game.seats[1].ai_level == "normal"  # nobody is seated without their consent
    given = await t.cmd("af join", member="manager")
    assert "manager takes member (AI normal)'s seat" in given.data["content"]
    assert game.seats[1].user_id == t.user_id("manager") and game.seats[1].ai_level is None
    nothing = await t.cmd("af join", member="member")  # their seat is the manager's now
    assert nothing.ephemeral and "already started" in nothing.data["content"]
    seated = await t.cmd("af join", member="manager")
    assert seated.ephemeral and "already have a seat" in seated.data["content"]
    t.members[t.user_id("manager")] = "manager"
    rng = random.Random(2)
    while game.user_to_act() != t.user_id("manager"):
        await t.play_turn(rng)
    await t.play(t.seeded_move(rng), "manager")


async def test_a_newcomer_replacing_the_seat_to_act_is_pinged(
    tmp_path: Path, start_bot: StartBot
) -> None:
    clock = Clock()
    t = await open_table(tmp_path, start_bot, clock)
    game = t.game()
    if game.user_to_act() != t.user_id("member"):
        await t.play_turn(random.Random(5))
    await t.cmd("af replace", {"player": "member", "with": t.h.guild.manager}, "owner")
    await t.cmd("af join", member="manager")  # the offer taken
    ping = t.last_public()
    assert ping.startswith(f"🎲 <@{t.user_id('manager')}>, the seat is yours and it is your turn")
    assert game.waiting_on() == t.user_id("manager")


async def test_leave_asks_first_and_the_last_member_leaving_ends_the_game(
    tmp_path: Path, start_bot: StartBot
) -> None:
    t = Table(await start_bot(make_bot(tmp_path / "af.db")))
    await t.open(humans=("owner",), bots=("easy",))
    game = t.game()
    stayed = await t.leave("owner", confirm=False)
    assert "You are the last player: the game ends for everyone" in stayed.data["content"]
    assert game.row.status == "playing" and game.seats[0].user_id == t.user_id("owner")
    turn_message = game.row.turn_message_id
    await t.leave("owner")
    row = await jobs_of(t.bot).store.game_rows.game(game.id)
    assert row is not None and row.status == "aborted"
    assert not jobs_of(t.bot).games._games
    assert t.said("owner leaves and no player is left: the game ends here")
    final = t.fake.get_message(turn_message)
    assert final["components"] == [] and "the game ends here" in final["content"]
    nobody = await t.cmd("af leave", member="member")
    assert nobody.ephemeral and "no game in this channel" in nobody.data["content"]


async def test_a_game_of_ai_seats_made_on_purpose_plays_to_the_end(
    tmp_path: Path, start_bot: StartBot
) -> None:
    t = Table(await start_bot(make_bot(tmp_path / "af.db")))
    opened = await t.cmd("af new", {"players": 2, "watch": True}, "owner")
    assert opened.message is not None and "hosted by <@" in opened.message["content"]
    await t.cmd("af bot", {"level": "easy"}, "owner")
    await t.cmd("af bot", {"level": "easy"}, "owner")
    game = t.game()
    await t.cmd("af start", member="owner")
    assert game.row.ai_only and game.row.status == "over"
    assert t.said("Game over")


class BlockAfter:
    """Stands in for ``MoveService.play_ai``: lets ``moves`` AI moves through, then blocks
    until the bot is closed (as a crash in the middle of the turn would stop it)."""

    def __init__(self, real: Any, moves: int) -> None:
        self.real, self.moves, self.made = real, moves, 0
        self.reached = asyncio.Event()

    async def __call__(self, game: ActiveGame) -> Any:
        if self.made == self.moves:
            self.reached.set()
            await asyncio.Event().wait()
        self.made += 1
        return await self.real(game)


async def test_a_restart_at_every_step_of_a_timeout_plays_the_turn_exactly_once(
    tmp_path: Path, start_bot: StartBot
) -> None:
    for stop_after in (None, 0, 1, 2, 4):
        clock = Clock()
        name = f"af-{stop_after}.db"
        t = await open_table(tmp_path, start_bot, clock, name=name)
        game = t.game()
        quiet, seat, turn = game.user_to_act(), game.to_act(), game.state.turn_number
        assert seat is not None
        clock.advance(48)
        if stop_after is not None:
            gate = BlockAfter(jobs_of(t.bot).moves.play_ai, stop_after)
            jobs_of(t.bot).moves.play_ai = gate  # type: ignore[method-assign]
            assert await t.bot.background.tick() == {"timeout": 1}
            blocked = asyncio.create_task(gate.reached.wait())
            finished = asyncio.create_task(t.bot.background.wait_idle())
            await asyncio.wait({blocked, finished}, timeout=10, return_when="FIRST_COMPLETED")
            assert gate.reached.is_set() or stop_after > 1, stop_after  # a turn has 2+ actions
            blocked.cancel()
            finished.cancel()
        # With stop_after None the bot stopped before the clock noticed: the clock's first
        # check after the restart (awaited by restart) plays the timeout.
        t = await restart(t, start_bot, tmp_path / name, clock)
        game = t.game()
        assert game.state.turn_number == turn + 1, stop_after
        assert game.seats[seat].timeouts == 1 and game.seats[seat].user_id == quiet
        assert not await t.bot.background.tick()
        actions = await jobs_of(t.bot).store.action_log.actions(game.id)
        assert [a.seq for a in actions] == list(range(len(actions)))
        ends = [a for a in actions if a.actor == seat and a.notation == "end"]
        assert len(ends) == 1, stop_after  # the first turn was that seat's: played once
        await t.h.close()


class Gate:
    """Stands in for ``MoveService.play_ai``: each AI move waits until the test opens the
    gate, so the test can act in the middle of an AI turn."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.open = asyncio.Event()
        self.waiting = asyncio.Event()

    async def __call__(self, game: ActiveGame) -> Any:
        self.waiting.set()
        await self.open.wait()
        return await self.real(game)


async def test_rejoin_during_the_ai_turn_takes_effect_when_that_turn_ends(
    tmp_path: Path, start_bot: StartBot
) -> None:
    t = Table(await start_bot(make_bot(tmp_path / "af.db")))
    await t.open(humans=("owner", "member"))
    game = t.game()
    rng = random.Random(6)
    if game.user_to_act() != t.user_id("member"):
        await t.play_turn(rng)
    gate = Gate(jobs_of(t.bot).moves.play_ai)
    jobs_of(t.bot).moves.play_ai = gate  # type: ignore[method-assign]
    asked = await t.cmd("af leave", member="member")
    assert asked.message is not None
    cid = button(asked.message, "af:leave:")["custom_id"].rsplit(":", 1)[0] + ":yes"
    left = await t.h.interact(t.h.click(asked.message, cid, member="member"))
    await left.done()  # on their own turn: the AI starts playing it (and waits at the gate)
    await asyncio.wait_for(gate.waiting.wait(), 10)
    seat = next(s.seat for s in game.seats if s.former_user_id == t.user_id("member"))
    turn = game.state.turn_number
    # The AI holds the game while it thinks: the command is deferred privately, then
    # answered once the move is made; it takes effect when the AI's turn ends.
    pending = await t.cmd("af join", member="member", wait=False)
    await asyncio.sleep(0.05)
    assert pending.callback_type == 5 and pending.ephemeral
    gate.open.set()
    await pending.done()
    assert t.said("member takes their seat back when the AI's current turn ends")
    row = (await jobs_of(t.bot).store.seat_rows.seats(game.id))[seat]
    assert row.rejoin or row.user_id == t.user_id("member")
    gate.open.set()
    await t.settle()
    assert game.state.turn_number == turn + 1  # the AI finished the turn it had begun
    row = (await jobs_of(t.bot).store.seat_rows.seats(game.id))[seat]
    assert row.user_id == t.user_id("member") and row.ai_level is None and not row.rejoin
    assert game.seats[seat] == row


async def test_server_defaults_are_for_admins_and_new_games_start_with_them(
    tmp_path: Path, start_bot: StartBot
) -> None:
    t = Table(await start_bot(make_bot(tmp_path / "af.db")))
    shown = await t.cmd("af settings", member="member")
    assert shown.ephemeral
    assert (
        "**Server defaults for new games** — Turn clock: a reminder after" in shown.data["content"]
    )
    assert "at 48 hours the AI (normal) plays the turn" in shown.data["content"]
    no = await t.cmd("af settings", {"scope": "server", "turn_limit": 24.0}, "member")
    assert no.ephemeral and "Only members with Manage Server" in no.data["content"]
    bad = await t.cmd(
        "af settings", {"scope": "server", "reminder": 30.0, "warning": 20.0}, "owner"
    )
    assert bad.ephemeral and "must come before the final warning" in bad.data["content"]
    assert await jobs_of(t.bot).store.server_settings.guild_clock(t.h.guild.id) is None
    ok = await t.cmd(
        "af settings", {"scope": "server", "turn_limit": 24.0, "on_timeout": "skip"}, "owner"
    )
    assert ok.ephemeral and "at 24 hours the turn is skipped" in ok.data["content"]
    await t.cmd("af new", {"players": 2}, "member")
    game = t.game()
    assert game.clock.limit_hours == 24 and game.clock.remind_hours == 6
    assert game.clock.action == "skip"
    by_manager = await t.cmd("af settings", {"timeouts": 5}, "manager")  # Manage Channels
    assert not by_manager.ephemeral and game.clock.max_timeouts == 5
    assert "manager changed this game's clock" in by_manager.data["content"]
    by_host = await t.cmd("af settings", {"timeouts": 2}, "member")  # the host
    assert not by_host.ephemeral and game.clock.max_timeouts == 2
    await t.cmd("af join", member="owner")
    current = await t.cmd("af settings", member="owner")
    assert current.ephemeral and "**This game** — " in current.data["content"]
    assert "After 2 timed-out turns in a row" in current.data["content"]


async def test_the_host_changes_the_game_language_with_the_settings(
    tmp_path: Path, start_bot: StartBot
) -> None:
    t = await open_table(tmp_path, start_bot, Clock())
    game = t.game()
    refused = await t.cmd("af settings", {"language": "ru"}, "member")
    assert refused.ephemeral and game.row.locale == "en"
    server = await t.cmd("af settings", {"scope": "server", "language": "pl"}, "owner")
    assert server.ephemeral and "Polski" in server.data["content"]
    assert game.row.locale == "en"  # the server's choice is for new games only
    changed = await t.cmd("af settings", {"language": "ru"}, "owner")
    assert not changed.ephemeral and game.row.locale == "ru"
    assert changed.data["content"] == text("language.changed", "ru")
    assert text("turn.hint", "ru") in t.turn_message()["content"]  # shown again in Russian
    same = await t.cmd("af settings", {"language": "ru"}, "owner")
    assert same.ephemeral and "nothing changed" in same.data["content"]

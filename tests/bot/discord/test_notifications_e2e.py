"""Play-by-post for people with lives: DMs on your turn, a refused DM, no pings, "my
games" across servers, catch-up in the ping, /af panel, the game-over message, rematch,
stats, leaderboard and replays — through discord.py and the fake Discord API."""

from __future__ import annotations

import asyncio
import io
import random
import re
from typing import Any

from PIL import Image

from bot.render.replay import MAX_BYTES, MAX_SECONDS
from bot.text import describe
from engine.scoring import outcome, recount_victory_points, score_parts
from engine.state import Event
from tests.bot.store.test_storage_contract import finish, lobby, placed
from tests.bot.table import Clock, Table, button, jobs_of, make_bot
from tests.discord_fake import StartBot
from tests.discord_fake import payloads as p

MESSAGES = "/channels/{channel_id}/messages"


async def table(db_url: str, start_bot: StartBot, **kwargs: Any) -> Table:
    """A table on each database in turn (``db_url``: SQLite, then PostgreSQL)."""
    return Table(await start_bot(make_bot(db_url, **kwargs)))


async def dm_channel(t: Table, member: str) -> int:
    prefs = (await jobs_of(t.bot).store.members.prefs([t.user_id(member)]))[t.user_id(member)]
    assert prefs.dm_channel_id is not None
    return prefs.dm_channel_id


def dms(t: Table, channel_id: int) -> list[str]:
    return [m["content"] for m in t.fake.messages_in(channel_id, include_ephemeral=False)]


def pinged(t: Table, message_id: int) -> list[int]:
    """Who the request that created ``message_id`` allowed to be pinged."""
    for r in t.fake.find(method="POST", route=MESSAGES):
        if isinstance(r.response, dict) and str(r.response.get("id")) == str(message_id):
            return [int(u) for u in r.json.get("allowed_mentions", {}).get("users", [])]
    raise LookupError(message_id)


async def to_member_turn(t: Table, rng: random.Random, member: str = "member") -> None:
    game = t.game()
    while game.user_to_act() != t.user_id(member):
        await t.play_turn(rng)


async def test_dm_mode_sends_one_dm_per_turn_with_a_link_and_no_channel_ping(
    db_url: str, start_bot: StartBot
) -> None:
    t = await table(db_url, start_bot)
    chose = await t.cmd("af notify", {"mode": "dm"}, "member")
    assert chose.ephemeral
    assert "come by direct message" in (await chose.followup()).json["content"]
    dm = await dm_channel(t, "member")
    assert dms(t, dm) == ["🔔 This is where your Alien Frontiers turns will come."]
    shown = await t.cmd("af notify", member="member")
    assert "come by direct message" in shown.data["content"]

    await t.open(humans=("owner", "member"))
    rng = random.Random(3)
    member = t.user_id("member")
    for _ in range(3):
        await to_member_turn(t, rng)
        game = t.game()
        turn_message = game.row.turn_message_id
        assert turn_message is not None
        assert f"<@{member}>" in t.turn_message()["content"]  # named, but not pinged
        assert pinged(t, turn_message) == []
        said = dms(t, dm)[-1]
        assert said.startswith(f"🎲 It is your turn in <#{t.h.guild.channel_id}> (Test Guild)")
        assert str(turn_message) in said
        await t.play_turn(rng)
    turns = sum(1 for c in dms(t, dm) if c.startswith("🎲"))
    assert turns == 3  # exactly one DM per turn of theirs
    # Reminders come by DM too.
    clock = Clock(t.bot.clock() + 1)
    t.set_clock(clock)
    await to_member_turn(t, rng)
    before = len(dms(t, dm))
    clock.advance(13)
    assert await t.bot.background.tick() == {"remind": 1}
    assert dms(t, dm)[before].startswith(f"⏰ <@{member}>, it is your turn")
    assert not t.last_public().startswith("⏰")


async def test_a_refused_dm_falls_back_to_the_channel_once_then_hints_privately(
    db_url: str, start_bot: StartBot
) -> None:
    t = await table(db_url, start_bot)
    await t.cmd("af notify", {"mode": "dm"}, "member")
    dm = await dm_channel(t, "member")
    t.fake.fail_next(
        "POST",
        f"/channels/{dm}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=10,
    )
    await t.open(humans=("owner", "member"))
    rng = random.Random(5)
    member = t.user_id("member")
    await to_member_turn(t, rng)
    fallback = t.said("I could not send you a DM")
    assert len(fallback) == 1 and fallback[0].startswith(f"🔔 <@{member}>")
    prefs = (await jobs_of(t.bot).store.members.prefs([member]))[member]
    assert prefs.dm_blocked and prefs.dm_hint
    # The next move of theirs carries the hint, privately, once.
    played = await t.play(t.seeded_move(rng), "member")
    assert played.ephemeral and "your DMs are closed to this server" in played.data["content"]
    again = await t.play(t.seeded_move(rng, prefer_end=True), "member")
    assert "your DMs are closed" not in again.data["content"]
    await t.play_turn(rng)
    # From now on the channel pings them; Discord was asked for one DM only.
    await to_member_turn(t, rng)
    assert pinged(t, t.game().row.turn_message_id or 0) == [member]
    posts = t.fake.find(method="POST", route=MESSAGES)
    tried = [r for r in posts if r.path.endswith(f"/{dm}/messages")]
    assert len(tried) == 1 + 1  # the test DM of /af notify, then the one refused
    assert len(t.said("I could not send you a DM")) == 1


async def test_mode_off_pings_nobody(db_url: str, start_bot: StartBot) -> None:
    t = await table(db_url, start_bot)
    off = await t.cmd("af notify", {"mode": "off"}, "member")
    assert "Nothing pings you" in (await off.followup()).json["content"]
    await t.open(humans=("owner", "member"))
    rng = random.Random(7)
    await to_member_turn(t, rng)
    assert pinged(t, t.game().row.turn_message_id or 0) == []
    clock = Clock(t.bot.clock() + 1)
    t.set_clock(clock)
    clock.advance(13)
    assert await t.bot.background.tick() == {"remind": 1}
    reminder = t.fake.find(method="POST", route=MESSAGES)[-1]
    assert reminder.json["content"].startswith("⏰")
    assert not reminder.json["allowed_mentions"]["users"]


async def test_my_games_across_two_servers_waiting_on_me_first(
    db_url: str, start_bot: StartBot, fake_discord: Any
) -> None:
    fake = fake_discord
    home = fake.guild
    other_id = p.snowflake()
    other_channel = p.text_channel(other_id, "af-games")
    bot_member = p.member(fake.bot_user)
    fake.add_guild(
        p.guild(
            "Other Server",
            id=other_id,
            owner_id=home.owner["user"]["id"],
            channels=[other_channel],
            members=[bot_member, home.owner, home.member],
        )
    )
    t = await table(db_url, start_bot)
    await t.open(humans=("owner", "member"))
    await to_member_turn(t, random.Random(2), "owner")  # here the owner is to act
    elsewhere = int(other_channel["id"])
    for command, who in (("af new", "member"), ("af join", "owner"), ("af start", "member")):
        payload = t.h.slash(
            command,
            {"players": 2} if command == "af new" else None,
            member=fake.get_member(other_id, t.user_id(who)),
            channel_id=elsewhere,
        )
        await (await t.h.interact(payload)).done()
    listed = await t.cmd("af mygames", member="owner")
    assert listed.ephemeral
    lines = listed.data["content"].splitlines()
    assert lines[0] == "🪐 **Your 2 games** (the ones waiting on you first):"
    games = {g.row.channel_id: g for g in jobs_of(t.bot).games.active_games()}
    assert f"<#{home.channel_id}> (Test Guild) — **your turn**" in lines[1]  # here first
    if games[elsewhere].user_to_act() == t.user_id("owner"):
        assert f"<#{elsewhere}> (Other Server) — **your turn**" in lines[2]
    else:
        assert f"<#{elsewhere}> (Other Server) — member's turn began <t:" in lines[2]
    # Asked from the other server, its game comes first among those waiting on the owner.
    there = t.h.slash(
        "af mygames", member=fake.get_member(other_id, t.user_id("owner")), channel_id=elsewhere
    )
    answer = await t.h.interact(there)
    await answer.done()
    first = answer.data["content"].splitlines()[1]
    waiting_there = games[elsewhere].user_to_act() == t.user_id("owner")
    assert (f"<#{elsewhere}>" in first) == waiting_there
    nothing = await t.cmd("af mygames", member="manager")
    assert "You have no seat in any game" in nothing.data["content"]


async def test_the_ping_tells_what_the_others_did_since_your_last_turn(
    db_url: str, start_bot: StartBot
) -> None:
    t = await table(db_url, start_bot)
    await t.open(humans=("member",), bots=("normal",))
    rng = random.Random(11)
    game = t.game()
    names = game.chat_names
    for _ in range(40):
        await to_member_turn(t, rng)
        rows = await jobs_of(t.bot).store.action_log.actions(game.id)
        seat = game.to_act()
        last = max((r.seq for r in rows if r.actor == seat), default=-1)
        colonies = [
            Event(e["key"], e["player"], e["params"], 0)
            for r in rows
            if r.seq > last
            for e in r.events
            if e["key"] == "colony_placed"
        ]
        if colonies:
            content = t.turn_message()["content"]
            assert "📰 Since your last turn:" in content
            for e in colonies:
                assert describe.event_line(e, "en", names) in content
            return
        await t.play_turn(rng)
    raise AssertionError("the AI never placed a colony")


async def test_panel_reposts_the_turn_message_and_the_old_one_points_to_it(
    db_url: str, start_bot: StartBot
) -> None:
    t = await table(db_url, start_bot)
    await t.open(humans=("owner", "member"))
    old = t.game().row.turn_message_id
    spectator = await t.cmd("af panel", member="manager")  # Manage Channels may
    assert spectator.ephemeral and "at the bottom of the channel again" in spectator.data["content"]
    new = t.game().row.turn_message_id
    assert new != old and t.h.last_message(include_ephemeral=False)["id"] == str(new)
    moved = t.fake.get_message(old)
    assert "continues further down" in moved["content"] and str(new) in moved["content"]
    assert moved["components"] == []
    assert pinged(t, new or 0) == []  # no second ping
    await t.click_move(t.seeded_move(random.Random(1)))  # the new panel works


async def finish_with_member_seat_to_ai(t: Table, seed: int) -> int:
    """A game with the owner hosting without a seat, the member and an easy AI; the member
    plays their first turn, then the owner hands the member's seat to the AI, so it plays
    to the end. Returns the game id."""
    jobs_of(t.bot).lobby.new_seed = lambda: seed
    await t.cmd("af new", {"players": 2, "watch": True}, "owner")
    await t.cmd("af join", member="member")
    await t.cmd("af bot", {"level": "easy"}, "owner")
    game = t.game()
    await t.cmd("af settings", {"takeover": "easy"}, "owner")  # a quick game to the end
    await t.cmd("af start", member="owner")
    await t.play_turn(random.Random(seed))  # a move of theirs: the kick rates them
    await t.cmd("af kick", {"player": "member"}, "owner")
    await t.settle()
    assert game.row.status == "over"
    return game.id


async def test_game_over_pings_shows_the_breakdown_and_opens_a_rematch(
    db_url: str, start_bot: StartBot
) -> None:
    t = await table(db_url, start_bot)
    game_id = await finish_with_member_seat_to_ai(t, 41)
    final = t.h.last_message(include_ephemeral=False)
    content = final["content"]
    member = t.user_id("member")
    # Removed before the end: neither pinged nor named as the seat's player (it is the
    # AI's, named "member (AI easy)" as the member played some of it).
    assert content.startswith("🏁 **Game over!** \n")
    assert pinged(t, int(final["id"])) == []
    state = (await jobs_of(t.bot).games.rebuild(*await _row_and_seats(t, game_id))).state
    result = outcome(state)
    assert result is not None
    recount = recount_victory_points(state)
    results = await jobs_of(t.bot).store.results.of_game(game_id)
    for r in results:
        parts = score_parts(state, r.seat)
        assert r.vp == recount[r.seat] == parts.total == result.scores[r.seat]
        assert (r.vp_colonies, r.vp_territories, r.vp_positron, r.vp_cards) == (
            parts.colonies,
            parts.territories,
            parts.positron,
            parts.cards,
        )
        line = next(x for x in content.splitlines() if x.split(" ", 1)[-1].startswith(r.name))
        assert f"{r.vp} VP — " in line
        shown = dict(
            (word, int(n)) for n, word in re.findall(r"(\d+) (colon|territor|Positron|alien)", line)
        )
        assert shown.get("colon", 0) == parts.colonies
        assert shown.get("territor", 0) == parts.territories
        assert shown.get("Positron", 0) == parts.positron
        assert shown.get("alien", 0) == parts.cards
        assert r.winner == (r.seat in result.winners)
    assert results[0].user_id == member  # the member's seat, played out by the AI
    assert re.search(rf"\n{state.round} rounds, .+ from the first move to the last\.$", content)
    # The member was rated when removed, as last: the AI's play of their seat rates nobody.
    (rated,) = await jobs_of(t.bot).store.results.rating_changes(game_id)
    assert (rated.change.user_id, rated.change.how, rated.change.place) == (member, "kicked", 2)
    change = rated.change.after.shown - rated.change.before.shown
    assert change < 0
    assert (
        f"📈 Ratings: <@{member}> {rated.change.after.shown} (−{-change}, removed: last place,"
        " provisional)" in content
    )
    # The final board, then the chart of the VP by round, each described in words.
    board, chart = final["attachments"]
    assert board["filename"].startswith("board-") and chart["filename"] == f"vp-{game_id}.png"
    assert chart["description"] and "member" in chart["description"]
    assert Image.open(io.BytesIO(t.fake.attachment_bytes(chart))).width >= 550

    rematch = button(final, "af:rematch:")
    outsider = t.fake.add_member(t.h.guild.id, p.member(p.user("outsider")))
    stranger = await t.h.interact(t.h.click(final, rematch["custom_id"], member=outsider))
    await stranger.done()
    assert stranger.ephemeral and "Only the players of that game" in stranger.data["content"]
    opened = await t.h.interact(t.h.click(final, rematch["custom_id"], member="member"))
    await opened.done()
    lobby = t.game()
    assert lobby.row.status == "lobby" and lobby.row.host_id == member
    assert [s.name for s in lobby.seats] == ["member", "AI 1 (easy)"]
    assert lobby.row.max_players == 2
    assert opened.message is not None and "opens a rematch" in opened.message["content"]
    busy = await t.h.interact(t.h.click(final, rematch["custom_id"], member="member"))
    await busy.done()
    assert busy.ephemeral and "already has a game" in busy.data["content"]


def numbered_board(state: Any, names: Any, locale: str, detail: bool = False) -> bytes:
    """A small stand-in board that shows the state version in binary (frames differ)."""
    out = io.BytesIO()
    image = Image.new("RGB", (16, 2), (0, 0, 0))
    for bit in range(16):
        image.putpixel((bit, 0), (255, 255, 255) if state.version >> bit & 1 else (0, 0, 0))
    image.putpixel((0, 1), (255, 255, 255))
    image.save(out, "PNG")
    return out.getvalue()


async def store_seasons(t: Table) -> list[Any]:
    return await jobs_of(t.bot).store.results.seasons(t.h.guild.id)


async def _row_and_seats(t: Table, game_id: int) -> tuple[Any, Any]:
    row = await jobs_of(t.bot).store.game_rows.game(game_id)
    return row, await jobs_of(t.bot).store.seat_rows.seats(game_id)


async def test_stats_leaderboard_and_replay_of_finished_games(
    db_url: str, start_bot: StartBot
) -> None:
    t = await table(db_url, start_bot)
    none = await t.cmd("af stats", member="member")
    assert "has not finished a game" in none.data["content"]
    store = jobs_of(t.bot).store
    member = t.user_id("member")
    # Two games the member played to the end (one won), then two the AI played out
    # for them after a kick: only the first two are theirs in /af stats.
    played = []
    for channel, place in ((500, 1), (501, 2)):
        played.append(await lobby(store, channel=channel, guild=t.h.guild.id))
        seats = [placed(0, member, place), placed(1, None, 3 - place, "easy")]
        await finish(store, played[-1], seats, t.h.guild.id)
    ids = [await finish_with_member_seat_to_ai(t, seed) for seed in (41, 42)]
    results = [r for _, r in await store.results.results_of(user_id=member, guild_id=t.h.guild.id)]
    assert len(results) == 2 and all(r.ai_level is None for r in results)
    wins = sum(r.winner for r in results)
    stats = await t.cmd("af stats", {"player": t.h.guild.member}, "owner")
    said = stats.data["content"]
    assert said.startswith("📊 **member** — 2 games · ")
    assert f"{wins} win" in said and f"{round(100 * wins / 2)}%" in said
    assert f"{sum(r.vp for r in results) / 2:.1f} VP on average" in said
    assert f"best {max(r.vp for r in results)} VP" in said
    (chart,) = stats.data["attachments"]
    assert chart["description"].startswith("Rating of member over 4 rated games")
    board = await t.cmd("af leaderboard", member="manager")
    skill = (await jobs_of(t.bot).store.results.season_table((await store_seasons(t))[0].id))[
        member
    ]
    lines = board.data["content"].splitlines()
    assert lines[1] == "_Nobody has a settled rating yet: it takes 10 rated games._"
    # Removed from the last two games after a turn: rated last in each.
    assert lines[2] == f"• <@{member}> — {skill.shown} · 1 of 4 games won"
    rating = await t.cmd("af rating", member="member")
    said = rating.data["content"]
    assert said.startswith(f"📈 **member** — rating **{skill.shown}** (season 1)")
    assert "provisional: 6 more games" in said and "not ranked yet" in said
    newest = said.splitlines()[3]  # the newest first
    assert newest.startswith(f"• game {ids[1]}: place 2 of 2 (removed: last place), −")
    refused = await t.cmd("af season start", {"name": "Winter"}, "member")
    assert refused.ephemeral and "Only members who can manage" in refused.data["content"]
    started = await t.cmd("af season start", {"name": "Winter"}, "owner")
    assert started.data["content"].startswith("🗓️ season 2 “Winter” starts now")
    assert "`/af leaderboard season:1`" in started.data["content"]
    fresh = await t.cmd("af leaderboard", member="manager")
    assert fresh.data["content"] == "No game has been rated in season 2 “Winter”."
    old = await t.cmd("af leaderboard", {"season": 1}, "manager")
    assert old.data["content"] == board.data["content"]
    none = await t.cmd("af rating", member="member")
    assert none.data["content"] == (
        f"member has no rated game in season 2 “Winter” yet. In season 1: **{skill.shown}**,"
        " provisional (`/af rating season:1`)."
    )
    earlier = await t.cmd("af rating", {"season": 1}, "member")
    assert earlier.data["content"] == said
    unknown = await t.cmd("af rating", {"season": 7}, "member")
    assert unknown.ephemeral and "This server has no season 7." in unknown.data["content"]

    typing = [p.option("game", "", type=p.OPT_INTEGER, focused=True)]
    choices = await t.h.interact(t.h.autocomplete("af replay", "game", typing))
    assert [c["value"] for c in choices.choices] == sorted([*played, *ids], reverse=True)
    t.bot.parts.boards.pictures.renderer = (
        numbered_board  # distinct pictures (GIFs merge equal frames)
    )
    replay = await t.cmd("af replay", {"game": ids[0]}, "manager")
    posted = await replay.followup()
    (gif,) = posted.files
    assert len(gif.data) <= MAX_BYTES
    image = Image.open(io.BytesIO(gif.data))
    rows = await jobs_of(t.bot).store.action_log.actions(ids[0])
    turns = sum(1 for r in rows for e in r.events if e["key"] == "turn_started")
    frames = getattr(image, "n_frames", 1)
    assert frames == turns  # the board after every turn, the last one final
    total = 0
    for frame in range(frames):
        image.seek(frame)
        total += image.info["duration"]
    assert total <= MAX_SECONDS * 1000
    unknown = await t.cmd("af replay", {"game": 999}, "manager")
    assert unknown.ephemeral and "no finished game 999" in unknown.data["content"]


async def test_twenty_games_turning_at_once_send_one_dm_per_player_per_turn(
    db_url: str, start_bot: StartBot, fake_discord: Any
) -> None:
    fake = fake_discord
    guild = fake.guild
    channels = [
        int(fake.add_channel(p.text_channel(guild.id, f"game-{i}"))["id"]) for i in range(20)
    ]
    t = await table(db_url, start_bot)
    await t.cmd("af notify", {"mode": "dm"}, "member")
    dm = await dm_channel(t, "member")
    member = fake.get_member(guild.id, t.user_id("member"))
    owner = fake.get_member(guild.id, t.user_id("owner"))

    async def run(command: str, who: Any, channel: int, options: Any = None) -> None:
        payload = t.h.slash(command, options, member=who, channel_id=channel)
        await (await t.h.interact(payload)).done()

    for channel in channels:
        await run("af new", owner, channel, {"players": 2})
        await run("af join", member, channel)
        await run("af start", owner, channel)
    games = [g for g in jobs_of(t.bot).games.active_games() if g.row.channel_id in channels]
    assert len(games) == 20

    async def owner_turn(channel: int) -> None:
        game = next(g for g in games if g.row.channel_id == channel)
        while game.user_to_act() == t.user_id("owner"):
            move = "end" if "end" in [str(a) for a in _legal(game)] else str(_legal(game)[0])
            await run("play", owner, channel, {"move": move})

    await asyncio.gather(*(owner_turn(c) for c in channels))
    await t.settle()
    assert all(g.user_to_act() == t.user_id("member") for g in games)
    turn_dms = [c for c in dms(t, dm) if c.startswith("🎲")]
    assert len(turn_dms) == 20  # one per game: each turn of theirs is told once
    assert {re.search(r"<#(\d+)>", c)[1] for c in turn_dms} == {str(c) for c in channels}  # type: ignore[index]


def _legal(game: Any) -> list[Any]:
    from engine import legal_actions

    return legal_actions(game.state)

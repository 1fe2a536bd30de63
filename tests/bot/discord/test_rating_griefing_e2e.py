"""Ratings a griefer cannot bend (bot/store/rating_rules.py, docs/ratings.md), tried
through discord.py and the fake Discord as a competitive player and a griefer would:
turn the AI you are beating into the hard one before the end (or the one that beat a
victim into the easy one), seat a member without their consent and kick them, stall a
lost game, shorten the clock on a quiet player, abort a friend's lost game, and name
oneself like an AI. Each of these bent a rating (or a display) before."""

from __future__ import annotations

import random
from typing import Any

from bot.store.rating_rules import SeatPlay, end_changes, played_from_json
from tests.bot.table import Clock, Table, jobs_of, make_bot
from tests.discord_fake import StartBot


async def table(db_url: str, start_bot: StartBot, **kwargs: Any) -> Table:
    return Table(await start_bot(make_bot(db_url, **kwargs)))


async def play_out(t: Table, rng: random.Random, until: Any = None) -> None:
    """Members play seeded turns (the AI seats play themselves) until ``until(game)`` or
    the end."""
    game = t.game()
    while game.row.status == "playing" and not (until is not None and until(game)):
        if game.user_to_act() is None:
            await t.settle()
            continue
        await t.play_turn(rng)


def near_end(game: Any) -> bool:
    """A player has at most two colonies left to place: the game is near its end."""
    return bool(min(p.colonies + (1 if p.hub else 0) for p in game.state.players) <= 2)


async def swap_level(t: Table, seat: int, level: str) -> None:
    """The host hands an AI seat to the AI ``level``: takeover:level, the seat offered to
    an alt (manager) who takes it, then the alt kicked."""
    await t.cmd("af settings", {"takeover": level}, "owner")
    await t.cmd("af replace", {"player": str(seat), "with": t.h.guild.manager}, "owner")
    await t.cmd("af join", member="manager")
    await t.cmd("af kick", {"player": str(seat)}, "owner")


async def test_each_ai_seat_counts_as_the_level_that_played_it_and_is_named_so(
    tmp_path: Any, start_bot: StartBot
) -> None:
    """Near the end the host turns the easy AI the member is beating into the hard one,
    and the hard AI into the easy one (each through an alt seated and kicked at once):
    the member is rated against the levels that played the seats (it was +187 a game,
    1000 to 1899 in ten; as griefing, a victim's loss −67 became −203), the record and
    the game-over message name each seat by the level that played it, the alt is neither
    pinged nor credited in ``/af stats``."""
    t = await table(str(tmp_path / "af.db"), start_bot)
    await t.cmd("af new", {"players": 3, "watch": True}, "owner")  # the host has no seat
    await t.cmd("af join", member="member")
    for level in ("easy", "hard"):
        await t.cmd("af bot", {"level": level}, "owner")
    await t.cmd("af start", member="owner")
    game = t.game()
    rng = random.Random(3)
    await play_out(t, rng, until=near_end)
    assert game.row.status == "playing"
    await swap_level(t, 2, "hard")
    await swap_level(t, 3, "easy")
    assert [s.ai_level for s in game.seats[1:]] == ["hard", "easy"]
    await play_out(t, rng)
    store = jobs_of(t.bot).store
    results = await store.results.of_game(game.id)
    played = {r.seat: played_from_json(r.played_by) for r in results}
    # Who played the seats: nearly every turn by the level they started with.
    for seat, level, other in ((1, "easy", "hard"), (2, "hard", "easy")):
        turns = {lv: n for _, lv, n in played[seat]}
        assert turns[level] > 2 * turns.get(other, 0), played[seat]
    assert [r.name for r in results[1:]] == ["AI 2 (easy)", "AI 3 (hard)"]
    # The members' changes: against the seats as played, not as held at the end.
    changes = {c.change.user_id: c.change for c in await store.results.rating_changes(game.id)}
    assert set(changes) == {t.user_id("member")}  # the alt, kicked before a move: not rated
    as_played = end_changes([r.play() for r in results], (), {})
    as_held = end_changes(
        [SeatPlay(s.seat, s.place, s.user_id, s.ai_level) for s in (r.play() for r in results)],
        (),
        {},
    )
    for c, played_change, held_change in zip(
        sorted(changes.values(), key=lambda c: c.seat), as_played, as_held, strict=True
    ):
        assert c.after == played_change.after
        assert abs(played_change.delta - held_change.delta) >= 5  # the swap made a difference
    # `python -m bot ratings rebuild` rates the game again from the stored facts alike.
    assert (await store.results.rebuild_ratings()).differ == 0
    over = t.said("🏁 **Game over!**")[-1]
    alt = t.user_id("manager")
    assert f"<@{alt}>" not in over and "manager (AI" not in over
    assert "AI 2 (easy)" in over and "AI 3 (hard)" in over
    # The member is named by their mention, which a member named "AI 1 (hard)" cannot fake.
    assert f"<@{t.user_id('member')}> " in over.split("📈", 1)[1]
    stats = await t.cmd("af stats", {"player": t.h.guild.manager}, "member")
    assert "has not finished a game in this server yet" in stats.data["content"]


class Players(Table):
    """A table that also knows plain members added to the server by name (``dana``)."""

    def __init__(self, harness: Any, names: tuple[str, ...] = ("dana",)) -> None:
        super().__init__(harness)
        from tests.discord_fake import payloads as p

        self.extra = {n: self.fake.add_member(self.h.guild.id, p.member(p.user(n))) for n in names}

    def payload(self, name: str) -> Any:
        return self.extra[name] if name in self.extra else getattr(self.h.guild, name)

    def user_id(self, member: str) -> int:
        return int(self.payload(member)["user"]["id"])

    async def cmd(
        self, command: str, options: Any = None, member: str = "owner", *, wait: bool = True
    ) -> Any:
        self.members[self.user_id(member)] = member
        result = await self.h.interact(self.h.slash(command, options, member=self.payload(member)))
        if wait:
            await self.settle(result)
        return result


async def test_a_member_is_seated_only_by_their_own_join_and_not_rated_for_a_seat_never_moved_in(
    db_url: str, start_bot: StartBot
) -> None:
    """A griefer seated a victim with /af replace (in the lobby too) and kicked them: 1000
    to 797, 619, 468 over three games. Now the seat is only offered; taken by the member's
    own /af join; and a kick before a move of theirs does not rate them."""
    t = Players(await start_bot(make_bot(db_url)))
    await t.cmd("af new", {"players": 2, "watch": True}, "dana")
    for _ in range(2):
        await t.cmd("af bot", {"level": "easy"}, "dana")
    offered = await t.cmd("af replace", {"player": "1", "with": t.h.guild.member}, "dana")
    victim = t.user_id("member")
    assert f"dana offers AI 1 (easy)'s seat to <@{victim}>" in offered.data["content"]
    game = t.game()
    assert [s.ai_level for s in game.seats] == ["easy", "easy"]  # nobody seated yet
    await t.cmd("af join", member="member")  # the member takes it: their choice
    assert game.seats[0].user_id == victim
    await t.cmd("af start", member="dana")
    await t.cmd("af kick", {"player": "1"}, "dana")
    assert game.seats[0].ai_level == "normal"
    store = jobs_of(t.bot).store
    assert [
        c for c in await store.results.rating_changes(game.id) if c.change.user_id == victim
    ] == []
    # The AI seats played the game out: its end rated nobody either.
    assert game.row.status == "over"
    seasons = await store.results.seasons(t.h.guild.id)
    table_ = await store.results.season_table(seasons[0].id) if seasons else {}
    assert victim not in table_


async def member_to_act_in_a_three_seat_game(t: Table, host: str, clock: Clock) -> Any:
    """``host`` opens a game with two other members (one of them ``member``) and starts
    it; seeded turns until ``member`` is to act."""
    await t.cmd("af new", {"players": 3}, host)
    for m in ("member", "dana", "manager"):
        if m != host and len(t.game().seats) < 3:
            await t.cmd("af join", member=m)
    await t.cmd("af start", member=host)
    game = t.game()
    rng = random.Random(1)
    while game.user_to_act() != t.user_id("member"):
        await t.play_turn(rng)
        clock.advance(0.01)
    return game


async def test_renewing_away_does_not_hold_a_turn_up_for_ever(
    tmp_path: Any, start_bot: StartBot
) -> None:
    """A member renewing /af away days:14 was never timed out in 78 days: an absence now
    pauses one turn's clock for 14 days at most, then the turn limit runs."""
    clock = Clock()
    t = Players(await start_bot(make_bot(tmp_path / "af.db", clock=clock)))
    game = await member_to_act_in_a_three_seat_game(t, "dana", clock)
    taken = []
    for _ in range(2):
        await t.cmd("af away", {"days": 14}, "member")
        clock.advance(13 * 24)
        taken.append(dict(await t.bot.background.tick()))
    assert taken == [{}, {"timeout": 1}]  # 26 days: past 14 days and the 48 hours
    assert game.waiting_on() != t.user_id("member")


async def test_a_seated_host_cannot_switch_the_clock_off_in_play_and_a_stalled_turn_can_be_ended(
    tmp_path: Any, start_bot: StartBot
) -> None:
    """A seated host who is behind switched the clock off and never moved (not timed out
    after 200 days; the others could only leave, at a cost). Now only a moderator can
    switch it off, and after 14 days and the turn limit without a move any other player
    can remove the member the game waits on: rated as removed, last place."""
    clock = Clock()
    t = Players(await start_bot(make_bot(tmp_path / "af.db", clock=clock)))
    game = await member_to_act_in_a_three_seat_game(t, "member", clock)
    off = await t.cmd("af settings", {"clock": False}, "member")
    assert off.ephemeral and "only a member with Manage Channels" in off.data["content"]
    assert game.clock.enabled
    staller = t.user_id("member")
    early = await t.cmd("af kick", {"player": "member"}, "dana")
    assert early.ephemeral and "no move for 16 days: from <t:" in early.data["content"]
    clock.advance(16 * 24 + 0.1)
    await t.cmd("af kick", {"player": "member"}, "dana")
    assert t.said("dana removed member, whose turn had waited too long without a move")
    changes = [c.change for c in await jobs_of(t.bot).store.results.rating_changes(game.id)]
    assert [(c.user_id, c.how, c.place) for c in changes] == [(staller, "kicked", 3)]
    assert changes[0].delta < 0


async def test_a_clock_made_shorter_mid_turn_starts_the_turn_afresh(
    tmp_path: Any, start_bot: StartBot
) -> None:
    """The host shortened the clock on a member quiet for 20 minutes (reminder 0.1 h,
    warning 0.2 h, limit 0.3 h, one timeout): the next check took the seat at once, no
    reminder, 1000 to 824. Now the turn's clock starts again from the change."""
    clock = Clock()
    t = Players(await start_bot(make_bot(tmp_path / "af.db", clock=clock)))
    game = await member_to_act_in_a_three_seat_game(t, "dana", clock)
    clock.advance(20 / 60)
    assert await t.bot.background.tick() == {}
    short = {"reminder": 0.1, "warning": 0.2, "turn_limit": 0.3, "timeouts": 1}
    await t.cmd("af settings", short, "dana")
    assert "The turn in play starts its clock again from now" in t.last_public()
    steps = [dict(await t.bot.background.tick())]
    for _ in range(3):
        clock.advance(0.101)
        steps.append(dict(await t.bot.background.tick()))
    assert steps == [{}, {"remind": 1}, {"warn": 1}, {"timeout": 1}]
    assert game.seats[1].ai_level is not None  # the limit, counted from the change


async def test_a_seated_host_aborting_leaves_and_the_game_goes_on(
    tmp_path: Any, start_bot: StartBot
) -> None:
    """A friend (or alt) host aborted the member's lost game: the member was not rated,
    only the host. Now a host without Manage Channels who aborts leaves: the AI takes
    their seat and the game goes on; only a moderator ends a game for everyone."""
    clock = Clock()
    t = Players(await start_bot(make_bot(tmp_path / "af.db", clock=clock)))
    game = await member_to_act_in_a_three_seat_game(t, "dana", clock)
    aborted = await t.cmd("af abort", member="dana")
    assert not aborted.ephemeral and "dana stopped playing" in t.last_public()
    assert game.row.status == "playing"
    dana = next(s for s in game.seats if s.former_user_id == t.user_id("dana"))
    assert dana.ai_level == "normal"
    changes = [c.change for c in await jobs_of(t.bot).store.results.rating_changes(game.id)]
    assert [(c.user_id, c.how) for c in changes] == [(t.user_id("dana"), "aborted")]
    ended = await t.cmd("af abort", member="owner")  # Manage Channels
    assert not ended.ephemeral and game.row.status == "aborted"


def test_farming_the_easy_ai_at_three_and_four_seats_gains_nothing() -> None:
    """A member winning every game against two or three easy AIs (the normal AI beats
    three easy ones 98.5% of the time) rose to 1409 in twelve games and 1456 in 200
    (the easy AI's anchors, 921 and 890, are close to normal's at those seat counts).
    A win over an AI seat rated below the member now gives nothing: a member as strong
    as the normal AI stays at 1000; one below the easy AI climbs to it and stops there."""
    from bot.store.ai_anchors import anchor
    from bot.store.ratings import NEWCOMER, Skill, shown

    for players in (3, 4):
        easy = anchor("easy", players)
        assert easy is not None
        for start in (NEWCOMER, Skill(easy[0] - 5, 4.0, 0)):
            skill = start
            for g in range(60):
                mine = g % players
                places = iter(range(2, players + 1))
                seats = [
                    SeatPlay(i, 1, 1, None, 20, 20, 0)
                    if i == mine
                    else SeatPlay(i, next(places), None, "easy")
                    for i in range(players)
                ]
                (change,) = end_changes(seats, (), {1: skill})
                skill = change.after
            if start is NEWCOMER:
                assert skill.shown == 1000, (players, skill)
            else:
                # Up to the easy AI's rating, passed by one game's gain at most.
                assert shown(easy[0]) <= skill.shown < shown(easy[0]) + 25, (players, skill)


async def test_provisional_ratings_are_unranked_and_equal_ratings_share_a_rank(
    db_url: str, start_bot: StartBot
) -> None:
    """/af rating ranked provisional players (the docs say it does not) and equal ratings
    were ordered by user id."""
    from tests.bot.store.test_storage_contract import finish, lobby, placed

    t = await table(db_url, start_bot)
    store = jobs_of(t.bot).store
    guild = t.h.guild.id
    ann, bob, cid = (t.user_id(m) for m in ("owner", "member", "manager"))
    for i in range(10):
        game = await lobby(store, channel=100 + i, guild=guild)
        rows = [placed(0, ann, 1), placed(1, bob, 1), placed(2, cid, 3), placed(3, None, 4, "hard")]
        await finish(store, game, rows, guild)
    game = await lobby(store, channel=200, guild=guild)
    await finish(store, game, [placed(0, 4242, 1), placed(1, None, 2, "hard")], guild)
    board = (await t.cmd("af leaderboard", member="member")).data["content"]
    assert f"1. <@{ann}>" in board and f"1. <@{bob}>" in board and f"3. <@{cid}>" in board
    mine = (await t.cmd("af rating", {"player": t.h.guild.member}, "member")).data["content"]
    assert "#1 of 3 in this server" in mine
    fake = t.fake.add_member(guild, _member(4242))
    theirs = (await t.cmd("af rating", {"player": fake}, "member")).data["content"]
    assert "not ranked yet" in theirs and "#" not in theirs.split("\n")[1]


def _member(user_id: int) -> Any:
    from tests.discord_fake import payloads as p

    user = p.user("newcomer")
    user["id"] = str(user_id)
    return p.member(user)

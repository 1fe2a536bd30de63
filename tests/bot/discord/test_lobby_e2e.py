"""Setting up and ending games on the fake Discord; AI seats playing their turns."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine import legal_actions
from tests.bot.table import Table, attachment_png, jobs_of, make_bot
from tests.discord_fake import StartBot


async def table(tmp_path: Path, start_bot: StartBot) -> Table:
    return Table(await start_bot(make_bot(tmp_path / "af.db")))


async def test_lobby_join_leave_bot_and_start(tmp_path: Path, start_bot: StartBot) -> None:
    t = await table(tmp_path, start_bot)
    opened = await t.cmd("af new", {"players": 3, "long_game": True}, "owner")
    assert opened.message is not None
    lobby_id = opened.message["id"]
    assert (
        "hosted by owner" in opened.message["content"] and "long game" in opened.message["content"]
    )

    busy = await t.cmd("af new", member="member")
    assert busy.ephemeral and "already has a game" in busy.data["content"]

    joined = await t.cmd("af join", member="member")
    assert not joined.ephemeral and "member joins the game (2/3)" in joined.data["content"]
    again = await t.cmd("af join", member="member")
    assert again.ephemeral and "already have a seat" in again.data["content"]

    not_host = await t.cmd("af start", member="member")
    assert not_host.ephemeral and "Only the host (owner)" in not_host.data["content"]
    not_host_bot = await t.cmd("af bot", member="member")
    assert not_host_bot.ephemeral

    await t.leave("member")
    lobby = t.fake.get_message(int(lobby_id))
    assert "member" not in lobby["content"].split("\n", 1)[1]

    alone = await t.cmd("af start", member="owner")
    assert alone.ephemeral and "At least 2 seats" in alone.data["content"]

    added = await t.cmd("af bot", {"level": "easy"}, "owner")
    assert "AI 1 (easy) takes a seat (2/3)" in added.data["content"]
    await t.cmd("af join", member="manager")
    full = await t.cmd("af join", member="member")
    assert full.ephemeral and "full" in full.data["content"]

    started = await t.cmd("af start", member="owner")
    assert "The game starts" in started.data["content"]
    assert "goes first" in started.data["content"]
    lobby = t.fake.get_message(int(lobby_id))
    assert "has started" in lobby["content"] and "AI 1 (easy)" in lobby["content"]
    game = t.game()
    assert game.row.status == "playing" and game.state.config.long_game
    assert [s.name for s in game.seats] == ["owner", "AI 1 (easy)", "manager"]

    late = await t.cmd("af join", member="member")
    assert late.ephemeral and "already started" in late.data["content"]


async def test_finite_supply_option_from_new_to_status(tmp_path: Path, start_bot: StartBot) -> None:
    t = await table(tmp_path, start_bot)
    opened = await t.cmd("af new", {"players": 2, "finite_supply": True}, "owner")
    assert opened.message is not None
    assert "finite supply (30 fuel, 20 ore)" in opened.message["content"]
    assert "standard rules" not in opened.message["content"]
    await t.cmd("af join", member="member")
    await t.cmd("af start", member="owner")
    game = t.game()
    assert game.row.config.variants.finite_supply and game.state.config.finite_supply
    assert game.state.supply is not None
    fuel, ore = game.state.supply
    status = await t.cmd("af status", member="member")
    assert f"Finite supply: {fuel} fuel · {ore} ore left in the bank" in status.data["content"]

    jobs_of(t.bot).games._games.clear()  # as after a restart: the option comes back from storage
    jobs_of(t.bot).games._by_channel.clear()
    again = await jobs_of(t.bot).games.in_channel(game.row.channel_id)
    assert again is not None and again.state.config.finite_supply


async def test_standard_games_show_no_supply(tmp_path: Path, start_bot: StartBot) -> None:
    t = await table(tmp_path, start_bot)
    opened = await t.cmd("af new", {"players": 2}, "owner")
    assert opened.message is not None and "standard rules" in opened.message["content"]
    await t.cmd("af join", member="member")
    await t.cmd("af start", member="owner")
    assert not t.game().state.config.finite_supply and t.game().state.supply is None
    status = await t.cmd("af status", member="member")
    assert "Finite supply" not in status.data["content"]


async def test_host_leaving_passes_the_lobby_on_and_last_one_closes_it(
    tmp_path: Path, start_bot: StartBot
) -> None:
    t = await table(tmp_path, start_bot)
    await t.cmd("af new", {"players": 2}, "owner")
    await t.cmd("af join", member="member")
    question = await t.leave("owner")
    assert "You are the host: member becomes the host" in question.data["content"]
    game = t.game()
    assert game.row.host_id == t.user_id("member")
    question = await t.leave("member")
    assert "Nobody else is in it, so it closes" in question.data["content"]
    assert "lobby is closed" in t.last_public()
    assert not jobs_of(t.bot).games._games
    reopened = await t.cmd("af new", {"players": 2}, "manager")
    assert not reopened.ephemeral


async def test_abort_by_host_or_manage_channels_only(tmp_path: Path, start_bot: StartBot) -> None:
    t = await table(tmp_path, start_bot)
    await t.open(humans=("owner", "member"))
    panel_id = t.game().row.turn_message_id

    refused = await t.cmd("af abort", member="member")
    assert (
        refused.ephemeral
        and "Only the host or members with Manage Channels" in refused.data["content"]
    )
    aborted = await t.cmd("af abort", member="manager")
    assert "aborted by manager" in aborted.data["content"]
    assert not jobs_of(t.bot).games._games
    panel = t.fake.get_message(panel_id)
    assert panel["components"] == [] and "aborted" in panel["content"]
    gone = await t.play("end", member="owner")
    assert gone.ephemeral and "no game in this channel" in gone.data["content"]
    status = await t.cmd("af status", member="member")  # the last game can still be looked at
    assert status.ephemeral and "Round" in status.data["content"]


async def test_ai_seats_play_their_turns_with_a_summary_and_the_board(
    tmp_path: Path, start_bot: StartBot
) -> None:
    t = await table(tmp_path, start_bot)
    await t.open(humans=("owner",), bots=("easy", "normal"))
    game = t.game()
    played = 0
    while game.state.turn_number < 8:
        assert game.user_to_act() == t.user_id("owner")  # AI turns are all played already
        moves = legal_actions(game.state)
        move = next((str(a) for a in moves if str(a).startswith("dock")), str(moves[0]))
        await t.play(move, member="owner")
        played += 1
    ai_turns = [m for m in t.channel_messages() if m["content"].startswith("🤖 **Round")]
    assert len(ai_turns) >= 4
    for m in ai_turns:
        assert m["components"] == []
        attachment_png(t.fake, m)
        assert "rolls" in m["content"] and "ends the turn" in m["content"]
    assert played > 0


async def test_leaving_a_game_in_play_hands_the_seat_to_an_ai(
    tmp_path: Path, start_bot: StartBot
) -> None:
    t = await table(tmp_path, start_bot)
    await t.open(humans=("owner", "member"))
    question = await t.leave("member")
    assert "An AI (normal) plays your seat" in question.data["content"]
    assert t.said("member leaves the game; an AI plays their seat")
    game = t.game()
    seat = next(s for s in game.seats if s.ai_level is not None)
    assert seat.name == "member (AI normal)"
    # Whatever the turn was, the AI has now played its turns: the owner is to act.
    assert game.user_to_act() == t.user_id("owner")


async def test_an_ai_turn_stopped_by_an_error_is_tried_again_on_its_own(
    tmp_path: Path, start_bot: StartBot, monkeypatch: Any
) -> None:
    """An AI move that fails (a bug, once) is tried again after its backoff, without the
    turn clock's watchdog (``restart_stalled``, the last resort, finds nothing to do)."""
    t = Table(await start_bot(make_bot(tmp_path / "af.db", ai_retry_seconds=0.01)))
    jobs = jobs_of(t.bot)
    real = jobs.moves.play_ai
    failures = 0

    async def flaky(game: Any) -> Any:
        nonlocal failures
        if failures == 0:
            failures += 1
            raise RuntimeError("the AI tripped")
        return await real(game)

    monkeypatch.setattr(jobs.moves, "play_ai", flaky)
    await t.open(humans=("owner",), bots=("easy",))
    game = t.game()
    while not failures:  # play until the AI's turn has come (and failed once)
        moves = legal_actions(game.state)
        await t.play(next((str(a) for a in moves if str(a).startswith("dock")), str(moves[0])))
    assert failures == 1
    await t.settle()
    assert t.bot.background.restart_stalled() == 0
    assert t.game().user_to_act() == t.user_id("owner")

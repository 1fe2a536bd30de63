"""The game service's looks at a channel's game (``bot.play.look_service``: ``/af board``,
``status``, ``log``) and a member's notices and games (``bot.play.member_service``: ``/af
notify``, ``/af mygames``), on both databases."""

from __future__ import annotations

import pytest

from bot.factory import build_service
from bot.play.look_service import PlayedGame
from bot.store.errors import ServiceError
from bot.store.rows import SeatRow
from bot.store.storage import Storage
from tests.bot.table import game_between

ANN, BOB, CID = 100, 200, 300


async def test_a_channels_game_looked_at_is_the_one_in_play_else_the_last_one_played(
    store: Storage,
) -> None:
    jobs = build_service(store)
    for channel in (None, 10):
        with pytest.raises(ServiceError, match=r"game\.none"):
            await jobs.look.played_in(channel)
    game = await game_between(jobs, channel=10)
    looked = await jobs.look.played_in(10)
    assert looked.row.id == game.id and looked.game.state == game.state
    assert looked.names == ["Ann", "Bob"]
    assert (looked.seat_of(ANN), looked.seat_of(BOB), looked.seat_of(CID)) == (0, 1, None)
    assert await jobs.look.game_log(game.id) == await store.action_log.actions(game.id)

    await jobs.lobby.abort(game, ANN, can_manage=True)  # over: the last game played is shown
    ended = await jobs.look.played_in(10)
    assert (ended.row.id, ended.row.status) == (game.id, "aborted")
    assert ended.game.state == game.state and ended.names == ["Ann", "Bob"]

    lobby = await jobs.lobby.create(
        guild_id=1, channel_id=10, host_id=CID, host_name="Cid", max_players=2, locale="en"
    )
    with pytest.raises(ServiceError, match=r"game\.not_started"):
        await jobs.look.played_in(10)
    await jobs.lobby.abort(lobby, CID, can_manage=True)  # a lobby closed was never played
    assert (await jobs.look.played_in(10)).row.id == game.id
    assert await jobs.look.undelivered(game.id) == []


def test_a_member_whose_seat_the_ai_took_over_still_sees_it_as_theirs() -> None:
    seats = [SeatRow(0, ANN, None, "Ann"), SeatRow(1, None, "hard", "Bob", former_user_id=BOB)]
    looked = PlayedGame(row=None, seats=seats, game=None)  # type: ignore[arg-type]
    assert (looked.seat_of(ANN), looked.seat_of(BOB), looked.seat_of(CID)) == (0, 1, None)


async def test_a_members_games_are_the_ones_they_sit_in_lobby_or_in_play(store: Storage) -> None:
    jobs = build_service(store)
    playing = await game_between(jobs, channel=10)
    lobby = await jobs.lobby.create(
        guild_id=2, channel_id=11, host_id=ANN, host_name="Ann", max_players=3, locale="en"
    )
    watched = await jobs.lobby.create(
        guild_id=1, channel_id=12, host_id=ANN, host_name=None, max_players=2, locale="en"
    )
    ended = await game_between(jobs, channel=13, users=(CID, BOB), names=("Cid", "Bob"))
    await jobs.lobby.abort(ended, CID, can_manage=True)
    assert sorted(g.id for g in await jobs.members.games_of(ANN)) == [playing.id, lobby.id]
    assert [g.id for g in await jobs.members.games_of(BOB)] == [playing.id]
    assert await jobs.members.games_of(CID) == []
    assert watched.id not in [g.id for g in await jobs.members.games_of(ANN)]  # hosted, no seat


async def test_choosing_where_to_hear_of_ones_turn_tries_dms_afresh(store: Storage) -> None:
    jobs = build_service(store)
    await store.members.set_prefs(ANN, notify="channel", dm_blocked=True, dm_hint=True)
    await jobs.members.set_turn_notice(ANN, "dm", "pl")
    prefs = (await store.members.prefs([ANN]))[ANN]
    assert (prefs.notify, prefs.locale, prefs.dm_blocked, prefs.dm_hint) == (
        "dm",
        "pl",
        False,
        False,
    )
    await store.members.set_prefs(ANN, dm_hint=True)
    await jobs.members.dm_hint_given(ANN)
    assert not (await store.members.prefs([ANN]))[ANN].dm_hint

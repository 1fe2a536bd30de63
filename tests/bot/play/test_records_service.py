"""The game service's records (``bot.play.records_service``), on both databases: a member's
rating in the season asked for (or the last season they played), a season's table, a new
season started only by a server's admins and announced with its start, the finished game
a replay is of, and the finished game a rematch plays again."""

from __future__ import annotations

import pytest

from bot.factory import build_service
from bot.store.errors import ServiceError
from bot.store.rows import SeatRow
from bot.store.storage import Storage
from tests.bot.store.test_storage_contract import finish, lobby, placed

ANN, BOB, CID = 100, 200, 300
GUILD = 1


async def test_a_members_rating_is_the_seasons_asked_for_else_the_last_season_they_played(
    store: Storage,
) -> None:
    jobs = build_service(store, clock=lambda: 5000.0)
    first, second, third = [await lobby(store, channel=c) for c in (10, 11, 12)]
    await finish(store, first, [placed(0, ANN, 1), placed(1, BOB, 2), placed(2, None, 3)], GUILD)
    await finish(store, second, [placed(0, ANN, 2), placed(1, None, 1, "easy")], GUILD)
    await jobs.records.start_season(GUILD, 50, "  Winter   games ", "en", can_manage=True)
    await finish(store, third, [placed(0, BOB, 1), placed(1, None, 2, "normal")], GUILD)
    one, two = sorted(await jobs.records.seasons_of(GUILD), key=lambda s: s.number)
    assert (two.number, two.name) == (2, "Winter games")  # spaces folded

    # Ann played no game of the current season: her rating of the season before.
    ann = await jobs.records.member_rating(GUILD, ANN, None, recent=5)
    assert ann.season == two and ANN not in ann.table and not ann.recent
    assert ann.earlier == one and ann.earlier_table[ANN].games == 2
    # In the season she played: her latest games, each with its number of players.
    ann = await jobs.records.member_rating(GUILD, ANN, 1, recent=1)
    assert ann.season == one and ann.table[ANN].games == 2 and ann.earlier is None
    assert [(h.game_id, players) for h, players in ann.recent] == [(second, 2)]
    ann = await jobs.records.member_rating(GUILD, ANN, 1, recent=5)
    assert [(h.game_id, players) for h, players in ann.recent] == [(first, 3), (second, 2)]
    bob = await jobs.records.member_rating(GUILD, BOB, None, recent=5)
    assert bob.season == two and [h.game_id for h, _ in bob.recent] == [third]
    # Cid never played: no rating, in no season before either.
    cid = await jobs.records.member_rating(GUILD, CID, None, recent=5)
    assert cid.season == two and cid.earlier is None and CID not in cid.table
    # A server without seasons, a season the server never had.
    assert (await jobs.records.member_rating(2, ANN, None, recent=5)).season is None
    assert (await jobs.records.member_rating(None, ANN, None, recent=5)).season is None
    with pytest.raises(ServiceError, match=r"season\.unknown") as refused:
        await jobs.records.member_rating(GUILD, ANN, 7, recent=5)
    assert refused.value.params == {"season": 7}

    # The chart is of the current season only.
    assert await jobs.records.rating_curve(GUILD, ANN) == []
    (bobs,) = await jobs.records.rating_curve(GUILD, BOB)
    assert bobs == bob.table[BOB].shown
    assert await jobs.records.rating_curve(None, BOB) == []
    assert (await jobs.records.current_season(GUILD)) == two

    table = await jobs.records.season_standings(GUILD, 1)
    assert table is not None and table.season == one
    assert set(table.table) == {ANN, BOB} and table.wins == {ANN: (1, 2), BOB: (0, 1)}
    now = await jobs.records.season_standings(GUILD, None)
    assert now is not None and now.season == two and set(now.table) == {BOB}
    assert await jobs.records.season_standings(2, None) is None
    with pytest.raises(ServiceError, match=r"season\.unknown"):
        await jobs.records.season_standings(GUILD, 3)


async def test_a_season_is_started_by_an_admin_of_a_server_and_announced_with_its_start(
    store: Storage,
) -> None:
    jobs = build_service(store, clock=lambda: 5000.0)
    with pytest.raises(ServiceError, match=r"settings\.not_in_server"):
        await jobs.records.start_season(None, 50, "Winter", "en", can_manage=True)
    with pytest.raises(ServiceError, match=r"season\.admins_only"):
        await jobs.records.start_season(GUILD, 50, "Winter", "en", can_manage=False)
    assert await jobs.records.seasons_of(GUILD) == []
    assert await store.deliveries.pending_deliveries(channel_id=50) == []

    await jobs.records.start_season(GUILD, 50, "Winter", "en", can_manage=True)
    (season,) = await jobs.records.seasons_of(GUILD)
    (said,) = await store.deliveries.pending_deliveries(channel_id=50)
    assert (said.kind, said.game_id, said.guild_id, said.created_at) == ("notice", None, 1, 5000)
    assert said.payload["key"] == "season.started_first"
    assert said.payload["locale"] == "en" and said.payload["reply"] is True
    assert "Winter" in said.payload["params"]["season"]

    game = await lobby(store, channel=10)
    await finish(store, game, [placed(0, ANN, 1), placed(1, None, 2)], GUILD)
    await jobs.records.start_season(GUILD, 51, "Spring", "pl", can_manage=True)
    (said,) = await store.deliveries.pending_deliveries(channel_id=51)
    assert said.payload["key"] == "season.started" and said.payload["locale"] == "pl"
    params = said.payload["params"]
    assert params["number"] == season.number == 1
    assert "Winter" in params["previous"] and "Spring" in params["season"]


async def test_a_replay_is_of_a_finished_game_of_the_server_the_channels_newest_by_default(
    store: Storage,
) -> None:
    jobs = build_service(store)
    # One game after another in channel 10, one in channel 11, one in another server.
    older = await lobby(store, channel=10)
    await finish(store, older, [placed(0, ANN, 1)], GUILD)
    other_channel = await lobby(store, channel=11)
    await finish(store, other_channel, [placed(0, ANN, 1)], GUILD)
    newer = await lobby(store, channel=10)
    await finish(store, newer, [placed(0, ANN, 1)], GUILD)
    elsewhere = await lobby(store, channel=20, guild=2)
    await finish(store, elsewhere, [placed(0, ANN, 1)], 2)
    in_lobby = await lobby(store, channel=12)

    assert (await jobs.records.finished_game(GUILD, 10, None)).id == newer
    assert (await jobs.records.finished_game(GUILD, 10, older)).id == older
    assert (await jobs.records.finished_game(GUILD, 10, other_channel)).id == other_channel
    with pytest.raises(ServiceError, match=r"replay\.none"):
        await jobs.records.finished_game(GUILD, 12, None)
    for game in (elsewhere, in_lobby, 0, -1, 2**63, 9999):
        with pytest.raises(ServiceError, match=r"replay\.unknown") as refused:
            await jobs.records.finished_game(GUILD, 10, game)
        assert refused.value.params == {"game": game}

    here = await jobs.records.finished_games_here(GUILD, 11)
    assert [g.id for g in here] == [other_channel, newer, older]
    assert [g.id for g in await jobs.records.finished_games_here(GUILD, 10)] == [
        newer,
        older,
        other_channel,
    ]

    played = await jobs.records.moves_played(newer)
    assert played.names == ["Ann"] and played.notations == ["end"]


async def test_a_rematch_is_of_a_finished_game_of_the_channel_with_the_members_who_played_it(
    store: Storage,
) -> None:
    jobs = build_service(store)
    game = await lobby(store, channel=10)
    await store.seat_rows.set_seats(
        game,
        [
            SeatRow(0, ANN, None, "Ann"),
            SeatRow(1, None, "hard", "Bob (AI)", former_user_id=BOB),  # Bob left, the AI played
            SeatRow(2, None, "easy", "AI 3 (easy)"),
            SeatRow(3, CID, None, "Cid"),
        ],
    )
    assert await jobs.records.rematch_of(game, 10) is None  # not over yet
    await finish(store, game, [placed(0, ANN, 1), placed(1, None, 2)], GUILD)
    rematch = await jobs.records.rematch_of(game, 10)
    assert rematch is not None and rematch.row.id == game
    assert rematch.members == [ANN, BOB, CID]
    assert [s.ai_level for s in rematch.seats] == [None, "hard", "easy", None]
    assert await jobs.records.rematch_of(game, 11) is None  # a button from another channel
    assert await jobs.records.rematch_of(9999, 10) is None

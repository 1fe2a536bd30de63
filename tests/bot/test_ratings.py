"""Ratings (bot/store/ratings.py, bot/store/rating_store.py): the numbers are openskill's own,
AI seats are fixed anchors, games are rated in the transaction of their end and never lost when
two processes end games of one server at once, and a rebuild gives the same digits."""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from bot.__main__ import main
from bot.play.service import GameService
from bot.store.ai_anchors import AI_ANCHORS
from bot.store.db import open_database
from bot.store.migrations import LATEST, MIGRATIONS
from bot.store.ratings import NEWCOMER, PROVISIONAL_GAMES, RatedSeat, Skill, rate, shown
from bot.store.storage import Storage
from bot.text.rating_text import change_text, leaderboard_text, season_name
from engine import legal_actions
from tests.bot.table import game_between
from tests.bot.test_storage_contract import finish, lobby, placed

ANN, BOB, CID = 100, 200, 300


def test_ratings_are_openskills_own_plackett_luce_updates() -> None:
    """A sequence of games rated by ``rate`` equals openskill's PlackettLuce applied by
    hand, with the AI seats at their level's anchor, ties shared."""
    model = PlackettLuce()
    ann, bob, cid = model.rating(), model.rating(), model.rating()
    hard = AI_ANCHORS["hard"]
    easy = AI_ANCHORS["easy"]
    ours: dict[int, Skill] = {}
    games = [
        ([RatedSeat(0, 1, ANN), RatedSeat(1, 2, BOB), RatedSeat(2, 3, ai_level="hard")]),
        ([RatedSeat(0, 2, ANN), RatedSeat(1, 1, ai_level="easy")]),
        ([RatedSeat(0, 1, ANN), RatedSeat(1, 1, BOB), RatedSeat(2, 3, CID)]),  # a tie
    ]
    expected = [
        model.rate(
            [[ann], [bob], [model.rating(mu=hard[0], sigma=hard[1])]], ranks=[1.0, 2.0, 3.0]
        ),
    ]
    ann, bob = expected[0][0][0], expected[0][1][0]
    second = model.rate([[ann], [model.rating(mu=easy[0], sigma=easy[1])]], ranks=[2.0, 1.0])
    ann = second[0][0]
    third = model.rate([[ann], [bob], [cid]], ranks=[1.0, 1.0, 3.0])
    ann, bob, cid = third[0][0], third[1][0], third[2][0]
    for seats in games:
        for change in rate(seats, ours):
            ours[change.user_id] = change.after
    assert {u: (s.mu, s.sigma, s.games) for u, s in ours.items()} == {
        ANN: (ann.mu, ann.sigma, 3),
        BOB: (bob.mu, bob.sigma, 2),
        CID: (cid.mu, cid.sigma, 1),
    }


def test_ai_seats_never_change_and_a_game_needs_a_member() -> None:
    seats = [RatedSeat(0, 1, ai_level="hard"), RatedSeat(1, 2, ANN)]
    changes = rate(seats, {})
    assert [c.user_id for c in changes] == [ANN]  # the AI's new rating is thrown away
    assert changes[0].before == NEWCOMER
    assert rate([RatedSeat(0, 1, ai_level="hard"), RatedSeat(1, 2, ai_level="easy")], {}) == []
    assert rate([RatedSeat(0, 1, ANN)], {}) == []  # a game needs two seats
    # A member seated twice counts once, at their first seat.
    twice = rate([RatedSeat(0, 2, ANN), RatedSeat(1, 1, ANN), RatedSeat(2, 3, BOB)], {})
    assert [(c.user_id, c.seat, c.place) for c in twice] == [(ANN, 0, 2), (BOB, 2, 3)]


def test_beating_the_hard_ai_is_worth_more_than_beating_the_easy_one() -> None:
    easy = rate([RatedSeat(0, 1, ANN), RatedSeat(1, 2, ai_level="easy")], {})[0]
    hard = rate([RatedSeat(0, 1, ANN), RatedSeat(1, 2, ai_level="hard")], {})[0]
    assert hard.after.mu > easy.after.mu > NEWCOMER.mu


def test_shown_rating_starts_at_1000_and_is_provisional_at_first() -> None:
    assert NEWCOMER.shown == shown(25.0, 25 / 3) == 1000
    assert Skill(25.0, 25 / 3, PROVISIONAL_GAMES - 1).provisional
    assert not Skill(25.0, 25 / 3, PROVISIONAL_GAMES).provisional
    assert [change_text(d) for d in (23, -12, 0)] == ["+23", "−12", "±0"]


async def test_leaderboard_lists_settled_ratings_before_provisional_ones(tmp_path: Path) -> None:
    store = await Storage.open(f"{tmp_path}/r.db")
    try:
        for channel, rows in enumerate(
            [
                [placed(0, ANN, 1), placed(1, BOB, 2)],
                *[[placed(0, BOB, 1), placed(1, None, 2, "easy")] for _ in range(5)],
            ]
        ):
            await finish(store, await lobby(store, channel=10 + channel), rows, 1)
        (season,) = await store.seasons(1)
        table = await store.season_table(season.id)
        for locale in ("en", "ru", "pl"):
            board = leaderboard_text(season, table, await store.season_wins(season.id), locale)
            lines = board.splitlines()
            assert f"<@{BOB}>" in lines[1] and f"<@{ANN}>" in lines[3], board
            assert season_name(season, locale) in lines[0]
    finally:
        await store.close()


async def test_concurrent_game_ends_on_one_server_lose_no_update(pg_url: str) -> None:
    """Two pools (as two bot processes have) end games sharing a member at the same time:
    every game is rated, and the stored ratings are what replaying them in order gives."""
    stores = [await Storage.open(pg_url), await Storage.open(pg_url)]
    try:
        games = [await lobby(stores[0], channel=100 + i) for i in range(16)]

        async def end(i: int, game_id: int) -> None:
            rows = [placed(0, ANN, 1 + i % 2), placed(1, 1000 + i, 2 - i % 2), placed(2, None, 3)]
            await finish(stores[i % 2], game_id, rows, 1)

        await asyncio.gather(*(end(i, g) for i, g in enumerate(games)))
        (season,) = await stores[0].seasons(1)
        table = await stores[0].season_table(season.id)
        assert table[ANN].games == len(games)
        assert len(await stores[0].rating_history(season.id, ANN)) == len(games)
        assert (await stores[0].rebuild_ratings()).differ == 0
    finally:
        for store in stores:
            await store.close()


END_GAMES = textwrap.dedent(
    """
    import asyncio, sys
    from tests.bot.test_storage_contract import finish, placed
    from bot.store.storage import Storage

    async def main(url, ids, member):
        store = await Storage.open(url)
        try:
            for i, game_id in enumerate(ids):
                rows = [placed(0, 100, 1 + i % 2), placed(1, member, 2 - i % 2)]
                await finish(store, game_id, rows, 1)
        finally:
            await store.close()

    url, member, *ids = sys.argv[1:]
    asyncio.run(main(url, [int(i) for i in ids], int(member)))
    """
)


async def test_two_processes_ending_games_on_one_server_lose_no_update(pg_url: str) -> None:
    store = await Storage.open(pg_url)
    try:
        games = [await lobby(store, channel=200 + i) for i in range(20)]
        procs = [
            subprocess.Popen(
                [sys.executable, "-c", END_GAMES, pg_url, str(500 + p), *map(str, games[p::2])]
            )
            for p in range(2)
        ]
        codes = await asyncio.to_thread(lambda: [p.wait(timeout=120) for p in procs])
        assert codes == [0, 0]
        (season,) = await store.seasons(1)
        table = await store.season_table(season.id)
        assert (table[ANN].games, table[500].games, table[501].games) == (20, 10, 10)
        assert (await store.rebuild_ratings()).differ == 0
    finally:
        await store.close()


async def test_migration_7_rates_the_games_finished_before_it(db_url: str) -> None:
    """A database of migration 6 with finished games: the migration gives each result its
    place (winners first, then by VP), opens each server's first season and rates its
    games in the order they were played; games in DMs and games of AI seats only are not
    rated."""
    old = await open_database(db_url)
    Seat = tuple[int, int | None, str | None, int, bool]  # seat, user, AI level, VP, winner
    games: dict[int, tuple[int | None, list[Seat]]] = {
        1: (1, [(0, ANN, None, 9, True), (1, BOB, None, 9, False), (2, None, "hard", 4, False)]),
        2: (1, [(0, BOB, None, 7, True), (1, None, "easy", 5, False)]),
        3: (None, [(0, ANN, None, 3, False), (1, CID, None, 8, True)]),
        4: (2, [(0, None, "hard", 6, True), (1, None, "easy", 2, False)]),
    }
    try:
        await old.migrate([m for m in MIGRATIONS if m[0] < 7])
        async with old.transaction() as tx:
            for game_id, (guild, seats) in games.items():
                await tx.execute(
                    "INSERT INTO games (id, guild_id, channel_id, host_id, status, max_players,"
                    " seed, created_at, updated_at) VALUES (?, ?, ?, 1, 'over', 4, 42, ?, ?)",
                    (game_id, guild, game_id, float(game_id), float(game_id)),
                )
                for seat, user, level, vp, winner in seats:
                    await tx.execute(
                        "INSERT INTO results (game_id, seat, user_id, ai_level, name, vp,"
                        " vp_colonies, vp_territories, vp_positron, vp_cards, winner)"
                        " VALUES (?, ?, ?, ?, 'x', ?, 0, 0, 0, 0, ?)",
                        (game_id, seat, user, level, vp, int(winner)),
                    )
    finally:
        await old.close()
    store = await Storage.open(db_url)  # migrates
    try:
        assert await store.schema_version() == LATEST
        assert [r.place for r in await store.results(1)] == [1, 2, 3]
        (season,) = await store.seasons(1)
        assert (season.number, season.started_at) == (1, 1.0)
        assert await store.seasons(2) == []
        table = await store.season_table(season.id)
        assert {u: s.games for u, s in table.items()} == {ANN: 1, BOB: 2}
        first = rate(
            [RatedSeat(0, 1, ANN), RatedSeat(1, 2, BOB), RatedSeat(2, 3, None, "hard")], {}
        )
        assert (await store.rating_changes(1))[0].change == first[0]
        assert await store.rating_changes(3) == []
        assert (await store.rebuild_ratings()).differ == 0
    finally:
        await store.close()


async def test_an_aborted_game_never_counts(tmp_path: Path) -> None:
    store = await Storage.open(tmp_path / "af.db")
    try:
        service = GameService(store)
        game = await game_between(service, channel=10)
        rng = random.Random(1)
        for _ in range(30):  # some moves, then the host ends it
            user = game.user_to_act()
            if user is None:
                break
            await service.play(game, user, rng.choice(legal_actions(game.state)))
        await service.abort(game, 100, can_manage=False)
        assert (await store.game(game.id)).status == "aborted"  # type: ignore[union-attr]
        assert await store.results(game.id) == []
        assert await store.seasons(1) == []
    finally:
        await store.close()


def test_the_rebuild_command_recomputes_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'af.db'}"

    async def fill() -> None:
        store = await Storage.open(url)
        try:
            for channel in (10, 11):
                rows = [placed(0, ANN, 1), placed(1, BOB, 2), placed(2, None, 3, "normal")]
                await finish(store, await lobby(store, channel=channel), rows, 1)
            async with store.transaction() as tx:  # a hand-made slip in a stored rating
                await tx.execute("UPDATE ratings SET mu = mu + 1 WHERE user_id = ?", (BOB,))
        finally:
            await store.close()

    asyncio.run(fill())
    assert main(["ratings", "rebuild", "--database", url]) == 0
    out = capsys.readouterr().out
    assert "2 rated games replayed, 2 ratings written (1 differed from the stored)" in out
    assert main(["ratings", "rebuild", "--database", url]) == 0
    assert "(all as stored)" in capsys.readouterr().out

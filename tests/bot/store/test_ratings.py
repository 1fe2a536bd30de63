"""Ratings (bot/store/ratings.py, rating_rules.py, rating_store.py): openskill's own numbers
where openskill is right, ties that rank right, no gain from a seat far below, AI seats as
fixed anchors per seat count, a shown number that follows the estimate, members rated for
what they played, games rated in the transaction of their end and never lost when two
processes end games (or start a season) on one server at once, and a rebuild that gives
the same digits."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
import textwrap
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuce

from bot.__main__ import main
from bot.factory import build_service
from bot.play import outbox
from bot.store.ai_anchors import AI_ANCHORS, anchor
from bot.store.db import open_database
from bot.store.migrations import LATEST, MIGRATIONS, RATED_FOR_PLAY
from bot.store.rating_rules import (
    Departure,
    Holder,
    SeatPlay,
    departure_changes,
    end_changes,
    played,
    turns_by_seat,
)
from bot.store.ratings import (
    MARGIN,
    NEWCOMER,
    PROVISIONAL_GAMES,
    Entrant,
    Skill,
    shown,
    updated,
)
from bot.store.storage import Storage
from bot.text.rating_text import change_text, leaderboard_text, number_text, season_name
from engine import legal_actions
from tests.bot.store.test_storage_contract import finish, lobby, placed
from tests.bot.table import game_between

ANN, BOB, CID, DAN = 100, 200, 300, 400


def seat(seat: int, place: int, user: int | None = None, ai: str | None = None) -> SeatPlay:
    """A seat played whole by its holder."""
    return SeatPlay(seat, place, user, ai, 20, 20 if user is not None and ai is None else 0, 0)


def test_without_ties_a_game_is_openskills_own_plackett_luce_update() -> None:
    """Games with no tie and no seat far below a winner: ``end_changes`` is openskill's
    PlackettLuce applied by hand, with the AI seats at their level's anchor for the seat
    count."""
    model = PlackettLuce()
    ann, bob = model.rating(), model.rating()
    hard3 = anchor("hard", 3)
    normal2 = anchor("normal", 2)
    assert hard3 is not None and normal2 is not None
    first = model.rate([[ann], [bob], [model.rating(*hard3)]], ranks=[2.0, 1.0, 3.0])
    ann, bob = first[0][0], first[1][0]
    second = model.rate([[ann], [model.rating(*normal2)]], ranks=[2.0, 1.0])
    ann = second[0][0]
    ours: dict[int, Skill] = {}
    for seats in (
        [seat(0, 2, ANN), seat(1, 1, BOB), seat(2, 3, ai="hard")],
        [seat(0, 2, ANN), seat(1, 1, ai="normal")],
    ):
        for change in end_changes(seats, (), ours):
            ours[change.user_id] = change.after
    assert {u: (s.mu, s.sigma, s.games) for u, s in ours.items()} == {
        ANN: (ann.mu, ann.sigma, 2),
        BOB: (bob.mu, bob.sigma, 1),
    }


def test_ai_seats_never_change_and_a_game_needs_a_member() -> None:
    changes = end_changes([seat(0, 1, ai="hard"), seat(1, 2, ANN)], (), {})
    assert [c.user_id for c in changes] == [ANN]  # the AI's new rating is never computed
    assert changes[0].before == NEWCOMER and changes[0].how == "result"
    assert end_changes([seat(0, 1, ai="hard"), seat(1, 2, ai="easy")], (), {}) == []
    assert end_changes([seat(0, 1, ANN)], (), {}) == []  # a game needs two seats
    # A member seated twice counts once, at their first seat.
    twice = end_changes([seat(0, 2, ANN), seat(1, 1, ANN), seat(2, 3, BOB)], (), {})
    assert [(c.user_id, c.seat, c.place) for c in twice] == [(ANN, 0, 2), (BOB, 2, 3)]


def test_the_anchors_are_per_seat_count_and_the_easy_ai_sits_far_below_at_two() -> None:
    assert set(AI_ANCHORS) == {2, 3, 4}
    for players in (2, 3, 4):
        assert anchor("normal", players) == (25.0, 1.0)
        easy, hard = anchor("easy", players), anchor("hard", players)
        assert easy is not None and hard is not None and easy[0] < 25.0 < hard[0]
    easy2 = anchor("easy", 2)
    assert easy2 is not None and NEWCOMER.mu - easy2[0] > MARGIN
    assert anchor("random", 2) is None


def test_beating_the_hard_ai_is_worth_more_than_beating_the_easy_one() -> None:
    for players in (2, 3, 4):
        by_level = {}
        for level in ("easy", "hard"):
            table = [seat(0, 1, ANN), *(seat(s, s + 1, ai=level) for s in range(1, players))]
            (c,) = end_changes(table, (), {})
            by_level[level] = c.after.mu
        assert by_level["hard"] > by_level["easy"] >= NEWCOMER.mu, players


def test_a_win_over_a_seat_far_below_gives_nothing_a_loss_to_it_costs() -> None:
    strong = Skill(40.0, 3.0, 30)
    weak = Entrant(40.0 - MARGIN - 0.1, 2.0, 2)
    me = Entrant(strong.mu, strong.sigma, 1)
    assert updated([me, weak], 0) == (strong.mu, strong.sigma)
    lost = updated([Entrant(strong.mu, strong.sigma, 2), Entrant(weak.mu, weak.sigma, 1)], 0)
    assert lost[0] < strong.mu - 1
    near = Entrant(40.0 - MARGIN + 0.1, 2.0, 2)
    assert updated([me, near], 0)[0] > strong.mu  # within the margin a win counts


def test_the_shown_rating_is_the_estimate_and_provisional_at_first() -> None:
    assert NEWCOMER.shown == shown(25.0) == 1000
    assert shown(26.0) == 1040 and shown(20.84) == 834
    assert Skill(25.0, 25 / 3, PROVISIONAL_GAMES - 1).provisional
    assert not Skill(25.0, 25 / 3, PROVISIONAL_GAMES).provisional
    assert [change_text(d) for d in (23, -12, 0)] == ["+23", "−12", "±0"]
    assert [number_text(r) for r in (1040, 0, -45)] == ["1040", "0", "−45"]


def test_an_even_player_against_the_normal_ai_does_not_rise_with_volume() -> None:
    """μ − 3σ rose with the number of games alone (1000 → 1749 in 100 games for an even
    player); the shown estimate stays where the results put it."""
    rng = random.Random(11)
    skill = NEWCOMER
    for _ in range(100):
        me = 1 if rng.random() < 0.5 else 2
        (c,) = end_changes([seat(0, me, ANN), seat(1, 3 - me, ai="normal")], (), {ANN: skill})
        skill = c.after
    assert abs(skill.shown - 1000) < 250


def random_table(rng: random.Random) -> tuple[list[Entrant], list[int]]:
    """2-4 entrants with random ratings (some equal) and random places (ties common)."""
    n = rng.choice((2, 3, 4))
    pool = [(rng.uniform(5, 45), rng.uniform(1, 25 / 3)) for _ in range(n)]
    ratings = [rng.choice(pool) for _ in range(n)]  # equal ratings now and then
    places = sorted(rng.choice((1, 1, 2, 3, 4)) for _ in range(n))
    rng.shuffle(places)
    table = [Entrant(mu, sigma, p) for (mu, sigma), p in zip(ratings, places, strict=True)]
    return table, places


def check_tie_rule(tables: int, seed: int) -> None:
    """A player never ends below a player with the same rating placed lower (tied for a
    better place included); tied players with the same rating end equal; and placing a
    player better (alone, or tied with the seat above) never lowers their new rating."""
    rng = random.Random(seed)
    for _ in range(tables):
        table, places = random_table(rng)
        after = [updated(table, i) for i in range(len(table))]
        for i, a in enumerate(table):
            for j, b in enumerate(table):
                if (a.mu, a.sigma) != (b.mu, b.sigma):
                    continue
                if a.place < b.place:
                    assert after[i][0] >= after[j][0] - 1e-9, (table, after)
                    assert shown(after[i][0]) >= shown(after[j][0]), (table, after)
                if a.place == b.place:
                    assert after[i] == pytest.approx(after[j], abs=1e-9), (table, after)
        who = rng.randrange(len(table))
        ladder = sorted({*places, 0})  # every place they could take, and tied ones
        results = []
        for place in ladder:
            moved = list(table)
            moved[who] = Entrant(table[who].mu, table[who].sigma, place)
            results.append(updated(moved, who)[0])
        # A better (lower) place never gives less.
        assert all(x >= y - 1e-9 for x, y in pairwise(results)), (table, who, results)


def test_ties_rank_right_over_thousands_of_random_tables() -> None:
    check_tie_rule(3000, seed=1)


@pytest.mark.slow
def test_ties_rank_right_over_a_hundred_thousand_random_tables() -> None:
    check_tie_rule(100_000, seed=2)


def test_a_loss_never_raises_the_shown_rating() -> None:
    """Last place lowers the estimate and the number shown, whatever the table."""
    rng = random.Random(4)
    for _ in range(2000):
        table, _places = random_table(rng)
        last = max(e.place for e in table)
        for i, e in enumerate(table):
            if e.place == last and sum(1 for x in table if x.place == last) == 1:
                mu, _sigma = updated(table, i)
                assert mu <= e.mu and shown(mu) <= shown(e.mu)


def test_co_winners_end_above_the_third_from_equal_ratings() -> None:
    """Openskill's own tie rule: Ann and Bob 1055, Cid 1080 (in μ − 3σ) with a hard AI
    fourth. Here the co-winners end above Cid and equal."""
    table = [seat(0, 1, ANN), seat(1, 1, BOB), seat(2, 3, CID), seat(3, 4, ai="hard")]
    changes = {c.user_id: c.after for c in end_changes(table, (), {})}
    assert changes[ANN] == changes[BOB]
    assert changes[ANN].shown > changes[CID].shown


# ---- rated for what you played ----------------------------------------------------------


def test_a_departure_is_last_among_the_seats_still_in_and_moves_only_the_leaver() -> None:
    others = (Holder(1, BOB), Holder(2, None, "easy"))
    bob = Skill(30.0, 4.0, 12)
    (c,) = departure_changes(Departure(ANN, 0, "left", others), {BOB: bob})
    assert (c.user_id, c.place, c.how, c.seat) == (ANN, 3, "left", 0)
    assert c.after.mu < c.before.mu and c.after.games == 1
    easy = anchor("easy", 3)
    assert easy is not None
    expected = updated(
        [Entrant(bob.mu, bob.sigma, 1), Entrant(*easy, 2), Entrant(NEWCOMER.mu, NEWCOMER.sigma, 3)],
        2,
    )
    assert (c.after.mu, c.after.sigma) == expected
    # Leaving is never better than finishing last, in either order of the others.
    for bob_place in (1, 2):
        end = [seat(0, 3, ANN), seat(1, bob_place, BOB), seat(2, 3 - bob_place, ai="easy")]
        lost = end_changes(end, (), {BOB: bob})
        assert c.after.mu <= lost[0].after.mu + 1e-9


def test_how_a_seat_rates_its_member_at_the_end() -> None:
    def p(turns: int, own: int, bot: int) -> SeatPlay:
        return SeatPlay(0, 1, ANN, None, turns, own, bot)

    assert played(p(20, 20, 0)) == "result"
    assert played(p(20, 19, 1)) == "helped"  # a turn the bot played after a timeout
    assert played(p(20, 10, 0)) == "helped"  # handed the seat at half time
    assert played(p(20, 9, 11)) == "absent"  # the bot played most of their turns
    assert played(p(20, 9, 0)) is None  # handed the seat late: others played most of it
    assert played(SeatPlay(0, 1, ANN, "hard", 20, 20, 0)) is None  # they left: the AI's


def test_the_bots_moves_never_raise_a_rating() -> None:
    """The turn clock's AI played some of Ann's turns and her seat won: no gain (a loss
    would count)."""
    won = [SeatPlay(0, 1, ANN, None, 20, 15, 5), seat(1, 2, ai="normal")]
    (c,) = end_changes(won, (), {})
    assert (c.how, c.after.mu, c.after.sigma, c.after.games) == (
        "helped",
        NEWCOMER.mu,
        NEWCOMER.sigma,
        1,
    )
    lost = [SeatPlay(0, 2, ANN, None, 20, 15, 5), seat(1, 1, ai="normal")]
    (c,) = end_changes(lost, (), {})
    assert c.after.mu < NEWCOMER.mu
    absent = [SeatPlay(0, 1, ANN, None, 20, 5, 15), seat(1, 2, ai="normal")]
    (c,) = end_changes(absent, (), {})
    assert (c.how, c.place) == ("absent", 2) and c.after.mu < NEWCOMER.mu


def test_a_member_who_left_is_not_rated_again_at_the_end() -> None:
    table = [seat(0, 1, ANN), seat(1, 2, BOB), seat(2, 3, ai="easy")]
    assert [c.user_id for c in end_changes(table, {ANN}, {})] == [BOB]


def test_turns_are_counted_by_who_played_them() -> None:
    def turn(seat: int) -> list[dict[str, object]]:
        return [{"key": "turn_started", "player": seat}]

    log = [
        (-1, None, turn(0)),  # the start
        (0, ANN, []),
        (0, ANN, turn(1)),  # Ann ends her turn
        (-1, None, []),
        (1, None, turn(0)),  # the AI plays seat 1's turn
        (0, None, []),  # the bot plays Ann's turn (a timeout)
        (0, None, turn(1)),
        (1, BOB, turn(0)),  # Bob took seat 1 back
        (0, ANN, []),
        (1, BOB, []),  # seat 1 acts in Ann's turn (a decision): not its turn
        (0, None, turn(1)),  # Ann started her turn, the bot finished it: the bot's
    ]
    turns = turns_by_seat(log)
    assert turns[0] == {ANN: 1, None: 2}
    assert turns[1] == {None: 1, BOB: 1}


# ---- the store ---------------------------------------------------------------------------


async def test_leaderboard_ranks_settled_ratings_and_lists_provisional_ones_apart(
    tmp_path: Path,
) -> None:
    store = await Storage.open(f"{tmp_path}/r.db")
    try:
        rows = [
            [placed(0, ANN, 1), placed(1, BOB, 2)],
            *[[placed(0, BOB, 1), placed(1, None, 2, "hard")] for _ in range(PROVISIONAL_GAMES)],
        ]
        for channel, seats in enumerate(rows):
            await finish(store, await lobby(store, channel=10 + channel), seats, 1)
        (season,) = await store.results.seasons(1)
        table = await store.results.season_table(season.id)
        for locale in ("en", "ru", "pl"):
            board = leaderboard_text(
                season, table, await store.results.season_wins(season.id), locale
            )
            lines = board.splitlines()
            assert season_name(season, locale) in lines[0]
            assert lines[1].startswith(f"1. <@{BOB}>"), board
            assert lines[3].startswith(f"• <@{ANN}>"), board  # provisional, unranked
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
        (season,) = await stores[0].results.seasons(1)
        table = await stores[0].results.season_table(season.id)
        assert table[ANN].games == len(games)
        assert len(await stores[0].results.rating_history(season.id, ANN)) == len(games)
        assert (await stores[0].results.rebuild_ratings()).differ == 0
    finally:
        for store in stores:
            await store.close()


async def test_a_season_start_and_game_ends_on_one_server_never_collide(pg_url: str) -> None:
    """Seasons started through one pool while games end through another, on one server:
    every game's end is rated (none refused), each in the season open when it committed,
    and the stored ratings are what replaying them gives."""
    stores = [await Storage.open(pg_url), await Storage.open(pg_url)]
    try:
        games = [await lobby(stores[0], channel=300 + i) for i in range(24)]
        await finish(stores[0], games[0], [placed(0, ANN, 1), placed(1, None, 2)], 1)

        async def end(i: int, game_id: int) -> None:
            await finish(stores[i % 2], game_id, [placed(0, ANN, 1), placed(1, BOB, 2)], 1)

        async def seasons() -> None:
            for n in range(12):
                await stores[1].results.start_season(1, f"S{n}", 2000.0 + n)
                await asyncio.sleep(0)

        await asyncio.gather(seasons(), *(end(i, g) for i, g in enumerate(games[1:])))
        events = await stores[0].db.fetch("SELECT game_id FROM rating_events")
        assert sorted(int(r["game_id"]) for r in events) == sorted(games)
        opened = await stores[0].db.fetch(
            "SELECT COUNT(*) AS n FROM seasons WHERE guild_id = 1 AND ended_at IS NULL"
        )
        assert int(opened[0]["n"]) == 1
        assert (await stores[0].results.rebuild_ratings()).differ == 0
    finally:
        for store in stores:
            await store.close()


END_GAMES = textwrap.dedent(
    """
    import asyncio, sys
    from tests.bot.store.test_storage_contract import finish, placed
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
        (season,) = await store.results.seasons(1)
        table = await store.results.season_table(season.id)
        assert (table[ANN].games, table[500].games, table[501].games) == (20, 10, 10)
        assert (await store.results.rebuild_ratings()).differ == 0
    finally:
        await store.close()


Seat = tuple[int, int | None, str | None, int, bool]  # seat, user, AI level, VP, winner


async def old_database(
    url: str,
    games: dict[int, tuple[int | None, list[Seat]]],
    actions: dict[int, list[Any]],
    before: int,
) -> None:
    """A database with finished games (their results, without places, and their action
    logs) from before migration 7, then migrated up to ``before`` (excluded)."""
    old = await open_database(url)
    try:
        await old.migrate([m for m in MIGRATIONS if m[0] < 7])
        async with old.transaction() as tx:
            for game_id, (guild, seats) in games.items():
                await tx.execute(
                    "INSERT INTO games (id, guild_id, channel_id, host_id, status, max_players,"
                    " seed, created_at, updated_at) VALUES (?, ?, ?, 1, 'over', 4, 42, ?, ?)",
                    (game_id, guild, game_id, float(game_id), float(game_id)),
                )
                for s, user, level, vp, winner in seats:
                    await tx.execute(
                        "INSERT INTO results (game_id, seat, user_id, ai_level, name, vp,"
                        " vp_colonies, vp_territories, vp_positron, vp_cards, winner)"
                        " VALUES (?, ?, ?, ?, 'x', ?, 0, 0, 0, 0, ?)",
                        (game_id, s, user, level, vp, int(winner)),
                    )
                for seq, (actor, user, events, at) in enumerate(actions.get(game_id, ())):
                    await tx.execute(
                        "INSERT INTO actions (game_id, seq, actor, user_id, notation, events,"
                        " created_at) VALUES (?, ?, ?, ?, 'end', ?, ?)",
                        (game_id, seq, actor, user, json.dumps(events), at),
                    )
        await old.migrate([m for m in MIGRATIONS if m[0] < before])
    finally:
        await old.close()


def two_turns(first: int | None, second: int | None, at: float) -> list[Any]:
    """A log of two turns: seat 0's by ``first``, seat 1's by ``second`` (None: the bot)."""
    return [
        (-1, None, [{"key": "turn_started", "player": 0}], at),
        (0, first, [{"key": "turn_started", "player": 1}], at + 1),
        (1, second, [], at + 2),
    ]


async def test_the_migration_rates_older_games_in_the_order_they_ended(db_url: str) -> None:
    """Games finished before the ratings were rated for what was played: each seat's turns
    counted from its log, a member who left before the end (an AI held their seat, with
    their id) rated as leaving, and every game rated in the order it ended (game 1 ended
    last), not in the order of the games' ids."""
    games: dict[int, tuple[int | None, list[Seat]]] = {
        1: (1, [(0, ANN, None, 9, True), (1, None, "hard", 4, False)]),
        2: (1, [(0, ANN, None, 3, False), (1, BOB, "normal", 8, True)]),  # Bob left
        3: (None, [(0, ANN, None, 3, False), (1, CID, None, 8, True)]),  # in a DM
    }
    actions = {1: two_turns(ANN, None, 500.0), 2: two_turns(ANN, BOB, 100.0)}
    await old_database(db_url, games, actions, RATED_FOR_PLAY)
    store = await Storage.open(db_url)  # migrates
    try:
        assert await store.schema_version() == LATEST
        (season,) = await store.results.seasons(1)
        events = await store.db.fetch("SELECT game_id, user_id FROM rating_events ORDER BY seq")
        assert [(int(e["game_id"]), e["user_id"]) for e in events] == [
            (2, BOB),
            (2, None),
            (1, None),
        ]
        first = await store.results.of_game(1)
        assert [(r.turns, r.own_turns, r.bot_turns) for r in first] == [(1, 1, 0), (1, 0, 1)]
        bob = await store.results.rating_changes(2)
        assert [(c.change.user_id, c.change.how, c.name) for c in bob] == [
            (BOB, "unknown", "x"),
            (ANN, "result", ""),
        ]
        assert bob[0].change.after.mu < NEWCOMER.mu  # last, though his seat won
        history = await store.results.rating_history(season.id, ANN)
        assert [h.game_id for h in history] == [2, 1]  # in the order they ended
        assert await store.results.rating_changes(3) == []
        assert (await store.results.rebuild_ratings()).differ == 0
    finally:
        await store.close()


async def test_migrations_from_before_the_ratings_rate_the_older_games(db_url: str) -> None:
    """From before migration 7: places from VP (the winners first), a first season per
    server, and the games rated with the rules of now."""
    games: dict[int, tuple[int | None, list[Seat]]] = {
        1: (1, [(0, ANN, None, 9, True), (1, BOB, None, 9, False), (2, None, "hard", 4, False)]),
        2: (1, [(0, BOB, None, 7, True), (1, None, "easy", 5, False)]),
        4: (2, [(0, None, "hard", 6, True), (1, None, "easy", 2, False)]),
    }
    await old_database(db_url, games, {}, 7)
    store = await Storage.open(db_url)
    try:
        assert [r.place for r in await store.results.of_game(1)] == [1, 2, 3]
        (season,) = await store.results.seasons(1)
        assert (season.number, season.started_at) == (1, 1.0)
        assert await store.results.seasons(2) == []
        table = await store.results.season_table(season.id)
        assert {u: s.games for u, s in table.items()} == {ANN: 1, BOB: 2}
        expected = end_changes([seat(0, 1, ANN), seat(1, 2, BOB), seat(2, 3, ai="hard")], (), {})
        got = (await store.results.rating_changes(1))[0].change
        assert (got.after.mu, got.after.sigma) == (expected[0].after.mu, expected[0].after.sigma)
    finally:
        await store.close()


async def test_an_aborted_game_counts_only_for_the_member_who_aborts(tmp_path: Path) -> None:
    store = await Storage.open(tmp_path / "af.db")
    try:
        jobs = build_service(store)
        for channel, aborter in ((10, 100), (11, 999)):
            game = await game_between(jobs, channel=channel)
            rng = random.Random(1)
            for _ in range(30):  # some moves, then it ends
                user = game.user_to_act()
                if user is None:
                    break
                await jobs.moves.play(game, user, rng.choice(legal_actions(game.state)))
            await jobs.lobby.abort(game, aborter, can_manage=True)
            assert (await store.game_rows.game(game.id)).status == "aborted"  # type: ignore[union-attr]
            assert await store.results.of_game(game.id) == []
            changes = await store.results.rating_changes(game.id)
            if aborter == 100:  # the host, seated: as leaving
                assert [(c.change.user_id, c.change.how, c.change.place) for c in changes] == [
                    (100, "aborted", 2)
                ]
            else:  # a moderator without a seat: nobody
                assert changes == []
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


async def test_the_migration_lets_a_delivery_have_no_game_and_never_reuses_an_id(
    db_url: str,
) -> None:
    """A season's announcement is a delivery of no game: the column becomes nullable (on
    SQLite by making the table again), its rows and indexes kept, and an id once used is
    never given again (a post's nonce is made of it)."""
    old = await open_database(db_url)
    try:
        await old.migrate([m for m in MIGRATIONS if m[0] < 8])  # before the orphans (8)
        async with old.transaction() as tx:
            await tx.execute(
                "INSERT INTO games (id, guild_id, channel_id, host_id, status, max_players,"
                " seed, created_at, updated_at) VALUES (1, 1, 5, 1, 'playing', 2, 42, 1, 1)"
            )
            for _ in range(3):
                await tx.execute(
                    "INSERT INTO deliveries (game_id, guild_id, channel_id, kind, due_at,"
                    " created_at) VALUES (1, 1, 5, 'turn', 1, 1)"
                )
            await tx.execute("DELETE FROM deliveries WHERE id = 3")  # the newest landed
    finally:
        await old.close()
    store = await Storage.open(db_url)
    try:
        assert [d.id for d in await store.deliveries.pending_deliveries()] == [1, 2]
        season = outbox.announcement(
            1, 5, 2.0, "season.started_first", {"season": "x"}, locale="en", reply=True
        )
        await store.deliveries.queue([season])
        rows = await store.deliveries.pending_deliveries(channel_id=5)
        assert [(d.id, d.game_id, d.kind) for d in rows] == [
            (1, 1, "turn"),
            (2, 1, "turn"),
            (4, None, "notice"),
        ]
        assert ("game_id", "INTEGER", True) in await store.db.columns("deliveries")
    finally:
        await store.close()


def test_the_game_over_line_names_leavers_first_and_marks_provisional_ratings() -> None:
    from bot.store.rating_store import RatedChange
    from bot.store.ratings import Change
    from bot.text.rating_text import over_ratings_text

    settled = Skill(26.0, 3.0, PROVISIONAL_GAMES + 3)
    changes = [
        RatedChange(2, 9, 1, Change(ANN, 0, 1, settled, Skill(27.0, 2.9, settled.games + 1))),
        RatedChange(1, 9, 1, Change(BOB, 1, 3, NEWCOMER, Skill(20.0, 8.0, 1), "left"), "Bob"),
    ]
    # Each member by their mention (shown as their name), which no seat's name can fake.
    ann, bob = f"<@{ANN}>", f"<@{BOB}>"
    assert over_ratings_text(changes, "en") == (
        f"📈 Ratings: {bob} 800 (−200, left: last place, provisional) · {ann} 1080 (+40)"
    )
    assert over_ratings_text(changes, "ru") == (
        f"📈 Рейтинги: {bob} 800 (−200, выход из игры: последнее место, предварительный)"
        f" · {ann} 1080 (+40)"
    )
    assert f"{bob} 800 (−200, wyjście z gry: ostatnie miejsce, wstępny)" in over_ratings_text(
        changes, "pl"
    )

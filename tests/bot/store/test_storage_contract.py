"""The contract of every ``Storage`` method, run on both databases (SQLite and PostgreSQL).

Each test says which methods it covers (``@covers``); ``test_every_storage_method_is_covered``
fails when a new method of ``Storage`` has no contract test here, so an addition is
checked on both databases from the start. Also here: the schema is the same on both
after the migrations, the shared SQL's placeholders, and the one-action-per-version
guarantee with two processes' worth of connections on one PostgreSQL database.
"""

from __future__ import annotations

import asyncio
import inspect
import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

import pytest

from bot.factory import build_service
from bot.store.clock_settings import ClockSettings
from bot.store.db import SQLiteDatabase, UniqueViolation, numbered, open_database, postgres_ddl
from bot.store.errors import ChannelBusyError, GameChangedError, SeasonChangedError
from bot.store.game_config import GameSettings, Variants
from bot.store.migrations import LATEST, MIGRATIONS
from bot.store.result_store import SeasonNews
from bot.store.rows import ActionRow, Delivery, MemberPrefs, ResultRow, SeatRow, ToHost
from bot.store.shards import Shards
from bot.store.shared_sql import StoreArea
from bot.store.storage import TABLES, Storage
from engine import legal_actions
from tests.bot.store_areas import areas
from tests.bot.table import game_between

F = TypeVar("F", bound=Callable[..., Any])
COVERED: set[str] = set()


def covers(*names: str) -> Callable[[F], F]:
    COVERED.update(names)
    return lambda test: test


async def lobby(store: Storage, channel: int = 10, guild: int | None = 1) -> int:
    return await store.game_rows.create_game(
        guild_id=guild,
        channel_id=channel,
        host_id=100,
        host_name="Ann",
        max_players=3,
        seed=2**62 - 1,  # seeds and Discord ids need 64 bits
        locale="pl",
        now=1000.5,
        config=CONFIG,
    )


CONFIG = GameSettings(
    Variants(long_game=True, finite_supply=True),
    ClockSettings(remind_hours=6, warn_hours=18, limit_hours=24, action="skip"),
)


def action(seq: int, notation: str = "end", actor: int = 0) -> ActionRow:
    return ActionRow(seq, actor, 100 if actor >= 0 else None, notation, [{"key": "x"}], 5.25)


def public_names(cls: type) -> set[str]:
    return {
        name
        for name, member in inspect.getmembers(cls)
        if not name.startswith("_") and (callable(member) or isinstance(member, property))
    }


def test_every_storage_method_is_covered() -> None:
    store = Storage.to_open("never-opened.db")  # only its areas are looked at
    public = public_names(Storage) - set(areas(store))
    for area in areas(store).values():
        public |= public_names(type(area)) - public_names(StoreArea)
    assert public - COVERED == set(), "Storage methods without a contract test on both databases"


def test_each_method_of_the_storage_is_in_one_area_named_unlike_any_method() -> None:
    """``store.<area>.<method>``: an area's name says what it holds, never a method's name
    (an area ``seats`` would read ``seats`` twice), and a method is found in one area only."""
    store = Storage.to_open("never-opened.db")
    methods = [
        name
        for area in areas(store).values()
        for name in public_names(type(area)) - public_names(StoreArea)
    ]
    assert len(methods) == len(set(methods)), sorted(m for m in methods if methods.count(m) > 1)
    assert set(areas(store)) & (set(methods) | public_names(Storage)) == set()


@covers("open", "close", "migrate", "schema_version", "dialect")
async def test_open_migrates_once_and_again_changes_nothing(db_url: str) -> None:
    store = await Storage.open(db_url)
    assert store.dialect == ("postgresql" if db_url.startswith("postgresql") else "sqlite")
    assert await store.schema_version() == LATEST
    await store.migrate()
    await store.close()
    again = await Storage.open(db_url)  # a restart: nothing left to migrate
    assert await again.schema_version() == LATEST
    await again.close()


@covers("to_open", "connect", "is_open")
async def test_a_storage_is_named_first_and_opened_when_the_bot_connects(db_url: str) -> None:
    store = Storage.to_open(db_url)  # the bot's parts are built on it before it logs in
    assert store.dialect == ("postgresql" if db_url.startswith("postgresql") else "sqlite")
    assert not store.is_open
    with pytest.raises(RuntimeError, match="not open yet"):
        await store.game_rows.game(1)
    await store.connect()
    assert store.is_open and await store.schema_version() == LATEST
    assert await store.game_rows.game(1) is None
    with pytest.raises(RuntimeError, match="open already"):
        await store.connect()
    await store.close()  # closed, it can be opened again (the bot logging in again)
    assert not store.is_open
    with pytest.raises(RuntimeError, match="not open yet"):
        await store.game_rows.game(1)
    await store.connect()
    assert await store.game_rows.game(1) is None
    await store.close()


@covers("shared", "answers", "games_count")
async def test_the_database_says_whether_it_is_shared_answers_and_counts_its_games(
    db_url: str,
) -> None:
    """What the bot's lifecycle asks of the database as a whole (``bot.play.database``):
    shared by several processes on PostgreSQL only, known before it is open; it answers
    the heartbeat once open; the games it holds, whatever their status, for the log."""
    store = Storage.to_open(db_url)
    assert store.shared == db_url.startswith("postgresql")
    with pytest.raises(RuntimeError, match="not open yet"):
        await store.answers()
    await store.connect()
    await store.answers()
    assert await store.games_count() == 0
    await lobby(store)
    ended = await lobby(store, channel=11)
    await store.game_rows.update_game(ended, status="aborted", updated_at=1001.0)
    assert await store.games_count() == 2
    await store.close()


@covers("create_game", "game", "active_game", "latest_game", "update_game")
async def test_games_are_created_read_and_updated(store: Storage) -> None:
    game_id = await lobby(store)
    row = await store.game_rows.game(game_id)
    assert row is not None
    assert (row.guild_id, row.channel_id, row.host_id, row.status) == (1, 10, 100, "lobby")
    assert row.max_players == 3 and row.config == CONFIG
    assert row.seed == 2**62 - 1 and row.locale == "pl"
    assert row.created_at == row.updated_at == 1000.5 and row.reminders_sent == 0
    assert row.ai_only is False and row.timeout_mode is None
    assert (
        await store.game_rows.active_game(10) == row
        and await store.game_rows.latest_game(10) == row
    )
    assert (
        await store.game_rows.game(game_id + 1000) is None
        and await store.game_rows.active_game(11) is None
    )

    with pytest.raises(ChannelBusyError):
        await lobby(store)
    later = CONFIG.with_clock(ClockSettings(enabled=False))
    updated = await store.game_rows.update_game(
        game_id,
        status="aborted",
        updated_at=2000,
        waiting_on_user=2**60,
        ai_only=True,
        config=later,
    )
    row = await store.game_rows.game(game_id)
    assert updated == row  # the row as it is now, returned by the update itself
    assert row is not None and row.status == "aborted" and row.updated_at == 2000.0
    assert row.config == later
    assert row.waiting_on_user == 2**60 and row.ai_only is True
    assert (
        await store.game_rows.active_game(10) is None
        and await store.game_rows.latest_game(10) == row
    )
    second = await lobby(store)  # the channel is free again; ids keep counting up
    assert second > game_id
    latest = await store.game_rows.latest_game(10)
    assert latest is not None and latest.id == second
    with pytest.raises(ValueError, match="not game columns"):
        await store.game_rows.update_game(second, seed=1)
    assert await store.game_rows.update_game(second) == await store.game_rows.game(
        second
    )  # nothing to set
    assert await store.game_rows.update_game(second + 1000, status="over") is None


@covers("seats", "set_seats", "commit_seat_change", "seats_of_user")
async def test_seats_are_replaced_and_updated_with_the_game_row(store: Storage) -> None:
    game_id = await lobby(store)
    assert await store.seat_rows.seats(game_id) == [SeatRow(0, 100, None, "Ann")]
    seats = [SeatRow(0, 100, None, "Ann"), SeatRow(1, None, "hard", "AI 1 (hard)")]
    await store.seat_rows.set_seats(game_id, seats, updated_at=3000.0)
    assert await store.seat_rows.seats(game_id) == seats
    row = await store.game_rows.game(game_id)
    assert row is not None and row.updated_at == 3000.0
    await store.seat_rows.commit_seat_change(
        game_id,
        {1: {"user_id": 200, "ai_level": None, "name": "Bob", "rejoin": True, "timeouts": 2}},
        status="playing",
    )
    assert (await store.seat_rows.seats(game_id))[1] == SeatRow(1, 200, None, "Bob", 2, None, True)
    assert await store.seat_rows.seats_of_user(200) == [(game_id, 1)]
    assert await store.seat_rows.seats_of_user(300) == []
    with pytest.raises(ValueError, match="not seat columns"):
        await store.seat_rows.commit_seat_change(game_id, {0: {"seat": 3}})
    await store.game_rows.update_game(game_id, status="over")
    assert await store.seat_rows.seats_of_user(200) == []  # only games in their lobby or in play


@covers(
    "commit_actions",
    "actions",
    "actions_since",
    "last_actions",
    "snapshot",
    "logged",
    "latest_played_game",
    "repair_snapshot",
)
async def test_actions_and_snapshot_are_committed_together(store: Storage) -> None:
    game_id = await lobby(store)
    assert await store.game_rows.latest_played_game(10) is None
    assert await store.action_log.logged(game_id) == 0  # a lobby: no state stored yet
    await store.action_log.commit_actions(
        game_id, [action(0, "roll 1 2 3", -1), action(1)], '{"v": 2}', status="playing"
    )
    assert await store.action_log.snapshot(game_id) == (2, '{"v": 2}')
    assert await store.action_log.logged(game_id) == 2
    rows = await store.action_log.actions(game_id)
    assert [r.notation for r in rows] == ["roll 1 2 3", "end"]
    assert rows[1] == ActionRow(1, 0, 100, "end", [{"key": "x"}], 5.25)
    assert rows[0].user_id is None and rows[0].actor == -1
    committed = await store.action_log.commit_actions(
        game_id, [action(2, "dock mine 4")], '{"v": 3}', {0: {"timeouts": 0}}, clock_since=7.0
    )
    assert [r.seq for r in await store.action_log.last_actions(game_id, 2)] == [1, 2]
    # Since a seat's last action: the rest (none for seat 0, which played last; the chance
    # outcome at 0 was followed by two); a seat that never acted: all of it.
    assert await store.action_log.actions_since(game_id, 0) == []
    assert [r.seq for r in await store.action_log.actions_since(game_id, 1)] == [0, 1, 2]
    assert [r.seq for r in await store.action_log.actions_since(game_id, -1)] == [1, 2]
    played = await store.game_rows.latest_played_game(10)
    assert played is not None and played.id == game_id and played.clock_since == 7.0
    assert committed == played  # the row as committed

    # A commit that follows fewer actions than are stored: refused, nothing written.
    with pytest.raises(GameChangedError):
        await store.action_log.commit_actions(
            game_id, [action(2, "end")], '{"v": "stale"}', status="over"
        )
    assert await store.action_log.snapshot(game_id) == (3, '{"v": 3}')
    assert len(await store.action_log.actions(game_id)) == 3
    row = await store.game_rows.game(game_id)
    assert row is not None and row.status == "playing"
    with pytest.raises(ValueError):
        await store.action_log.commit_actions(game_id, [], "{}")

    # A snapshot found wrong is replaced by the replay, unless either changed meanwhile.
    assert not await store.action_log.repair_snapshot(game_id, 2, 3, '{"v": "replayed"}')
    assert not await store.action_log.repair_snapshot(game_id, 3, 4, '{"v": "replayed"}')
    assert await store.action_log.repair_snapshot(game_id, 3, 3, '{"v": "replayed"}')
    assert await store.action_log.snapshot(game_id) == (3, '{"v": "replayed"}')
    other = await lobby(store, channel=11)
    await store.action_log.commit_actions(other, [action(0)], '{"v": 1}')
    async with store.transaction() as tx:  # a game whose snapshot is missing
        await tx.execute("DELETE FROM snapshots WHERE game_id = ?", (other,))
    assert await store.action_log.repair_snapshot(other, None, 1, '{"v": "again"}')
    assert await store.action_log.snapshot(other) == (1, '{"v": "again"}')

    # A move in play and the chance outcome it led to (on PostgreSQL one statement): all
    # of it written, the row returned as committed; the same move again is refused whole.
    moves = [action(3, "dock shipyard 2"), action(4, "roll 6", -1)]
    row = await store.action_log.commit_actions(
        game_id, moves, '{"v": 5}', updated_at=9.5, clock_turn=2
    )
    assert (
        row == await store.game_rows.game(game_id) and row.updated_at == 9.5 and row.clock_turn == 2
    )
    assert await store.action_log.snapshot(game_id) == (5, '{"v": 5}')
    assert (await store.action_log.actions(game_id))[3:] == moves
    with pytest.raises(GameChangedError):
        await store.action_log.commit_actions(game_id, moves, '{"v": "again"}', updated_at=10.5)
    assert await store.action_log.snapshot(game_id) == (5, '{"v": 5}')
    assert len(await store.action_log.actions(game_id)) == 5
    assert (await store.game_rows.game(game_id)) == row


@covers("game_as_logged")
async def test_a_game_is_read_with_its_count_of_logged_actions_in_one_statement(
    store: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a courier shows a game from (``HeldGames.as_committed``): its row and how
    many actions its stored state follows, read together — 0 for a lobby."""
    game_id = await lobby(store)
    assert await store.game_rows.game_as_logged(game_id) == (await store.game_rows.game(game_id), 0)
    await store.action_log.commit_actions(
        game_id, [action(0, "roll 1 2 3", -1), action(1)], '{"v": 2}', status="playing"
    )
    row = await store.game_rows.game(game_id)
    assert row is not None and row.status == "playing"
    statements: list[str] = []
    for name in ("fetch", "write"):  # every statement outside a transaction
        run = getattr(store.db, name)

        async def counted(sql: str, *args: Any, _run: Any = run, **kwargs: Any) -> Any:
            statements.append(sql)
            return await _run(sql, *args, **kwargs)

        monkeypatch.setattr(store.db, name, counted)
    assert await store.game_rows.game_as_logged(game_id) == (row, 2)
    assert len(statements) == 1, statements
    assert await store.game_rows.game_as_logged(game_id + 1000) is None


def told(
    game_id: int | None, kind: str, channel: int = 10, at: float = 50.0, **payload: Any
) -> Delivery:
    return Delivery(kind, game_id, channel, 1, payload, created_at=at, due_at=at)


@covers(
    "queue",
    "pending_deliveries",
    "has_pending",
    "delivered",
    "delivery_failed",
    "delivery_counts",
    "actions_between",
    "forget_deliveries",
)
async def test_deliveries_are_written_with_their_change_and_kept_until_delivered(
    store: Storage,
) -> None:
    """The outbox: deliveries are stored in the transaction of the change that causes them
    (a refused change writes none), listed per lane in order, retried, given up, and removed
    once delivered with what they made recorded in the game's row."""
    game_id = await store.game_rows.create_game(
        guild_id=1,
        channel_id=10,
        host_id=100,
        host_name="Ann",
        max_players=2,
        seed=1,
        locale="en",
        now=10.0,
        deliveries=[told(None, "lobby", at=10.0, reply=True)],  # the game's id filled in
    )
    (first,) = await store.deliveries.pending_deliveries()
    assert (first.kind, first.game_id, first.channel_id, first.payload) == (
        "lobby",
        game_id,
        10,
        {"reply": True},
    )
    assert first.due_at == first.created_at == 10.0 and first.attempts == 0
    seats = [SeatRow(0, 100, None, "Ann"), SeatRow(1, 200, None, "Bob")]
    await store.seat_rows.set_seats(game_id, seats, [told(game_id, "notice", key="lobby.joined")])
    await store.action_log.commit_actions(
        game_id,
        [action(0, "roll 1 2 3", -1)],
        '{"v": 1}',
        status="playing",
        deliveries=[told(game_id, "started", to=1), told(game_id, "turn", turn=1)],
    )
    # A move in play with its deliveries (on PostgreSQL one statement), then the same move
    # again: refused, nothing of it written, no delivery queued.
    row = await store.action_log.commit_actions(
        game_id,
        [action(1, "dock mine 4"), action(2, "roll 5", -1)],
        '{"v": 3}',
        updated_at=11.0,
        deliveries=[told(game_id, "close", to=3, seat=0), told(game_id, "turn", turn=2)],
    )
    assert row.updated_at == 11.0
    with pytest.raises(GameChangedError):
        await store.action_log.commit_actions(
            game_id,
            [action(1, "end")],
            "{}",
            updated_at=12.0,
            deliveries=[told(game_id, "turn", turn=9)],
        )
    await store.action_log.undo_action(
        game_id, 2, '{"v": 2}', [told(game_id, "turn", turn=2, note={})]
    )
    await store.seat_rows.commit_seat_change(
        game_id, {1: {"timeouts": 1}}, [told(game_id, "notice", key="x")]
    )
    await store.game_rows.update_game(game_id, [told(game_id, "turn", turn=2)], reminders_sent=1)
    await store.deliveries.queue([told(game_id, "dm", channel=-100, user=100)])
    other = await lobby(store, channel=11)
    await store.deliveries.queue([told(other, "lobby", channel=11, at=5.0)])

    lane = await store.deliveries.pending_deliveries(channel_id=10)
    assert [d.kind for d in lane] == [
        "lobby",
        "notice",
        "started",
        "turn",
        "close",
        "turn",
        "turn",
        "notice",
        "turn",
    ]
    assert [d.id for d in lane] == sorted(d.id for d in lane)  # in the order queued
    assert lane[4].payload == {"to": 3, "seat": 0}
    assert len(await store.deliveries.pending_deliveries()) == len(lane) + 2
    assert [
        d.kind for d in await store.deliveries.pending_deliveries(Shards(2, frozenset({1})))
    ] == []
    assert await store.deliveries.has_pending(
        game_id, "close"
    ) and not await store.deliveries.has_pending(other, "turn")
    assert await store.deliveries.delivery_counts() == (len(lane) + 2, 5.0, 0)

    # Delivered: removed, with what it made recorded and what comes in its place queued in
    # its place (a refused DM's notice goes before what was queued after the DM).
    await store.deliveries.delivered(
        lane[0].id, game_id, [told(game_id, "notice", key="y")], lobby_message_id=2**60
    )
    game = await store.game_rows.game(game_id)
    assert game is not None and game.lobby_message_id == 2**60
    after = await store.deliveries.pending_deliveries(channel_id=10)
    assert [d.id for d in after] == [d.id for d in lane]
    assert (after[0].kind, after[0].payload, after[0].attempts) == ("notice", {"key": "y"}, 0)
    # A failed attempt waits; a given-up one stays, failed, out of the pending ones.
    await store.deliveries.delivery_failed(after[0].id, attempts=1, due_at=99.0, error="503 " * 200)
    await store.deliveries.delivery_failed(
        after[1].id, attempts=2, due_at=0, error="400", give_up=True
    )
    retried, *rest = await store.deliveries.pending_deliveries(channel_id=10)
    assert (retried.attempts, retried.due_at) == (1, 99.0) and len(retried.error or "") == 500
    assert after[1].id not in [d.id for d in rest]
    pending, oldest, failed = await store.deliveries.delivery_counts()
    assert (pending, failed) == (len(after) - 1 + 2, 1) and oldest == 5.0

    # Edits that landed are removed with the next move's commit (on PostgreSQL in its one
    # statement), or on their own; a refused move removes none.
    first, second, *others = await store.deliveries.pending_deliveries(channel_id=10)
    with pytest.raises(GameChangedError):
        await store.action_log.commit_actions(
            game_id, [action(1, "end")], "{}", landed=[first.id], updated_at=13.0
        )
    landed_move = [action(2, "dock shipyard 1"), action(3, "roll 2", -1)]
    await store.action_log.commit_actions(
        game_id, landed_move, '{"v": 4}', landed=[first.id], updated_at=14.0
    )
    await store.deliveries.forget_deliveries([second.id, 10**12])
    left = [d.id for d in await store.deliveries.pending_deliveries(channel_id=10)]
    assert left == [d.id for d in others]

    # A delivered row's number is never used again (a post's nonce is made of it).
    last = max(d.id for d in await store.deliveries.pending_deliveries())
    for d in await store.deliveries.pending_deliveries():
        await store.deliveries.delivered(d.id, d.game_id)
    await store.deliveries.queue([told(game_id, "turn", turn=3)])
    (fresh,) = await store.deliveries.pending_deliveries()
    assert fresh.id > last
    assert await store.deliveries.delivery_counts() == (1, 50.0, 1)

    assert [a.seq for a in await store.action_log.actions_between(game_id, 0, 2)] == [0, 1]
    assert [a.seq for a in await store.action_log.actions_between(game_id, 1, 9)] == [1, 2, 3]


@covers("undo_action")
async def test_undo_removes_only_the_last_action(store: Storage) -> None:
    game_id = await lobby(store)
    await store.action_log.commit_actions(game_id, [action(0), action(1), action(2)], '{"v": 3}')
    with pytest.raises(GameChangedError):
        await store.action_log.undo_action(game_id, 1, '{"v": 1}')
    await store.action_log.undo_action(game_id, 2, '{"v": 2}', updated_at=9.0)
    assert await store.action_log.snapshot(game_id) == (2, '{"v": 2}')
    assert [a.seq for a in await store.action_log.actions(game_id)] == [0, 1]
    await store.action_log.commit_actions(game_id, [action(2, "dock mine 5")], '{"v": "3b"}')
    assert (await store.action_log.actions(game_id))[-1].notation == "dock mine 5"


@covers("games_with_status")
async def test_games_by_status_and_by_shard(store: Storage) -> None:
    # Discord's shard of a server: (guild_id >> 22) % count.
    guilds = {0: 0 << 22, 1: 1 << 22, 2: (2 << 22) + 12345, 3: (3 << 22) + 7}
    ids = {}
    for channel, guild in guilds.items():
        ids[channel] = await lobby(store, channel=channel, guild=guild)
    ids[9] = await lobby(store, channel=9, guild=None)  # no server: shard 0
    for game_id in ids.values():
        await store.game_rows.update_game(game_id, status="playing")
    await store.game_rows.update_game(ids[3], status="over")

    def channels(rows: list[Any]) -> list[int]:
        return [r.channel_id for r in rows]

    assert channels(await store.game_rows.games_with_status("playing")) == [0, 1, 2, 9]
    assert channels(await store.game_rows.games_with_status("over")) == [3]
    two = [Shards(2, frozenset({0})), Shards(2, frozenset({1}))]
    assert channels(await store.game_rows.games_with_status("playing", two[0])) == [0, 2, 9]
    assert channels(await store.game_rows.games_with_status("playing", two[1])) == [1]
    assert channels(
        await store.game_rows.games_with_status("playing", Shards(4, frozenset({2, 3})))
    ) == [2]
    assert channels(
        await store.game_rows.games_with_status("playing", Shards(2, frozenset({0, 1})))
    ) == [
        0,
        1,
        2,
        9,
    ]
    for shards in (*two, Shards(4, frozenset({2}))):
        for row in await store.game_rows.games_with_status("playing", shards):
            assert shards.owns(row.guild_id)


@covers("guild_clock", "set_guild_clock", "away_until", "set_away_until", "get_meta", "set_meta")
async def test_servers_members_and_meta_are_upserted(store: Storage) -> None:
    big = 2**63 - 1
    assert await store.server_settings.guild_clock(big) is None
    await store.server_settings.set_guild_clock(big, '{"a": 1}', 10)
    await store.server_settings.set_guild_clock(big, '{"a": 2}', 11.5)
    assert await store.server_settings.guild_clock(big) == '{"a": 2}'
    assert await store.members.away_until([]) == {}
    await store.members.set_away_until(5, 100)
    await store.members.set_away_until(5, 200.25)
    await store.members.set_away_until(6, 300.0)
    assert await store.members.away_until([5, 6, 7, 5]) == {5: 200.25, 6: 300.0}
    assert await store.meta.get_meta("k") is None
    await store.meta.set_meta("k", "1")
    await store.meta.set_meta("k", "2")
    assert await store.meta.get_meta("k") == "2"


@covers("guild_language", "set_guild_language")
async def test_a_servers_language_is_kept_beside_its_clock_defaults(store: Storage) -> None:
    big = 2**63 - 1
    assert await store.server_settings.guild_language(big) is None
    await store.server_settings.set_guild_language(big, "pl", 10)
    assert await store.server_settings.guild_language(big) == "pl"
    await store.server_settings.set_guild_clock(big, '{"limit_hours": 24.0}', 11)
    assert await store.server_settings.guild_language(big) == "pl"  # a new clock keeps the language
    await store.server_settings.set_guild_language(big, "ru", 12)
    assert await store.server_settings.guild_language(big) == "ru"
    stored = await store.server_settings.guild_clock(big)
    assert stored is not None and json.loads(stored) == {"language": "ru", "limit_hours": 24.0}


@covers("prefs", "set_prefs")
async def test_member_preferences_are_upserted_with_defaults(store: Storage) -> None:
    big = 2**63 - 1
    assert await store.members.prefs([]) == {}
    assert await store.members.prefs([big]) == {big: MemberPrefs(big)}
    await store.members.set_away_until(big, 50.0)  # a member row already there: only these change
    await store.members.set_prefs(big, notify="dm", dm_channel_id=2**62, dm_hint=True, locale="ru")
    await store.members.set_prefs(big, dm_blocked=True, dm_hint=False)
    await store.members.set_prefs(7, notify="off", screen_reader=True)  # migration 10's column
    assert await store.members.prefs([7, big, 8, 7]) == {
        7: MemberPrefs(7, "off", screen_reader=True),
        8: MemberPrefs(8),
        big: MemberPrefs(big, "dm", 2**62, True, False, "ru"),
    }
    await store.members.set_prefs(7, screen_reader=False)
    assert not (await store.members.prefs([7]))[7].screen_reader
    assert await store.members.away_until([big]) == {big: 50.0}
    with pytest.raises(ValueError, match="not member preferences"):
        await store.members.set_prefs(7, away_until=1.0)
    with pytest.raises(ValueError, match="not member preferences"):
        await store.members.set_prefs(7)


def result(seat: int, user: int | None, vp: int, winner: bool = False) -> ResultRow:
    ai = None if user is not None else "hard"
    return ResultRow(seat, user, ai, f"P{seat}", vp, vp - 3, 2, 1, 0, winner, "Heinlein Plains")


@covers("of_game", "results_of", "finished_games", "games_by_id", "first_action_time")
async def test_finished_games_keep_their_results(store: Storage) -> None:
    ids = [await lobby(store, channel=c, guild=g) for c, g in ((10, 1), (11, 1), (12, 2))]
    dm_game = await lobby(store, channel=13, guild=None)
    assert await store.action_log.first_action_time(ids[0]) is None
    await store.action_log.commit_actions(
        ids[0], [action(0, "roll 1 2 3", -1)], "{}", status="playing"
    )
    assert await store.action_log.first_action_time(ids[0]) == 5.25
    ends = {
        ids[0]: [result(0, 100, 8, True), result(1, None, 6)],
        ids[2]: [result(0, 100, 5), result(1, 2**62, 9, True)],
        dm_game: [result(0, 300, 7, True)],
    }
    for game_id, rows in ends.items():
        first = len(await store.action_log.actions(game_id))
        await store.action_log.commit_actions(
            game_id, [action(first)], "{}", None, rows, status="over"
        )
    assert await store.results.of_game(ids[0]) == ends[ids[0]]
    assert await store.results.of_game(ids[1]) == []
    # A result is written once: the same game cannot end twice.
    with pytest.raises(UniqueViolation):
        await store.action_log.commit_actions(ids[0], [action(2)], "{}", None, ends[ids[0]])
    assert len(await store.action_log.actions(ids[0])) == 2

    mine = await store.results.results_of(user_id=100)
    assert [(g.id, r.seat, r.vp, r.winner) for g, r in mine] == [
        (ids[2], 0, 5, False),
        (ids[0], 0, 8, True),
    ]
    server = await store.results.results_of(guild_id=1)
    assert [(g.id, r) for g, r in server] == [(ids[0], r) for r in ends[ids[0]]]
    assert [r.user_id for _, r in await store.results.results_of(user_id=100, guild_id=2)] == [100]
    assert len(await store.results.results_of()) == 5

    await store.game_rows.update_game(ids[1], status="over")  # ended without results (none played)
    assert [g.id for g in await store.results.finished_games(1, None)] == [ids[1], ids[0]]
    assert [g.id for g in await store.results.finished_games(1, 11)] == [ids[1]]
    assert [g.id for g in await store.results.finished_games(None, None)] == [dm_game]
    assert await store.results.finished_games(3, None) == []
    assert [g.id for g in await store.results.games_by_id([ids[2], ids[0], ids[2], 10**9])] == [
        ids[0],
        ids[2],
    ]
    assert await store.results.games_by_id([]) == []


@covers("transaction", "db")
async def test_a_transaction_is_all_or_nothing(store: Storage) -> None:
    with pytest.raises(RuntimeError, match="boom"):
        async with store.transaction() as tx:
            await tx.execute("INSERT INTO meta (key, value) VALUES (?, ?)", ("a", "1"))
            raise RuntimeError("boom")
    assert await store.meta.get_meta("a") is None
    async with store.transaction() as tx:
        await tx.execute("INSERT INTO meta (key, value) VALUES (?, ?)", ("a", "'?'"))
        row = await tx.fetchone("SELECT value FROM meta WHERE key = ? AND value != '?'", ("a",))
    assert row is not None and row["value"] == "'?'"


async def test_a_write_of_one_statement_commits_alone(store: Storage) -> None:
    """``Database.write``: one statement in a transaction of its own (on PostgreSQL without
    ``BEGIN``/``COMMIT``), committed when it returns, its ``RETURNING`` rows given back; a
    failing one writes nothing."""
    rows = await store.db.write(
        "INSERT INTO meta (key, value) VALUES (?, ?) RETURNING value", ("w", "1")
    )
    assert [r["value"] for r in rows] == ["1"]
    assert await store.meta.get_meta("w") == "1"
    with pytest.raises(UniqueViolation):
        await store.db.write(
            "INSERT INTO meta (key, value) SELECT ?, ? UNION ALL SELECT ?, ?",
            ("x", "1", "x", "2"),
        )
    assert await store.meta.get_meta("x") is None
    assert await store.db.write("DELETE FROM meta WHERE key = ?", ("w",)) == []
    assert await store.meta.get_meta("w") is None


async def test_tables_list_every_table_of_the_schema(store: Storage) -> None:
    assert sorted(await store.db.tables()) == sorted(TABLES)


async def test_the_schema_is_the_same_on_both_databases(tmp_path: Any, pg_url: str) -> None:
    lite = await Storage.open(tmp_path / "af.db")
    pg = await Storage.open(pg_url)
    try:
        assert await lite.db.tables() == await pg.db.tables()
        for table in await lite.db.tables():
            assert await lite.db.columns(table) == await pg.db.columns(table), table
    finally:
        await lite.close()
        await pg.close()


def test_shared_sql_and_migration_types() -> None:
    assert numbered("SELECT ? FROM t WHERE a = ? AND b = '?' AND c = 'it''s ?'") == (
        "SELECT $1 FROM t WHERE a = $2 AND b = '?' AND c = 'it''s ?'"
    )
    first = MIGRATIONS[0][1]
    assert isinstance(first, str)
    ddl = postgres_ddl(first)
    assert "id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY" in ddl
    assert "reminded_at DOUBLE PRECISION" in ddl and " INTEGER" not in ddl
    assert isinstance(SQLiteDatabase, type)


async def test_two_processes_cannot_apply_two_actions_at_one_version(pg_url: str) -> None:
    """Two bot processes wrongly serving one game (the same shard twice): each has loaded
    the game, both apply a move at the same version at the same moment. The database
    takes exactly one; the other is refused with nothing written, and its process takes
    the game as stored."""
    stores = [await Storage.open(pg_url), await Storage.open(pg_url)]
    try:
        first = build_service(stores[0], new_seed=lambda: 77)
        game = await game_between(first, channel=5)
        second = build_service(stores[1])
        other = await second.games.in_channel(5)
        assert other is not None and other.state == game.state
        user = game.user_to_act()
        moves = [a for a in legal_actions(game.state) if str(a).startswith("dock")]
        assert user is not None and len(moves) >= 2
        version = game.state.version

        results = await asyncio.gather(
            first.moves.play(game, user, moves[0], version=version),
            second.moves.play(other, user, moves[-1], version=version),
            return_exceptions=True,
        )
        refused = [r for r in results if isinstance(r, Exception)]
        assert len(refused) == 1 and getattr(refused[0], "key", None) == "game.changed"
        winner = moves[0] if not isinstance(results[0], Exception) else moves[-1]
        log = await stores[0].action_log.actions(game.id)
        assert [a.notation for a in log].count(str(winner)) == 1
        assert str(moves[0] if winner == moves[-1] else moves[-1]) not in [
            a.notation for a in log[-3:]
        ]
        snapshot = await stores[0].action_log.snapshot(game.id)
        assert snapshot is not None and snapshot[0] == len(log)
        # Both processes now hold the stored game; the loser's next move goes through.
        assert game.state == other.state
        loser, jobs = (other, second) if winner == moves[0] else (game, first)
        nxt = str(legal_actions(loser.state)[0])
        await jobs.moves.play(loser, loser.user_to_act(), nxt)
        assert len(await stores[0].action_log.actions(game.id)) > len(log)
    finally:
        for s in stores:
            await s.close()


def placed(seat: int, user: int | None, place: int, ai: str | None = None) -> ResultRow:
    """A seat's result with its place (an AI seat when ``user`` is None)."""
    level = (ai or "hard") if user is None else ai
    return ResultRow(seat, user, level, f"P{seat}", 10 - place, 0, 0, 0, 0, place == 1, None, place)


async def finish(store: Storage, game_id: int, rows: list[ResultRow], guild: int | None) -> None:
    first = len(await store.action_log.actions(game_id))
    await store.action_log.commit_actions(
        game_id, [action(first)], "{}", None, rows, rated_in=guild, status="over"
    )


@covers(
    "seasons",
    "season_table",
    "season_wins",
    "rating_history",
    "rating_changes",
    "start_season",
    "rebuild_ratings",
)
async def test_ratings_follow_finished_games_by_season(store: Storage) -> None:
    """Each finished game of a server rates its members (never its AI seats) in the
    server's season; a season start keeps the old table and starts afresh; a rebuild from
    the results gives the same numbers to the last digit."""
    ann, bob, cid = 100, 2**62, 300
    games = [await lobby(store, channel=c) for c in (10, 11, 12)]
    other_server = await lobby(store, channel=20, guild=2)
    await finish(store, games[0], [placed(0, ann, 1), placed(1, bob, 2), placed(2, None, 3)], 1)
    await finish(store, games[1], [placed(0, None, 1, "easy"), placed(1, ann, 2)], 1)
    await finish(store, other_server, [placed(0, bob, 1), placed(1, cid, 1)], 2)  # a tie

    (season,) = await store.results.seasons(1)
    assert (season.number, season.name, season.ended_at) == (1, "", None)
    table = await store.results.season_table(season.id)
    assert set(table) == {ann, bob}  # the AI seats have no rating
    assert (table[ann].games, table[bob].games) == (2, 1)
    assert await store.results.season_wins(season.id) == {ann: (1, 2), bob: (0, 1)}
    history = await store.results.rating_history(season.id, ann)
    assert [h.game_id for h in history] == games[:2]
    assert history[1].change.before == history[0].change.after
    assert [c.change.user_id for c in await store.results.rating_changes(games[0])] == [ann, bob]
    assert await store.results.rating_changes(games[2]) == []
    (elsewhere,) = await store.results.seasons(2)
    assert set(await store.results.season_table(elsewhere.id)) == {bob, cid}

    done = await store.results.rebuild_ratings()
    assert (done.games, done.ratings, done.differ) == (3, 4, 0)
    assert await store.results.season_table(season.id) == table
    assert await store.results.rating_history(season.id, ann) == history

    closed, new = await store.results.start_season(1, "Winter", 2000.0)
    assert closed is not None and (closed.id, closed.ended_at) == (season.id, 2000.0)
    assert (new.number, new.name, new.ended_at) == (2, "Winter", None)
    assert [s.number for s in await store.results.seasons(1)] == [2, 1]
    assert await store.results.season_table(season.id) == table  # the old table is kept
    assert await store.results.season_table(new.id) == {}
    await finish(store, games[2], [placed(0, ann, 2), placed(1, None, 1, "normal")], 1)
    fresh = await store.results.season_table(new.id)
    assert fresh[ann].games == 1
    assert (await store.results.rating_history(new.id, ann))[0].change.before.games == 0
    assert (await store.results.rebuild_ratings()).differ == 0

    # A season with no rated game yet is renamed, not kept empty.
    closed, renamed = await store.results.start_season(2, "Spring", 3000.0)
    assert closed is not None
    closed, again = await store.results.start_season(2, "Summer", 4000.0)
    assert closed is None and (again.id, again.name) == (renamed.id, "Summer")
    # A game without a server (a DM) is not rated.
    dm_game = await lobby(store, channel=30, guild=None)
    await finish(store, dm_game, [placed(0, ann, 1), placed(1, bob, 2)], None)
    assert await store.results.rating_changes(dm_game) == []


async def test_a_season_starts_with_the_news_made_from_the_season_read(store: Storage) -> None:
    """A season's announcement is data its caller made from the current season as it read
    it, one for each outcome: the storage queues the one its transaction finds true, and
    if the season is no longer the one read, writes nothing (SeasonChangedError)."""

    def news(number: int, name: str) -> SeasonNews:
        renamed = [told(None, "notice", channel=70, key="season.started_first")]
        return SeasonNews(number, name, renamed, [told(None, "notice", channel=70, key="x")])

    with pytest.raises(SeasonChangedError):  # read as season 2: the server has none
        await store.results.start_season(3, "Winter", 2000.0, news=news(2, ""))
    assert await store.results.seasons(3) == []
    assert await store.deliveries.pending_deliveries(channel_id=70) == []
    closed, first = await store.results.start_season(3, "Winter", 2000.0, news=news(1, ""))
    assert closed is None and (first.number, first.name) == (1, "Winter")
    (said,) = await store.deliveries.pending_deliveries(channel_id=70)
    assert said.payload["key"] == "season.started_first"


@covers("used_things", "add_used_things")
async def test_the_coach_remembers_what_a_member_used(store: Storage) -> None:
    big = 2**62
    assert await store.members.used_things(big) == set()
    await store.members.set_prefs(big, coach=True)
    assert (await store.members.prefs([big]))[big].coach
    await store.members.add_used_things(big, ["facility:mine", "card:crystal", "facility:mine"])
    await store.members.add_used_things(big, ["facility:mine", "bonus:lem"])
    await store.members.add_used_things(big, [])
    assert await store.members.used_things(big) == {"facility:mine", "card:crystal", "bonus:lem"}
    assert await store.members.used_things(7) == set()
    await store.members.set_prefs(big, coach=False)
    assert not (await store.members.prefs([big]))[big].coach


# ---- the outbox's edges: move keys, lanes, host notices, orphaned games, failed rows ----


@covers("keyed_move")
async def test_a_move_key_is_stored_with_its_action_once(store: Storage) -> None:
    """A member's move carries an idempotency key with its first action: the same key again
    is refused by the database (on PostgreSQL in the move's one statement too), nothing of
    it written; the keyed move's actions (its own and its chance outcomes) are read back;
    an undo frees the key."""
    game_id = await lobby(store)
    await store.action_log.commit_actions(
        game_id, [action(0, "roll 1 2 3", -1)], "{}", status="playing"
    )
    moved = [replace(action(1, "dock mine 4"), move_key="i42"), action(2, "roll 5", -1)]
    await store.action_log.commit_actions(game_id, moved, '{"v": 3}', updated_at=1.0)
    again = [replace(action(3, "dock mine 4"), move_key="i42")]
    with pytest.raises(UniqueViolation):
        await store.action_log.commit_actions(game_id, again, '{"v": 4}', updated_at=2.0)
    with pytest.raises(UniqueViolation):  # the transaction's path (seats changed)
        await store.action_log.commit_actions(game_id, again, '{"v": 4}', {0: {"timeouts": 0}})
    assert [a.seq for a in await store.action_log.actions(game_id)] == [0, 1, 2]
    found = await store.action_log.keyed_move(game_id, "i42")
    assert [(a.seq, a.notation, a.move_key) for a in found] == [
        (1, "dock mine 4", "i42"),
        (2, "roll 5", None),
    ]
    assert await store.action_log.keyed_move(game_id, "i43") == []
    other = await lobby(store, channel=11)
    await store.action_log.commit_actions(
        other, [replace(action(0), move_key="i42")], "{}"
    )  # per game
    await store.action_log.commit_actions(
        game_id, [replace(action(3, "end"), move_key="p7:end")], '{"v": 5}', updated_at=3.0
    )
    await store.action_log.undo_action(game_id, 3, '{"v": 3}')
    assert await store.action_log.keyed_move(game_id, "p7:end") == []  # taken back: free again


@covers("claim_lane", "release_lanes")
async def test_one_process_holds_a_lane_at_a_time(store: Storage) -> None:
    """A lane's lease: taken when free or run out, kept (renewed) by its owner, refused to
    another while it lasts; a process stopping lets its lanes go; who held it before is
    said (whose deliveries may have been made unrecorded)."""
    lane = -(2**62)  # a DM lane: a member's id, negated
    assert await store.deliveries.claim_lane(lane, "a", 100.0, 160.0) == (True, None)
    assert await store.deliveries.claim_lane(lane, "b", 120.0, 180.0) == (False, None)
    assert await store.deliveries.claim_lane(lane, "a", 130.0, 190.0) == (True, "a")  # renewed
    assert await store.deliveries.claim_lane(lane, "b", 191.0, 251.0) == (True, "a")  # ran out
    assert await store.deliveries.claim_lane(lane, "a", 200.0, 260.0) == (False, None)
    await store.deliveries.release_lanes("b")
    assert await store.deliveries.claim_lane(lane, "a", 201.0, 261.0) == (True, "b")
    assert await store.deliveries.claim_lane(10, "b", 201.0, 261.0) == (True, None)


@covers("claim_interaction", "prune_interactions", "owner_of")
async def test_one_process_takes_an_interaction(store: Storage) -> None:
    """An interaction's owner: the first to claim it; the same owner asking again keeps
    it, another is refused; claims older than the given time are pruned, and an id
    forgotten may be claimed again."""
    iid = 2**62 + 5  # Discord's ids need 64 bits
    assert await store.interactions.claim_interaction(iid, "a", 100.0)
    assert not await store.interactions.claim_interaction(iid, "b", 100.5)
    assert await store.interactions.claim_interaction(iid, "a", 101.0)
    assert await store.interactions.claim_interaction(iid + 1, "b", 200.0)
    assert await store.interactions.prune_interactions(150.0) == 1
    assert await store.interactions.claim_interaction(iid, "b", 300.0)
    assert not await store.interactions.claim_interaction(iid + 1, "a", 300.0)
    # Bounded (``within``: PostgreSQL's statement_timeout), the same claim; read back.
    assert await store.interactions.claim_interaction(iid + 2, "a", 300.0, within=2.0)
    assert not await store.interactions.claim_interaction(iid + 2, "b", 300.0, within=2.0)
    assert await store.interactions.owner_of(iid + 2) == "a"
    assert await store.interactions.owner_of(iid + 3) is None


@covers("tell_host", "host_told", "problem_solved")
async def test_a_host_is_told_of_a_problem_once_until_it_is_solved(store: Storage) -> None:
    game_id = await lobby(store)
    dm = told(game_id, "dm", channel=-100, user=100, key="delivery.forbidden")
    assert await store.host_notices.tell_host(game_id, "forbidden:10", 5.0, [dm])
    assert not await store.host_notices.tell_host(
        game_id, "forbidden:10", 6.0, [dm]
    )  # told already
    assert await store.host_notices.tell_host(game_id, "rejected", 7.0, [])
    assert await store.host_notices.host_told(game_id) == {"forbidden:10": 5.0, "rejected": 7.0}
    assert len(await store.deliveries.pending_deliveries(channel_id=-100)) == 1
    await store.host_notices.problem_solved(game_id, "forbidden:10")
    assert await store.host_notices.tell_host(game_id, "forbidden:10", 8.0, [dm])  # it came back
    assert len(await store.deliveries.pending_deliveries(channel_id=-100)) == 2


@covers("orphan_game", "adopt_game", "games_in")
async def test_a_game_whose_channel_is_gone_is_orphaned_then_goes_on_elsewhere(
    store: Storage,
) -> None:
    """An orphaned game holds no channel: what waited there is given up, its host told
    once; it goes on in another channel (one with no game), in play again with no turn
    message yet; a lobby whose channel is gone is aborted."""
    game_id = await lobby(store, channel=10, guild=1)
    await store.action_log.commit_actions(
        game_id, [action(0, "roll 1", -1)], "{}", status="playing"
    )
    await store.game_rows.update_game(game_id, turn_message_id=77, turn_message_turn=1)
    await store.deliveries.queue([told(game_id, "turn", turn=1), told(game_id, "dm", channel=-100)])
    waiting = await lobby(store, channel=11, guild=1)
    other_server = await lobby(store, channel=20, guild=2)

    host_dm = ToHost("dm", {"key": "orphan.channel"}, created_at=50.0)  # the host filled in

    row = await store.game_rows.orphan_game(game_id, "channel", 60.0, host_dm)
    assert row is not None and (row.status, row.orphaned, row.orphaned_at) == (
        "orphaned",
        "channel",
        60.0,
    )
    assert await store.game_rows.orphan_game(game_id, "channel", 61.0, host_dm) is None  # once
    assert await store.deliveries.pending_deliveries(channel_id=10) == []
    (given_up,) = await store.deliveries.failed_deliveries(game_id=game_id)
    assert (given_up.kind, given_up.error, given_up.failed_at) == (
        "turn",
        "orphaned: channel",
        60.0,
    )
    assert [
        d.payload.get("key") for d in await store.deliveries.pending_deliveries(channel_id=-100)
    ] == [
        None,
        "orphan.channel",
    ]
    lobby_row = await store.game_rows.orphan_game(waiting, "guild", 62.0, host_dm)
    assert lobby_row is not None and (lobby_row.status, lobby_row.orphaned) == ("aborted", None)
    assert [g.id for g in await store.game_rows.games_in(guild_id=1)] == []
    assert [g.id for g in await store.game_rows.games_in(host_id=100, statuses=("orphaned",))] == [
        game_id
    ]
    assert [g.id for g in await store.game_rows.games_in(channel_id=20)] == [other_server]

    with pytest.raises(ChannelBusyError):  # that channel has a game
        await store.game_rows.adopt_game(game_id, channel_id=20, guild_id=2, now=70.0)
    moved = await store.game_rows.adopt_game(
        game_id,
        channel_id=12,
        guild_id=1,
        now=70.0,
        deliveries=[told(game_id, "turn", channel=12, turn=1)],
    )
    assert moved is not None
    assert (moved.status, moved.channel_id, moved.orphaned, moved.turn_message_id) == (
        "playing",
        12,
        None,
        None,
    )
    assert moved.clock_since == 70.0
    assert [d.kind for d in await store.deliveries.pending_deliveries(channel_id=12)] == ["turn"]
    assert await store.game_rows.adopt_game(game_id, channel_id=13, guild_id=1, now=71.0) is None
    assert await store.host_notices.host_told(game_id) == {}  # a new loss is told again


@covers("failed_deliveries", "prune_failed")
async def test_failed_deliveries_are_listed_and_pruned_after_a_while(store: Storage) -> None:
    game_id = await lobby(store)
    await store.deliveries.queue(
        [told(game_id, "turn", turn=1), told(game_id, "notice"), told(None, "notice", channel=30)]
    )
    first, second, announcement = await store.deliveries.pending_deliveries()
    assert announcement.game_id is None  # a server's announcement: no game
    await store.deliveries.delivery_failed(
        first.id, attempts=1, due_at=9.0, error="400", give_up=True, now=5.0
    )
    await store.deliveries.delivery_failed(
        second.id, attempts=2, due_at=99.0, error="x", give_up=True, now=50.0
    )
    await store.deliveries.delivery_failed(announcement.id, attempts=1, due_at=9.0, error="503")
    assert [d.id for d in await store.deliveries.failed_deliveries()] == [second.id, first.id]
    assert [d.failed_at for d in await store.deliveries.failed_deliveries(game_id=game_id)] == [
        50.0,
        5.0,
    ]
    assert await store.deliveries.failed_deliveries(Shards(2, frozenset({1}))) == []
    assert await store.deliveries.prune_failed(10.0) == 1
    assert [d.id for d in await store.deliveries.failed_deliveries()] == [second.id]
    assert [d.id for d in await store.deliveries.pending_deliveries()] == [announcement.id]


async def test_migration_8_keeps_every_row_and_lets_a_game_be_orphaned(db_url: str) -> None:
    """A database of migration 7 with games, seats, their log, results, ratings and
    deliveries (some delivered: their ids used) migrated: nothing lost (SQLite rebuilds the
    games and deliveries tables, whose rows others refer to), a game may be orphaned, a
    delivery may have no game, delivery ids never used again, references still enforced."""
    old = await open_database(db_url)
    try:
        await old.migrate([m for m in MIGRATIONS if m[0] < 8])
        async with old.transaction() as tx:
            for game in (1, 2):
                await tx.execute(
                    "INSERT INTO games (id, guild_id, channel_id, host_id, status, max_players,"
                    " seed, created_at, updated_at) VALUES (?, 1, ?, 100, ?, 2, 42, 0.0, 0.0)",
                    (game, 10 + game, "over" if game == 1 else "playing"),
                )
                await tx.execute(
                    "INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, 0, 100, 'Ann')",
                    (game,),
                )
                await tx.execute(
                    "INSERT INTO actions (game_id, seq, actor, notation, created_at)"
                    " VALUES (?, 0, -1, 'roll 1', 0.0)",
                    (game,),
                )
                await tx.execute(
                    "INSERT INTO snapshots (game_id, seq, state) VALUES (?, 1, '{}')", (game,)
                )
            await tx.execute(
                "INSERT INTO results (game_id, seat, user_id, name, vp, vp_colonies,"
                " vp_territories, vp_positron, vp_cards, winner, place)"
                " VALUES (1, 0, 100, 'Ann', 9, 5, 2, 1, 1, 1, 1)"
            )
            for _ in range(5):
                await tx.execute(
                    "INSERT INTO deliveries (game_id, channel_id, kind, due_at, created_at)"
                    " VALUES (2, 12, 'turn', 0.0, 0.0)"
                )
            await tx.execute("DELETE FROM deliveries WHERE id > 2")  # delivered: ids used
    finally:
        await old.close()
    store = await Storage.open(db_url)  # migrates
    try:
        assert await store.schema_version() == LATEST >= 8
        assert [g.id for g in await store.game_rows.games_in(statuses=("over", "playing"))] == [
            1,
            2,
        ]
        assert len(await store.seat_rows.seats(2)) == len(await store.action_log.actions(2)) == 1
        assert [r.vp for r in await store.results.of_game(1)] == [9]
        assert [d.id for d in await store.deliveries.pending_deliveries()] == [1, 2]
        row = await store.game_rows.orphan_game(2, "guild", 5.0)
        assert row is not None and row.status == "orphaned"
        await store.deliveries.queue([told(None, "notice", channel=30)])
        (fresh,) = await store.deliveries.pending_deliveries(channel_id=30)
        assert fresh.id > 5  # never a number used before
        async with store.transaction() as tx:
            await tx.execute("DELETE FROM games WHERE id = 1")  # references still cascade
        assert await store.results.of_game(1) == [] and await store.seat_rows.seats(1) == []
    finally:
        await store.close()

"""The storage (SQLite file, WAL, migrations) and the game service without Discord.

Tests taking ``store`` or ``db_url`` run on both databases, SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.factory import build_service
from bot.play.ai import RandomPlayer
from bot.play.games import ActiveGame
from bot.play.jobs import GameJobs
from bot.store.errors import ServiceError, StalePanelError
from bot.store.game_config import GameSettings, Variants
from bot.store.migrations import LATEST, MIGRATIONS
from bot.store.rows import ActionRow
from bot.store.shards import Shards
from bot.store.storage import Storage
from engine import legal_actions
from engine.errors import IllegalActionError
from engine.serialize import dumps, loads
from tests.bot.table import game_between


async def new_game(jobs: GameJobs, channel: int = 10) -> ActiveGame:
    return await game_between(jobs, channel=channel)


def member_of(game: ActiveGame) -> int:
    user = game.user_to_act()
    assert user is not None
    return user


async def test_database_file_wal_and_migrations(tmp_path: Path) -> None:
    store = await Storage.open(tmp_path / "data" / "af.db")
    assert (tmp_path / "data" / "af.db").exists()
    assert await store.schema_version() == LATEST
    conn = sqlite3.connect(tmp_path / "data" / "af.db")
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert {"games", "seats", "actions", "snapshots", "meta"} <= tables
    finally:
        conn.close()
    await store.migrate()  # idempotent
    assert await store.schema_version() == LATEST
    await store.close()


async def test_finite_supply_is_stored_and_added_to_an_older_database(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    conn = sqlite3.connect(db)  # a database of the first release: migration 1 only
    try:
        number, sql = MIGRATIONS[0]
        assert isinstance(sql, str)
        conn.executescript(sql)
        conn.execute(f"PRAGMA user_version = {number}")
        conn.execute(
            "INSERT INTO games (channel_id, host_id, status, max_players, seed, created_at,"
            " updated_at) VALUES (7, 1, 'lobby', 2, 42, 0, 0)"
        )
        conn.commit()
    finally:
        conn.close()
    store = await Storage.open(db)
    try:
        assert await store.schema_version() == LATEST >= 2
        old = await store.game_rows.active_game(7)
        assert old is not None and not old.config.variants.finite_supply  # the default
        jobs = build_service(store)
        game = await jobs.lobby.create(
            guild_id=1,
            channel_id=8,
            host_id=100,
            host_name="Ann",
            max_players=2,
            locale="en",
            config=GameSettings(Variants(mind_control_helm=True, finite_supply=True)),
        )
        variants = game.row.config.variants
        assert variants.finite_supply and variants.mind_control_helm and not variants.long_game
        await jobs.lobby.join(game, 200, "Bob")
        await jobs.lobby.start(game, 100)
        config = game.state.config
        assert config.finite_supply and config.mind_control_helm
        assert game.state.supply is not None and sum(game.state.supply) <= 50
        stored = await store.game_rows.game(game.id)
        assert stored is not None and stored.config.variants.finite_supply
        rebuilt = await jobs.games.rebuild(stored, game.seats)
        assert rebuilt.state == game.state
    finally:
        await store.close()


async def test_one_active_game_per_channel(store: Storage) -> None:
    jobs = build_service(store)
    game = await new_game(jobs)
    with pytest.raises(ServiceError, match=r"lobby\.busy"):
        await new_game(jobs)
    await jobs.lobby.abort(game, 100, can_manage=True)  # a moderator ends it for everyone
    again = await new_game(jobs)
    assert again.id != game.id


async def test_moves_are_committed_with_chance_and_snapshot(store: Storage) -> None:
    jobs = build_service(store)
    game = await new_game(jobs)
    setup = await store.action_log.actions(game.id)
    assert setup and all(a.actor == -1 for a in setup)  # reveals, first player, the roll
    move = str(legal_actions(game.state)[0])
    async with game.lock:
        result = await jobs.moves.play(game, member_of(game), move)
    assert str(result.steps[0].action) == move and result.steps[0].events
    actions = await store.action_log.actions(game.id)
    assert actions[-1].notation == move and actions[-1].user_id is not None
    snapshot = await store.action_log.snapshot(game.id)
    assert snapshot is not None and snapshot[0] == len(actions)
    assert loads(snapshot[1]) == game.state


async def test_refusals_leave_storage_untouched(store: Storage) -> None:
    jobs = build_service(store)
    game = await new_game(jobs)
    before = await store.action_log.actions(game.id)
    other = 100 if member_of(game) == 200 else 200
    with pytest.raises(IllegalActionError, match="not your turn"):
        await jobs.moves.play(game, other, "end")
    with pytest.raises(ServiceError, match=r"play\.not_seated"):
        await jobs.moves.play(game, 999, "end")
    with pytest.raises(StalePanelError):
        await jobs.moves.play(game, member_of(game), "end", version=game.state.version - 1)
    assert await store.action_log.actions(game.id) == before


async def test_restart_rebuilds_the_same_state_and_undo_history(db_url: str) -> None:
    db = db_url
    store = await Storage.open(db)
    jobs = build_service(store)
    game = await new_game(jobs)
    rng = random.Random(4)
    for _ in range(25):
        await jobs.moves.play(game, member_of(game), rng.choice(legal_actions(game.state)))
        if game.state.over:
            break
    moves = 0
    while not game.game.can_undo(game.to_act()):  # type: ignore[union-attr]
        await jobs.moves.play(game, member_of(game), legal_actions(game.state)[0])
        moves += 1
        assert moves < 50
    state = game.state
    await store.close()

    store2 = await Storage.open(db)
    jobs2 = build_service(store2)
    (again,) = await jobs2.games.load_active()
    assert again.state == state
    undone = await jobs2.moves.undo(again, member_of(again))
    assert undone is not None and again.state.version == state.version - 1
    rows = await store2.action_log.actions(again.id)
    assert len(rows) == len(again.game.log)  # type: ignore[union-attr]
    await store2.close()


async def test_a_failed_commit_leaves_the_game_as_stored(store: Storage, monkeypatch: Any) -> None:
    jobs = build_service(store)
    game = await new_game(jobs)
    state = game.state

    async def disk_full(*args: Any, **kwargs: Any) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(store.action_log, "commit_actions", disk_full)
    with pytest.raises(sqlite3.OperationalError):
        await jobs.moves.play(game, member_of(game), legal_actions(state)[0])
    assert game.state == state  # the in-memory game was put back


async def test_concurrent_transactions_of_two_games_do_not_mix(store: Storage) -> None:
    jobs = build_service(store)
    a = await new_game(jobs, channel=1)
    b = await new_game(jobs, channel=2)

    async def play(game: ActiveGame, n: int) -> None:
        for _ in range(n):
            if game.state.over:
                return
            async with game.lock:
                await jobs.moves.play(game, member_of(game), legal_actions(game.state)[0])

    await asyncio.gather(play(a, 30), play(b, 30))
    for game in (a, b):
        rebuilt = await jobs.games.rebuild(game.row, game.seats)
        assert rebuilt.state == game.state


async def test_ai_seats_always_play_legal_moves(store: Storage) -> None:
    class Broken:
        def choose(self, state: Any) -> Any:
            raise RuntimeError("no idea")

    jobs = build_service(store, ai_factory=lambda level, seed, budget: Broken())
    game = await jobs.lobby.create(
        guild_id=None,
        channel_id=5,
        host_id=1,
        host_name=None,
        max_players=2,
        locale="en",
    )
    await jobs.lobby.add_ai(game, 1, "easy")
    await jobs.lobby.add_ai(game, 1, "hard")
    await jobs.lobby.start(game, 1)
    for _ in range(20):
        assert await jobs.moves.play_ai(game) is not None  # falls back to a random legal move
    assert RandomPlayer(1).choose(game.state) in legal_actions(game.state)


async def test_meta_and_action_rows(store: Storage) -> None:
    assert await store.meta.get_meta("x") is None
    await store.meta.set_meta("x", "1")
    await store.meta.set_meta("x", "2")
    assert await store.meta.get_meta("x") == "2"
    row = ActionRow(seq=0, actor=1, user_id=None, notation="end")
    assert row.events == [] and row.created_at == 0.0


async def test_each_ai_seat_keeps_one_player_for_its_turns(store: Storage) -> None:
    """The AI player of a seat is made once and asked for every move of that seat, so it
    follows the plan it made at its roll (and the hard level's time budget is per turn)."""
    made: list[tuple[str, int]] = []
    asked: dict[int, int] = {}

    class Counting:
        def __init__(self, level: str, seed: int) -> None:
            made.append((level, seed))
            self.player = RandomPlayer(seed)

        def choose(self, state: Any) -> Any:
            asked[id(self)] = asked.get(id(self), 0) + 1
            return self.player.choose(state)

    jobs = build_service(store, ai_factory=lambda level, seed, budget: Counting(level, seed))
    game = await jobs.lobby.create(
        guild_id=None,
        channel_id=6,
        host_id=1,
        host_name=None,
        max_players=2,
        locale="en",
    )
    await jobs.lobby.add_ai(game, 1, "easy")
    await jobs.lobby.add_ai(game, 1, "hard")
    await jobs.lobby.start(game, 1)
    for _ in range(60):
        if game.state.over:
            break
        assert await jobs.moves.play_ai(game) is not None
    assert sorted(level for level, _ in made) == ["easy", "hard"]
    assert len({seed for _, seed in made}) == 2  # each seat has its own seed
    assert sum(asked.values()) == 60 or game.state.over


async def test_a_wrong_snapshot_is_replaced_by_the_replay_and_play_goes_on(
    store: Storage, caplog: pytest.LogCaptureFixture
) -> None:
    jobs = build_service(store)
    game = await new_game(jobs)
    await jobs.moves.play(game, member_of(game), legal_actions(game.state)[0])
    state, count = game.state, len(await store.action_log.actions(game.id))
    async with store.transaction() as tx:  # a snapshot one action behind the log
        await tx.execute("UPDATE snapshots SET seq = ? WHERE game_id = ?", (count - 1, game.id))

    again = build_service(store)  # a restart
    (loaded,) = await again.games.load_active()
    assert loaded.state == state and "differs from the replay" in caplog.text
    assert await store.action_log.snapshot(game.id) == (count, dumps(state))
    await again.moves.play(loaded, member_of(loaded), legal_actions(loaded.state)[0])
    assert len(await store.action_log.actions(game.id)) > count


async def test_a_process_keeps_in_memory_only_the_games_of_its_shards(store: Storage) -> None:
    """``/af mygames`` in one process looks at a member's game in another process's shard:
    it is read from the database each time, never held (it would fall behind)."""
    here = build_service(store, shards=Shards(2, frozenset({0})))
    there = build_service(store, shards=Shards(2, frozenset({1})))
    game = await game_between(there, channel=5, guild=1 << 22)  # a server of shard 1
    seen = await here.games.by_id(game.id)
    assert seen is not None and seen.state == game.state and here.games.active_games() == []
    move = next(a for a in legal_actions(game.state) if str(a).startswith("dock"))
    await there.moves.play(game, member_of(game), move)
    again = await here.games.by_id(game.id)
    assert again is not None and again.state == game.state != seen.state
    assert here.games.active_games() == [] and there.games.active_games() == [game]
    own = await game_between(here, channel=6, guild=0)  # a server of shard 0: kept
    assert here.games.active_games() == [own] and await here.games.by_id(own.id) is own

"""``python -m bot copy-db``: a server's SQLite database moved to PostgreSQL (and back),
every game, seat, log and setting, each game replayed and checked on arrival."""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys
from pathlib import Path

from bot.copy_db import copy_database
from bot.game_config import GameSettings, Variants
from bot.service import GameService
from bot.storage import TABLES, Storage
from engine import legal_actions
from tests.bot.processes import ROOT


async def filled(url: str) -> dict[str, object]:
    """A database as a server's bot leaves it: games over, in play, in a lobby, aborted,
    settings of servers and members, results; returns what to compare after the copy."""
    store = await Storage.open(url)
    try:
        service = GameService(store)
        seeds = random.Random(3)
        service.new_seed = lambda: seeds.randrange(2**62)
        rng = random.Random(5)
        for channel in range(4):
            game = await service.create(
                guild_id=(channel + 1) << 22,
                channel_id=100 + channel,
                host_id=1,
                host_name="Ann",
                max_players=3,
                config=GameSettings(
                    Variants(
                        long_game=channel == 1,
                        mind_control_helm=channel == 2,
                        finite_supply=channel == 3,
                    )
                ),
                locale=("en", "ru", "pl", "en")[channel],
            )
            await service.join(game, 2, "Bob")
            if channel == 3:
                continue  # stays in its lobby
            await service.add_ai(game, 1, "easy")
            await service.start(game, 1)
            for _ in range(60 if channel == 0 else 25):
                if game.state.over:
                    break
                if game.ai_to_act() is not None:
                    await service.play_ai(game)
                else:
                    user = game.user_to_act()
                    await service.play(game, user, rng.choice(legal_actions(game.state)))
            if channel == 2:
                await service.abort(game, 1, can_manage=True)
        await store.set_guild_clock(1 << 22, '{"limit_hours": 12}', 5.0)
        await store.set_away_until(2, 99.5)
        await store.set_prefs(2, notify="dm", dm_channel_id=2**62 + 1, dm_blocked=True, locale="pl")
        await store.set_prefs(3, notify="off")
        async with store.transaction() as tx:  # a result row, as a finished game leaves it
            await tx.execute(
                "INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (1, 0, 1, None, "Ann", 7, 4, 2, 1, 0, 1, "Heinlein Plains"),
            )
        await store.set_meta("commands:1:global", "abc")
        return await contents(store)
    finally:
        await store.close()


async def contents(store: Storage) -> dict[str, object]:
    out: dict[str, object] = {}
    for table in TABLES:
        key = ", ".join(await store.db.primary_key(table))
        rows = await store.db.fetch(f"SELECT * FROM {table} ORDER BY {key}")
        out[table] = [tuple(r) for r in rows]
    return out


async def test_copy_to_postgresql_and_back_keeps_every_row(tmp_path: Path, pg_url: str) -> None:
    source = f"sqlite:///{tmp_path / 'af.db'}"
    before = await filled(source)
    assert len(before["actions"]) > 100  # type: ignore[arg-type]
    lines: list[str] = []
    report = await copy_database(source, pg_url, echo=lines.append)
    assert report.ok, report.problems
    assert report.games_checked == 3 and report.rows["games"] == 4
    assert report.rows == {t: len(before[t]) for t in TABLES}  # type: ignore[arg-type]
    assert "replayed and checked 3 games" in lines[-1]

    target = await Storage.open(pg_url)
    try:
        assert await contents(target) == before
        # The copy is a working database: loads, plays on, and numbers new games after
        # the copied ones.
        service = GameService(target)
        games = await service.load_active()
        assert [g.row.channel_id for g in games] == [100, 101]
        game = games[0]
        if game.ai_to_act() is not None:
            assert await service.play_ai(game) is not None
        else:
            await service.play(game, game.user_to_act(), legal_actions(game.state)[0])
        new = await service.create(
            guild_id=None,
            channel_id=999,
            host_id=1,
            host_name="Ann",
            max_players=2,
            locale="en",
        )
        assert new.id > max(row[0] for row in before["games"])  # type: ignore[attr-defined]
    finally:
        await target.close()

    back = f"sqlite:///{tmp_path / 'back.db'}"
    again = await copy_database(pg_url, back, echo=lambda _: None)
    assert again.ok and again.games_checked == 3


async def test_copy_refuses_a_target_with_data_and_reports_a_broken_game(
    tmp_path: Path, pg_url: str
) -> None:
    source = tmp_path / "af.db"
    await filled(f"sqlite:///{source}")
    with sqlite3.connect(source) as conn:  # a log that no longer replays: one action lost
        conn.execute(
            "DELETE FROM actions WHERE game_id = 1 AND seq = (SELECT MAX(seq) FROM actions"
            " WHERE game_id = 1)"
        )
    cli = [sys.executable, "-m", "bot", "copy-db", "--from", f"sqlite:///{source}"]
    done = subprocess.run(
        [*cli, "--to", pg_url], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 1, done.stderr
    assert "game 1: the replay of its" in done.stderr and "do not switch over" in done.stderr
    assert "copy-db: " in done.stdout and "games" in done.stdout

    again = subprocess.run(
        [*cli, "--to", pg_url], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert again.returncode == 2 and "copies into an empty database" in again.stderr
    assert again.stderr.count("\n") == 1
    bad = subprocess.run(
        [*cli, "--to", "mysql://x"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert bad.returncode == 2 and "must start with sqlite:/// or postgresql" in bad.stderr

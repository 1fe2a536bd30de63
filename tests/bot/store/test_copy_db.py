"""``python -m bot copy-db``: a server's SQLite database moved to PostgreSQL (and back),
every game, seat, log and setting, each game replayed and checked on arrival."""

from __future__ import annotations

import asyncio
import random
import socket
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import asyncpg
import pytest

from bot.__main__ import main
from bot.factory import build_service
from bot.play import outbox
from bot.store.backup import BackupError, backup, restore
from bot.store.copy_db import copy_database
from bot.store.game_config import GameSettings, Variants
from bot.store.rating_rules import Departure, Holder, SeatPlay
from bot.store.rating_store import rate_game, record_departure
from bot.store.storage import TABLES, Storage
from engine import legal_actions
from tests.bot.processes import ROOT


async def filled(url: str) -> dict[str, object]:
    """A database as a server's bot leaves it: games over, in play, in a lobby, aborted,
    settings of servers and members, results; returns what to compare after the copy."""
    store = await Storage.open(url)
    try:
        seeds = random.Random(3)
        jobs = build_service(store, new_seed=lambda: seeds.randrange(2**62))
        rng = random.Random(5)
        for channel in range(4):
            game = await jobs.lobby.create(
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
            await jobs.lobby.join(game, 2, "Bob")
            if channel == 3:
                continue  # stays in its lobby
            await jobs.lobby.add_ai(game, 1, "easy")
            await jobs.lobby.start(game, 1)
            for _ in range(60 if channel == 0 else 25):
                if game.state.over:
                    break
                if game.ai_to_act() is not None:
                    await jobs.moves.play_ai(game)
                else:
                    user = game.user_to_act()
                    await jobs.moves.play(game, user, rng.choice(legal_actions(game.state)))
            if channel == 2:
                await jobs.lobby.abort(game, 1, can_manage=True)
        await store.server_settings.set_guild_clock(1 << 22, '{"limit_hours": 12}', 5.0)
        await store.members.set_away_until(2, 99.5)
        await store.members.set_prefs(
            2, notify="dm", dm_channel_id=2**62 + 1, dm_blocked=True, locale="pl"
        )
        await store.members.set_prefs(3, notify="off")
        async with store.transaction() as tx:  # results and ratings, as a finished game
            await tx.executemany(
                "INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (1, 0, 1, None, "Ann", 7, 4, 2, 1, 0, 1, "Heinlein Plains", 1, 9, 8, 1, ""),
                    (
                        1,
                        1,
                        None,
                        "easy",
                        "AI 1",
                        5,
                        5,
                        0,
                        0,
                        0,
                        0,
                        None,
                        2,
                        9,
                        0,
                        9,
                        '[[null,"easy",9]]',
                    ),
                ],
            )
            seats = [SeatPlay(0, 1, 1, None, 9, 8, 1), SeatPlay(1, 2, None, "easy", 9, 0, 9)]
            await rate_game(tx, store.db.dialect, 1, 1 << 22, seats, 5.0)
            gone = Departure(2, 1, "left", (Holder(0, 3), Holder(2, None, "hard")), "Bob")
            await record_departure(tx, store.db.dialect, 2, 1 << 22, gone, 6.0)
        # A delivery of no game: a server's new season, announced.
        season = outbox.announcement(1 << 22, 7, 8.0, "season.started_first", {}, locale="pl")
        await store.deliveries.queue([season])
        await store.meta.set_meta("commands:1:global", "abc")
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
        jobs = build_service(target)
        games = await jobs.games.load_active()
        assert [g.row.channel_id for g in games] == [100, 101]
        game = games[0]
        if game.ai_to_act() is not None:
            assert await jobs.moves.play_ai(game) is not None
        else:
            await jobs.moves.play(game, game.user_to_act(), legal_actions(game.state)[0])
        new = await jobs.lobby.create(
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
    # What was copied, per status of the games: 2 playing (channels 100, 101), 1 aborted,
    # 1 in its lobby, with their seats.
    table = {line.split()[0]: line.split()[1:] for line in done.stdout.splitlines()[1:]}
    assert table["playing"][:2] == ["2", "6"] and table["lobby"] == ["1", "2", "0"]
    assert table["aborted"][:2] == ["1", "3"] and table["total"][:2] == ["4", "11"]
    assert int(table["total"][2]) > 100

    again = subprocess.run(
        [*cli, "--to", pg_url], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert again.returncode == 2 and "copies into an empty database" in again.stderr
    assert again.stderr.count("\n") == 1
    bad = subprocess.run(
        [*cli, "--to", "mysql://x"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert bad.returncode == 2 and "must start with sqlite:/// or postgresql" in bad.stderr


# ---- a source that is no database of the bot: refused, nothing created ---------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _non_bot_sqlite(path: Path) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE notes (text TEXT)")


def _nothing(path: Path) -> None:
    pass


SOURCES: dict[str, tuple[Callable[[Path], object], str]] = {
    "missing": (_nothing, "there is no file"),
    "empty": (lambda path: path.write_bytes(b""), "is an empty file, not a database"),
    "text": (lambda path: path.write_text("hello\n"), "is not a SQLite database"),
    "another program's": (_non_bot_sqlite, "is a SQLite database, but not this bot's"),
}


@pytest.mark.parametrize("kind", list(SOURCES))
def test_copy_refuses_a_source_that_is_no_database_of_the_bot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    make, why = SOURCES[kind]
    source = tmp_path / "data" / "alienfrontiers.db"
    if kind != "missing":
        source.parent.mkdir()
        make(source)
    before = sorted(tmp_path.rglob("*"))
    target = tmp_path / "copy.db"
    code = main(["copy-db", "--from", f"sqlite:///{source}", "--to", f"sqlite:///{target}"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and why in err and f"sqlite:///{source}" in err
    assert "nothing was copied" in err
    assert sorted(tmp_path.rglob("*")) == before  # no target, no source made


def test_copy_refuses_a_source_newer_than_the_bot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "af.db"

    async def made() -> None:
        store = await Storage.open(source)
        await store.close()

    asyncio.run(made())
    with sqlite3.connect(source) as conn:
        conn.execute("PRAGMA user_version = 99")
    target = tmp_path / "copy.db"
    code = main(["copy-db", "--from", f"sqlite:///{source}", "--to", f"sqlite:///{target}"])
    err = capsys.readouterr().err
    assert code == 2 and "newer than this bot's" in err and err.count("\n") == 1
    assert not target.exists()


def test_copy_from_a_relative_path_that_is_not_there_says_how_to_write_an_absolute_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code = main(["copy-db", "--from", "sqlite:///data/alienfrontiers.db", "--to", "sqlite:///x.db"])
    err = capsys.readouterr().err
    assert code == 2 and "four slashes" in err and str(tmp_path) in err
    assert list(tmp_path.iterdir()) == []


def test_copy_refuses_an_unreachable_or_empty_postgresql_and_creates_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], pg_url: str
) -> None:
    target = tmp_path / "copy.db"
    unreachable = f"postgresql://af:secret@127.0.0.1:{_free_port()}/alienfrontiers"
    code = main(["copy-db", "--from", unreachable, "--to", f"sqlite:///{target}"])
    err = capsys.readouterr().err
    assert code == 2 and "cannot connect" in err and err.count("\n") == 1
    assert "secret" not in err and "af:***@127.0.0.1" in err  # the password is not printed
    code = main(["copy-db", "--from", pg_url, "--to", f"sqlite:///{target}"])
    err = capsys.readouterr().err
    assert code == 2 and "holds none of this bot's tables" in err
    assert not target.exists()

    async def tables() -> list[str]:
        conn = await asyncpg.connect(pg_url)
        try:
            rows = await conn.fetch(
                "SELECT table_name FROM information_schema.tables"
                " WHERE table_schema = current_schema()"
            )
        finally:
            await conn.close()
        return [r[0] for r in rows]

    assert asyncio.run(tables()) == []  # reading it created nothing there either


# ---- backup and restore ---------------------------------------------------------------------


async def test_a_backup_taken_while_games_are_played_restores_to_the_same_games(
    tmp_path: Path,
) -> None:
    source = f"sqlite:///{tmp_path / 'af.db'}"
    await filled(source)
    store = await Storage.open(source)
    jobs = build_service(store)
    games = await jobs.games.load_active()
    rng = random.Random(9)
    backups: list[Path] = []
    playing = [True]

    async def play() -> int:
        moves = 0
        while playing[0] or moves < 20:
            progressed = False
            for game in games:
                if game.state.over:
                    continue
                if game.ai_to_act() is not None:
                    await jobs.moves.play_ai(game)
                else:
                    actions = legal_actions(game.state)
                    await jobs.moves.play(game, game.user_to_act(), rng.choice(actions))
                moves += 1
                progressed = True
            if not progressed:
                break
            await asyncio.sleep(0)
        return moves

    async def save() -> None:
        for n in range(5):
            backups.append(
                (await asyncio.to_thread(backup, source, f"{tmp_path / 'backups'}/")).path
            )
            await asyncio.sleep(0.01 * n)
        playing[0] = False

    try:
        moves, _ = await asyncio.gather(play(), save())
        assert moves >= 20
        final = await contents(store)
    finally:
        await store.close()
    assert len(set(backups)) == 5 and all(b.parent == tmp_path / "backups" for b in backups)
    assert not list((tmp_path / "backups").glob(".*"))  # no partial file left
    # Each backup is a consistent database of the bot: every game's log replays to its
    # snapshot (copy-db checks exactly that).
    for n, saved in enumerate(backups):
        report = await copy_database(
            f"sqlite:///{saved}", f"sqlite:///{tmp_path / f'check{n}.db'}", echo=lambda _: None
        )
        assert report.ok, report.problems
        assert report.games_checked == 3
    # The last one, taken once the moves stopped, restores to the very same games.
    last = backup(source, tmp_path / "last.db")
    with pytest.raises(BackupError, match="exists already"):
        backup(source, tmp_path / "last.db")
    restored = tmp_path / "restored" / "af.db"
    done = restore(last.path, f"sqlite:///{restored}", new=True)
    assert done.games == 4 and done.actions == last.actions
    again = await Storage.open(f"sqlite:///{restored}")
    try:
        assert await contents(again) == final
    finally:
        await again.close()


def test_backup_and_restore_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATABASE_URL", "sqlite:///data/af.db")
    assert main(["backup", "saved.db"]) == 2  # nothing to back up yet
    assert "there is no file" in capsys.readouterr().err and not (tmp_path / "saved.db").exists()
    asyncio.run(filled("sqlite:///data/af.db"))
    assert main(["backup", "saved.db"]) == 0
    assert "backup: 4 games" in capsys.readouterr().out
    assert main(["restore", "saved.db"]) == 2  # would replace a database with games
    assert "--yes" in capsys.readouterr().err
    assert main(["restore", "saved.db", "--database", "sqlite:///new/af.db", "--new"]) == 0
    assert "restore: 4 games" in capsys.readouterr().out
    assert main(["restore", "saved.db", "--yes"]) == 0
    capsys.readouterr()
    other = tmp_path / "other.db"  # another program's database is never replaced
    _non_bot_sqlite(other)
    assert main(["restore", "saved.db", "--database", f"sqlite:///{other}"]) == 2
    assert "not a database of this bot" in capsys.readouterr().err
    assert main(["restore", "saved.db", "--yes", "--database", f"sqlite:///{other}"]) == 2
    assert "not a database of this bot" in capsys.readouterr().err
    with sqlite3.connect(other) as conn:
        assert conn.execute("SELECT COUNT(*) FROM notes").fetchone() == (0,)
    capsys.readouterr()
    assert main(["backup", "x.db", "--database", "postgresql://af@localhost/af"]) == 2
    assert "pg_dump" in capsys.readouterr().err

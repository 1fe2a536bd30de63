"""The admin's commands given what a server admin gets wrong: a wrong path, another
program's file, a database in use, a backup of a newer bot, a typo. Each answers with
one line starting ``error:`` and exit code 2, never hangs, never prints a traceback, and
changes nothing it was pointed at (the README's commands test runs the good cases).

Most run ``main(argv)`` in the process; a subprocess where only one shows the defect
(a process that never exits, a traceback printed by a thread at exit).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.play.service import GameService
from bot.render.demo import check_folder
from bot.store.db import open_database
from bot.store.db_lock import DatabaseLock
from bot.store.migrations import LATEST, MIGRATIONS
from bot.store.storage import Storage
from bot.text import catalogues
from bot.text.i18n import LOCALES_DIR
from tests.bot.processes import ROOT, TOKEN, BotProcess
from tests.discord_fake import FakeDiscord
from tests.discord_fake.launch import ENV

# Everything the commands read from the environment: each test starts without them.
SETTINGS = ("DISCORD_TOKEN", "DATABASE_URL", "HEALTH_FILE", "SYNC_COMMANDS", "DEV_GUILD_ID")
DB = "data/alienfrontiers.db"


def files(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` and a digest of its bytes."""
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def one_error(err: str) -> None:
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err


def no_thread_left(running: set[threading.Thread]) -> None:
    """No thread the command started still runs: one that is not a daemon would keep the
    process from ever ending (an unclosed aiosqlite connection's, for one)."""
    started = [t for t in threading.enumerate() if t not in running and not t.daemon]
    for thread in started:
        thread.join(timeout=5)
    assert not [t for t in started if t.is_alive()], started


async def make_database(path: Path, games: int = 1) -> None:
    """The bot's database with ``games`` games in their lobby."""
    store = await Storage.open(path)
    try:
        service = GameService(store)
        for channel in range(games):
            await service.create(
                guild_id=1, channel_id=10 + channel, host_id=1, host_name="Ann",
                max_players=2, locale="en",
            )  # fmt: skip
    finally:
        await store.close()


def foreign(path: Path) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE users (name TEXT)")
        conn.execute("INSERT INTO users VALUES ('ann')")
    conn.close()


@pytest.fixture
def admin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A server admin's folder, and the current one: the bot's database with a game, a
    README and a docs folder beside it, another program's database; nothing of the bot's
    in the environment (nor left there by a .env a command loads)."""
    for name in SETTINGS:
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    asyncio.run(make_database(tmp_path / DB))
    (tmp_path / "README.md").write_text("# my notes\n")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "notes.txt").write_text("mine\n")
    foreign(tmp_path / "other.db")
    return tmp_path


# ---- copy-db --------------------------------------------------------------------------------


def test_copy_db_to_a_text_file_or_a_folder_is_refused_and_the_command_ends(
    admin: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = files(admin)
    for target, why in (
        ("README.md", "is not a SQLite database"),
        ("docs", "is a folder"),
        ("README.md/x.db", "is a file, not a folder"),
    ):
        running = set(threading.enumerate())
        assert main(["copy-db", "--from", f"sqlite:///{DB}", "--to", f"sqlite:///{target}"]) == 2
        no_thread_left(running)
        err = capsys.readouterr().err
        one_error(err)
        assert why in err and "nothing was copied" in err
    assert files(admin) == before


def test_copy_db_never_writes_into_another_programs_database(
    admin: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = files(admin)
    assert main(["copy-db", "--from", f"sqlite:///{DB}", "--to", "sqlite:///other.db"]) == 2
    err = capsys.readouterr().err
    one_error(err)
    assert "another program's tables (users)" in err
    assert files(admin) == before


async def old_database(path: Path) -> None:
    """A database of the bot at schema 6 (before ratings), with a game in play: the game is
    played on today's schema, then its rows are copied into a database migrated to 6 only
    (the columns both schemas have), so the helper holds whatever migrations come later."""
    today = path.with_name("today.db")
    store = await Storage.open(today)
    try:
        service = GameService(store)
        game = await service.create(
            guild_id=1, channel_id=10, host_id=1, host_name=None, max_players=2, locale="en"
        )
        await service.add_ai(game, 1, "easy")
        await service.add_ai(game, 1, "easy")
        await service.start(game, 1)
        for _ in range(6):
            await service.play_ai(game)
    finally:
        await store.close()
    old = await open_database(path)
    try:
        await old.migrate(MIGRATIONS[:6])
    finally:
        await old.close()
    with sqlite3.connect(path) as conn:
        conn.execute("ATTACH DATABASE ? AS today", (str(today),))
        for (table,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        ).fetchall():
            old_columns = {r[1] for r in conn.execute(f"PRAGMA main.table_info({table})")}
            new_columns = [r[1] for r in conn.execute(f"PRAGMA today.table_info({table})")]
            shared = ", ".join(c for c in new_columns if c in old_columns)
            conn.execute(f"INSERT INTO main.{table} ({shared}) SELECT {shared} FROM today.{table}")
        conn.commit()
        conn.execute("DETACH DATABASE today")
        assert conn.execute("PRAGMA user_version").fetchone() == (6,)
    conn.close()
    for leftover in path.parent.glob("today.db*"):
        leftover.unlink()


def test_copy_db_migrates_the_copy_of_an_older_database_never_the_source(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert LATEST > 6  # this source is behind
    source = tmp_path / "old.db"
    asyncio.run(old_database(source))
    before = files(tmp_path)
    code = main(
        ["copy-db", "--from", f"sqlite:///{source}", "--to", f"sqlite:///{tmp_path / 'new.db'}"]
    )
    out = capsys.readouterr().out
    after = files(tmp_path)
    assert {name: after[name] for name in before} == before  # the source, byte for byte
    assert code == 0, out
    assert "migrated from schema version 6" in out and "1 game replayed and checked" in out
    with sqlite3.connect(source) as conn:
        assert conn.execute("PRAGMA user_version").fetchone() == (6,)
    conn.close()
    with sqlite3.connect(tmp_path / "new.db") as conn:
        assert conn.execute("PRAGMA user_version").fetchone() == (LATEST,)
        assert conn.execute("SELECT COUNT(*) FROM seasons").fetchone() == (0,)
    conn.close()


def test_copy_db_takes_a_target_the_bots_only_started_on_and_refuses_one_with_games(
    admin: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    started = admin / "started.db"

    async def bots_started() -> None:  # what a bot writes when it starts: its tables, meta
        store = await Storage.open(started)
        await store.set_meta("commands:1:global", "digest")
        await store.close()

    asyncio.run(bots_started())
    assert main(["copy-db", "--from", f"sqlite:///{DB}", "--to", f"sqlite:///{started}"]) == 0
    assert "every row copied" in capsys.readouterr().out
    again = main(["copy-db", "--from", f"sqlite:///{DB}", "--to", f"sqlite:///{started}"])
    err = capsys.readouterr().err
    assert again == 2
    one_error(err)
    assert "holds data already (1 game and" in err and "copies into an empty database" in err


def test_copy_db_refuses_a_postgresql_target_a_bot_is_connected_to(
    admin: Path, pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    async def with_a_bot_connected() -> int:
        bot = await Storage.open(pg_url)  # a bot started on it: tables, and a connection
        try:
            return await asyncio.to_thread(
                main, ["copy-db", "--from", f"sqlite:///{DB}", "--to", pg_url]
            )
        finally:
            await bot.close()

    assert asyncio.run(with_a_bot_connected()) == 2
    err = capsys.readouterr().err
    one_error(err)
    assert "other connection to the database" in err and "stop them first" in err
    assert main(["copy-db", "--from", f"sqlite:///{DB}", "--to", pg_url]) == 0  # bot gone

    async def from_it_with_a_bot_connected() -> int:  # and as the source
        bot = await Storage.open(pg_url)
        try:
            return await asyncio.to_thread(
                main, ["copy-db", "--from", pg_url, "--to", "sqlite:///back.db"]
            )
        finally:
            await bot.close()

    assert asyncio.run(from_it_with_a_bot_connected()) == 2
    assert "stop them first" in capsys.readouterr().err
    assert not (admin / "back.db").exists()


# ---- restore, backup, ratings ---------------------------------------------------------------


async def test_restore_is_refused_while_a_bot_runs_on_the_database(
    admin: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert await asyncio.to_thread(main, ["backup", "saved.db"]) == 0
    restore = ["restore", "saved.db", "--yes"]
    async with FakeDiscord() as fake:
        bot = await BotProcess(fake, {"DATABASE_URL": f"sqlite:///{admin / DB}"}, admin).start()
        try:
            await bot.ready()
            capsys.readouterr()
            assert await asyncio.to_thread(main, restore) == 2
            err = capsys.readouterr().err
            one_error(err)
            assert "in use" in err and "stop the bot first" in err
        finally:
            await bot.stop()
    assert await asyncio.to_thread(main, restore) == 0
    assert "restore: 1 game, 0 actions" in capsys.readouterr().out


def test_the_bot_does_not_start_while_a_restore_holds_the_database(
    admin: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    with DatabaseLock((admin / DB).absolute()).acquire(exclusive=True):
        assert main([]) == 2
    err = capsys.readouterr().err
    one_error(err)
    assert "being restored or copied" in err


def test_restore_refuses_a_newer_bots_backup_and_any_file_not_the_bots(
    admin: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["backup", "saved.db"]) == 0
    with sqlite3.connect(admin / "saved.db") as conn:
        conn.execute(f"PRAGMA user_version = {LATEST + 1}")
    conn.close()
    before = files(admin)
    assert main(["restore", "saved.db", "--yes", "--database", "sqlite:///fresh.db"]) == 2
    err = capsys.readouterr().err
    one_error(err)
    assert "made by a newer version of the bot" in err
    assert main(["backup", "ok.db"]) == 0
    capsys.readouterr()
    before = files(admin)
    for target in ("other.db", "README.md", "docs"):
        assert main(["restore", "ok.db", "--yes", "--database", f"sqlite:///{target}"]) == 2
        one_error(capsys.readouterr().err)
    assert files(admin) == before


def test_backup_into_a_new_name_makes_a_folder_and_counts_in_words(
    admin: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["backup", "mybackups"]) == 0
    out = capsys.readouterr().out
    (saved,) = (admin / "mybackups").iterdir()
    assert saved.name.startswith("alienfrontiers-") and saved.suffix == ".db"
    assert out.startswith("backup: 1 game, 0 actions, ") and str(saved.name) in out
    assert main(["backup", "README.md/x.db"]) == 2
    one_error(capsys.readouterr().err)


def test_ratings_rebuild_of_a_database_that_is_not_there_creates_nothing(
    admin: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["ratings", "rebuild", "--database", "mysql://x"]) == 2
    assert "--database must start with sqlite:///" in capsys.readouterr().err
    before = files(admin)
    for url in ("sqlite:///typo.db", "sqlite:///other.db", "sqlite:///docs"):
        assert main(["ratings", "rebuild", "--database", url]) == 2
        err = capsys.readouterr().err
        one_error(err)
        assert "nothing was changed" in err
    assert files(admin) == before


def test_the_bot_does_not_start_on_another_programs_database(
    admin: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    before = files(admin)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("DATABASE_URL", "sqlite:///other.db")
    assert main([]) == 2
    err = capsys.readouterr().err
    one_error(err)
    assert "another program's database (tables: users)" in err
    assert files(admin) == before


def test_the_bot_on_a_text_file_as_database_says_so_and_exits(
    admin: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    before = files(admin)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    for url in ("sqlite:///README.md", "sqlite:///docs"):
        monkeypatch.setenv("DATABASE_URL", url)
        running = set(threading.enumerate())
        assert main([]) == 2
        no_thread_left(running)
        one_error(capsys.readouterr().err)
    assert files(admin) == before


# ---- the demo, the settings file, health ----------------------------------------------------


def test_the_demo_refuses_a_file_a_folder_it_cannot_make_or_one_of_other_files(
    admin: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = files(admin)
    for folder, why in (
        ("README.md", "is a file"),
        ("README.md/out", "is a file"),
        ("docs", "files that are not a demo's (notes.txt)"),
    ):
        assert main(["--demo", folder]) == 2
        err = capsys.readouterr().err
        one_error(err)
        assert why in err
    assert files(admin) == before


def test_the_demo_prints_plain_text_and_plays_again_in_its_folder(
    admin: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--demo", "out", "--players", "2", "--level", "random"]) == 0
    out = capsys.readouterr().out
    assert "wins" in out and "**" not in out
    assert "**" not in (admin / "out" / "result.txt").read_text()
    # A command that read its database left a lock beside it: still the demo's folder.
    copied = ["copy-db", "--from", "sqlite:///out/demo.db", "--to", "sqlite:///copy.db"]
    assert main(copied) == 0
    assert (admin / "out" / "demo.db.lock").exists()
    assert check_folder("out") == Path("out")  # what the demo asks first, again


def test_demo_options_without_the_demo_and_a_missing_settings_file_are_refused(
    admin: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)  # the bot would start: it must not
    with pytest.raises(SystemExit) as stopped:
        main(["--players", "2"])
    assert stopped.value.code == 2
    assert "--players and --level go with --demo" in capsys.readouterr().err
    for argv in ([], ["health"], ["backup", "b/"], ["ratings", "rebuild"]):
        assert main([*argv, "--env-file", "prod.env"]) == 2
        err = capsys.readouterr().err
        one_error(err)
        assert "--env-file prod.env: there is no such file" in err


def test_health_reads_the_heartbeat_file_from_the_env_file(
    admin: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["health"]) == 2  # nothing says where the heartbeat is
    one_error(capsys.readouterr().err)
    (admin / ".env").write_text("HEALTH_FILE=beat.json\n")
    assert main(["health"]) == 1  # the bot is not running: no heartbeat
    assert "no heartbeat at beat.json" in capsys.readouterr().err
    (admin / "beat.json").write_text(json.dumps({"deliveries": {"pending": 2, "failed": 0}}))
    assert main(["health"]) == 0
    assert capsys.readouterr().out.startswith("healthy; deliveries: 2 pending")


# ---- the catalogues, the benchmarks, the commands -------------------------------------------


def test_the_catalogues_refuse_a_bad_language_code_and_an_unknown_language(
    capsys: pytest.CaptureFixture[str],
) -> None:
    before = sorted(p.name for p in LOCALES_DIR.iterdir())
    for argv, why in (
        (["init", "zz_bad"], "is not a language code"),
        (["init", "zz"], "no language CLDR knows"),
        (["init", "ru"], "ru.po exists already"),
        (["missing", "xx"], "there is no xx.po"),
    ):
        assert catalogues.main(argv) == 2
        err = capsys.readouterr().err
        one_error(err)
        assert why in err
    assert sorted(p.name for p in LOCALES_DIR.iterdir()) == before
    assert catalogues.DESCRIPTION.rstrip().endswith(".")  # a whole sentence in --help


def test_the_benchmarks_say_what_to_install_without_the_test_tools() -> None:
    scripts = ("taps", "pbp_sim", "ai_anchors")
    code = (
        "import runpy, sys\n"
        "sys.modules['tqdm'] = None\n"  # as if only the bot were installed
        f"for name in {scripts!r}:\n"
        "    sys.argv = [name, '--help']\n"
        "    try:\n"
        "        runpy.run_path(f'tests/benchmarks/{name}.py', run_name='__main__')\n"
        "    except SystemExit as stop:\n"
        "        print(stop.code)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    lines = done.stdout.splitlines()
    assert len(lines) == 3 and "Traceback" not in done.stderr, done
    for line in lines:
        assert "the benchmarks need the test tools" in line and "'.[test]'" in line


def test_commands_clear_needs_a_token_and_a_server_id(
    admin: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["commands", "clear"]) == 2
    assert "DISCORD_TOKEN is not set" in capsys.readouterr().err
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    assert main(["commands", "clear", "--guild", "my-server"]) == 2
    err = capsys.readouterr().err
    one_error(err)
    assert "--guild must be a server id" in err


async def test_commands_clear_removes_the_commands_and_the_next_start_registers_them(
    admin: Path,
) -> None:
    async def store_digest() -> None:
        store = await Storage.open(admin / DB)
        await store.set_meta(f"commands:{fake.application_id}:global", "synced")
        await store.close()

    async def clear(*args: str) -> tuple[int, str, str]:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.discord_fake.launch", "commands", "clear", *args,
            cwd=admin,
            env={**os.environ, "PYTHONPATH": str(ROOT), ENV: fake.base_url, "DISCORD_TOKEN": TOKEN},
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        out, err = await asyncio.wait_for(proc.communicate(), 60)
        return proc.returncode or 0, out.decode(), err.decode()

    async with FakeDiscord() as fake:
        await store_digest()
        code, out, err = await clear()
        assert code == 0, err
        assert "removed everywhere" in out and "registers them again at its next start" in out
        (put,) = fake.find(method="PUT", route="/applications/{application_id}/commands")
        assert put.json == []
        code, out, err = await clear("--guild", "42")  # no such server
        assert code == 2 and out == ""
        one_error(err)
        assert "is not in server 42" in err
    with sqlite3.connect(admin / DB) as conn:  # forgotten: the next start syncs them
        assert conn.execute("SELECT COUNT(*) FROM meta").fetchone() == (0,)
    conn.close()

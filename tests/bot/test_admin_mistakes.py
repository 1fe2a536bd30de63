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
import uuid
from pathlib import Path
from typing import Any, cast

import asyncpg
import discord
import pytest

from bot.__main__ import hold_database, main
from bot.discord.health import Heartbeat
from bot.factory import build_service
from bot.render.__main__ import main as render_main
from bot.render.sample_states import check_folder
from bot.settings import Settings, SettingsError, from_env
from bot.store import backup as backup_module
from bot.store import db as db_module
from bot.store.db import open_database
from bot.store.db_inspect import database_name
from bot.store.db_lock import DatabaseLock
from bot.store.migrations import LATEST, MIGRATIONS
from bot.store.storage import Storage
from bot.text import catalogues
from bot.text.i18n import LOCALES_DIR
from tests.bot.processes import ROOT, TOKEN, BotProcess
from tests.discord_fake import FakeDiscord
from tests.discord_fake.launch import ENV

# Everything the commands read from the environment: each test starts without them.
SETTINGS = (
    "DISCORD_TOKEN",
    "DATABASE_URL",
    "HEALTH_FILE",
    "SYNC_COMMANDS",
    "DEV_GUILD_ID",
    "REMINDER_CHECK_SECONDS",
    "AI_PAUSE_SECONDS",
    "AI_BUDGET_MS",
    "PGUSER",
    "PGPASSWORD",
)
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
        jobs = build_service(store)
        for channel in range(games):
            await jobs.lobby.create(
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
        jobs = build_service(store)
        game = await jobs.lobby.create(
            guild_id=1, channel_id=10, host_id=1, host_name=None, max_players=2, locale="en"
        )
        await jobs.lobby.add_ai(game, 1, "easy")
        await jobs.lobby.add_ai(game, 1, "easy")
        await jobs.lobby.start(game, 1)
        for _ in range(6):
            await jobs.moves.play_ai(game)
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
        await store.meta.set_meta("commands:1:global", "digest")
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
    env = {"DATABASE_URL": f"sqlite:///{admin / DB}"}
    async with FakeDiscord() as fake:
        bot = await BotProcess(fake, env, admin).start()
        try:
            await bot.ready()
            assert bot.log is not None  # the bot says which database it opened
            assert f"database: {(admin / DB).absolute()} (1 game)" in str(bot.log)
            capsys.readouterr()
            assert await asyncio.to_thread(main, restore) == 2
            err = capsys.readouterr().err
            one_error(err)
            assert "in use" in err and "stop the bot first" in err
            # A second bot on the same file (a service, and a run by hand) does not start.
            second = await BotProcess(fake, env, admin).start()
            assert await second.wait() == 2
            last = str(second.log).splitlines()[-1]
            assert last.startswith("error: another bot is running on") and str(admin / DB) in last
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
        await store.meta.set_meta(f"commands:{fake.application_id}:global", "synced")
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


# ---- the second pass: links, URLs, locks held by others -------------------------------------


def refuse_discord(monkeypatch: pytest.MonkeyPatch) -> None:
    """A token, and a Discord that refuses it: a bot started in the test process stops
    with one line if it gets as far as connecting (it must not, in these tests)."""

    async def refuse(self: discord.Client, token: str, **kwargs: Any) -> None:
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setattr(discord.Client, "start", refuse)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_restore_and_copy_db_see_a_bot_through_a_symbolic_link_either_way(
    admin: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["backup", "saved.db"]) == 0
    (admin / "link.db").symlink_to(admin / DB)
    (admin / "datalink").symlink_to(admin / "data")
    real, link = f"sqlite:///{DB}", "sqlite:///link.db"
    folder = "sqlite:///datalink/alienfrontiers.db"
    before = digest(admin / DB)
    for bot_on, command_on in ((link, real), (real, link), (folder, real), (real, folder)):
        with hold_database(Settings(database_url=bot_on)):  # as a running bot holds it
            capsys.readouterr()
            assert main(["restore", "saved.db", "--yes", "--database", command_on]) == 2
            err = capsys.readouterr().err
            one_error(err)
            assert "in use" in err and "stop the bot first" in err
            copy = ["copy-db", "--from", command_on, "--to", "sqlite:///copy.db"]
            assert main(copy) == 2
            err = capsys.readouterr().err
            one_error(err)
            assert "in use" in err
    assert digest(admin / DB) == before and not (admin / "copy.db").exists()


def test_a_database_file_with_two_names_is_refused_by_the_bot_restore_and_copy_db(
    admin: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["backup", "saved.db"]) == 0
    os.link(admin / DB, admin / "hard.db")  # one file, two names: no one place for a lock
    before = digest(admin / DB)
    refuse_discord(monkeypatch)
    for argv in (
        [],
        ["restore", "saved.db", "--yes"],
        ["copy-db", "--from", "sqlite:///hard.db", "--to", "sqlite:///copy.db"],
        ["ratings", "rebuild"],
    ):
        capsys.readouterr()
        assert main(argv) == 2
        err = capsys.readouterr().err
        one_error(err)
        assert "names (hard links)" in err and "-samefile" in err
    assert digest(admin / DB) == before and not (admin / "copy.db").exists()


SECRET = "s3cr3t"
BAD_URLS = {  # a URL as an admin writes it, and what the one line says
    f"postgresql://af:{SECRET}:w/rd@127.0.0.1:54329/alienfrontiers": "holds a /, ? or #",
    f"postgresql://af:{SECRET}@127.0.0.1:99999/alienfrontiers": "is not a port",
    f"postgresql://af:{SECRET}@[::1/alienfrontiers": "IPv6 address",
    f"postgresql://af:{SECRET}@ss@127.0.0.1:54329/alienfrontiers": "holds an @",
    f"postgresq://af:{SECRET}@127.0.0.1:54329/alienfrontiers": "must start with sqlite:///",
}


def test_a_malformed_postgresql_url_is_one_line_that_never_shows_its_password(
    admin: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    refuse_discord(monkeypatch)
    for url, why in BAD_URLS.items():
        monkeypatch.setenv("DATABASE_URL", url)
        for argv in (
            [],
            ["copy-db", "--from", f"sqlite:///{DB}", "--to", url],
            ["ratings", "rebuild"],
            ["backup", "b.db", "--database", url],
        ):
            capsys.readouterr()
            assert main(argv) == 2, (argv, url)
            err = capsys.readouterr().err
            one_error(err)
            assert why in err and "af:***@" in err, err
            assert SECRET not in err and "rd@" not in err
            if why.startswith("holds"):
                assert "percent-encoded (@ as %40" in err and "PGPASSWORD" in err
    shown = database_name(f"postgresql://af:{SECRET}@db/af?password={SECRET}")
    assert shown == "postgresql://af:***@db/af?password=***"  # as the start-up log names it


async def a_role(pg_url: str, *sql: str) -> str:
    """A login role of its own on the test's database (as a bot's role, not a superuser:
    it sees only what it is granted), after running ``sql`` as the superuser."""
    role = f"af_{uuid.uuid4().hex[:8]}"
    conn = await asyncpg.connect(pg_url)
    try:
        await conn.execute(f"CREATE ROLE {role} LOGIN")
        await conn.execute(f"GRANT CREATE ON SCHEMA public TO {role}")
        for statement in sql:
            await conn.execute(statement)
    finally:
        await conn.close()
    return role


async def relations(pg_url: str) -> set[str]:
    conn = await asyncpg.connect(pg_url)
    try:
        rows = await conn.fetch(
            "SELECT relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')"
            " AND n.nspname NOT LIKE 'pg\\_%'"
        )
    finally:
        await conn.close()
    return {str(r[0]) for r in rows}


@pytest.mark.parametrize(
    ("theirs", "named"),
    [
        ("CREATE TABLE public.invoices (id INTEGER)", "invoices"),  # the bot's role cannot read
        ("CREATE SCHEMA billing; CREATE TABLE billing.accounts (id INTEGER)", "billing.accounts"),
    ],
)
def test_copy_db_refuses_a_postgresql_target_with_tables_its_role_cannot_see(
    admin: Path, pg_url: str, capsys: pytest.CaptureFixture[str], theirs: str, named: str
) -> None:
    role = asyncio.run(a_role(pg_url, *theirs.split("; ")))
    before = asyncio.run(relations(pg_url))
    as_the_bot = pg_url.replace("postgres@", f"{role}@", 1)
    assert main(["copy-db", "--from", f"sqlite:///{DB}", "--to", as_the_bot]) == 2
    err = capsys.readouterr().err
    one_error(err)
    assert f"another program's tables ({named})" in err and "nothing was copied" in err
    assert asyncio.run(relations(pg_url)) == before  # nothing of the bot's written there


def test_copy_db_reads_the_postgresql_variables_from_the_env_file(
    admin: Path, pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    role = asyncio.run(a_role(pg_url))
    (admin / ".env").write_text(f"PGUSER={role}\n")  # as PGPASSWORD would be
    without_user = pg_url.replace("postgres@", "", 1)
    assert main(["copy-db", "--from", f"sqlite:///{DB}", "--to", without_user]) == 0
    assert "every row copied" in capsys.readouterr().out

    async def owner() -> str:
        conn = await asyncpg.connect(pg_url)
        try:
            return str(
                await conn.fetchval("SELECT tableowner FROM pg_tables WHERE tablename = 'games'")
            )
        finally:
            await conn.close()

    assert asyncio.run(owner()) == role  # copied as the .env's user
    for argv in (
        ["copy-db", "--from", f"sqlite:///{DB}", "--to", "sqlite:///b.db"],
        ["restore", "saved.db"],
        ["commands", "clear"],
    ):  # every command takes --env-file, as the --help says
        assert main([*argv, "--env-file", "prod.env"]) == 2
        err = capsys.readouterr().err
        one_error(err)
        assert "--env-file prod.env: there is no such file" in err


class ReadyClient:
    """What a heartbeat asks of the bot: connected."""

    def is_ready(self) -> bool:
        return True

    def is_closed(self) -> bool:
        return False


class AnsweringDatabase:
    @staticmethod
    async def answers() -> None:
        return None


def test_a_bad_health_file_is_refused_at_start_and_never_reported_healthy(
    admin: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (admin / "beat").mkdir()
    refuse_discord(monkeypatch)
    for path, why in (
        ("beat", "HEALTH_FILE=beat: that is a folder"),
        ("README.md/beat", "HEALTH_FILE=README.md/beat: the heartbeat cannot be written"),
    ):
        monkeypatch.setenv("HEALTH_FILE", path)
        assert main([]) == 2
        err = capsys.readouterr().err
        one_error(err)
        assert why in err
    assert main(["health", "--file", "beat"]) == 1  # a folder is no heartbeat, however new
    assert "is a folder" in capsys.readouterr().err
    # A heartbeat that cannot be written or removed: never a traceback, the bot stops as usual.
    heartbeat = Heartbeat(cast(Any, ReadyClient()), cast(Any, AnsweringDatabase()), "beat")
    assert asyncio.run(heartbeat.beat()) is False
    asyncio.run(heartbeat.stop())
    assert (admin / "beat").is_dir()
    (admin / "beat.json").write_text(json.dumps({"deliveries": {"pending": 0, "failed": 0}}))
    assert main(["health", "--file", "beat.json"]) == 0
    assert capsys.readouterr().out == "healthy; deliveries: none pending; 0 given up\n"


def bounded(argv: list[str], seconds: float = 30) -> int | None:
    """``main(argv)`` in a thread; None if it has not returned after ``seconds``."""
    done: list[int] = []
    worker = threading.Thread(target=lambda: done.append(main(argv)), daemon=True)
    worker.start()
    worker.join(seconds)
    return done[0] if done else None


def test_restore_and_the_bot_give_up_on_a_database_another_program_is_writing_to(
    admin: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(db_module, "BUSY_TIMEOUT_MS", 100)  # 5 s, for the bot
    monkeypatch.setattr(backup_module, "BUSY_SECONDS", 0.1)
    assert main(["backup", "saved.db"]) == 0
    before = digest(admin / DB)
    shell = sqlite3.connect(admin / DB, isolation_level=None)  # sqlite3 in a change
    shell.execute("BEGIN EXCLUSIVE")
    try:
        capsys.readouterr()
        assert bounded(["restore", "saved.db", "--yes"]) == 2
        err = capsys.readouterr().err
        one_error(err)
        assert "is locked by another program writing to it" in err and "nothing was restored" in err
        refuse_discord(monkeypatch)
        assert bounded([]) == 2
        err = capsys.readouterr().err
        one_error(err)
        assert "is locked by another program writing to it" in err
    finally:
        shell.execute("ROLLBACK")
        shell.close()
    assert digest(admin / DB) == before


def test_a_newer_version_never_migrates_a_database_an_older_bot_runs_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for name in SETTINGS:
        monkeypatch.delenv(name, raising=False)
    source = tmp_path / "old.db"
    asyncio.run(old_database(source))  # schema 6: this version migrates it
    url = f"sqlite:///{source}"
    refuse_discord(monkeypatch)
    monkeypatch.setenv("DATABASE_URL", url)
    with DatabaseLock(source.absolute()).acquire(exclusive=False):  # the older bot, running
        for argv in (["ratings", "rebuild"], []):
            assert main(argv) == 2
            err = capsys.readouterr().err
            one_error(err)
            assert "needs the database alone" in err and "older version of the bot" in err
    with sqlite3.connect(source) as conn:
        assert conn.execute("PRAGMA user_version").fetchone() == (6,)
    conn.close()
    assert main(["ratings", "rebuild"]) == 0  # once it stopped
    assert "migrated from schema version 6" in capsys.readouterr().out


def test_restore_into_a_database_that_is_not_there_says_where_it_looked(
    admin: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["backup", "saved.db"]) == 0
    elsewhere = admin / "elsewhere"  # the wrong folder
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    capsys.readouterr()
    assert main(["restore", "../saved.db", "--yes"]) == 2
    err = capsys.readouterr().err
    one_error(err)
    assert f"there is no database at {elsewhere / DB}" in err and "--new" in err
    assert list(elsewhere.iterdir()) == []
    assert main(["restore", "../saved.db", "--new"]) == 0  # a new machine
    assert f"restore: 1 game, 0 actions now in {elsewhere / DB}" in capsys.readouterr().out


def test_small_mistakes_are_one_line_each(
    admin: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    refuse_discord(monkeypatch)
    before = files(admin)
    for argv, why in (
        (["--env-file", DB], "is not a settings file (not text)"),
        (["--env-file", "docs"], "--env-file docs: that is a folder"),
        (["health", "--env-file", DB], "is not a settings file"),
        (["--demo", "/proc/demo"], "--demo /proc/demo: cannot create it"),
        (["restore", "x.db", "--database", "postgresql://af@localhost/af"], "pg_restore"),
        (["backup", ""], "DEST is empty"),
    ):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        one_error(err)
        assert why in err
    assert render_main(["--demo", "/proc/demo"]) == 2
    one_error(capsys.readouterr().err)
    assert files(admin) == before
    for name, value in (
        ("REMINDER_CHECK_SECONDS", "nan"),
        ("REMINDER_CHECK_SECONDS", "inf"),
        ("AI_PAUSE_SECONDS", "nan"),
        ("AI_BUDGET_MS", "inf"),
    ):
        with pytest.raises(SettingsError, match=f"{name} must be a finite number"):
            from_env({name: value})
    for max_age in ("-5", "0", "nan"):
        with pytest.raises(SystemExit) as stopped:
            main(["health", "--file", "beat.json", "--max-age", max_age])
        assert stopped.value.code == 2
        assert "must be more than 0 seconds" in capsys.readouterr().err

"""Settings from the environment, ``python -m bot`` errors, ``create_bot`` and the demo."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import discord
import pytest

import bot.__main__ as cli
from bot import create_bot
from bot.demo import run_demo
from bot.discord.client import (
    INVITE_PERMISSIONS,
    AlienFrontiersBot,
    ShardedAlienFrontiersBot,
    invite_url,
)
from bot.discord.health import check
from bot.settings import DEFAULT_DATABASE_URL, Settings, SettingsError, from_env
from bot.store.migrations import LATEST
from bot.store.shards import Shards
from tests.bot.table import PNG_MAGIC, make_bot, stub_renderer
from tests.discord_fake import FakeDiscord, StartBot
from tests.postgres import refuse_writes

ROOT = Path(__file__).resolve().parents[2]
GOOD_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"


def test_defaults_and_overrides() -> None:
    s = from_env({"DISCORD_TOKEN": GOOD_TOKEN})
    assert s.database_url == DEFAULT_DATABASE_URL and s.database_path == "data/alienfrontiers.db"
    assert s.reminder_check_seconds == 300 and s.dev_guild_id is None and s.log_level == "INFO"
    s = from_env(
        {
            "DATABASE_URL": "sqlite:////var/lib/af/games.db",
            "LOG_LEVEL": "debug",
            "DEV_GUILD_ID": "123456789012345678",
            "REMINDER_CHECK_SECONDS": "60",
            "AI_PAUSE_SECONDS": "0.5",
        }
    )
    assert s.database_path == "/var/lib/af/games.db" and s.log_level == "DEBUG"
    assert s.dev_guild_id == 123456789012345678 and s.reminder_check_seconds == 60
    assert s.ai_pause_seconds == 0.5


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DATABASE_URL": "mysql://x"}, "DATABASE_URL must start with sqlite:/// or postgresql"),
        ({"DATABASE_URL": "postgresql://"}, "names no PostgreSQL server"),
        ({"SHARD_IDS": "0-1"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "none"}, "SHARD_COUNT must be a whole number"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1-3"}, r"SHARD_IDS must list shards.*\[2, 3\]"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "2-x"}, "SHARD_IDS must list shards"),
        ({"LOG_LEVEL": "loud"}, "LOG_LEVEL must be one of"),
        ({"DEV_GUILD_ID": "my server"}, "DEV_GUILD_ID must be a server id"),
        ({"AI_PAUSE_SECONDS": "soon"}, "AI_PAUSE_SECONDS must be a number"),
        ({"AI_PAUSE_SECONDS": "-1"}, "must be at least 0"),
    ],
)
def test_bad_settings_are_one_line(env: dict[str, str], message: str) -> None:
    with pytest.raises(SettingsError, match=message) as e:
        from_env(env)
    assert "\n" not in str(e.value)


def test_shards_and_a_postgresql_url() -> None:
    s = from_env({"SHARD_COUNT": "4", "SHARD_IDS": "0,2-3", "DATABASE_URL": "postgres://h/db"})
    assert s.shards == Shards(4, frozenset({0, 2, 3})) and s.is_postgres
    assert from_env({"SHARD_COUNT": "2"}).shards == Shards(2, frozenset({0, 1}))
    assert from_env({}).shards is None and not from_env({}).is_postgres
    sharded = create_bot(Settings(token=GOOD_TOKEN, shards=Shards(4, frozenset({1, 3}))))
    assert isinstance(sharded, ShardedAlienFrontiersBot)
    assert sharded.shard_count == 4 and sharded.shard_ids == [1, 3]
    assert sharded.shard_set.owns(1 << 22) and not sharded.shard_set.owns(2 << 22)
    plain = create_bot(Settings(token=GOOD_TOKEN))
    assert type(plain) is AlienFrontiersBot and plain.shard_set.owns(2 << 22)


def test_token_checks() -> None:
    with pytest.raises(SettingsError, match="DISCORD_TOKEN is not set"):
        Settings().require_token()
    # Each malformed token is told what is really wrong with it.
    wrong = {
        "hunter2": "has no dot",
        "abc.def.ghi": "has parts of 3, 3, 3 characters",
        "a.b": "has 2 parts joined by dots",
        "abc def.x.y": "holds characters a bot token never has",
    }
    for token, problem in wrong.items():
        with pytest.raises(SettingsError, match=problem):
            Settings(token=token).require_token()
    assert Settings(token=f"Bot {GOOD_TOKEN}").require_token() == GOOD_TOKEN


def run_cli(
    *args: str, env: dict[str, str] | None = None, cwd: Path
) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_URL")}
    clean["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env={**clean, **(env or {})},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_missing_or_malformed_token_is_one_actionable_line(tmp_path: Path) -> None:
    missing = run_cli(cwd=tmp_path)
    assert missing.returncode == 2
    assert missing.stderr.count("\n") == 1 and "Traceback" not in missing.stderr
    assert missing.stderr.startswith("error: DISCORD_TOKEN is not set")
    assert "Reset Token" in missing.stderr
    bad = run_cli(env={"DISCORD_TOKEN": "not-a-token"}, cwd=tmp_path)
    assert bad.returncode == 2 and "DISCORD_TOKEN has no dot" in bad.stderr
    (tmp_path / ".env").write_text("DATABASE_URL=mysql://nope\n")
    wrong_db = run_cli(cwd=tmp_path)
    assert wrong_db.returncode == 2 and "DATABASE_URL must start with" in wrong_db.stderr


def test_refused_token_is_one_line(monkeypatch: Any, capsys: pytest.CaptureFixture[str]) -> None:
    async def refuse(self: discord.Client, token: str, **kwargs: Any) -> None:
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setattr(discord.Client, "start", refuse)
    code = cli.run_bot(Settings(token=GOOD_TOKEN, database_url="sqlite:///:memory:"))
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("error: Discord refused DISCORD_TOKEN") and err.count("\n") == 1


def test_create_bot_does_not_connect(tmp_path: Path) -> None:
    db = tmp_path / "sub" / "af.db"
    bot = create_bot(Settings(token=GOOD_TOKEN, database_url=f"sqlite:///{db}"))
    assert not bot.is_ready() and not bot.parts.database.is_open
    assert not db.exists()  # the database is opened by setup_hook, not at build time
    with pytest.raises(RuntimeError, match="not open yet"):  # its parts are built on it
        asyncio.run(bot.parts.games.in_channel(1))


# The permissions of the invite, as the README's table names them.
PERMISSION_NAMES = {
    "read_messages": "View Channel",
    "send_messages": "Send Messages",
    "send_messages_in_threads": "Send Messages in Threads",
    "attach_files": "Attach Files",
    "create_public_threads": "Create Public Threads",
    "read_message_history": "Read Message History",
}


def test_invite_link_permissions_are_the_readmes() -> None:
    """The invite asks for what the bot uses (/af learn opens a public thread; the
    message history finds a post that was made but not recorded), and the
    README's table lists exactly those, with the same integer."""
    assert INVITE_PERMISSIONS.value == 309237746688
    url = invite_url(1234)
    assert "permissions=309237746688" in url and "scope=bot+applications.commands" in url
    granted = {name for name, value in INVITE_PERMISSIONS if value}
    assert granted == set(PERMISSION_NAMES)
    readme = (ROOT / "README.md").read_text()
    assert f"`{INVITE_PERMISSIONS.value}`" in readme
    table = readme.split("| permission | why |", 1)[1].split("\n\n", 1)[0]
    rows = {line.split("|")[1].strip() for line in table.splitlines() if line.startswith("| ")}
    assert rows == set(PERMISSION_NAMES.values())


async def test_demo_plays_a_whole_game_through_storage(tmp_path: Path) -> None:
    lines: list[str] = []
    result = await run_demo(
        tmp_path / "demo", players=2, random_seats=True, renderer=stub_renderer, echo=lines.append
    )
    out = result.out_dir
    assert lines[0] == "seats: Random 1, Random 2"  # not named after an AI level
    assert (out / "demo.db").exists() and (out / "final.png").read_bytes().startswith(PNG_MAGIC)
    assert len(list(out.glob("turn-*.png"))) == result.turns
    notation = (out / "notation.txt").read_text().split("\n")
    assert len([n for n in notation if n]) == result.actions
    assert (
        "wins" in (out / "result.txt").read_text() or "Shared" in (out / "result.txt").read_text()
    )
    assert "· " in (out / "log.txt").read_text()


def test_demo_command_needs_no_token(tmp_path: Path) -> None:
    done = run_cli(
        "--demo", str(tmp_path / "out"), "--players", "2", "--level", "easy", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert "demo:" in done.stdout and (tmp_path / "out" / "log.txt").exists()
    assert (tmp_path / "out" / "final.png").read_bytes().startswith(PNG_MAGIC)


def test_unwritable_database_is_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    env = {"DISCORD_TOKEN": GOOD_TOKEN, "DATABASE_URL": f"sqlite:///{blocker}/af.db"}
    done = run_cli(env=env, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("error: cannot open the database") and "Traceback" not in done.stderr


async def test_heartbeat_while_connected_and_the_health_command(
    tmp_path: Path, start_bot: Any
) -> None:
    alive = tmp_path / "run" / "alive"
    assert from_env({"HEALTH_FILE": str(alive)}).health_file == str(alive)
    bot = make_bot(tmp_path / "af.db", health_file=str(alive))
    await start_bot(bot)
    assert bot.heartbeat is not None and await bot.heartbeat.beat()
    assert check(alive) is None
    stale = check(alive, max_age=60, now=alive.stat().st_mtime + 61)
    assert stale is not None and "stuck" in stale
    assert run_cli("health", "--file", str(alive), cwd=tmp_path).returncode == 0
    await bot.close()
    assert not alive.exists()  # a stopped bot is not healthy
    gone = run_cli("health", env={"HEALTH_FILE": str(alive)}, cwd=tmp_path)
    assert gone.returncode == 1 and "no heartbeat" in gone.stderr
    assert run_cli("health", cwd=tmp_path).returncode == 2


def test_an_unreachable_postgresql_is_one_line_without_the_password() -> None:
    url = "postgresql://af:s3cret@127.0.0.1:1/alienfrontiers"
    problem = cli.check_database(Settings(token=GOOD_TOKEN, database_url=url))
    assert problem is not None and "cannot reach the PostgreSQL database" in problem
    assert "s3cret" not in problem and "postgresql://af:***@127.0.0.1:1/" in problem
    assert cli.redacted("sqlite:///data/af.db") == "sqlite:///data/af.db"


def test_sync_commands_force_is_a_setting() -> None:
    forced = from_env({"SYNC_COMMANDS": "force"})
    assert forced.sync_commands and forced.force_sync
    assert not from_env({}).force_sync and from_env({}).sync_commands
    with pytest.raises(SettingsError, match="true or false \\(or force\\)"):
        from_env({"SYNC_COMMANDS": "always"})


async def test_a_forced_sync_registers_unchanged_commands(
    tmp_path: Path, start_bot: StartBot, fake_discord: FakeDiscord
) -> None:
    def puts() -> int:
        return len(fake_discord.find(method="PUT", route="/applications/{application_id}/commands"))

    db = tmp_path / "af.db"
    first = await start_bot(make_bot(db))
    assert puts() == 1
    await first.close()
    again = await start_bot(make_bot(db))  # the same commands: not registered again
    assert puts() == 1
    await again.close()
    await start_bot(make_bot(db, force_sync=True))  # SYNC_COMMANDS=force
    assert puts() == 2


def test_a_postgresql_database_refusing_writes_is_started_on_only_if_its_schema_is_current(
    pg_url: str,
) -> None:
    """PostgreSQL refuses writes (read-only after a failover): a database whose schema must
    be made first is one line that says so, not a start; once its schema is current, the
    start only reads it, and goes ahead while writes are refused."""
    settings = Settings(token=GOOD_TOKEN, database_url=pg_url)
    asyncio.run(refuse_writes(pg_url, True))
    problem = cli.check_database(settings)
    assert problem is not None and "\n" not in problem, problem
    assert "refuses writes" in problem and f"migrated to version {LATEST}" in problem
    asyncio.run(refuse_writes(pg_url, False))
    assert cli.check_database(settings) is None  # its schema made
    asyncio.run(refuse_writes(pg_url, True))
    assert cli.check_database(settings) is None  # current: only read

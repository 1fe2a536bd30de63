"""The bot's settings, read from the environment (and a ``.env`` file) in one place.

Every problem is reported as one actionable line (``SettingsError``) instead of a
traceback, because the first person to meet it is whoever is installing the bot.
"""

from __future__ import annotations

import io
import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from bot.store.db_url import POSTGRES_SCHEMES, masked_url, url_problem
from bot.store.shards import Shards, parse_shard_ids

DEFAULT_DATABASE_URL = "sqlite:///data/alienfrontiers.db"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
# A bot token is three base64url parts joined by dots (id.timestamp.hmac).
_TOKEN_PART = re.compile(r"^[A-Za-z0-9_\-]+$")
_TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_\-]{20,}\.[A-Za-z0-9_\-]{4,}\.[A-Za-z0-9_\-]{20,}$")
TOKEN_HELP = (
    "copy it from https://discord.com/developers/applications → your application → Bot → "
    "Reset Token, and put it in the environment or in a .env file (see .env.example)"
)


class SettingsError(ValueError):
    """A setting is missing or wrong; the message is one line saying what to do."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the bot reads from its environment.

    token: the bot token (required to connect; the demo runs without one).
    database_url: ``sqlite:///relative/path``, ``sqlite:////absolute/path``, ``sqlite:///:memory:``
        or ``postgresql://user@host:port/database`` (a server shared by processes; the
        password in ``PGPASSWORD``, or percent-encoded in the URL).
    dev_guild_id: sync the slash commands to this guild only (instant, for testing).
    ai_pause_seconds: pause between an AI seat's actions so people can follow (0 in tests).
    ai_budget_ms: thinking time of an AI move (None: the AI's own default).
    reminder_check_seconds: how often the turn clock looks for reminders and timeouts due.
    ai_retry_seconds: the first wait before an AI move that failed is tried again (it
        doubles at each failure, up to a minute). Not read from the environment.
    defer_after_seconds: a command or click not answered this long is deferred (Discord
        allows 3 s), its answer then comes as a follow-up. Not read from the environment.
    sync_commands: push the slash commands to Discord at start when they changed.
    force_sync: push them at start even if they did not change (``SYNC_COMMANDS=force``).
    shards: the shards this process runs (``SHARD_COUNT``, ``SHARD_IDS``); None: one
        process for every server, without sharding.
    health_file: touched while the bot is connected and its database answers
        (``HEALTH_FILE``, for container health checks: ``python -m bot health``).
    """

    token: str = ""
    database_url: str = DEFAULT_DATABASE_URL
    log_level: str = "INFO"
    dev_guild_id: int | None = None
    ai_pause_seconds: float = 1.5
    ai_budget_ms: int | None = None
    reminder_check_seconds: float = 300.0
    ai_retry_seconds: float = 2.0
    defer_after_seconds: float = 2.0
    sync_commands: bool = True
    force_sync: bool = False
    shards: Shards | None = None
    health_file: str | None = None

    @property
    def database_path(self) -> str:
        """The SQLite file named by ``database_url`` (``:memory:`` for an in-memory database)."""
        return database_path(self.database_url)

    @property
    def is_postgres(self) -> bool:
        return self.database_url.startswith(POSTGRES_SCHEMES)

    def require_token(self) -> str:
        """The token, or SettingsError if it is missing or cannot be a bot token."""
        token = self.token.strip()
        if len(token) > 1 and token[0] == token[-1] and token[0] in "'\"":
            token = token[1:-1].strip()  # `docker run --env-file` keeps a .env's quotes
        if not token:
            raise SettingsError(f"DISCORD_TOKEN is not set: {TOKEN_HELP}")
        if token.lower().startswith("bot "):
            token = token[4:].strip()
        if not _TOKEN_SHAPE.match(token):
            raise SettingsError(f"DISCORD_TOKEN {token_problem(token)}: {TOKEN_HELP}")
        return token


def token_problem(token: str) -> str:
    """What is wrong with a string that is no bot token, in words for the person who
    pasted it."""
    parts = token.split(".")
    if len(parts) != 3:
        found = "no dot" if len(parts) == 1 else f"{len(parts)} parts joined by dots"
        return (
            f"has {found}, and a bot token is three parts joined by dots (is it the "
            "application id or the client secret?)"
        )
    if not all(_TOKEN_PART.match(part) for part in parts):
        return "holds characters a bot token never has (only letters, digits, - and _)"
    return (
        f"has parts of {', '.join(str(len(p)) for p in parts)} characters; a bot token's "
        "are about 24-26, 6 and 27-38: part of it is missing (copy it again, whole)"
    )


def check_database_url(url: str) -> None:
    """SettingsError unless ``url`` is a SQLite file or a PostgreSQL server that asyncpg
    can read (``bot.store.db_url``); the message never shows the URL's password."""
    if url.startswith(POSTGRES_SCHEMES):
        if url.rstrip("/") in POSTGRES_SCHEMES or len(url.split("://", 1)[1]) < 2:
            raise SettingsError(
                "DATABASE_URL names no PostgreSQL server: use for example "
                "postgresql://user@host:5432/alienfrontiers (the password in PGPASSWORD)"
            )
        problem = url_problem(url)
        if problem is not None:
            raise SettingsError(f"DATABASE_URL {masked_url(url)} cannot be read: {problem}")
        return
    database_path(url)


def database_path(url: str) -> str:
    """The file path of a ``sqlite:///`` URL; SettingsError for any other scheme."""
    prefix = "sqlite:///"
    if not url.startswith(prefix):
        raise SettingsError(
            f"DATABASE_URL must start with {prefix} or postgresql:// (for example "
            f"{DEFAULT_DATABASE_URL}), not {masked_url(url)!r}"
        )
    path = url[len(prefix) :]
    if not path:
        raise SettingsError(f"DATABASE_URL names no file: use for example {DEFAULT_DATABASE_URL}")
    return path


def _number(env: Mapping[str, str], name: str, default: float, minimum: float = 0.0) -> float:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise SettingsError(f"{name} must be a number, not {raw!r}") from None
    if not math.isfinite(value):
        raise SettingsError(f"{name} must be a finite number, not {raw!r}")
    if value < minimum:
        raise SettingsError(f"{name} must be at least {minimum:g}, not {raw}")
    return value


def _flag(env: Mapping[str, str], name: str, default: bool) -> bool:
    raw = env.get(name, "").strip().lower()
    if not raw:
        return default
    if raw in ("1", "true", "yes", "on"):
        return True
    if raw in ("0", "false", "no", "off"):
        return False
    also = " (or force)" if name == "SYNC_COMMANDS" else ""
    raise SettingsError(f"{name} must be true or false{also}, not {raw!r}")


def from_env(env: Mapping[str, str]) -> Settings:
    """Settings from a mapping of environment variables (validated, token not required)."""
    level = env.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if level not in LOG_LEVELS:
        raise SettingsError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {level!r}")
    guild_raw = env.get("DEV_GUILD_ID", "").strip()
    if guild_raw and not guild_raw.isdigit():
        raise SettingsError(f"DEV_GUILD_ID must be a server id (digits only), not {guild_raw!r}")
    budget = _number(env, "AI_BUDGET_MS", 0)
    force_sync = env.get("SYNC_COMMANDS", "").strip().lower() == "force"
    url = env.get("DATABASE_URL", "").strip() or DEFAULT_DATABASE_URL
    check_database_url(url)
    return Settings(
        token=env.get("DISCORD_TOKEN", "").strip(),
        database_url=url,
        log_level=level,
        dev_guild_id=int(guild_raw) if guild_raw else None,
        ai_pause_seconds=_number(env, "AI_PAUSE_SECONDS", 1.5),
        ai_budget_ms=int(budget) if budget else None,
        reminder_check_seconds=_number(env, "REMINDER_CHECK_SECONDS", 300.0, minimum=1.0),
        sync_commands=force_sync or _flag(env, "SYNC_COMMANDS", True),
        force_sync=force_sync,
        shards=_shards(env),
        health_file=env.get("HEALTH_FILE", "").strip() or None,
    )


def _shards(env: Mapping[str, str]) -> Shards | None:
    """``SHARD_COUNT`` (and ``SHARD_IDS``, default all of them) as this process's shards."""
    count_raw = env.get("SHARD_COUNT", "").strip()
    ids_raw = env.get("SHARD_IDS", "").strip()
    if not count_raw:
        if ids_raw:
            raise SettingsError("SHARD_IDS needs SHARD_COUNT (the number of shards in all)")
        return None
    if not count_raw.isdigit() or int(count_raw) < 1:
        raise SettingsError(f"SHARD_COUNT must be a whole number, at least 1, not {count_raw!r}")
    count = int(count_raw)
    try:
        ids = parse_shard_ids(ids_raw, count) if ids_raw else frozenset(range(count))
    except ValueError as e:
        raise SettingsError(
            f"SHARD_IDS must list shards like 0-3 or 0,2 ({e}), not {ids_raw!r}"
        ) from None
    return Shards(count, ids)


def settings_text(env_file: str | Path) -> str | None:
    """The text of a settings file (None if there is no such file), or SettingsError if it
    is a folder or no text (a database given as ``--env-file``, say)."""
    path = Path(env_file)
    if path.is_dir():
        raise SettingsError(f"{env_file} is a folder, not a settings file")
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as e:
        raise SettingsError(f"{env_file} cannot be read ({e.strerror or e})") from None
    try:
        if b"\0" in data:
            raise UnicodeDecodeError("utf-8", data, 0, 1, "a NUL byte")
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SettingsError(
            f"{env_file} is not a settings file (not text): it holds lines like "
            "DISCORD_TOKEN=... (see .env.example)"
        ) from None


def env_value(name: str, env_file: str | Path | None = ".env") -> str:
    """One setting alone, without checking the others (``python -m bot health`` needs only
    ``HEALTH_FILE``): the environment's value, else ``env_file``'s, else empty."""
    if name in os.environ:
        return os.environ[name].strip()
    text = settings_text(env_file) if env_file is not None else None
    if text is not None:
        from dotenv import dotenv_values

        return (dotenv_values(stream=io.StringIO(text)).get(name) or "").strip()
    return ""


def load_env_file(env_file: str | Path | None = ".env") -> None:
    """Put ``env_file``'s settings into the environment, if there is such a file; variables
    already set in the environment win over it."""
    text = settings_text(env_file) if env_file is not None else None
    if text is not None:
        from dotenv import load_dotenv

        load_dotenv(stream=io.StringIO(text), override=False)


def load_settings(env_file: str | Path | None = ".env") -> Settings:
    """Settings from the process environment, after loading ``env_file`` if it exists.

    Variables already set in the environment win over the file.
    """
    load_env_file(env_file)
    return from_env(os.environ)

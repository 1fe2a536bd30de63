"""The admin commands of ``python -m bot`` (bot/__main__.py dispatches to them):
``copy-db`` moves the database (e.g. SQLite to PostgreSQL), ``health`` is a container's
health check (``HEALTH_FILE``), ``backup`` and ``restore`` save and put back a SQLite
database, ``ratings rebuild`` recomputes every rating from the stored results, ``commands
clear`` removes the bot's slash commands from Discord."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.command_line import add_env_file, env_file, fail
from bot.settings import (
    TOKEN_HELP,
    SettingsError,
    check_database_url,
    load_env_file,
    load_settings,
)

COMMANDS_HELP = """other commands (each has its own --help):
  python -m bot copy-db --from URL --to URL
                        copy the database into another, empty one (e.g. SQLite to
                        PostgreSQL) and check the copy by replaying every game
  python -m bot backup DEST
                        save the SQLite database to a file (or a dated file in a
                        folder) while the bot runs
  python -m bot restore BACKUP
                        put a backup back in place of the database (bot stopped)
  python -m bot ratings rebuild
                        recompute every rating from the stored game results
  python -m bot health  exit 0 if the running bot is connected (HEALTH_FILE)
  python -m bot commands clear [--guild ID]
                        remove the bot's slash commands from Discord

Every command reads the settings as the bot does (the environment, then .env or
--env-file): DATABASE_URL where it takes no URL of its own, and PGPASSWORD and the
other PG variables for PostgreSQL. A mistake is one line starting "error:" and
exit code 2; nothing is written before the command has checked what it reads."""


def copy_db_cli(argv: Sequence[str]) -> int:
    """``copy-db``: copy every game, seat, log and setting into an empty database, then
    replay and check every game there (bot.store.copy_db)."""
    import asyncpg

    from bot.store.copy_db import CopyError, by_status_table, copy_database
    from bot.store.db_inspect import plural

    parser = argparse.ArgumentParser(
        prog="python -m bot copy-db",
        description="Copy the bot's database into another, empty one (SQLite or PostgreSQL) "
        "and check the copy by replaying every game.",
    )
    parser.add_argument("--from", dest="source", required=True, metavar="URL")
    parser.add_argument("--to", dest="target", required=True, metavar="URL")
    add_env_file(parser)
    args = parser.parse_args(argv)
    try:
        load_env_file(env_file(args))  # PGPASSWORD and the like, as the bot reads them
    except SettingsError as e:
        return fail(str(e))
    try:
        for url in (args.source, args.target):
            check_database_url(url)
    except SettingsError as e:
        return fail(str(e).replace("DATABASE_URL", "a database URL"))
    if args.source == args.target:
        return fail("--from and --to name the same database")
    try:
        report = asyncio.run(copy_database(args.source, args.target))
    except CopyError as e:
        return fail(str(e))
    except (asyncpg.PostgresError, asyncpg.InterfaceError, sqlite3.Error, OSError) as e:
        return fail(f"cannot use a database ({e}): check the URLs and that the servers run")
    rows = ", ".join(f"{n:,} {table}" for table, n in report.rows.items())
    print(f"copy-db: rows copied: {rows} in {report.seconds:.1f}s")
    for line in by_status_table(report.by_status):
        print(f"  {line}")
    for problem in report.problems:
        print(f"problem: {problem}", file=sys.stderr)
    if not report.ok:
        print(f"copy-db: {len(report.problems)} problem(s); do not switch over", file=sys.stderr)
        return 1
    if not report.rows.get("games"):
        print("copy-db: note: the source holds no games at all", file=sys.stderr)
    migrated = ""
    if report.migrated_from is not None:
        migrated = f" (migrated from schema version {report.migrated_from}; the source as it was)"
    print(
        f"copy-db: every row copied{migrated}, {plural(report.games_checked, 'game')} "
        "replayed and checked"
    )
    return 0


def _database_url(parser: argparse.ArgumentParser, argv: Sequence[str]) -> tuple[Any, str]:
    """The parsed arguments and the database: ``--database``, else ``DATABASE_URL`` (from
    the environment or ``--env-file``), else the default file."""
    parser.add_argument(
        "--database", metavar="URL", help="the database (default: DATABASE_URL, as the bot)"
    )
    add_env_file(parser)
    args = parser.parse_args(argv)
    if args.database:
        try:
            check_database_url(args.database)
        except SettingsError as e:
            raise SettingsError(str(e).replace("DATABASE_URL", "--database")) from None
        return args, str(args.database)
    return args, load_settings(env_file(args)).database_url


def backup_cli(argv: Sequence[str]) -> int:
    """``backup``: the SQLite database saved to a file while the bot runs (bot.store.backup)."""
    from bot.store.backup import BackupError, backup
    from bot.store.db_inspect import plural

    parser = argparse.ArgumentParser(
        prog="python -m bot backup",
        description="Save the bot's SQLite database to DEST, consistent while the bot runs: "
        "a new file (a name with a suffix, e.g. af.db), or a folder (one that exists, a name "
        "ending with /, or a new name without a suffix) for a dated file. Never overwrites a "
        "file. PostgreSQL: use pg_dump.",
    )
    parser.add_argument("dest", metavar="DEST")
    try:
        args, url = _database_url(parser, argv)
        saved = backup(url, args.dest)
    except (SettingsError, BackupError) as e:
        return fail(str(e))
    except (sqlite3.Error, OSError) as e:
        return fail(f"the backup failed ({e}); nothing was written")
    print(
        f"backup: {plural(saved.games, 'game')}, {plural(saved.actions, 'action')}, "
        f"{plural(saved.size, 'byte')} written to {saved.path}"
    )
    return 0


def restore_cli(argv: Sequence[str]) -> int:
    """``restore``: a backup put back in place of the SQLite database (bot.store.backup)."""
    from bot.store.backup import BackupError, restore
    from bot.store.db_inspect import plural
    from bot.store.migrations import LATEST

    parser = argparse.ArgumentParser(
        prog="python -m bot restore",
        description="Replace the bot's SQLite database by BACKUP (made by `python -m bot "
        "backup`). Refused while a bot runs on the database: stop it first. The database "
        "must be there (DATABASE_URL, or --database, as the bot), unless --new.",
    )
    parser.add_argument("backup", metavar="BACKUP")
    parser.add_argument(
        "--yes", action="store_true", help="replace a database that holds games or settings"
    )
    parser.add_argument(
        "--new",
        action="store_true",
        help="make the database from the backup where there is none yet (a new machine)",
    )
    try:
        args, url = _database_url(parser, argv)
        saved = restore(Path(args.backup), url, replace=args.yes, new=args.new)
    except (SettingsError, BackupError) as e:
        return fail(str(e))
    except (sqlite3.Error, OSError) as e:
        return fail(f"the restore failed ({e})")
    print(
        f"restore: {plural(saved.games, 'game')}, {plural(saved.actions, 'action')} now in "
        f"{saved.path}"
    )
    if saved.version < LATEST:
        print(
            f"restore: the backup's schema is version {saved.version}: the bot migrates it to "
            f"{LATEST} when it starts"
        )
    return 0


def ratings_cli(argv: Sequence[str]) -> int:
    """``ratings rebuild``: every rating recomputed from the stored results
    (bot.store.rating_store)."""
    import asyncpg

    from bot.store.db_inspect import (
        DatabaseBusy,
        NotABotDatabase,
        bot_schema,
        plural,
        shown_url,
        sqlite_file,
    )
    from bot.store.db_lock import DatabaseLock, InUse, one_name
    from bot.store.migrations import LATEST
    from bot.store.storage import Storage

    parser = argparse.ArgumentParser(
        prog="python -m bot ratings",
        description="rebuild: recompute every member's rating of every season from the "
        "stored facts (each rated game's results, each member's leaving of a game), in the "
        "order they were rated, with this version's rules (docs/ratings.md), and replace the "
        "stored ratings (the same numbers as the updates made one by one).",
    )
    parser.add_argument("action", choices=("rebuild",))

    async def rebuild(url: str) -> str:
        version = await bot_schema(url)  # a database of the bot's, read before any write
        if version > LATEST:
            raise NotABotDatabase(
                f"{shown_url(url)}: its schema is version {version}, newer than this bot's "
                f"({LATEST}): update the bot first"
            )
        hold: contextlib.AbstractContextManager[object] = contextlib.nullcontext()
        if not url.startswith(("postgresql://", "postgres://")):
            several = one_name(sqlite_file(url))
            if several is not None:
                raise NotABotDatabase(several)
            # Shared: not mid-restore. Exclusive to migrate: no older bot running on it.
            try:
                hold = DatabaseLock(sqlite_file(url)).acquire(exclusive=version < LATEST)
            except InUse as e:
                if version == LATEST:
                    raise
                raise InUse(
                    f"{shown_url(url)}: its schema is version {version}; this version of the bot "
                    f"migrates it to {LATEST} first, which needs the database alone, but another "
                    "process is using it (an older version of the bot running on it, a backup or "
                    "a ratings rebuild): stop it first"
                ) from e
        with hold:
            store = await Storage.open(url)  # an older one is migrated, as the bot does
            try:
                done = await store.results.rebuild_ratings()
            finally:
                await store.close()
        same = "all as stored" if not done.differ else f"{done.differ:,} differed from the stored"
        migrated = f"; migrated from schema version {version}" if version < LATEST else ""
        return (
            f"ratings: {plural(done.games, 'rated game')} replayed, "
            f"{plural(done.ratings, 'rating')} written ({same}){migrated}"
        )

    try:
        _args, url = _database_url(parser, argv)
        print(asyncio.run(rebuild(url)))
    except (SettingsError, NotABotDatabase, InUse, DatabaseBusy) as e:
        return fail(f"{e}; nothing was changed" if not isinstance(e, SettingsError) else str(e))
    except (asyncpg.PostgresError, asyncpg.InterfaceError, sqlite3.Error, OSError) as e:
        return fail(f"the ratings were not rebuilt ({e}); nothing was changed")
    return 0


def health_cli(argv: Sequence[str]) -> int:
    """``health``: exit 0 if the bot's heartbeat (``HEALTH_FILE``) is recent
    (``bot.discord.health``)."""
    from bot.discord.health import MAX_AGE_SECONDS, backlog_text, check
    from bot.settings import env_value

    parser = argparse.ArgumentParser(
        prog="python -m bot health",
        description="Exit 0 if the running bot is connected and its database answers (its "
        "heartbeat file, HEALTH_FILE, is recent); print what waits to be delivered.",
    )
    parser.add_argument(
        "--file", metavar="PATH", help="the heartbeat file (default: HEALTH_FILE, as the bot)"
    )
    parser.add_argument(
        "--max-age",
        type=seconds,
        default=MAX_AGE_SECONDS,
        metavar="SECONDS",
        help=f"the oldest heartbeat that is healthy (default: {MAX_AGE_SECONDS:g})",
    )
    add_env_file(parser)
    args = parser.parse_args(argv)
    try:
        path = args.file or env_value("HEALTH_FILE", env_file(args))
    except SettingsError as e:
        return fail(str(e))
    if not path:
        return fail("no heartbeat file: set HEALTH_FILE (the bot's too) or pass --file")
    problem = check(path, args.max_age)
    if problem is not None:
        print(f"unhealthy: {problem}", file=sys.stderr)
        return 1
    print(f"healthy; {backlog_text(path)}")
    return 0


def seconds(text: str) -> float:
    """A number of seconds, more than 0 (an argparse type)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds, not {text!r}")
    return value


def commands_cli(argv: Sequence[str]) -> int:
    """``commands clear``: the bot's slash commands removed from Discord (REST only: the bot
    does not connect to the gateway, and may be running or not)."""
    import aiohttp
    import discord

    parser = argparse.ArgumentParser(
        prog="python -m bot commands",
        description="clear: remove the bot's slash commands from Discord: the global ones, or "
        "with --guild those registered in one server (the test copies DEV_GUILD_ID made, "
        "which show every command twice once it is unset). The bot registers its commands "
        "again at its next start, unless SYNC_COMMANDS=false.",
    )
    parser.add_argument("action", choices=("clear",))
    parser.add_argument("--guild", metavar="ID", help="a server's id: clear only its commands")
    add_env_file(parser)
    args = parser.parse_args(argv)
    try:
        settings = load_settings(env_file(args))
        token = settings.require_token()
    except SettingsError as e:
        return fail(str(e))
    if args.guild is not None and not args.guild.isdigit():
        return fail(f"--guild must be a server id (digits only), not {args.guild!r}")
    guild = int(args.guild) if args.guild is not None else None
    where = f"from server {guild}" if guild is not None else "everywhere (global commands)"
    try:
        application = asyncio.run(_clear_commands(token, guild))
    except discord.LoginFailure:
        return fail(f"Discord refused DISCORD_TOKEN (401 Unauthorized): {TOKEN_HELP}")
    except (discord.Forbidden, discord.NotFound) as e:
        return fail(
            f"Discord refused ({e.status}): the bot is not in server {guild}, or that id is no "
            "server (see the README's Troubleshooting: finding a server's id)"
        )
    except discord.HTTPException as e:
        return fail(f"Discord refused ({e.status}): {e.text or e}")
    except aiohttp.ClientConnectionError as e:
        return fail(f"cannot reach Discord ({e}): check the network connection")
    key = f"commands:{application}:{guild if guild is not None else 'global'}"
    forgot = asyncio.run(_forget_synced(settings.database_url, key))
    again = (
        "SYNC_COMMANDS=false: the bot does not register them again"
        if not settings.sync_commands
        else "the bot registers them again at its next start"
        if forgot
        else "to register them again, start the bot with SYNC_COMMANDS=force"
    )
    print(f"commands: the bot's slash commands removed {where}; {again}")
    return 0


async def _clear_commands(token: str, guild: int | None) -> int:
    """Remove the application's commands (global, or of ``guild``); its id."""
    import discord
    from discord import app_commands

    client = discord.Client(intents=discord.Intents.none())
    async with client:
        await client.login(token)
        tree: app_commands.CommandTree[discord.Client] = app_commands.CommandTree(client)
        await tree.sync(guild=discord.Object(guild) if guild is not None else None)  # none left
        assert client.application_id is not None
        return client.application_id


async def _forget_synced(url: str, key: str) -> bool:
    """Forget that the commands were synced (the bot's ``meta``), so its next start syncs
    them again; False if the database is not there or not the bot's."""
    import asyncpg

    from bot.store.db import open_database
    from bot.store.db_inspect import NotABotDatabase, bot_schema
    from bot.store.migrations import LATEST

    try:
        if await bot_schema(url) > LATEST:
            return False
        db = await open_database(url)
        try:
            await db.write("DELETE FROM meta WHERE key = ?", (key,))
        finally:
            await db.close()
    except (NotABotDatabase, sqlite3.Error, OSError, asyncpg.PostgresError, asyncpg.InterfaceError):
        return False
    return True

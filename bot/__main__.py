"""Command line: ``python -m bot`` runs the bot; ``python -m bot --demo [DIR]`` plays offline;
``python -m bot copy-db --from URL --to URL`` moves the database (e.g. SQLite to PostgreSQL);
``python -m bot health`` is a container's health check (``HEALTH_FILE``);
``python -m bot backup DEST`` and ``restore BACKUP`` save and put back a SQLite database;
``python -m bot ratings rebuild`` recomputes every rating from the stored results;
``python -m bot commands clear`` removes the bot's slash commands from Discord.

Problems a person installing the bot can fix (no token, a wrong token, a bad
setting, a wrong path) are reported in one line with what to do, and exit code 2,
before anything is written. SIGTERM and SIGINT stop the bot cleanly, with exit code 0.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import logging
import signal
import sqlite3
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.admin_cli import (
    COMMANDS_HELP,
    backup_cli,
    commands_cli,
    copy_db_cli,
    health_cli,
    ratings_cli,
    restore_cli,
)
from bot.command_line import add_env_file, env_file, fail
from bot.settings import TOKEN_HELP, Settings, SettingsError, load_settings

if TYPE_CHECKING:
    from bot.discord.client import AlienFrontiersBot
    from bot.store.db_lock import BotHold

log = logging.getLogger("bot")
# After the freeze, Python's full collections walk every game in play (a sixth of a second
# with 500 games); the third threshold (full collections after 1,000 middle ones, not 10)
# makes them rare (3 instead of 15 in a benchmark run), the young ones are as usual.
GC_THRESHOLDS = (700, 10, 1000)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Alien Frontiers on Discord: without options, run the bot "
        "(DISCORD_TOKEN and the other settings from the environment or --env-file).",
        epilog=COMMANDS_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--demo",
        nargs="?",
        const="demo-out",
        metavar="DIR",
        help="play a complete game between AI seats without Discord and write the board "
        "images and the log to DIR (default: demo-out)",
    )
    parser.add_argument(
        "--players", type=int, choices=(2, 3, 4), help="with --demo: the seats (default: 4)"
    )
    parser.add_argument(
        "--level",
        choices=("easy", "normal", "hard", "random"),
        help="with --demo: the AI level, or random legal moves (default: normal)",
    )
    add_env_file(parser)
    args = parser.parse_args(argv)
    if args.demo is None and (args.players is not None or args.level is not None):
        parser.error("--players and --level go with --demo (without it the bot runs)")
    args.players = 4 if args.players is None else args.players
    args.level = args.level or "normal"
    return args


def run_bot(settings: Settings) -> int:
    """Connect and run until stopped; a refused token is one line, not a traceback."""
    import aiohttp
    import discord

    from bot.factory import create_bot
    from bot.store.db_inspect import database_name

    token = settings.require_token()
    for problem in (check_sqlite_file(settings), check_health_file(settings)):
        if problem is not None:
            return fail(problem)
    try:
        holding = hold_database(settings)  # held until this function returns
    except SettingsError as e:
        return fail(str(e))
    with holding:
        problem = check_database(settings, holding)
        if problem is not None:
            return fail(problem)
        discord.utils.setup_logging(level=getattr(logging, settings.log_level))
        bot = create_bot(settings)
        try:
            asyncio.run(serve(bot, token))
        except discord.LoginFailure:
            return fail(f"Discord refused DISCORD_TOKEN (401 Unauthorized): {TOKEN_HELP}")
        except discord.PrivilegedIntentsRequired:
            return fail("Discord refused a privileged intent; this bot needs none: update the bot")
        except aiohttp.ClientConnectionError as e:
            return fail(f"cannot reach Discord ({e}): check the network connection")
        except sqlite3.Error as e:  # e.g. another program took a write lock after the start
            log.debug("the database failed", exc_info=True)
            if "locked" in str(e) or "busy" in str(e):
                return fail(sqlite_problem(settings, e))
            return fail(
                f"the database {database_name(settings.database_url)} failed ({e}): check "
                "its disk (room, permissions), then start the bot again"
            )
    return 0


def hold_database(settings: Settings) -> BotHold:
    """The bot's hold on its SQLite database (bot.store.db_lock): one bot per database,
    and `restore` and `copy-db` refuse while it runs; SettingsError while another bot or
    one of those commands is running. A PostgreSQL database is not held (several
    processes share it; `restore` is SQLite's)."""
    from bot.store.db_inspect import sqlite_file
    from bot.store.db_lock import BotHold, InUse

    if settings.is_postgres or settings.database_path == ":memory:":
        return BotHold(None)  # holds nothing
    path = sqlite_file(settings.database_url)
    with contextlib.suppress(OSError):  # if it cannot be made, check_database says so
        path.parent.mkdir(parents=True, exist_ok=True)
    if not path.parent.is_dir():
        return BotHold(None)
    try:
        return BotHold(path).acquire()
    except InUse as e:
        raise SettingsError(str(e)) from None


def check_health_file(settings: Settings) -> str | None:
    """Why the bot could not write its heartbeat at ``HEALTH_FILE`` (a folder, a folder
    that cannot be made, a read-only place): None if it can, or if there is none."""
    from bot.discord.health import Heartbeat

    if not settings.health_file:
        return None
    problem = Heartbeat.check_path(settings.health_file)
    return None if problem is None else f"HEALTH_FILE={settings.health_file}: {problem}"


async def serve(bot: AlienFrontiersBot, token: str) -> None:
    """Run the bot until it stops or SIGTERM (``docker stop``) or SIGINT (Ctrl-C) arrives;
    then close it cleanly (``AlienFrontiersBot.close``: work in flight finishes, the
    database is closed) so the process exits 0."""
    from bot.discord.shutdown import GRACE_SECONDS

    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):  # no signal handlers on Windows
            loop.add_signal_handler(signum, stop.set)
    async with bot:
        running = asyncio.create_task(bot.start(token), name="af-bot")
        stopping = asyncio.create_task(stop.wait(), name="af-stop-signal")
        settling = asyncio.create_task(freeze_when_ready(bot), name="af-gc-freeze")
        await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
        stopping.cancel()
        settling.cancel()
        if running.done():
            running.result()  # a refused token or an unreachable Discord: reported by run_bot
            return
        log.info("stop signal received: shutting down")
        await bot.close()
        try:
            async with asyncio.timeout(GRACE_SECONDS):
                await running
        except TimeoutError:
            running.cancel()
        except Exception:
            log.warning("the connection ended with an error while stopping", exc_info=True)


async def freeze_when_ready(bot: AlienFrontiersBot) -> None:
    """Once the bot is ready, keep what it loaded (modules, commands, the games resumed: it
    lives as long as the process) out of Python's full garbage collections, which stop
    every game while they walk the heap (a tenth of a second each with 500 games in play),
    and make the full collections of what comes later rare (``GC_THRESHOLDS``)."""
    await bot.wait_until_ready()
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


async def _open_database(settings: Settings) -> None:
    """Open the database as the bot does (create, migrate), and make sure nothing else
    holds a write lock on a SQLite file (waiting SQLite's busy timeout, 5 s, at most)."""
    from bot.store.storage import Storage

    store = await Storage.open(settings.database_url)
    try:
        if store.db.dialect == "sqlite":
            async with store.db.transaction():
                pass  # BEGIN IMMEDIATE: refused while another program is writing
    finally:
        await store.close()


def check_sqlite_file(settings: Settings) -> str | None:
    """Why the bot must not open its SQLite file, read before anything is written there (a
    folder, a file that is no database, another program's, a newer bot's, a file with
    several names): None if fine."""
    from bot.store.db_inspect import (
        DatabaseBusy,
        NotABotDatabase,
        check_sqlite_for_the_bot,
        sqlite_file,
    )
    from bot.store.db_lock import one_name

    if settings.is_postgres or settings.database_path == ":memory:":
        return None
    try:
        check_sqlite_for_the_bot(settings.database_url)
    except DatabaseBusy as e:
        return str(e)
    except NotABotDatabase as e:
        return f"DATABASE_URL={e}"
    return one_name(sqlite_file(settings.database_url))


def sqlite_problem(settings: Settings, error: sqlite3.Error) -> str:
    """A SQLite error met while opening or running on the database, in a line."""
    from bot.store.db_inspect import LOCKED_HELP, sqlite_file

    path = sqlite_file(settings.database_url)
    if "locked" in str(error) or "busy" in str(error):
        return f"{path} is locked by another program writing to it: {LOCKED_HELP}"
    return (
        f"cannot open the database {settings.database_path!r} ({error}): check DATABASE_URL "
        "and that its folder exists or can be created and is writable"
    )


def check_database(settings: Settings, hold: BotHold | None = None) -> str | None:
    """Open (create, migrate) the database before connecting; the problem in words, if any.
    A SQLite file that needs a migration is migrated only while ``hold`` has it alone (no
    older bot, backup or rebuild on it)."""
    import asyncpg

    from bot.store.db_inspect import DatabaseBusy, NotABotDatabase, read_sqlite
    from bot.store.db_lock import BotHold, InUse
    from bot.store.migrations import LATEST

    hold = hold or BotHold(None)
    migration: contextlib.AbstractContextManager[None] = contextlib.nullcontext()
    if not settings.is_postgres and settings.database_path != ":memory:":
        try:
            version = read_sqlite(settings.database_url).version
        except NotABotDatabase:
            version = 0  # no file yet: the bot makes it
        except DatabaseBusy as e:
            return str(e)
        if version < LATEST:
            why = (
                f"this version of the bot migrates its schema from version {version} to {LATEST}"
                if version
                else "this bot creates its database there"
            )
            migration = hold.alone(why)
    try:
        with migration:
            asyncio.run(_open_database(settings))
    except InUse as e:
        return str(e)
    except asyncpg.ReadOnlySQLTransactionError as e:  # a current schema is only read
        return (
            f"the PostgreSQL database {redacted(settings.database_url)} refuses writes ({e}), "
            f"and its schema must be created or migrated to version {LATEST} first: start the "
            "bot once it takes writes (not a read-only standby; a failover finished)"
        )
    except (asyncpg.PostgresError, asyncpg.InterfaceError) as e:
        return (
            f"cannot use the PostgreSQL database {redacted(settings.database_url)} ({e}): "
            "check DATABASE_URL (user, password, database name) and the server's access rules"
        )
    except (ValueError, OverflowError):  # asyncpg could not read the URL: never quoted
        if not settings.is_postgres:
            raise
        return (
            f"cannot read DATABASE_URL {redacted(settings.database_url)} as a PostgreSQL URL: "
            "write it as postgresql://user@host:5432/alienfrontiers, the password in PGPASSWORD"
        )
    except sqlite3.Error as e:
        return sqlite_problem(settings, e)
    except (OSError, RuntimeError) as e:
        if settings.is_postgres:
            return (
                f"cannot reach the PostgreSQL database {redacted(settings.database_url)} ({e}): "
                "check DATABASE_URL and that the server is running"
            )
        return (
            f"cannot open the database {settings.database_path!r} ({e}): check DATABASE_URL "
            "and that its folder exists or can be created and is writable"
        )
    return None


def redacted(url: str) -> str:
    """A database URL without its password, fit for a log or an error line."""
    from bot.store.db_url import masked_url

    return masked_url(url)


def run_demo_cli(args: argparse.Namespace, settings: Settings | None) -> int:
    from bot.demo import DemoFolderError, check_folder, run_demo
    from bot.play.ai import Level
    from bot.store.db_inspect import plural

    try:
        check_folder(args.demo)
    except DemoFolderError as e:
        return fail(str(e))
    logging.basicConfig(level=getattr(logging, settings.log_level if settings else "INFO"))
    level: Level = "normal" if args.level == "random" else args.level
    try:
        result = asyncio.run(
            run_demo(
                args.demo,
                players=args.players,
                levels=(level,),
                random_seats=args.level == "random",
                budget_ms=settings.ai_budget_ms if settings and settings.ai_budget_ms else 200,
            )
        )
    except DemoFolderError as e:
        return fail(str(e))
    except (OSError, sqlite3.Error) as e:  # a place root may "write" to, but cannot
        return fail(f"--demo {args.demo}: cannot write the demo there ({e})")
    print(
        f"demo: {plural(result.turns, 'turn')}, {plural(result.actions, 'action')}, "
        f"{plural(result.images, 'image')} in {result.seconds:.1f}s -> {result.out_dir}"
    )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["copy-db"]:
        return copy_db_cli(argv[1:])
    if argv[:1] == ["health"]:
        return health_cli(argv[1:])
    if argv[:1] == ["backup"]:
        return backup_cli(argv[1:])
    if argv[:1] == ["restore"]:
        return restore_cli(argv[1:])
    if argv[:1] == ["ratings"]:
        return ratings_cli(argv[1:])
    if argv[:1] == ["commands"]:
        return commands_cli(argv[1:])
    args = parse_args(argv)
    try:
        settings = load_settings(env_file(args))
    except SettingsError as e:
        if args.demo is not None and args.env_file is None:
            return run_demo_cli(args, None)
        return fail(str(e))
    if args.demo is not None:
        return run_demo_cli(args, settings)
    try:
        return run_bot(settings)
    except SettingsError as e:
        return fail(str(e))
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())

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
import math
import signal
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.settings import (
    TOKEN_HELP,
    Settings,
    SettingsError,
    check_database_url,
    load_env_file,
    load_settings,
)

if TYPE_CHECKING:
    from bot.client import AlienFrontiersBot
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


def add_env_file(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--env-file",
        metavar="FILE",
        help="file of settings to load (default: .env, if there is one); variables set in "
        "the environment win over it",
    )


def env_file(args: argparse.Namespace) -> str:
    """The settings file to load: ``--env-file`` (which must exist), else ``.env``."""
    if args.env_file is None:
        return ".env"
    path = Path(args.env_file)
    if path.is_dir():
        raise SettingsError(f"--env-file {args.env_file}: that is a folder, not a settings file")
    if not path.exists():  # /dev/null is fine: no settings from a file
        raise SettingsError(f"--env-file {args.env_file}: there is no such file")
    return str(args.env_file)


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


def fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def run_bot(settings: Settings) -> int:
    """Connect and run until stopped; a refused token is one line, not a traceback."""
    import aiohttp
    import discord

    from bot.client import create_bot
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
    from bot.health import Heartbeat

    if not settings.health_file:
        return None
    problem = Heartbeat.check_path(settings.health_file)
    return None if problem is None else f"HEALTH_FILE={settings.health_file}: {problem}"


async def serve(bot: AlienFrontiersBot, token: str) -> None:
    """Run the bot until it stops or SIGTERM (``docker stop``) or SIGINT (Ctrl-C) arrives;
    then close it cleanly (``AlienFrontiersBot.close``: work in flight finishes, the
    database is closed) so the process exits 0."""
    from bot.shutdown import GRACE_SECONDS

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
                done = await store.rebuild_ratings()
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
    """``health``: exit 0 if the bot's heartbeat (``HEALTH_FILE``) is recent (bot.health)."""
    from bot.health import MAX_AGE_SECONDS, backlog_text, check
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

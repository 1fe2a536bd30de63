"""Command line: ``python -m bot`` runs the bot; ``python -m bot --demo [DIR]`` plays offline;
``python -m bot copy-db --from URL --to URL`` moves the database (e.g. SQLite to PostgreSQL);
``python -m bot health`` is a container's health check (``HEALTH_FILE``);
``python -m bot backup DEST`` and ``restore BACKUP`` save and put back a SQLite database;
``python -m bot ratings rebuild`` recomputes every rating from the stored results.

Problems a person installing the bot can fix (no token, a wrong token, a bad
setting) are reported in one line with what to do, and exit code 2. SIGTERM and
SIGINT stop the bot cleanly, with exit code 0.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import logging
import os
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
    load_settings,
)

if TYPE_CHECKING:
    from bot.client import AlienFrontiersBot

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
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4), help="demo seats")
    parser.add_argument(
        "--level",
        default="normal",
        choices=("easy", "normal", "hard", "random"),
        help="demo AI level, or random legal moves",
    )
    parser.add_argument(
        "--env-file", default=".env", help="file of settings to load (default: .env)"
    )
    return parser.parse_args(argv)


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
  python -m bot health  exit 0 if the running bot is connected (HEALTH_FILE)"""


def fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def run_bot(settings: Settings) -> int:
    """Connect and run until stopped; a refused token is one line, not a traceback."""
    import aiohttp
    import discord

    from bot.client import create_bot

    token = settings.require_token()
    problem = check_database(settings)
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
    return 0


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
    from bot.store.storage import Storage

    store = await Storage.open(settings.database_url)
    await store.close()


def check_database(settings: Settings) -> str | None:
    """Open (create, migrate) the database before connecting; the problem in words, if any."""
    import asyncpg

    try:
        asyncio.run(_open_database(settings))
    except (asyncpg.PostgresError, asyncpg.InterfaceError) as e:
        return (
            f"cannot use the PostgreSQL database {redacted(settings.database_url)} ({e}): "
            "check DATABASE_URL (user, password, database name) and the server's access rules"
        )
    except (sqlite3.Error, OSError, RuntimeError) as e:
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
    scheme, sep, rest = url.partition("://")
    credentials, at, host = rest.rpartition("@")
    if not sep or not at or ":" not in credentials:
        return url
    return f"{scheme}://{credentials.split(':', 1)[0]}:***@{host}"


def run_demo_cli(args: argparse.Namespace, settings: Settings | None) -> int:
    from bot.demo import run_demo
    from bot.play.ai import Level

    logging.basicConfig(level=getattr(logging, settings.log_level if settings else "INFO"))
    level: Level = "normal" if args.level == "random" else args.level
    result = asyncio.run(
        run_demo(
            args.demo,
            players=args.players,
            levels=(level,),
            random_seats=args.level == "random",
            budget_ms=settings.ai_budget_ms if settings and settings.ai_budget_ms else 200,
        )
    )
    print(
        f"demo: {result.turns} turns, {result.actions} actions, {result.images} images in "
        f"{result.seconds:.1f}s -> {result.out_dir}"
    )
    return 0


def copy_db_cli(argv: Sequence[str]) -> int:
    """``copy-db``: copy every game, seat, log and setting into an empty database, then
    replay and check every game there (bot.store.copy_db)."""
    import asyncpg

    from bot.store.copy_db import CopyError, by_status_table, copy_database

    parser = argparse.ArgumentParser(
        prog="python -m bot copy-db",
        description="Copy the bot's database into another, empty one (SQLite or PostgreSQL) "
        "and check the copy by replaying every game.",
    )
    parser.add_argument("--from", dest="source", required=True, metavar="URL")
    parser.add_argument("--to", dest="target", required=True, metavar="URL")
    args = parser.parse_args(argv)
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
    rows = ", ".join(f"{n} {table}" for table, n in report.rows.items())
    print(f"copy-db: {rows} in {report.seconds:.1f}s")
    for line in by_status_table(report.by_status):
        print(f"  {line}")
    for problem in report.problems:
        print(f"problem: {problem}", file=sys.stderr)
    if not report.ok:
        print(f"copy-db: {len(report.problems)} problem(s); do not switch over", file=sys.stderr)
        return 1
    if not report.rows.get("games"):
        print("copy-db: note: the source holds no games at all", file=sys.stderr)
    print(f"copy-db: every row copied, {report.games_checked} games replayed and checked")
    return 0


def _database_url(parser: argparse.ArgumentParser, argv: Sequence[str]) -> tuple[Any, str]:
    """The parsed arguments and the database: ``--database``, else ``DATABASE_URL`` (from
    the environment or ``--env-file``), else the default file."""
    parser.add_argument(
        "--database", metavar="URL", help="the database (default: DATABASE_URL, as the bot)"
    )
    parser.add_argument(
        "--env-file", default=".env", help="file of settings to load (default: .env)"
    )
    args = parser.parse_args(argv)
    if args.database:
        check_database_url(args.database)
        return args, str(args.database)
    return args, load_settings(args.env_file).database_url


def backup_cli(argv: Sequence[str]) -> int:
    """``backup``: the SQLite database saved to a file while the bot runs (bot.store.backup)."""
    from bot.store.backup import BackupError, backup

    parser = argparse.ArgumentParser(
        prog="python -m bot backup",
        description="Save the bot's SQLite database to DEST (a file, or a folder for a dated "
        "file), consistent while the bot runs. PostgreSQL: use pg_dump.",
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
        f"backup: {saved.games} games, {saved.actions} actions, {saved.size:,} bytes "
        f"written to {saved.path}"
    )
    return 0


def restore_cli(argv: Sequence[str]) -> int:
    """``restore``: a backup put back in place of the SQLite database (bot.store.backup)."""
    from bot.store.backup import BackupError, restore
    from bot.store.db_inspect import sqlite_file

    parser = argparse.ArgumentParser(
        prog="python -m bot restore",
        description="Replace the bot's SQLite database by BACKUP (made by `python -m bot "
        "backup`). Stop the bot first.",
    )
    parser.add_argument("backup", metavar="BACKUP")
    parser.add_argument(
        "--yes", action="store_true", help="replace a database that holds games already"
    )
    try:
        args, url = _database_url(parser, argv)
        target = sqlite_file(url)
        if not args.yes and target.is_file() and target.stat().st_size > 0:
            # Something is there (the bot's games, or another program's file): not without
            # being asked.
            return fail(
                f"{url} ({target}) holds a database already: stop the bot, then run again "
                "with --yes to replace all of it by the backup"
            )
        saved = restore(Path(args.backup), url)
    except (SettingsError, BackupError) as e:
        return fail(str(e))
    except (sqlite3.Error, OSError) as e:
        return fail(f"the restore failed ({e})")
    print(f"restore: {saved.games} games, {saved.actions} actions now in {saved.path}")
    return 0


def ratings_cli(argv: Sequence[str]) -> int:
    """``ratings rebuild``: every rating recomputed from the stored results
    (bot.store.rating_store)."""
    import asyncpg

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
        store = await Storage.open(url)
        try:
            done = await store.rebuild_ratings()
        finally:
            await store.close()
        same = "all as stored" if not done.differ else f"{done.differ} differed from the stored"
        return (
            f"ratings: {done.games} rated games replayed, {done.ratings} ratings written ({same})"
        )

    try:
        _args, url = _database_url(parser, argv)
        print(asyncio.run(rebuild(url)))
    except SettingsError as e:
        return fail(str(e))
    except (asyncpg.PostgresError, asyncpg.InterfaceError, sqlite3.Error, OSError) as e:
        return fail(f"the ratings were not rebuilt ({e}); nothing was changed")
    return 0


def health_cli(argv: Sequence[str]) -> int:
    """``health``: exit 0 if the bot's heartbeat (``HEALTH_FILE``) is recent (bot.health)."""
    from bot.health import MAX_AGE_SECONDS, backlog_text, check

    parser = argparse.ArgumentParser(
        prog="python -m bot health",
        description="Exit 0 if the running bot is connected and its database answers.",
    )
    parser.add_argument("--file", default=os.environ.get("HEALTH_FILE", ""), metavar="PATH")
    parser.add_argument("--max-age", type=float, default=MAX_AGE_SECONDS, metavar="SECONDS")
    args = parser.parse_args(argv)
    if not args.file:
        return fail("no heartbeat file: set HEALTH_FILE (the bot's too) or pass --file")
    problem = check(args.file, args.max_age)
    if problem is not None:
        print(f"unhealthy: {problem}", file=sys.stderr)
        return 1
    print(f"healthy; {backlog_text(args.file)}")
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
    args = parse_args(argv)
    try:
        settings = load_settings(args.env_file)
    except SettingsError as e:
        if args.demo is not None:
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

"""The parts of Discord's side are built by the factory, each handed only the jobs of the
game service it uses (issue 43): never the record of every job (``bot.play.jobs.
GameJobs``), never the storage; a cog's constructor names each job by its class; none
takes a part from the client by name."""

from __future__ import annotations

import ast
import inspect
from dataclasses import fields
from pathlib import Path

from discord.ext import commands

from bot.discord.cogs.base import AfCog
from bot.discord.cogs.play import Play
from bot.play.jobs import GameJobs
from tests.bot.table import make_bot

DISCORD = Path(__file__).resolve().parents[3] / "bot" / "discord"
COGS = DISCORD / "cogs"
PARTS = ("service", "jobs", "notifier", "announcer", "deliveries", "owners", "background")
PORTS = ("store", "outbox", "coach", "readers")  # handed as themselves, not as jobs
# Where the record of every job may be named: the client's parts, which the client (its
# games, orphans and settings) and the tests reach the jobs through.
HOLDS_THE_RECORD = {"parts.py", "client.py"}


def test_no_part_of_discords_side_imports_the_record_of_every_job() -> None:
    found = []
    for path in sorted(DISCORD.rglob("*.py")):
        if path.name in HOLDS_THE_RECORD and path.parent == DISCORD:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module in (
                "bot.play.jobs",
                "bot.play.service",
            ):
                found.append(f"{path.relative_to(DISCORD)}:{node.lineno} imports {node.module}")
    assert found == []


def test_no_cog_reads_a_part_off_the_client() -> None:
    found = []
    for path in sorted(COGS.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and node.attr in PARTS
                and isinstance(node.value, (ast.Name, ast.Attribute))
                and (getattr(node.value, "id", None) or getattr(node.value, "attr", None))
                in ("bot", "client")
            ):
                found.append(f"{path.name}:{node.lineno} reads {node.attr} off the client")
    assert found == []


def _source(part: object) -> str:
    """The source of the part's class and of its bases in ``bot.discord`` and ``bot.play``."""
    return "\n".join(
        inspect.getsource(c)
        for c in type(part).__mro__
        if c.__module__.startswith(("bot.discord", "bot.play"))
    )


def _jobs_held(part: object, jobs: GameJobs) -> dict[str, str]:
    """The jobs of the game service the part holds: its attribute -> the job's name."""
    named = {id(getattr(jobs, f.name)): f.name for f in fields(jobs) if f.name not in PORTS}
    return {k: named[id(v)] for k, v in vars(part).items() if id(v) in named}


def test_each_part_is_handed_only_the_jobs_it_uses(tmp_path: Path) -> None:
    bot = make_bot(tmp_path / "af.db", health_file=str(tmp_path / "health"))
    parts, jobs = bot.parts, bot.jobs
    assert parts.heartbeat is not None
    assert [type(c).__name__ for c in parts.cogs] == [
        "Lobby",
        "Seats",
        "ChannelSettings",
        "Notifications",
        "Play",
        "Info",
        "Records",
        "Learn",
    ]
    announcer, deliveries = parts.announcer, parts.deliveries
    couriers = deliveries.couriers
    notifier = couriers.notifier
    (play,) = [c for c in parts.cogs if isinstance(c, Play)]
    built = [
        *parts.cogs,
        play.picks,
        notifier,
        couriers,
        couriers.pictures,
        deliveries,
        parts.background,
        parts.owners,
        announcer,
        parts.boards,
    ]
    built.append(parts.heartbeat)
    kinds = {type(getattr(jobs, f.name)) for f in fields(jobs)}
    handed: dict[str, set[str]] = {}
    for part in built:
        name = type(part).__name__
        values = vars(part).values()
        assert not any(isinstance(v, GameJobs) for v in values), name  # never every job
        assert not any(v is jobs.store for v in values), name  # never the storage
        held = _jobs_held(part, jobs)
        source = _source(part)
        # Each job it holds is asked somewhere, not only assigned in its constructor.
        unused = [a for a in held if source.count(f"self.{a}") <= source.count(f"self.{a} =")]
        assert unused == [], (name, unused)  # handed a job it never asks
        handed[name] = set(held.values())
        # A job of its own (not the one the factory built for everyone) would be a
        # second set of games in memory, or a second clock.
        assert all(v in _jobs_of(jobs) for v in values if type(v) in kinds), name
    # What each part asks of the game service, as built (a change here is a change of design).
    assert handed["Notifier"] == {"members"}
    assert handed["Pictures"] == {"seats"}
    assert handed["Records"] == {"records"}
    assert handed["InteractionOwners"] == {"owners"}
    assert handed["Deliveries"] == {"orphans"}
    assert handed["Heartbeat"] == {"database"}
    assert handed["Couriers"] == {"story", "turns", "members", "orphans"}
    assert handed["Picks"] == {"moves"}
    assert "Announcer" in handed and handed["Announcer"] == set()
    for cog in parts.cogs:
        assert isinstance(cog, AfCog) and isinstance(cog, commands.Cog)
        assert cog.owners is parts.owners


def _jobs_of(jobs: GameJobs) -> list[object]:
    return [getattr(jobs, f.name) for f in fields(jobs)]


def test_each_cogs_constructor_names_its_jobs_by_their_classes(tmp_path: Path) -> None:
    """A cog is built with its jobs as keyword arguments, each annotated with the job's own
    class (what it may ask is that class's public methods), and nothing that holds the
    database or every job."""
    bot = make_bot(tmp_path / "af.db")
    jobs = bot.jobs
    classes = {type(getattr(jobs, f.name)).__name__ for f in fields(jobs) if f.name not in PORTS}
    for cog in bot.parts.cogs:
        params = inspect.signature(type(cog).__init__).parameters
        annotations = {n: str(p.annotation) for n, p in params.items() if n != "self"}
        named = " ".join(annotations.values())
        for forbidden in ("Storage", "GameJobs", "GameService", "Protocol"):
            assert forbidden not in named, (type(cog).__name__, annotations)
        held = _jobs_held(cog, jobs)
        for attr, job in held.items():
            cls = type(getattr(jobs, job)).__name__
            assert cls in classes and cls in annotations.values(), (type(cog).__name__, attr)

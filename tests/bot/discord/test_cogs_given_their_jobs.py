"""The parts of Discord's side are built by the factory, each handed only the jobs of the
game service it uses (issue 43): never the record of every job (``bot.play.jobs.
GameJobs``), never the storage nor any of its areas; a cog's constructor names each job by
its class; none takes a part from the client.

Checked by type, not by name: every object the client holds is walked, through the
attributes of its parts (cogs and the rest, and what they hold in turn: a bound method's
object, a partial's arguments, a closure's cells), and no storage, area of it, database or
record of the jobs may be reached, whatever its attribute is called. A job held is one
asked: its attribute is read (``ast``) in the code of the class that holds it, not only
assigned or named in a comment. No code of bot/discord reads a part off the client:
``tests/test_layers.py``."""

from __future__ import annotations

import ast
import functools
import inspect
import textwrap
import types
from collections.abc import Iterator
from dataclasses import fields
from pathlib import Path
from typing import Any

from discord.ext import commands

from bot.discord.cogs.base import AfCog
from bot.discord.parts import Parts
from bot.play.jobs import GameJobs
from bot.play.outbox import KINDS
from bot.store.db import Database
from bot.store.shared_sql import DatabaseSlot, StoreArea
from bot.store.storage import Storage
from tests.bot.table import jobs_of, make_bot

DISCORD = Path(__file__).resolve().parents[3] / "bot" / "discord"
# What no part of Discord's side may hold, however it is named.
FORBIDDEN = (Storage, StoreArea, DatabaseSlot, Database, GameJobs)
DEPTH = 12  # how deep the walk goes from the client (the parts are 2 to 5 deep)


def attributes(part: object) -> Iterator[tuple[str, Any]]:
    """The part's attributes: its ``__dict__`` and its slots."""
    yield from getattr(part, "__dict__", {}).items()
    for cls in type(part).__mro__:
        for name in getattr(cls, "__slots__", ()):
            if hasattr(part, name) and name != "__weakref__":
                yield name, getattr(part, name)


def ours(value: object) -> bool:
    """An object of the bot (not of discord.py, asyncio or Python itself)."""
    return type(value).__module__.startswith("bot.")


def reached(root: object, jobs: GameJobs, depth: int = DEPTH) -> list[str]:
    """Where, from ``root``, something in ``FORBIDDEN`` is held: its path. The walk goes
    through the bot's own objects, containers, bound methods, partials and closures; not
    into discord.py's objects, nor into the jobs (which hold the storage by design)."""
    the_jobs = {id(getattr(jobs, f.name)) for f in fields(jobs)}
    found: list[str] = []
    seen: set[int] = set()

    def walk(value: Any, path: str, left: int) -> None:
        if isinstance(value, FORBIDDEN):
            found.append(f"{path}: {type(value).__name__}")
            return
        if id(value) in seen or left == 0 or id(value) in the_jobs:
            return
        seen.add(id(value))
        inner: list[tuple[str, Any]] = []
        if isinstance(value, (list, tuple, set, frozenset)):
            inner = [(f"[{i}]", v) for i, v in enumerate(value)]
        elif isinstance(value, dict):
            inner = [(f"[{k!r}]", v) for k, v in value.items()]
        elif isinstance(value, types.MethodType):
            inner = [(".__self__", value.__self__)]
        elif isinstance(value, functools.partial):
            inner = [(".func", value.func), *((f"({i})", a) for i, a in enumerate(value.args))]
            inner += [(f"({k}=)", v) for k, v in value.keywords.items()]
        elif isinstance(value, types.FunctionType):
            cells = value.__closure__ or ()
            inner = [(f"<{i}>", c.cell_contents) for i, c in enumerate(cells) if _full(c)]
        elif ours(value):
            inner = [(f".{k}", v) for k, v in attributes(value)]
        for step, v in inner:
            walk(v, path + step, left - 1)

    walk(root, type(root).__name__, depth)
    return found


def _full(cell: Any) -> bool:
    try:
        cell.cell_contents  # noqa: B018
    except ValueError:
        return False
    return True


def parts_reached(root: object, jobs: GameJobs) -> list[object]:
    """Every object of the bot the walk from ``root`` meets but the jobs: the parts."""
    the_jobs = {id(getattr(jobs, f.name)) for f in fields(jobs)}
    out: dict[int, object] = {}

    def walk(value: Any, left: int) -> None:
        if id(value) in out or id(value) in the_jobs or left == 0:
            return
        if isinstance(value, (list, tuple, set, frozenset)):
            for v in value:
                walk(v, left - 1)
        elif isinstance(value, dict):
            for v in value.values():
                walk(v, left - 1)
        elif isinstance(value, types.MethodType):
            walk(value.__self__, left - 1)
        elif ours(value) and not isinstance(value, type):
            out[id(value)] = value
            for _, v in attributes(value):
                walk(v, left - 1)

    walk(root, DEPTH)
    return list(out.values())


def _asked(cls: type) -> set[str]:
    """The attributes of ``self`` read (loaded, not assigned) in the code of ``cls`` and
    of its bases of the bot; for the client's parts (a record), ``self.parts.<name>``."""
    names: set[str] = set()
    for c in cls.__mro__:
        if not c.__module__.startswith("bot."):
            continue
        tree = ast.parse(textwrap.dedent(inspect.getsource(c)))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
                if isinstance(node.value, ast.Name) and node.value.id == "self":
                    names.add(node.attr)
                elif isinstance(node.value, ast.Attribute) and node.value.attr == "parts":
                    names.add(f"parts.{node.attr}")
    return names


def jobs_held(part: object, jobs: GameJobs) -> dict[str, str]:
    """The jobs of the game service (and its shared ports) the part holds: its attribute
    -> the job's name in the record."""
    named = {id(getattr(jobs, f.name)): f.name for f in fields(jobs)}
    return {k: named[id(v)] for k, v in attributes(part) if id(v) in named}


def unasked(client: commands.Bot, jobs: GameJobs) -> list[str]:
    """The jobs a part holds and never asks: ``Part.attribute``."""
    out = []
    for part in parts_reached(client, jobs):
        held = jobs_held(part, jobs)
        if not held:
            continue
        if isinstance(part, Parts):  # a record: the client asks its jobs
            asked = {n.removeprefix("parts.") for n in _asked(type(client)) if "." in n}
        else:
            asked = _asked(type(part))
        out += [f"{type(part).__name__}.{a}" for a in held if a not in asked]
    return sorted(out)


def test_no_part_reaches_the_storage_or_the_record(tmp_path: Path) -> None:
    bot = make_bot(tmp_path / "af.db", health_file=str(tmp_path / "health"))
    jobs = jobs_of(bot)
    assert reached(bot, jobs) == []
    kinds = {type(p).__name__ for p in parts_reached(bot, jobs)}
    # The walk meets every part the factory built (a part it misses is not checked).
    for part in (
        "Parts",
        "Announcer",
        "BoardEdits",
        "Pictures",
        "DeliveryWorker",
        "Couriers",
        "TurnCourier",
        "MemberCourier",
        "GameCourier",
        "Messenger",
        "Notifier",
        "InteractionOwners",
        "Background",
        "Heartbeat",
        "CommandTree",
        "Picks",
        *(type(c).__name__ for c in bot.parts.cogs),
    ):
        assert part in kinds, part


def test_no_part_of_discords_side_imports_the_record_of_every_job() -> None:
    found = []
    for path in sorted(DISCORD.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module in (
                "bot.play.jobs",
                "bot.play.service",
            ):
                found.append(f"{path.relative_to(DISCORD)}:{node.lineno} imports {node.module}")
    assert found == []


def test_each_part_asks_each_job_it_is_handed(tmp_path: Path) -> None:
    bot = make_bot(tmp_path / "af.db", health_file=str(tmp_path / "health"))
    assert unasked(bot, jobs_of(bot)) == []


def test_each_part_is_handed_only_the_jobs_it_uses(tmp_path: Path) -> None:
    bot = make_bot(tmp_path / "af.db", health_file=str(tmp_path / "health"))
    parts, jobs = bot.parts, jobs_of(bot)
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
    kinds = {type(getattr(jobs, f.name)) for f in fields(jobs)}
    handed: dict[str, set[str]] = {}
    for part in parts_reached(bot, jobs):
        name = type(part).__name__
        handed.setdefault(name, set()).update(jobs_held(part, jobs).values())
        # A job of its own (not the one the factory built for everyone) would be a
        # second set of games in memory, or a second clock.
        values = [v for _, v in attributes(part)]
        assert all(v in _jobs_of(jobs) for v in values if type(v) in kinds), name
    # What each part asks of the game service, as built (a change here is a change of design).
    assert handed["Parts"] == {"database", "games", "orphans", "command_digests", "readers"}
    assert handed["Notifier"] == {"members"}
    assert handed["Pictures"] == {"seats"}
    assert handed["Records"] == {"records"}
    assert handed["InteractionOwners"] == {"owners"}
    assert handed["DeliveryWorker"] == {"orphans", "outbox"}
    assert handed["Heartbeat"] == {"database"}
    assert handed["Picks"] == {"moves"}
    assert handed["CommandTree"] == {"readers"}
    assert handed["Announcer"] == set()
    assert handed["Couriers"] == set()  # it routes a delivery to the courier of its kind
    assert handed["TurnCourier"] == {"turns"}
    assert handed["MemberCourier"] == {"members", "story", "readers"}
    assert handed["GameCourier"] == {"story", "readers"}
    assert handed["Messenger"] == {"orphans"}
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
    jobs = jobs_of(bot)
    classes = {type(getattr(jobs, f.name)).__name__ for f in fields(jobs)}
    for cog in bot.parts.cogs:
        params = inspect.signature(type(cog).__init__).parameters
        annotations = {n: str(p.annotation) for n, p in params.items() if n != "self"}
        named = " ".join(annotations.values())
        for forbidden in ("Storage", "StoreArea", "Store", "GameJobs", "GameService", "Protocol"):
            assert forbidden not in named, (type(cog).__name__, annotations)
        for attr, job in jobs_held(cog, jobs).items():
            cls = type(getattr(jobs, job)).__name__
            assert cls in classes and cls in annotations.values(), (type(cog).__name__, attr)


def test_each_kind_of_delivery_has_its_courier(tmp_path: Path) -> None:
    """The couriers route every kind of the outbox's deliveries, and no other."""
    bot = make_bot(tmp_path / "af.db")
    assert sorted(bot.parts.deliveries.couriers.by_kind) == sorted(KINDS)

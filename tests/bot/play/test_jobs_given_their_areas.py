"""Each job of the game service is handed only the areas of the storage it uses (issue 43):
none holds the storage as a whole but the database's lifecycle (``GameDatabase``), each
area a job holds is one it asks, and what a job holds of the storage is private to it
(no ``games.store``, no ``outbox.store``: Discord's side cannot reach the rows through a
job). Checked by type over what each job holds, not by the names it gives them."""

from __future__ import annotations

import ast
import functools
import inspect
import textwrap
from dataclasses import fields

from bot.factory import build_service
from bot.play.database import GameDatabase
from bot.play.jobs import GameJobs
from bot.store.db import Database
from bot.store.game_store import GameStore
from bot.store.shared_sql import DatabaseSlot, StoreArea
from bot.store.storage import Storage


def _jobs() -> GameJobs:
    return build_service(Storage.to_open("never-opened.db"))  # only what it holds is looked at


def _held(obj: object) -> dict[str, object]:
    return dict(vars(obj)) if hasattr(obj, "__dict__") else {}


def _attributes_read(cls: type) -> set[str]:
    """The attributes of ``self`` its methods read (``self.x`` loaded), in its own source."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    return {
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.ctx, ast.Load)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    }


def test_no_job_holds_the_storage_but_the_databases_lifecycle() -> None:
    jobs = _jobs()
    holders = []
    for f in fields(jobs):
        job = getattr(jobs, f.name)
        if f.name == "store" or isinstance(job, GameDatabase):
            continue
        holders += [f"{f.name}.{name}" for name, v in _held(job).items() if isinstance(v, Storage)]
    assert holders == []
    assert [v for v in _held(jobs.database).values() if isinstance(v, Storage)] == [jobs.store]


def test_each_area_a_job_holds_is_private_and_asked() -> None:
    jobs = _jobs()
    unused, public = [], []
    for f in fields(jobs):
        job = getattr(jobs, f.name)
        if f.name == "store":
            continue
        read = _attributes_read(type(job))
        for name, v in _held(job).items():
            if not isinstance(v, StoreArea):
                continue
            if not name.startswith("_"):
                public.append(f"{f.name}.{name}")
            if name not in read:
                unused.append(f"{f.name}.{name}")
    assert public == []  # a job's area is not a way to the rows for whoever holds the job
    assert unused == []  # handed an area it never asks


def test_the_areas_handed_are_the_storages_own() -> None:
    """Every job works on the one database: the areas it holds are the storage's."""
    jobs = _jobs()
    areas = {id(v) for v in vars(jobs.store).values() if isinstance(v, StoreArea)}
    for f in fields(jobs):
        for v in _held(getattr(jobs, f.name)).values():
            if isinstance(v, StoreArea):
                assert id(v) in areas, f.name


# What a job may not show to whoever holds it, under any public name.
STORAGE_KINDS = (Storage, StoreArea, DatabaseSlot, Database)


def shown(job: object) -> dict[str, object]:
    """What ``job`` shows publicly but its methods: its public attributes (``__dict__`` and
    slots) and the value of each public property of its class."""
    out = {name: v for name, v in _held(job).items() if not name.startswith("_")}
    for cls in type(job).__mro__:
        for name in getattr(cls, "__slots__", ()):
            if not name.startswith("_") and hasattr(job, name):
                out[name] = getattr(job, name)
    for name, member in inspect.getmembers(type(job)):
        if not name.startswith("_") and isinstance(member, (property, functools.cached_property)):
            out[name] = getattr(job, name)
    return out


def test_no_job_shows_the_storage_or_an_area_of_it() -> None:
    """A job's areas are its own (``test_each_area_a_job_holds_is_private_and_asked``): no
    property, nor any other public name, hands one out (a ``look.rows`` returning its
    ``_game_rows`` would take Discord's side to the rows). GameDatabase, which holds the
    storage for its lifecycle, shows it nowhere either."""
    jobs = _jobs()
    showing = []
    for f in fields(jobs):
        if f.name == "store":
            continue
        job = getattr(jobs, f.name)
        showing += [
            f"{f.name}.{name}: {type(v).__name__}"
            for name, v in shown(job).items()
            if isinstance(v, STORAGE_KINDS)
        ]
    assert showing == []


STORAGE_NAMES = frozenset(
    {"Storage", "DatabaseSlot", "Database", "StoreArea"}
    | {cls.__name__ for cls in StoreArea.__subclasses__()}
)


def handed_out(cls: type) -> list[str]:
    """The public methods of ``cls`` annotated to return the storage, its database or an
    area of it (the annotation as written, whatever wraps it)."""
    out = []
    for name, member in inspect.getmembers(cls, inspect.isfunction):
        returns = str(inspect.signature(member).return_annotation)
        words = set(returns.replace("[", " ").replace("]", " ").replace("|", " ").split())
        if not name.startswith("_") and words & STORAGE_NAMES:
            out.append(f"{name} -> {returns}")
    return out


def test_no_job_method_returns_the_storage_or_an_area_of_it() -> None:
    """Nor does a public method of a job: none returns the storage, its database or an area
    (``def rows(self) -> GameStore`` would hand the rows out as a property would)."""
    jobs = _jobs()
    handing = [
        f"{f.name}.{found}"
        for f in fields(jobs)
        if f.name != "store"
        for found in handed_out(type(getattr(jobs, f.name)))
    ]
    assert handing == []


def test_the_check_reads_a_method_handing_out_an_area() -> None:
    class Look:
        def rows(self) -> GameStore:  # planted
            raise NotImplementedError

        def maybe(self) -> Storage | None:  # planted
            raise NotImplementedError

        def _own(self) -> GameStore:  # private: its own business
            raise NotImplementedError

    assert handed_out(Look) == ["maybe -> Storage | None", "rows -> GameStore"]

"""One ``/play``'s path through the bot's modules: hops, packages crossed, modules entered.

    .venv/bin/python tests/benchmarks/play_path.py [--runs 5] [--move end|dock|both]
        [--db sqlite|pg] [--json] [--sequence] [--leaf bot/play/choices.py ...]
        [--properties]

A member's ``/play`` is sent through discord.py against the fake Discord on a fresh game
(a new bot, database and fake for each run; seeded, so a run is the same game every
time), and the Python calls it makes are traced (``sys.settrace``) from the interaction's
arrival until its private answer was recorded and the channel's deliveries landed (the
turn message edited; after ``end``, the closed turn's message, the next turn's message
with its board pinging the member to act, and their turn's notice, a DM if they chose
one), every task it started done (the removal of an edit that landed, within a second).
``--move end`` is the ``/play end`` that closes a turn (the member's ships docked first,
untraced); ``dock`` the first dock of a turn; ``both`` (the default) measures each. The
figures of each run are printed, then their medians, then the details of the median run
(``--json``: all of it, machine-readable, to compare before and after a change;
``--sequence``: the path in order too). About 15 s for the default 5 runs of each move.

Definitions:

- A **module** is a ``.py`` file under ``bot/`` or ``engine/`` (the project); its
  **package** is its folder (``bot/discord/cogs``, ``bot/discord``, ``bot/play``,
  ``bot/play/learn``, ``bot/store``, ``bot/text``, ``bot/render``, ``engine``,
  ``engine/ai``...; ``bot`` for the modules at the top of ``bot/``).
- A **hop** is a call from a function of module A to a function of module B ≠ A.
  The caller is the nearest project frame on the stack (discord.py, asyncio and the
  libraries between are looked through; a comprehension counts as the function it is
  in). Repeated calls from one invocation of a function into the same module count once
  (a loop calling ``text()`` 20 times is one hop; so is a coroutine awaited, suspended
  and resumed). A coroutine the event loop starts or resumes, with no project frame
  between, is called by the project frame that created its task (``create_task``,
  ``gather``...); a function run in a worker thread (``asyncio.to_thread``) by the one
  that sent it there.
- A **read of a value** — a property's getter (``game.state``, ``row.is_ai``), written as
  an attribute read at the call site — is no hop (``--properties`` counts them as calls,
  as the first version of this benchmark did); what the getter itself calls is counted.
- An **entry from outside**: a project function called with no project frame on that
  stack (discord.py handing over the interaction or the command, a loop callback such as
  a timer): not a hop, but it enters its module (counted once per frame).
- The trip's **path** is its hops that do not start inside the pure leaves ``engine/``,
  ``bot/text/``, ``bot/render/`` (and those given with ``--leaf``): what happens inside a
  leaf is the leaf's business (entering ``engine`` from ``bot/play`` is a hop; the engine
  calling itself, or ``bot/text`` calling the engine, is not counted). A leaf calling out
  of the leaves (a callback it was given, the store) is listed apart.
- A **package boundary crossed** is a distinct ordered pair (package A → package B,
  A ≠ B) seen on the path; **crossings** counts them all (not distinct).
- The **entries** of a module: how many hops of the path enter it, plus its entries from
  outside; "from another package": those whose caller is in another package (or outside).
  The headline's ``max_entries`` (and ``max_entries_across``) is the most of a module
  outside the leaves. Entries count hops, so a function calling one module three times
  (a loop, three questions, or a generator sent three values) enters it once: the
  **calls from another package** count each call one by one (a function started, or a
  generator resumed with a value — ``next``/``asend`` is a message to it — never a
  coroutine resumed after an ``await``); ``max_calls_across`` is their most.
- **Files**: the distinct modules at either end of a hop of the path (or entered from
  outside).
- A hop **against the layers** (↑) goes from a layer to one above it (``bot/play`` calling
  into ``bot/discord``, ``bot/store`` into ``bot/play``): a callback.
- **Store calls**: calls of the storage (``bot/store/*_store.py``, ``storage.py``,
  ``shared_sql.py``, ``db.py``; not its rows and values) from outside ``bot/store``, each
  call, by name. **SQL statements**: statements run through the database wrapper
  (``bot/store/db.py``: ``execute``, ``executemany`` and ``fetch`` of a transaction or a
  read), and the write transactions opened (``BEGIN``/``COMMIT`` on SQLite).

Only the trip is counted: the work of the task that feeds the interaction (discord.py
parsing it), of every task created from the trip (transitively) and of the loop's
callbacks during it. Work of other tasks that run meanwhile (the delivery worker looking
at the outbox, discord.py reading the gateway's events about the bot's own messages)
is counted apart ("other tasks") and not in the figures.

The bot's private answer is deferred only after 60 s here (tracing slows it down; a
deferral would be a different path). The fake server runs in the same process and its
code (under ``tests/``) is not the project's: it is looked through like discord.py.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dis
import functools
import json
import random
import statistics
import sys
import tempfile
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import bot
from engine import legal_actions
from tests.bot.table import Clock, Table, make_bot
from tests.discord_fake import BotHarness, FakeDiscord

ROOT = Path(bot.__file__).resolve().parents[1]
LEAVES = ("engine", "bot/text", "bot/render")  # --leaf adds to them
# The bot's layers, from the top (bot/discord/cogs sits in bot/discord); a call from one
# to a layer above it is a callback. The modules at the top of bot/ are in no layer.
LAYERS = ("bot/discord", "bot/play", "bot/render", "bot/text", "bot/store", "engine")
COMPREHENSIONS = frozenset({"<listcomp>", "<genexpr>", "<dictcomp>", "<setcomp>"})
# The database wrapper's functions that each run one statement (or open a transaction).
STATEMENTS = frozenset({"execute", "executemany", "fetch"})
TX_CLASSES = frozenset({"_SQLiteTx", "_PostgresTx"})
TRANSACTIONS = frozenset({"SQLiteDatabase.transaction", "PostgresDatabase.transaction"})
DB_MODULE = "bot/store/db.py"


@dataclass(frozen=True, slots=True)
class Module:
    """A project module (``bot/discord/cogs/play.py``), its package and whether it is a leaf."""

    name: str
    package: str
    leaf: bool
    layer: int | None  # its place in LAYERS (None: bot's top, in no layer)


def module_of(path: str, leaves: tuple[str, ...] = LEAVES) -> Module | None:
    """The project module of a source file (None: not the project's); ``leaves``: folders
    and modules (``bot/play/choices.py``) whose insides are not counted."""
    try:
        relative = Path(path).resolve().relative_to(ROOT)
    except ValueError:
        return None
    if relative.suffix != ".py" or relative.parts[0] not in ("bot", "engine"):
        return None
    name = relative.as_posix()
    package = relative.parent.as_posix()
    leaf = is_leaf(name, leaves)
    layer = next(
        (i for i, top in enumerate(LAYERS) if package == top or package.startswith(top + "/")),
        None,
    )
    return Module(name, package, leaf, layer)


def is_leaf(name: str, leaves: tuple[str, ...] = LEAVES) -> bool:
    """Whether module ``name`` (``engine/state.py``) is in one of ``leaves``."""
    return any(name == leaf or name.startswith(leaf.rstrip("/") + "/") for leaf in leaves)


def is_store_api(module: Module) -> bool:
    """The storage's modules (its areas, their shared SQL, the database), not its rows and
    values (``rows.py``, ``game_config.py``...)."""
    base = module.name.rsplit("/", 1)[-1]
    return module.package == "bot/store" and (
        base.endswith("_store.py") or base in ("storage.py", "shared_sql.py", "db.py")
    )


@dataclass(frozen=True, slots=True)
class Hop:
    """A module entered: from ``source`` (None: from outside), to ``target``."""

    source: Module | None
    target: Module
    function: str  # the function of the target entered first
    task: str  # the task (or thread, or loop callback) it happened in

    @property
    def crosses(self) -> bool:
        return self.source is not None and self.source.package != self.target.package

    @property
    def against_layers(self) -> bool:
        s, t = self.source, self.target
        return (
            s is not None
            and s.layer is not None
            and t.layer is not None
            and t.layer < s.layer
            and not (s.package.startswith(t.package + "/"))  # cogs into bot/discord: down
        )


@dataclass
class Trace:
    """What the tracer saw of one trip."""

    hops: list[Hop] = field(default_factory=list)
    store_calls: Counter[str] = field(default_factory=Counter)
    sql: Counter[str] = field(default_factory=Counter)  # by first word (SELECT, INSERT...)
    transactions: int = 0
    other_tasks: Counter[str] = field(default_factory=Counter)  # hops outside the trip
    leaf_exits: Counter[str] = field(default_factory=Counter)  # a leaf calling out of them
    # every call into a module from another package (or outside), one by one
    calls_across: Counter[str] = field(default_factory=Counter)
    unfinished: list[str] = field(default_factory=list)  # trip tasks still running at the end


_RESUMES: dict[CodeType, dict[int, int]] = {}


def is_a_call(frame: FrameType) -> bool:
    """Whether a frame's "call" event is a call (a function started, or a generator sent a
    value: each ``next``/``asend`` is a message to it) rather than a coroutine resumed
    after an ``await`` (Python 3.11+: the ``RESUME`` it stopped at says which; older: all
    are calls)."""
    code = frame.f_code
    resumes = _RESUMES.get(code)
    if resumes is None:
        resumes = _RESUMES[code] = {
            i.offset: int(i.arg or 0) for i in dis.get_instructions(code) if i.opname == "RESUME"
        }
    return resumes.get(frame.f_lasti, 0) in (0, 1)  # 0: started; 1: after a yield


def task_label(task: asyncio.Task[Any] | None) -> str:
    """A task's name without its numbers (``af-board-edits-123`` -> ``af-board-edits``)."""
    if task is None:
        return "(loop callback)"
    name = task.get_name()
    parts = name.split("-")
    while len(parts) > 1 and parts[-1].isdigit():
        parts.pop()
    if parts == ["Task"]:
        coro = task.get_coro()
        code = getattr(coro, "cr_code", None)
        return f"task {code.co_qualname}" if code is not None else "task"
    return "-".join(parts)


def property_getters() -> frozenset[CodeType]:
    """The code of every property getter of the project's classes (a read of a value)."""
    import importlib
    import inspect
    import pkgutil

    import engine

    codes: set[CodeType] = set()
    for package in (bot, engine):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if info.name.endswith("__main__"):
                continue
            module = importlib.import_module(info.name)
            for _, cls in inspect.getmembers(module, inspect.isclass):
                if cls.__module__ != module.__name__:
                    continue
                for member in vars(cls).values():
                    if isinstance(member, property) and member.fget is not None:
                        codes.add(member.fget.__code__)
                    elif isinstance(member, functools.cached_property):
                        codes.add(member.func.__code__)
    return frozenset(codes)


class PathTracer:
    """Traces the project's calls during one trip (see the module docstring)."""

    def __init__(self, leaves: tuple[str, ...] = LEAVES, *, properties: bool = False) -> None:
        self.leaves = leaves
        self.reads = frozenset() if properties else property_getters()
        self.trace = Trace()
        self._modules: dict[CodeType, Module | None] = {}
        self._seen: set[tuple[int, str]] = set()  # (caller frame, target module) counted
        self._started: set[int] = set()  # frames whose first call was counted
        self._kept: list[FrameType] = []  # frames counted: alive, so their ids stay theirs
        self._trip: set[asyncio.Task[Any]] = set()
        self._parents: dict[asyncio.Task[Any], FrameType | None] = {}
        self._local = threading.local()  # in a worker thread: its parent frame, in the trip?
        self._lock = threading.Lock()
        self._open = False
        self._driver: asyncio.Task[Any] | None = None

    # ---- what a frame is ---------------------------------------------------------------

    def _module(self, code: CodeType) -> Module | None:
        try:
            return self._modules[code]
        except KeyError:
            found = self._modules[code] = module_of(code.co_filename, self.leaves)
            return found

    def _caller(self, frame: FrameType | None) -> FrameType | None:
        """The nearest project frame from ``frame`` down this thread's stack, then, at its
        bottom, down the stack that started it (the task's creator, the thread's sender);
        a comprehension stands for the function it is in."""
        f = frame
        while f is not None:
            if self._module(f.f_code) is not None:
                while f.f_code.co_name in COMPREHENSIONS and f.f_back is not None:
                    back = f.f_back
                    if back.f_code.co_filename != f.f_code.co_filename:
                        break
                    f = back
                return f
            f = f.f_back
        return self._root_parent()

    def _root_parent(self) -> FrameType | None:
        if getattr(self._local, "thread", False):
            parent: FrameType | None = self._local.parent
            return parent
        try:
            task = asyncio.current_task()
        except RuntimeError:
            return None
        return self._parents.get(task) if task is not None else None

    def _where(self) -> tuple[bool, str]:
        """Whether the code running now is the trip's, and where it runs (for the output)."""
        if getattr(self._local, "thread", False):
            return bool(self._local.in_trip), f"thread of {self._local.label}"
        try:
            task = asyncio.current_task()
        except RuntimeError:
            return False, "(no loop)"
        if task is None:
            return self._open, "(loop callback)"  # a callback during the trip
        return task in self._trip, task_label(task)

    # ---- the trace function ------------------------------------------------------------

    def _trace_call(self, frame: FrameType, event: str, arg: object) -> None:
        if event != "call":
            return None
        code = frame.f_code
        target = self._module(code)
        if target is None or code in self.reads:
            return None  # not the project's, or a read of a value
        back = frame.f_back
        if target.leaf and back is not None:
            behind = self._module(back.f_code)
            if behind is not None and behind.leaf:
                return None  # inside a leaf: the leaf's business
        caller = self._caller(back)
        source = self._module(caller.f_code) if caller is not None else None
        if source is not None and source.leaf:
            if not target.leaf and source.name != target.name:
                with self._lock:  # not on the path, but a leaf is not meant to call out
                    if self._where()[0] and (id(caller), target.name) not in self._seen:
                        self._seen.add((id(caller), target.name))
                        self._kept.append(caller)  # type: ignore[arg-type]
                        self.trace.leaf_exits[f"{source.name} -> {target.name}"] += 1
            return None
        in_trip, where = self._where()
        with self._lock:
            self._count_store(frame, code, target, source, in_trip)
            if source is not None and source.name == target.name:
                return None
            across = source is None or source.package != target.package
            if in_trip and across and is_a_call(frame):
                self.trace.calls_across[target.name] += 1
            key = (id(caller), target.name) if caller is not None else (id(frame), "")
            if key in self._seen:
                return None  # the same invocation again, or the same coroutine resumed
            self._seen.add(key)
            self._kept.append(caller if caller is not None else frame)
            if not in_trip:
                self.trace.other_tasks[where] += 1
                return None
            self.trace.hops.append(Hop(source, target, code.co_qualname, where))
        return None

    def _count_store(
        self,
        frame: FrameType,
        code: CodeType,
        target: Module,
        source: Module | None,
        in_trip: bool,
    ) -> None:
        """Store calls and SQL statements (first calls only, not a coroutine's resumptions)."""
        if target.package != "bot/store" or not in_trip:
            return
        store_call = is_store_api(target) and (source is None or source.package != "bot/store")
        statement = target.name == DB_MODULE and (
            code.co_qualname in TRANSACTIONS
            or (code.co_name in STATEMENTS and code.co_qualname.split(".")[0] in TX_CLASSES)
        )
        if not (store_call or statement) or id(frame) in self._started:
            return
        self._started.add(id(frame))
        self._kept.append(frame)
        if store_call:
            self.trace.store_calls[code.co_qualname] += 1
        if code.co_qualname in TRANSACTIONS:
            self.trace.transactions += 1
        elif statement:
            sql = str(frame.f_locals.get("sql", "")).split()
            self.trace.sql[sql[0].upper() if sql else "?"] += 1

    # ---- tasks and threads -------------------------------------------------------------

    def _task_factory(
        self, loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any
    ) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.Task(coro, loop=loop, **kwargs)
        if self._open:
            # A task created by the trip's code is the trip's; one created by a loop
            # callback (a connection accepted by the fake's server) is not.
            in_trip = asyncio.current_task() is not None and self._where()[0]
            if in_trip:
                self._trip.add(task)
                self._parents[task] = self._caller(sys._getframe(1))
        return task

    def _executor(self, original: Callable[..., Any]) -> Callable[..., Any]:
        """``loop.run_in_executor`` whose functions are traced in their thread, called by
        the frame that sent them there."""

        def run_in_executor(executor: Any, func: Callable[..., Any], *args: Any) -> Any:
            parent = self._caller(sys._getframe(1))
            in_trip, where = self._where()

            def traced(*a: Any) -> Any:
                local = self._local
                local.thread, local.parent, local.in_trip, local.label = (
                    True,
                    parent,
                    in_trip,
                    where,
                )
                before = sys.gettrace()
                sys.settrace(self._trace_call)
                try:
                    return func(*a)
                finally:
                    sys.settrace(before)
                    local.thread = False

            return original(executor, traced, *args)

        return run_in_executor

    @contextlib.contextmanager
    def watching(self) -> Iterator[None]:
        """Trace the trip that starts in the current task (the one feeding the interaction)."""
        loop = asyncio.get_running_loop()
        factory = loop.get_task_factory()
        self._driver = asyncio.current_task()
        assert self._driver is not None
        self._trip.add(self._driver)
        loop.set_task_factory(self._task_factory)
        # to_thread looks the method up on the running loop: its instance's wins
        setattr(loop, "run_in_executor", self._executor(loop.run_in_executor))  # noqa: B010
        before = sys.gettrace()
        self._open = True
        sys.settrace(self._trace_call)
        try:
            yield
        finally:
            sys.settrace(before)
            self._open = False
            delattr(loop, "run_in_executor")
            loop.set_task_factory(factory)

    async def wait_trip(self, timeout: float) -> None:
        """Wait until the tasks of the trip that run the project's code are done (board
        edits, the removal of landed edits...), the ones they start too."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            pending = [t for t in self._trip if not t.done() and self._runs_project(t)]
            pending = [t for t in pending if t is not self._driver]
            if not pending:
                return
            left = end - loop.time()
            if left <= 0:
                self.trace.unfinished = sorted(task_label(t) for t in pending)
                return
            await asyncio.wait(pending, timeout=left)

    def _runs_project(self, task: asyncio.Task[Any]) -> bool:
        code = getattr(task.get_coro(), "cr_code", None)
        return code is not None and self._module(code) is not None


# ---- the figures ---------------------------------------------------------------------------


@dataclass
class Figures:
    """One trip's figures (see the module docstring for what each counts)."""

    move: str
    seed: int
    leaves: list[str]
    hops: int
    files: int
    package_pairs: int
    crossings: int
    outside_entries: int
    against_layers: int
    max_entries: int  # of a module outside the leaves
    max_entries_across: int  # the same, from another package (or outside)
    max_calls_across: int  # every call from another package, one by one
    entries: dict[str, int]
    entries_across: dict[str, int]
    calls_across: dict[str, int]
    functions: dict[str, dict[str, int]]
    pairs: dict[str, int]
    store_calls: dict[str, int]
    sql_statements: int
    sql: dict[str, int]
    transactions: int
    sequence: list[dict[str, Any]]
    leaf_exits: dict[str, int]
    other_tasks: dict[str, int]
    discord_requests: dict[str, int]
    unfinished: list[str]

    HEADLINE = (
        "hops",
        "files",
        "package_pairs",
        "crossings",
        "outside_entries",
        "against_layers",
        "max_entries",
        "max_entries_across",
        "max_calls_across",
        "sql_statements",
        "transactions",
    )

    def headline(self) -> dict[str, int]:
        return {k: int(getattr(self, k)) for k in self.HEADLINE} | {
            "store_calls": sum(self.store_calls.values())
        }

    def leaf(self, name: str) -> bool:
        return is_leaf(name, tuple(self.leaves))

    def most_entered(self) -> tuple[str, int]:
        """The module outside the leaves entered most (the first in the order met)."""
        return max(
            ((m, n) for m, n in self.entries.items() if not self.leaf(m)),
            key=lambda mn: mn[1],
            default=("-", 0),
        )


def figures(
    trace: Trace, move: str, seed: int, requests: Counter[str], leaves: tuple[str, ...]
) -> Figures:
    path = [h for h in trace.hops if h.source is not None]
    entered = trace.hops  # the path's hops and the entries from outside
    files = {h.target.name for h in entered} | {h.source.name for h in path if h.source}
    pairs = Counter(
        f"{h.source.package} -> {h.target.package}" for h in path if h.source and h.crosses
    )
    entries = Counter(h.target.name for h in entered)
    across = Counter(
        h.target.name for h in entered if h.source is None or h.source.package != h.target.package
    )
    functions: dict[str, Counter[str]] = {}
    for h in entered:
        functions.setdefault(h.target.name, Counter())[h.function] += 1

    def most(counts: Counter[str]) -> int:
        return max((n for m, n in counts.items() if not is_leaf(m, leaves)), default=0)

    return Figures(
        move=move,
        seed=seed,
        leaves=list(leaves),
        hops=len(path),
        files=len(files),
        package_pairs=len(pairs),
        crossings=sum(pairs.values()),
        outside_entries=len(entered) - len(path),
        against_layers=sum(h.against_layers for h in path),
        max_entries=most(entries),
        max_entries_across=most(across),
        max_calls_across=most(trace.calls_across),
        entries=dict(entries.most_common()),
        entries_across=dict(across.most_common()),
        calls_across=dict(trace.calls_across.most_common()),
        functions={m: dict(c.most_common()) for m, c in functions.items()},
        pairs=dict(pairs.most_common()),
        store_calls=dict(trace.store_calls.most_common()),
        sql_statements=sum(trace.sql.values()),
        sql=dict(trace.sql.most_common()),
        transactions=trace.transactions,
        sequence=condensed(entered),
        leaf_exits=dict(trace.leaf_exits.most_common()),
        other_tasks=dict(trace.other_tasks.most_common()),
        discord_requests=dict(sorted(requests.items())),
        unfinished=trace.unfinished,
    )


def condensed(hops: list[Hop]) -> list[dict[str, Any]]:
    """The hops in order, a run of the same (source, target) in one task as one line."""
    out: list[dict[str, Any]] = []
    for h in hops:
        source = h.source.name if h.source is not None else "(outside)"
        last = out[-1] if out else None
        if (
            last is not None
            and last["from"] == source
            and last["to"] == h.target.name
            and last["task"] == h.task
        ):
            last["count"] += 1
            if h.function not in last["functions"]:
                last["functions"].append(h.function)
            continue
        out.append(
            {
                "from": source,
                "to": h.target.name,
                "functions": [h.function],
                "count": 1,
                "task": h.task,
                "against_layers": h.against_layers,
            }
        )
    return out


def folded(lines: list[dict[str, Any]], longest: int = 8) -> list[tuple[int, list[dict[str, Any]]]]:
    """The condensed sequence with a block of up to ``longest`` lines repeated back to back
    (a loop over the panel's choices) as one block and its count: [(times, block)...]."""

    def same(a: dict[str, Any], b: dict[str, Any]) -> bool:
        return all(a[k] == b[k] for k in ("from", "to", "task"))

    out: list[tuple[int, list[dict[str, Any]]]] = []
    i = 0
    while i < len(lines):
        best = (1, 1)  # (times, length)
        for length in range(1, longest + 1):
            block = lines[i : i + length]
            if len(block) < length:
                break
            times = 1
            while all(
                i + times * length + k < len(lines)
                and same(lines[i + times * length + k], block[k])
                for k in range(length)
            ):
                times += 1
            if times > 1 and times * length > best[0] * best[1]:
                best = (times, length)
        times, length = best
        out.append((times, lines[i : i + length]))
        i += times * length
    return out


# ---- one /play ----------------------------------------------------------------------------


def short(name: str) -> str:
    return name.removeprefix("bot/").removesuffix(".py")


async def one_play(
    move: str,
    seed: int,
    db: str | None = None,
    *,
    leaves: tuple[str, ...] = LEAVES,
    properties: bool = False,
    real_renderer: bool = True,
) -> Figures:
    """Trace one ``/play`` (``move``: ``end`` or ``dock``) on a fresh game of ``seed``, on a
    new SQLite file (or ``db``, a PostgreSQL URL); ``real_renderer``: the board drawn (else
    a stand-in outside the project, for a quick test)."""
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord() as fake:
            new_bot = make_bot(
                db or Path(tmp) / "af.db",
                real_renderer=real_renderer,
                clock=Clock(),
                defer_after_seconds=60.0,
            )
            async with BotHarness(fake, new_bot, timeout=120) as h:
                t = Table(h, seed=seed)
                await t.open()
                member = t.member_to_act()
                rng = random.Random(seed)
                for _ in range(30):
                    legal = [str(a) for a in legal_actions(t.state)]
                    if move == "dock" or "end" in legal:
                        break
                    await t.play(t.seeded_move(rng), member)
                else:
                    raise RuntimeError(f"seed {seed}: `end` never became legal")
                notation = "end" if move == "end" else t.seeded_move(rng)
                if move == "dock" and not notation.startswith("dock"):
                    raise RuntimeError(f"seed {seed}: no dock to play ({notation})")
                await t.settle()
                payload = h.slash("play", {"move": notation}, member=member)
                start = len(fake.requests)
                tracer = PathTracer(leaves, properties=properties)
                with tracer.watching():
                    result = await h.interact(payload, timeout=120)
                    await result.done(timeout=120)
                    await tracer.wait_trip(timeout=60)
                reply = str(result.data.get("content", ""))
                if not (result.ephemeral and reply.startswith("✅")):
                    raise RuntimeError(f"seed {seed}: /play {notation} was not played: {reply!r}")
                requests = Counter(f"{r.method} {r.route or r.path}" for r in fake.requests[start:])
                channel = f"/channels/{h.guild.channel_id}/messages"
                landed = [r for r in fake.requests[start:] if r.path.startswith(channel)]
                if not landed:
                    raise RuntimeError(f"seed {seed}: nothing delivered to the channel")
                return figures(tracer.trace, move, seed, requests, leaves)


# ---- output -------------------------------------------------------------------------------


def median_run(runs: list[Figures]) -> Figures:
    """The run whose hop count is the median (the first of two)."""
    ordered = sorted(runs, key=lambda f: (f.hops, f.seed))
    return ordered[(len(ordered) - 1) // 2]


def medians(runs: list[Figures]) -> dict[str, float]:
    keys = runs[0].headline().keys()
    return {k: statistics.median(r.headline()[k] for r in runs) for k in keys}


def line(f: Figures) -> str:
    name, n = f.most_entered()
    return (
        f"seed {f.seed}: {f.hops} hops, {f.files} files, {f.package_pairs} package pairs "
        f"({f.crossings} crossings), {f.outside_entries} entries from outside, "
        f"{f.against_layers} against the layers; most entered {short(name)} ×{n} "
        f"(from another package at most ×{f.max_entries_across}, called from another "
        f"package at most ×{f.max_calls_across}); "
        f"{sum(f.store_calls.values())} store calls, {f.sql_statements} SQL statements, "
        f"{f.transactions} write transactions"
    )


def details(f: Figures, sequence: bool) -> list[str]:
    out = [f"-- details of seed {f.seed} (/play {f.move}; leaves: {', '.join(f.leaves)}) --"]
    out.append("package pairs crossed (crossings):")
    out += [f"  {n:4d}  {pair}" for pair, n in f.pairs.items()]
    out.append(
        "modules entered (* more than twice, outside the leaves): entries, of them from "
        "another package, calls from another package one by one; the functions entered"
    )
    for name, n in f.entries.items():
        mark = "  " if f.leaf(name) or n <= 2 else "* "
        called = ", ".join(f"{fn} ×{c}" if c > 1 else fn for fn, c in f.functions[name].items())
        across, calls = f.entries_across.get(name, 0), f.calls_across.get(name, 0)
        out.append(f"  {mark}{n:3d} {across:3d} {calls:3d}  {name}: {called}")
    out.append("store calls (the storage's methods called from outside bot/store):")
    out += [f"  {n:3d}  {name}" for name, n in f.store_calls.items()]
    sql = ", ".join(f"{k} {n}" for k, n in f.sql.items())
    out.append(f"SQL statements: {f.sql_statements} ({sql}); write transactions: {f.transactions}")
    requests = ", ".join(f"{k} ×{n}" for k, n in f.discord_requests.items())
    out.append(f"Discord requests: {requests}")
    if f.leaf_exits:
        exits = ", ".join(f"{k} ×{n}" for k, n in f.leaf_exits.items())
        out.append(f"a leaf calling out of the leaves (not on the path): {exits}")
    if f.other_tasks:
        other = ", ".join(f"{k} {n}" for k, n in f.other_tasks.items())
        out.append(f"not counted, other tasks meanwhile (their hops): {other}")
    if f.unfinished:
        out.append(f"trip tasks still running at the end: {', '.join(f.unfinished)}")
    if sequence:
        out.append("the path in order (↑: against the layers; [task]; a loop's lines once):")
        task = None
        for times, block in folded(f.sequence):
            indent = "   "
            if times > 1:
                out.append(f"   {times} times:")
                indent = "      "
            for s in block:
                if s["task"] != task:
                    task = s["task"]
                    out.append(f"  [{task}]")
                count = f" ×{s['count']}" if s["count"] > 1 else ""
                fns = ", ".join(s["functions"][:3]) + (", ..." if len(s["functions"]) > 3 else "")
                up = "↑ " if s["against_layers"] else "  "
                out.append(f"{indent}{up}{short(s['from'])} → {short(s['to'])}{count}  ({fns})")
    return out


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    moves = ["end", "dock"] if args.move == "both" else [args.move]
    server = None
    if args.db == "pg":
        from tests.postgres import PostgresServer

        server = PostgresServer.start()
    report: dict[str, Any] = {}
    leaves = (*LEAVES, *args.leaf)
    try:
        for move in moves:
            runs: list[Figures] = []
            for i in range(args.runs):
                url = await server.create_database() if server is not None else None
                try:
                    runs.append(
                        await one_play(
                            move, args.seed + i, url, leaves=leaves, properties=args.properties
                        )
                    )
                finally:
                    if server is not None and url is not None:
                        await server.drop_database(url)
                if not args.json:
                    print(f"/play {move}  {line(runs[-1])}", flush=True)
            middle = median_run(runs)
            report[move] = {
                "median": medians(runs),
                "runs": [r.headline() | {"seed": r.seed} for r in runs],
                "median_run": middle.__dict__,
            }
            if not args.json:
                figures_ = ", ".join(f"{k} {v:g}" for k, v in report[move]["median"].items())
                print(f"/play {move}  medians of {len(runs)}: {figures_}")
                print("\n".join(details(middle, args.sequence)))
                print()
    finally:
        if server is not None:
            server.stop()
    return report


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="fresh games per move (median)")
    parser.add_argument("--move", choices=("end", "dock", "both"), default="both")
    parser.add_argument("--db", choices=("sqlite", "pg"), default="sqlite")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed")
    parser.add_argument("--json", action="store_true", help="the figures as JSON")
    parser.add_argument("--sequence", action="store_true", help="print the path in order")
    parser.add_argument(
        "--leaf",
        action="append",
        default=[],
        metavar="PATH",
        help="a folder or module counted as a leaf too (bot/play/choices.py); repeatable",
    )
    parser.add_argument(
        "--properties",
        action="store_true",
        help="count a property's getter as a call (a hop), not as a read of a value",
    )
    args = parser.parse_args(argv)
    report = asyncio.run(main_async(args))
    if args.json:
        print(json.dumps(report, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()

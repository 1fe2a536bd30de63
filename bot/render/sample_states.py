"""Sample game states made by seeded random play, for the demo boards, tests and benchmark;
and the folder the demos write to."""

from __future__ import annotations

import fnmatch
import os
import random
from collections.abc import Callable, Iterator
from pathlib import Path

from engine import (
    CHANCE,
    GameConfig,
    GameState,
    apply_in_place,
    legal_actions,
    new_game,
    sample_chance,
)

DEMO_NAMES = ("Ada", "Boris", "Zofia", "Chidi")
# What the demos write (``python -m bot --demo``, ``python -m bot.render --demo``): a folder
# holding anything else is not theirs to write into.
DEMO_FILES = (
    "demo.db",
    "demo.db-wal",
    "demo.db-shm",
    "demo.db.lock",  # left by a command that read demo.db (bot.store.db_lock)
    "turn-*.png",
    "final.png",
    "log.txt",
    "notation.txt",
    "result.txt",
    "live_*.png",
    "full_*.png",
)


class DemoFolderError(Exception):
    """The demo cannot write to that folder; the message says why, in one line."""


def check_folder(folder: str | Path) -> Path:
    """``folder`` if a demo may write there: a new folder that can be made, an empty one,
    or one holding only a demo's files (which it replaces); DemoFolderError otherwise.
    Creates nothing."""
    path = Path(folder)
    if path.exists() and not path.is_dir():
        raise DemoFolderError(f"--demo {folder}: {path} is a file; give a folder (new or empty)")
    if not path.exists():
        parent = path.absolute().parent
        while not parent.exists():
            parent = parent.parent
        if not parent.is_dir():
            raise DemoFolderError(f"--demo {folder}: cannot create it, {parent} is a file")
        if not os.access(parent, os.W_OK | os.X_OK):
            raise DemoFolderError(f"--demo {folder}: cannot create it, {parent} is not writable")
        return path
    if not os.access(path, os.W_OK | os.X_OK):
        raise DemoFolderError(f"--demo {folder}: the folder is not writable")
    others = sorted(
        entry.name
        for entry in path.iterdir()
        if not entry.name.startswith(".")
        and not (entry.is_file() and any(fnmatch.fnmatch(entry.name, p) for p in DEMO_FILES))
    )
    if others:
        shown = ", ".join(others[:3]) + (", ..." if len(others) > 3 else "")
        raise DemoFolderError(
            f"--demo {folder}: the folder holds files that are not a demo's ({shown}); give a "
            "new or empty folder, e.g. --demo demo-out"
        )
    return path


def make_folder(folder: str | Path) -> Path:
    """Create the demo's folder (checked by ``check_folder``), or DemoFolderError saying why
    it cannot be made (a place where nothing can be made, like /proc, even for root)."""
    path = Path(folder)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise DemoFolderError(f"--demo {folder}: cannot create it ({e.strerror or e})") from None
    return path


def play(
    players: int,
    seed: int,
    steps: int | None = None,
    until: Callable[[GameState], bool] | None = None,
    **config: bool,
) -> GameState:
    """A state after ``steps`` random actions (or at game end, or once ``until`` holds)."""
    rng = random.Random(seed)
    s = new_game(GameConfig(players=players, **config))
    n = 0
    while not s.over and (steps is None or n < steps):
        if until is not None and until(s):
            break
        a = sample_chance(s, rng) if s.to_act() == CHANCE else rng.choice(legal_actions(s))
        apply_in_place(s, a)
        n += 1
    return s


def states(players: int, seed: int, every: int, **config: bool) -> Iterator[GameState]:
    """Copies of every ``every``-th state of one random game, and its final state."""
    rng = random.Random(seed)
    s = new_game(GameConfig(players=players, **config))
    n = 0
    while not s.over:
        if n % every == 0:
            yield s.copy()
        a = sample_chance(s, rng) if s.to_act() == CHANCE else rng.choice(legal_actions(s))
        apply_in_place(s, a)
        n += 1
    yield s


def _richness(s: GameState) -> float:
    """How much a state shows: cards, fields, ships in orbit, colonies (for the demo boards)."""
    cards = sum(len(p.cards) for p in s.players) + len(s.turn.used)
    fields = sum(1 for t in s.fields.values() if t is not None)
    docked = sum(1 for docks in s.docks.values() for x in docks if x is not None and x.owner >= 0)
    docked += sum(len(track) for track in s.hub_docks)
    colonies = sum(sum(c) for c in s.colonies.values())
    return 3 * cards + 2 * fields + docked + colonies / 2 + 2 * (not s.relic_on_desert)


def mid_game(players: int = 4, seed: int = 1) -> GameState:
    """A busy mid-game state of one random game: the current player has ships to dock."""
    best: GameState | None = None
    score = -1.0
    for s in states(players, seed, every=1):
        if s.over or s.pending or len(s.undocked) < 2 or s.round < 6:
            continue
        r = _richness(s)
        if r > score:
            best, score = s, r
    assert best is not None
    return best


def finished(players: int = 4, seed: int = 1) -> GameState:
    """A finished game."""
    return play(players, seed)

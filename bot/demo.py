"""``python -m bot --demo DIR``: a complete game between AI seats, offline, no token needed.

It goes through the same storage (a SQLite file in DIR), game service and board
renderer as the bot, and writes a board image per turn, the game log (notation
and events) and the final scores to DIR. The game is rebuilt from the database
at the end and checked against the one played.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from bot.discord.pictures import Renderer, default_renderer
from bot.factory import build_service
from bot.play.ai import LEVELS, AIFactory, Level, RandomPlayer, default_factory
from bot.play.games import ActiveGame
from bot.play.jobs import GameJobs
from bot.render.sample_states import DemoFolderError, check_folder, make_folder
from bot.store.storage import Storage
from bot.text import describe
from engine import outcome, render


@dataclass(frozen=True, slots=True)
class DemoResult:
    """Where the demo wrote its files and how the game ended."""

    out_dir: Path
    images: int
    actions: int
    turns: int
    summary: str
    seconds: float


def random_factory(level: Level, seed: int, budget_ms: int | None) -> RandomPlayer:
    return RandomPlayer(seed)


async def run_demo(
    out_dir: str | Path,
    *,
    players: int = 4,
    levels: tuple[Level, ...] = ("normal",),
    random_seats: bool = False,
    renderer: Renderer = default_renderer,
    ai_factory: AIFactory = default_factory,
    budget_ms: int | None = 200,
    every_turn: bool = True,
    echo: Callable[[str], None] = print,
) -> DemoResult:
    """Play one game between AI (or random) seats and write its images and log to ``out_dir``."""
    started = time.perf_counter()
    out = make_folder(check_folder(out_dir))  # its own: nothing else there is replaced
    db = out / "demo.db"
    for leftover in (db, db.with_suffix(".db-wal"), db.with_suffix(".db-shm")):
        leftover.unlink(missing_ok=True)
    for old in out.glob("turn-*.png"):
        old.unlink()
    store = await Storage.open(db)
    try:
        factory = random_factory if random_seats else ai_factory
        jobs = build_service(store, ai_factory=factory, ai_budget_ms=budget_ms)
        game = await jobs.lobby.create(
            guild_id=None,
            channel_id=1,
            host_id=0,
            host_name=None,
            max_players=players,
            locale="en",
        )
        for i in range(players):
            await jobs.lobby.add_ai(game, 0, levels[i % len(levels)])
        if random_seats:  # named for what plays them: random legal moves, not an AI level
            named = [replace(s, name=f"Random {s.seat + 1}") for s in game.seats]
            await store.seat_rows.set_seats(game.id, named)
            game.seats = await store.seat_rows.seats(game.id)
        echo("seats: " + ", ".join(game.seat_names))
        await jobs.lobby.start(game, 0)
        images = 0

        async def draw(name: str) -> None:
            nonlocal images
            png = await asyncio.to_thread(renderer, game.state, game.seat_names, "en")
            (out / name).write_bytes(png)
            images += 1

        if every_turn:
            await draw(f"turn-{game.state.turn_number:03d}.png")
        while not game.state.over:
            result = await jobs.moves.play_ai(game)
            if result is None:  # pragma: no cover - every seat is an AI
                raise RuntimeError("no AI seat to act in the demo game")
            if result.turn_changed and not result.over:
                if every_turn:
                    await draw(f"turn-{game.state.turn_number:03d}.png")
                if game.state.turn_number % 10 == 0:
                    echo(f"turn {game.state.turn_number} (round {game.state.round})")
        await draw("final.png")
        summary = await _write_log(jobs, game, out)
        echo(summary)
        return DemoResult(
            out,
            images,
            len(game.game.log) if game.game else 0,
            game.state.turn_number,
            summary,
            time.perf_counter() - started,
        )
    finally:
        await store.close()


async def _write_log(jobs: GameJobs, game: ActiveGame, out: Path) -> str:
    """Write log.txt (every action with its events) and check the stored game replays."""
    names = game.seat_names
    rows = await jobs.store.action_log.actions(game.id)
    rebuilt = await jobs.games.rebuild(game.row, game.seats)
    if rebuilt.state != game.state:
        raise RuntimeError("the game rebuilt from the database differs from the one played")
    lines = []
    for row in rows:
        who = "chance" if row.actor < 0 else describe.seat_name(row.actor, names)
        lines.append(f"{row.seq + 1:4d}  {who:<16} {row.notation}")
        for e in row.events:
            player = e.get("player")
            params = {**e.get("params", {}), **({"player": player} if player is not None else {})}
            lines.append(" " * 6 + "· " + render(e["key"], params, names))
    result = outcome(game.state)
    assert result is not None
    summary = plain(describe.outcome_text(result, names))
    (out / "log.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (out / "notation.txt").write_text("\n".join(r.notation for r in rows) + "\n", encoding="utf-8")
    (out / "result.txt").write_text(summary + "\n", encoding="utf-8")
    return summary


_MARKDOWN = re.compile(r"\*\*|__|~~|\|\||`")


def plain(markdown: str) -> str:
    """Discord's markdown (bold, code, ...) left out, for a terminal and a text file."""
    return _MARKDOWN.sub("", markdown)


__all__ = ["LEVELS", "DemoFolderError", "DemoResult", "check_folder", "plain", "run_demo"]

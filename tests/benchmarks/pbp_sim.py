"""Play-by-post simulation: seeded games over simulated days through the real bot.

    python tests/benchmarks/pbp_sim.py --games 50 --days 30 [--seed 1] [--quiet 0.1]

Every seat is a member (2, 3 or 4 per game, in turn). Each time a member's turn comes,
they go quiet for the whole turn with probability ``--quiet`` (default 5 %; the turn clock then
reminds, warns and times out: the default clock, 12 h / 36 h / 48 h, action ``ai``);
otherwise they come back after a seeded delay (log-uniform between 5 minutes and
``--max-delay`` hours) and play the whole turn by ``/play`` (moves chosen by the
normal AI). Everything goes through discord.py, the fake Discord API, the game service
and SQLite, with the bot's clock injected and moved in steps of ``--step`` hours; the
turn clock's background work is driven by calling its ``tick`` at every step.

Prints per game (seats, rounds, days, timeouts, AI-played turns) and, last:
``pbp: F/N games finished, median D days, max R reminders per turn, T timeouts,
A AI-played turns``. Asserts nothing (a benchmark); every game is expected to finish.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import math
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.play.games import ActiveGame
from bot.store.clock_settings import ClockStep
from engine.ai import make_ai
from engine.ai.base import AIPlayer
from engine.serialize import loads
from tests.benchmarks.progress import tqdm
from tests.bot.table import Clock, jobs_of, make_bot
from tests.discord_fake import payloads as p
from tests.discord_fake.harness import BotHarness
from tests.discord_fake.server import FakeDiscord

H = 3600.0


@dataclass
class SimGame:
    index: int
    channel_id: int
    members: list[dict[str, Any]]  # member payloads, in seat order
    game_id: int = 0
    started: float = 0.0
    finished: float | None = None
    # (turn number) -> when the member to act comes back, or None: quiet this turn
    plans: dict[int, float | None] = field(default_factory=dict)
    rng: random.Random = field(default_factory=random.Random)  # this game's member moods
    reminders: Counter[int] = field(default_factory=Counter)  # per turn number
    timeouts: int = 0
    status: str = ""
    rounds: int = 0
    turns: int = 0
    ai_turns: int = 0

    @property
    def days(self) -> float | None:
        return None if self.finished is None else (self.finished - self.started) / (24 * H)


class Simulation:
    """Some of the games (``indices``), in one process with its own fake Discord and bot."""

    def __init__(self, args: argparse.Namespace, indices: list[int]) -> None:
        self.args = args
        self.indices = indices
        self.clock = Clock()
        self.games: list[SimGame] = []
        self.movers: dict[tuple[int, int], AIPlayer] = {}

    async def run(self) -> list[SimGame]:
        args = self.args
        with tempfile.TemporaryDirectory() as tmp:
            async with FakeDiscord() as fake:
                assert fake.guild is not None
                gid = fake.guild.id
                people = []
                for i in range(12):
                    m = p.member(p.user(f"player{i + 1}"))
                    fake.add_member(gid, m)
                    people.append(m)
                for g in self.indices:
                    channel = fake.add_channel(p.text_channel(gid, f"game-{g + 1}"))
                    rng = random.Random(f"{args.seed}:{g}")
                    chosen = rng.sample(people, 2 + g % 3)
                    self.games.append(SimGame(g, int(channel["id"]), chosen, rng=rng))
                bot = make_bot(Path(tmp) / "pbp.db", clock=self.clock)
                harness = BotHarness(fake, bot, timeout=120)
                await harness.start()
                self.h = harness
                self.bot = bot
                self._count_reminders()
                try:
                    for game in self.games:
                        seed = random.Random(f"game:{args.seed}:{game.index}").randrange(2**62)
                        jobs_of(bot).lobby.new_seed = functools.partial(int, seed)
                        await self.open(game)
                    await self.loop()
                    await self.collect()
                finally:
                    await harness.close(check=False)
        return self.games

    async def collect(self) -> None:
        """Read each game's outcome back from the database."""
        store = jobs_of(self.bot).store
        for game in self.games:
            row = await store.game_rows.game(game.game_id)
            assert row is not None
            game.status = row.status
            snapshot = await store.action_log.snapshot(game.game_id)
            game.rounds = loads(snapshot[1]).round if snapshot else 0
            game.turns, game.ai_turns = await ai_played_turns(self.bot, game)

    def _count_reminders(self) -> None:
        """Count the clock's reminders per game and turn (wrapping its one door)."""
        turn_clock = self.bot.background
        take = turn_clock._take
        by_id = {g.game_id: g for g in self.games}

        async def counted(game: ActiveGame, step: ClockStep, now: float) -> bool:
            turn = game.state.turn_number
            done = await take(game, step, now)
            sim = by_id.get(game.id) or next(g for g in self.games if g.game_id == game.id)
            if done and step in ("remind", "warn"):
                sim.reminders[turn] += 1
            if done and step == "timeout":
                sim.timeouts += 1
            return done

        turn_clock._take = counted  # type: ignore[method-assign]

    async def command(
        self, game: SimGame, member: dict[str, Any], name: str, **options: Any
    ) -> None:
        payload = self.h.slash(name, options or None, member=member, channel_id=game.channel_id)
        result = await self.h.interact(payload)
        await result.done()
        await self.bot.background.wait_idle()

    async def open(self, game: SimGame) -> None:
        host, *others = game.members
        await self.command(game, host, "af new", players=len(game.members))
        for m in others:
            await self.command(game, m, "af join")
        await self.command(game, host, "af start")
        active = await jobs_of(self.bot).games.in_channel(game.channel_id)
        assert active is not None
        game.game_id = active.id
        game.started = self.clock.now

    def active(self, game: SimGame) -> ActiveGame | None:
        return jobs_of(self.bot).games._games.get(game.game_id)

    def plan(self, game: SimGame, turn: int) -> float | None:
        """When the member to act comes back to play this turn (None: quiet all turn)."""
        if turn not in game.plans:
            if game.rng.random() < self.args.quiet:
                game.plans[turn] = None
            else:
                low, high = math.log(5 / 60), math.log(self.args.max_delay)
                game.plans[turn] = self.clock.now + math.exp(game.rng.uniform(low, high)) * H
        return game.plans[turn]

    async def play_turn(self, game: SimGame, active: ActiveGame) -> None:
        user = active.waiting_on()
        seat = active.to_act()
        assert user is not None and seat is not None
        member = next(m for m in game.members if int(m["user"]["id"]) == user)
        mover = self.movers.setdefault(
            (game.index, seat), make_ai("normal", seed=self.args.seed * 1000 + game.index)
        )
        turn = active.state.turn_number
        while active.game is not None and active.waiting_on() == user:
            if active.state.turn_number != turn:
                break
            move = str(mover.choose(active.state.copy()))
            await self.command(game, member, "play", move=move)
            active = self.active(game) or active
            if active.row.status != "playing":
                break

    async def loop(self) -> None:
        end = self.clock.now + self.args.days * 24 * H
        step = self.args.step * H
        # On a terminal, a bar per process: the simulated days done (games end sooner).
        worker = self.indices[0] if self.indices else 0
        bar = tqdm(
            total=self.args.days,
            unit="day",
            desc=f"process {worker + 1}",
            position=worker,
            leave=False,
            disable=not sys.stderr.isatty(),
            bar_format="{desc}: {bar} {n:.1f}/{total:g} simulated days [{elapsed}]",
        )
        with bar:
            await self._steps(end, step, bar)

    async def _steps(self, end: float, step: float, bar: tqdm[Any]) -> None:
        while self.clock.now < end:
            self.clock.now += step
            bar.update(step / (24 * H))
            await self.bot.background.tick()
            await self.bot.background.wait_idle()
            running = 0
            for game in self.games:
                active = self.active(game)
                if active is None or active.row.status != "playing":
                    if game.finished is None:
                        game.finished = self.clock.now
                    continue
                running += 1
                if active.waiting_on() is None:
                    continue
                back = self.plan(game, active.state.turn_number)
                if back is not None and back <= self.clock.now:
                    await self.play_turn(game, active)
            if not running:
                return


async def ai_played_turns(bot: Any, game: SimGame) -> tuple[int, int]:
    """(turns in the game, turns of members' seats that the bot played for them).

    A turn is a run of the log's actions by one seat (chance outcomes aside); the bot
    played it when none of its actions came from a member.
    """
    actions = [a for a in await jobs_of(bot).store.action_log.actions(game.game_id) if a.actor >= 0]
    turns = ai = 0
    start = 0
    for i in range(1, len(actions) + 1):
        if i == len(actions) or actions[i].actor != actions[start].actor:
            turns += 1
            ai += all(a.user_id is None for a in actions[start:i])
            start = i
    return turns, ai


def run_games(args: argparse.Namespace, indices: list[int]) -> list[SimGame]:
    """Simulate the games numbered ``indices`` (in a worker process)."""
    games = asyncio.run(Simulation(args, indices).run())
    for g in games:
        g.members = []  # payloads are not needed past this point
    return games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--days", type=float, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quiet", type=float, default=0.05, help="chance a turn is ignored")
    parser.add_argument("--max-delay", type=float, default=8.0, help="hours, longest reply")
    parser.add_argument("--step", type=float, default=0.25, help="hours per clock step")
    parser.add_argument("--procs", type=int, default=2, help="processes sharing the games")
    args = parser.parse_args()
    started = time.perf_counter()

    chunks = [list(range(i, args.games, args.procs)) for i in range(args.procs)]
    with Pool(args.procs) as pool:
        parts = pool.starmap(run_games, [(args, chunk) for chunk in chunks if chunk])
    games = sorted((g for part in parts for g in part), key=lambda g: g.index)
    print(f"seed {args.seed}, {args.games} games, quiet {args.quiet}, {args.days:g} days")
    for g in games:
        days = f"{g.days:.1f} days" if g.days is not None else "unfinished"
        print(
            f"  game {g.index + 1:2d}: {2 + g.index % 3} seats, {g.status}, {g.rounds} rounds, "
            f"{days}, {g.turns} turns, {g.timeouts} timeouts, {g.ai_turns} AI-played turns"
        )
    finished = [g for g in games if g.status == "over"]
    durations = [g.days for g in finished if g.days is not None]
    median = statistics.median(durations) if durations else float("nan")
    most = max((max(g.reminders.values(), default=0) for g in games), default=0)
    timeouts = sum(g.timeouts for g in games)
    ai_turns = sum(g.ai_turns for g in games)
    print(f"wall time {time.perf_counter() - started:.0f} s")
    print(
        f"pbp: {len(finished)}/{len(games)} games finished, median {median:.1f} days, "
        f"max {most} reminders per turn, {timeouts} timeouts, {ai_turns} AI-played turns"
    )


if __name__ == "__main__":
    main()

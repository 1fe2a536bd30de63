"""Scale: play-by-post traffic through real bot processes on PostgreSQL, 1 process then 2.

    python tests/benchmarks/bench_scale.py [--games 100,500,1000] [--procs 1,2] [--think 30]
        [--pause 1] [--seconds 40] [--windows 5]
        [--seed 1] [--database-url postgresql://…]

For each number of concurrent games, and for one bot process, then two processes
(``SHARD_COUNT=2``, one shard each; ``--procs 1``: one process only): a fresh PostgreSQL
database holds that many two-member games in play, spread over eight servers (four per
shard) of the fake Discord; ``python -m bot`` processes (real renderer, real everything;
through ``tests.discord_fake.launch``) connect to the fake's gateway and resume them. Then
each game's member to act thinks for a seeded time before their turn (exponential,
mean ``--think`` seconds), then plays the turn's moves (legal, seeded; ``end`` now
and then) by ``/play`` through the gateway, a seeded ``--pause`` apart, each after
the answer to the one before (the traffic keeps a copy of each game: it applies its
own acknowledged moves, and reads the log only for the chance outcomes, the dice,
that follow some of them). Each game's turn message stands in the channel already
(as if posted before). After a warm-up in which every game made its first move
(spread over games/20 seconds), each game's traffic starts with a think (exponential,
mean ``--think``: what is left of a think under way is as long as a whole one, so turns
start as often from the first second as later, not every game's within one think time,
a rush whose queue the measurement would see); one think time later it is measured for
``--seconds``: moves per second, and the reply time — from the interaction sent to the
bot's answer received by the fake (the acknowledgement, or the follow-up after a
deferral) — median and p99; the CPU time of
the bots, of PostgreSQL and of this process (the fake and the traffic) per move; and
the board images the bots sent per move (a turn message posted or its picture edited).
``--windows S`` also prints each S seconds of the measured time: moves, median and
slowest reply (to see whether slow replies are spread out or bunched together).

The PostgreSQL server is a throwaway one started here (``fsync`` on, as in
production) unless ``--database-url`` names a server where databases may be
created. The fake Discord and the traffic run in this process and share the
machine with the bots and PostgreSQL: on a small machine they take CPU the bots
would otherwise have. Asserts nothing; prints a table and, last,
``scale: 500 games p99 X ms, 2 processes Y× one`` (Y compares what each sustains: its
most moves per second at any number of games).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.factory import build_service
from bot.store.storage import Storage
from engine import CHANCE, GameState, apply_in_place, legal_actions, parse
from engine.game import Game
from tests.bot.processes import BotProcess, guild_on_shard, user_id
from tests.bot.table import game_between
from tests.discord_fake import FakeDiscord
from tests.discord_fake import payloads as p
from tests.discord_fake.harness import CALLBACK_ROUTE, FOLLOWUP_ROUTE, _split_command
from tests.postgres import PostgresServer

SERVERS = 8
TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU time used so far by these processes (Linux ``/proc``)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / TICK


def children(pid: int) -> list[int]:
    """A process and its children (PostgreSQL's backends are its server's children)."""
    found = [pid]
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if parent == pid:
                found.append(int(entry.name))
    return found


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


@dataclass
class Seat:
    """One game as the traffic sees it: its channel, members, and a replica of the state."""

    game_id: int
    guild: p.TestGuild
    channel_id: int
    users: list[int]
    state: GameState
    seq: int = 0  # actions of the log applied to the replica


@dataclass
class Result:
    games: int
    procs: int
    moves: int = 0
    seconds: float = 0.0
    replies: list[float] = field(default_factory=list)
    refused: int = 0
    setup_seconds: float = 0.0
    images: int = 0  # board images the bots posted or edited in while measured
    cpu: dict[str, float] = field(default_factory=dict)  # CPU seconds while measured
    # Each measured reply: when it was asked for (seconds into the measured time), seconds.
    timeline: list[tuple[float, float]] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.moves / self.seconds if self.seconds else 0.0


class Answers:
    """Resolves a future per interaction when the bot's answer reaches the fake (O(1), no
    scanning of the fake's request log)."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.pending: dict[int, asyncio.Future[tuple[float, str]]] = {}
        callback, followup = fake._interaction_callback, fake._followup_create

        async def on_callback(call: Any) -> Any:
            response = await callback(call)
            interaction = int(call.params["interaction_id"])
            kind = int((call.json or {}).get("type", 0))
            if kind == 4:
                content = str(((call.json or {}).get("data") or {}).get("content", ""))
                self._resolve(interaction, content)
            return response

        async def on_followup(call: Any) -> Any:
            response = await followup(call)
            state = fake.interaction_for_token(str(call.params["token"]))
            if state is not None:
                self._resolve(int(state.id), str((call.json or {}).get("content", "")))
            return response

        fake.set_handler("POST", CALLBACK_ROUTE, on_callback)
        fake.set_handler("POST", FOLLOWUP_ROUTE, on_followup)

    def _resolve(self, interaction: int, content: str) -> None:
        future = self.pending.pop(interaction, None)
        if future is not None and not future.done():
            future.set_result((time.perf_counter(), content))

    def expect(self, interaction: int) -> asyncio.Future[tuple[float, str]]:
        future: asyncio.Future[tuple[float, str]] = asyncio.get_running_loop().create_future()
        self.pending[interaction] = future
        return future


async def make_games(url: str, fake: FakeDiscord, count: int, seed: int) -> list[Seat]:
    """``count`` games in play, two members each, spread over the servers' channels."""
    guilds = [guild_on_shard(fake, i % 2, 2, f"server {i}") for i in range(SERVERS)]
    store = await Storage.open(url)
    seats: list[Seat] = []
    try:
        seeds = random.Random(seed)
        jobs = build_service(store, new_seed=lambda: seeds.randrange(2**62))
        for i in range(count):
            guild = guilds[i % SERVERS]
            channel = fake.add_channel(p.text_channel(guild.id, f"game-{i}"))
            users = [user_id(guild.owner), user_id(guild.member)]
            game = await game_between(
                jobs,
                guild=guild.id,
                channel=int(channel["id"]),
                users=(users[0], users[1]),
                names=("owner", "member"),
            )
            # The turn's message stands in the channel already (as if posted before the
            # start of the measure), so the bots resume without posting a thousand boards.
            shown = fake._store_message(fake._new_message(int(channel["id"]), {"content": "…"}, []))
            await jobs.messages.set_turn_message(game, int(shown["id"]), game.state.turn_number)
            assert game.game is not None
            log = [str(a) for a in game.game.log]
            replica = Game.replay(game.game.config, log).state
            seats.append(Seat(game.id, guild, int(channel["id"]), users, replica, len(log)))
        # What the games' setup queued (lobbies, starts, first turns) counts as delivered
        # before the measure, as the turn messages standing in the channels do.
        async with store.transaction() as tx:
            await tx.execute("DELETE FROM deliveries")
    finally:
        await store.close()
    return seats


class Traffic:
    """The members of every game, playing by post (see the module docstring)."""

    def __init__(self, fake: FakeDiscord, store: Storage, args: argparse.Namespace) -> None:
        self.fake = fake
        self.store = store
        self.args = args
        self.answers = Answers(fake)
        self.measuring = False
        self.stopping = False
        self.replies: list[float] = []
        self.timeline: list[tuple[float, float]] = []
        self.begin = 0.0  # when the measured time began (perf_counter)
        self.moves = 0
        self.refused = 0
        self.first_moves = 0
        self.spread = 0.0  # seconds over which the warm-up's first moves are spread

    async def played(self, seat: Seat, move: str) -> None:
        """The bot acknowledged ``move``: apply it to the replica, and the chance outcomes
        that followed it (from the log: only the bot knows them) if it led to any."""
        apply_in_place(seat.state, parse(move))
        seat.seq += 1
        if not seat.state.over and seat.state.to_act() == CHANCE:
            await self.catch_up(seat)

    async def catch_up(self, seat: Seat) -> None:
        """Apply the log's new actions (the move and the chance outcomes) to the replica."""
        rows = await self.store.db.fetch(
            "SELECT notation FROM actions WHERE game_id = ? AND seq >= ? ORDER BY seq",
            (seat.game_id, seat.seq),
        )
        for row in rows:
            apply_in_place(seat.state, parse(str(row[0])))
        seat.seq += len(rows)

    def payload(self, seat: Seat, user: int, move: str) -> dict[str, Any]:
        top, group, sub = _split_command("play")
        payload = p.slash_command(
            top,
            application_id=self.fake.application_id,
            channel=self.fake.get_channel(seat.channel_id),
            options={"move": move},
            group=group,
            subcommand=sub,
            guild_payload=self.fake.guilds[seat.guild.id],
            member_payload=self.fake.get_member(seat.guild.id, user),
            bot_member=self.fake.get_member(seat.guild.id, int(self.fake.bot_user["id"])),
        )
        self.fake.register_interaction(payload)
        return payload

    @staticmethod
    def choose(state: GameState, rng: random.Random, moves_this_turn: int) -> str:
        """A member's move: anything legal, ending the turn now and then (and after a dozen
        moves), as people do."""
        legal = [str(a) for a in legal_actions(state)]
        others = [m for m in legal if m != "end"]
        if "end" in legal and (not others or moves_this_turn >= 12 or rng.random() < 0.15):
            return "end"
        return rng.choice(others or legal)

    async def play(self, seat: Seat, rng: random.Random, first: bool) -> None:
        turn, moves_this_turn = seat.state.turn_number, 0
        # The warm-up's first moves, and then the games' traffic, start spread out rather
        # than all at once (a burst of every game's next move would be measured instead).
        await asyncio.sleep(
            rng.uniform(0, self.spread) if first else rng.expovariate(1 / self.args.think)
        )
        while not self.stopping:
            if not first:
                # A turn starts after the member's long think; its moves follow closely.
                if seat.state.turn_number != turn:
                    turn, moves_this_turn = seat.state.turn_number, 0
                    await asyncio.sleep(rng.expovariate(1 / self.args.think))
                else:
                    await asyncio.sleep(rng.expovariate(1 / self.args.pause))
            if self.stopping or seat.state.over:
                return
            to_act = seat.state.to_act()
            if to_act < 0:
                return
            move = self.choose(seat.state, rng, moves_this_turn)
            moves_this_turn += 1
            payload = self.payload(seat, seat.users[to_act], move)
            answered = self.answers.expect(int(payload["id"]))
            sent = time.perf_counter()
            measured = self.measuring
            await self.fake.gateway.dispatch("INTERACTION_CREATE", payload)
            try:
                at, content = await asyncio.wait_for(answered, 60)
            except TimeoutError:
                self.refused += 1
                await self.catch_up(seat)
                continue
            if content.startswith("✅"):
                if measured and self.measuring:
                    self.moves += 1
                    self.replies.append(at - sent)
                    self.timeline.append((sent - self.begin, at - sent))
                await self.played(seat, move)
            else:
                self.refused += 1
                await self.catch_up(seat)
            if first:
                self.first_moves += 1
                return


async def run_level(
    server: PostgresServer, games: int, procs: int, args: argparse.Namespace, workdir: Path
) -> Result:
    result = Result(games, procs)
    url = await server.create_database()
    bots: list[BotProcess] = []
    try:
        async with FakeDiscord(record=False) as fake:  # answers are counted, not kept
            started = time.perf_counter()
            seats = await make_games(url, fake, games, args.seed)
            env = {"DATABASE_URL": url, "LOG_LEVEL": "WARNING"}
            for shard in range(procs):
                shard_env = {"SHARD_COUNT": "2", "SHARD_IDS": str(shard)} if procs > 1 else {}
                bot = BotProcess(fake, {**env, **shard_env}, workdir)
                bots.append(await bot.start())
            for shard in range(procs):
                await fake.gateway.wait_shard(shard)
            await asyncio.sleep(1.0)  # the bots resume their games after READY
            store = await Storage.open(url)
            try:
                traffic = Traffic(fake, store, args)
                players = [(s, random.Random(f"{args.seed}:{s.game_id}")) for s in seats]
                traffic.spread = games / 20
                # Warm-up: every game's first move (its turn message and board are posted).
                await asyncio.gather(*(traffic.play(s, r, True) for s, r in players))
                result.setup_seconds = time.perf_counter() - started
                fake.requests.clear()
                fake.attachments.clear()
                tasks = [asyncio.create_task(traffic.play(s, r, False)) for s, r in players]
                await asyncio.sleep(args.think)  # the traffic settles (see the docstring)
                assert server.process is not None
                watched = {
                    "bots": [b.proc.pid for b in bots if b.proc is not None],
                    "postgres": children(server.process.pid),
                }
                before = {k: cpu_seconds(v) for k, v in watched.items()}
                own = time.process_time()
                images = len(fake.attachments)
                begin = traffic.begin = time.perf_counter()
                traffic.measuring = True
                await asyncio.sleep(args.seconds)
                traffic.measuring = False
                result.seconds = time.perf_counter() - begin
                result.images = len(fake.attachments) - images
                result.cpu = {k: cpu_seconds(v) - before[k] for k, v in watched.items()}
                result.cpu["fake+traffic"] = time.process_time() - own
                traffic.stopping = True
                for task in tasks:
                    task.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)
                result.moves, result.replies = traffic.moves, traffic.replies
                result.timeline = traffic.timeline
                result.refused = traffic.refused
            finally:
                await store.close()
                for bot in bots:
                    await bot.stop()
    finally:
        for bot in bots:
            await bot.stop()
        await server.drop_database(url)
    return result


def windows(r: Result, seconds: float) -> list[str]:
    """The measured time in windows of ``seconds``: moves, median and slowest reply."""
    by_window: dict[int, list[float]] = {}
    for at, reply in r.timeline:
        by_window.setdefault(int(at // seconds), []).append(reply)
    return [
        f"    {w * seconds:5.0f}–{(w + 1) * seconds:.0f} s  {len(v):5d} moves  "
        f"reply p50 {statistics.median(v) * 1000:7.1f} ms  max {max(v) * 1000:7.1f} ms"
        for w, v in sorted(by_window.items())
    ]


def line(r: Result) -> str:
    p50 = statistics.median(r.replies) * 1000 if r.replies else float("nan")
    p99 = pct(r.replies, 0.99) * 1000
    per_move = "  ".join(
        f"{name} {seconds * 1000 / max(r.moves, 1):.1f}" for name, seconds in r.cpu.items()
    )
    return (
        f"{r.procs} process{'es' if r.procs > 1 else '  '}  {r.games:5d} games  "
        f"{r.rate:7.1f} moves/s  reply p50 {p50:7.1f} ms  p99 {p99:7.1f} ms  "
        f"CPU ms/move: {per_move}  images/move {r.images / max(r.moves, 1):.2f}  "
        f"({r.moves} moves, {r.refused} not acknowledged, set-up {r.setup_seconds:.0f} s)"
    )


async def main_async(args: argparse.Namespace) -> None:
    if args.database_url:
        os.environ["TEST_DATABASE_URL"] = args.database_url
    server = PostgresServer.start(fsync=True)
    results: dict[tuple[int, int], Result] = {}
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for procs in args.procs:
                for games in args.games:
                    r = await run_level(server, games, procs, args, Path(tmp))
                    results[(procs, games)] = r
                    print(line(r), flush=True)
                    if args.windows:
                        print("\n".join(windows(r, args.windows)), flush=True)
    finally:
        server.stop()
    # What each sustains: its most moves per second at any of the numbers of games.
    one = max((r.rate for (procs, _), r in results.items() if procs == 1), default=0.0)
    two = max((r.rate for (procs, _), r in results.items() if procs == 2), default=0.0)
    ratio = two / one if one and two else float("nan")
    print(f"sustained: 1 process {one:.1f} moves/s, 2 processes {two:.1f} moves/s")
    target = 500 if 500 in args.games else sorted(args.games)[len(args.games) // 2]
    first = results.get((1, target)) or results[(args.procs[0], target)]
    p99 = pct(first.replies, 0.99) * 1000
    print(f"scale: {target} games p99 {p99:.0f} ms, 2 processes {ratio:.2f}× one")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--games", type=lambda s: [int(x) for x in s.split(",")], default=[100, 500, 1000]
    )
    parser.add_argument(
        "--procs",
        type=lambda s: [int(x) for x in s.split(",")],
        default=[1, 2],
        help="bot processes to measure with (1, 2 or both)",
    )
    parser.add_argument(
        "--think", type=float, default=30.0, help="mean think before a turn, seconds"
    )
    parser.add_argument(
        "--pause", type=float, default=1.0, help="mean pause between a turn's moves, seconds"
    )
    parser.add_argument("--seconds", type=float, default=40.0, help="measured time per level")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--windows", type=float, default=0.0, help="also print each window of this many seconds"
    )
    parser.add_argument("--database-url", default="", help="a PostgreSQL server to use")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()

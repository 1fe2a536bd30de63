"""Chaos: games played by members who act only once they are told it is their turn, while
Discord's API fails the way it does in production; prints figures, asserts nothing.

    python tests/benchmarks/chaos.py [--games 24] [--channels 24] [--faults 20] \\
        [--chaos-seconds 40] [--quiet-seconds 40] [--seed 1] [--db sqlite|pg] [--restart-db]

``--games`` games in ``--channels`` channels (a channel plays its games one after the
other), two seats each: ``owner`` in every game, and ``member`` (pinged in the channel)
or ``manager`` (told by DM). Each member plays their whole turn, with a short think, only
once a ping for that turn reaches them (the turn message's ping, or the DM). For
``--chaos-seconds`` a seeded ``--faults`` % of REST calls fail: 503, 500 (discord.py retries
those itself), connection resets before and after the request took effect, interactions
answered too late (10062); every few seconds a burst of 429s; one channel loses its
permissions for 30 s. Then Discord is quiet for ``--quiet-seconds``; then nobody plays
and the bot gets up to ``--grace`` seconds to deliver what waits.

Last line: ``chaos: F faults, G/N games announced, S stalled, L lost, D dup, X doubled turn
messages, p99 ping delay P s`` — F faults injected; a game is *announced* when the member
its turn waits on was told of that turn (or it is over, with its game-over message);
*stalled* when not; *lost*: moves acknowledged with a ✅ that are not in the stored log;
*dup*: moves in the log no member sent (an action applied twice); *doubled*: turns with
two turn messages; the ping delay runs from the commit that started a turn to its ping.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import re
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.client import AlienFrontiersBot
from engine import legal_actions
from engine.actions import Dock
from tests.benchmarks.bench_bot import pct
from tests.bot.table import make_bot
from tests.discord_fake import BotHarness, FakeDiscord
from tests.discord_fake import payloads as p
from tests.discord_fake.server import Fault, RecordedRequest

MESSAGES = "/channels/{channel_id}/messages"
CALLBACK = "/interactions/{interaction_id}/{token}/callback"
FOLLOWUP = "/webhooks/{application_id}/{token}"
BOARD = re.compile(r"board-(\d+)-turn(\d+)\.png")
MEMBERS = ("owner", "member", "manager")


@dataclass
class Chaos:
    """The fault hook: seeded failures while ``on``, 429 bursts, one channel without
    permissions for a while."""

    rng: random.Random
    rate: float
    on: bool = False
    started: float = 0.0
    burst_every: float = 7.0
    burst_length: float = 0.6
    forbidden_channel: int | None = None
    forbidden_from: float = 0.0
    forbidden_seconds: float = 30.0
    counts: Counter[str] = field(default_factory=Counter)

    def __call__(self, method: str, template: str, path: str) -> Fault | None:
        if not self.on:
            return None
        now = time.monotonic() - self.started
        if (
            self.forbidden_channel is not None
            and self.forbidden_from <= now < self.forbidden_from + self.forbidden_seconds
            and path.startswith(f"/channels/{self.forbidden_channel}/")
        ):
            self.counts["403"] += 1
            return Fault(status=403, code=50013, message="Missing Permissions")
        if now % self.burst_every < self.burst_length and template != CALLBACK:
            self.counts["429"] += 1
            return Fault(status=429, retry_after=0.3)
        if self.rng.random() >= self.rate:
            return None
        if template == CALLBACK and self.rng.random() < 0.3:
            self.counts["10062"] += 1
            return Fault(status=404, code=10062, message="Unknown interaction")
        kind = self.rng.choices(["503", "500", "reset", "reset_after"], weights=[45, 10, 25, 20])[0]
        self.counts[kind] += 1
        if kind in ("reset", "reset_after"):
            return Fault(mode=kind)
        return Fault(status=int(kind), message="Service Unavailable")


@dataclass
class Send:
    """A ``/play`` a member sent: where, at which version, and whether they saw its ✅."""

    game_id: int
    seq: int
    move: str
    user: int
    acked: bool = False


class Players:
    """The members: each plays a turn once its ping reached them."""

    def __init__(self, h: BotHarness, fake: FakeDiscord, seed: int) -> None:
        self.h = h
        self.fake = fake
        self.bot: AlienFrontiersBot = h.bot  # type: ignore[assignment]
        self.rng = random.Random(seed)
        self.users = {int(getattr(h.guild, m)["user"]["id"]): m for m in MEMBERS}
        self.sends: list[Send] = []
        self.told: dict[tuple[int, int], float] = {}  # (game, turn) -> when first pinged
        self.acting: set[tuple[int, int]] = set()
        self.playing = True
        self._seen = 0
        self._tasks: set[asyncio.Task[None]] = set()

    async def watch(self) -> None:
        """Read every message the bot created; a ping for a turn sets its member going."""
        while True:
            requests = self.fake.requests
            while self._seen < len(requests):
                r = requests[self._seen]
                self._seen += 1
                self._read(r)
            await asyncio.sleep(0.02)

    def _read(self, r: RecordedRequest) -> None:
        if r.method != "POST" or r.route != MESSAGES or r.status != 200:
            return
        message = r.response if isinstance(r.response, dict) else {}
        body = r.json or {}
        users = [int(u) for u in (body.get("allowed_mentions") or {}).get("users", [])]
        channel = int(r.params.get("channel_id", 0))
        if self.fake.channels.get(channel, {}).get("type") == p.DM:
            recipient = int(self.fake.channels[channel]["recipients"][0]["id"])
            found = re.search(r"/(\d+)/(\d+)/(\d+)", str(message.get("content", "")))
            if found is None or not str(message.get("content", "")).startswith("🎲"):
                return
            turn_message = self.fake.messages.get(int(found[3]))
            turn = _turn_of(turn_message)
            if turn is not None:
                self._told(turn[0], turn[1], recipient, r.at)
            return
        turn = _turn_of(message)
        if turn is None or not str(message.get("content", "")).startswith("🎲"):
            return
        for user in users:
            self._told(turn[0], turn[1], user, r.at)

    def _told(self, game_id: int, turn: int, user: int, at: float) -> None:
        self.told.setdefault((game_id, turn), at)
        key = (game_id, turn)
        if key in self.acting or not self.playing:
            return
        self.acting.add(key)
        task = asyncio.create_task(self._play_turn(game_id, turn, user))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _play_turn(self, game_id: int, turn: int, user: int) -> None:
        await asyncio.sleep(self.rng.uniform(0.1, 0.5))  # reading the ping
        service = self.bot.service
        for _ in range(80):
            game = service.held(game_id)
            if game is None or game.game is None or not self.playing:
                return
            state = game.state
            if state.over or state.turn_number != turn or game.waiting_on() != user:
                return
            actions = legal_actions(state)
            docks = [a for a in actions if isinstance(a, Dock)]
            ends = [a for a in actions if str(a) == "end"]
            action = ends[0] if ends and (not docks or self.rng.random() < 0.3) else None
            action = action or self.rng.choice(docks or actions)
            send = Send(game_id, state.version, str(action), user)
            self.sends.append(send)
            payload = self.h.slash(
                "play",
                {"move": str(action)},
                member=self.users[user],
                channel_id=game.row.channel_id,
            )
            result = await self.h.interact(payload, expect_response=False)
            await result.done(timeout=120)
            send.acked = any(
                ok.status == 200
                and str(
                    ((ok.json or {}).get("data") or ok.json or {}).get("content", "")
                ).startswith("✅")
                for ok in self.fake.find(interaction_id=result.id)
                if ok.route in (CALLBACK, FOLLOWUP)
            )
            if game.state.version == send.seq:  # not applied (refused): look again later
                await asyncio.sleep(0.2)
            await asyncio.sleep(self.rng.uniform(0.02, 0.1))

    async def stop(self) -> None:
        self.playing = False
        for task in list(self._tasks):
            await asyncio.gather(task, return_exceptions=True)


def _turn_of(message: dict[str, Any] | None) -> tuple[int, int] | None:
    for a in (message or {}).get("attachments", []):
        found = BOARD.fullmatch(str(a.get("filename", "")))
        if found is not None:
            return int(found[1]), int(found[2])
    return None


async def open_game(h: BotHarness, channel: int, second: str) -> int:
    """A game started in ``channel`` (each command again until it took effect: under
    chaos its answer may be lost or refused)."""
    bot: AlienFrontiersBot = h.bot  # type: ignore[assignment]
    for _ in range(50):
        game = await bot.service.in_channel(channel)
        if game is not None and game.row.status == "playing":
            return game.id
        if game is None:
            command, options, member = "af new", {"players": 2}, "owner"
        elif len(game.seats) < 2:
            command, options, member = "af join", None, second
        else:
            command, options, member = "af start", None, "owner"
        payload = h.slash(command, options, member=member, channel_id=channel)
        result = await h.interact(payload, expect_response=False)
        await result.done(timeout=60)
        await asyncio.sleep(0.2)
    raise RuntimeError(f"no game could be started in channel {channel}")


async def run(args: argparse.Namespace, db: str, restart: Any) -> str:
    async with FakeDiscord() as fake:
        fake.clock = time.time  # the bot's commits are stamped with time.time too
        bot = make_bot(db, reminder_check_seconds=5.0)
        async with BotHarness(fake, bot, timeout=120, fail_on_errors=False) as h:
            gid = h.guild.id
            channels = [
                int(fake.add_channel(p.text_channel(gid, f"game-{i}"))["id"])
                for i in range(args.channels)
            ]
            manager = h.slash("af notify", {"mode": "dm"}, member="manager")
            await (await h.interact(manager)).done()
            chaos = Chaos(random.Random(args.seed), args.faults / 100)
            chaos.forbidden_channel = channels[-1]
            chaos.forbidden_from = args.chaos_seconds / 3
            fake.fault_hook = chaos
            players = Players(h, fake, args.seed)
            watcher = asyncio.create_task(players.watch())
            games: list[int] = []
            queue = list(range(args.games))

            async def channel_loop(index: int, channel: int) -> None:
                while queue:
                    number = queue.pop(0)
                    second = "manager" if number % 3 == 2 else "member"
                    games.append(await open_game(h, channel, second))
                    while True:
                        game = bot.service.held(games[-1])
                        if game is None or not players.playing:
                            break
                        await asyncio.sleep(0.5)
                    if not players.playing:
                        return

            loops = [asyncio.create_task(channel_loop(i, c)) for i, c in enumerate(channels)]
            while len(games) < min(args.games, len(channels)):  # the first games open well
                await asyncio.sleep(0.2)
            chaos.started = time.monotonic()
            chaos.on = True
            restarted = False
            while time.monotonic() - chaos.started < args.chaos_seconds:
                await asyncio.sleep(0.5)
                if (
                    restart is not None
                    and not restarted
                    and (time.monotonic() - chaos.started > args.chaos_seconds / 2)
                ):
                    restarted = True
                    await asyncio.to_thread(restart)
            chaos.on = False
            await asyncio.sleep(args.quiet_seconds)
            await players.stop()
            for loop in loops:
                loop.cancel()
            await asyncio.gather(*loops, return_exceptions=True)
            # Nobody plays now: the bot delivers what waits (retries, the clock's repairs).
            deadline = time.monotonic() + args.grace
            store = bot.service.store
            while time.monotonic() < deadline:
                if not await store.pending_deliveries():
                    break
                await asyncio.sleep(1.0)
            await asyncio.sleep(1.0)
            watcher.cancel()
            players._seen = 0
            players.playing = False
            while players._seen < len(fake.requests):  # every ping, to the last one
                players._read(fake.requests[players._seen])
                players._seen += 1
            return await measure(h, fake, bot, players, games, chaos)


async def measure(
    h: BotHarness,
    fake: FakeDiscord,
    bot: AlienFrontiersBot,
    players: Players,
    games: list[int],
    chaos: Chaos,
) -> str:
    store = bot.service.store
    stalled = lost = dup = doubled = 0
    delays: list[float] = []
    boards: Counter[tuple[int, int]] = Counter()
    for channel_messages in fake.channel_messages.values():
        for mid in channel_messages:
            message = fake.messages.get(mid) or {}
            turn = _turn_of(message)
            if turn is not None and str(message.get("content", "")).startswith(("🎲", "⌛")):
                boards[turn] += 1
    doubled = sum(1 for n in boards.values() if n > 1)
    for game_id in games:
        row = await store.game(game_id)
        assert row is not None
        actions = await store.actions(game_id)
        by_seq = {a.seq: a for a in actions}
        sends = [s for s in players.sends if s.game_id == game_id]
        lost += sum(
            1 for s in sends if s.acked and getattr(by_seq.get(s.seq), "notation", None) != s.move
        )
        sent_at = {s.seq for s in sends}
        dup += sum(1 for a in actions if a.user_id is not None and a.seq not in sent_at)
        started = 0  # turns started so far: the number of the turn a row starts
        for a in actions:
            if any(e.get("key") == "turn_started" for e in a.events):
                started += 1
                told = players.told.get((game_id, started))
                if told is not None:
                    delays.append(max(0.0, told - a.created_at))
        if row.status == "over":
            if not [m for m in h.messages(row.channel_id) if "Game over" in m["content"]]:
                stalled += 1
            continue
        game = await bot.service.by_id(game_id)  # from the database if not held
        if game is None or game.game is None:
            stalled += 1
            await explain(store, game_id, "not in play")
            continue
        if game.waiting_on() is not None and (game_id, game.state.turn_number) not in players.told:
            stalled += 1
            await explain(store, game_id, f"turn {game.state.turn_number} not told")
    faults = sum(chaos.counts.values())
    kinds = ", ".join(f"{k} {v}" for k, v in sorted(chaos.counts.items()))
    print(f"faults by kind: {kinds}")
    longest = max(delays, default=0.0)
    print(f"ping delays: {len(delays)} turns, median {pct(delays, 0.5):.2f} s, max {longest:.2f} s")
    print(f"moves sent {len(players.sends)}, acknowledged {sum(s.acked for s in players.sends)}")
    n = len(games)
    return (
        f"chaos: {faults} faults, {n - stalled}/{n} games announced, {stalled} stalled, "
        f"{lost} lost, {dup} dup, {doubled} doubled turn messages, "
        f"p99 ping delay {pct(delays, 0.99):.1f} s"
    )


async def explain(store: Any, game_id: int, why: str) -> None:
    """What a stalled game's row and deliveries say, for whoever reads the figures."""
    row = await store.game(game_id)
    left = [
        (d.kind, d.status, d.attempts, d.error)
        for d in await store.pending_deliveries()
        if d.game_id == game_id
    ]
    async with store.transaction() as tx:
        failed = await tx.fetch(
            "SELECT kind, attempts, error FROM deliveries WHERE game_id = ? AND status = 'failed'",
            (game_id,),
        )
    print(
        f"stalled game {game_id}: {why}; turn message of turn {row.turn_message_turn},"
        f" notified {row.notified_turn}, waiting on {row.waiting_on_user}; pending {left};"
        f" given up {[tuple(r) for r in failed]}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--channels", type=int, default=24)
    parser.add_argument("--faults", type=float, default=20.0, help="percent of REST calls")
    parser.add_argument("--chaos-seconds", type=float, default=40.0)
    parser.add_argument("--quiet-seconds", type=float, default=40.0)
    parser.add_argument("--grace", type=float, default=150.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", choices=("sqlite", "pg"), default="sqlite")
    parser.add_argument("--restart-db", action="store_true", help="restart PostgreSQL midway")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR, format="%(levelname)s %(name)s: %(message)s")
    if args.db == "pg":
        from tests.postgres import PostgresServer

        server = PostgresServer.start()
        try:
            url = asyncio.run(server.create_database())
            line = asyncio.run(run(args, url, server.restart if args.restart_db else None))
        finally:
            server.stop()
    else:
        with tempfile.TemporaryDirectory() as tmp:
            line = asyncio.run(run(args, str(Path(tmp) / "chaos.db"), None))
    print(line)


if __name__ == "__main__":
    main()

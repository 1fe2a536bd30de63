"""Chaos: games played by members who act only once they are told it is their turn, while
Discord's API fails the way it does in production and Discord's lifecycle happens to the
bot; prints figures, asserts nothing.

    python tests/benchmarks/chaos.py [--games 24] [--channels 24] [--faults 20] \\
        [--chaos-seconds 40] [--quiet-seconds 40] [--seed 1] [--db sqlite|pg] [--restart-db]

``--games`` games in ``--channels`` channels (a channel plays its games one after the
other), two seats each: ``owner`` in every game (its host), and ``member`` (pinged in the
channel) or ``manager`` (told by DM). Each member plays their whole turn, with a short
think, only once a ping for that turn reaches them (the turn message's ping, a DM, or the
line that says a game goes on). For ``--chaos-seconds`` a seeded ``--faults`` % of REST
calls fail: 503, 500 (discord.py retries those itself), connection resets before and after
the request took effect, interactions answered too late (10062); every few seconds a burst
of 429s; one channel loses its permissions for 30 s. And Discord's lifecycle, at set
moments of the chaos (fractions of it):

- one channel's turn messages are rejected for good (a 400 on any message with a panel or
  a picture there) from the start;
- a channel is deleted (0.2: the bot gets CHANNEL_DELETE); its host, told by DM, goes on
  with the game in a new channel (``/af panel game:``);
- the bot is removed from a second server where two games are played (0.3: GUILD_DELETE),
  and added back (0.7: GUILD_CREATE): the games go on there;
- a rolling restart (0.45: a second process starts over the same database and shards and
  gets every interaction too; 0.55: the first stops);
- the database refuses writes for 5 s (0.6: SQLite's ``query_only``; PostgreSQL made read
  only, as after a failover);
- a restart later than the nonce window (0.75: the process stops, a channel is deleted
  while no bot runs — no event — and a new process starts after Discord forgot the
  nonces: the fake keeps them ``NONCE_SECONDS``, the bot trusts them half of that).

Then Discord is quiet for ``--quiet-seconds``; then nobody plays and the bot gets up to
``--grace`` seconds to deliver what waits.

Last line: ``chaos: F faults, G/N games announced, S stalled, L lost, D dup, X doubled turn
messages, O orphaned untold, H max req/s to a failing channel, p99 ping delay P s`` — F
faults injected (the lifecycle's included); a game is *announced* when the member its turn
waits on was told of that turn (or it is over, with its game-over message); *stalled* when
not; *lost*: moves acknowledged with a ✅ that are not in the stored log; *dup*: moves in the
log no member sent (an action applied twice); *doubled*: turns with two turn messages;
*orphaned untold*: games in play when their channel was lost (a game over by then is not
orphaned) whose host got no DM about it; *max
req/s to a failing channel*: the most requests in any second to a channel while all its
calls fail (without permissions, deleted, the bot removed); the ping delay runs from the
commit that started a turn to its ping. Before it, each doubled turn and each untold
orphaned game is explained: the requests that made and touched the turn's messages, the
host's DMs about the game, what of it waits in the outbox, and the bot's warnings about it
(the lifecycle's steps among them, in time order).
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import logging
import random
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.discord.client import AlienFrontiersBot
from engine import legal_actions
from engine.actions import Dock
from tests.benchmarks.bench_bot import pct
from tests.bot.table import jobs_of, make_bot
from tests.discord_fake import BotHarness, FakeDiscord
from tests.discord_fake import payloads as p
from tests.discord_fake.server import ApiError, FakeResponse, Fault, RecordedRequest

MESSAGES = "/channels/{channel_id}/messages"
EDIT = "/channels/{channel_id}/messages/{message_id}"
CALLBACK = "/interactions/{interaction_id}/{token}/callback"
FOLLOWUP = "/webhooks/{application_id}/{token}"
BOARD = re.compile(r"board-(\d+)-turn(\d+)\.png")
MEMBERS = ("owner", "member", "manager")
# The bot's warnings (and worse), kept to explain an untold orphaned game afterwards.
NOTES: list[tuple[float, str, str]] = []


class Notes(logging.Handler):
    def emit(self, record: logging.LogRecord) -> None:
        NOTES.append((record.created, record.name, record.getMessage()))


TIMELINE: list[tuple[float, str]] = []  # the lifecycle's steps, when (time.time)
NONCE_SECONDS = 4.0  # how long the fake keeps a nonce here (Discord: a few minutes)
READ_ONLY_SECONDS = 5.0


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


def reject_in(fake: FakeDiscord, channel: int, counts: Counter[str]) -> None:
    """Discord rejects, for good, every message with a panel or a picture in ``channel``: a
    400 naming the field (posts, edits, and a click's update of a message there)."""

    def refuse(body: Any, files: Any) -> None:
        body = body or {}
        if body.get("components") or files or body.get("attachments"):
            counts["400"] += 1
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                {"components": {"0": {"_errors": [{"code": "X", "message": "rejected"}]}}},
            )

    def wrapped(original: Callable[[Any], Any], where: Callable[[Any], int | None]) -> Any:
        async def handle(call: Any) -> FakeResponse:
            if where(call) == channel:
                body = call.json or {}
                if call.path.endswith("/callback"):
                    body = body.get("data") or {}
                refuse(body, call.files)
            made: FakeResponse = await original(call)
            return made

        return handle

    def of_channel(call: Any) -> int | None:
        return int(call.params["channel_id"])

    def of_interaction(call: Any) -> int | None:
        state = fake.interactions.get(int(call.params["interaction_id"]))
        return state.channel_id if state is not None else None

    fake.set_handler("POST", MESSAGES, wrapped(fake._create_message, of_channel))
    fake.set_handler("PATCH", EDIT, wrapped(fake._edit_message, of_channel))
    fake.set_handler("POST", CALLBACK, wrapped(fake._interaction_callback, of_interaction))


class Fleet:
    """The bot's processes, over one database and one fake Discord: usually one; two while
    a rolling restart overlaps them; none between a stop and the next start. Each
    interaction goes to every one of them, as Discord's gateway sends it to every session
    of the shard."""

    def __init__(self, fake: FakeDiscord, db: str) -> None:
        self.fake = fake
        self.db = db
        self.harnesses: list[BotHarness] = []

    async def start(self) -> BotHarness:
        """A new process; if Discord fails its start (a login under chaos), started again a
        second later, as a supervisor (Docker's restart policy, systemd) would."""
        for _ in range(30):
            bot = make_bot(self.db, reminder_check_seconds=5.0)
            bot.deliveries.nonce_trust = NONCE_SECONDS / 2
            h = BotHarness(self.fake, bot, timeout=120, fail_on_errors=False)
            try:
                await h.start()
            except Exception as e:
                print(f"a process did not start ({type(e).__name__}: {e}); again", flush=True)
                await asyncio.sleep(1.0)
                continue
            self.harnesses.append(h)
            return h
        raise RuntimeError("no process could start")

    async def stop(self, h: BotHarness) -> None:
        self.harnesses.remove(h)
        await h.close(check=False)

    @property
    def newest(self) -> BotHarness | None:
        return self.harnesses[-1] if self.harnesses else None

    @property
    def bot(self) -> AlienFrontiersBot | None:
        h = self.newest
        return h.bot if h is not None else None  # type: ignore[return-value]

    async def interact(self, payload: dict[str, Any]) -> int | None:
        """Send an interaction to every process (its id; None with no process running)."""
        live = list(self.harnesses)
        if not live:
            return None
        first = await live[0].interact(payload, expect_response=False)
        for other in live[1:]:
            if not other.bot.is_closed():
                other.bot._connection.parsers["INTERACTION_CREATE"](copy.deepcopy(payload))
        await first.done(timeout=120)
        return first.id


@dataclass
class Send:
    """A ``/play`` a member sent: where, at which version, and whether they saw its ✅."""

    game_id: int
    seq: int
    move: str
    user: int
    acked: bool = False
    interaction: int | None = None  # its id: the move's key in the log (``i<id>``)


class Players:
    """The members: each plays a turn once its ping reached them; the host goes on with a
    game whose channel was deleted once told so."""

    def __init__(self, fleet: Fleet, fake: FakeDiscord, guild: p.TestGuild, seed: int) -> None:
        self.fleet = fleet
        self.fake = fake
        self.guild = guild
        self.rng = random.Random(seed)
        self.users = {int(getattr(guild, m)["user"]["id"]): m for m in MEMBERS}
        self.sends: list[Send] = []
        self.told: dict[tuple[int, int], float] = {}  # (game, turn) -> when first pinged
        self.acting: dict[tuple[int, int], asyncio.Task[None]] = {}
        self.orphan_dms: dict[int, str] = {}  # game -> the DM its host got about it
        self.moved: dict[int, int] = {}  # game -> the channel its host took it to
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

    def _game_in(self, channel: int) -> tuple[int, int] | None:
        """The game in play in a channel and its turn, as the newest process holds it."""
        bot = self.fleet.bot
        if bot is None:
            return None
        game_id = jobs_of(bot).games._by_channel.get(channel)
        game = jobs_of(bot).games.held(game_id) if game_id is not None else None
        if game is None or game.game is None:
            return None
        return game.id, game.state.turn_number

    def _read(self, r: RecordedRequest) -> None:
        if r.method != "POST" or r.route not in (MESSAGES, CALLBACK) or r.status != 200:
            return
        message = r.message or {}
        body = r.json or {}
        if r.route == CALLBACK:
            body = body.get("data") or {}
        content = str(message.get("content", ""))
        users = [int(u) for u in (body.get("allowed_mentions") or {}).get("users", [])]
        channel = int(message.get("channel_id", 0) or 0)
        if self.fake.channels.get(channel, {}).get("type") == p.DM:
            recipient = int(self.fake.channels[channel]["recipients"][0]["id"])
            orphaned = re.search(r"game #(\d+) cannot go on", content)
            if orphaned is not None:
                self._orphaned(int(orphaned[1]), content)
                return
            found = re.search(r"/(\d+)/(\d+)/(\d+)", content)
            if found is None or not content.startswith("🎲"):
                return
            turn = _turn_of(self.fake.messages.get(int(found[3])))
            if turn is not None:
                self._told(turn[0], turn[1], recipient, r.at)
            return
        turn = _turn_of(message)
        # A turn message sent as text (no board), or the bot back: the game goes on.
        if (content.startswith("🎲") and turn is None) or content.startswith("🔌"):
            turn = self._game_in(channel)
        elif not content.startswith("🎲"):
            return
        if turn is None:
            return
        for user in users:
            self._told(turn[0], turn[1], user, r.at)

    def _orphaned(self, game_id: int, content: str) -> None:
        self.orphan_dms.setdefault(game_id, content)
        if "deleted" in content and game_id not in self.moved and self.playing:
            self._spawn(self._continue(game_id))

    async def _continue(self, game_id: int) -> None:
        """The host takes the game to a new channel of the server (``/af panel game:``)."""
        await asyncio.sleep(self.rng.uniform(0.2, 0.6))  # reading the DM
        channel = int(
            self.fake.add_channel(p.text_channel(self.guild.id, f"again-{game_id}"))["id"]
        )
        self.moved[game_id] = channel
        for _ in range(40):
            bot = self.fleet.bot
            game = jobs_of(bot).games.held(game_id) if bot is not None else None
            if game is not None and game.row.channel_id == channel:
                return
            if self.fleet.newest is not None:
                payload = self.fleet.newest.slash(
                    "af panel", {"game": game_id}, member="owner", channel_id=channel
                )
                await self.fleet.interact(payload)
            await asyncio.sleep(0.5)

    def _told(self, game_id: int, turn: int, user: int, at: float) -> None:
        self.told.setdefault((game_id, turn), at)
        key = (game_id, turn)
        running = self.acting.get(key)
        if (running is not None and not running.done()) or not self.playing:
            return
        self.acting[key] = self._spawn(self._play_turn(game_id, turn, user))

    def _spawn(self, coroutine: Any) -> asyncio.Task[None]:
        task = asyncio.create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _play_turn(self, game_id: int, turn: int, user: int) -> None:
        await asyncio.sleep(self.rng.uniform(0.1, 0.5))  # reading the ping
        for _ in range(80):
            bot = self.fleet.bot
            if bot is None:  # between two processes: wait for the next
                await asyncio.sleep(0.5)
                continue
            game = jobs_of(bot).games.held(game_id)
            if game is None or game.game is None or not self.playing:
                return
            state = game.state
            if state.over or state.turn_number != turn or game.waiting_on() != user:
                return
            if game.row.channel_id not in self.fake.channels:
                return  # the channel is gone: the game waits for its host
            actions = legal_actions(state)
            docks = [a for a in actions if isinstance(a, Dock)]
            ends = [a for a in actions if str(a) == "end"]
            action = ends[0] if ends and (not docks or self.rng.random() < 0.3) else None
            action = action or self.rng.choice(docks or actions)
            send = Send(game_id, state.version, str(action), user)
            self.sends.append(send)
            h = self.fleet.newest
            if h is None:
                continue
            payload = h.slash(
                "play",
                {"move": str(action)},
                member=self.users[user],
                channel_id=game.row.channel_id,
            )
            interaction = await self.fleet.interact(payload)
            send.interaction = interaction
            send.acked = interaction is not None and any(
                ok.status == 200
                and str(
                    ((ok.json or {}).get("data") or ok.json or {}).get("content", "")
                ).startswith("✅")
                for ok in self.fake.find(interaction_id=interaction)
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


async def open_game(fleet: Fleet, channel: int, second: str) -> int:
    """A game started in ``channel`` (each command again until it took effect: under
    chaos its answer may be lost or refused)."""
    for _ in range(80):
        bot, h = fleet.bot, fleet.newest
        if bot is None or h is None:
            await asyncio.sleep(0.5)
            continue
        game = await jobs_of(bot).games.in_channel(channel)
        if game is not None and game.row.status == "playing":
            return game.id
        if game is None:
            command, options, member = "af new", {"players": 2}, "owner"
        elif len(game.seats) < 2:
            command, options, member = "af join", None, second
        else:
            command, options, member = "af start", None, "owner"
        await fleet.interact(h.slash(command, options, member=member, channel_id=channel))
        await asyncio.sleep(0.2)
    raise RuntimeError(f"no game could be started in channel {channel}")


class Windows:
    """When each channel's calls all fail (from, to; to None: to the end)."""

    def __init__(self) -> None:
        self.spans: list[tuple[int, float, float | None]] = []

    def add(self, channel: int, start: float, end: float | None = None) -> None:
        self.spans.append((channel, start, end))

    def end(self, channel: int, at: float) -> None:
        for i, (c, start, end) in enumerate(self.spans):
            if c == channel and end is None:
                self.spans[i] = (c, start, at)

    def busiest(self, requests: list[RecordedRequest]) -> int:
        """The most requests in any one second to a channel in one of its failing spans."""
        most = 0
        for channel, start, end in self.spans:
            before = most
            times = sorted(
                r.at
                for r in requests
                if f"/channels/{channel}/" in r.path + "/"
                and start <= r.at <= (end if end is not None else float("inf"))
            )
            j = 0
            worst = 0
            for i, t in enumerate(times):
                while times[j] < t - 1.0:
                    j += 1
                worst = max(worst, i - j + 1)
            most = max(before, worst)
            print(f"failing channel {channel}: {len(times)} requests, at most {worst} in a second")
        return most


async def refuse_writes(fleet: Fleet, server: Any, on: bool) -> None:
    """The database takes reads but refuses writes (SQLite's ``query_only`` on every
    process's connection; PostgreSQL read-only for every session, as after a failover)."""
    if server is not None:
        admin = await server._admin()
        try:
            if on:
                await admin.execute("ALTER SYSTEM SET default_transaction_read_only = on")
            else:
                await admin.execute("ALTER SYSTEM RESET default_transaction_read_only")
            await admin.execute("SELECT pg_reload_conf()")
        finally:
            await admin.close()
        return
    for h in fleet.harnesses:
        db: Any = jobs_of(h.bot).store.db  # SQLite's: its lock and connection
        async with db._lock:
            await db._conn.execute(f"PRAGMA query_only = {int(on)}")


async def run(args: argparse.Namespace, db: str, server: Any) -> str:
    async with FakeDiscord() as fake:
        fake.clock = time.time  # the bot's commits are stamped with time.time too
        fake.nonce_seconds = NONCE_SECONDS
        main = fake.guild
        assert main is not None
        gid = main.id
        # A second server where two of the games are played (the bot is removed from it).
        other = p.build_test_guild(fake.bot_user, name="Elsewhere")
        fake.add_guild(other.payload)
        for m in MEMBERS:
            fake.add_member(other.id, fake.get_member(gid, int(getattr(main, m)["user"]["id"])))
        channels = [
            int(fake.add_channel(p.text_channel(other.id if i < 2 else gid, f"game-{i}"))["id"])
            for i in range(args.channels)
        ]
        removed_channels, deleted, deleted_quietly = channels[:2], channels[2], channels[3]
        rejected, forbidden = channels[-2], channels[-1]
        fleet = Fleet(fake, db)
        first = await fleet.start()
        manager = first.slash("af notify", {"mode": "dm"}, member="manager")
        await (await first.interact(manager)).done()
        chaos = Chaos(random.Random(args.seed), args.faults / 100)
        chaos.forbidden_channel = forbidden
        chaos.forbidden_from = args.chaos_seconds / 3
        fake.fault_hook = chaos
        reject_in(fake, rejected, chaos.counts)
        windows = Windows()
        players = Players(fleet, fake, main, args.seed)
        watcher = asyncio.create_task(players.watch())
        games: list[int] = []
        queue = list(range(args.games))

        async def channel_loop(channel: int) -> None:
            while queue:
                number = queue.pop(0)
                second = "manager" if number % 3 == 2 else "member"
                games.append(await open_game(fleet, channel, second))
                while players.playing:
                    bot = fleet.bot
                    game = jobs_of(bot).games.held(games[-1]) if bot is not None else None
                    if (
                        bot is not None
                        and game is None
                        and (row := await jobs_of(bot).store.game_rows.game(games[-1])) is not None
                        and row.status not in ("playing", "orphaned")
                    ):
                        break  # over: the next game in this channel
                    if channel not in fake.channels:
                        return
                    if game is not None and game.row.channel_id != channel:
                        break  # taken to another channel
                    await asyncio.sleep(0.5)
                if not players.playing:
                    return

        loops = [asyncio.create_task(channel_loop(c)) for c in channels]
        while len(games) < min(args.games, len(channels)):  # the first games open well
            await asyncio.sleep(0.2)
        chaos.started = time.monotonic()
        started = time.time()
        windows.add(forbidden, started + chaos.forbidden_from)
        windows.end(forbidden, started + chaos.forbidden_from + chaos.forbidden_seconds)
        chaos.on = True
        T = args.chaos_seconds
        steps: list[tuple[float, str]] = sorted(
            [
                (0.2, "delete"),
                (0.3, "remove"),
                (0.45, "overlap"),
                (0.5, "restart-db"),
                (0.55, "stop-first"),
                (0.6, "read-only"),
                (0.6 + READ_ONLY_SECONDS / T, "writable"),
                (0.7, "add-back"),
                (0.75, "restart"),
            ]
        )
        second: BotHarness | None = None
        for at, step in steps:
            wait = chaos.started + at * T - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            now = time.time()
            TIMELINE.append((now, step))
            if step == "delete":
                fake.delete_channel(deleted)
                windows.add(deleted, now)
                chaos.counts["channel deleted"] += 1
            elif step == "remove":
                fake.remove_bot(other.id)
                for c in removed_channels:
                    windows.add(c, now)
                chaos.counts["bot removed"] += 1
            elif step == "overlap":
                second = await fleet.start()  # a rolling restart: both run a while
                chaos.counts["second process"] += 1
            elif step == "restart-db" and args.restart_db and server is not None:
                await asyncio.to_thread(server.restart)
                chaos.counts["database restarted"] += 1
            elif step == "stop-first":
                await fleet.stop(first)
            elif step == "read-only":
                await refuse_writes(fleet, server, True)
                chaos.counts["writes refused"] += 1
            elif step == "writable":
                await refuse_writes(fleet, server, False)
            elif step == "add-back":
                fake.add_bot(other.id)
                for c in removed_channels:
                    windows.end(c, now)
                chaos.counts["bot added back"] += 1
            elif step == "restart" and second is not None:
                await fleet.stop(second)  # the process stops; a channel goes meanwhile
                fake.delete_channel(deleted_quietly, event=False)
                windows.add(deleted_quietly, time.time())
                chaos.counts["channel deleted unseen"] += 1
                await asyncio.sleep(NONCE_SECONDS + 2)  # past the nonce window
                await fleet.start()
                TIMELINE.append((time.time(), "started again"))
                chaos.counts["restart past the nonce"] += 1
        while time.monotonic() - chaos.started < T:
            await asyncio.sleep(0.5)
        chaos.on = False
        await asyncio.sleep(args.quiet_seconds)
        await players.stop()
        for loop in loops:
            loop.cancel()
        await asyncio.gather(*loops, return_exceptions=True)
        # Nobody plays now: the bot delivers what waits (retries, the clock's repairs).
        bot = fleet.bot
        assert bot is not None
        deadline = time.monotonic() + args.grace
        store = jobs_of(bot).store
        while time.monotonic() < deadline:
            if not await store.deliveries.pending_deliveries():
                break
            await asyncio.sleep(1.0)
        await asyncio.sleep(1.0)
        watcher.cancel()
        players._seen = 0
        players.playing = False
        while players._seen < len(fake.requests):  # every ping, to the last one
            players._read(fake.requests[players._seen])
            players._seen += 1
        # A game is orphaned when it was in play in a channel when that was lost (a game
        # over before then is not: its host has nothing to be told).
        lost_at = {c: start for c, start, _ in windows.spans if c != forbidden}
        rows = [await store.game_rows.game(g) for g in games]
        over_before = {
            r.id
            for r in rows
            if r is not None
            and r.channel_id in lost_at
            and r.status in ("over", "aborted")
            and r.updated_at < lost_at[r.channel_id]
        }
        if over_before:
            print(f"games over before their channel was lost: {sorted(over_before)}")
        orphaned = {
            r.id
            for r in rows
            if r is not None and r.channel_id in lost_at and r.id not in over_before
        }
        orphaned |= set(players.moved)
        places = {
            deleted: "deleted",
            deleted_quietly: "deleted while no bot ran",
            **{c: "in the server that removed the bot" for c in removed_channels},
            **{c: "taken there by its host" for c in players.moved.values()},
        }
        line = await measure(fleet, fake, bot, players, games, chaos, windows, orphaned, places)
        for h in list(fleet.harnesses):
            await fleet.stop(h)
        return line


async def measure(
    fleet: Fleet,
    fake: FakeDiscord,
    bot: AlienFrontiersBot,
    players: Players,
    games: list[int],
    chaos: Chaos,
    windows: Windows,
    orphaned: set[int],
    places: dict[int, str],
) -> str:
    store = jobs_of(bot).store
    stalled = lost = dup = doubled = 0
    delays: list[float] = []
    boards: Counter[tuple[int, int]] = Counter()
    for channel, channel_messages in fake.channel_messages.items():
        if channel not in fake.channels:
            continue  # deleted, with its messages
        for mid in channel_messages:
            message = fake.messages.get(mid) or {}
            turn = _turn_of(message)
            if turn is not None and str(message.get("content", "")).startswith(("🎲", "⌛")):
                boards[turn] += 1
    doubled = sum(1 for n in boards.values() if n > 1)
    for (doubled_game, doubled_turn), n in sorted(boards.items()):
        if n > 1:
            print(f"game {doubled_game}, turn {doubled_turn}: {n} turn messages")
            explain_doubled(fake, doubled_game, doubled_turn)
    for game_id in games:
        row = await store.game_rows.game(game_id)
        assert row is not None
        actions = await store.action_log.actions(game_id)
        sends = [s for s in players.sends if s.game_id == game_id]
        # A member's move is logged with its key, the interaction that sent it: an
        # acknowledged move whose key is not in the log was lost; a move in the log whose
        # key no member sent (or was logged twice) was applied twice.
        keys = Counter(a.move_key for a in actions if a.user_id is not None)
        lost += sum(1 for s in sends if s.acked and keys[f"i{s.interaction}"] == 0)
        sent = {f"i{s.interaction}" for s in sends}
        dup += sum(n - 1 if key in sent else n for key, n in keys.items())
        started = 0  # turns started so far: the number of the turn a row starts
        for a in actions:
            if any(e.get("key") == "turn_started" for e in a.events):
                started += 1
                told = players.told.get((game_id, started))
                if told is not None:
                    delays.append(max(0.0, told - a.created_at))
        if row.status == "over":
            if not [m for m in fake.messages_in(row.channel_id) if "Game over" in m["content"]]:
                stalled += 1
            continue
        game = await jobs_of(bot).games.by_id(game_id)  # from the database if not held
        if game is None or game.game is None:
            stalled += 1
            await explain(store, game_id, f"not in play ({row.status})")
            continue
        if game.waiting_on() is not None and (game_id, game.state.turn_number) not in players.told:
            stalled += 1
            await explain(store, game_id, f"turn {game.state.turn_number} not told")
    untold = sorted(g for g in orphaned if g not in players.orphan_dms)
    if untold:
        print(f"orphaned games whose host was not told: {untold}")
        for game_id in untold:
            await explain_untold(store, fake, players, places, game_id)
    unchecked = [m for _, _, m in NOTES if "its channel not checked" in m]
    if unchecked:
        print(f"places Discord did not confirm at a start: {unchecked}")
    faults = sum(chaos.counts.values())
    kinds = ", ".join(f"{k} {v}" for k, v in sorted(chaos.counts.items()))
    print(f"faults by kind: {kinds}")
    longest = max(delays, default=0.0)
    print(f"ping delays: {len(delays)} turns, median {pct(delays, 0.5):.2f} s, max {longest:.2f} s")
    print(f"moves sent {len(players.sends)}, acknowledged {sum(s.acked for s in players.sends)}")
    print(f"orphaned {len(orphaned)}: continued elsewhere {len(players.moved)}")
    busiest = windows.busiest(fake.requests)
    n = len(games)
    return (
        f"chaos: {faults} faults, {n - stalled}/{n} games announced, {stalled} stalled, "
        f"{lost} lost, {dup} dup, {doubled} doubled turn messages, {len(untold)} orphaned"
        f" untold, {busiest} max req/s to a failing channel, p99 ping delay"
        f" {pct(delays, 0.99):.1f} s"
    )


def explain_doubled(fake: FakeDiscord, game_id: int, turn: int) -> None:
    """The requests that made and touched a doubled turn's messages, and the bot's warnings
    about its game, in time order (with the lifecycle's steps)."""
    made = {mid for mid, message in fake.messages.items() if _turn_of(message) == (game_id, turn)}
    lines = [(at, f"lifecycle: {step}") for at, step in TIMELINE]
    for r in fake.requests:
        mid = int((r.message or {}).get("id", 0) or r.params.get("message_id", 0) or 0)
        if mid in made:
            nonce = (r.json or {}).get("nonce")
            lines.append((r.at, f"{r.method} {r.path} -> {r.status} message {mid} nonce {nonce}"))
    game = re.compile(rf"\bgame #?{game_id}\b")
    lines += [(at, f"{name}: {m[:200]}") for at, name, m in NOTES if game.search(m)]
    first = min((at for at, line in lines if line.startswith(("POST", "PATCH"))), default=0.0)
    for at, line in sorted(lines):
        if at >= first - 30:
            print(f"  {at:.2f} {line}")


async def explain_untold(
    store: Any, fake: FakeDiscord, players: Players, places: dict[int, str], game_id: int
) -> None:
    """Where an orphaned game whose host was not told was played, what became of its
    channel, and what the host's DMs said of it."""
    row = await store.game_rows.game(game_id)
    assert row is not None
    host = row.host_id
    dms = [
        (round(r.at, 2), r.status, str((r.message or r.json or {}).get("content", ""))[:90])
        for r in fake.requests
        if r.method == "POST"
        and r.route == MESSAGES
        and fake.channels.get(int(r.params.get("channel_id", 0)), {}).get("type") == p.DM
        and int(fake.channels[int(r.params["channel_id"])]["recipients"][0]["id"]) == host
        and f"#{game_id}" in str((r.json or {}).get("content", ""))
    ]
    deliveries = [
        (d.kind, d.status, d.channel_id, d.attempts, d.error)
        for d in await store.deliveries.pending_deliveries()
        if d.game_id == game_id
    ] + [
        (d.kind, "given up", d.channel_id, d.attempts, d.error)
        for d in await store.deliveries.failed_deliveries(game_id=game_id)
    ]
    print(
        f"untold game {game_id}: {row.status} (orphaned: {row.orphaned}) in channel"
        f" {row.channel_id} ({places.get(row.channel_id, 'a channel not lost')},"
        f" {'still there' if row.channel_id in fake.channels else 'gone'}), turn"
        f" {row.turn_message_turn}; moved to {players.moved.get(game_id)}; host's DMs about"
        f" it {dms}; deliveries {deliveries}"
    )
    said = re.compile(rf"\bgame #?{game_id}\b|channel {row.channel_id}\b")
    for at, name, message in NOTES:
        if said.search(message):
            print(f"  {at:.2f} {name}: {message[:200]}")


async def explain(store: Any, game_id: int, why: str) -> None:
    """What a stalled game's row and deliveries say, for whoever reads the figures."""
    row = await store.game_rows.game(game_id)
    left = [
        (d.kind, d.status, d.attempts, d.error)
        for d in await store.deliveries.pending_deliveries()
        if d.game_id == game_id
    ]
    failed = [
        (d.kind, d.attempts, d.error)
        for d in await store.deliveries.failed_deliveries(game_id=game_id)
    ]
    print(
        f"stalled game {game_id}: {why}; turn message of turn {row.turn_message_turn},"
        f" notified {row.notified_turn}, waiting on {row.waiting_on_user}; pending {left};"
        f" given up {failed}"
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
    for printed in logging.getLogger().handlers:
        printed.setLevel(logging.ERROR)  # the warnings are only kept (NOTES)
    notes = Notes(logging.WARNING)
    logging.getLogger("bot").addHandler(notes)
    logging.getLogger("bot").setLevel(logging.WARNING)
    if args.db == "pg":
        from tests.postgres import PostgresServer

        server = PostgresServer.start()
        try:
            url = asyncio.run(server.create_database())
            line = asyncio.run(run(args, url, server))
        finally:
            server.stop()
    else:
        with tempfile.TemporaryDirectory() as tmp:
            line = asyncio.run(run(args, str(Path(tmp) / "chaos.db"), None))
    print(line)


if __name__ == "__main__":
    main()

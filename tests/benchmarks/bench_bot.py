"""Bot speed through the fake Discord API: prints figures, asserts nothing.

    python tests/benchmarks/bench_bot.py [--docks 200] [--ends 40] [--games 1,4,16,48]

Figures:
  * ``/play`` latency, from feeding the raw interaction to discord.py until the
    fake has recorded the bot's reply (median, p99): for a dock, and for an end of
    turn; for the end of turn also until the next turn's message with the board
    image (real renderer) is posted.
  * concurrent games: N games in N channels of one process, every seat playing
    ``/play`` moves as fast as replies come back; moves per second, reply and
    new-turn-image latency. "Sustains" = the largest N whose p99 reply stays under
    1 s (Discord allows 3 s).

The fake server runs in the same process and event loop, so its own work is
counted against the bot: real figures are better, not worse.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.discord.client import AlienFrontiersBot
from engine import legal_actions
from engine.actions import Dock
from tests.bot.table import jobs_of, make_bot
from tests.discord_fake import BotHarness, FakeDiscord
from tests.discord_fake import payloads as p

MESSAGES = "/channels/{channel_id}/messages"


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def ms(values: list[float]) -> str:
    median, p99 = statistics.median(values) * 1000, pct(values, 0.99) * 1000
    return f"median {median:7.1f} ms   p99 {p99:7.1f} ms"


class Driver:
    """Plays one channel's game with ``/play`` and measures the replies."""

    def __init__(self, h: BotHarness, channel_id: int, seed: int) -> None:
        self.h = h
        self.bot: AlienFrontiersBot = h.bot  # type: ignore[assignment]
        self.channel_id = channel_id
        self.rng = random.Random(seed)
        self.members = {int(getattr(h.guild, m)["user"]["id"]): m for m in ("owner", "member")}
        self.dock: list[float] = []
        self.end: list[float] = []
        self.end_image: list[float] = []
        self.other: list[float] = []

    async def cmd(self, command: str, options: dict[str, Any] | None, member: str) -> Any:
        result = await self.h.interact(
            self.h.slash(command, options, member=member, channel_id=self.channel_id), timeout=60
        )
        await result.done(timeout=60)
        return result

    async def open(self) -> None:
        await self.cmd("af new", {"players": 2}, "owner")
        await self.cmd("af join", None, "member")
        await self.cmd("af start", None, "owner")

    async def move(self) -> None:
        game = await jobs_of(self.bot).games.in_channel(self.channel_id)
        if game is None:
            await self.open()
            return
        user = game.user_to_act()
        assert user is not None
        actions = legal_actions(game.state)
        docks = [a for a in actions if isinstance(a, Dock)]
        action = self.rng.choice(docks or actions)
        turn = game.state.turn_number
        started = time.perf_counter()
        payload = self.h.slash(
            "play", {"move": str(action)}, member=self.members[user], channel_id=self.channel_id
        )
        result = await self.h.interact(payload, timeout=60)
        replied = time.perf_counter() - started
        if game.state.turn_number != turn and not game.state.over:  # the move ended the turn
            channel = str(self.channel_id)
            await self.h.wait_for(
                lambda r: r.params.get("channel_id") == channel and bool(r.files),
                method="POST",
                route=MESSAGES,
                after=result.start_index,
                timeout=60,
            )
            self.end_image.append(time.perf_counter() - started)
            self.end.append(replied)
        elif isinstance(action, Dock):
            self.dock.append(replied)
        else:
            self.other.append(replied)
        await result.done(timeout=60)


async def add_channels(fake: FakeDiscord, count: int) -> list[int]:
    gid = fake.guild.id if fake.guild else 0
    return [int(fake.add_channel(p.text_channel(gid, f"game-{i}"))["id"]) for i in range(count)]


async def single_game(h: BotHarness, docks: int, ends: int) -> None:
    d = Driver(h, h.guild.channel_id, seed=1)
    await d.open()
    while len(d.dock) < docks or len(d.end) < ends:
        await d.move()
    print(f"/play dock          reply: {ms(d.dock)}   (n={len(d.dock)})")
    print(f"/play end of turn   reply: {ms(d.end)}   (n={len(d.end)})")
    print(f"/play end of turn   next turn message with the board image: {ms(d.end_image)}")


async def concurrent(h: BotHarness, fake: FakeDiscord, games: int, moves: int) -> float:
    channels = await add_channels(fake, games)
    drivers = [Driver(h, c, seed=i) for i, c in enumerate(channels)]
    await asyncio.gather(*(d.open() for d in drivers))

    async def run(d: Driver) -> None:
        for _ in range(moves):
            await d.move()

    started = time.perf_counter()
    await asyncio.gather(*(run(d) for d in drivers))
    elapsed = time.perf_counter() - started
    replies = [x for d in drivers for x in (*d.dock, *d.end, *d.other)]
    images = [x for d in drivers for x in d.end_image]
    print(
        f"{games:4d} games: {len(replies) / elapsed:7.1f} moves/s   reply {ms(replies)}   "
        f"new turn + image {ms(images) if images else '-'}"
    )
    return pct(replies, 0.99)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--docks", type=int, default=200)
    parser.add_argument("--ends", type=int, default=40)
    parser.add_argument("--games", default="1,4,16,48")
    parser.add_argument("--moves", type=int, default=30, help="moves per game when concurrent")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord() as fake:
            bot = make_bot(Path(tmp) / "bench.db", real_renderer=True)
            async with BotHarness(fake, bot, timeout=60, fail_on_errors=False) as h:
                print("== one game ==")
                await single_game(h, args.docks, args.ends)
                print("== concurrent games (one process) ==")
                sustained = 0
                for n in (int(x) for x in args.games.split(",")):
                    if await concurrent(h, fake, n, args.moves) < 1.0:
                        sustained = n
                print(f"sustains {sustained} concurrent games with p99 reply under 1 s")


if __name__ == "__main__":
    asyncio.run(main())

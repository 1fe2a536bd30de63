"""Several real ``python -m bot`` processes sharing one PostgreSQL database, over shards.

Each process runs one of two shards (``SHARD_COUNT=2``, ``SHARD_IDS``) against the fake
Discord, whose gateway sends each server's interactions to its shard's connection
only. Shown here: a process resumes and plays on only the games of its shards'
servers; a process killed with SIGKILL mid-game loses no acknowledged move, the
other process's games go on meanwhile, and its own games go on once it restarts.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from bot.factory import build_service
from bot.store.storage import Storage
from engine import legal_actions
from engine.serialize import loads
from tests.bot.processes import BotProcess, command, guild_on_shard, user_id
from tests.discord_fake import FakeDiscord
from tests.discord_fake import payloads as p

WAIT = 60.0


def shard_env(url: str, shard: int) -> dict[str, str]:
    return {"DATABASE_URL": url, "SHARD_COUNT": "2", "SHARD_IDS": str(shard)}


async def ai_game(store: Storage, guild: p.TestGuild, seed: int) -> int:
    """A game of two easy AI seats in the server's #general, started, not shown yet."""
    jobs = build_service(store, new_seed=lambda: seed)
    host = user_id(guild.owner)
    game = await jobs.lobby.create(
        guild_id=guild.id,
        channel_id=guild.channel_id,
        host_id=host,
        host_name=None,
        max_players=2,
        locale="en",
    )
    await jobs.lobby.add_ai(game, host, "easy")
    await jobs.lobby.add_ai(game, host, "easy")
    await jobs.lobby.start(game, host)
    return game.id


async def plays_on(store: Storage, game_id: int, since: int) -> None:
    """Wait until the game's log grew by ten actions (bounded; nothing here measures time)."""
    async with asyncio.timeout(WAIT):
        while len(await store.action_log.actions(game_id)) < since + 10:
            await asyncio.sleep(0.05)


async def test_each_process_resumes_only_the_games_of_its_shards(
    tmp_path: Path, pg_url: str
) -> None:
    store = await Storage.open(pg_url)
    bots: list[BotProcess] = []
    async with FakeDiscord() as fake:
        try:
            guilds = [guild_on_shard(fake, shard, 2, f"shard {shard}") for shard in (0, 1)]
            games = [await ai_game(store, g, seed=40 + i) for i, g in enumerate(guilds)]
            start = [len(await store.action_log.actions(g)) for g in games]

            second = await BotProcess(fake, shard_env(pg_url, 1), tmp_path).start()
            bots.append(second)
            await second.ready()
            await plays_on(store, games[1], start[1])  # the shard-1 process plays its game
            # The game in shard 0's server was left alone: no action, no message.
            assert len(await store.action_log.actions(games[0])) == start[0]
            assert fake.messages_in(guilds[0].channel_id) == []
            assert fake.messages_in(guilds[1].channel_id) != []

            first = await BotProcess(fake, shard_env(pg_url, 0), tmp_path).start()
            bots.append(first)
            await first.ready()
            await plays_on(store, games[0], start[0])  # and the shard-0 process its own
            assert fake.messages_in(guilds[0].channel_id) != []
            for bot in bots:
                assert bot.log is not None
                assert "shards 0 of 2" in str(bot.log) or "shards 1 of 2" in str(bot.log)
        finally:
            for bot in bots:
                await bot.stop()
            await store.close()
    for bot in bots:
        assert "Traceback" not in str(bot.log), str(bot.log)


async def test_a_killed_process_loses_no_acknowledged_move_and_its_games_go_on(
    tmp_path: Path, pg_url: str
) -> None:
    store = await Storage.open(pg_url)
    bots: dict[int, BotProcess] = {}
    async with FakeDiscord() as fake:
        try:
            guilds = [guild_on_shard(fake, shard, 2, f"shard {shard}") for shard in (0, 1)]
            for shard in (0, 1):
                bots[shard] = await BotProcess(fake, shard_env(pg_url, shard), tmp_path).start()
            for bot in bots.values():
                await bot.ready()

            game_ids: list[int] = []
            for guild in guilds:
                owner, member = user_id(guild.owner), user_id(guild.member)
                await command(fake, guild, owner, "af new", {"players": 2})
                await command(fake, guild, member, "af join")
                await command(fake, guild, owner, "af start")
                row = await store.game_rows.active_game(guild.channel_id)
                assert row is not None and row.status == "playing"
                game_ids.append(row.id)

            acked: dict[int, list[str]] = {g: [] for g in game_ids}
            rng = random.Random(18)

            async def move(index: int) -> None:
                """The member to act plays a seeded legal move; an ✅ answer is an ack."""
                game_id, guild = game_ids[index], guilds[index]
                row = await store.game_rows.game(game_id)
                snapshot = await store.action_log.snapshot(game_id)
                assert row is not None and snapshot is not None
                user = row.waiting_on_user
                assert user is not None, "a member should be to act"
                chosen = str(rng.choice(legal_actions(loads(snapshot[1]))))
                reply = await command(fake, guild, user, "play", {"move": chosen})
                assert reply.startswith("✅"), reply
                acked[game_id].append(chosen)

            for _ in range(4):
                await move(0)
                await move(1)
            await move(1)
            bots[1].kill()  # right after an acknowledged move, while it is being shown
            assert await bots[1].wait() != 0
            await fake.gateway.wait_gone(1)

            for _ in range(3):  # the other process's game goes on meanwhile
                await move(0)

            bots[1] = await BotProcess(fake, shard_env(pg_url, 1), tmp_path).start()
            await bots[1].ready()
            for _ in range(3):  # and the killed process's game, once it is back
                await move(1)
            await move(0)

            for game_id in game_ids:
                log = [
                    a.notation
                    for a in await store.action_log.actions(game_id)
                    if a.user_id is not None
                ]
                assert log == acked[game_id]  # every acknowledged move, once, in order
                row = await store.game_rows.game(game_id)
                assert row is not None
                rebuilt = await build_service(store).games.rebuild(
                    row, await store.seat_rows.seats(game_id)
                )
                snapshot = await store.action_log.snapshot(game_id)
                assert snapshot is not None and loads(snapshot[1]) == rebuilt.state
        finally:
            for bot in bots.values():
                await bot.stop()
            await store.close()
    for shard, bot in bots.items():
        assert "Traceback" not in str(bot.log), f"shard {shard}:\n{bot.log}"

"""A game's place lost while the bot was away is found at the next READY: a sharded bot's
shard's new session, and a server not in view though the bot is in it.

Discord replays no CHANNEL_DELETE or GUILD_DELETE of an outage: a session that cannot
resume starts anew (READY) and the bot checks its games' places then
(``Background.check_places``). A sharded bot (``ShardedAlienFrontiersBot``) has one session
per shard: discord.py sends ``shard_ready`` for a shard's new session, not ``ready``, and
keeps in view the servers that shard's READY no longer lists.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.discord.client import ShardedAlienFrontiersBot
from bot.store.shards import Shards
from tests.bot.discord.test_deliveries_e2e import opened
from tests.bot.discord.test_lifecycle_e2e import dms_to, until
from tests.bot.table import Table, jobs_of
from tests.discord_fake import StartBot
from tests.discord_fake import payloads as p

SHARDS = Shards(count=2, ids=frozenset({0, 1}))


def elsewhere(t: Table, member: str) -> None:
    """``member`` shares another server with the bot (a DM to them is taken)."""
    other = p.build_test_guild(t.fake.bot_user, name="Elsewhere")
    t.fake.add_guild(other.payload)
    t.fake.add_member(other.id, t.fake.get_member(t.h.guild.id, t.user_id(member)))


async def told(t: Table, game_id: int, gone: str) -> list[str]:
    """The game orphaned for ``gone`` (its row); what its host was told of it, by DM."""
    await until(lambda: jobs_of(t.bot).games.held(game_id) is None, "orphaned")
    await t.bot.deliveries.settle()
    row = await jobs_of(t.bot).store.game_rows.game(game_id)
    assert row is not None and (row.status, row.orphaned) == ("orphaned", gone)
    return [m for m in dms_to(t, t.user_id("owner")) if f"#{game_id}" in m]


@pytest.mark.parametrize("gone", ["channel", "guild"])
async def test_a_place_lost_while_a_shard_was_away_is_found_at_that_shards_new_session(
    tmp_path: Path, start_bot: StartBot, gone: str
) -> None:
    """A bot over two shards. The gateway connection of the game's shard drops and cannot
    resume; meanwhile the game's channel is deleted, or the bot removed from its server,
    with no event. Only that shard starts a new session (its READY; discord.py sends no
    ``ready``): its places are checked, the game orphaned and its host told once. A new
    session of the other shard leaves the game's server in view (a channel deleted) and
    tells nobody again, nor does another of the game's shard."""
    t, _ = await opened(tmp_path / "af.db", start_bot, shards=SHARDS)
    assert isinstance(t.bot, ShardedAlienFrontiersBot)
    game = t.game()
    guild = t.h.guild.id
    shard = SHARDS.shard_of(guild)
    if gone == "channel":
        t.fake.delete_channel(t.h.guild.channel_id, event=False)
    else:
        elsewhere(t, "owner")
        t.fake.remove_bot(guild, event=False)

    await t.h._ready(shard=shard)  # the game's shard's new session
    said = "deleted" if gone == "channel" else "removed"
    messages = await told(t, game.id, gone)
    assert len(messages) == 1 and said in messages[0], messages
    # In view: the server the bot is in; not the one that removed it.
    assert (t.bot.get_guild(guild) is not None) == (gone == "channel")

    await t.h._ready(shard=1 - shard)  # the other shard's new session: not this server's
    assert (t.bot.get_guild(guild) is not None) == (gone == "channel")
    await t.h._ready(shard=shard)  # yet another new session of the game's shard
    await t.bot.deliveries.settle()
    assert len([m for m in dms_to(t, t.user_id("owner")) if f"#{game.id}" in m]) == 1


async def test_a_server_not_in_view_though_the_bot_is_in_it_has_its_games_channels_checked(
    tmp_path: Path, start_bot: StartBot
) -> None:
    """While the bot was away it was removed from the game's server and the game's channel
    deleted; it is added back just after its new session's READY, which did not list the
    server (its GUILD_CREATE not yet read when the places are checked). Discord says the
    bot is in the server, so the game's channel is asked for: gone, the game is orphaned
    and its host told that the channel was deleted; the server's GUILD_CREATE then changes
    nothing."""
    t, _ = await opened(tmp_path / "af.db", start_bot)
    game = t.game()
    guild = t.h.guild.id
    t.fake.remove_bot(guild, event=False)
    t.fake.delete_channel(t.h.guild.channel_id, event=False)
    fetch_guild = t.bot.fetch_guild

    async def added_back_meanwhile(guild_id: int, **kwargs: Any) -> Any:
        t.fake.add_bot(guild, event=False)  # its GUILD_CREATE comes later
        return await fetch_guild(guild_id, **kwargs)

    t.bot.fetch_guild = added_back_meanwhile  # type: ignore[method-assign]
    await t.h._ready()
    messages = await told(t, game.id, "channel")
    assert len(messages) == 1 and "deleted" in messages[0], messages

    joined = t.fake.guild_payload(guild)
    joined.pop("unavailable", None)
    t.h.dispatch("GUILD_CREATE", joined)
    await until(lambda: t.bot.get_guild(guild) is not None, "the server in view")
    await t.bot.background.tick()
    await t.bot.deliveries.settle()
    row = await jobs_of(t.bot).store.game_rows.game(game.id)
    assert row is not None and (row.status, row.orphaned) == ("orphaned", "channel")
    assert len([m for m in dms_to(t, t.user_id("owner")) if f"#{game.id}" in m]) == 1

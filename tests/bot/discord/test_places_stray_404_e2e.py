"""A stray refusal orphans no game: the check of the places at a READY
(``Background.check_places``) orphans a game only on Discord's word that its channel (or
thread) is gone, 10003 Unknown Channel, or that the bot is not in its server (50001
Missing Access, 10004 Unknown Guild); a 404 without that code (a proxy, a hiccup) says
nothing, and the game is checked again at the next check."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot.discord.test_deliveries_e2e import opened
from tests.bot.table import jobs_of
from tests.discord_fake import StartBot


@pytest.mark.parametrize("where", ["channel", "guild"])
async def test_a_stray_404_orphans_no_game_and_the_place_is_checked_again(
    tmp_path: Path, start_bot: StartBot, where: str
) -> None:
    t, _ = await opened(tmp_path / "af.db", start_bot)
    game = t.game()
    guild_id, channel_id = t.h.guild.id, t.h.guild.channel_id
    guild = t.bot.get_guild(guild_id)
    assert guild is not None
    if where == "channel":  # not in view: asked for
        guild._remove_channel(guild.get_channel(channel_id))  # type: ignore[arg-type]
        route = f"/channels/{channel_id}"
    else:  # the server not in view: asked for
        t.bot._connection._remove_guild(guild)
        route = f"/guilds/{guild_id}"
    t.fake.fail_next("GET", route, status=404, code=0, message="404: Not Found")
    assert await t.bot.background.check_places() == 0
    assert jobs_of(t.bot).games.held(game.id) is not None  # still in play
    row = await jobs_of(t.bot).store.game_rows.game(game.id)
    assert row is not None and row.status == "playing" and row.orphaned is None

    # Discord's word at the next check: the channel deleted, or the bot removed.
    if where == "channel":
        t.fake.delete_channel(channel_id, event=False)
    else:
        t.fake.remove_bot(guild_id, event=False)
    assert await t.bot.background.check_places() == 1
    row = await jobs_of(t.bot).store.game_rows.game(game.id)
    assert row is not None and row.orphaned == where

"""``/af settings scope:server language:``: the language a server's new games start in,
set by its admins, shown with the server's defaults, kept when the clock defaults change,
and taken by ``/af new`` when it names no language of its own."""

from __future__ import annotations

from pathlib import Path

from bot.text.strings import text
from tests.bot.table import Table, jobs_of, make_bot
from tests.discord_fake import StartBot


async def test_admins_choose_the_language_new_games_start_in(
    tmp_path: Path, start_bot: StartBot
) -> None:
    t = Table(await start_bot(make_bot(tmp_path / "af.db")))
    guild = t.h.guild.id
    shown = await t.cmd("af settings", member="owner")
    assert shown.ephemeral
    assert (
        text("settings.server_language_auto", "en", {"language": "English"})
        in (shown.data["content"])
    )

    refused = await t.cmd("af settings", {"scope": "server", "language": "pl"}, "member")
    assert refused.ephemeral and "Only members with Manage Server" in refused.data["content"]
    assert await jobs_of(t.bot).channel_settings.default_language(guild) is None

    bad_clock = await t.cmd(
        "af settings",
        {"scope": "server", "language": "pl", "reminder": 30.0, "warning": 20.0},
        "owner",
    )
    assert (
        bad_clock.ephemeral and "must come before the final warning" in (bad_clock.data["content"])
    )
    assert await jobs_of(t.bot).channel_settings.default_language(guild) is None  # nothing written

    chosen = await t.cmd("af settings", {"scope": "server", "language": "pl"}, "owner")
    assert chosen.ephemeral
    assert chosen.data["content"] == text(
        "settings.server_language_changed", "en", {"language": "Polski"}
    )
    clock = await t.cmd("af settings", {"scope": "server", "turn_limit": 24.0}, "owner")
    assert clock.ephemeral and "at 24 hours" in clock.data["content"]
    assert (
        await jobs_of(t.bot).channel_settings.default_language(guild) == "pl"
    )  # kept with the new clock
    shown = await t.cmd("af settings", member="member")
    assert text("settings.server_language", "en", {"language": "Polski"}) in (shown.data["content"])

    await t.cmd("af new", {"players": 2}, "member")
    game = t.game()
    assert game.row.locale == "pl" and game.clock.limit_hours == 24
    lobby = t.channel_messages()[-1]["content"]
    assert "gospodarz:" in lobby and "hosted by" not in lobby  # the lobby speaks Polish

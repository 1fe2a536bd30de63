"""A game's lobby message: what it says, and its edit after the seats or settings changed.

The Lobby cog posts it; the Lobby, Seats and Settings cogs edit it. Built once by
``bot.client`` and handed to each of them, so no cog looks another one up.
"""

from __future__ import annotations

import contextlib
from dataclasses import asdict

import discord

from bot.games import ActiveGame
from bot.strings import text
from bot.turn_clock import settings_text

# How the lobby names each variant the game is played with (bot.game_config.Variants).
VARIANT_TEXTS = {
    "long_game": "lobby.option.long",
    "mind_control_helm": "lobby.option.helm",
    "finite_supply": "lobby.option.finite",
}


def lobby_text(game: ActiveGame, closing: str | None = None) -> str:
    """The lobby message: options and seats, then how to join (or how the lobby ended)."""
    locale = game.row.locale
    variants = asdict(game.row.config.variants)
    options = [text(key, locale) for name, key in VARIANT_TEXTS.items() if variants[name]]
    host = next((s.name for s in game.seats if s.user_id == game.row.host_id), None)
    lines = [
        text(
            "lobby.header",
            locale,
            {
                "host": host or f"<@{game.row.host_id}>",
                "seats": len(game.seats),
                "max": game.row.max_players,
                "options": " · ".join(
                    [
                        *(options or [text("lobby.option.none", locale)]),
                        text("lobby.option.language", locale),
                    ]
                ),
            },
        )
    ]
    for s in game.seats:
        lines.append(text("lobby.seat", locale, {"number": s.seat + 1, "name": s.name}))
    lines.append(settings_text(game.clock, locale))
    lines.append(closing or text("lobby.help", locale))
    return "\n".join(lines)


class LobbyMessage:
    """Edits the lobby messages of games, through the Discord client it is given."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    async def refresh(self, game: ActiveGame, closing: str | None = None) -> None:
        """Edit the lobby message to show the seats (or how the lobby ended)."""
        if game.row.lobby_message_id is None:
            return
        channel = self.client.get_partial_messageable(
            game.row.channel_id, guild_id=game.row.guild_id
        )
        content = lobby_text(game, closing)
        with contextlib.suppress(discord.NotFound):
            await channel.get_partial_message(game.row.lobby_message_id).edit(
                content=content[:2000], allowed_mentions=discord.AllowedMentions.none()
            )


__all__ = ["VARIANT_TEXTS", "LobbyMessage", "lobby_text"]

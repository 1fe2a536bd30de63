"""A game's messages shown again after its seats or settings changed: its lobby message
(what it says, and its edit), or its turn message and panel (through the announcer).

The Lobby cog posts the lobby message; the Lobby, Seats and Settings cogs show changes
through one ``GameMessages``, built by ``bot.client`` and handed to each of them, so no
cog looks another one up.
"""

from __future__ import annotations

import contextlib
from dataclasses import asdict
from typing import TYPE_CHECKING

import discord

from bot.games import ActiveGame
from bot.strings import text
from bot.turn_clock import settings_text

if TYPE_CHECKING:
    from bot.announce import Announcer

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


class GameMessages:
    """Edits the lobby messages of games (through the Discord client it is given) and, once
    a game is played, its turn message (through the announcer)."""

    def __init__(self, client: discord.Client, announcer: Announcer) -> None:
        self.client = client
        self.announcer = announcer

    async def refresh_lobby(self, game: ActiveGame, closing: str | None = None) -> None:
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

    async def show_again(self, game: ActiveGame) -> None:
        """Show a game again after its seats or settings changed: its lobby message, or its
        turn message and panel."""
        if game.row.status == "lobby":
            await self.refresh_lobby(game)
        elif game.row.status == "playing" and game.game is not None:
            shown = self.announcer
            await shown.edit_turn_message(game, shown.turn_text(game), shown.panel(game))

    async def show_ended(self, game: ActiveGame, was_playing: bool, closing: str) -> None:
        """Show a game that ended before its end: its turn message in its final form followed
        by ``closing`` (no panel), or its lobby message closed."""
        if was_playing:
            content = self.announcer.turn_text(game, final=True) + "\n" + closing
            await self.announcer.edit_turn_message(game, content[:2000], None)
        else:
            await self.refresh_lobby(game, text("lobby.closed", game.row.locale))


__all__ = ["VARIANT_TEXTS", "GameMessages", "lobby_text"]

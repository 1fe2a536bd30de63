"""Setting up games: ``/af new``, ``join``, ``bot``, ``start``, ``abort``.

Seats (leave, kick, replace, rejoin, away) are in ``bot.cogs.seats``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands

from bot import describe, i18n
from bot.ai import LEVELS
from bot.clock_settings import MAX_HOURS
from bot.cogs.base import AF, TableCog
from bot.cogs.settings import TIMEOUT_CHOICES, language_choices
from bot.components import RematchButton
from bot.game_config import GameSettings, Variants
from bot.game_messages import lobby_text
from bot.games import ServiceError
from bot.replies import locale_of, send_ephemeral
from bot.strings import text
from bot.translator import command_text

if TYPE_CHECKING:
    from bot.client import AlienFrontiersBot

Interaction = discord.Interaction[Any]


def _name(user: discord.abc.User) -> str:
    return user.display_name[:32]


class Lobby(TableCog):
    """The lobby of a channel's game, and ending it early; the Rematch button."""

    items = (RematchButton,)

    @app_commands.command(name="new", description=command_text("cmd.new.description"), extras=AF)
    @app_commands.describe(
        players=command_text("cmd.new.players"),
        long_game=command_text("cmd.new.long_game"),
        helm=command_text("cmd.new.helm"),
        finite_supply=command_text("cmd.new.finite_supply"),
        language=command_text("cmd.new.language"),
        turn_limit=command_text("cmd.new.turn_limit"),
        on_timeout=command_text("cmd.new.on_timeout"),
        watch=command_text("cmd.new.watch"),
    )
    @app_commands.choices(language=language_choices(), on_timeout=TIMEOUT_CHOICES)
    @app_commands.guild_only()
    async def new(
        self,
        interaction: Interaction,
        players: app_commands.Range[int, 2, 4] = 4,
        long_game: bool = False,
        helm: bool = False,
        finite_supply: bool = False,
        language: str | None = None,
        turn_limit: app_commands.Range[float, 0.0, MAX_HOURS] | None = None,
        on_timeout: Literal["ai", "skip", "none"] | None = None,
        watch: bool = False,
    ) -> None:
        """Open a lobby; the game speaks ``language``, else the server's language (English
        when the server's is not one of the catalogues')."""
        assert interaction.channel_id is not None
        clock = await self.service.default_clock(interaction.guild_id)
        if turn_limit == 0:
            clock = clock.changed(enabled=False, action=on_timeout)
        else:
            clock = clock.changed(limit_hours=turn_limit, action=on_timeout)
        variants = Variants(
            long_game=long_game, mind_control_helm=helm, finite_supply=finite_supply
        )
        game = await self.service.create(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            host_id=interaction.user.id,
            host_name=None if watch else _name(interaction.user),
            max_players=players,
            locale=i18n.language_of(language) if language else locale_of(interaction, guild=True),
            config=GameSettings(variants, clock),
        )
        callback = await interaction.response.send_message(
            lobby_text(game), allowed_mentions=discord.AllowedMentions.none()
        )
        if callback.message_id is not None:
            await self.service.set_lobby_message(game, callback.message_id)

    async def rematch(self, interaction: Interaction, game_id: int) -> None:
        """The Rematch button of a finished game: a lobby in the same channel with the same
        options and AI seats; the clicker hosts (seated if they played), the other members
        are pinged to confirm by joining."""
        locale = locale_of(interaction)
        service = self.service
        row = await service.store.game(game_id)
        if row is None or row.status != "over" or row.channel_id != interaction.channel_id:
            await send_ephemeral(interaction, text("panel.gone", locale))
            return
        seats = await service.store.seats(game_id)
        members = [
            u for s in seats if (u := s.user_id if s.user_id is not None else s.former_user_id)
        ]
        user = interaction.user.id
        if user not in members and not interaction.permissions.manage_channels:
            await send_ephemeral(interaction, text("over.rematch_not_player", locale))
            return
        try:
            game = await service.create(
                guild_id=row.guild_id,
                channel_id=row.channel_id,
                host_id=user,
                host_name=_name(interaction.user) if user in members else None,
                max_players=len(seats),
                locale=row.locale,
                config=row.config,
            )
        except ServiceError as e:
            key = "over.rematch_busy" if e.key == "lobby.busy" else e.key
            await send_ephemeral(interaction, text(key, locale, e.params))
            return
        async with game.lock:
            for s in seats:
                if s.ai_level is not None and s.former_user_id is None:
                    await service.add_ai(game, user, s.ai_level)
            others = [u for u in members if u != user]
            opened = text(
                "over.rematch_opened",
                game.row.locale,
                {"name": _name(interaction.user), "mentions": " ".join(f"<@{u}>" for u in others)},
            )
            callback = await interaction.response.send_message(
                f"{lobby_text(game)}\n{opened}",
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(u) for u in others]
                ),
            )
            if callback.message_id is not None:
                await service.set_lobby_message(game, callback.message_id)

    @app_commands.command(name="join", description=command_text("cmd.join.description"), extras=AF)
    @app_commands.guild_only()
    async def join(self, interaction: Interaction) -> None:
        game = await self.service.require(interaction.channel_id)
        async with game.lock:
            await self.service.join(game, interaction.user.id, _name(interaction.user))
            await interaction.response.send_message(
                text(
                    "lobby.joined",
                    game.row.locale,
                    {
                        "name": _name(interaction.user),
                        "seats": len(game.seats),
                        "max": game.row.max_players,
                    },
                ),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            await self.messages.refresh_lobby(game)

    @app_commands.command(name="bot", description=command_text("cmd.bot.description"), extras=AF)
    @app_commands.describe(level=command_text("cmd.bot.level"))
    @app_commands.choices(
        level=[
            app_commands.Choice(name=command_text(f"cmd.bot.level.{level}"), value=level)
            for level in LEVELS
        ]
    )
    @app_commands.guild_only()
    async def add_bot(
        self, interaction: Interaction, level: Literal["easy", "normal", "hard"] = "normal"
    ) -> None:
        game = await self.service.require(interaction.channel_id)
        async with game.lock:
            seat = await self.service.add_ai(game, interaction.user.id, level)
            await interaction.response.send_message(
                text(
                    "lobby.bot_added",
                    game.row.locale,
                    {"name": seat.name, "seats": len(game.seats), "max": game.row.max_players},
                ),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            await self.messages.refresh_lobby(game)

    @app_commands.command(
        name="start", description=command_text("cmd.start.description"), extras=AF
    )
    @app_commands.guild_only()
    async def start(self, interaction: Interaction) -> None:
        game = await self.service.require(interaction.channel_id)
        async with game.lock:
            result = await self.service.start(game, interaction.user.id)
            locale = game.row.locale
            lines = [text("start.header", locale)]
            lines += [
                "• " + describe.event_line(e, locale, game.chat_names)
                for step in result.steps
                for e in step.events
                if e.key in ("dealt", "first_player", "compensation")
            ]
            await interaction.response.send_message(
                "\n".join(lines)[:2000], allowed_mentions=discord.AllowedMentions.none()
            )
            await self.messages.refresh_lobby(game, text("lobby.started", locale))
            await self.announcer.post_turn(game)
        self.schedule_ai(game)

    @app_commands.command(
        name="abort", description=command_text("cmd.abort.description"), extras=AF
    )
    @app_commands.guild_only()
    async def abort(self, interaction: Interaction) -> None:
        game = await self.service.require(interaction.channel_id)
        can_manage = bool(interaction.permissions.manage_channels)
        async with game.lock:
            was_playing = game.row.status == "playing"
            await self.service.abort(game, interaction.user.id, can_manage)
            locale = game.row.locale
            closing = text("abort.done", locale, {"name": _name(interaction.user)})
            await interaction.response.send_message(
                closing, allowed_mentions=discord.AllowedMentions.none()
            )
            await self.messages.show_ended(game, was_playing, closing)


async def setup(bot: AlienFrontiersBot) -> None:
    await bot.add_cog(Lobby.given_parts(bot))


__all__ = ["Lobby", "setup"]

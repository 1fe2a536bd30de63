"""``/af settings``: the language and turn clock of this channel's game, or the server's
defaults for new games.

With no options it shows the current values (privately). The host (or a member with
Manage Channels) changes the game's language and clock, and the channel is told;
members with Manage Server set the language and the clock new games of the server start
with (a game's own ``/af new language:`` still wins).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands

from bot.discord.cogs.base import AF, AfCog
from bot.discord.delivery import DeliveryWorker
from bot.discord.owners import InteractionOwners
from bot.discord.replies import holding, locale_of, send_ephemeral
from bot.discord.shutdown import Gate
from bot.discord.translator import command_text
from bot.play.ai import LEVELS
from bot.play.channel_settings_service import ChannelSettingsService
from bot.play.held_games import HeldGames
from bot.play.seat_changes import check_manager
from bot.store.clock_settings import (
    MAX_HOURS,
    MAX_TIMEOUTS,
    MIN_HOURS,
    TIMEOUT_ACTIONS,
    ClockSettings,
)
from bot.store.errors import ServiceError
from bot.text import i18n
from bot.text.channel_settings_text import server_settings_changed, settings_shown
from bot.text.strings import text

if TYPE_CHECKING:
    from bot.discord.client import AlienFrontiersBot

Interaction = discord.Interaction[Any]
Hours = app_commands.Range[float, MIN_HOURS, MAX_HOURS]

TIMEOUT_CHOICES = [
    app_commands.Choice(name=command_text(f"cmd.timeout.{a}"), value=a) for a in TIMEOUT_ACTIONS
]


def language_choices() -> list[app_commands.Choice[str]]:
    """One choice per catalogue language, named in that language (CLDR, through Babel)."""
    return [
        app_commands.Choice(name=i18n.endonym(language), value=language)
        for language in i18n.languages()
    ]


LEVEL_CHOICES = [
    app_commands.Choice(name=command_text(f"cmd.bot.level.{level}"), value=level)
    for level in LEVELS
]


class ChannelSettings(AfCog):
    """The turn clock's settings."""

    def __init__(
        self,
        bot: AlienFrontiersBot,
        *,
        owners: InteractionOwners,
        gate: Gate,
        af_group: app_commands.Group,
        games: HeldGames,
        channel_settings: ChannelSettingsService,
        deliveries: DeliveryWorker,
    ) -> None:
        super().__init__(bot, owners=owners, gate=gate, af_group=af_group)
        self.games = games
        self.channel_settings = channel_settings  # a server's defaults, a game's settings
        self.deliveries = deliveries

    @app_commands.command(
        name="settings", description=command_text("cmd.settings.description"), extras=AF
    )
    @app_commands.describe(
        scope=command_text("cmd.settings.scope"),
        language=command_text("cmd.settings.language"),
        clock=command_text("cmd.settings.clock"),
        reminder=command_text("cmd.settings.reminder"),
        warning=command_text("cmd.settings.warning"),
        turn_limit=command_text("cmd.settings.turn_limit"),
        on_timeout=command_text("cmd.settings.on_timeout"),
        timeouts=command_text("cmd.settings.timeouts"),
        takeover=command_text("cmd.settings.takeover"),
    )
    @app_commands.choices(
        scope=[
            app_commands.Choice(name=command_text(f"cmd.settings.scope.{s}"), value=s)
            for s in ("game", "server")
        ],
        language=language_choices(),
        on_timeout=TIMEOUT_CHOICES,
        takeover=LEVEL_CHOICES,
    )
    @app_commands.guild_only()
    async def settings(
        self,
        interaction: Interaction,
        scope: Literal["game", "server"] = "game",
        language: str | None = None,
        clock: bool | None = None,
        reminder: Hours | None = None,
        warning: Hours | None = None,
        turn_limit: Hours | None = None,
        on_timeout: Literal["ai", "skip", "none"] | None = None,
        timeouts: app_commands.Range[int, 1, MAX_TIMEOUTS] | None = None,
        takeover: Literal["easy", "normal", "hard"] | None = None,
    ) -> None:
        settings = self.channel_settings
        locale = locale_of(interaction)
        changes: dict[str, object] = {
            "enabled": clock,
            "remind_hours": reminder,
            "warn_hours": warning,
            "limit_hours": turn_limit,
            "action": on_timeout,
            "max_timeouts": timeouts,
            "takeover": takeover,
        }
        changing = language is not None or any(v is not None for v in changes.values())
        game = (
            await self.games.in_channel(interaction.channel_id)
            if interaction.channel_id is not None
            else None
        )
        if not changing:
            defaults = await settings.default_clock(interaction.guild_id)
            chosen = await settings.default_language(interaction.guild_id)
            shown = settings_shown(
                game.clock if game is not None else None,
                defaults,
                chosen,
                locale_of(interaction, guild=True),
                locale,
            )
            await send_ephemeral(interaction, shown)
            return
        if scope == "server":
            if interaction.guild_id is None:
                raise ServiceError("settings.not_in_server")
            if not interaction.permissions.manage_guild:
                raise ServiceError("settings.server_only_admins")
            new: ClockSettings | None = None
            if any(v is not None for v in changes.values()):
                current = await settings.default_clock(interaction.guild_id)
                new = current.changed(**changes)  # checked before anything is written
                await settings.set_guild_clock(interaction.guild_id, new)
            if language is not None:
                await settings.set_guild_language(interaction.guild_id, language)
            await send_ephemeral(interaction, server_settings_changed(new, language, locale))
            return
        if game is None:
            raise ServiceError("settings.no_game")
        async with holding(game.lock, interaction):
            if game.row.status not in ("lobby", "playing"):
                raise ServiceError("settings.game_over")
            can_manage = bool(interaction.permissions.manage_channels)
            check_manager(game, interaction.user.id, can_manage)
            changed = await settings.configure(
                game,
                interaction.user.id,
                can_manage,
                interaction.user.display_name[:32],
                language=language,
                clock=game.clock.changed(**changes),
            )
            if not changed:
                await send_ephemeral(interaction, text("settings.unchanged", locale))
                return
            await self.deliveries.run(game.row.channel_id, interaction)


__all__ = ["LEVEL_CHOICES", "TIMEOUT_CHOICES", "ChannelSettings", "language_choices"]

"""Learning the game: ``/af learn`` (a guided game against an easy AI) and ``/af coach``
(a line on each thing new to a member, in real games).

A guided game is played in a thread the bot opens for it under the channel (or in the
channel itself when no thread can be opened and the channel is free), in the member's
language; ``/af learn`` again points to it, ``restart:true`` ends it and starts anew,
``/af abort`` in it ends it. Its lessons and marked picks are ``bot.play.tutor``'s. The
coach's lines come from ``bot.play.coach_things`` and are added to a coached member's
private answers by the play cog (``bot.play.coach_memory``); here the member turns it on or
off.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, Literal

import discord
from discord import app_commands

from bot.discord.announce import Announcer
from bot.discord.cogs.base import AF, AfCog
from bot.discord.delivery import DeliveryWorker
from bot.discord.failures import CALL_FAULTS
from bot.discord.owners import InteractionOwners
from bot.discord.replies import locale_of, send_ephemeral
from bot.discord.shutdown import Gate
from bot.discord.translator import command_text
from bot.play.coach_memory import Coach
from bot.play.games import ActiveGame
from bot.play.held_games import HeldGames
from bot.play.lobby_service import LobbyService
from bot.store.errors import ServiceError
from bot.text.strings import text

if TYPE_CHECKING:
    from bot.discord.client import AlienFrontiersBot

Interaction = discord.Interaction[Any]
log = logging.getLogger(__name__)
THREAD_ARCHIVE_MINUTES: Final = 10080  # a week: a lesson may be played over days


class Learn(AfCog):
    """``/af learn`` and ``/af coach``."""

    def __init__(
        self,
        bot: AlienFrontiersBot,
        *,
        owners: InteractionOwners,
        gate: Gate,
        af_group: app_commands.Group,
        games: HeldGames,
        lobby: LobbyService,
        coach: Coach,
        deliveries: DeliveryWorker,
        announcer: Announcer,
        schedule_ai: Callable[[ActiveGame], None],
    ) -> None:
        super().__init__(bot, owners=owners, gate=gate, af_group=af_group)
        self.games = games
        self.lobby = lobby
        self.coaching = coach
        self.deliveries = deliveries
        self.announcer = announcer
        self.schedule_ai = schedule_ai

    @app_commands.command(
        name="learn", description=command_text("cmd.learn.description"), extras=AF
    )
    @app_commands.describe(restart=command_text("cmd.learn.restart"))
    @app_commands.guild_only()
    async def learn(self, interaction: Interaction, restart: bool = False) -> None:
        """Start the member's guided game, or point to the one in play (``restart``: end it
        and start anew)."""
        locale = locale_of(interaction)
        user = interaction.user
        mine = self.lobby.tutorials_of(user.id)
        if mine and not restart:
            game = mine[0]
            params = {"channel": f"<#{game.row.channel_id}>", "link": self.link(game)}
            await send_ephemeral(interaction, text("learning.resume", locale, params))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        for game in mine:
            async with game.lock:
                await self.lobby.abort(game, user.id, can_manage=True, by=user.display_name)
                await self.deliveries.run(game.row.channel_id)
        channel_id = await self.place(interaction, locale)
        game = await self.lobby.start_tutorial(
            guild_id=interaction.guild_id,
            channel_id=channel_id,
            user_id=user.id,
            name=user.display_name[:32],
            locale=locale,
        )
        await self.deliveries.run(channel_id)
        self.schedule_ai(game)
        await send_ephemeral(
            interaction, text("learning.started", locale, {"channel": f"<#{channel_id}>"})
        )

    def link(self, game: ActiveGame) -> str:
        return self.announcer.panel_link(game) or f"<#{game.row.channel_id}>"

    async def place(self, interaction: Interaction, locale: str) -> int:
        """Where a guided game is played: a new public thread of the channel (anyone may
        watch, the channel's own game is not disturbed), else the channel if it is free."""
        channel = interaction.channel
        if isinstance(channel, discord.TextChannel):
            name = text("learning.thread", locale, {"name": interaction.user.display_name})
            try:
                thread = await channel.create_thread(
                    name=name[:100],
                    type=discord.ChannelType.public_thread,
                    auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                )
                return thread.id
            except CALL_FAULTS as e:
                log.info("channel %d: no thread for a guided game (%s)", channel.id, e)
        if interaction.channel_id is None or await self.games.in_channel(interaction.channel_id):
            raise ServiceError("learning.no_place")
        return interaction.channel_id

    @app_commands.command(
        name="coach", description=command_text("cmd.coach.description"), extras=AF
    )
    @app_commands.describe(mode=command_text("cmd.coach.mode"))
    @app_commands.choices(
        mode=[
            app_commands.Choice(name=command_text(f"cmd.coach.{m}"), value=m) for m in ("on", "off")
        ]
    )
    async def coach(
        self, interaction: Interaction, mode: Literal["on", "off"] | None = None
    ) -> None:
        """Turn the coach on or off for the member (everywhere), or say whether it is on."""
        locale = locale_of(interaction)
        user = interaction.user.id
        coach = self.coaching
        if mode is not None:
            await coach.set_on(user, mode == "on")
        on = await coach.is_on(user)
        await send_ephemeral(interaction, text("coach.is_on" if on else "coach.is_off", locale))


__all__ = ["Learn"]

"""Playing by command: ``/play move:`` (with autocomplete of one's legal moves), ``/af undo``
and ``/af panel`` (the turn message posted again at the bottom of the channel)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.cogs.base import AF, AfCog
from bot.describe import action_label, shorten
from bot.games import ServiceError
from bot.replies import holding, locale_of, send_ephemeral
from bot.strings import text
from bot.translator import command_text
from engine import legal_actions
from engine.view import view

if TYPE_CHECKING:
    from bot.client import AlienFrontiersBot

Interaction = discord.Interaction[Any]
MAX_CHOICES = 25


def matches(typed: str, *texts: str) -> bool:
    """Every word typed appears in the notation or the label (any case)."""
    haystack = " ".join(texts).lower()
    return all(word in haystack for word in typed.lower().split())


class Play(AfCog):
    """Moves typed as commands; the panel covers the same moves with clicks."""

    @app_commands.command(name="play", description=command_text("cmd.play.description"))
    @app_commands.describe(move=command_text("cmd.play.move"))
    @app_commands.guild_only()
    async def play(self, interaction: Interaction, move: str) -> None:
        await self.bot.moves.play_command(interaction, move)

    @play.autocomplete("move")
    async def move_choices(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The caller's legal moves (25 at most), filtered by what is typed."""
        if interaction.channel_id is None:
            return []
        game = await self.bot.service.in_channel(interaction.channel_id)
        if game is None or game.game is None:
            return []
        seat = game.seat_of(interaction.user.id)
        if seat is None or seat != game.to_act():
            return []
        state = game.state
        locale = locale_of(interaction)
        rate = view(state).market_rate
        out: list[app_commands.Choice[str]] = []
        for action in legal_actions(state):
            notation = str(action)
            label = action_label(action, locale, game.seat_names, rate)
            if matches(current, notation, label):
                name = shorten(f"{notation} — {label}")
                out.append(app_commands.Choice(name=name, value=notation))
                if len(out) == MAX_CHOICES:
                    break
        return out

    @app_commands.command(name="undo", description=command_text("cmd.undo.description"), extras=AF)
    @app_commands.guild_only()
    async def undo(self, interaction: Interaction) -> None:
        await self.bot.moves.undo(interaction)

    @app_commands.command(
        name="panel", description=command_text("cmd.panel.description"), extras=AF
    )
    @app_commands.guild_only()
    async def panel(self, interaction: Interaction) -> None:
        """Re-post the turn message at the bottom of the channel (busy channels); the old
        one then points to the new one. For the game's players and channel managers."""
        service = self.bot.service
        game = await service.require(interaction.channel_id)
        if game.game is None or game.row.status != "playing":
            raise ServiceError("game.not_started")
        if game.seat_of(interaction.user.id) is None and not (
            interaction.permissions.manage_channels
        ):
            raise ServiceError("play.not_seated")
        async with holding(game.lock, interaction):
            link = await self.bot.announcer.repost_turn(game)
        await send_ephemeral(
            interaction, text("panel.reposted", locale_of(interaction), {"link": link})
        )


async def setup(bot: AlienFrontiersBot) -> None:
    await bot.add_cog(Play(bot))

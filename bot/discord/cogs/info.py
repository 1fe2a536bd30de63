"""For players and spectators: ``/af board``, ``status``, ``log`` and ``rules``.

Answers are private (ephemeral) so looking at a game never clutters its channel.
They work for the channel's current game and, once it ended, for the last one.
"""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.discord.cogs.base import AF, AfCog
from bot.discord.owners import InteractionOwners
from bot.discord.pictures import Pictures
from bot.discord.replies import locale_of
from bot.discord.shutdown import Gate
from bot.discord.translator import command_text
from bot.play.games import waiting
from bot.play.held_games import HeldGames
from bot.play.look_service import LookService
from bot.play.readers import Readers
from bot.play.seat_service import SeatService
from bot.store.errors import ServiceError
from bot.store.rows import Delivery
from bot.text import i18n
from bot.text.board_words import alt_text, board_caption, board_text, message_parts
from bot.text.describe import chat_name
from bot.text.log_lines import log_file, log_message
from bot.text.rules_topics import (
    FIRST_LISTED,
    RULE_GROUPS,
    RULE_TOPICS,
    find_topic,
    folded,
    topic_answer,
    topic_name,
)
from bot.text.spoken import plain
from bot.text.status_answer import InPlay, status_answer

if TYPE_CHECKING:
    from bot.discord.client import AlienFrontiersBot

Interaction = discord.Interaction[Any]


class Info(AfCog):
    """Read-only looks at a game; the board drawn by the pictures' renderer the factory gives
    it, as posted."""

    def __init__(
        self,
        bot: AlienFrontiersBot,
        *,
        owners: InteractionOwners,
        gate: Gate,
        af_group: app_commands.Group,
        games: HeldGames,
        look: LookService,
        seats: SeatService,
        readers: Readers,
        pictures: Pictures,
    ) -> None:
        super().__init__(bot, owners=owners, gate=gate, af_group=af_group)
        self.games = games
        self.look = look
        self.seats = seats
        self.readers = readers
        self.pictures = pictures

    async def _said(self, interaction: Interaction, content: str, locale: str) -> str:
        """A private answer, in plain words for a member in screen-reader mode."""
        if await self.readers.is_on(interaction.user.id):
            return plain(content, locale)
        return content

    @app_commands.command(
        name="board", description=command_text("cmd.board.description"), extras=AF
    )
    @app_commands.describe(
        detail=command_text("cmd.board.detail"), text=command_text("cmd.board.text")
    )
    @app_commands.guild_only()
    async def board(
        self, interaction: Interaction, detail: bool = False, text: bool = False
    ) -> None:
        """The live board, with ``detail`` the full one (log, deck, ships in stock...), with
        ``text`` the whole board in words (for a screen reader)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        played = await self.look.played_in(interaction.channel_id)
        row, names, game = played.row, played.names, played.game
        locale = locale_of(interaction)
        you = played.seat_of(interaction.user.id)  # said "(you)"
        if text:
            for part in message_parts(board_text(game.state, names, locale, you)):
                await interaction.followup.send(part, ephemeral=True)
            return
        png = await asyncio.to_thread(self.pictures.renderer, game.state, names, locale, detail)
        kind = "full" if detail else "live"
        about = alt_text(game.state, names, locale, you=you)
        file = discord.File(
            io.BytesIO(png), filename=f"board-{row.id}-{kind}.png", description=about
        )
        caption = board_caption(game.state.round, detail, locale)
        await interaction.followup.send(caption, file=file, ephemeral=True)

    @app_commands.command(
        name="status", description=command_text("cmd.status.description"), extras=AF
    )
    @app_commands.guild_only()
    async def status(self, interaction: Interaction) -> None:
        played = await self.look.played_in(interaction.channel_id)
        row, game = played.row, played.game
        locale = locale_of(interaction)
        in_play: InPlay | None = None
        active = await self.games.by_id(row.id)
        if active is not None and active.game is not None:  # still in play: the clock
            members = [s.user_id for s in active.seats if s.user_id is not None]
            away = await self.seats.away(members)
            in_play = InPlay(active.seats, active.clock, waiting(active), away)
        failed: list[Delivery] = []
        if row.host_id == interaction.user.id or interaction.permissions.manage_channels:
            failed = await self.look.undelivered(row.id)  # what did not reach the channel
        content = status_answer(game.state, played.names, locale, in_play, failed)
        content = await self._said(interaction, content, locale)
        await interaction.response.send_message(content[:2000], ephemeral=True)

    @app_commands.command(name="log", description=command_text("cmd.log.description"), extras=AF)
    @app_commands.describe(count=command_text("cmd.log.count"))
    @app_commands.guild_only()
    async def log(
        self, interaction: Interaction, count: app_commands.Range[int, 1, 50] = 15
    ) -> None:
        played = await self.look.played_in(interaction.channel_id)
        row, names = played.row, played.names
        locale = locale_of(interaction)
        chat = [chat_name(n) for n in names]
        actions = await self.look.game_log(row.id)
        full = log_file(actions, names, locale)
        await interaction.response.send_message(
            await self._said(interaction, log_message(actions, count, chat, locale), locale),
            file=discord.File(io.BytesIO(full.encode()), filename=f"game-{row.id}-log.txt"),
            ephemeral=True,
        )

    @app_commands.command(
        name="rules", description=command_text("cmd.rules.description"), extras=AF
    )
    @app_commands.describe(topic=command_text("cmd.rules.topic"))
    async def rules(self, interaction: Interaction, topic: str) -> None:
        locale = locale_of(interaction)
        key = find_topic(topic, locale)
        if key is None:
            raise ServiceError("rules.unknown", topic=topic)
        content = topic_answer(key, locale)
        await interaction.response.send_message(content[:2000], ephemeral=True)

    @rules.autocomplete("topic")
    async def rules_topics(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        locale = locale_of(interaction)
        typed = folded(current)
        listed = (*RULE_TOPICS, *RULE_GROUPS) if typed else FIRST_LISTED  # every one reachable
        out = [
            app_commands.Choice(name=topic_name(t, locale), value=t)
            for t in listed
            if typed in t
            or any(typed in folded(topic_name(t, language)) for language in i18n.languages())
        ]
        return out[:25]


__all__ = ["Info"]

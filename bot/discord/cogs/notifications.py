"""For members between turns: ``/af notify`` (how to hear it is your turn, and the
screen-reader mode: ``bot.play.readers``) and ``/af mygames`` (every game you sit in, the
ones waiting on you first)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands

from bot.discord.cogs.base import AF, AfCog
from bot.discord.notify import Notifier
from bot.discord.owners import InteractionOwners
from bot.discord.replies import jump_url, locale_of, send_ephemeral
from bot.discord.shutdown import Gate
from bot.discord.translator import command_text
from bot.play.held_games import HeldGames
from bot.play.member_service import MemberService
from bot.play.readers import Readers
from bot.text.notify_text import (
    ListedGame,
    listed_first,
    my_games_text,
    notify_changed,
    notify_shown,
)
from bot.text.spoken import plain
from bot.text.strings import text

if TYPE_CHECKING:
    from bot.discord.client import AlienFrontiersBot

Interaction = discord.Interaction[Any]
MODES = ("channel", "dm", "both", "off")


class Notifications(AfCog):
    """Notification preferences and the list of one's games."""

    def __init__(
        self,
        bot: AlienFrontiersBot,
        *,
        owners: InteractionOwners,
        gate: Gate,
        af_group: app_commands.Group,
        games: HeldGames,
        members: MemberService,
        readers: Readers,
        notifier: Notifier,
    ) -> None:
        super().__init__(bot, owners=owners, gate=gate, af_group=af_group)
        self.games = games
        self.members = members
        self.readers = readers
        self.notifier = notifier

    @app_commands.command(
        name="notify", description=command_text("cmd.notify.description"), extras=AF
    )
    @app_commands.describe(
        mode=command_text("cmd.notify.mode"),
        screen_reader=command_text("cmd.notify.screen_reader"),
    )
    @app_commands.choices(
        mode=[app_commands.Choice(name=command_text(f"cmd.notify.{m}"), value=m) for m in MODES],
        screen_reader=[
            app_commands.Choice(name=command_text(f"cmd.notify.reader_{m}"), value=m)
            for m in ("on", "off")
        ],
    )
    @app_commands.guild_only()
    async def notify(
        self,
        interaction: Interaction,
        mode: Literal["channel", "dm", "both", "off"] | None = None,
        screen_reader: Literal["on", "off"] | None = None,
    ) -> None:
        """Set where turns are told and the screen-reader mode, or (alone) say both."""
        locale = locale_of(interaction)
        notifier = self.notifier
        user = interaction.user.id
        readers = self.readers
        if screen_reader is not None:
            await readers.set_on(user, screen_reader == "on")
        reader_on = await readers.is_on(user)
        if mode is None:
            told: str | None = None
            blocked = False
            if screen_reader is None:
                prefs = await notifier.prefs(user)
                told, blocked = prefs.notify, prefs.dm_blocked
            said = notify_shown(reader_on, told, blocked, locale)
            await send_ephemeral(interaction, self._said(user, said, locale, readers))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.members.set_turn_notice(user, mode, locale)
        reached: bool | None = None
        if mode in ("dm", "both"):
            reached = await notifier.dm(user, text("notify.dm_test", locale))
            if not reached:
                await self.members.dm_hint_given(user)  # told right here instead
        said = notify_changed(
            mode, reached, reader_on if screen_reader is not None else None, locale
        )
        await send_ephemeral(interaction, self._said(user, said, locale, readers))

    @staticmethod
    def _said(user: int, content: str, locale: str, readers: Readers) -> str:
        """The answer, in plain words if the member's screen-reader mode is on (known: it
        was read or set just before)."""
        return plain(content, locale) if readers.known(user) else content

    @app_commands.command(
        name="mygames", description=command_text("cmd.mygames.description"), extras=AF
    )
    @app_commands.guild_only()
    async def mygames(self, interaction: Interaction) -> None:
        locale = locale_of(interaction)
        user = interaction.user.id
        rows = await self.members.games_of(user)
        listed: list[ListedGame] = []
        for row in listed_first(rows, user, interaction.guild_id):
            guild = self.bot.get_guild(row.guild_id) if row.guild_id else None
            message = row.turn_message_id or row.lobby_message_id
            link = jump_url(row.guild_id, row.channel_id, message) if message else ""
            player = ""
            if row.status != "lobby" and row.waiting_on_user != user:
                player = await self.player_to_act(row.id)
            listed.append(ListedGame(row, guild.name if guild is not None else None, link, player))
        await send_ephemeral(interaction, my_games_text(listed, len(rows), user, locale))

    async def player_to_act(self, game_id: int) -> str:
        """The name of the player a game in play waits on ("?" if none, or the game is
        gone)."""
        game = await self.games.by_id(game_id)
        acting = game.to_act() if game is not None else None
        return game.chat_names[acting] if game is not None and acting is not None else "?"


__all__ = ["MODES", "Notifications"]

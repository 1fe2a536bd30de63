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
from bot.discord.translator import command_text
from bot.play.jobs import NotifyJob
from bot.play.readers import Readers
from bot.store.rows import GameRow
from bot.text.durations import when
from bot.text.spoken import plain
from bot.text.strings import text

if TYPE_CHECKING:
    from bot.discord.client import AlienFrontiersBot

Interaction = discord.Interaction[Any]
MODES = ("channel", "dm", "both", "off")
MAX_LISTED = 15


class Notifications(AfCog):
    """Notification preferences and the list of one's games."""

    def __init__(
        self,
        bot: AlienFrontiersBot,
        *,
        owners: InteractionOwners,
        service: NotifyJob,
        readers: Readers,
        notifier: Notifier,
    ) -> None:
        super().__init__(bot, owners=owners)
        self.service = service
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
        reader = text(f"notify.reader.{'on' if await readers.is_on(user) else 'off'}", locale)
        if mode is None:
            lines = [reader]
            if screen_reader is None:
                prefs = await notifier.prefs(user)
                told = [text(f"notify.mode.{prefs.notify}", locale)]
                told += [text("notify.blocked", locale)] * prefs.dm_blocked
                lines.insert(0, " ".join(told))
            await send_ephemeral(interaction, self._said(user, "\n".join(lines), locale, readers))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.service.set_turn_notice(user, mode, locale)
        lines = [text(f"notify.mode.{mode}", locale)]
        if mode in ("dm", "both"):
            if await notifier.dm(user, text("notify.dm_test", locale)):
                lines.append(text("notify.dm_ok", locale))
            else:
                await self.service.dm_hint_given(user)  # told right here instead
                lines.append(text("notify.dm_hint", locale))
        if screen_reader is not None:
            lines.append(reader)
        await send_ephemeral(interaction, self._said(user, "\n".join(lines), locale, readers))

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
        rows = await self.service.games_of(user)
        if not rows:
            await send_ephemeral(interaction, text("mygames.none", locale))
            return

        def order(row: GameRow) -> tuple[int, int, float]:
            mine = row.waiting_on_user == user
            here = row.guild_id == interaction.guild_id
            return (0 if mine else 1, 0 if here else 1, row.clock_since or row.updated_at)

        lines = [text("mygames.header", locale, {"count": len(rows)})]
        for row in sorted(rows, key=order)[:MAX_LISTED]:
            lines.append(await self.line(row, user, locale))
        if len(rows) > MAX_LISTED:
            lines.append(text("catchup.more", locale, {"count": len(rows) - MAX_LISTED}))
        await send_ephemeral(interaction, "\n".join(lines))

    async def line(self, row: GameRow, user: int, locale: str) -> str:
        """One game: where, whose turn and since when, and a link to its turn message."""
        guild = self.bot.get_guild(row.guild_id) if row.guild_id else None
        where = f"<#{row.channel_id}>" + (f" ({guild.name})" if guild is not None else "")
        since = when(row.created_at if row.status == "lobby" else row.clock_since or row.updated_at)
        message = row.turn_message_id or row.lobby_message_id
        link = jump_url(row.guild_id, row.channel_id, message) if message else ""
        if row.status == "lobby":
            key = "mygames.lobby"
            name = ""
        elif row.waiting_on_user == user:
            key, name = "mygames.yours", ""
        else:
            game = await self.service.by_id(row.id)
            acting = game.to_act() if game is not None else None
            name = game.chat_names[acting] if game is not None and acting is not None else "?"
            key = "mygames.theirs"
        return text(key, locale, {"where": where, "since": since, "link": link, "player": name})


__all__ = ["MODES", "Notifications"]

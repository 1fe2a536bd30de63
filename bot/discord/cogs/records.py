"""Finished games kept: ``/af stats``, ``/af rating``, ``/af leaderboard``, ``/af season
start`` and ``/af replay``.

Every finished game is kept (its seats, scores part by part, winners and action log;
``results`` rows are written in the same transaction as the last move). Stats count a
server's games; ratings and the leaderboard are per season; a new season is announced
through the outbox, with the commit that starts it, so a failed post is posted again, never
a reason to start another season; the replay animates one game, turn by turn. What they
show is read by the game service (``bot.play.records_service``).
"""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.discord.cogs.base import AF, AfCog
from bot.discord.delivery import DeliveryWorker
from bot.discord.owners import InteractionOwners
from bot.discord.pictures import Pictures
from bot.discord.replies import locale_of, send_ephemeral
from bot.discord.shutdown import Gate
from bot.discord.translator import command_text
from bot.play.records_service import RecordsService
from bot.render.charts import rating_chart
from bot.render.replay import make_replay
from bot.store.ratings import PROVISIONAL_GAMES
from bot.store.rows import GameRow
from bot.text import rating_text as rating_text_
from bot.text.autocomplete_words import replay_choice, season_choice
from bot.text.board_words import replay_caption, replay_text
from bot.text.chart_words import rating_chart_text
from bot.text.describe import chat_name
from bot.text.record_text import record_text
from bot.text.strings import text

if TYPE_CHECKING:
    from bot.discord.client import AlienFrontiersBot

Interaction = discord.Interaction[Any]


class Records(AfCog):
    """Stats, leaderboard and replays of finished games (a replay drawn by the renderer of
    the pictures the factory gives it, the turn messages' own)."""

    def __init__(
        self,
        bot: AlienFrontiersBot,
        *,
        owners: InteractionOwners,
        gate: Gate,
        af_group: app_commands.Group,
        records: RecordsService,
        pictures: Pictures,
        deliveries: DeliveryWorker,
    ) -> None:
        super().__init__(bot, owners=owners, gate=gate, af_group=af_group)
        self.records = records
        self.pictures = pictures
        self.deliveries = deliveries

    @app_commands.command(
        name="stats", description=command_text("cmd.stats.description"), extras=AF
    )
    @app_commands.describe(player=command_text("cmd.stats.player"))
    @app_commands.guild_only()
    async def stats(self, interaction: Interaction, player: discord.User | None = None) -> None:
        locale = locale_of(interaction)
        who = player or interaction.user
        results = await self.records.record_of(who.id, interaction.guild_id)
        content = record_text(who.display_name, results, locale)
        if not results:
            await send_ephemeral(interaction, content)
            return
        chart = await self.rating_chart(interaction.guild_id, who, locale)
        if chart is None:
            await send_ephemeral(interaction, content)
            return
        await interaction.response.send_message(content[:2000], file=chart, ephemeral=True)

    async def rating_chart(
        self, guild_id: int | None, who: discord.abc.User, locale: str
    ) -> discord.File | None:
        """The chart of a member's rating over their games of the current season."""
        points = await self.records.rating_curve(guild_id, who.id)
        if not points:
            return None
        name = who.display_name
        until = PROVISIONAL_GAMES
        data = await asyncio.to_thread(rating_chart, points, name, locale, until)
        return discord.File(
            io.BytesIO(data),
            filename="rating.png",
            description=rating_chart_text(points, name, locale, until)[:1024],
        )

    @app_commands.command(
        name="rating", description=command_text("cmd.rating.description"), extras=AF
    )
    @app_commands.describe(
        player=command_text("cmd.rating.player"), season=command_text("cmd.rating.season")
    )
    @app_commands.guild_only()
    async def rating(
        self,
        interaction: Interaction,
        player: discord.User | None = None,
        season: int | None = None,
    ) -> None:
        """A member's rating in a season (the current one by default): the number, the rank,
        the latest rated moments; where they have none, their last season's."""
        locale = locale_of(interaction)
        who = player or interaction.user
        name = chat_name(who.display_name)
        rating = await self.records.member_rating(
            interaction.guild_id, who.id, season, rating_text_.RECENT
        )
        said = rating_text_.member_rating_text(
            name,
            who.id,
            rating.season,
            rating.table,
            rating.recent,
            rating.earlier,
            rating.earlier_table,
            locale,
        )
        await send_ephemeral(interaction, said)

    @app_commands.command(
        name="leaderboard", description=command_text("cmd.leaderboard.description"), extras=AF
    )
    @app_commands.describe(season=command_text("cmd.leaderboard.season"))
    @app_commands.guild_only()
    async def leaderboard(self, interaction: Interaction, season: int | None = None) -> None:
        """A season's table by rating (the current season's by default), with wins."""
        locale = locale_of(interaction)
        standings = await self.records.season_standings(interaction.guild_id, season)
        said = (
            rating_text_.leaderboard_answer(None, {}, {}, locale)
            if standings is None
            else rating_text_.leaderboard_answer(
                standings.season, standings.table, standings.wins, locale
            )
        )
        await send_ephemeral(interaction, said)

    @leaderboard.autocomplete("season")
    async def leaderboard_seasons(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await self.season_choices(interaction, current)

    @rating.autocomplete("season")
    async def rating_seasons(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await self.season_choices(interaction, current)

    async def season_choices(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        """The server's seasons, the current one first."""
        locale = locale_of(interaction)
        out = []
        for s in await self.records.seasons_of(interaction.guild_id):
            name = season_choice(s, locale)
            if current.strip().casefold() in name.casefold():
                out.append(app_commands.Choice(name=name[:100], value=s.number))
        return out[:25]

    season = app_commands.Group(
        name="season", description=command_text("cmd.season.description"), extras=AF
    )

    @season.command(name="start", description=command_text("cmd.season.start.description"))
    @app_commands.describe(name=command_text("cmd.season.start.name"))
    async def season_start(
        self, interaction: Interaction, name: app_commands.Range[str, 1, 40]
    ) -> None:
        """End the server's season (its table is kept) and start the next one: Manage Server.
        Said with the season's start (the outbox): it comes even if Discord fails now, and
        the admin is never invited to start a second season."""
        channel = interaction.channel_id or 0
        await self.records.start_season(
            interaction.guild_id,
            channel,
            name,
            locale_of(interaction, guild=True),
            can_manage=interaction.permissions.manage_guild,
        )
        await self.deliveries.run(channel, interaction)

    @app_commands.command(
        name="replay", description=command_text("cmd.replay.description"), extras=AF
    )
    @app_commands.describe(game=command_text("cmd.replay.game"))
    @app_commands.guild_only()
    async def replay(self, interaction: Interaction, game: int | None = None) -> None:
        row = await self.records.finished_game(interaction.guild_id, interaction.channel_id, game)
        try:
            await interaction.response.defer(thinking=True)
            public = True
        except discord.InteractionResponded:  # deferred privately already: into the channel
            public = False
        played = await self.records.moves_played(row.id)
        made = await asyncio.to_thread(
            make_replay,
            row.config.engine(len(played.names)),
            played.notations,
            played.names,
            row.locale,
            self.pictures.renderer,
        )
        caption = replay_caption(row.id, made.frames, made.seconds, row.locale)
        about = replay_text(row.id, made.frames, made.final, played.names, row.locale)
        file = discord.File(
            io.BytesIO(made.data), filename=f"alien-frontiers-game-{row.id}.gif", description=about
        )
        if public:
            await interaction.followup.send(caption, file=file)
            return
        channel = interaction.channel
        assert isinstance(channel, discord.abc.Messageable)
        await channel.send(caption, file=file)
        await send_ephemeral(interaction, text("done", locale_of(interaction)))

    @replay.autocomplete("game")
    async def replay_games(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        """Finished games of this channel, then of the server, newest first."""
        games = await self.records.finished_games_here(interaction.guild_id, interaction.channel_id)
        locale = locale_of(interaction)
        out = []
        for g in games:
            name = replay_choice(g, self.channel_name(g), locale)
            if current.strip() in name:
                out.append(app_commands.Choice(name=name[:100], value=g.id))
        return out[:25]

    def channel_name(self, row: GameRow) -> str:
        channel = self.bot.get_channel(row.channel_id)
        return f"#{getattr(channel, 'name', row.channel_id)}"


__all__ = ["Records"]

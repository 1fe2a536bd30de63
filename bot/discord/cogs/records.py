"""Finished games kept: ``/af stats``, ``/af rating``, ``/af leaderboard``, ``/af season
start`` and ``/af replay``.

Every finished game is kept (its seats, scores part by part, winners and action log;
``results`` rows are written in the same transaction as the last move). Stats count a
server's games; ratings and the leaderboard are per season (``bot.store.rating_store``);
a new season is announced through the outbox, with the commit that starts it, so a
failed post is posted again, never a reason to start another season; the replay
animates one game, turn by turn.
"""

from __future__ import annotations

import asyncio
import io
from collections import Counter
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.discord.announce import Announcer
from bot.discord.cogs.base import AF, AfCog
from bot.discord.delivery import Deliveries
from bot.discord.replies import locale_of, send_ephemeral
from bot.discord.translator import command_text
from bot.play import outbox
from bot.render.charts import rating_chart
from bot.render.replay import make_replay
from bot.store.errors import ServiceError
from bot.store.rating_store import Season
from bot.store.ratings import PROVISIONAL_GAMES
from bot.store.rows import Delivery, GameRow, ResultRow
from bot.store.storage import Storage
from bot.text import rating_text as rating_text_
from bot.text.board_words import replay_text
from bot.text.chart_words import rating_chart_text
from bot.text.describe import chat_name
from bot.text.durations import day_text, decimal_text
from bot.text.strings import text, thing_name

if TYPE_CHECKING:
    from bot.client import AlienFrontiersBot

Interaction = discord.Interaction[Any]


def record_text(name: str, results: list[ResultRow], locale: str) -> str:
    """A member's record over some finished games, in one short paragraph."""
    games = len(results)
    wins = sum(1 for r in results if r.winner)
    firsts = Counter(r.first_territory for r in results if r.first_territory)
    parts = [
        text("stats.games", locale, {"count": games}),
        text("stats.wins", locale, {"count": wins, "rate": round(100 * wins / games)}),
        text(
            "stats.average",
            locale,
            {"vp": decimal_text(sum(r.vp for r in results) / games, locale)},
        ),
        text("stats.best", locale, {"vp": max(r.vp for r in results)}),
    ]
    if firsts:
        favourite = thing_name(firsts.most_common(1)[0][0], locale)
        parts.append(text("stats.first", locale, {"territory": favourite}))
    return text("stats.header", locale, {"name": chat_name(name)}) + " " + " · ".join(parts)


class Records(AfCog):
    """Stats, leaderboard and replays of finished games (a replay drawn by the announcer's
    renderer)."""

    def __init__(
        self,
        bot: AlienFrontiersBot,
        *,
        store: Storage,
        announcer: Announcer,
        deliveries: Deliveries,
    ) -> None:
        super().__init__(bot)
        self.store = store
        self.announcer = announcer
        self.deliveries = deliveries

    @app_commands.command(
        name="stats", description=command_text("cmd.stats.description"), extras=AF
    )
    @app_commands.describe(player=command_text("cmd.stats.player"))
    @app_commands.guild_only()
    async def stats(self, interaction: Interaction, player: discord.User | None = None) -> None:
        locale = locale_of(interaction)
        who = player or interaction.user
        rows = await self.store.results_of(user_id=who.id, guild_id=interaction.guild_id)
        if not rows:
            await send_ephemeral(
                interaction, text("stats.none", locale, {"name": chat_name(who.display_name)})
            )
            return
        results = [r for _, r in rows]
        content = record_text(who.display_name, results, locale)
        chart = await self.rating_chart(interaction.guild_id, who, locale)
        if chart is None:
            await send_ephemeral(interaction, content)
            return
        await interaction.response.send_message(content[:2000], file=chart, ephemeral=True)

    async def rating_chart(
        self, guild_id: int | None, who: discord.abc.User, locale: str
    ) -> discord.File | None:
        """The chart of a member's rating over their games of the current season."""
        season = await self.current_season(guild_id)
        if season is None:
            return None
        history = await self.store.rating_history(season.id, who.id)
        if not history:
            return None
        points = [h.change.after.shown for h in history]
        name = who.display_name
        until = PROVISIONAL_GAMES
        data = await asyncio.to_thread(rating_chart, points, name, locale, until)
        return discord.File(
            io.BytesIO(data),
            filename="rating.png",
            description=rating_chart_text(points, name, locale, until)[:1024],
        )

    async def current_season(self, guild_id: int | None) -> Season | None:
        if guild_id is None:
            return None
        seasons = await self.store.seasons(guild_id)
        return seasons[0] if seasons and seasons[0].ended_at is None else None

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
        seasons = await self.store.seasons(interaction.guild_id or 0)
        chosen = self.season_numbered(seasons, season)
        skills = await self.store.season_table(chosen.id) if chosen is not None else {}
        if chosen is None or who.id not in skills:
            await send_ephemeral(
                interaction, await self.no_rating(seasons, chosen, who.id, name, locale)
            )
            return
        history = await self.store.rating_history(chosen.id, who.id)
        recent = [
            (h, len(await self.store.results(h.game_id)) or h.change.place)
            for h in history[-rating_text_.RECENT :]
        ]
        await send_ephemeral(
            interaction,
            rating_text_.rating_text(name, chosen, skills[who.id], skills, who.id, recent, locale),
        )

    def season_numbered(self, seasons: list[Season], number: int | None) -> Season | None:
        """The season numbered ``number`` (a refusal if the server has none), or the
        current one (None before the server's first)."""
        if number is None:
            return seasons[0] if seasons else None
        found = [s for s in seasons if s.number == number]
        if not found:
            raise ServiceError("season.unknown", season=number)
        return found[0]

    async def no_rating(
        self, seasons: list[Season], chosen: Season | None, user_id: int, name: str, locale: str
    ) -> str:
        """Why a member has no rating in a season: none yet in the server, or none yet in
        this season, with their rating in the last season they played."""
        if chosen is None:
            return text("rating.none", locale, {"name": name})
        for earlier in seasons:
            if earlier.number >= chosen.number:
                continue
            skills = await self.store.season_table(earlier.id)
            if user_id in skills:
                return rating_text_.earlier_text(name, chosen, earlier, skills, user_id, locale)
        shown = rating_text_.season_name(chosen, locale)
        return text("rating.none_in_season", locale, {"name": name, "season": shown})

    @app_commands.command(
        name="leaderboard", description=command_text("cmd.leaderboard.description"), extras=AF
    )
    @app_commands.describe(season=command_text("cmd.leaderboard.season"))
    @app_commands.guild_only()
    async def leaderboard(self, interaction: Interaction, season: int | None = None) -> None:
        """A season's table by rating (the current season's by default), with wins."""
        locale = locale_of(interaction)
        seasons = await self.store.seasons(interaction.guild_id or 0)
        chosen = self.season_numbered(seasons, season)
        if chosen is None:
            await send_ephemeral(interaction, text("leaderboard.none", locale))
            return
        skills = await self.store.season_table(chosen.id)
        wins = await self.store.season_wins(chosen.id)
        await send_ephemeral(
            interaction, rating_text_.leaderboard_text(chosen, skills, wins, locale)
        )

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
        for s in await self.store.seasons(interaction.guild_id or 0):
            name = rating_text_.season_name(s, locale)
            if s.ended_at is None:
                name = text("season.current", locale, {"season": name})
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
        """End the server's season (its table is kept) and start the next one: Manage Server."""
        if interaction.guild_id is None:
            raise ServiceError("settings.not_in_server")
        if not interaction.permissions.manage_guild:
            raise ServiceError("season.admins_only")
        locale = locale_of(interaction, guild=True)
        guild, channel = interaction.guild_id, interaction.channel_id or 0
        now = self.bot.service.clock()

        def announced(before: Season | None, new: Season) -> list[Delivery]:
            # Said with the season's start (the outbox): it comes even if Discord fails now,
            # and the admin is never invited to start a second season.
            params: dict[str, object] = {"season": rating_text_.season_name(new, locale)}
            key = "season.started_first"
            if before is not None:
                key = "season.started"
                params.update(
                    previous=rating_text_.season_name(before, locale), number=before.number
                )
            return [
                outbox.announcement(guild, channel, now, key, params, locale=locale, reply=True)
            ]

        await self.store.start_season(guild, " ".join(name.split()), now, deliveries=announced)
        await self.deliveries.run(channel, interaction)

    @app_commands.command(
        name="replay", description=command_text("cmd.replay.description"), extras=AF
    )
    @app_commands.describe(game=command_text("cmd.replay.game"))
    @app_commands.guild_only()
    async def replay(self, interaction: Interaction, game: int | None = None) -> None:
        store = self.store
        row = await self.finished(interaction, game)
        await interaction.response.defer(thinking=True)
        seats = await store.seats(row.id)
        notations = [a.notation for a in await store.actions(row.id)]
        made = await asyncio.to_thread(
            make_replay,
            row.config.engine(len(seats)),
            notations,
            [s.name for s in seats],
            row.locale,
            self.announcer.renderer,
        )
        caption = text(
            "replay.caption",
            row.locale,
            {"game": row.id, "frames": made.frames, "seconds": round(made.seconds)},
        )
        about = replay_text(row.id, made.frames, made.final, [s.name for s in seats], row.locale)
        file = discord.File(
            io.BytesIO(made.data), filename=f"alien-frontiers-game-{row.id}.gif", description=about
        )
        await interaction.followup.send(caption, file=file)

    async def finished(self, interaction: Interaction, game_id: int | None) -> GameRow:
        """The finished game asked for (of this server), or this channel's newest."""
        store = self.store
        if game_id is None:
            games = await store.finished_games(interaction.guild_id, interaction.channel_id)
            if not games:
                raise ServiceError("replay.none")
            return games[0]
        row = await store.game(game_id) if 0 < game_id < 2**63 else None
        if row is None or row.guild_id != interaction.guild_id or row.status != "over":
            raise ServiceError("replay.unknown", game=game_id)
        return row

    @replay.autocomplete("game")
    async def replay_games(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        """Finished games of this channel, then of the server, newest first."""
        store = self.store
        games = await store.finished_games(interaction.guild_id, None)
        here = [g for g in games if g.channel_id == interaction.channel_id]
        there = [g for g in games if g.channel_id != interaction.channel_id]
        locale = locale_of(interaction)
        out = []
        for g in [*here, *there]:
            name = text(
                "replay.choice",
                locale,
                {
                    "game": g.id,
                    "channel": self.channel_name(g),
                    "date": day_text(g.updated_at, locale, year=True),
                },
            )
            if current.strip() in name:
                out.append(app_commands.Choice(name=name[:100], value=g.id))
        return out[:25]

    def channel_name(self, row: GameRow) -> str:
        channel = self.bot.get_channel(row.channel_id)
        return f"#{getattr(channel, 'name', row.channel_id)}"


async def setup(bot: AlienFrontiersBot) -> None:
    await bot.add_cog(
        Records(bot, store=bot.service.store, announcer=bot.announcer, deliveries=bot.deliveries)
    )


__all__ = ["Records", "record_text", "setup"]

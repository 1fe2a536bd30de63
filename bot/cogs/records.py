"""Finished games kept: ``/af stats``, ``/af leaderboard`` and ``/af replay``.

Every finished game is kept (its seats, scores part by part, winners and action log;
``results`` rows are written in the same transaction as the last move). Stats and the
leaderboard count a server's games; the replay animates one game, turn by turn.
"""

from __future__ import annotations

import asyncio
import io
from collections import Counter, defaultdict
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.announce import Announcer
from bot.board_text import replay_text
from bot.cogs.base import AF, AfCog
from bot.describe import chat_name
from bot.durations import day_text, decimal_text
from bot.games import ServiceError
from bot.replay import make_replay
from bot.replies import locale_of, send_ephemeral
from bot.storage import GameRow, ResultRow, Storage
from bot.strings import text, thing_name
from bot.translator import command_text

if TYPE_CHECKING:
    from bot.client import AlienFrontiersBot

Interaction = discord.Interaction[Any]
LEADERS = 10


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

    def __init__(self, bot: AlienFrontiersBot, *, store: Storage, announcer: Announcer) -> None:
        super().__init__(bot)
        self.store = store
        self.announcer = announcer

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
        await send_ephemeral(interaction, record_text(who.display_name, results, locale))

    @app_commands.command(
        name="leaderboard", description=command_text("cmd.leaderboard.description"), extras=AF
    )
    @app_commands.guild_only()
    async def leaderboard(self, interaction: Interaction) -> None:
        locale = locale_of(interaction)
        rows = await self.store.results_of(guild_id=interaction.guild_id)
        by_member: dict[int, list[ResultRow]] = defaultdict(list)
        for _game, r in rows:
            if r.user_id is not None:  # members' seats (also when an AI finished them)
                by_member[r.user_id].append(r)
        if not by_member:
            await send_ephemeral(interaction, text("leaderboard.none", locale))
            return

        def rank(item: tuple[int, list[ResultRow]]) -> tuple[int, float, float]:
            results = item[1]
            wins = sum(1 for r in results if r.winner)
            return (-wins, -wins / len(results), -sum(r.vp for r in results) / len(results))

        lines = [text("leaderboard.header", locale)]
        for place, (user, results) in enumerate(sorted(by_member.items(), key=rank)[:LEADERS]):
            wins = sum(1 for r in results if r.winner)
            lines.append(
                text(
                    "leaderboard.line",
                    locale,
                    {
                        "place": place + 1,
                        "name": f"<@{user}>",  # shown as their current name, no ping
                        "wins": wins,
                        "games": len(results),
                        "vp": decimal_text(sum(r.vp for r in results) / len(results), locale),
                    },
                )
            )
        await send_ephemeral(interaction, "\n".join(lines))

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
    await bot.add_cog(Records(bot, store=bot.service.store, announcer=bot.announcer))


__all__ = ["Records", "record_text", "setup"]

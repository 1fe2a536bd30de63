"""Setting up games: ``/af new``, ``join``, ``bot``, ``start``, ``abort``.

Seats (leave, kick, replace, away; taking a seat back is `/af join`) are in
``bot.discord.cogs.seats``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands

from bot.discord.cogs.base import AF, TableCog, orphan_choices
from bot.discord.cogs.channel_settings import TIMEOUT_CHOICES, language_choices
from bot.discord.components import RematchButton
from bot.discord.replies import holding, locale_of, send_ephemeral
from bot.discord.translator import command_text
from bot.play.ai import LEVELS
from bot.play.channel_settings_service import ChannelSettingsService
from bot.play.held_games import HeldGames
from bot.play.lobby_service import LobbyService
from bot.play.orphan_service import OrphanService
from bot.play.records_service import RecordsService
from bot.play.seat_service import SeatService
from bot.store.clock_settings import MAX_HOURS
from bot.store.errors import ServiceError
from bot.store.game_config import GameSettings, Variants
from bot.text import i18n
from bot.text.strings import text

if TYPE_CHECKING:
    from collections.abc import Callable

    from bot.discord.client import AlienFrontiersBot
    from bot.discord.delivery import DeliveryWorker
    from bot.discord.owners import InteractionOwners
    from bot.discord.shutdown import Gate
    from bot.play.games import ActiveGame

Interaction = discord.Interaction[Any]


def _name(user: discord.abc.User) -> str:
    return user.display_name[:32]


class Lobby(TableCog):
    """The lobby of a channel's game, and ending it early; the Rematch button."""

    items = (RematchButton,)

    def __init__(
        self,
        bot: AlienFrontiersBot,
        *,
        owners: InteractionOwners,
        gate: Gate,
        af_group: app_commands.Group,
        games: HeldGames,
        lobby: LobbyService,
        seats: SeatService,
        channel_settings: ChannelSettingsService,
        orphans: OrphanService,
        records: RecordsService,
        deliveries: DeliveryWorker,
        schedule_ai: Callable[[ActiveGame], None],
    ) -> None:
        super().__init__(
            bot,
            owners=owners,
            gate=gate,
            af_group=af_group,
            games=games,
            deliveries=deliveries,
            schedule_ai=schedule_ai,
        )
        self.lobby = lobby
        self.seats = seats
        self.channel_settings = channel_settings
        self.orphans = orphans
        self.records = records

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
        """Open a lobby; the game speaks ``language``, else the one the server's admins
        chose (``/af settings scope:server``), else the server's language in Discord
        (English when the server's is not one of the catalogues')."""
        assert interaction.channel_id is not None
        clock = await self.channel_settings.default_clock(interaction.guild_id)
        if language is None:
            language = await self.channel_settings.default_language(interaction.guild_id)
        if turn_limit == 0:
            clock = clock.changed(enabled=False, action=on_timeout)
        else:
            clock = clock.changed(limit_hours=turn_limit, action=on_timeout)
        variants = Variants(
            long_game=long_game, mind_control_helm=helm, finite_supply=finite_supply
        )
        game = await self.lobby.create(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            host_id=interaction.user.id,
            host_name=None if watch else _name(interaction.user),
            max_players=players,
            locale=i18n.language_of(language) if language else locale_of(interaction, guild=True),
            config=GameSettings(variants, clock),
        )
        await self.deliveries.run(game.row.channel_id, interaction)  # the lobby message

    async def rematch(self, interaction: Interaction, game_id: int) -> None:
        """The Rematch button of a finished game: a lobby in the same channel with the same
        options and AI seats; the clicker hosts (seated if they played), the other members
        are pinged to confirm by joining."""
        locale = locale_of(interaction)
        rematch = await self.records.rematch_of(game_id, interaction.channel_id)
        if rematch is None:
            await send_ephemeral(interaction, text("panel.gone", locale))
            return
        row, seats, members = rematch.row, rematch.seats, rematch.members
        user = interaction.user.id
        if user not in members and not interaction.permissions.manage_channels:
            await send_ephemeral(interaction, text("over.rematch_not_player", locale))
            return
        try:
            game = await self.lobby.create(
                guild_id=row.guild_id,
                channel_id=row.channel_id,
                host_id=user,
                host_name=_name(interaction.user) if user in members else None,
                max_players=len(seats),
                locale=row.locale,
                config=row.config,
                invited=[u for u in members if u != user],
                host_shown=_name(interaction.user),
            )
        except ServiceError as e:
            key = "over.rematch_busy" if e.key == "lobby.busy" else e.key
            await send_ephemeral(interaction, text(key, locale, e.params))
            return
        async with game.lock:
            for s in seats:
                if s.ai_level is not None and s.former_user_id is None:
                    await self.lobby.add_ai(game, user, s.ai_level, announce=False)
            await self.deliveries.run(game.row.channel_id, interaction)

    @app_commands.command(name="join", description=command_text("cmd.join.description"), extras=AF)
    @app_commands.guild_only()
    async def join(self, interaction: Interaction) -> None:
        """Take a seat in the lobby; take the seat the host offered (``/af replace``); in
        a game in play, take back one's seat from the AI that plays it (from the end of its
        current turn)."""
        game = await self.games.require(interaction.channel_id)
        async with holding(game.lock, interaction):
            user = interaction.user.id
            if any(s.offered_to == user for s in game.seats) and game.seat_of(user) is None:
                await self.seats.take_offer(game, user, _name(interaction.user))
            elif game.row.status == "lobby":
                await self.lobby.join(game, user, _name(interaction.user))
            elif any(s.former_user_id == user for s in game.seats):
                await self.seats.rejoin(game, user, _name(interaction.user))
            elif game.seat_of(user) is not None:
                raise ServiceError("lobby.already_seated")
            else:
                raise ServiceError("lobby.already_started")
            await self.deliveries.run(game.row.channel_id, interaction)
        self.schedule_ai(game)

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
        game = await self.games.require(interaction.channel_id)
        async with holding(game.lock, interaction):
            await self.lobby.add_ai(game, interaction.user.id, level)
            await self.deliveries.run(game.row.channel_id, interaction)

    @app_commands.command(
        name="start", description=command_text("cmd.start.description"), extras=AF
    )
    @app_commands.guild_only()
    async def start(self, interaction: Interaction) -> None:
        game = await self.games.require(interaction.channel_id)
        async with holding(game.lock, interaction):
            await self.lobby.start(game, interaction.user.id)
            # The start (the command's answer), the lobby closed, the first turn's message.
            await self.deliveries.run(game.row.channel_id, interaction)
        self.schedule_ai(game)

    @app_commands.command(
        name="abort", description=command_text("cmd.abort.description"), extras=AF
    )
    @app_commands.describe(game=command_text("cmd.abort.game"))
    @app_commands.guild_only()
    async def abort(self, interaction: Interaction, game: int | None = None) -> None:
        if game is not None:  # an orphaned game (its channel gone): ended, unrated
            can_manage = bool(interaction.permissions.manage_guild)
            ended = await self.orphans.end_orphaned(game, interaction.user.id, can_manage)
            said = text("orphan.ended", locale_of(interaction), {"game": ended.id})
            await send_ephemeral(interaction, said)
            return
        await self._abort(interaction)

    @abort.autocomplete("game")
    async def orphaned_games(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await orphan_choices(self.orphans, interaction, current)

    async def _abort(self, interaction: Interaction) -> None:
        game = await self.games.require(interaction.channel_id)
        can_manage = bool(interaction.permissions.manage_channels)
        async with holding(game.lock, interaction):
            await self.lobby.abort(game, interaction.user.id, can_manage, _name(interaction.user))
            await self.deliveries.run(game.row.channel_id, interaction)
        self.schedule_ai(game)  # a host who left: the AI may play their seat now


__all__ = ["Lobby"]

"""Seats: ``/af leave`` (asks first), ``kick``, ``replace`` and ``away``.

A seat whose member leaves, is removed or times out too often goes to the AI; the
member can take it back with ``/af join``. The host (or a member with Manage
Channels) can remove a player or hand a seat to someone else. ``/af away`` pauses a
member's turn clock in all their games. Every refusal is a private message.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any, ClassVar, Self

import discord
from discord import app_commands

from bot.discord.cogs.base import AF, TableCog
from bot.discord.components import PanelView, component_check
from bot.discord.failures import CALL_FAULTS
from bot.discord.owners import InteractionOwners
from bot.discord.refusals import refusal
from bot.discord.replies import holding, locale_of, send_ephemeral
from bot.discord.shutdown import Gate
from bot.discord.translator import command_text
from bot.play.games import ActiveGame
from bot.play.held_games import HeldGames
from bot.play.lobby_service import LobbyService
from bot.play.seat_changes import ends_without, leaving_counts
from bot.play.seat_service import SeatService
from bot.store.clock_settings import MAX_AWAY_DAYS
from bot.store.errors import ServiceError
from bot.text.autocomplete_words import seat_choice
from bot.text.describe import shorten
from bot.text.seat_text import away_text, leave_question
from bot.text.strings import text

if TYPE_CHECKING:
    from collections.abc import Callable

    from bot.discord.client import AlienFrontiersBot
    from bot.discord.delivery import DeliveryWorker

Interaction = discord.Interaction[Any]
log = logging.getLogger(__name__)
_MENTION = re.compile(r"^<@!?(\d+)>$")


def _name(user: discord.abc.User) -> str:
    return user.display_name[:32]


async def _edit(interaction: Interaction, content: str) -> None:
    """Replace the private leave question with ``content`` (and no buttons)."""
    if interaction.response.is_done():
        await interaction.edit_original_response(content=content, view=None)
    else:
        await interaction.response.edit_message(content=content, view=None)


def find_seat(game: ActiveGame, typed: str) -> int:
    """The seat number (1-based) a member typed: the number the autocomplete sends, a
    mention, or a seat's name (whole, any case, or the start of exactly one name)."""
    raw = typed.strip()
    if raw.isdigit() and len(raw) <= 2:
        return int(raw)
    found = _MENTION.match(raw)
    if found is not None:
        seat = game.seat_of(int(found[1]))
        if seat is not None:
            return seat + 1
    lowered = raw.lower()
    exact = [s for s in game.seats if s.name.lower() == lowered]
    starts = [s for s in game.seats if lowered and s.name.lower().startswith(lowered)]
    for matches in (exact, starts):
        if len(matches) == 1:
            return matches[0].seat + 1
    raise ServiceError("seats.unknown_player", player=shorten(raw, 40))


class LeaveButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"af:leave:(?P<game>\d{1,18}):(?P<user>\d{1,20}):(?P<answer>yes|no)",
):
    """The private confirm / cancel buttons of ``/af leave`` (wired to the Seats cog)."""

    handler: ClassVar[Seats]  # set when the cog registers it
    gate: ClassVar[Gate]
    owners: ClassVar[InteractionOwners | None] = None  # set when the cog registers it

    def __init__(self, game_id: int, user_id: int, answer: str, label: str = "") -> None:
        yes = answer == "yes"
        super().__init__(
            discord.ui.Button(
                label=label or answer,
                style=discord.ButtonStyle.danger if yes else discord.ButtonStyle.secondary,
                custom_id=f"af:leave:{game_id}:{user_id}:{answer}",
            )
        )
        self.game_id, self.user_id, self.answer = game_id, user_id, answer

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: Any
    ) -> Self:
        label = getattr(item, "label", None) or ""
        return cls(int(match["game"]), int(match["user"]), match["answer"], label)

    async def interaction_check(self, interaction: Interaction) -> bool:
        return await component_check(
            discord.ComponentType.button, interaction, self.gate, self.owners
        )

    async def callback(self, interaction: Interaction) -> None:
        yes = self.answer == "yes"
        await self.handler.answer_leave(interaction, self.game_id, self.user_id, yes)


class Seats(TableCog):
    """Who sits where, and who is away."""

    items = (LeaveButton,)

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

    # ---- leave --------------------------------------------------------------------------

    @app_commands.command(
        name="leave", description=command_text("cmd.leave.description"), extras=AF
    )
    @app_commands.guild_only()
    async def leave(self, interaction: Interaction) -> None:
        game = await self.games.require(interaction.channel_id)
        locale = locale_of(interaction)
        user = interaction.user.id
        seat = game.seat_of(user)
        if seat is None:
            raise ServiceError("lobby.not_seated")
        view = PanelView()
        for answer in ("yes", "no"):
            label = text(f"leave.{answer}", locale)
            view.add_item(LeaveButton(game.id, user, answer, label))
        playing = game.row.status == "playing"  # what leaving would do, from the service
        asked = leave_question(
            playing,
            game.seats,
            game.row.host_id,
            user,
            game.clock.takeover,
            ends_game=playing and ends_without(game, seat),
            counts_last=playing and leaving_counts(game),
            locale=locale,
        )
        await interaction.response.send_message(asked, view=view, ephemeral=True)

    async def answer_leave(
        self, interaction: Interaction, game_id: int, user_id: int, confirmed: bool
    ) -> None:
        """The member's answer to the leave question (on their private message)."""
        locale = locale_of(interaction)
        if interaction.user.id != user_id:
            await send_ephemeral(interaction, text("leave.not_yours", locale))
            return
        if not confirmed:
            await _edit(interaction, text("leave.stayed", locale))
            return
        game = await self.games.by_id(game_id)
        if game is None:
            await _edit(interaction, text("leave.gone", locale))
            return
        if game.lock.locked():
            await interaction.response.defer()  # an AI is thinking: answer once it is done
        async with game.lock:
            try:
                await self.lobby.leave(game, user_id)
            except ServiceError as e:
                await _edit(interaction, refusal(e, locale))  # the question becomes the answer
                return
            try:
                await _edit(interaction, text("leave.done", locale))
            except CALL_FAULTS as e:  # the member left: the channel is told all the same
                log.warning("leave of game %d: the answer not shown: %s", game.id, e)
            await self.deliveries.run(game.row.channel_id)
        self.schedule_ai(game)

    # ---- kick and replace ---------------------------------------------------------------

    async def seat_choices(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The seats of the channel's game: "2 · Anna", value "2"."""
        if interaction.channel_id is None:
            return []
        game = await self.games.in_channel(interaction.channel_id)
        if game is None:
            return []
        typed = current.strip().lower()
        return [
            app_commands.Choice(name=seat_choice(s), value=str(s.seat + 1))
            for s in game.seats
            if typed in s.name.lower() or typed == str(s.seat + 1)
        ][:25]

    @app_commands.command(name="kick", description=command_text("cmd.kick.description"), extras=AF)
    @app_commands.describe(player=command_text("cmd.kick.player"))
    @app_commands.guild_only()
    async def kick(self, interaction: Interaction, player: str) -> None:
        game = await self.games.require(interaction.channel_id)
        can_manage = bool(interaction.permissions.manage_channels)
        async with holding(game.lock, interaction):
            number = find_seat(game, player)
            by = _name(interaction.user)
            await self.seats.kick(game, interaction.user.id, can_manage, number, by)
            await self.deliveries.run(game.row.channel_id, interaction)
        self.schedule_ai(game)

    @app_commands.command(
        name="replace", description=command_text("cmd.replace.description"), extras=AF
    )
    @app_commands.rename(member="with")
    @app_commands.describe(
        player=command_text("cmd.replace.player"), member=command_text("cmd.replace.with")
    )
    @app_commands.guild_only()
    async def replace(self, interaction: Interaction, player: str, member: discord.User) -> None:
        game = await self.games.require(interaction.channel_id)
        can_manage = bool(interaction.permissions.manage_channels)
        async with holding(game.lock, interaction):
            number = find_seat(game, player)
            await self.seats.replace(
                game,
                interaction.user.id,
                can_manage,
                number,
                member.id,
                _name(member),
                member.bot,
                by=_name(interaction.user),
            )
            await self.deliveries.run(game.row.channel_id, interaction)
        self.schedule_ai(game)

    @kick.autocomplete("player")
    async def _kick_player(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.seat_choices(interaction, current)

    @replace.autocomplete("player")
    async def _replace_player(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.seat_choices(interaction, current)

    # ---- away -------------------------------------------------------------------------

    @app_commands.command(name="away", description=command_text("cmd.away.description"), extras=AF)
    @app_commands.describe(days=command_text("cmd.away.days"))
    @app_commands.guild_only()
    async def away(
        self, interaction: Interaction, days: app_commands.Range[int, 0, MAX_AWAY_DAYS]
    ) -> None:
        locale = locale_of(interaction)
        until = await self.seats.set_away(interaction.user.id, days)
        await send_ephemeral(interaction, away_text(until, locale))


__all__ = ["LeaveButton", "Seats", "find_seat"]

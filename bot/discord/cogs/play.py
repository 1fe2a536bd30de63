"""Playing: ``/play move:`` (with autocomplete of one's legal moves), ``/undo`` (both
top-level commands: the two that play),
``/af panel`` (the turn message posted again at the bottom of the channel), and the
panel's callbacks: its items (``bot.discord.components``) are wired to this cog when it loads.

A member's move is checked at once (a refusal is answered privately without waiting),
then applied under the game's lock, committed, acknowledged, and shown by the
``Announcer`` before the lock is released, so one game's moves are applied and
announced one at a time, in order. If the lock is busy the interaction is deferred
first, so Discord's 3-second deadline is always met. After a move, the AI seat to act
(if any) is started through the ``schedule_ai`` the cog is given.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.discord.announce import Announcer
from bot.discord.cogs.base import AF, AfCog, orphan_choices
from bot.discord.components import PANEL_ITEMS
from bot.discord.delivery import DeliveryWorker
from bot.discord.failures import CALL_FAULTS, judge
from bot.discord.notify import Notifier
from bot.discord.owners import InteractionOwners
from bot.discord.refusals import refuse
from bot.discord.replies import holding, locale_of, send_ephemeral
from bot.discord.shutdown import Gate
from bot.discord.translator import command_text
from bot.play.ai import hint_plan
from bot.play.choice_tree import split_moves, valid_path
from bot.play.coach_memory import Coach
from bot.play.games import ActiveGame, MoveResult, MoveUnsure
from bot.play.held_games import HeldGames
from bot.play.message_service import MessageService
from bot.play.move_service import MoveService
from bot.play.orphan_service import OrphanService
from bot.play.picks import Picks
from bot.play.readers import Readers
from bot.play.tutor import (
    Before,
    before_move,
    consequence_line,
    cut_pick,
    guide_progress,
    guided_hint,
)
from bot.store.errors import ServiceError, StalePanelError
from bot.text import describe
from bot.text.gains import after, confirmation
from bot.text.move_words import pick_words, undone_text
from bot.text.spoken import plain
from bot.text.strings import text
from engine import EngineError, GameState

if TYPE_CHECKING:
    from bot.discord.client import AlienFrontiersBot

Interaction = discord.Interaction[Any]
log = logging.getLogger(__name__)
MAX_CHOICES = 25


def move_key(interaction: Interaction) -> str:
    """A typed move's idempotency key: its interaction (Discord's id, never used twice)."""
    return f"i{interaction.id}"


def picked(interaction: Interaction) -> str | None:
    """The pick a click on the panel plays (a menu's option, or an action button's move);
    None for a click that plays nothing (a step opened, a page turned)."""
    data: dict[str, Any] = dict(interaction.data or {})
    values = data.get("values") or []
    if values:
        chosen = str(values[0])
        return None if chosen.startswith("@") else chosen
    parts = str(data.get("custom_id", "")).split(":", 4)
    return parts[4] if len(parts) == 5 and parts[1] == "a" else None


def pick_key(version: int, move: str) -> str:
    """A panel pick's idempotency key: the pick itself, on the panel of that version (a
    second click on it is the same move; after an undo frees the key, a new one)."""
    return f"p{version}:{move}"[:100]


def matches(typed: str, *texts: str) -> bool:
    """Every word typed appears in the notation or the label (any case)."""
    haystack = " ".join(texts).lower()
    return all(word in haystack for word in typed.lower().split())


class Play(AfCog):
    """Moves typed as commands, and the panel's clicks (the panel's ``PanelHandler``)."""

    items = PANEL_ITEMS

    def __init__(
        self,
        bot: AlienFrontiersBot,
        *,
        owners: InteractionOwners,
        gate: Gate,
        af_group: app_commands.Group,
        games: HeldGames,
        moves: MoveService,
        messages: MessageService,
        orphans: OrphanService,
        readers: Readers,
        picks: Picks,
        announcer: Announcer,
        deliveries: DeliveryWorker,
        notifier: Notifier,
        schedule_ai: Callable[[ActiveGame], None],
        coach: Coach,
    ) -> None:
        super().__init__(bot, owners=owners, gate=gate, af_group=af_group)
        self.coach = coach
        self.games = games
        self.moves = moves
        self.messages = messages
        self.orphans = orphans
        self.readers = readers
        self.picks = picks
        self.announcer = announcer
        self.deliveries = deliveries
        self.notifier = notifier
        self.schedule_ai = schedule_ai

    # ---- commands ----------------------------------------------------------------------------

    @app_commands.command(name="play", description=command_text("cmd.play.description"))
    @app_commands.describe(move=command_text("cmd.play.move"))
    @app_commands.guild_only()
    async def play(self, interaction: Interaction, move: str) -> None:
        """Apply a member's move given in the engine's notation (the localised names of
        facilities and territories are read too)."""
        locale = locale_of(interaction)
        move = self.picks.read(move)
        game = await self.games.require(interaction.channel_id)
        key = move_key(interaction)
        try:
            if game.lock.locked() and key not in game.keys:  # refuse at once, not after
                self.picks.check_pick(game, interaction.user.id, [move])
            async with holding(game.lock, interaction):
                before = game.state
                learned = before_move(game)
                result = await self.picks.commit(game, interaction.user.id, [move], key=key)
                # Committed (now or, for the same interaction, before): from here on the
                # member is told what their move did, never that it failed; what the channel
                # must see is delivered (or retried).
                made = self.picks.made(result, locale, game.chat_names)
                spoken = await self._reads_aloud(interaction.user.id)
                extra = []
                if not result.repeated:
                    extra = await self._after_move(
                        interaction, game, before, learned, result, locale, spoken
                    )
                if spoken:
                    await self._tell(interaction, "\n".join(extra))  # what it did, once
                else:
                    await self._tell(interaction, "\n".join([*made, *extra]))
                await self.deliveries.run(game.row.channel_id)
        except (EngineError, ServiceError, MoveUnsure) as e:
            await refuse(
                interaction,
                e,
                game.chat_names,
                plainly=self.readers.known(interaction.user.id),
            )
            return
        self.schedule_ai(game)

    async def _after_move(
        self,
        interaction: Interaction,
        game: ActiveGame,
        before: GameState,
        learned: Before | None,
        result: MoveResult,
        locale: str,
        spoken: bool,
    ) -> list[str]:
        """The lines a member's private answer to a committed move may add: in screen-reader
        mode, what the pick did and what is left (first); in a guided game, what their pick
        did instead of the marked one; the hint on opening their DMs (and what the move used
        is recorded for the coach, whose lines are on the turn message, before the pick).
        None of them ever fails the answer. In screen-reader mode, in plain words."""
        user_id = interaction.user.id
        seat = game.seat_of(user_id)
        mine = [step.action for step in result.steps if step.seat == seat]
        lines = []
        try:
            if spoken and seat is not None and mine:
                what = pick_words(before, mine, game.chat_names, locale)
                names = game.chat_names
                # A pick that ended the turn: what it did, not what the next roll did.
                now = (after(before, mine) or game.state) if result.turn_changed else game.state
                lines.append(confirmation(what, before, now, seat, names, locale))
        except Exception as e:
            log.warning("member %d: the screen-reader line not made: %s", user_id, judge(e))
        try:
            other = consequence_line(game, learned, mine)
            await self.coach.after_move(user_id, before, mine)
        except Exception as e:
            log.warning("member %d: a line of the answer not made: %s", user_id, judge(e))
            other = None
        lines += [other] if other is not None else []
        hint = await self._dm_hint(user_id, locale)
        if hint is not None:
            lines.append(hint)
        return [plain(line, locale) for line in lines] if spoken else lines

    async def _reads_aloud(self, user_id: int) -> bool:
        """Whether the member is in screen-reader mode (False if it cannot be read now: the
        answer to their committed move is sent all the same)."""
        try:
            return await self.readers.is_on(user_id)
        except Exception as e:
            log.warning("member %d: screen-reader mode not read: %s", user_id, judge(e))
            return False

    async def _dm_hint(self, user_id: int, locale: str) -> str | None:
        """The private hint on opening DMs, once after a DM was refused (None if it cannot
        be read now: it comes with a later move)."""
        try:
            return await self.notifier.hint_for(user_id, locale)
        except Exception as e:
            log.warning("member %d: the DM hint not read: %s", user_id, judge(e))
            return None

    async def _tell(self, interaction: Interaction, content: str) -> None:
        """A private answer to a member about their committed move. If Discord does not take
        it (the interaction expired, a fault), the turn message says what happened; if the
        interaction was answered already (40060: by another process over the database, or
        by an answer of this one that landed unknown), nothing more is sent — a follow-up
        would be a second answer."""
        try:
            await send_ephemeral(interaction, content)
        except CALL_FAULTS as e:
            log.warning("interaction %d: the private answer not sent: %s", interaction.id, e)

    @play.autocomplete("move")
    async def move_choices(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The caller's legal moves (25 at most), filtered by what is typed."""
        if interaction.channel_id is None:
            return []
        game = await self.games.in_channel(interaction.channel_id)
        if game is None or game.game is None:
            return []
        seat = game.seat_of(interaction.user.id)
        if seat is None or seat != game.to_act():
            return []
        locale = locale_of(interaction)
        shown = game.shown()
        rate = shown.view().market_rate
        out: list[app_commands.Choice[str]] = []
        for action in shown.legal():
            notation = str(action)
            label = describe.action_label(action, locale, game.seat_names, rate)
            if matches(current, notation, label):
                name = describe.shorten(f"{notation} — {label}")
                out.append(app_commands.Choice(name=name, value=notation))
                if len(out) == MAX_CHOICES:
                    break
        return out

    @app_commands.command(name="undo", description=command_text("cmd.undo.description"))
    @app_commands.guild_only()
    async def undo_command(self, interaction: Interaction) -> None:
        await self.undo(interaction)

    async def undo(self, interaction: Interaction, version: int | None = None) -> None:
        """Take back the member's last pick (``/undo``, or the panel's Undo button with
        the panel's ``version``): one action, or all the actions of a macro."""
        locale = locale_of(interaction)
        game = await self.games.require(interaction.channel_id)
        from_panel = version is not None
        if game.lock.locked():
            await interaction.response.defer(ephemeral=not from_panel, thinking=not from_panel)
        async with game.lock:
            try:
                undone = await self.picks.take_back(game, interaction.user.id, version)
            except (EngineError, ServiceError) as e:
                await refuse(
                    interaction,
                    e,
                    game.chat_names,
                    plainly=self.readers.known(interaction.user.id),
                )
                return
            # The turn message, with what was taken back (the click's answer, from the panel).
            await self.deliveries.run(game.row.channel_id, interaction if from_panel else None)
            if not from_panel:
                await self._tell(interaction, undone_text(undone, locale))

    @app_commands.command(
        name="panel", description=command_text("cmd.panel.description"), extras=AF
    )
    @app_commands.describe(game=command_text("cmd.panel.game"))
    @app_commands.guild_only()
    async def panel(self, interaction: Interaction, game: int | None = None) -> None:
        """Re-post the turn message at the bottom of the channel (busy channels); the old
        one then points to the new one. For the game's players and channel managers.
        ``game``: an orphaned game of the member's (its channel deleted, or the bot
        removed from its server) goes on in this channel instead."""
        locale = locale_of(interaction)
        if game is not None:
            await self.continue_here(interaction, game)
            return
        active = await self.games.require(interaction.channel_id)
        if active.game is None or active.row.status != "playing":
            raise ServiceError("game.not_started")
        if active.seat_of(interaction.user.id) is None and not (
            interaction.permissions.manage_channels
        ):
            raise ServiceError("play.not_seated")
        async with holding(active.lock, interaction):
            await self.messages.repost(active)
            before = active.row.turn_message_id
            await self.deliveries.run(active.row.channel_id)
        link = self.announcer.panel_link(active)
        if active.row.turn_message_id == before or not link:
            await send_ephemeral(interaction, text("panel.reposting", locale))
            return
        await send_ephemeral(interaction, text("panel.reposted", locale, {"link": link}))

    async def continue_here(self, interaction: Interaction, game_id: int) -> None:
        """``/af panel game:``: an orphaned game goes on in this channel."""
        if interaction.channel_id is None:
            raise ServiceError("game.none")
        can_manage = bool(interaction.permissions.manage_guild)
        game = await self.orphans.adopt(
            game_id,
            interaction.user.id,
            channel_id=interaction.channel_id,
            guild_id=interaction.guild_id,
            can_manage=can_manage,
            by=describe.chat_name(interaction.user.display_name),
        )
        async with holding(game.lock, interaction):
            await self.deliveries.run(game.row.channel_id, interaction)
        self.schedule_ai(game)

    @panel.autocomplete("game")
    async def orphaned_games(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await orphan_choices(self.orphans, interaction, current)

    # ---- the panel's callbacks (bot.discord.components.PanelHandler) ------------------------

    async def _panel_game(self, game_id: int) -> ActiveGame:
        """The game of a panel, if it is still being played (else the panel is gone): as
        committed (another process over the database may have moved it on)."""
        game = await self.games.as_committed(game_id)
        if game is None or game.game is None:
            raise StalePanelError(None)
        return game

    async def check_panel(self, interaction: Interaction, game_id: int, version: int) -> bool:
        """Only the player to act, on the current panel, gets through; others are told why.
        A pick played already from this panel (a second click) is answered as played."""
        try:
            game = await self._panel_game(game_id)
            try:
                self.picks.check_turn(game, interaction.user.id, version)
            except StalePanelError:
                pick = picked(interaction)
                if (
                    pick is None
                    or await self.moves.first_result(game, pick_key(version, pick)) is None
                ):
                    raise
                log.info("game %d: pick %s again; answered as played", game.id, pick)
                await interaction.response.defer()
                return False
        except Exception as e:
            await refuse(
                interaction,
                e,
                where="panel check",
                plainly=self.readers.known(interaction.user.id),
            )
            return False
        return True

    async def panel_move(
        self, interaction: Interaction, game_id: int, version: int, move: str
    ) -> None:
        """Play a pick of the panel: one move, or a macro's moves one after the other (each
        checked by the engine and committed, the whole pick checked before any is played)."""
        locale = locale_of(interaction)
        names: Sequence[str] = ()
        key = pick_key(version, move)  # a second click on the same pick is the same move
        try:
            game = await self.games.by_id(game_id)
            if game is None:
                raise StalePanelError(None)
            names = game.chat_names
            if game.lock.locked():
                await interaction.response.defer()
            async with game.lock:
                try:
                    self.moves.check_version(game, version)
                    whole = self.picks.check_pick(game, interaction.user.id, split_moves(move))
                except (EngineError, ServiceError):
                    first = await self.moves.first_result(game, key)
                    if first is None:
                        raise
                    # Played already (a double click): the turn message shows it.
                    log.info("game %d: pick %s again; answered as played", game.id, key)
                    await self.deliveries.run(game.row.channel_id, interaction)
                    return
                picked = cut_pick(game, whole)  # a guided game: up to a lesson's decision
                before = game.state
                learned = before_move(game)
                result = await self.picks.commit(
                    game, interaction.user.id, picked, key=key, version=version
                )
        except Exception as e:
            await refuse(
                interaction,
                e,
                names,
                where="panel move",
                plainly=self.readers.known(interaction.user.id),
            )
            return
        # Committed: the turn message shows it (the click's answer, if Discord takes it; else
        # the deliveries retry), and nothing from here on is a refusal.
        async with game.lock:
            await self.deliveries.run(game.row.channel_id, interaction)
            extra = []
            if not result.repeated:
                spoken = await self._reads_aloud(interaction.user.id)
                extra = await self._after_move(
                    interaction, game, before, learned, result, locale, spoken
                )
        if len(picked) < len(whole):  # the rest of the pick waits for the lesson's decision
            extra.append(text("learn.cut", locale))
        if extra:
            await self._tell(interaction, "\n".join(extra))
        self.schedule_ai(game)

    async def panel_open(
        self, interaction: Interaction, game_id: int, version: int, path: str | None, page: int
    ) -> None:
        """Open a second step (or a page of it), or close it: a new panel, same game version."""
        try:
            game = await self.games.by_id(game_id)
            if game is None:
                raise StalePanelError(None)
            if path is not None and (
                not valid_path(path) or self.announcer.choices(game).node(path) is None
            ):
                raise ServiceError("panel.unknown_choice")
            await interaction.response.edit_message(view=self.announcer.panel(game, path, page))
        except Exception as e:
            await refuse(
                interaction,
                e,
                where="panel page",
                plainly=self.readers.known(interaction.user.id),
            )

    async def panel_undo(self, interaction: Interaction, game_id: int, version: int) -> None:
        try:
            await self.undo(interaction, version)
        except Exception as e:
            await refuse(
                interaction,
                e,
                where="panel undo",
                plainly=self.readers.known(interaction.user.id),
            )

    async def panel_hint(self, interaction: Interaction, game_id: int, version: int) -> None:
        """What the normal AI would do with the rest of the turn, privately; worked out in a
        worker thread so the other games go on meanwhile."""
        locale = locale_of(interaction)
        try:
            game = await self._panel_game(game_id)
            await interaction.response.defer(ephemeral=True, thinking=True)
            state = game.state.copy()
            names = game.seat_names
            guided = guide_progress(game)  # a guided game: the hint follows the ⭐ picks
            spoken = await self.readers.is_on(interaction.user.id)

            def hint() -> str:
                if guided is not None:
                    return guided_hint(guided, state, game.row.seed, names, locale, whole=spoken)
                plan = hint_plan(state, game.row.seed)
                return describe.hint_text(state, plan, names, locale, whole=spoken)

            said = await asyncio.to_thread(hint)
            coached = await self.coach.for_hint(game, interaction.user.id, locale)
            if coached is not None:
                said = f"{said}\n{coached}"
            if spoken:
                said = plain(said, locale)
            await interaction.followup.send(said[:2000], ephemeral=True)
        except Exception as e:
            await refuse(
                interaction,
                e,
                where="panel hint",
                plainly=self.readers.known(interaction.user.id),
            )

"""Turn messages: the one message per turn with the board, the mention, the roll and the panel.

At the start of every turn one message is posted: the board image, a mention of
the player to act (the only mention allowed), the events of the turn so far and
the action panel. Each action edits that message, and its picture is redrawn: the
live board (``bot.board_edits``, at most one image edit a second per channel). When
the turn ends the message keeps its lines and the turn's last picture and loses its
panel, and the next turn's message is posted (or the game-over message with the
final scores and board). The board is drawn in a worker thread. Callers hold the
game's lock, so edits go out in order.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Sequence
from typing import Any, Protocol

import discord

from bot import describe
from bot.board_edits import BoardEdits
from bot.catchup import lines as catch_up_lines
from bot.catchup import since_last_turn
from bot.choices import Choices
from bot.components import PanelView, RematchButton
from bot.durations import day_text, duration_text
from bot.games import ActiveGame, MoveResult, ServiceError
from bot.notify import Notifier, pings_in_channel
from bot.panel import build_panel
from bot.replies import jump_url
from bot.service import ServiceRef
from bot.strings import text
from engine import GameState
from engine.scoring import outcome, score_parts
from engine.state import Event

log = logging.getLogger(__name__)

TURN_LINES = 20  # lines of events shown; the roll (first) and the latest are kept


class Renderer(Protocol):
    """Draws the board as PNG bytes: the live board, or the full one (``detail``)."""

    def __call__(
        self,
        state: GameState,
        seat_names: list[str] | None,
        locale: str,
        detail: bool = False,
        /,
    ) -> bytes: ...


def default_renderer(
    state: GameState, seat_names: list[str] | None, locale: str, detail: bool = False
) -> bytes:
    """The board image from ``bot.render`` (imported on first use)."""
    from bot.render import render_board

    return render_board(state, seat_names=seat_names, locale=locale, detail=detail)


def mentions(users: Sequence[int]) -> discord.AllowedMentions:
    """Mentions that may ping these members and nobody else."""
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False, users=[discord.Object(u) for u in users]
    )


def turn_segments(state: GameState) -> list[list[Event]]:
    """The state's recent events split at each turn start (the last list is this turn)."""
    segments: list[list[Event]] = [[]]
    for e in state.events:
        if e.key == "turn_started":
            segments.append([])
        segments[-1].append(e)
    return segments


class Announcer:
    """Writes, posts and edits the turn messages of games."""

    def __init__(
        self,
        client: discord.Client,
        service: ServiceRef,
        notifier: Notifier,
        renderer: Renderer,
    ) -> None:
        self.client = client
        self._service = service
        self.notifier = notifier
        self.renderer = renderer
        self.boards = BoardEdits(self)

    def mention(self, game: ActiveGame) -> str:
        user = game.waiting_on()
        return f"<@{user}>" if user is not None else ""

    def turn_text(
        self, game: ActiveGame, *, segment: int = -1, final: bool = False, seat: int | None = None
    ) -> str:
        """The turn message: header, what happened this turn, and what to do now.

        With ``segment=-2, final=True``: the turn that just ended, played by ``seat``.
        """
        state = game.state
        locale = game.row.locale
        names = game.chat_names
        seg = turn_segments(state)
        events = seg[segment] if len(seg) >= -segment else []
        start = next((e for e in events if e.key == "turn_started"), None)
        if seat is None:
            seat = start.player if start is not None and start.player is not None else state.current
        turn_no = state.turn_number + segment + 1  # the turn this segment shows
        played_for = None  # the member whose timed-out turn the bot played
        if game.row.timeout_mode is not None and game.row.timeout_turn == turn_no:
            row = game.seats[seat]
            played_for = row.user_id if row.user_id is not None else row.former_user_id
        if played_for is not None:
            header_key = f"turn.header_timeout.{game.row.timeout_mode}"
        else:
            header_key = "turn.header_ai" if game.seats[seat].is_ai else "turn.header"
        header = text(
            header_key,
            locale,
            {
                "round": start.params.get("round", state.round) if start else state.round,
                "name": describe.seat_name(seat, names),
                "mention": self.mention(game) if not final else "",
                "member": f"<@{played_for}>",
            },
        )
        lines = [
            "• " + describe.event_line(e, locale, names) for e in events if e.key != "turn_started"
        ]
        if len(lines) > TURN_LINES:
            hidden = len(lines) - TURN_LINES
            more = text("turn.earlier", locale, {"count": hidden})
            lines = [lines[0], more, *lines[-(TURN_LINES - 1) :]]
        parts = [header]
        if not final and segment == -1 and game.catch_up_turn == state.turn_number:
            caught = catch_up_lines(game.catch_up, names, locale)
            if caught:
                parts += [text("catchup.header", locale), *caught]
        parts += lines
        if not final and not state.over:
            v = game.shown().view()
            parts.append(describe.player_line(v, seat, names, locale))
            parts.append(describe.pending_text(v, names, locale))
            if game.waiting_on() is not None:
                parts.append(text("turn.hint", locale))
        return "\n".join(parts)[:2000]

    def panel(self, game: ActiveGame, open_path: str | None = None, page: int = 0) -> PanelView:
        """The action panel for the member to act (an empty view for AI seats or game over)."""
        seat = game.to_act()
        if seat is None or game.ai_to_act() is not None or game.game is None:
            return PanelView()
        return build_panel(
            game.id,
            game.state.version,
            self.choices(game),
            can_undo=game.game.can_undo(seat),
            locale=game.row.locale,
            open_path=open_path,
            page=page,
        )

    def choices(self, game: ActiveGame) -> Choices:
        """What the panel offers the player to act (labels are plain text: no escapes)."""
        return game.shown().choices(game.seat_names, game.row.locale)

    async def board_file(
        self, game: ActiveGame, state: GameState | None = None
    ) -> discord.File | None:
        """The board image (of ``state``, else the game's now), drawn in a worker thread so
        the event loop stays free.

        None if drawing failed (logged): the turn goes on without its picture.
        """
        state = state if state is not None else game.state
        names = await self.board_names(game)
        try:
            png = await asyncio.to_thread(self.renderer, state, names, game.row.locale)
        except Exception:
            log.exception(
                "game %d: the board at version %d could not be drawn", game.id, state.version
            )
            return None
        name = f"board-{game.id}-turn{state.turn_number:03d}.png"
        return discord.File(io.BytesIO(png), filename=name)

    async def board_names(self, game: ActiveGame) -> list[str]:
        """The seats' names for the board image, marked when a member is away (with the day
        they are back, in the game's language; UTC)."""
        members = [s.user_id for s in game.seats if s.user_id is not None]
        away = await self._service().away(members)
        names = []
        for s in game.seats:
            back = away.get(s.user_id) if s.user_id is not None else None
            if back is None:
                names.append(s.name)
                continue
            date = day_text(back, game.row.locale)
            names.append(text("seat.away", game.row.locale, {"name": s.name[:16], "date": date}))
        return names

    def allowed(self, game: ActiveGame) -> discord.AllowedMentions:
        user = game.waiting_on()
        return mentions([user] if user is not None else [])

    def channel(self, game: ActiveGame) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(game.row.channel_id, guild_id=game.row.guild_id)

    def panel_link(self, game: ActiveGame) -> str:
        if game.row.turn_message_id is None:
            return ""
        return jump_url(game.row.guild_id, game.row.channel_id, game.row.turn_message_id)

    # ---- posting ---------------------------------------------------------------------------

    async def send(self, game: ActiveGame, content: str, **kwargs: Any) -> discord.Message:
        """Post in the game's channel with the board; a missing permission becomes a refusal."""
        file = await self.board_file(game)
        if file is not None:
            kwargs["file"] = file
        try:
            return await self.channel(game).send(content[:2000], **kwargs)
        except discord.Forbidden:
            log.warning(
                "game %d: no permission to post in channel %d", game.id, game.row.channel_id
            )
            raise ServiceError("error.forbidden") from None

    async def notify(
        self, game: ActiveGame, content: str, users: Sequence[int] = ()
    ) -> discord.Message | None:
        """A short message in the game's channel (no board) that may ping ``users`` only.

        Not being able to post is logged, not raised: a notice must not stop the game.
        """
        try:
            return await self.channel(game).send(content[:2000], allowed_mentions=mentions(users))
        except discord.HTTPException as e:
            log.warning("game %d: notice not sent: %s", game.id, e)
            return None

    async def post_turn(self, game: ActiveGame) -> None:
        """Post the message that starts a turn (board image, mention, roll, panel, and for
        the member to act what happened since their last turn), then notify them as they
        chose (bot.notify: the turn message pings them only if they want channel pings)."""
        await self.prepare_catch_up(game)
        user = game.waiting_on()
        prefs = await self.notifier.prefs(user) if user is not None else None
        ping = prefs is not None and pings_in_channel(prefs)
        message = await self.send(
            game,
            self.turn_text(game),
            view=self.panel(game),
            allowed_mentions=self.allowed(game) if ping else mentions([]),
        )
        await self._service().set_turn_message(game, message.id, game.state.turn_number)
        await self.notifier.turn_started(game, self)

    async def repost_turn(self, game: ActiveGame) -> str:
        """Post the turn message again at the bottom of the channel (no new ping); the old
        one keeps its picture and points to the new one. Returns the new one's link."""
        old = game.row.turn_message_id
        await self.prepare_catch_up(game)
        message = await self.send(
            game, self.turn_text(game), view=self.panel(game), allowed_mentions=mentions([])
        )
        await self._service().set_turn_message(game, message.id, game.state.turn_number)
        link = self.panel_link(game)
        if old is not None:
            moved = text("panel.moved", game.row.locale, {"link": link})
            try:
                await (
                    self.channel(game)
                    .get_partial_message(old)
                    .edit(content=moved, view=None, allowed_mentions=mentions([]))
                )
            except discord.HTTPException as e:
                log.warning("game %d: old turn message %d not edited: %s", game.id, old, e)
        return link

    async def prepare_catch_up(self, game: ActiveGame) -> None:
        """Keep, for the turn message, what happened since the last turn of the member to
        act (read from the stored log once per turn)."""
        user = game.waiting_on()
        seat = game.to_act()
        turn = game.state.turn_number
        if user is None or seat is None or game.catch_up_turn == turn:
            return
        rows = await self._service().store.actions_since(game.id, seat)
        game.catch_up = since_last_turn(rows, seat)
        game.catch_up_turn = turn

    async def post_game_over(self, game: ActiveGame) -> None:
        """The final message: it pings the game's members, shows each player's VP part by
        part, the winner and the tie-break, the rounds played and the game's length, with
        the final board and a Rematch button."""
        state = game.state
        result = outcome(state)
        assert result is not None
        locale = game.row.locale
        members = [
            u
            for s in game.seats
            if (u := s.user_id if s.user_id is not None else s.former_user_id) is not None
        ]
        parts = [score_parts(state, p) for p in range(state.num_players)]
        actions = await self._service().store.last_actions(game.id, 1)
        first = await self._service().store.first_action_time(game.id)
        length = (actions[-1].created_at if actions else 0.0) - (first or 0.0)
        content = "\n".join(
            [
                text("over.header", locale, {"mentions": " ".join(f"<@{u}>" for u in members)}),
                describe.outcome_text(result, game.chat_names, locale, parts),
                text(
                    "over.length",
                    locale,
                    {"rounds": state.round, "duration": duration_text(length, locale)},
                ),
            ]
        )
        view = PanelView()
        view.add_item(RematchButton(game.id, text("over.rematch", locale)))
        await self.send(game, content, view=view, allowed_mentions=mentions(members))

    async def edit_turn_message(
        self,
        game: ActiveGame,
        content: str,
        panel: PanelView | None,
        interaction: discord.Interaction[Any] | None = None,
        file: discord.File | None = None,
    ) -> bool:
        """Edit the current turn message (through the interaction when it is on it); with
        ``file``, its picture too."""
        message_id = game.row.turn_message_id
        if message_id is None:
            return False
        view_arg = panel if panel is not None else PanelView()
        mentions = discord.AllowedMentions.none()
        picture: dict[str, Any] = {"attachments": [file]} if file is not None else {}
        on_it = (
            interaction is not None
            and interaction.message is not None
            and interaction.message.id == message_id
        )
        try:
            if interaction is not None and on_it and not interaction.response.is_done():
                await interaction.response.edit_message(
                    content=content, view=view_arg, allowed_mentions=mentions, **picture
                )
            elif interaction is not None and on_it:
                await interaction.edit_original_response(
                    content=content, view=view_arg, allowed_mentions=mentions, **picture
                )
            else:
                await (
                    self.channel(game)
                    .get_partial_message(message_id)
                    .edit(content=content, view=view_arg, allowed_mentions=mentions, **picture)
                )
        except discord.NotFound:
            log.warning("game %d: turn message %d is gone", game.id, message_id)
            return False
        return True

    async def announce(
        self, game: ActiveGame, result: MoveResult, interaction: discord.Interaction[Any] | None
    ) -> None:
        """Show a move: edit the turn message and redraw its board, or close it (with the
        turn's last board) and start the next turn / game over."""
        posted = game.row.turn_message_turn == game.state.turn_number
        if posted:
            await self.prepare_catch_up(game)  # after a restart, for the edits to keep it
        if result.turn_changed or result.over:
            old_id = game.row.turn_message_id
            if old_id is not None:
                segment = -1 if result.over else -2
                seat = result.steps[0].seat
                old = self.turn_text(game, segment=segment, final=True, seat=seat)
                await self.edit_turn_message(game, old, None, interaction)
                # The board as the turn left it: before the next player gathers their ships.
                last = game.state if result.over or result.before is None else result.before
                self.boards.request(game, old_id, last)
            if result.over:
                await self.post_game_over(game)
            else:
                await self.post_turn(game)
        elif not posted or not await self._edit_with_board(game, interaction):
            await self.post_turn(game)  # the turn's message is missing (deleted, or never posted)
        if interaction is not None and not interaction.response.is_done():
            await interaction.response.defer()

    async def _edit_with_board(
        self, game: ActiveGame, interaction: discord.Interaction[Any] | None
    ) -> bool:
        """Edit the turn message after a move and redraw its board: in the same edit when
        the picture may change now, else soon (``bot.board_edits``)."""
        message_id = game.row.turn_message_id
        if message_id is None:
            return False
        state = game.state
        text, panel = self.turn_text(game), self.panel(game)
        file = await self.boards.file_now(game, message_id, state)
        if not await self.edit_turn_message(game, text, panel, interaction, file):
            return False
        if file is not None:
            self.boards.shown(game, message_id, state)
        else:
            self.board_changed(game)
        return True

    def board_changed(self, game: ActiveGame) -> None:
        """Redraw the board on the turn message (coalesced: ``bot.board_edits``)."""
        if game.row.turn_message_id is not None and game.game is not None:
            self.boards.request(game, game.row.turn_message_id, game.state)

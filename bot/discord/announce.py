"""Turn messages: the one message per turn with the board, the mention, the roll and the panel.

At the start of every turn one message is posted: the board image, a mention of
the player to act (the only mention allowed), the events of the turn so far and
the action panel. Each action edits that message, and its picture is redrawn: the
live board (``bot.discord.board_edits``, at most one image edit a second per channel). When
the turn ends the message keeps its lines and the turn's last picture and loses its
panel, and the next turn's message is posted (or the game-over message with the
final scores and board). The board is drawn in a worker thread.

The announcer writes these messages (``turn_text``, with ``bot.text.turn_text``'s lines,
the panel, the board); posting and editing them is the outbox's: each change queues its
deliveries (``bot.play.outbox``) and ``bot.discord.couriers`` sends them, retrying until they land.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import discord

from bot.discord.board_edits import BoardEdits
from bot.discord.components import PanelView
from bot.discord.panel import build_panel
from bot.discord.pictures import Pictures
from bot.discord.replies import jump_url
from bot.play.choice_tree import Choices
from bot.play.coach_memory import coach_lines
from bot.play.games import ActiveGame
from bot.play.service import GameService
from bot.play.tutor import lesson_lines, marked_pick
from bot.text import describe
from bot.text.board_words import scores_line
from bot.text.catchup import board_at_start, board_then, said_again, since_last_turn
from bot.text.catchup import changes as catch_up_changes
from bot.text.catchup import lines as catch_up_lines
from bot.text.limits import MESSAGE_LIMIT
from bot.text.spoken import named_once, plain
from bot.text.strings import text
from bot.text.turn_text import as_rolled, event_lines, lines_length, turn_header, turn_segments
from bot.text.why_not import closed_line
from engine import GameView

log = logging.getLogger(__name__)


def mentions(users: Sequence[int]) -> discord.AllowedMentions:
    """Mentions that may ping these members and nobody else."""
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False, users=[discord.Object(u) for u in users]
    )


class Announcer:
    """Writes the turn messages of games (text, panel, board) and posts or edits them for
    the deliveries (``bot.discord.couriers``)."""

    def __init__(
        self,
        client: discord.Client,
        service: GameService,
        pictures: Pictures,
        boards: BoardEdits,
    ) -> None:
        self.client = client
        self.service = service
        self.pictures = pictures  # the board's picture and the VP chart
        self.boards = boards  # the live board's edits
        # Per game, the VP said last in its channel for a screen reader (``said_scores``).
        self.scores_said: dict[int, tuple[int, ...]] = {}

    def mention(self, game: ActiveGame) -> str:
        user = game.waiting_on()
        return f"<@{user}>" if user is not None else ""

    def turn_text(self, game: ActiveGame) -> str:
        """The message of the turn in play: header, what happened this turn so far, and what
        to do now."""
        state = game.state
        locale = game.row.locale
        names = game.chat_names
        events = turn_segments(state)[-1]
        start = next((e for e in events if e.key == "turn_started"), None)
        seat = start.player if start is not None and start.player is not None else state.current
        played_for = None  # the member whose timed-out turn the bot plays
        if game.timed_out():
            row = game.seats[seat]
            played_for = row.user_id if row.user_id is not None else row.former_user_id
        header = turn_header(
            game.row.timeout_mode if played_for is not None else None,
            game.seats[seat].is_ai,
            locale,
            round=start.params.get("round", state.round) if start else state.round,
            name=describe.seat_name(seat, names),
            mention=self.mention(game),
            member=played_for,
        )
        parts = [header]
        if game.catch_up_turn == state.turn_number:
            # For a screen reader every other turn was posted whole as it ended: only the
            # colonies, control and raids on the member again, and what changed for each
            # player since, summed up. All of it up to the start of this turn: the member's
            # own moves do not change it.
            told = said_again(game.catch_up, seat) if game.spoken else game.catch_up
            caught = catch_up_lines(told, names, locale)
            caught += catch_up_changes(game.catch_up_before, game.catch_up_now, seat, names, locale)
            if caught:
                parts += [text("catchup.header", locale), *caught]
        after: list[str] = []
        if not state.over:
            v = game.shown().view()
            after.append(describe.player_line(v, seat, names, locale))
            if game.spoken:  # the picture's words are short: the scores are said here
                after.append(scores_line(v, names, locale))
                self.scores_said[game.id] = tuple(p.vp for p in v.players)
                if game.waiting_on() is not None:  # what the board shows the menu leaves out
                    why = closed_line(state, game.shown().legal(), names, locale)
                    after += [why] if why else []
            # Each fact once for a screen reader: the ships to dock are the roll's until one
            # docks, and the panel needs no reminder.
            rolled = [e for e in events if e.key == "rolled"]
            if not game.spoken or v.pending is not None or not as_rolled(v, rolled):
                after.append(describe.pending_text(v, names, locale))
            after += lesson_lines(game)  # a guided game: the lesson of this decision
            after += coach_lines(game)  # the coach's, before the pick (see prepare_catch_up)
            if game.waiting_on() is not None and not game.spoken:
                after.append(text("turn.hint", locale))
        room = MESSAGE_LIMIT - lines_length([*parts, *after])
        lines = event_lines(events, locale, names, room, game.spoken)
        said = "\n".join([*parts, *lines, *after])
        return (plain(named_once(said, names), locale) if game.spoken else said)[:MESSAGE_LIMIT]

    def said_scores(self, game_id: int, v: GameView, names: Sequence[str], locale: str) -> str:
        """The scores line for a turn posted when it ended (screen-reader mode): said when
        the VP changed since they were last said in the channel (a member's turn message
        always says them), else "" (a screen reader would hear them again for nothing)."""
        vp = tuple(p.vp for p in v.players)
        if self.scores_said.get(game_id) == vp:
            return ""
        return scores_line(v, names, locale)

    async def refresh_spoken(self, game: ActiveGame) -> bool:
        """Whether a member sitting in the game has screen-reader mode on (kept on the game
        for its messages and pictures' words)."""
        members = [s.user_id if s.user_id is not None else s.former_user_id for s in game.seats]
        game.spoken = await self.service.readers.any_on(members)
        return game.spoken

    def panel(self, game: ActiveGame, open_path: str | None = None, page: int = 0) -> PanelView:
        """The action panel for the member to act (an empty view for AI seats or game over)."""
        seat = game.to_act()
        if seat is None or game.ai_to_act() is not None or game.game is None:
            return PanelView()
        return build_panel(
            game.id,
            game.state.version,
            self.choices(game),
            can_undo=game.can_undo(),
            locale=game.row.locale,
            open_path=open_path,
            page=page,
            marked=marked_pick(game),
            spoken=game.spoken,
        )

    def choices(self, game: ActiveGame) -> Choices:
        """What the panel offers the player to act (labels are plain text: no escapes)."""
        return game.shown().choices(game.seat_names, game.row.locale)

    def allowed(self, game: ActiveGame) -> discord.AllowedMentions:
        user = game.waiting_on()
        return mentions([user] if user is not None else [])

    def channel(self, game: ActiveGame) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(game.row.channel_id, guild_id=game.row.guild_id)

    def panel_link(self, game: ActiveGame) -> str:
        if game.row.turn_message_id is None:
            return ""
        return jump_url(game.row.guild_id, game.row.channel_id, game.row.turn_message_id)

    async def prepare_catch_up(self, game: ActiveGame) -> None:
        """Keep, for the turn message, what happened since the last turn of the member to
        act (read from the stored log once per turn), whether a member in the game reads
        with a screen reader, and the coach's lines on what they may use now
        (``bot.play.coach_memory``)."""
        await self.refresh_spoken(game)
        if game.game is not None and not game.state.over:
            await self.service.coach.before_pick(game)
        await self.catch_up_for(game)

    async def catch_up_for(self, game: ActiveGame) -> bool:
        """What happened since the last turn of the member to act, kept with the game
        (``catch_up``, the boards ``catch_up_before`` and ``catch_up_now``): read from the
        stored log and replayed once per turn, for the turn message and the turn's DM
        alike. Whether it is kept for the turn in play (False: no member to act)."""
        user = game.waiting_on()
        seat = game.to_act()
        turn = game.state.turn_number
        if user is None or seat is None:
            return False
        if game.catch_up_turn == turn:
            return True
        rows = await self.service.since_last_turn(game.id, seat)
        game.catch_up = since_last_turn(rows, seat)
        if game.game is not None:
            game.catch_up_before = board_then(game.game.config, game.game.log, rows)
            game.catch_up_now = board_at_start(game.game.config, game.game.log, rows)
        game.catch_up_turn = turn
        return True

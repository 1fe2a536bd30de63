"""The couriers of a turn's message (``turn``: the turn in play, edited or posted with its
ping, sent as text once Discord rejects it, posted again by ``/af panel``) and of a turn
that ended (``close``: its final lines, no panel, the board as the turn left it).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import discord

from bot.discord.announce import mentions
from bot.discord.components import PanelView
from bot.discord.courier_base import SHOWN, CourierBase, Done, Reply, _event, _said, rejected_params
from bot.discord.failures import CALL_FAULTS, is_gone, is_rejected, judge
from bot.discord.notify import pings_in_channel
from bot.discord.pictures import board_name
from bot.discord.replies import jump_url
from bot.play.games import ActiveGame
from bot.play.readers import told_when_done
from bot.store.rows import Delivery, GameRow, SeatRow
from bot.text import describe
from bot.text.strings import text
from bot.text.turn_text import event_lines, turn_header
from engine import Event, GameState, view

log = logging.getLogger(__name__)


class TurnCouriers(CourierBase):
    """The turn message, and a turn's message closed."""

    async def _turn(self, d: Delivery, reply: Reply | None, check: bool) -> Done:
        """The message of the turn in play, as the game is now: edited (with its picture
        when it may change now), or posted with its ping if the turn has none (or its
        message was deleted); ``repost``: posted again at the bottom of the channel (``/af
        panel``), the old one pointing to it. Rejected by Discord: sent as text."""
        game = await self.service.as_committed(int(d.game_id or 0))
        if game is None or game.game is None or game.row.status != "playing":
            return SHOWN  # over or ended: their own deliveries show it
        state = game.board()  # as it is now, kept as the picture shown
        turn = state.turn_number
        if turn != d.payload.get("turn", turn):
            return SHOWN  # a later turn: its own delivery shows it
        row = game.row  # as committed: which message shows the turn
        await self.announcer.prepare_catch_up(game)
        repost = bool(d.payload.get("repost"))
        message_id = row.turn_message_id if row.turn_message_turn == turn and not repost else None
        if message_id is None and not repost and told_when_done(game):
            return SHOWN  # an AI's turn for a screen reader: posted whole when it is done
        content = self.announcer.turn_text(game)
        note = self.render(d.payload.get("note"), row.locale, row)
        if note:
            content = f"{content}\n{note}"[:2000]
        panel = self.announcer.panel(game)
        key = f"{game.id}t{turn}" + (f"r{d.id}" if repost else "")  # one message per turn
        channel = self.channel(row)
        found: dict[str, Any] = {}
        if message_id is None and check:
            header = content.split("\n", 1)[0]
            old = row.turn_message_id  # a repost's message is another than the one it moves
            made = await self.find(
                channel,
                lambda m: m.id != old and _shows_turn(m, game.id, turn, header),
                d.created_at,
            )
            if made is not None:  # posted before, not recorded: it is the turn's message
                log.info("game %d: turn %d's message %d found posted", game.id, turn, made.id)
                message_id = made.id
                found = {"turn_message_id": made.id, "turn_message_turn": turn}
        if message_id is not None:
            boards = self.announcer.boards
            file = await boards.file_now(game, message_id, state)
            try:
                await self._edit(row, message_id, reply, content, panel, file)
            except discord.NotFound as e:
                if not is_gone(e):
                    raise
                log.info("game %d: turn message %d is gone; posting it again", game.id, message_id)
                key = f"{key}m{message_id % 10**6}"  # a new message, not the deleted one
                found = {}
            else:
                if file is not None:
                    boards.shown(game, message_id, state)
                else:
                    boards.request(game, message_id, state)
                if not found:
                    return SHOWN
                game.row = replace(game.row, turn_message_id=message_id, turn_message_turn=turn)
                return Done(found)
        user = game.waiting_on()
        ping = not repost and user is not None  # a turn is pinged once: not when reposted
        ping = ping and user is not None and pings_in_channel(await self.notifier.prefs(user))
        allowed = self.announcer.allowed(game) if ping else mentions([])
        extra: dict[str, Any] = {"view": panel, "allowed_mentions": allowed}
        file = None if game.id in self._plain else await self.announcer.pictures.board_file(game)
        if file is not None:
            extra["file"] = file
        plain = f"{content}\n{text('turn.minimal', row.locale)}"[:2000]
        try:
            if game.id in self._plain:
                raise PlainOnly()
            message = await self._post(d, channel, content, False, what=key, **extra)
            self.announcer.boards.shown(game, message.id, state)
        except (discord.HTTPException, PlainOnly) as e:
            if isinstance(e, discord.HTTPException):
                if not is_rejected(e):
                    raise
                # Discord will never take this body: the turn is told as text from now on
                # (nothing it rejects is sent again), the host told.
                log.error(
                    "game %d: Discord rejected its turn message: %s; sent as text (no board,"
                    " no panel) from now on",
                    game.id,
                    judge(e),
                )
                self.text_only(game.id)
                await self.tell_host(row, "rejected", "delivery.rejected", rejected_params(e))
            message = await self._post(
                d,
                channel,
                plain,
                True,
                what=f"{key}x",
                allowed_mentions=allowed,
                matches=lambda m: _shows_turn(m, game.id, turn, plain.split("\n", 1)[0]),
            )
        if repost and row.turn_message_id is not None and row.turn_message_id != message.id:
            await self._moved(row, row.turn_message_id, message.id)
        game.row = replace(game.row, turn_message_id=message.id, turn_message_turn=turn)
        return Done({"turn_message_id": message.id, "turn_message_turn": turn})

    async def _moved(self, row: GameRow, old: int, new: int) -> None:
        """The former turn message points to the new one (``/af panel``): not worth a retry."""
        link = jump_url(row.guild_id, row.channel_id, new)
        moved = text("panel.moved", row.locale, {"link": link})
        try:
            await (
                self.channel(row)
                .get_partial_message(old)
                .edit(content=moved, view=None, allowed_mentions=mentions([]))
            )
        except CALL_FAULTS as e:
            log.warning("game %d: old turn message %d not edited: %s", row.id, old, judge(e))

    async def _close(self, d: Delivery, reply: Reply | None, check: bool) -> Done:
        """A turn that ended: its message with its final lines and no panel (and the board
        as the turn left it); posted if the turn never had a message, or it was deleted."""
        p = d.payload
        row = await self.service.committed_row(d.game_id)
        if row is None:
            return Done()
        seats = await self.service.seats_of(row.id)
        names = [describe.chat_name(s.name) for s in seats]
        events = await self.turn_events(row.id, int(p["to"]), bool(p.get("last")))
        start = next((e for e in events if e.key == "turn_started"), None)
        seat = int(p["seat"])
        header = turn_header(
            p.get("timeout"),
            0 <= seat < len(seats) and seats[seat].is_ai,
            row.locale,
            round=start.params.get("round", "?") if start is not None else "?",
            name=describe.seat_name(seat, names),
            member=p.get("member"),
        )
        closing = self.render(p.get("closing"), row.locale, row)
        spoken = await self.spoken(seats)
        turn = int(p["turn"])
        game, last = await self.ended_board(d, row, seats, spoken)
        # In screen-reader mode the scores are said after this turn, if they changed.
        said = self.announcer.said_scores
        scores = said(row.id, view(last), names, row.locale) if spoken and last else ""
        room = 2000 - len(header) - len(closing) - len(scores) - 3
        lines = event_lines(events, row.locale, names, room, spoken)
        parts = [header, *lines, *[closing] * bool(closing), *[scores] * bool(scores)]
        content = _said("\n".join(parts), row.locale, spoken, names)
        if row.turn_message_turn == turn and row.turn_message_id is not None:
            message_id = row.turn_message_id
            try:
                await self._edit(row, message_id, reply, content, PanelView(), None)
            except discord.NotFound as e:
                if not is_gone(e):
                    raise
            else:
                if game is not None and last is not None:
                    self.announcer.boards.request(game, message_id, last)
                    game.turn_ends.pop(turn, None)
                if not spoken or not await self.service.readers.others_on(seats, seat):
                    return SHOWN
                # Its lines were edited in, which a screen reader does not read aloud: the
                # others who listen hear the turn once more, whole, as a new message.
                await self._post(
                    d, self.channel(row), content, check, allowed_mentions=mentions([])
                )
                self.heard_scores(row.id, last if scores else None)
                return Done()
        kwargs: dict[str, Any] = {}
        file = None
        if spoken and game is not None and last is not None:
            # An AI's turn posted whole when it ended (``told_when_done``): its picture is
            # the board as the turn left it.
            file = await self.announcer.pictures.board_file(game, last)
            if file is not None:
                kwargs["file"] = file
        message = await self._post(
            d, self.channel(row), content, check, allowed_mentions=mentions([]), **kwargs
        )
        if game is not None and last is not None:
            game.turn_ends.pop(turn, None)
            if file is not None:
                self.announcer.boards.shown(game, message.id, last)
        self.heard_scores(row.id, last if scores else None)
        return Done()

    def heard_scores(self, game_id: int, board: GameState | None) -> None:
        """The scores of ``board`` were said in the game's channel (None: none were)."""
        if board is not None:
            self.announcer.scores_said[game_id] = tuple(p.vp for p in view(board).players)

    async def ended_board(
        self, d: Delivery, row: GameRow, seats: Sequence[SeatRow], spoken: bool
    ) -> tuple[ActiveGame | None, GameState | None]:
        """The game and the board as the turn of close delivery ``d`` left it: kept by the
        held game when the turn ended (a restart loses it), or the final board of a game
        that ended in it."""
        game = self.service.held(row.id)
        last = game.turn_ends.get(int(d.payload["turn"])) if game is not None else None
        if game is None and d.payload.get("last"):
            game, last = await self.final_board(row, seats, spoken)
        return game, last

    async def turn_events(self, game_id: int, to: int, last: bool) -> list[Event]:
        """The events of the turn that ended within the log's first ``to`` actions: the
        last turn in them (``last``), else the one before the next turn's start. Read
        backwards from ``to`` until the turn's start is found."""
        wanted = 1 if last else 2
        count = 64
        while True:
            low = max(0, to - count)
            rows = await self.service.logged(game_id, low, to)
            events = [_event(e) for row in rows for e in row.events]
            starts = sum(1 for e in events if e.key == "turn_started")
            if starts >= wanted or low == 0:
                break
            count *= 4
        segments: list[list[Event]] = [[]]
        for e in events:
            if e.key == "turn_started":
                segments.append([])
            segments[-1].append(e)
        return segments[-wanted] if len(segments) >= wanted else []

    async def final_board(
        self, row: GameRow, seats: Sequence[SeatRow], spoken: bool
    ) -> tuple[ActiveGame | None, GameState | None]:
        """The game that ended (no longer held) and its final board, for the picture of
        its last turn's message."""
        state = await self.service.board_at_end(row.id)
        if state is None:
            return None, None
        return ActiveGame(row, list(seats), spoken=spoken), state


class PlainOnly(Exception):
    """The game's messages go as text (Discord rejected them): no other form is tried."""


def _shows_turn(message: discord.Message, game_id: int, turn: int, header: str) -> bool:
    """Whether a message of the bot is that turn's message: its board, or (sent as text)
    its first line."""
    if any(a.filename == board_name(game_id, turn) for a in message.attachments):
        return True
    return not message.attachments and message.content.split("\n", 1)[0] == header

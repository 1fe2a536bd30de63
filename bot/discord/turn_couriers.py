"""The couriers of a turn's message (``turn``: the turn in play, edited or posted with its
ping, sent as text once Discord rejects it, posted again by ``/af panel``) and of a turn
that ended (``close``: its final lines, no panel, the board as the turn left it).
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.discord.announce import Announcer, mentions
from bot.discord.board_edits import BoardEdits
from bot.discord.components import PanelView
from bot.discord.failures import CALL_FAULTS, is_gone, is_rejected, judge
from bot.discord.messenger import SHOWN, Delivered, Messenger, Reply, rejected_params
from bot.discord.notify import Notifier
from bot.discord.pictures import Pictures, board_name
from bot.discord.replies import jump_url
from bot.play.notify_modes import pings_in_channel
from bot.play.turn_view import TurnViews
from bot.store.rows import Delivery, GameRow
from bot.text.strings import text
from bot.text.turn_message import closed_turn_message, turn_first_line
from engine import GameView

log = logging.getLogger(__name__)


class TurnCourier:
    """The turn message (``turn``), and a turn's message closed (``close``): handed the
    messenger, the turn views (what a turn's message shows, read once), the announcer
    (its words and panel), the notifier (whether the member to act is pinged), the
    pictures (the board) and the live board's edits."""

    def __init__(
        self,
        messenger: Messenger,
        *,
        turns: TurnViews,
        announcer: Announcer,
        notifier: Notifier,
        pictures: Pictures,
        boards: BoardEdits,
    ) -> None:
        self.messenger = messenger
        self.turns = turns
        self.announcer = announcer  # the turn message's words and panel
        self.notifier = notifier
        self.pictures = pictures  # the board's picture
        self.boards = boards  # the live board's edits

    async def turn(self, d: Delivery, reply: Reply | None, check: bool) -> Delivered:
        """The message of the turn in play, as the game is now: edited (with its picture
        when it may change now), or posted with its ping if the turn has none (or its
        message was deleted); ``repost``: posted again at the bottom of the channel (``/af
        panel``), the old one pointing to it. Rejected by Discord: sent as text. What it
        shows is the turn's view (``bot.play.turn_view``), read once."""
        repost = bool(d.payload.get("repost"))
        view = await self.turns.turn_view(
            int(d.game_id or 0), d.payload.get("turn"), posting=repost
        )
        if view is None:
            return SHOWN  # over or ended, or a later turn: their own deliveries show it
        game, row, state, turn = view.game, view.row, view.board, view.turn
        message_id = row.turn_message_id if row.turn_message_turn == turn and not repost else None
        if message_id is None and not repost and view.told_when_done:
            return SHOWN  # an AI's turn for a screen reader: posted whole when it is done
        content = self.announcer.turn_text(view)
        note = self.messenger.render(d.payload.get("note"), row.locale, row)
        if note:
            content = f"{content}\n{note}"[:2000]
        panel = self.announcer.turn_panel(view)
        key = f"{game.id}t{turn}" + (f"r{d.id}" if repost else "")  # one message per turn
        channel = self.messenger.channel(row)
        found: dict[str, Any] = {}
        if message_id is None and check:
            header = content.split("\n", 1)[0]
            old = row.turn_message_id  # a repost's message is another than the one it moves
            made = await self.messenger.find(
                channel,
                lambda m: m.id != old and _shows_turn(m, game.id, turn, header),
                d.created_at,
            )
            if made is not None:  # posted before, not recorded: it is the turn's message
                log.info("game %d: turn %d's message %d found posted", game.id, turn, made.id)
                message_id = made.id
                found = {"turn_message_id": made.id, "turn_message_turn": turn}
        if message_id is not None:
            boards = self.boards
            file = await boards.file_now(game, message_id, state, view.board_names)
            try:
                await self.messenger.edit(row, message_id, reply, content, panel, file)
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
                self.turns.message_shown(game, message_id, turn)
                return Delivered(found)
        user = view.member
        ping = not repost and user is not None  # a turn is pinged once: not when reposted
        if ping and user is not None:
            prefs = view.prefs if view.prefs is not None else await self.notifier.prefs(user)
            ping = pings_in_channel(prefs)
        allowed = self.announcer.allowed(view) if ping else mentions([])
        extra: dict[str, Any] = {"view": panel, "allowed_mentions": allowed}
        pictures = self.pictures
        file = None
        if not self.messenger.as_text(game.id):
            file = await pictures.board_file(game, names=view.board_names)
        if file is not None:
            extra["file"] = file
        plain = f"{content}\n{text('turn.minimal', row.locale)}"[:2000]
        try:
            if self.messenger.as_text(game.id):
                raise PlainOnly()
            message = await self.messenger.post(d, channel, content, False, what=key, **extra)
            self.boards.shown(game, message.id, state)
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
                self.messenger.text_only(game.id)
                await self.messenger.tell_host(
                    row, "rejected", "delivery.rejected", rejected_params(e)
                )
            message = await self.messenger.post(
                d,
                channel,
                plain,
                True,
                what=f"{key}x",
                allowed_mentions=allowed,
                matches=lambda m: _shows_turn(m, game.id, turn, plain.split("\n", 1)[0]),
            )
        if repost and row.turn_message_id is not None and row.turn_message_id != message.id:
            await self.moved(row, row.turn_message_id, message.id)
        self.turns.message_shown(game, message.id, turn)
        return Delivered({"turn_message_id": message.id, "turn_message_turn": turn})

    async def moved(self, row: GameRow, old: int, new: int) -> None:
        """The former turn message points to the new one (``/af panel``): not worth a retry."""
        link = jump_url(row.guild_id, row.channel_id, new)
        moved = text("panel.moved", row.locale, {"link": link})
        try:
            await (
                self.messenger.channel(row)
                .get_partial_message(old)
                .edit(content=moved, view=None, allowed_mentions=mentions([]))
            )
        except CALL_FAULTS as e:
            log.warning("game %d: old turn message %d not edited: %s", row.id, old, judge(e))

    async def close(self, d: Delivery, reply: Reply | None, check: bool) -> Delivered:
        """A turn that ended: its message with its final lines and no panel (and the board
        as the turn left it); posted if the turn never had a message, or it was deleted.
        A message the row does not record may still have been posted (``check``: before a
        restart, or by a turn delivery dropped for a later one): it is looked for (its
        board, or its first line) and closed. What it shows is the closed turn's view
        (``bot.play.turn_view``), read once."""
        p = d.payload
        turn, seat = int(p["turn"]), int(p["seat"])
        closed = await self.turns.closed_turn(
            d.game_id, turn, seat, int(p["to"]), bool(p.get("last"))
        )
        if closed is None:
            return Delivered()
        row, names, spoken = closed.row, closed.names, closed.spoken
        closing = self.messenger.render(p.get("closing"), row.locale, row)
        game, last, seen = closed.game, closed.last, closed.last_view
        # In screen-reader mode the scores are said after this turn, if they changed.
        said = self.announcer.said_scores
        scores = said(row.id, seen, names, row.locale) if spoken and seen is not None else ""
        content = closed_turn_message(
            closed.events,
            timeout=p.get("timeout"),
            ai=closed.ai,
            seat=seat,
            member=p.get("member"),
            names=names,
            locale=row.locale,
            closing=closing,
            scores=scores,
            spoken=spoken,
        )
        message_id = row.turn_message_id if row.turn_message_turn == turn else None
        if message_id is None and check:
            # Its turn's message may have been posted and not recorded (before a restart,
            # or by a delivery a later one took the place of): found, it is closed, not
            # posted again beside it; so is this close's own post, made before.
            heads = {
                _first_line(content),
                turn_first_line(
                    closed.events,
                    ai=closed.ai,
                    seat=seat,
                    names=names,
                    locale=row.locale,
                    spoken=spoken,
                ),
            }
            made = await self.messenger.find(
                self.messenger.channel(row),
                lambda m: _closes_turn(m, row.id, turn, heads),
                d.created_at,
            )
            if made is not None:
                log.info("game %d: turn %d's message %d found posted", row.id, turn, made.id)
                message_id = made.id
        if message_id is not None:
            try:
                await self.messenger.edit(row, message_id, reply, content, PanelView(), None)
            except discord.NotFound as e:
                if not is_gone(e):
                    raise
            else:
                if game is not None and last is not None:
                    self.boards.request(game, message_id, last)
                    self.turns.closed_shown(game, turn)
                if not spoken or not closed.others_listen:
                    return SHOWN
                # Its lines were edited in, which a screen reader does not read aloud: the
                # others who listen hear the turn once more, whole, as a new message.
                await self.messenger.post(
                    d, self.messenger.channel(row), content, check, allowed_mentions=mentions([])
                )
                self.heard_scores(row.id, seen if scores else None)
                return Delivered()
        kwargs: dict[str, Any] = {}
        file = None
        if spoken and game is not None and last is not None:
            # An AI's turn posted whole when it ended (``told_when_done``): its picture is
            # the board as the turn left it.
            file = await self.pictures.board_file(game, last)
            if file is not None:
                kwargs["file"] = file
        # Looked for above (its own post too) when the row had no message of the turn.
        again = check and message_id is not None
        message = await self.messenger.post(
            d, self.messenger.channel(row), content, again, allowed_mentions=mentions([]), **kwargs
        )
        if game is not None and last is not None:
            self.turns.closed_shown(game, turn)
            if file is not None:
                self.boards.shown(game, message.id, last)
        self.heard_scores(row.id, seen if scores else None)
        return Delivered()

    def heard_scores(self, game_id: int, seen: GameView | None) -> None:
        """The scores of a board (its view) were said in the game's channel (None: none
        were)."""
        if seen is not None:
            self.announcer.scores_heard(game_id, seen)


class PlainOnly(Exception):
    """The game's messages go as text (Discord rejected them): no other form is tried."""


def _shows_turn(message: discord.Message, game_id: int, turn: int, header: str) -> bool:
    """Whether a message of the bot is that turn's message: its board, or (sent as text)
    its first line."""
    if any(a.filename == board_name(game_id, turn) for a in message.attachments):
        return True
    return not message.attachments and message.content.split("\n", 1)[0] == header


def _closes_turn(message: discord.Message, game_id: int, turn: int, heads: set[str]) -> bool:
    """Whether a message of the bot is that turn's message, or its close posted: its board,
    or (text alone) its first line, whoever it pinged."""
    if any(a.filename == board_name(game_id, turn) for a in message.attachments):
        return True
    return not message.attachments and _first_line(message.content) in heads


def _first_line(content: str) -> str:
    """A message's first line, its pings left out."""
    return _PING.sub("", content.split("\n", 1)[0]).strip()


_PING = re.compile(r"<@!?\d+>")

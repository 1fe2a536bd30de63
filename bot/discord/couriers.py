"""How each kind of delivery (``bot.play.outbox``) reaches Discord.

A courier renders its delivery from the game as it is now (and from the logged actions,
for a turn that ended) and makes the REST calls. It returns what the delivery made
(``Done``: a message's id, recorded when the delivery is removed, in one transaction)
or raises: ``bot.discord.delivery`` judges the error (``bot.discord.failures``) and tries
again later.

Every courier can be run again safely:

- a post carries a nonce that Discord enforces (``af``, the delivery's id and kind): a
  retry within minutes of an attempt whose answer was lost returns the message posted
  the first time;
- past those minutes (a restart, another process taking the lane over, a long wait),
  Discord forgets the nonce: a delivery that may have been made is first looked for among
  the messages posted since it was queued, however many members posted meanwhile
  (``check``: the turn's board, or the same text, from the bot; ``find``, up to
  ``LOOK_BACK`` of them) and recorded if found, never made twice; so is an answer through
  an interaction that failed without saying whether it was taken (interaction answers
  carry no nonce);
- the turn message is posted only if the stored game has none for the turn (it is
  recorded with the delivery's removal), else edited: never two for one turn;
- a turn's DM is sent only if the game's ``notified_turn`` says it was not;
- a message that was deleted (404 Unknown Message) is posted again.

What is shown is the game as committed: the game in memory never runs ahead of the
database (``GameService`` plays a move on a copy and takes it once committed).

When Discord rejects a turn message (a 400: a body it will never take), one ERROR line
names the route and the rejected field, and the turn message is sent as text (no board,
no panel: the player to act is still told and pinged, and plays with ``/play``); the
game's host is told once. An edit in an archived thread (50083) reopens the thread and
edits again: a play-by-post game in a thread does not stall when the thread goes to sleep.

When the deliveries of a member's command or click are delivered at once, their
interaction (``Reply``) carries one of them: the edit of the message clicked on, or the
answer to the command. If the interaction cannot be used (expired, answered, a fault),
the courier goes on through the channel in the same attempt.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

import discord

from bot.discord.announce import Announcer, board_name, event_lines, mentions, turn_header
from bot.discord.components import PanelView, RematchButton
from bot.discord.failures import (
    CALL_FAULTS,
    is_archived,
    is_expired,
    is_gone,
    is_rejected,
    judge,
    maybe_made,
)
from bot.discord.notify import Notifier, pings_in_channel, wants_dm
from bot.discord.replies import jump_url, locale_of
from bot.play.game_messages import lobby_text
from bot.play.games import ActiveGame
from bot.play.readers import told_when_done
from bot.play.service import GameService, ServiceRef
from bot.play.turn_clock import settings_text
from bot.store.clock_settings import ClockSettings
from bot.store.rows import Delivery, GameRow, SeatRow
from bot.store.storage import Storage
from bot.text import describe
from bot.text.catchup import board_then, catch_up_text, changes
from bot.text.durations import duration_text, hours_text
from bot.text.rating_text import over_ratings_text
from bot.text.spoken import named_once, plain
from bot.text.strings import text
from engine.scoring import outcome, score_parts
from engine.serialize import loads
from engine.state import Event, GameState
from engine.view import view

log = logging.getLogger(__name__)

# Events of the game's start shown in its first message.
START_EVENTS = ("dealt", "first_player", "compensation")
# A delivery that may have been made already is looked for among the messages posted since
# it was queued (less a minute: the bot's clock and Discord's may differ), oldest first, a
# page of 100 at a time, up to this many: past them (a channel that talked that much
# between the delivery's queueing and its post), it is posted again, with a WARNING.
LOOK_BACK = 500
CLOCK_SKEW = 60.0
KIND_MARK = {"turn": "t", "close": "c", "notify": "n", "notice": "o", "dm": "d", "over": "g"}


@dataclass(frozen=True, slots=True)
class Done:
    """What a delivery made: columns of the game's row to set (a message's id) and
    deliveries to queue instead of it (a DM refused becomes a notice in the channel), both
    in the transaction that removes it."""

    fields: Mapping[str, Any] = field(default_factory=dict)
    then: Sequence[Delivery] = ()
    # Doing it again would make nothing new (an edit, or nothing to do): its removal may
    # wait and go with the game's next commit (``bot.discord.delivery``), sparing a write.
    again_harmless: bool = False


SHOWN = Done(again_harmless=True)  # edited, or nothing to do: made again, the same


def nonce(delivery: Delivery, what: str = "") -> str:
    """A post's idempotency key: Discord returns the first message for a repeated one (for a
    few minutes). Made of the delivery's id and kind (a refused DM's notice takes the DM's
    place in the lane, with its id), or of ``what`` the post is when several deliveries may
    post it (a turn's message: the earlier delivery that tried may have posted it without
    knowing, before a later one took its place)."""
    mark = KIND_MARK.get(delivery.kind, delivery.kind[:1])
    return f"af{what or f'{delivery.id}{mark}'}"[:25]


def same_text(content: str) -> str:
    """What a post is recognised by: its text (a delivery renders the same text again)."""
    return content.strip()[:2000]


class Reply:
    """The interaction of the member whose command or click caused the deliveries being
    delivered at once: its answer carries one of them, if it can still be answered."""

    def __init__(self, interaction: discord.Interaction[Any]) -> None:
        self.interaction = interaction
        self.usable = True
        # An answer failed without saying whether Discord took it: look before posting.
        self.unsure = False

    def open(self) -> bool:
        """Whether the interaction can still be answered with a message."""
        return self.usable and not self.interaction.response.is_done()

    def on(self, message_id: int) -> bool:
        """Whether the interaction is a click on ``message_id`` that can still edit it."""
        message = self.interaction.message
        return self.usable and message is not None and message.id == message_id

    def lost(self, error: BaseException) -> None:
        """The interaction failed: the rest goes through the channel (after looking whether
        the answer was taken after all, when the error does not say)."""
        self.usable = False
        self.unsure = self.unsure or maybe_made(error)
        how = "expired or answered" if is_expired(error) else "failed"
        log.warning("interaction %d %s (%s); going on without it", self.interaction.id, how, error)

    async def answer(self, content: str, allowed: discord.AllowedMentions) -> int | None:
        """Answer with a public message; its id (None if Discord did not say)."""
        callback = await self.interaction.response.send_message(
            content[:2000], allowed_mentions=allowed
        )
        return callback.message_id if callback is not None else None

    async def edit(self, **changes: Any) -> None:
        """Edit the message the member clicked on (the answer to the click, or after a
        deferral, its original message)."""
        if not self.interaction.response.is_done():
            await self.interaction.response.edit_message(**changes)
        else:
            await self.interaction.edit_original_response(**changes)

    async def finish(self) -> None:
        """Answer the interaction if nothing did: a click is acknowledged, a command gets a
        private "done" (also after a private deferral whose answer went to the channel)."""
        if not self.usable:
            return
        response = self.interaction.response
        done = text("done", locale_of(self.interaction))
        try:
            if not response.is_done():
                if self.interaction.type is discord.InteractionType.component:
                    await response.defer()
                else:
                    await response.send_message(done, ephemeral=True)
            elif response.type is discord.InteractionResponseType.deferred_channel_message:
                await self.interaction.followup.send(done, ephemeral=True)
        except CALL_FAULTS as e:
            self.lost(e)


class Couriers:
    """Delivers each kind of delivery (``deliver``); see the module docstring."""

    def __init__(
        self,
        client: discord.Client,
        service: ServiceRef,
        announcer: Announcer,
        notifier: Notifier,
    ) -> None:
        self.client = client
        self._service = service
        self.announcer = announcer
        self.notifier = notifier
        # Games whose messages Discord rejected: shown as text from then on (until a
        # restart tries again once), so nothing Discord rejects is sent again.
        self._plain: set[int] = set()

    @property
    def service(self) -> GameService:
        return self._service()

    def text_only(self, game_id: int) -> None:
        """The game's messages are sent as text from now on: no picture, no panel."""
        self._plain.add(game_id)
        self.announcer.boards.rejected.add(game_id)

    @property
    def store(self) -> Storage:
        return self._service().store

    async def deliver(
        self, delivery: Delivery, reply: Reply | None = None, *, check: bool = False
    ) -> Done:
        """Make ``delivery``; ``check``: it may have been made already (by this process
        before a restart, or by another): look for it first, past Discord's nonce."""
        courier = getattr(self, f"_{delivery.kind}", None)
        if courier is None:
            raise ValueError(f"no courier for deliveries of kind {delivery.kind!r}")
        done: Done = await courier(delivery, reply, check)
        return done

    async def find(
        self,
        channel: discord.abc.Messageable,
        matches: Callable[[discord.Message], bool],
        since: float,
    ) -> discord.Message | None:
        """The bot's message that ``matches`` among those posted after ``since`` (a
        delivery's queueing, give or take a minute of clocks), however many members posted
        since, if any: up to ``LOOK_BACK`` messages are read, oldest first; past them it is
        not found (logged: better twice than never). A history Discord fails to give (a
        5xx, a reset) fails the attempt, tried again later; one the bot may not read (no
        Read Message History) is None: the post goes ahead (better twice than never)."""
        me = self.client.user
        where = getattr(channel, "id", "?")
        read = 0
        try:
            async for message in channel.history(
                limit=LOOK_BACK + 1, after=_posted_after(since), oldest_first=True
            ):
                read += 1
                if read > LOOK_BACK:
                    log.warning(
                        "channel %s: not found among the %d messages posted since %.0f;"
                        " posting it (perhaps again)",
                        where,
                        LOOK_BACK,
                        since,
                    )
                    break
                if (me is None or message.author.id == me.id) and matches(message):
                    return message
        except discord.Forbidden as e:
            log.warning("channel %s: history not readable (%s); posting", where, judge(e))
        return None

    async def _post(
        self,
        d: Delivery,
        channel: discord.abc.Messageable,
        content: str,
        check: bool,
        *,
        what: str = "",
        matches: Callable[[discord.Message], bool] | None = None,
        **kwargs: Any,
    ) -> discord.Message:
        """Post ``content`` with the delivery's nonce, unless ``check`` finds it posted
        already (by default: the bot's message with the same text)."""
        if check:
            text_start = same_text(content)
            found = await self.find(
                channel, matches or (lambda m: same_text(m.content) == text_start), d.created_at
            )
            if found is not None:
                log.info(
                    "delivery %d (%s): found made already (message %d)", d.id, d.kind, found.id
                )
                return found
        return await channel.send(content[:2000], nonce=nonce(d, what), **kwargs)

    async def _say(
        self,
        d: Delivery,
        row_channel: discord.abc.Messageable,
        content: str,
        allowed: discord.AllowedMentions,
        reply: Reply | None,
        check: bool,
    ) -> int | None:
        """Say ``content`` in the channel: as the answer to the member's command when the
        delivery asks it and the interaction can still be answered, else as a post; the
        message's id (None if Discord did not say)."""
        if d.payload.get("reply") and reply is not None and reply.open():
            try:
                return await reply.answer(content, allowed)
            except discord.InteractionResponded:
                pass  # deferred meanwhile (bot.discord.answering): posted, then "done"
            except CALL_FAULTS as e:
                reply.lost(e)
        unsure = check or (reply is not None and reply.unsure)
        message = await self._post(d, row_channel, content, unsure, allowed_mentions=allowed)
        return message.id

    # ---- the turn message -------------------------------------------------------------

    async def _turn(self, d: Delivery, reply: Reply | None, check: bool) -> Done:
        """The message of the turn in play, as the game is now: edited (with its picture
        when it may change now), or posted with its ping if the turn has none (or its
        message was deleted); ``repost``: posted again at the bottom of the channel (``/af
        panel``), the old one pointing to it. Rejected by Discord: sent as text."""
        game = await self.service.as_committed(int(d.game_id or 0))
        if game is None or game.game is None or game.row.status != "playing":
            return SHOWN  # over or ended: their own deliveries show it
        state = game.state
        turn = state.turn_number
        if turn != d.payload.get("turn", turn):
            return SHOWN  # a later turn: its own delivery shows it
        row = await self.store.game(game.id)  # which message shows the turn, as committed
        if row is None:
            return SHOWN
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
        file = None if game.id in self._plain else await self.announcer.board_file(game)
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

    async def tell_host(
        self, row: GameRow, problem: str, key: str, params: Mapping[str, Any]
    ) -> None:
        """Tell the game's host of ``problem`` by DM, once (remembered in the database)."""
        now = self.service.clock()
        dm = Delivery(
            "dm",
            row.id,
            -row.host_id,  # a lane of its own
            row.guild_id,
            {"key": key, "params": dict(params), "user": row.host_id, "always": True},
            created_at=now,
            due_at=now,
        )
        try:
            if await self.store.tell_host(row.id, problem, now, [dm]):
                self.service.on_queued(-row.host_id)
        except Exception as e:
            log.warning("game %d: its host not told of %s: %s", row.id, problem, judge(e))

    async def _close(self, d: Delivery, reply: Reply | None, check: bool) -> Done:
        """A turn that ended: its message with its final lines and no panel (and the board
        as the turn left it); posted if the turn never had a message, or it was deleted."""
        p = d.payload
        row = await self.store.game(int(d.game_id or 0))
        if row is None:
            return Done()
        seats = await self.store.seats(row.id)
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
            file = await self.announcer.board_file(game, last)
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
            rows = await self.store.actions_between(game_id, low, to)
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

    # ---- telling members ---------------------------------------------------------------

    async def _notify(self, d: Delivery, reply: Reply | None, check: bool) -> Done:
        """Tell the member to act by DM that their turn began (if they chose DMs), with what
        happened since their last turn; if their DMs are closed and they chose DMs only,
        ping them in the channel instead (a notice queued in its place)."""
        turn, user = int(d.payload["turn"]), int(d.payload["user"])
        row = await self.store.game(int(d.game_id or 0))
        if row is None or row.status != "playing" or row.notified_turn == turn:
            return Done()
        game = await self.service.as_committed(row.id)
        if game is None or game.game is None or game.state.turn_number != turn:
            return Done()  # the turn is over: a later turn tells its own member
        seat = game.to_act()
        if seat is None or game.waiting_on() != user:
            return Done()
        notified = {"notified_turn": turn}
        prefs = await self.notifier.prefs(user)
        if not wants_dm(prefs):
            return Done(notified)
        locale = prefs.locale or row.locale
        link = _turn_link(row)
        parts = [text("notify.your_turn", locale, {"where": self.where(row), "link": link})]
        rows = await self.store.actions_since(game.id, seat)
        then = board_then(game.game.config, game.game.log, rows)
        changed = changes(then, game.state, seat, game.chat_names, locale)
        caught = catch_up_text(rows, seat, game.chat_names, locale, changed)
        if caught:
            parts.append(caught)
        spoken = await self.service.readers.is_on(user)
        content = _said("\n".join(parts), locale, spoken, game.chat_names)
        if check and await self._in_dms(user, content, d.created_at):
            return Done(notified)
        sent = await self.notifier.send_dm(user, content, nonce=nonce(d, f"{d.game_id}n{turn}"))
        if sent:
            return Done(notified)
        if prefs.notify != "dm":
            return Done(notified)  # "both": the turn message pinged them already
        fallback = outbox_notice(
            d, "notify.dm_failed", {"mention": f"<@{user}>"}, users=[user], link=True
        )
        return Done(notified, [fallback])

    async def _in_dms(self, user: int, content: str, since: float) -> bool:
        """Whether the bot's DMs to ``user`` already hold this text (a DM made, not recorded)."""
        prefs = await self.notifier.prefs(user)
        if prefs.dm_channel_id is None:
            return False
        start = same_text(content)
        channel = self.client.get_partial_messageable(prefs.dm_channel_id)
        found = await self.find(channel, lambda m: same_text(m.content) == start, since)
        return found is not None

    async def _dm(self, d: Delivery, reply: Reply | None, check: bool) -> Done:
        """A direct message about a game (a reminder, a notice to its host), in the member's
        language; if their DMs are closed, its fallback notice in the channel instead."""
        p = d.payload
        user = int(p["user"])
        row = await self.store.game(d.game_id) if d.game_id is not None else None
        fallback = p.get("fallback")
        then = [replace(d, kind="notice", payload=fallback, id=0)] if fallback else []
        prefs = await self.notifier.prefs(user)
        if row is None or (not p.get("always") and not wants_dm(prefs)):
            return Done(then=then)
        locale = prefs.locale or row.locale
        content = self.render(p, locale, row)
        if not p.get("plain"):
            content = f"{content}\n{text('notify.in_game', locale, {'where': self.where(row)})}"
        if check and await self._in_dms(user, content, d.created_at):
            return Done()
        if await self.notifier.send_dm(user, content, nonce=nonce(d)):
            return Done()
        return Done(then=then)

    async def _notice(self, d: Delivery, reply: Reply | None, check: bool) -> Done:
        """A line in the game's channel (the answer to the member's command, if it can be);
        a server's announcement (no game) in its own language."""
        row = await self.store.game(d.game_id) if d.game_id is not None else None
        if row is None and d.game_id is not None:
            return Done()
        locale = str(d.payload.get("locale") or (row.locale if row is not None else "en"))
        content = self.render(d.payload, locale, row)
        if row is not None:
            content = _said(content, locale, await self.spoken(row.id))
        allowed = mentions([int(u) for u in d.payload.get("users", [])])
        channel = self.client.get_partial_messageable(d.channel_id, guild_id=d.guild_id)
        await self._say(d, channel, content[:2000], allowed, reply, check)
        return Done()

    # ---- the game's other messages -----------------------------------------------------

    async def _over(self, d: Delivery, reply: Reply | None, check: bool) -> Done:
        """The final message: it pings the game's members, shows each player's VP part by
        part, the winner and the tie-break, the rounds played, the game's length and each
        member's new rating, with the final board, the chart of the VP by round and a
        Rematch button."""
        row = await self.store.game(int(d.game_id or 0))
        snapshot = await self.store.snapshot(row.id) if row is not None else None
        if row is None or snapshot is None:
            return Done()
        seats = await self.store.seats(row.id)
        state = loads(snapshot[1])
        result = outcome(state)
        if result is None:
            return Done()
        locale = row.locale
        # Each seat named by who played it (the record's name: an AI seat by the level that
        # played most of it), a member by their mention, which no seat's name can pass
        # for; pinged: the members holding a seat at the end (not one removed from it).
        recorded = {r.seat: r.name for r in await self.store.results(row.id)}
        names = [
            f"<@{s.user_id}>"
            if s.user_id is not None
            else describe.chat_name(recorded.get(s.seat, s.name))
            for s in seats
        ]
        members = [s.user_id for s in seats if s.user_id is not None]
        parts = [score_parts(state, p) for p in range(state.num_players)]
        actions = await self.store.last_actions(row.id, 1)
        first = await self.store.first_action_time(row.id)
        length = (actions[-1].created_at if actions else 0.0) - (first or 0.0)
        lines = [
            text("over.header", locale, {"mentions": " ".join(f"<@{u}>" for u in members)}),
            describe.outcome_text(result, names, locale, parts),
        ]
        rated = await self.store.rating_changes(row.id)
        if rated:
            lines.append(over_ratings_text(rated, locale))
        lines.append(
            text(
                "over.length",
                locale,
                {"rounds": state.round, "duration": duration_text(length, locale)},
            )
        )
        view = PanelView()
        if row.config.tutorial:  # a guided game ends with where to go next, no rematch
            lines.append(text("learning.over", locale))
        else:
            view.add_item(RematchButton(row.id, text("over.rematch", locale)))
        over = ActiveGame(row, seats, spoken=await self.spoken(seats))
        content = _said("\n".join(lines), locale, over.spoken)
        channel = self.channel(row)
        if check:
            start = same_text(content)
            made = await self.find(channel, lambda m: same_text(m.content) == start, d.created_at)
            if made is not None:
                return Done()
        kwargs: dict[str, Any] = {"view": view, "allowed_mentions": mentions(members)}
        notations = [a.notation for a in await self.store.actions(row.id)]
        files = [
            f
            for f in (
                await self.announcer.board_file(over, state),
                await self.announcer.story_file(row, [s.name for s in seats], notations),
            )
            if f is not None
        ]
        if files:
            kwargs["files"] = files
        await channel.send(content, nonce=nonce(d), **kwargs)
        return Done()

    async def _lobby(self, d: Delivery, reply: Reply | None, check: bool) -> Done:
        """The lobby message as the lobby is now: edited, or posted (as the answer to the
        command that opened it, if it can be) with its id recorded."""
        p = d.payload
        row = await self.store.game(int(d.game_id or 0))
        if row is None:
            return Done()
        lobby = ActiveGame(row, await self.store.seats(row.id))
        content = lobby_text(lobby, self.render(p.get("closing"), row.locale, row) or None)
        extra = self.render(p.get("extra"), row.locale, row)
        if extra:
            content = f"{content}\n{extra}"
        content = _said(content, row.locale, await self.spoken(lobby.seats))
        if row.lobby_message_id is not None:
            try:
                partial = self.channel(row).get_partial_message(row.lobby_message_id)
                await partial.edit(content=content, allowed_mentions=mentions([]))
                return Done()
            except discord.NotFound as e:
                if not is_gone(e):
                    raise
        allowed = mentions([int(u) for u in p.get("users", [])])
        message_id = await self._say(d, self.channel(row), content, allowed, reply, check)
        return Done({"lobby_message_id": message_id}) if message_id is not None else Done()

    async def _started(self, d: Delivery, reply: Reply | None, check: bool) -> Done:
        """The game's first lines: it starts, the cards dealt, the first player."""
        row = await self.store.game(int(d.game_id or 0))
        if row is None:
            return Done()
        names = [describe.chat_name(s.name) for s in await self.store.seats(row.id)]
        rows = await self.store.actions_between(row.id, 0, int(d.payload["to"]))
        lines = [text("start.header", row.locale)]
        lines += [
            "• " + describe.event_line(e, row.locale, names)
            for e in (_event(data) for r in rows for data in r.events)
            if e.key in START_EVENTS
        ]
        content = _said("\n".join(lines), row.locale, await self.spoken(row.id), names)
        await self._say(d, self.channel(row), content, mentions([]), reply, check)
        return Done()

    # ---- helpers -----------------------------------------------------------------------

    async def spoken(self, seats: int | Sequence[SeatRow]) -> bool:
        """Whether a member sitting in the game (its id, or its seats) has screen-reader
        mode on: its messages are then written for a screen reader."""
        if isinstance(seats, int):
            seats = await self.store.seats(seats)
        members = [s.user_id if s.user_id is not None else s.former_user_id for s in seats]
        return await self.service.readers.any_on(members)

    async def final_board(
        self, row: GameRow, seats: Sequence[SeatRow], spoken: bool
    ) -> tuple[ActiveGame | None, GameState | None]:
        """The game that ended (no longer held) and its final board, for the picture of
        its last turn's message."""
        snapshot = await self.store.snapshot(row.id)
        if snapshot is None:
            return None, None
        return ActiveGame(row, list(seats), spoken=spoken), loads(snapshot[1])

    def channel(self, row: GameRow) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(row.channel_id, guild_id=row.guild_id)

    async def _edit(
        self,
        row: GameRow,
        message_id: int,
        reply: Reply | None,
        content: str,
        panel: PanelView,
        file: discord.File | None,
    ) -> None:
        """Edit a game's message: through the member's click when it is on that message,
        else (or if that fails) through the channel. In an archived thread, the thread is
        reopened and the edit made again; rejected by Discord, the edit is made again with
        the text alone (no panel, the picture as it was)."""
        changes: dict[str, Any] = {
            "content": content,
            "view": panel,
            "allowed_mentions": discord.AllowedMentions.none(),
        }
        if file is not None:
            changes["attachments"] = [file]
        if row.id in self._plain and (file is not None or panel.children):
            plain = f"{content}\n{text('turn.minimal', row.locale)}"[:2000]
            changes = {**changes, "content": plain, "view": None}
            changes.pop("attachments", None)
            file, panel = None, PanelView()
        if reply is not None and reply.on(message_id):
            try:
                await reply.edit(**changes)
                return
            except CALL_FAULTS as e:
                reply.lost(e)
                if file is not None:
                    file.reset()
        partial = self.channel(row).get_partial_message(message_id)
        try:
            await partial.edit(**changes)
        except discord.HTTPException as e:
            if is_archived(e):
                await self.reopen(row)
                if file is not None:
                    file.reset()
                await partial.edit(**changes)
            elif is_rejected(e) and (file is not None or panel.children):
                log.error(
                    "game %d: Discord rejected the edit of message %d: %s; edited as text from"
                    " now on",
                    row.id,
                    message_id,
                    judge(e),
                )
                self.text_only(row.id)
                await self.tell_host(row, "rejected", "delivery.rejected", rejected_params(e))
                plain = f"{content}\n{text('turn.minimal', row.locale)}"[:2000]
                await partial.edit(
                    content=plain, view=None, allowed_mentions=discord.AllowedMentions.none()
                )
            else:
                raise

    async def reopen(self, row: GameRow) -> None:
        """Wake the game's thread, archived for being quiet (Discord refuses edits there)."""
        log.info("game %d: its thread %d is archived; reopening it", row.id, row.channel_id)
        await self.client.http.edit_channel(row.channel_id, archived=False)

    def where(self, row: GameRow) -> str:
        """The game's channel (a link that opens it) and, when known, its server's name."""
        guild = self.client.get_guild(row.guild_id) if row.guild_id else None
        channel = f"<#{row.channel_id}>"
        return f"{channel} ({guild.name})" if guild is not None else channel

    def render(self, said: Any, locale: str, row: GameRow | None) -> str:
        """The text of a delivery (``bot.play.outbox.text_of``, or several as ``lines``) in
        ``locale``; its params may be texts themselves (a key, or a ``list`` of them), a
        clock's settings or hours; ``link`` adds the link to the turn message, ``where`` is
        the game's channel. "" for none."""
        if not isinstance(said, Mapping):
            return ""
        if "lines" in said:
            return "\n".join(self.render(line, locale, row) for line in said["lines"])
        key = said.get("key")
        if not isinstance(key, str):
            return ""
        params = {k: self._param(v, locale, row) for k, v in dict(said.get("params", {})).items()}
        if said.get("link") and row is not None:
            params["link"] = _turn_link(row)
        if row is not None:
            params.setdefault("where", self.where(row))
        return text(key, locale, params)

    def _param(self, value: Any, locale: str, row: GameRow | None) -> Any:
        if not isinstance(value, Mapping):
            return value
        if "list" in value:
            return ", ".join(self.render(item, locale, row) for item in value["list"])
        if "clock" in value:
            return settings_text(ClockSettings.from_json(str(value["clock"])), locale)
        if "hours" in value:
            return hours_text(float(value["hours"]), locale)
        return self.render(value, locale, row)


def _said(content: str, locale: str, spoken: bool, names: Sequence[str] = ()) -> str:
    """A message's content, for a screen reader when ``spoken`` (an AI's level said at the
    first mention of its name only), within Discord's limit."""
    return (plain(named_once(content, names), locale) if spoken else content)[:2000]


class PlainOnly(Exception):
    """The game's messages go as text (Discord rejected them): no other form is tried."""


def _posted_after(since: float) -> discord.Object:
    """Discord's id for the moment a minute before ``since`` (a Unix time): the messages
    posted after it have larger ids. A time before Discord's epoch (a test's clock) reads
    the channel from its start."""
    moment = datetime.fromtimestamp(max(since - CLOCK_SKEW, 0.0), tz=UTC)
    return discord.Object(id=max(discord.utils.time_snowflake(moment, high=True), 0))


def _shows_turn(message: discord.Message, game_id: int, turn: int, header: str) -> bool:
    """Whether a message of the bot is that turn's message: its board, or (sent as text)
    its first line."""
    if any(a.filename == board_name(game_id, turn) for a in message.attachments):
        return True
    return not message.attachments and message.content.split("\n", 1)[0] == header


def rejected_params(error: discord.HTTPException) -> dict[str, Any]:
    """What the host is told of a body Discord rejects: the route and why."""
    verdict = judge(error)
    reason = f"{verdict.status}/{verdict.code} {verdict.reason}"
    if verdict.fields:
        reason += f" ({', '.join(verdict.fields)})"
    return {"route": verdict.route, "reason": reason}


def _turn_link(row: GameRow | None) -> str:
    if row is None or row.turn_message_id is None:
        return ""
    return jump_url(row.guild_id, row.channel_id, row.turn_message_id)


def _event(data: Mapping[str, Any]) -> Event:
    """A logged event (``bot.play.games.event_data``) as the engine's."""
    player = data.get("player")
    return Event(
        str(data.get("key")), player if isinstance(player, int) else None, data.get("params", {}), 0
    )


def outbox_notice(
    d: Delivery,
    key: str,
    params: Mapping[str, object],
    *,
    users: Sequence[int] = (),
    link: bool = False,
) -> Delivery:
    """A notice in the lane of delivery ``d`` (its game and channel), queued in its place."""
    payload: dict[str, Any] = {"key": key, "params": dict(params), "users": list(users)}
    if link:
        payload["link"] = True
    return Delivery(
        "notice",
        d.game_id,
        d.channel_id,
        d.guild_id,
        payload,
        created_at=d.created_at,
        due_at=d.due_at,
    )


__all__ = ["SHOWN", "Couriers", "Done", "Reply", "nonce", "outbox_notice", "rejected_params"]

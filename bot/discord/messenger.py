"""What the couriers (``bot.discord.couriers``) share: what a delivery made (``Delivered``), the
interaction that may carry it (``Reply``), a post's nonce, and the ``Messenger`` each
courier is handed: a post looked for before it is made again (``find``), said in the
channel or as the answer to a command (``say``), a game's message edited (through the
click, in an archived thread, as text once Discord rejected it: ``edit``), the host told
of a problem, and a delivery's text rendered in a language.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import discord

from bot.discord.board_edits import BoardEdits
from bot.discord.components import PanelView
from bot.discord.failures import (
    CALL_FAULTS,
    is_archived,
    is_expired,
    is_rejected,
    judge,
    maybe_made,
)
from bot.discord.replies import jump_url, locale_of
from bot.play.orphan_service import OrphanService
from bot.play.readers import Readers
from bot.play.story_service import StoryService
from bot.store.clock_settings import ClockSettings
from bot.store.rows import Delivery, GameRow, SeatRow
from bot.text.clock_text import settings_text
from bot.text.durations import hours_text
from bot.text.strings import text

log = logging.getLogger(__name__)

# A delivery that may have been made already is looked for among the messages posted since
# it was queued (less a minute: the bot's clock and Discord's may differ), oldest first, a
# page of 100 at a time, up to this many: past them (a channel that talked that much
# between the delivery's queueing and its post), it is posted again, with a WARNING.
LOOK_BACK = 500
CLOCK_SKEW = 60.0
KIND_MARK = {"turn": "t", "close": "c", "notify": "n", "notice": "o", "dm": "d", "over": "g"}


@dataclass(frozen=True, slots=True)
class Delivered:
    """What a delivery made: columns of the game's row to set (a message's id) and
    deliveries to queue instead of it (a DM refused becomes a notice in the channel), both
    in the transaction that removes it."""

    fields: Mapping[str, Any] = field(default_factory=dict)
    then: Sequence[Delivery] = ()
    # Doing it again would make nothing new (an edit, or nothing to do): its removal may
    # wait and go with the game's next commit (``bot.discord.delivery``), sparing a write.
    again_harmless: bool = False


SHOWN = Delivered(again_harmless=True)  # edited, or nothing to do: made again, the same


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
                if getattr(response, "deferred_late", False):  # its "thinking…" replaced
                    await response.send_message(done, ephemeral=True)
                else:
                    await self.interaction.followup.send(done, ephemeral=True)
        except CALL_FAULTS as e:
            self.lost(e)


class Messenger:
    """How a courier says, posts and edits a game's messages through Discord: handed the
    client, the orphans' job (to tell a game's host of a problem) and the live board's
    edits (a game whose messages Discord rejected has no picture edited either). It keeps
    the games whose messages go as text (``text_only``, ``as_text``)."""

    def __init__(self, client: discord.Client, orphans: OrphanService, boards: BoardEdits) -> None:
        self.client = client
        self.orphans = orphans
        self.boards = boards  # the live board's edits
        # Games whose messages Discord rejected: shown as text from then on (until a
        # restart tries again once), so nothing Discord rejects is sent again.
        self._plain: set[int] = set()

    def text_only(self, game_id: int) -> None:
        """The game's messages are sent as text from now on: no picture, no panel."""
        self._plain.add(game_id)
        self.boards.text_only(game_id)

    def as_text(self, game_id: int) -> bool:
        """Whether the game's messages are sent as text (``text_only``)."""
        return game_id in self._plain

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

    async def post(
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

    async def say(
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
                pass  # deferred meanwhile (bot.discord.deferral): posted, then "done"
            except CALL_FAULTS as e:
                reply.lost(e)
        unsure = check or (reply is not None and reply.unsure)
        message = await self.post(d, row_channel, content, unsure, allowed_mentions=allowed)
        return message.id

    async def tell_host(
        self, row: GameRow, problem: str, key: str, params: Mapping[str, Any]
    ) -> None:
        """Tell the game's host of ``problem`` by DM, once (the game service queues it)."""
        try:
            await self.orphans.tell_host(row.id, problem, key, params)
        except Exception as e:
            log.warning("game %d: its host not told of %s: %s", row.id, problem, judge(e))

    # ---- helpers -------------------------------------------------------------------------

    def channel(self, row: GameRow) -> discord.PartialMessageable:
        """The game's channel."""
        return self.messageable(row.channel_id, row.guild_id)

    def messageable(
        self, channel_id: int, guild_id: int | None = None
    ) -> discord.PartialMessageable:
        """A channel (a member's DMs among them) to post in, by its id."""
        return self.client.get_partial_messageable(channel_id, guild_id=guild_id)

    async def edit(
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
            params["link"] = turn_link(row)
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


def _posted_after(since: float) -> discord.Object:
    """Discord's id for the moment a minute before ``since`` (a Unix time): the messages
    posted after it have larger ids. A time before Discord's epoch (a test's clock) reads
    the channel from its start."""
    moment = datetime.fromtimestamp(max(since - CLOCK_SKEW, 0.0), tz=UTC)
    return discord.Object(id=max(discord.utils.time_snowflake(moment, high=True), 0))


def rejected_params(error: discord.HTTPException) -> dict[str, Any]:
    """What the host is told of a body Discord rejects: the route and why."""
    verdict = judge(error)
    reason = f"{verdict.status}/{verdict.code} {verdict.reason}"
    if verdict.fields:
        reason += f" ({', '.join(verdict.fields)})"
    return {"route": verdict.route, "reason": reason}


def turn_link(row: GameRow | None) -> str:
    """The link to the game's turn message (\"\" for none)."""
    if row is None or row.turn_message_id is None:
        return ""
    return jump_url(row.guild_id, row.channel_id, row.turn_message_id)


async def spoken(story: StoryService, readers: Readers, seats: int | Sequence[SeatRow]) -> bool:
    """Whether a member sitting in the game (its id, or its seats) has screen-reader mode
    on: its messages are then written for a screen reader."""
    if isinstance(seats, int):
        seats = await story.seats_of(seats)
    members = [s.user_id if s.user_id is not None else s.former_user_id for s in seats]
    return await readers.any_on(members)

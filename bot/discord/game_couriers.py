"""The couriers of a game's other messages: the lobby message (``lobby``), the game's first
lines (``started``) and its final message with the scores, ratings, board, chart and a
Rematch button (``over``).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.discord.announce import mentions
from bot.discord.components import PanelView, RematchButton
from bot.discord.failures import is_gone
from bot.discord.messenger import Delivered, Messenger, Reply, nonce, same_text, spoken
from bot.discord.pictures import Pictures
from bot.play.games import logged_event
from bot.play.readers import Readers
from bot.play.story_service import StoryService
from bot.store.rows import Delivery
from bot.text import describe
from bot.text.game_over_text import game_over_message
from bot.text.lobby_text import lobby_headers, lobby_text
from bot.text.strings import text
from bot.text.turn_message import said

# Events of the game's start shown in its first message.
START_EVENTS = ("dealt", "first_player", "compensation")


class GameCourier:
    """The lobby message (``lobby``), the start's lines (``started``), and the game over
    (``over``): handed the messenger, the story (a game's record as committed), the
    screen readers' modes and the pictures (the final board and the VP chart)."""

    def __init__(
        self, messenger: Messenger, *, story: StoryService, readers: Readers, pictures: Pictures
    ) -> None:
        self.messenger = messenger
        self.story = story
        self.readers = readers
        self.pictures = pictures  # the board's picture and the VP chart

    async def over(self, d: Delivery, reply: Reply | None, check: bool) -> Delivered:
        """The final message: it pings the game's members, shows each player's VP part by
        part, the winner and the tie-break, the rounds played, the game's length and each
        member's new rating, with the final board, the chart of the VP by round and a
        Rematch button."""
        ended = await self.story.game_over(d.game_id)
        if ended is None:
            return Delivered()
        row, seats, state = ended.row, ended.seats, ended.state
        locale = row.locale
        content = game_over_message(
            state,
            seats,
            ended.recorded,
            ended.rated,
            ended.seconds,
            locale,
            tutorial=row.config.tutorial,
            spoken=ended.game.spoken,
        )
        if content is None:
            return Delivered()
        # Pinged: the members holding a seat at the end (not one removed from it).
        members = [s.user_id for s in seats if s.user_id is not None]
        view = PanelView()
        if not row.config.tutorial:  # a guided game ends with where to go next, no rematch
            view.add_item(RematchButton(row.id, text("over.rematch", locale)))
        channel = self.messenger.channel(row)
        if check:
            start = same_text(content)
            made = await self.messenger.find(
                channel, lambda m: same_text(m.content) == start, d.created_at
            )
            if made is not None:
                return Delivered()
        kwargs: dict[str, Any] = {"view": view, "allowed_mentions": mentions(members)}
        notations = ended.notations
        files = [
            f
            for f in (
                await self.pictures.board_file(ended.game, state),
                await self.pictures.story_file(row, [s.name for s in seats], notations),
            )
            if f is not None
        ]
        if files:
            kwargs["files"] = files
        await channel.send(content, nonce=nonce(d), **kwargs)
        return Delivered()

    async def lobby(self, d: Delivery, reply: Reply | None, check: bool) -> Delivered:
        """The lobby message as the lobby is now: edited, or posted (as the answer to the
        command that opened it, if it can be) with its id recorded."""
        p = d.payload
        lobby = await self.story.lobby_of(d.game_id)
        if lobby is None:
            return Delivered()
        row = lobby.row
        content = lobby_text(
            row, lobby.seats, self.messenger.render(p.get("closing"), row.locale, row) or None
        )
        extra = self.messenger.render(p.get("extra"), row.locale, row)
        if extra:
            content = f"{content}\n{extra}"
        aloud = await spoken(self.story, self.readers, lobby.seats)
        content = said(content, row.locale, aloud)
        channel = self.messenger.channel(row)
        message_id, found = row.lobby_message_id, False
        if message_id is None and check:
            # Posted and not recorded (before a restart) as the lobby was then: found by its
            # first line (its seats may have changed since), it is edited, not posted again.
            heads = {said(h, row.locale, aloud) for h in lobby_headers(row, lobby.seats)}
            made = await self.messenger.find(
                channel, lambda m: m.content.split("\n", 1)[0] in heads, d.created_at
            )
            if made is not None:
                message_id, found = made.id, True
        if message_id is not None:
            try:
                partial = channel.get_partial_message(message_id)
                await partial.edit(content=content, allowed_mentions=mentions([]))
                return Delivered({"lobby_message_id": message_id}) if found else Delivered()
            except discord.NotFound as e:
                if not is_gone(e):
                    raise
        allowed = mentions([int(u) for u in p.get("users", [])])
        # Looked for above when the row had no message (its own post, as it is now, too).
        again = check and message_id is not None
        message_id = await self.messenger.say(d, channel, content, allowed, reply, again)
        return (
            Delivered({"lobby_message_id": message_id}) if message_id is not None else Delivered()
        )

    async def started(self, d: Delivery, reply: Reply | None, check: bool) -> Delivered:
        """The game's first lines: it starts, the cards dealt, the first player."""
        row = await self.story.committed_row(d.game_id)
        if row is None:
            return Delivered()
        names = [describe.chat_name(s.name) for s in await self.story.seats_of(row.id)]
        rows = await self.story.logged(row.id, 0, int(d.payload["to"]))
        lines = [text("start.header", row.locale)]
        lines += [
            "• " + describe.event_line(e, row.locale, names)
            for e in (logged_event(data) for r in rows for data in r.events)
            if e.key in START_EVENTS
        ]
        content = said(
            "\n".join(lines), row.locale, await spoken(self.story, self.readers, row.id), names
        )
        await self.messenger.say(
            d, self.messenger.channel(row), content, mentions([]), reply, check
        )
        return Delivered()

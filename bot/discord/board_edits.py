"""The live board on turn messages: each change of the board edits the turn message's
picture, at most once a second per channel.

Every action that changes the board asks for a new picture of its turn message
(``request``). Requests wait in the channel's queue, one per message (a newer one
replaces an older one not sent yet), and a task per channel sends them one at a time,
oldest message first, never two image edits of one channel less than ``interval``
seconds apart: a quick run of moves ends in one edit showing the last of them, and the
closed turn's message gets its final picture before the next turn's message its first
edit. When a move's picture may go out at once, it goes with the move's edit of the
message's text (``file_now``): one edit instead of two. A picture the message already
shows (the state of its last edit: a turn's last move was shown, then the turn ended)
is neither drawn nor sent again. Editing with a new attachment replaces the old one
(``attachments=[file]``).

A picture Discord fails to take (a 503, a reset connection) is tried again a few times,
waiting longer each time, unless a newer one replaced it; one Discord rejects (a 4xx) is
not tried again, and a game whose picture Discord rejects as a body (a 400), or whose turn
messages go as text, gets no picture sent again until a restart. In an archived thread the
thread is reopened first. Edits wait their turn as Discord's count of invalid requests
climbs (``failures.InvalidRequests``). Pictures are not deliveries of the outbox
(``bot.play.outbox``): a lost one is replaced by the next move's, and the text of a turn
message, which says what happened, is.

The clock and the sleep are injectable, so tests run many seconds of edits at once.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import aiohttp
import discord

from bot.discord.failures import InvalidRequests, is_archived, judge
from bot.discord.pictures import Pictures
from engine import GameState

if TYPE_CHECKING:
    from bot.play.games import ActiveGame

log = logging.getLogger(__name__)

INTERVAL = 1.0  # seconds between two image edits in one channel


@dataclass(frozen=True, slots=True)
class Picture:
    """A board to show on a message: the game (for its channel, names, language), the
    state to draw, and how many times Discord failed to take it."""

    game: ActiveGame
    state: GameState
    tries: int = 0


TRIES = 5  # a picture Discord fails to take is tried this many times (a newer one wins)
REFUSED_SECONDS = 120.0  # a channel that refused a picture gets none for this long


class BoardEdits:
    """Per channel, the pictures waiting to be shown and the task that shows them."""

    def __init__(
        self,
        client: discord.Client,
        pictures: Pictures,
        guard: InvalidRequests | None = None,
        *,
        interval: float = INTERVAL,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.client = client  # where the pictures are shown
        self.pictures = pictures  # what draws them
        self.interval = interval
        self.clock = clock
        self.sleep = sleep
        self._waiting: dict[int, dict[int, Picture]] = {}  # channel -> message -> picture
        self._last: dict[int, float] = {}  # channel -> when its last image edit went out
        # channel -> the message its last image edit went to, and the state it shows
        self._shown: dict[int, tuple[int, GameState]] = {}
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self.guard = guard  # the bot's count of invalid requests: slows down when it climbs
        # Channels that refused a picture (no permission, gone): none sent there until then.
        self._refused: dict[int, float] = {}
        # Games whose pictures Discord rejects for good (a 400: the body, not the channel),
        # or whose turn messages are sent as text: no picture sent again (until a restart).
        self.rejected: set[int] = set()

    def text_only(self, game_id: int) -> None:
        """Discord rejected the game's messages: its board is no longer edited in (the
        game is shown as text from now on, ``Messenger.text_only``)."""
        self.rejected.add(game_id)

    def request(self, game: ActiveGame, message_id: int, state: GameState) -> None:
        """Show ``state`` (a board no longer changed: ``ActiveGame.board``) on message
        ``message_id`` of the game's channel, soon (not while the channel refuses the bot:
        a picture is no delivery, the next move brings one)."""
        channel = game.row.channel_id
        if self.clock() < self._refused.get(channel, -math.inf) or game.id in self.rejected:
            return
        self._waiting.setdefault(channel, {})[message_id] = Picture(game, state)
        task = self._tasks.get(channel)
        if task is None or task.done():
            self._tasks[channel] = asyncio.create_task(
                self._run(channel), name=f"af-board-edits-{channel}"
            )

    async def file_now(
        self,
        game: ActiveGame,
        message_id: int,
        state: GameState,
        names: Sequence[str] | None = None,
    ) -> discord.File | None:
        """The picture of ``state`` for the edit of message ``message_id`` the caller is
        about to make (its text and panel), when the channel's picture may change now:
        nothing of the channel waits or is being shown, its last image edit is ``interval``
        old, and the message does not show ``state`` already. Then the picture goes out
        with that edit (one edit instead of two; call ``shown`` once it went out) and
        pictures asked for meanwhile wait their second after it. Otherwise None: ask with
        ``request``. ``names``: the seats' names on it, when read already (a turn's view)."""
        channel = game.row.channel_id
        if game.id in self.rejected:
            return None
        task = self._tasks.get(channel)
        if (task is not None and not task.done()) or self._waiting.get(channel):
            return None
        if self._shown.get(channel) == (message_id, state):
            return None
        if self.clock() - self._last.get(channel, -math.inf) < self.interval:
            return None
        self._last[channel] = self.clock()
        return await self.pictures.board_file(game, state, redrawn=True, names=names)

    def shown(self, game: ActiveGame, message_id: int, state: GameState) -> None:
        """The caller's edit put the picture of ``state`` (``file_now``; a board no longer
        changed) on the message."""
        self._shown[game.row.channel_id] = (message_id, state)

    def waiting(self) -> int:
        """Pictures not shown yet (all channels)."""
        return sum(len(w) for w in self._waiting.values())

    async def _run(self, channel: int) -> None:
        waiting = self._waiting.get(channel, {})
        while waiting:
            due = self._last.get(channel, -math.inf) + self.interval - self.clock()
            if due > 0:
                await self.sleep(due)
            message_id = next(iter(waiting))  # the oldest message first
            picture = waiting.pop(message_id)
            if self._shown.get(channel) == (message_id, picture.state):
                continue  # the message shows this state already
            try:
                await self._show(channel, message_id, picture)
            except asyncio.CancelledError:
                raise
            except (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError) as e:
                # Discord did not take it: again later, unless a newer picture replaced it
                # (or Discord refused it for good: a 4xx other than a 429).
                refused = (
                    isinstance(e, discord.HTTPException)
                    and 400 <= e.status < 500
                    and e.status != 429
                    and not is_archived(e)
                )
                if isinstance(e, discord.HTTPException) and e.status in (403, 404):
                    # The channel refuses the bot (or is gone): no picture for a while.
                    self._refused[channel] = self.clock() + REFUSED_SECONDS
                    waiting.clear()
                elif refused:
                    # The picture itself is rejected: the next ones would be too.
                    self.rejected.add(picture.game.id)
                    for mid in [m for m, p in waiting.items() if p.game.id == picture.game.id]:
                        del waiting[mid]
                if picture.tries + 1 < TRIES and message_id not in waiting and not refused:
                    waiting[message_id] = replace(picture, tries=picture.tries + 1)
                    await self.sleep(self.interval * 2 ** (picture.tries + 1))
                log.warning(
                    "channel %d: board on message %d not updated (try %d): %s",
                    channel,
                    message_id,
                    picture.tries + 1,
                    judge(e),
                )
            except Exception:
                log.exception("channel %d: board on message %d not updated", channel, message_id)
        self._waiting.pop(channel, None)

    async def _show(self, channel: int, message_id: int, picture: Picture) -> None:
        file = await self.pictures.board_file(picture.game, picture.state, redrawn=True)
        if file is None:
            return
        if self.guard is not None and (wait := self.guard.wait()) > 0:
            await self.sleep(wait)
        row = picture.game.row
        where = self.client.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        partial = where.get_partial_message(message_id)
        self._last[channel] = self.clock()
        try:
            try:
                await partial.edit(attachments=[file])
            except discord.HTTPException as e:
                if not is_archived(e):
                    raise
                await self.client.http.edit_channel(channel, archived=False)
                file.reset()
                await partial.edit(attachments=[file])
            self._shown[channel] = (message_id, picture.state)
        except discord.NotFound:
            log.info("channel %d: message %d is gone, its board too", channel, message_id)

    async def flush(self, timeout: float | None = None) -> None:
        """Wait until every picture asked for is shown (tests, shutdown)."""
        tasks = [t for t in self._tasks.values() if not t.done()]
        if tasks:
            await asyncio.wait(tasks, timeout=timeout)

    async def stop(self) -> None:
        for task in self._tasks.values():
            task.cancel()
        await asyncio.gather(*self._tasks.values(), return_exceptions=True)
        self._tasks.clear()
        self._waiting.clear()
        self._shown.clear()

"""Screen-reader mode in play (``/af notify screen_reader:on``): who has it on.

A member in screen-reader mode gets their private answers in plain words
(``bot.text.spoken``), a short private line after each panel pick with what it did and
what is left (``bot.text.gains``), and the channel of a game they sit in says each fact
once, without emoji or symbols (``bot.discord.announce``). Whether a member has it on is
read once and kept for ``KEEP_SECONDS`` (a move's answer needs no database read);
``/af notify`` sets it at once in this process, and another process of a big bot sees the
change within that time — as the coach's on/off (``bot.play.coaching``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final

from bot.store.storage import Storage

KEEP_SECONDS: Final = 60.0


class Readers:
    """Members' screen-reader mode, read from their preferences and kept a minute."""

    def __init__(self, store: Storage, clock: Callable[[], float]) -> None:
        self.store = store
        self.clock = clock
        self._on: dict[int, tuple[bool, float]] = {}  # member -> (on?, read at)

    async def is_on(self, user_id: int) -> bool:
        """Whether the member has screen-reader mode on."""
        return await self.any_on([user_id])

    async def any_on(self, user_ids: Iterable[int | None]) -> bool:
        """Whether any of these members has it on (a game's seated members: its channel's
        messages are then written for a screen reader)."""
        now = self.clock()
        users = {u for u in user_ids if u is not None}
        stale = [u for u in users if u not in self._on or now - self._on[u][1] > KEEP_SECONDS]
        if stale:
            prefs = await self.store.prefs(stale)
            for u in stale:
                self._on[u] = (prefs[u].screen_reader, now)
        return any(self._on[u][0] for u in users)

    def known(self, user_id: int) -> bool:
        """Whether the member has it on, as last read (False if never read)."""
        return self._on.get(user_id, (False, 0.0))[0]

    async def set_on(self, user_id: int, on: bool) -> None:
        """Turn the member's screen-reader mode on or off."""
        await self.store.set_prefs(user_id, screen_reader=on)
        self._on[user_id] = (on, self.clock())

"""Screen-reader mode in play (``/af notify screen_reader:on``): who has it on.

A member in screen-reader mode gets their private answers in plain words
(``bot.text.spoken``), a short private line after each panel pick with what it did and
what is left (``bot.text.gains``), and the channel of a game they sit in says each fact
once, without emoji or symbols (``bot.text.turn_message``). Whether a member has it on is
read once and kept for ``KEEP_SECONDS`` (a move's answer needs no database read);
``/af notify`` sets it at once in this process, and another process of a big bot sees the
change within that time — as the coach's on/off (``bot.play.coach_memory``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Final

from bot.play.games import ActiveGame
from bot.store.member_store import MemberStore
from bot.store.rows import MemberPrefs, SeatRow

# How long a member's preferences read are taken as theirs: the screen-reader mode here,
# the coach's on/off (bot.play.coach_memory) and the preferences a turn's message read for
# its DM (bot.play.member_service). A change made in another process is seen within it.
KEEP_SECONDS: Final = 60.0


def told_when_done(game: ActiveGame) -> bool:
    """Whether the turn in play is posted only when it is done, whole: an AI seat's turn in
    a game followed with a screen reader. A screen reader does not read an edited message
    aloud, so a turn posted at its roll and then edited action by action would be heard as
    its roll only; posted at its end, every action of it is heard, once."""
    if not game.spoken or game.game is None or game.state.over:
        return False
    seat = game.state.current
    return 0 <= seat < len(game.seats) and game.seats[seat].is_ai and not game.timed_out()


def member_of(seat: SeatRow) -> int | None:
    """The member a seat is (or was, for a seat the AI took over) played by."""
    return seat.user_id if seat.user_id is not None else seat.former_user_id


class Readers:
    """Members' screen-reader mode, read from their preferences and kept a minute."""

    def __init__(self, clock: Callable[[], float], *, members: MemberStore) -> None:
        self._members = members
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
            prefs = await self._members.prefs(stale)
            for u in stale:
                self._on[u] = (prefs[u].screen_reader, now)
        return any(self._on[u][0] for u in users)

    async def others_on(self, seats: Sequence[SeatRow], seat: int) -> bool:
        """Whether a member with the mode on sits in the game other than the one who
        plays ``seat`` (a turn's lines they did not hear as they were edited in)."""
        actor = member_of(seats[seat]) if 0 <= seat < len(seats) else None
        return await self.any_on(member_of(s) for s in seats if member_of(s) != actor)

    def stale(self, user_ids: Iterable[int | None]) -> set[int]:
        """Those of these members whose mode is not known, or was read too long ago."""
        now = self.clock()
        users = {u for u in user_ids if u is not None}
        return {u for u in users if u not in self._on or now - self._on[u][1] > KEEP_SECONDS}

    def saw(self, prefs: Mapping[int, MemberPrefs]) -> None:
        """These members' preferences were just read (by a turn's view): kept."""
        now = self.clock()
        for u, p in prefs.items():
            self._on[u] = (p.screen_reader, now)

    def known(self, user_id: int) -> bool:
        """Whether the member has it on, as last read (False if never read)."""
        return self._on.get(user_id, (False, 0.0))[0]

    async def set_on(self, user_id: int, on: bool) -> None:
        """Turn the member's screen-reader mode on or off."""
        await self._members.set_prefs(user_id, screen_reader=on)
        self._on[user_id] = (on, self.clock())

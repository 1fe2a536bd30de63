"""The coach in play (``/af coach on``): what a coached member uses is remembered, and the
first time in a game they can use a thing they have not used before, the answer to their
move (or their hint) adds one line on it. What is usable and used is ``bot.play.coach``'s; this
module reads and writes the member's record and keeps what was explained in each game
(``ActiveGame.coached``: in memory, so after a restart a line may come once more).

Whether a member has the coach on is read once and kept for ``KEEP_SECONDS`` (a move's
answer needs no database read); ``/af coach`` sets it at once in this process, and another
process of a big bot sees the change within that time."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from bot.play.coach import first_thing, thing_key, usable_things, used_things
from bot.play.games import ActiveGame
from bot.store.storage import Storage
from bot.text.strings import text
from engine import Action, GameState, apply_in_place

KEEP_SECONDS: Final = 60.0


class Coach:
    """The coach's side effects: reads and writes what each coached member used."""

    def __init__(self, store: Storage, clock: Callable[[], float]) -> None:
        self.store = store
        self.clock = clock
        self._on: dict[int, tuple[bool, float]] = {}  # member -> (coach on?, read at)

    async def is_on(self, user_id: int) -> bool:
        """Whether the member has the coach on (read at most once a ``KEEP_SECONDS``)."""
        known = self._on.get(user_id)
        now = self.clock()
        if known is None or now - known[1] > KEEP_SECONDS:
            known = ((await self.store.prefs([user_id]))[user_id].coach, now)
            self._on[user_id] = known
        return known[0]

    async def set_on(self, user_id: int, on: bool) -> None:
        """Turn the member's coach on or off (``/af coach``)."""
        await self.store.set_prefs(user_id, coach=on)
        self._on[user_id] = (on, self.clock())

    async def after_move(
        self,
        game: ActiveGame,
        user_id: int,
        before: GameState,
        actions: Sequence[Action],
        locale: str,
    ) -> str | None:
        """After a member's move (``actions`` applied from ``before``): record what it used
        and give the line on a new thing they can use now, if their coach is on."""
        if not await self.is_on(user_id):
            return None
        used = await self.store.used_things(user_id)
        state = before.copy()
        now_used: set[str] = set()
        for action in actions:
            now_used |= used_things(state, action)
            apply_in_place(state, action)
        await self.store.add_used_things(user_id, now_used - used)
        return self.line(game, user_id, used | now_used, locale)

    async def for_hint(self, game: ActiveGame, user_id: int, locale: str) -> str | None:
        """The line for the member's hint, if their coach is on."""
        if not await self.is_on(user_id):
            return None
        return self.line(game, user_id, await self.store.used_things(user_id), locale)

    def line(self, game: ActiveGame, user_id: int, used: set[str], locale: str) -> str | None:
        """The line on the first thing the member can use now, never used and not yet
        explained in this game (then it counts as explained)."""
        seat = game.seat_of(user_id)
        if seat is None or game.game is None:
            return None
        explained = game.coached.setdefault(user_id, set())
        thing = first_thing(usable_things(game.state, seat) - used - explained)
        if thing is None:
            return None
        explained.add(thing)
        return text(thing_key(thing), locale)

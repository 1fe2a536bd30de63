"""The coach in play (``/af coach on``): what a coached member uses is remembered, and the
first time in a game they can use a thing they have not used before, the turn message
explains it before they pick (a line each, ``LINES_BEFORE_PICK`` at most at one decision;
their hint adds one too). What is usable and used is ``bot.play.coach_things``'s; this module reads
and writes the member's record and keeps what was explained in each game
(``ActiveGame.coached``: in memory, so after a restart a line may come once more).

Whether a member has the coach on is read once and kept for ``KEEP_SECONDS``, the time the
screen-reader mode is kept too (``bot.play.readers``): a move's answer needs no database
read; ``/af coach`` sets it at once in this process, and another process of a big bot
sees the change within that time."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from bot.play.coach_things import first_thing, first_things, thing_key, usable_things, used_things
from bot.play.games import ActiveGame
from bot.play.readers import KEEP_SECONDS
from bot.store.member_store import MemberStore
from bot.store.rows import MemberPrefs
from bot.text.strings import text
from engine import Action, GameState, apply_in_place


def coach_lines(game: ActiveGame) -> list[str]:
    """The coach's lines for the turn message at the game's state now (made by
    ``Coach.before_pick``; none when it has not been asked at this state)."""
    before = game.coach_before
    return (
        before[1]
        if before is not None and game.game is not None and before[0] is game.state
        else []
    )


class Coach:
    """The coach's side effects: reads and writes what each coached member used."""

    def __init__(self, clock: Callable[[], float], *, members: MemberStore) -> None:
        self._members = members
        self.clock = clock
        self._on: dict[int, tuple[bool, float]] = {}  # member -> (coach on?, read at)

    async def is_on(self, user_id: int) -> bool:
        """Whether the member has the coach on (read at most once a ``KEEP_SECONDS``)."""
        known = self._on.get(user_id)
        now = self.clock()
        if known is None or now - known[1] > KEEP_SECONDS:
            known = ((await self._members.prefs([user_id]))[user_id].coach, now)
            self._on[user_id] = known
        return known[0]

    def saw(self, prefs: Mapping[int, MemberPrefs]) -> None:
        """These members' preferences were just read (by a turn's view): kept."""
        now = self.clock()
        for u, p in prefs.items():
            self._on[u] = (p.coach, now)

    async def set_on(self, user_id: int, on: bool) -> None:
        """Turn the member's coach on or off (``/af coach``)."""
        await self._members.set_prefs(user_id, coach=on)
        self._on[user_id] = (on, self.clock())

    async def after_move(self, user_id: int, before: GameState, actions: Sequence[Action]) -> None:
        """After a member's move (``actions`` applied from ``before``): record what it used,
        if their coach is on."""
        if not await self.is_on(user_id):
            return
        used = await self._members.used_things(user_id)
        state = before.copy()
        now_used: set[str] = set()
        for action in actions:
            now_used |= used_things(state, action)
            apply_in_place(state, action)
        await self._members.add_used_things(user_id, now_used - used)

    async def before_pick(self, game: ActiveGame) -> list[str]:
        """The lines the turn message carries for the member to act, if their coach is on:
        the things they can use now, never used and not explained in this game yet (then
        they count as explained). Worked out once per state: the message is made again
        for every delivery."""
        user = game.waiting_on()
        seat = game.to_act()
        if user is None or seat is None or game.game is None:
            return []
        state = game.state
        if game.coach_before is not None and game.coach_before[0] is state:
            return game.coach_before[1]
        lines: list[str] = []
        if await self.is_on(user):
            used = await self._members.used_things(user)
            explained = game.coached.setdefault(user, set())
            things = first_things(usable_things(state, seat) - used - explained)
            explained.update(things)
            lines = [text(thing_key(t), game.row.locale) for t in things]
        game.coach_before = (state, lines)
        return lines

    async def for_hint(self, game: ActiveGame, user_id: int, locale: str) -> str | None:
        """The line for the member's hint, if their coach is on."""
        if not await self.is_on(user_id):
            return None
        return self.line(game, user_id, await self._members.used_things(user_id), locale)

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

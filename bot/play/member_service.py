"""The game service's members between games: how a member hears that their turn began
(``/af notify``) and what the DM telling them says (``turn_notice``, read once for the
delivery), what the bot knows of its DMs with them (the DM channel opened, DMs found
closed and the hint about it owed to them; sent by ``bot.discord.notify``), and every game
they sit in (``/af mygames``). Their coach and screen-reader modes are
``bot.play.coach_memory.Coach`` and ``bot.play.readers.Readers``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.play.games import ActiveGame
from bot.play.held_games import HeldGames
from bot.play.readers import KEEP_SECONDS, Readers
from bot.play.story_service import StoryService
from bot.play.turn_view import keep_catch_up
from bot.store.member_store import MemberStore
from bot.store.result_store import ResultStore
from bot.store.rows import GameRow, MemberPrefs
from bot.store.seat_store import SeatStore
from bot.text.turn_message import CatchUp


@dataclass(frozen=True, slots=True)
class TurnNotice:
    """What the DM telling a member their turn began says (``bot.text.turn_message.
    turn_dm``): the committed row, their preferences, their seat, the names, the catch-up
    (None: none kept) and whether they read with a screen reader."""

    row: GameRow
    prefs: MemberPrefs
    seat: int
    names: list[str]
    catch_up: CatchUp | None
    spoken: bool


class MemberService:
    """A member's way of being told of their turn, and their games."""

    def __init__(
        self,
        games: HeldGames,
        story: StoryService,
        *,
        clock: Callable[[], float],
        readers: Readers,
        members: MemberStore,
        results: ResultStore,
        seat_rows: SeatStore,
    ) -> None:
        self._members = members
        self._results = results
        self._seat_rows = seat_rows
        self.games = games
        self.story = story  # the catch-up of a turn, read as its message reads it
        self.clock = clock
        self.readers = readers

    async def set_turn_notice(self, user_id: int, mode: str, locale: str) -> None:
        """Where a member is told their turn began (``channel``, ``dm``, ``both``, ``off``),
        their DMs in ``locale``: their DMs are tried afresh (no longer taken as closed), and
        no hint about closed DMs is owed to them."""
        await self._members.set_prefs(
            user_id, notify=mode, dm_blocked=False, dm_hint=False, locale=locale
        )
        self._changed(user_id)

    async def prefs_of(self, user_id: int) -> MemberPrefs:
        """How the member chose to hear of their turn, and what is known of their DMs."""
        return (await self._members.prefs([user_id]))[user_id]

    async def dm_channel_opened(self, user_id: int, channel_id: int) -> None:
        """The DM channel with the member (opened once, then reused)."""
        await self._members.set_prefs(user_id, dm_channel_id=channel_id)
        self._changed(user_id)

    async def dms_closed(self, user_id: int) -> None:
        """Discord refused a DM to the member: their pings go to the channel, and they are
        owed a hint (``dm_hint_given`` once told)."""
        await self._members.set_prefs(user_id, dm_blocked=True, dm_hint=True)
        self._changed(user_id)

    async def dm_hint_given(self, user_id: int) -> None:
        """The member was told their DMs are closed (the hint is no longer owed)."""
        await self._members.set_prefs(user_id, dm_hint=False)
        self._changed(user_id)

    async def games_of(self, user_id: int) -> list[GameRow]:
        """Every game the member sits in, in its lobby or in play."""
        seats = dict(await self._seat_rows.seats_of_user(user_id))
        return await self._results.games_by_id(seats)

    async def turn_notice(self, game_id: int | None, turn: int, user: int) -> TurnNotice | None:
        """What the DM telling ``user`` their turn ``turn`` began says, read once for the
        delivery (their preferences, the catch-up as the turn message has it), or None when
        it is not to be sent (the game is over, the turn told already or over, or another
        is to act)."""
        game = await self.games.as_committed(int(game_id or 0))
        if game is None or game.row.status != "playing" or game.row.notified_turn == turn:
            return None
        if game.game is None or game.state.turn_number != turn:
            return None  # the turn is over: a later turn tells its own member
        seat = game.to_act()
        if seat is None or game.waiting_on() != user:
            return None
        prefs = self._kept_prefs(game, turn, user)
        if prefs is None:
            prefs = (await self._members.prefs([user]))[user]
            self.readers.saw({user: prefs})
        kept = await keep_catch_up(game, self.story.since_last_turn)
        catch_up = CatchUp(game.catch_up, game.catch_up_before, game.catch_up_now)
        return TurnNotice(
            row=game.row,
            prefs=prefs,
            seat=seat,
            names=game.chat_names,
            catch_up=catch_up if kept else None,
            spoken=await self.readers.is_on(user),
        )

    def _kept_prefs(self, game: ActiveGame, turn: int, user: int) -> MemberPrefs | None:
        """The member's preferences as the view of their turn's message read them, if
        they are still fresh (``KEEP_SECONDS``, as the screen-reader and coach modes): the
        DM is delivered right after the message."""
        kept = game.told_prefs
        if kept is None or kept[0] != turn or kept[1].user_id != user:
            return None
        return kept[1] if self.clock() - kept[2] <= KEEP_SECONDS else None

    def _changed(self, user_id: int) -> None:
        """The member's preferences changed: none kept of them is used."""
        for game in self.games.active_games():
            if game.told_prefs is not None and game.told_prefs[1].user_id == user_id:
                game.told_prefs = None

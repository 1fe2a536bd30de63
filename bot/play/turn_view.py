"""A turn as its messages show it, read once per delivery: the turn view.

The turn message (``bot.discord.announce``, ``bot.discord.turn_couriers``), a turn that
ended and the turn's DM (``bot.discord.member_couriers``) each ask the game service one
question (``TurnViews.turn_view``, ``closed_turn``; ``MemberService.turn_notice``) and get
one value holding all they show: the committed row and seats, the board shown, who acts and the
member to ping with their preferences, whether the game is followed with a screen reader,
the catch-up, the coach's and the lesson's lines, the panel's menus with the marked pick,
and what the sentences need (``bot.text.turn_message.TurnWords``). What persists from one
delivery to the next stays on the game held in memory, as before: the catch-up kept per
turn (``ActiveGame.catch_up``, read from the stored log once per turn, for the message and
the DM alike), the coach's lines per state, the boards as recent turns ended.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from bot.play.coach_memory import Coach, coach_lines
from bot.play.games import ActiveGame
from bot.play.held_games import HeldGames
from bot.play.panel_menus import PanelMenus, panel_menus
from bot.play.readers import Readers, member_of, told_when_done
from bot.play.story_service import StoryService
from bot.play.tutor import lesson_lines, marked_pick
from bot.store.member_store import MemberStore
from bot.store.rows import ActionRow, GameRow, MemberPrefs, SeatRow
from bot.text.catchup import board_at_start, board_then, since_last_turn
from bot.text.describe import chat_name
from bot.text.durations import day_text
from bot.text.strings import text
from bot.text.turn_message import CatchUp, TurnWords
from bot.text.turn_text import turn_segments
from engine import Event, GameState, GameView, view


@dataclass(frozen=True, slots=True)
class PanelFacts:
    """The action panel of the member to act: the game, the state's version its buttons
    carry, its menus, whether Undo may be used, its language, and whether a row with
    nothing to offer is left out (a screen reader's)."""

    game_id: int
    version: int
    menus: PanelMenus
    can_undo: bool
    locale: str
    spoken: bool


@dataclass(frozen=True, slots=True)
class TurnView:
    """The turn in play as its message and panel show it, read once for a delivery."""

    game: ActiveGame  # as held: its pictures, its live board, the boards as turns ended
    row: GameRow  # as committed: which message shows the turn
    board: GameState  # the board as it is now, a copy kept as the picture shown
    words: TurnWords  # what the message says
    member: int | None  # the member to act (to ping), None when the bot plays
    prefs: MemberPrefs | None  # theirs, when read (for a turn's message posted)
    spoken: bool  # a member in the game reads with a screen reader
    told_when_done: bool  # an AI's turn posted whole only when it is done
    panel: PanelFacts | None  # None: no panel (the bot plays, or the game is over)
    board_names: list[str] | None  # the seats' names on the picture, the absences marked

    @property
    def turn(self) -> int:
        return self.board.turn_number


@dataclass(frozen=True, slots=True)
class ClosedTurn:
    """A turn that ended as its message shows it: the committed row and seats, the names
    (safe in a message), the turn's events, whose it was, whether the game is followed
    with a screen reader (and by a member other than the one who played it), the held
    game (or the game that ended) with the board as the turn left it, and that board's
    view (for the scores said to a screen reader)."""

    row: GameRow
    seats: list[SeatRow]
    names: list[str]
    events: list[Event]
    seat: int
    ai: bool
    spoken: bool
    others_listen: bool
    game: ActiveGame | None
    last: GameState | None
    last_view: GameView | None


def panel_of(game: ActiveGame, open_path: str | None = None, page: int = 0) -> PanelFacts | None:
    """The panel for the member to act (None for AI seats or game over); ``open_path``:
    a second step opened, at ``page``."""
    seat = game.to_act()
    if seat is None or game.ai_to_act() is not None or game.game is None:
        return None
    locale = game.row.locale
    choices = game.shown().choices(game.seat_names, locale)
    menus = panel_menus(choices, locale, marked_pick(game), open_path, page)
    return PanelFacts(game.id, game.state.version, menus, game.can_undo(), locale, game.spoken)


def words_of(game: ActiveGame) -> TurnWords:
    """What the message of the game's turn in play says (``bot.text.turn_message``), from
    the game as held (its catch-up and the coach's lines kept already)."""
    state = game.state
    start = next((e for e in turn_segments(state)[-1] if e.key == "turn_started"), None)
    seat = start.player if start is not None and start.player is not None else state.current
    played_for = None  # the member whose timed-out turn the bot plays
    if game.timed_out():
        played_for = member_of(game.seats[seat])
    member = game.waiting_on()
    shown = game.shown()
    over = state.over
    catch_up = None
    if game.catch_up_turn == state.turn_number:
        catch_up = CatchUp(game.catch_up, game.catch_up_before, game.catch_up_now)
    return TurnWords(
        state=state,
        view=shown.view() if not over else None,
        legal=shown.legal() if game.spoken and member is not None else (),
        names=game.chat_names,
        locale=game.row.locale,
        seat=seat,
        ai=game.seats[seat].is_ai,
        timeout=game.row.timeout_mode,
        played_for=played_for,
        mention=f"<@{member}>" if member is not None else "",
        waiting=member is not None,
        spoken=game.spoken,
        catch_up=catch_up,
        lesson=lesson_lines(game) if not over else (),  # a guided game: its lesson now
        coach=coach_lines(game) if not over else (),  # the coach's, before the pick
    )


def view_of(
    game: ActiveGame,
    board: GameState | None = None,
    prefs: MemberPrefs | None = None,
    board_names: list[str] | None = None,
) -> TurnView:
    """The view of the game's turn in play as held now (its catch-up, screen-reader mode
    and coach's lines kept already: ``TurnViews.turn_view`` reads them)."""
    return TurnView(
        game=game,
        row=game.row,
        board=board if board is not None else game.board(),
        words=words_of(game),
        member=game.waiting_on(),
        prefs=prefs,
        spoken=game.spoken,
        told_when_done=told_when_done(game),
        panel=panel_of(game),
        board_names=board_names,
    )


async def keep_catch_up(
    game: ActiveGame, since: Callable[[int, int], Awaitable[list[ActionRow]]]
) -> bool:
    """What happened since the last turn of the member to act, kept with the game
    (``catch_up``, the boards ``catch_up_before`` and ``catch_up_now``): read from the
    stored log (``since``: ``StoryService.since_last_turn``) and replayed once per turn,
    for the turn message and the turn's DM alike. Whether it is kept for the turn in play
    (False: no member to act)."""
    user = game.waiting_on()
    seat = game.to_act()
    if user is None or seat is None:
        return False
    turn = game.state.turn_number
    if game.catch_up_turn == turn:
        return True
    rows = await since(game.id, seat)
    game.catch_up = since_last_turn(rows, seat)
    if game.game is not None:
        game.catch_up_before = board_then(game.game.config, game.game.log, rows)
        game.catch_up_now = board_at_start(game.game.config, game.game.log, rows)
    game.catch_up_turn = turn
    return True


def names_with_absences(
    seats: Sequence[SeatRow], away: Mapping[int, float], locale: str
) -> list[str]:
    """The seats' names for the board image, marked when a member is away (with the day
    they are back, in the game's language; UTC)."""
    names = []
    for s in seats:
        back = away.get(s.user_id) if s.user_id is not None else None
        if back is None:
            names.append(s.name)
            continue
        date = day_text(back, locale)
        names.append(text("seat.away", locale, {"name": s.name[:16], "date": date}))
    return names


class TurnViews:
    """The game service's views of a turn, one question per delivery."""

    def __init__(
        self,
        games: HeldGames,
        story: StoryService,
        *,
        clock: Callable[[], float],
        readers: Readers,
        coach: Coach,
        members: MemberStore,
    ) -> None:
        self._members = members
        self.games = games
        self.story = story
        self.clock = clock
        self.readers = readers
        self.coach = coach

    def message_shown(self, game: ActiveGame, message_id: int, turn: int) -> None:
        """The message of ``turn`` is ``message_id`` (posted, or found posted): the game
        shown takes it at once, as the outbox records it on the game's row with the delivery
        (``bot.play.outbox.Made``), so the next delivery edits it."""
        game.row = replace(game.row, turn_message_id=message_id, turn_message_turn=turn)

    def closed_shown(self, game: ActiveGame, turn: int) -> None:
        """Turn ``turn`` was shown closed, with the board it left: that board is kept no
        longer (``ActiveGame.turn_ends``)."""
        game.turn_ends.pop(turn, None)

    async def turn_view(
        self, game_id: int, turn: int | None = None, *, posting: bool = False
    ) -> TurnView | None:
        """The turn in play as committed (None when the game is over or ended, or ``turn``
        is no longer the turn in play: its own delivery shows it). ``posting``: its
        message may be posted now (the member to act is pinged by their choice, the board
        is drawn with the absences marked): their preferences are read too."""
        game = await self.games.as_committed(game_id)
        if game is None or game.game is None or game.row.status != "playing":
            return None
        board = game.board()  # as it is now, kept as the picture shown
        if turn is not None and board.turn_number != turn:
            return None
        posting = posting or game.row.turn_message_turn != board.turn_number
        member = game.waiting_on()
        seated = [member_of(s) for s in game.seats]
        # One read of the members: those whose screen-reader mode is not known lately (a
        # member in the game with it on: its messages are written for a screen reader),
        # and the member to act for a message posted (how they are told; their coach).
        wanted = self.readers.stale(seated)
        if posting and member is not None:
            wanted.add(member)
        prefs = await self._members.prefs(sorted(wanted)) if wanted else {}
        away: dict[int, float] = {}
        if posting:  # the board drawn: the members away marked on it
            now = self.clock()
            present = [s.user_id for s in game.seats if s.user_id is not None]
            away = {u: t for u, t in (await self._members.away_until(present)).items() if t > now}
        self.readers.saw(prefs)
        self.coach.saw(prefs)
        if member is not None and member in prefs:  # kept for the turn's DM, sent next
            game.told_prefs = (board.turn_number, prefs[member], self.clock())
        game.spoken = any(self.readers.known(u) for u in seated if u is not None)
        if not game.state.over:
            await self.coach.before_pick(game)  # the coach's lines, once per state
        await keep_catch_up(game, self.story.since_last_turn)
        names = names_with_absences(game.seats, away, game.row.locale) if posting else None
        return view_of(game, board, prefs.get(member) if member is not None else None, names)

    async def closed_turn(
        self, game_id: int | None, turn: int, seat: int, to: int, last: bool
    ) -> ClosedTurn | None:
        """The turn numbered ``turn``, of ``seat``, that ended within the log's first ``to``
        actions (``last``: the game's last turn), as committed."""
        row = await self.story.committed_row(game_id)
        if row is None:
            return None
        seats = await self.story.seats_of(row.id)
        names = [chat_name(s.name) for s in seats]
        events = await self.story.turn_events(row.id, to, last)
        members = [member_of(s) for s in seats]
        spoken = await self.readers.any_on(members)
        game = self.games.held(row.id)
        board = game.turn_ends.get(turn) if game is not None else None
        if game is None and last:  # the game that ended, no longer held: its final board
            board = await self.story.board_at_end(row.id)
            if board is not None:
                game = ActiveGame(row, list(seats), spoken=spoken)
        others = spoken and await self.readers.others_on(seats, seat)
        return ClosedTurn(
            row=row,
            seats=seats,
            names=names,
            events=events,
            seat=seat,
            ai=0 <= seat < len(seats) and seats[seat].is_ai,
            spoken=spoken,
            others_listen=others,
            game=game,
            last=board,
            last_view=view(board) if spoken and board is not None else None,
        )

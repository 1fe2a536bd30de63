"""A game as the bot holds it in memory, and what a move did: plain data and small helpers.

``ActiveGame`` bundles a game's row, seats, engine game and lock; ``AppliedAction`` and
``MoveResult`` describe an applied move; ``ServiceError`` is a refusal of the
bot itself (engine refusals are ``engine.errors.EngineError``). The turn clock's facts of a
game in play (``since_of``, ``reminders_sent``, ``waiting``) are here too; its words are
``bot.text.clock_text``'s.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.play.ai import Chooser
from bot.play.choice_tree import Choices
from bot.play.choices import choices
from bot.store.clock_settings import ClockSettings
from bot.store.errors import ServiceError
from bot.store.rows import GameRow, MemberPrefs, SeatRow
from bot.text.clock_text import Waiting
from bot.text.describe import chat_name
from engine import CHANCE, Action, Event, Game, GameState, GameView, legal_actions, view


@dataclass(frozen=True, slots=True)
class AppliedAction:
    """One applied action: who acted (a seat, or CHANCE), what, and the events it caused."""

    seat: int
    action: Action
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class MoveResult:
    """What one move did, chance outcomes it triggered included; ``before``: the state
    just before the move (the board as a turn left it, when the move ended it)."""

    steps: tuple[AppliedAction, ...]
    turn_changed: bool
    over: bool
    before: GameState | None = None
    # The move's idempotency key was seen before: this is the first result, nothing applied.
    repeated: bool = False


class MoveUnsure(Exception):
    """A member's move whose commit may or may not have been made: the database went away
    before it answered, and cannot be asked yet. Neither "done" nor "try again": the turn
    message shows what happened once the database is back (the move's key says so)."""


class Shown:
    """What one state of a game shows, each part worked out once, when first asked for: its
    view (the turn message, the market rate), its legal actions (the panel, ``/play``'s
    autocomplete) and the panel's choices (per seat names and language). A move's reply,
    its turn message and its panel, and a panel's second steps, all ask for them."""

    __slots__ = ("_choices", "_legal", "_view", "state")

    def __init__(self, state: GameState) -> None:
        self.state = state
        self._view: GameView | None = None
        self._legal: list[Action] | None = None
        self._choices: dict[tuple[tuple[str, ...], str], Choices] = {}

    def view(self) -> GameView:
        if self._view is None:
            self._view = view(self.state)
        return self._view

    def legal(self) -> Sequence[Action]:
        if self._legal is None:
            self._legal = legal_actions(self.state) if not self.state.over else []
        return self._legal

    def choices(self, names: Sequence[str], locale: str) -> Choices:
        """What the panel offers the player to act (labels are plain text: no escapes)."""
        key = (tuple(names), locale)
        found = self._choices.get(key)
        if found is None:
            rate = self.view().market_rate
            found = self._choices[key] = choices(self.state, names, locale, rate, self.legal())
        return found


@dataclass(eq=False)
class ActiveGame:
    """A game held in memory: its row, seats, engine game (None in the lobby) and lock."""

    row: GameRow
    seats: list[SeatRow]
    game: Game | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # The player of each seat the bot plays, with its kind (an AI level, or "skip"), kept
    # while the game is in memory so that it follows the plan it made for its turn (a
    # restart just plans again).
    ai_players: dict[int, tuple[str, Chooser]] = field(default_factory=dict)
    # What happened since the last turn of the member to act (bot.text.catchup), for the turn
    # numbered catch_up_turn's message.
    catch_up: list[Event] = field(default_factory=list)
    catch_up_turn: int | None = None
    # The board when that member's last turn ended (before their first: as the first turn
    # began), and as their turn in play began, to tell what changed between (resources, hub
    # tracks) whatever they have done since.
    catch_up_before: GameState | None = None
    catch_up_now: GameState | None = None
    # Whether a member sitting in the game has screen-reader mode on (bot.play.readers):
    # the channel's messages are then written for a screen reader. Read with each turn's
    # message.
    spoken: bool = False
    # The board as each recent turn left it (turn number -> state), for the picture of its
    # closed message (bot.discord.couriers); lost on a restart, when the message keeps its last one.
    turn_ends: dict[int, GameState] = field(default_factory=dict)
    # What the coach (bot.play.coach_memory) explained in this game, per member: once a game each.
    coached: dict[int, set[str]] = field(default_factory=dict)
    # The preferences of the member to act as the turn's view read them for its message
    # (turn, prefs, read at): the turn's DM, delivered next, is told by them while they are
    # fresh (bot.play.member_service.turn_notice); a change of them in this process drops them.
    told_prefs: tuple[int, MemberPrefs, float] | None = field(default=None, repr=False)
    # The coach's lines on the turn message at a state (bot.play.coach_memory.Coach.before_pick).
    coach_before: tuple[GameState, list[str]] | None = field(default=None, repr=False)
    # A guided game's tutor (bot.play.tutor.Tutor, made on first use by ``tutor_of``).
    tutor: Any = None
    # The results of the latest keyed moves (idempotency key -> result), to answer a repeat
    # without asking the database; the database's unique key is the guarantee.
    keys: dict[str, MoveResult] = field(default_factory=dict)
    _shown: Shown | None = field(default=None, repr=False)

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def state(self) -> GameState:
        if self.game is None:
            raise ServiceError("game.not_started")
        return self.game.state

    def can_undo(self) -> bool:
        """Whether the seat to act may take back its last action now (its turn, no chance
        outcome since: the engine's rule)."""
        return self.game is not None and self.game.can_undo(self.to_act())

    def board(self) -> GameState:
        """The board as it is now, a copy of its own (a picture drawn later shows this)."""
        return self.state.copy()

    def shown(self) -> Shown:
        """What the game's state shows now, worked out at most once per state (a move, an
        undo or a reload gives a new state object; none is changed in place)."""
        state = self.state
        if self._shown is None or self._shown.state is not state:
            self._shown = Shown(state)
        return self._shown

    @property
    def seat_names(self) -> list[str]:
        """Names as entered (for the board image)."""
        return [s.name for s in self.seats]

    @property
    def chat_names(self) -> list[str]:
        """Names safe to put in a Discord message (markdown escaped)."""
        return [chat_name(s.name) for s in self.seats]

    def seat_of(self, user_id: int) -> int | None:
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    def to_act(self) -> int | None:
        """The seat that must act now; None in the lobby, when over, or on a chance decision."""
        if self.game is None or self.game.state.over:
            return None
        seat = self.game.state.to_act()
        return None if seat == CHANCE else seat

    def user_to_act(self) -> int | None:
        seat = self.to_act()
        return None if seat is None else self.seats[seat].user_id

    @property
    def clock(self) -> ClockSettings:
        """The game's turn clock settings."""
        return self.row.config.clock

    def timed_out(self) -> bool:
        """Whether the turn in play timed out and the bot plays it for its member."""
        return (
            self.game is not None
            and self.row.timeout_mode is not None
            and self.row.timeout_turn == self.game.state.turn_number
        )

    def ai_to_act(self) -> SeatRow | None:
        """The seat the bot plays now: an AI seat, or a member's seat whose turn timed out."""
        seat = self.to_act()
        if seat is None or self.row.status != "playing":
            return None
        row = self.seats[seat]
        return row if row.is_ai or self.timed_out() else None

    def player_kind(self, seat: SeatRow) -> str:
        """Who plays ``seat`` for the bot: its AI level, or "skip" for a skipped turn."""
        if seat.ai_level is not None:
            return seat.ai_level
        return "skip" if self.row.timeout_mode == "skip" else self.clock.takeover

    def waiting_on(self) -> int | None:
        """The member the game waits on (None when an AI or the bot plays, or none acts)."""
        user = self.user_to_act()
        return None if user is None or self.timed_out() else user


def new_events(before: GameState, after: GameState) -> tuple[Event, ...]:
    """Events the actions between ``before`` and ``after`` caused (each event carries the
    version of the action that caused it)."""
    return tuple(e for e in after.events if e.at > before.version)


def event_data(events: Iterable[Event]) -> list[dict[str, object]]:
    return [{"key": e.key, "player": e.player, "params": dict(e.params)} for e in events]


def logged_event(data: Mapping[str, Any]) -> Event:
    """A logged event (``event_data``) as the engine's."""
    player = data.get("player")
    params = data.get("params", {})
    return Event(str(data.get("key")), player if isinstance(player, int) else None, params, 0)


def since_of(game: ActiveGame) -> float:
    """When the clock of the turn in play started counting (before any absence)."""
    return game.row.clock_since if game.row.clock_since is not None else game.row.updated_at


def reminders_sent(game: ActiveGame) -> int:
    """Reminders already sent for the turn in play."""
    return game.row.reminders_sent if game.row.clock_turn == game.state.turn_number else 0


def waiting(game: ActiveGame) -> Waiting:
    """Whom the game in play waits on, as its turn clock counts (said by
    ``bot.text.clock_text.waiting_lines``)."""
    return Waiting(
        game.to_act(), game.waiting_on(), game.timed_out(), since_of(game), reminders_sent(game)
    )

"""The rows the storage reads and writes (``bot.store.storage.Storage``): a game, its seats,
the action log, a finished game's results, a member's preferences, a delivery of the outbox
(and a DM to a game's host made before the transaction that finds the host: ``ToHost``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from bot.store.game_config import DEFAULT_SETTINGS, GameSettings
from bot.store.rating_rules import SeatPlay, played_from_json

GameStatus = Literal["lobby", "playing", "over", "aborted", "orphaned"]
# Why a game was orphaned: its channel (or thread) deleted, or the bot removed from its server.
OrphanedBy = Literal["channel", "guild"]

AiLevel = Literal["easy", "normal", "hard"]
NotifyMode = Literal["channel", "dm", "both", "off"]
ACTIVE: Final = ("lobby", "playing")
SeatChanges = Mapping[int, Mapping[str, object]]  # seat number -> columns to set


@dataclass(frozen=True, slots=True)
class GameRow:
    """One game's row: where it is played, by whom it was set up, and how far it got."""

    id: int
    guild_id: int | None
    channel_id: int
    host_id: int
    status: GameStatus
    max_players: int
    seed: int
    locale: str
    lobby_message_id: int | None
    turn_message_id: int | None
    turn_message_turn: int | None
    waiting_on_user: int | None
    reminded_at: float | None
    created_at: float
    updated_at: float
    # The game's rule variants and turn clock (one JSON value in the ``config`` column).
    config: GameSettings = DEFAULT_SETTINGS
    clock_since: float | None = None
    clock_turn: int | None = None
    reminders_sent: int = 0
    timeout_turn: int | None = None
    timeout_mode: Literal["ai", "skip"] | None = None
    ai_only: bool = False
    notified_turn: int | None = None
    # An orphaned game: why (its channel deleted, the bot removed from its server) and when.
    orphaned: OrphanedBy | None = None
    orphaned_at: float | None = None


@dataclass(frozen=True, slots=True)
class SeatRow:
    """A seat: a member (user_id) or an AI (ai_level), and the name shown for it.

    ``timeouts`` counts the seat's turns that timed out in a row; ``former_user_id`` is
    the member whose seat an AI took over (they may take it back: ``rejoin`` says they
    asked to, from the end of the AI's current turn).
    """

    seat: int
    user_id: int | None
    ai_level: AiLevel | None
    name: str
    timeouts: int = 0
    former_user_id: int | None = None
    rejoin: bool = False
    # Who held the seat in play before (JSON, bot.store.rating_rules.holders_json), and a
    # member the host offered it to (they take it by /af join).
    holders: str = ""
    offered_to: int | None = None

    @property
    def is_ai(self) -> bool:
        return self.ai_level is not None


@dataclass(frozen=True, slots=True)
class ResultRow:
    """How one seat of a finished game did (``vp`` is the sum of the four parts)."""

    seat: int
    user_id: int | None
    ai_level: str | None
    name: str
    vp: int
    vp_colonies: int
    vp_territories: int
    vp_positron: int
    vp_cards: int
    winner: bool
    first_territory: str | None
    place: int | None = None  # 1 = won; by VP, then the tie-breaks (None: not known)
    # Who played the seat's turns (bot/store/rating_rules.py): in all, by user_id, by the bot.
    turns: int = 0
    own_turns: int = 0
    bot_turns: int = 0
    # Who played its turns, JSON (bot.store.rating_rules.played_json): '' if not recorded.
    played_by: str = ""

    def play(self) -> SeatPlay:
        """The seat as the end's rating reads it."""
        return SeatPlay(
            self.seat,
            self.place or (1 if self.winner else 2),
            self.user_id,
            self.ai_level,
            self.turns,
            self.own_turns,
            self.bot_turns,
            played_from_json(self.played_by),
        )


@dataclass(frozen=True, slots=True)
class MemberPrefs:
    """A member's notification choice (bot/discord/notify.py), what is known of their DMs,
    whether the coach (bot/play/coach_things.py) is on for them, and their screen-reader mode
    (bot/play/readers.py)."""

    user_id: int
    notify: NotifyMode = "channel"
    dm_channel_id: int | None = None
    dm_blocked: bool = False
    dm_hint: bool = False  # a private hint on opening DMs is still to be given
    locale: str | None = None
    coach: bool = False  # /af coach: a line on each thing not used before
    screen_reader: bool = False  # /af notify screen_reader: words for a screen reader


@dataclass(frozen=True, slots=True)
class ActionRow:
    """One logged action: its sequence number (0-based), who acted and what happened."""

    seq: int
    actor: int  # seat, or -1 for a chance outcome
    user_id: int | None
    notation: str
    events: list[dict[str, Any]] = field(default_factory=list)
    created_at: float = 0.0
    # The idempotency key of the member's move this action began (None for the rest).
    move_key: str | None = None


@dataclass(frozen=True, slots=True)
class Delivery:
    """Something players must see because of a committed change (``bot.play.outbox`` makes
    them, ``bot.discord.delivery`` delivers them): a kind, what it needs (``payload``), the
    game (None for a server's announcement) and the channel whose lane it goes in. ``id`` is
    0 until it is stored."""

    kind: str
    game_id: int | None
    channel_id: int
    guild_id: int | None
    payload: Mapping[str, Any] = field(default_factory=dict)
    id: int = 0
    attempts: int = 0
    due_at: float = 0.0
    created_at: float = 0.0
    status: str = "pending"
    error: str | None = None
    failed_at: float | None = None


Deliveries = Sequence[Delivery]


@dataclass(frozen=True, slots=True)
class ToHost:
    """A DM to a game's host queued by a change whose transaction is what finds the host
    (``GameStore.orphan_game``): data its caller makes, which the storage fills in with the
    row it read (no code of the caller runs in the transaction). ``to`` makes it the
    ``Delivery``: of the game, in its host's DM lane (``-host``, as ``bot.play.outbox``
    names a member's DMs), the host's id added to ``payload`` as ``user``."""

    kind: str
    payload: Mapping[str, Any]
    created_at: float = 0.0

    def to(self, row: GameRow) -> Delivery:
        payload = {**self.payload, "user": row.host_id}
        return Delivery(
            self.kind, row.id, -row.host_id, row.guild_id, payload, created_at=self.created_at
        )

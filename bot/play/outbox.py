"""The outbox: what players must see because of a change, written with the change.

Every change to a game that players must hear of (a move, the start, a timeout, a seat
changing hands, a reminder...) is committed together with its *deliveries*, in the same
transaction (``bot.store.rows.Delivery``): a crash between the commit and Discord loses
nothing, and ``bot.discord.delivery`` sends them, in order per channel, retrying until they land.

A delivery says what to show, not the bytes to send: it is rendered when it is delivered,
from the game as it is then and from its logged actions, so a retry an hour later shows
the game of now (a turn message with the current panel) and a closed turn's message its
own turn. The kinds:

``turn``     the turn message of the current turn, as the game is now: edited, or posted
             (with its ping) if the turn has none yet; turn: the turn it was queued for
``close``    a turn that ended: its message edited to its final lines without a panel (or
             posted, if it never got one); to: the log's length when it ended, last: the
             game ended in it, seat/member/timeout: who played it and whether the bot
             played it for a member; closing: a last line (a game ended early)
``notify``   the member to act told by DM that their turn began (as they chose)
``notice``   a line in the game's channel: key and params of its text, users it pings,
             link: add a link to the turn message; reply: say it as the answer to the
             member's command when it is delivered at once; with no game, a server's
             announcement (``announcement``: a new season) in its ``locale``
``dm``       a direct message to a member (a reminder), with a notice in the channel if
             their DMs are closed (fallback)
``over``     the game-over post: scores, the final board, the Rematch button
``lobby``    the lobby message as the lobby is now (posted if it has none): closing,
             extra (a line with pings), reply as for notices
``started``  the start of a game: the cards dealt and the first player

``Outbox`` (at the end) is the outbox as a port: what the changes that queue deliveries and
the worker that delivers them (``bot.discord.delivery``) share — its rows in the database
and what this process keeps of it in memory. One object, built once and handed to the game
service and the worker at construction; the worker reaches the outbox's rows through it,
never the store.

- **The rows.** A lane's deliveries due, a lane's lease (one owner per lane), the given-up
  ones counted and pruned (``bot.store.delivery_store``).
- **A lane's pass** (``lane_pass``): one conversation per pass of the worker over a lane.
  The outbox hands it the lane's work at once (its waiting rows, in order, without the
  edits that landed) and takes back each delivery's outcome (``Made``, ``Landed``,
  ``Failed``: tried again at its time, or given up) as it comes: what was made or failed
  is recorded before the next delivery is attempted (its courier reads the game's row as
  committed: the message's id the last one recorded), an edit that landed is kept in
  memory.
- **Lanes just queued in.** A change that queued deliveries in a channel's lane says so
  (``queued``, asked only by ``HeldGames.take_committed``, with the commit): the command
  or AI turn that made it delivers them itself at once, and the worker leaves that lane
  alone for a few seconds (``queued_at``).
- **Edits that landed.** An edit that landed (the turn message shown as the game is)
  changes nothing if it is made again: its row is removed by the game's next move's commit
  (``landed_rows``: handed back if that commit failed), or within
  ``FORGET_SECONDS`` if no move came: a move costs no database write more than it did.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncGenerator, Awaitable, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from bot.play.games import ActiveGame
from bot.store.delivery_store import DeliveryStore
from bot.store.rows import Delivery
from bot.store.shards import Shards

log = logging.getLogger(__name__)

Kind = Literal["turn", "close", "notify", "notice", "dm", "over", "lobby", "started"]
KINDS: Final[tuple[Kind, ...]] = (
    "turn",
    "close",
    "notify",
    "notice",
    "dm",
    "over",
    "lobby",
    "started",
)


def delivery(game: ActiveGame, kind: Kind, now: float, **payload: Any) -> Delivery:
    """A delivery of ``game`` in its channel's lane, queued at ``now``."""
    return Delivery(
        kind=kind,
        game_id=game.id,
        channel_id=game.row.channel_id,
        guild_id=game.row.guild_id,
        payload={k: v for k, v in payload.items() if v is not None},
        created_at=now,
        due_at=now,
    )


def text_of(key: str, params: Mapping[str, object] | None = None) -> dict[str, Any]:
    """A text to render when delivered: its key and params (plain JSON values)."""
    return {"key": key, "params": dict(params or {})}


def turn_shown(game: ActiveGame, now: float) -> Delivery:
    """Show the current turn's message as the game is now (post it if it has none)."""
    return delivery(game, "turn", now, turn=game.state.turn_number)


def turn_closed(
    game: ActiveGame,
    now: float,
    *,
    seat: int,
    to: int,
    last: bool = False,
    closing: Mapping[str, Any] | None = None,
) -> Delivery:
    """Close the message of the turn ``seat`` played, with its final lines from the log's
    first ``to`` actions: the turn is the last part of them when ``last`` (the game ended
    in it), else the part before the next turn's start. Says whether the bot played the
    turn for its member, after a timeout."""
    turn = game.state.turn_number if last else game.state.turn_number - 1
    timeout = game.row.timeout_mode if game.row.timeout_turn == turn else None
    member = None
    if timeout is not None:
        row = game.seats[seat]
        member = row.user_id if row.user_id is not None else row.former_user_id
    return delivery(
        game,
        "close",
        now,
        turn=turn,
        seat=seat,
        to=to,
        last=last or None,
        timeout=timeout,
        member=member,
        closing=dict(closing) if closing else None,
    )


def turn_told(game: ActiveGame, now: float) -> Delivery | None:
    """Tell the member to act that their turn began (by DM, as they chose); None when the
    game waits on no member."""
    user = game.waiting_on()
    if user is None:
        return None
    return delivery(game, "notify", now, turn=game.state.turn_number, user=user)


def notice(
    game: ActiveGame,
    now: float,
    key: str | Sequence[Mapping[str, Any]],
    params: Mapping[str, object] | None = None,
    *,
    users: Sequence[int] = (),
    link: bool = False,
    reply: bool = False,
) -> Delivery:
    """A line in the game's channel in the game's language, pinging ``users`` only (or
    several lines: ``key`` a list of ``text_of``)."""
    said = text_of(key, params) if isinstance(key, str) else {"lines": [dict(t) for t in key]}
    return delivery(
        game,
        "notice",
        now,
        **said,
        users=list(users) or None,
        link=link or None,
        reply=reply or None,
    )


def direct(
    game: ActiveGame,
    now: float,
    user: int,
    key: str,
    params: Mapping[str, object] | None = None,
    *,
    fallback: Delivery | None = None,
    always: bool = False,
    link: bool = False,
) -> Delivery:
    """A direct message to ``user`` about this game, in their language, if they chose DMs
    (``always``: whatever they chose), ``link``: with a link to the turn message;
    ``fallback``: a notice to post instead if they do not get it (their DMs closed, or no
    DMs chosen any more)."""
    return delivery(
        game,
        "dm",
        now,
        **text_of(key, params),
        user=user,
        always=always or None,
        link=link or None,
        fallback=dict(fallback.payload) if fallback is not None else None,
    )


def game_over(game: ActiveGame, now: float) -> Delivery:
    return delivery(game, "over", now)


def lobby_shown(
    game: ActiveGame,
    now: float,
    *,
    closing: Mapping[str, Any] | None = None,
    extra: Mapping[str, Any] | None = None,
    users: Sequence[int] = (),
    reply: bool = False,
) -> Delivery:
    """Show the lobby message as the lobby is now (post it if it has none), with a
    ``closing`` line for a lobby that ended, or an ``extra`` line that pings ``users``."""
    return delivery(
        game,
        "lobby",
        now,
        closing=dict(closing) if closing else None,
        extra=dict(extra) if extra else None,
        users=list(users) or None,
        reply=reply or None,
    )


def announcement(
    guild_id: int | None,
    channel_id: int,
    now: float,
    key: str,
    params: Mapping[str, object] | None = None,
    *,
    locale: str = "en",
    reply: bool = False,
) -> Delivery:
    """A line in a server's channel that belongs to no game (a new season), in ``locale``
    (the server's language); ``reply``: said as the answer to the command that caused it,
    when it is delivered at once."""
    payload = {**text_of(key, params), "locale": locale}
    if reply:
        payload["reply"] = True
    return Delivery("notice", None, channel_id, guild_id, payload, created_at=now, due_at=now)


def game_started(game: ActiveGame, now: float, to: int) -> Delivery:
    """The start: the cards dealt and the first player (the log's first ``to`` actions)."""
    return delivery(game, "started", now, to=to, reply=True)


FORGET_SECONDS: Final = 1.0  # edits that landed are removed within this, if no move did


@dataclass(frozen=True, slots=True)
class Made:
    """A delivery made: its row goes, with what it queued in its place (``then``) and what
    it records on its game (``fields``: a message's id), in one transaction."""

    delivery: Delivery
    then: Sequence[Delivery] = ()
    fields: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Landed:
    """An edit landed (made again, it changes nothing): its row goes with the game's next
    move's commit, or within ``FORGET_SECONDS``."""

    delivery: Delivery


@dataclass(frozen=True, slots=True)
class Failed:
    """An attempt failed: tried again at ``due_at``, or given up."""

    delivery: Delivery
    attempts: int
    due_at: float
    error: str
    give_up: bool
    now: float


Outcome = Made | Landed | Failed


@dataclass(frozen=True, slots=True)
class LaneWork:
    """What a lane's pass is handed: the lane's waiting rows as read when it began, in order,
    none of them an edit that landed; after an outcome, the error that kept it from being
    recorded (the database), if any."""

    rows: tuple[Delivery, ...]
    error: Exception | None = None


class Outbox:
    """The outbox's rows, the lanes just queued in, the edits that landed; see the module
    docstring."""

    def __init__(
        self,
        deliveries: DeliveryStore,
        *,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self._deliveries = deliveries
        self.sleep = sleep
        self._queued: dict[int, float] = {}  # lane -> when a change queued in it (monotonic)
        self._landed: dict[int, int] = {}  # edits delivered, removal to come: id -> game
        self._forget_task: asyncio.Task[None] | None = None

    # ---- lanes just queued in ------------------------------------------------------------

    def queued(self, channel_id: int) -> None:
        """A change queued deliveries in this lane; whoever made it delivers them now."""
        self._queued[channel_id] = time.monotonic()

    def queued_at(self, channel_id: int) -> float | None:
        """When a change last queued in this lane (monotonic), while it is delivered."""
        return self._queued.get(channel_id)

    def done_with(self, channel_id: int) -> None:
        """The change's own delivery of the lane is over (landed or left to the worker)."""
        self._queued.pop(channel_id, None)

    # ---- edits that landed ---------------------------------------------------------------

    def _land(self, d: Delivery) -> None:
        """An edit landed: its row goes with the next commit, or within a second."""
        self._landed[d.id] = d.game_id or 0
        self._forget_soon()

    def take_landed(self) -> list[int]:
        """The rows of the edits that landed, for a commit to remove."""
        ids = list(self._landed)
        self._landed.clear()
        return ids

    @contextlib.contextmanager
    def landed_rows(self) -> Iterator[list[int]]:
        """``with outbox.landed_rows() as landed:`` the rows of the edits that landed, for
        the commit made in the block to remove; if the block raises (the commit failed, or
        was cancelled), they are handed back first: they wait for the next commit."""
        ids = self.take_landed()
        try:
            yield ids
        except BaseException:
            self.give_back_landed(ids)
            raise

    def give_back_landed(self, ids: list[int]) -> None:
        """The commit that was to remove them failed: they wait for the next one."""
        for i in ids:
            self._landed[i] = 0
        if ids:
            self._forget_soon()

    def _forget_soon(self) -> None:
        if self._forget_task is None or self._forget_task.done():
            self._forget_task = asyncio.create_task(self._forget_later(), name="af-landed")

    async def _forget_later(self) -> None:
        """Remove the landed edits' rows within a second; if the database refuses (they are
        handed back), again after twice the wait, up to a minute, until it takes them: this
        task is the one running, so handing them back cannot start another."""
        wait = FORGET_SECONDS
        while True:
            await self.sleep(wait)
            removed = await self.forget_landed()
            if not self._landed:
                return
            # refused: wait longer; else others landed meanwhile: within a second again
            wait = FORGET_SECONDS if removed else min(wait * 2, 60.0)

    async def forget_landed(self) -> bool:
        """Remove the rows of the edits that landed now (no commit took them): whether the
        database took it (False: they wait, handed back)."""
        ids = self.take_landed()
        if not ids:
            return True
        try:
            await self._deliveries.forget_deliveries(ids)
        except asyncio.CancelledError:
            self.give_back_landed(ids)
            raise
        except Exception as e:
            log.warning("deliveries: %d landed ones not removed yet: %s", len(ids), e)
            self.give_back_landed(ids)
            return False
        return True

    async def stop(self) -> None:
        """Stop waiting, and remove what landed now (else the next start makes those edits
        again, which changes nothing)."""
        task = self._forget_task
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._forget_task = None
        with contextlib.suppress(Exception):
            await self.forget_landed()

    # ---- the rows ------------------------------------------------------------------------

    async def due(self, shards: Shards | None = None) -> list[Delivery]:
        """The deliveries waiting in the lanes of these shards' servers, in lane order (the
        edits that landed left out: their rows wait for their removal)."""
        rows = await self._deliveries.pending_deliveries(shards)
        return [d for d in rows if d.id not in self._landed]

    async def lane_pass(self, channel_id: int) -> AsyncGenerator[LaneWork, Outcome | None]:
        """One pass of the worker over a lane, as one conversation: first the lane's work
        (its waiting rows, in order, the edits that landed left out), then, for each outcome
        sent back, whether it was recorded (``LaneWork.error``). A delivery made or failed
        is recorded at once, before the worker attempts the next one (whose courier reads
        the game's row as committed: the message's id the last one recorded); an edit that
        landed is kept in memory, its row removed with the next commit or within a second.
        A pass after a delivery queued others in its place is a new pass (the lane read
        again once its lease is known to be held)."""
        rows = await self._deliveries.pending_deliveries(channel_id=channel_id)
        work = LaneWork(tuple(d for d in rows if d.id not in self._landed))
        while True:
            outcome = yield work
            error: Exception | None = None
            try:
                match outcome:
                    case Landed(d):
                        self._land(d)
                    case Made(d, then, fields):
                        await self._deliveries.delivered(d.id, d.game_id, then, **fields)
                    case Failed(d, attempts, due_at, reason, give_up, now):
                        await self._deliveries.delivery_failed(
                            d.id,
                            attempts=attempts,
                            due_at=due_at,
                            error=reason,
                            give_up=give_up,
                            now=now,
                        )
            except asyncio.CancelledError:
                raise
            except Exception as e:
                error = e
            work = LaneWork(work.rows, error)

    async def take_lane(
        self, channel_id: int, owner: str, now: float, until: float
    ) -> tuple[bool, str | None]:
        """Hold a lane's lease until ``until`` if it ran out or is ``owner``'s: whether it
        is held now, and who held it before."""
        return await self._deliveries.claim_lane(channel_id, owner, now, until)

    async def let_lanes_go(self, owner: str) -> None:
        """A process that stops lets its lanes go at once."""
        await self._deliveries.release_lanes(owner)

    async def given_up_count(self, shards: Shards | None = None) -> int:
        return (await self._deliveries.delivery_counts(shards))[2]

    async def given_up(
        self, shards: Shards | None = None, game_id: int | None = None
    ) -> list[Delivery]:
        """The deliveries given up (of these shards, or of one game), the latest first."""
        return await self._deliveries.failed_deliveries(shards, game_id=game_id)

    async def prune_given_up(self, before: float) -> int:
        """Remove the rows given up before ``before``: how many."""
        return await self._deliveries.prune_failed(before)


__all__ = [
    "FORGET_SECONDS",
    "KINDS",
    "Failed",
    "Kind",
    "Landed",
    "LaneWork",
    "Made",
    "Outbox",
    "Outcome",
    "announcement",
    "delivery",
    "direct",
    "game_over",
    "game_started",
    "lobby_shown",
    "notice",
    "text_of",
    "turn_closed",
    "turn_shown",
    "turn_told",
]

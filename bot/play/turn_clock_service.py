"""The game service's turn clock at work: which step of it is due for the games in play
(``clock_due``) and that step taken (``take_clock_step``): a reminder or final warning
told to the member to act as they chose to hear of their turn (by DM, with the channel as
the fallback if their DMs are closed; in the channel with a ping; or without one), recorded
with this turn's reminders in one commit; or a turn whose limit passed timed out (played
by the AI or skipped, the seat handed to the AI after too many in a row). A step is
taken once across processes over one database (a rolling restart's overlap, or two
processes given the same shards): it is recorded only if the stored row still holds what
this process judged it from (``judged``), in one statement with its deliveries queued;
the process that loses takes the game as committed and does nothing. The values of
the clock (which step is due when, the deadline) are ``bot.store.clock_settings``'s; the
clock's background task, which ticks and asks, is ``bot.discord.background.Background``;
its texts are ``bot.text.clock_text``'s.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from bot.play import outbox
from bot.play.games import ActiveGame, reminders_sent, since_of
from bot.play.held_games import HeldGames
from bot.play.notify_modes import pings_in_channel, wants_dm
from bot.play.seat_changes import Seating, with_changes
from bot.store.clock_settings import (
    LIMIT_PASSED,
    REMINDED,
    WARNED,
    ClockStep,
    clock_start,
    deadline,
    due_step,
)
from bot.store.errors import GameChangedError, ServiceError
from bot.store.game_store import GameStore
from bot.store.member_store import MemberStore
from bot.store.rows import Delivery, SeatRow
from bot.store.seat_store import SeatStore
from bot.text.clock_text import mention
from bot.text.durations import when
from bot.text.seat_names import ai_name

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Timeout:
    """What a timed-out turn led to: the seat, the action taken, and whether the seat
    passed to the AI for good (``takeover``) after too many timeouts in a row."""

    seat: SeatRow
    action: Literal["ai", "skip", "none"]
    count: int
    takeover: bool


def step_due(game: ActiveGame, away: Mapping[int, float], now: float) -> ClockStep | None:
    """The step of the game's turn clock due at ``now`` (None: nothing is due, or the game
    waits on no member), ``away``: when the absences of members end."""
    user = game.waiting_on()
    if user is None or game.row.status != "playing":
        return None
    return due_step(game.clock, since_of(game), reminders_sent(game), away.get(user), now)


def judged(game: ActiveGame) -> dict[str, object]:
    """The columns of the game's row that its turn clock's step is judged from, as this
    process holds them: the step is recorded only if the stored row still holds them.
    Another process over the database that took the step first (each takes a reminder
    from ``reminders_sent``, and the timeout sets it), a move there (``clock_since``,
    ``clock_turn``) or a clock restarted by a change of settings, changed them."""
    row = game.row
    return {
        "status": row.status,
        "clock_turn": row.clock_turn,
        "reminders_sent": row.reminders_sent,
        "clock_since": row.clock_since,
        "timeout_turn": row.timeout_turn,
    }


class TurnClockService:
    """The turn clock's steps: reminders told and recorded, turns timed out."""

    def __init__(
        self,
        games: HeldGames,
        seating: Seating,
        *,
        clock: Callable[[], float],
        game_rows: GameStore,
        seat_rows: SeatStore,
        members: MemberStore,
    ) -> None:
        self._game_rows = game_rows
        self._seat_rows = seat_rows
        self._members = members
        self.games = games
        self.seating = seating
        self.clock = clock

    async def back_from_away(self, user_ids: Iterable[int]) -> dict[int, float]:
        """When each of these members' absence ends (those who set one): their turn clock
        starts then."""
        return await self._members.away_until(user_ids)

    async def clock_due(
        self, games: Sequence[ActiveGame], now: float
    ) -> list[tuple[ActiveGame, ClockStep]]:
        """The games of ``games`` with a step of their turn clock due at ``now``, and that
        step (the members' absences read once for all of them)."""
        waiting = [g for g in games if g.waiting_on() is not None]
        away = await self.back_from_away(u for g in waiting if (u := g.waiting_on()))
        return [(g, step) for g in waiting if (step := step_due(g, away, now)) is not None]

    async def take_clock_step(self, game: ActiveGame, step: ClockStep, now: float) -> bool:
        """Take the step of the game's turn clock due at ``now`` (``clock_due``), if it is
        still the one due (a move, or a change of seats, may have come in meanwhile):
        whether it was taken. A reminder or final warning is queued for the member to act
        and recorded with this turn's reminders in one commit (a restart neither loses nor
        repeats it); a timeout is the game's timeout action (``time_out``). Call with the
        game's lock held; its lane is then to be delivered.

        Taken once across processes over the database: if another one took it first (or
        the game moved on there), nothing is recorded nor queued here, and the game is
        loaded again as committed (not taken)."""
        user = game.waiting_on()
        away = await self.back_from_away([user] if user else [])
        if step_due(game, away, now) != step or user is None:
            return False
        try:
            await self._take_step(game, step, user, away)
        except GameChangedError:
            log.info(
                "game %d: the turn clock's %s was taken by another process, or the game "
                "moved on there; loaded again as committed",
                game.id,
                step,
            )
            await self.games.reload(game)
            return False
        return True

    async def _take_step(
        self, game: ActiveGame, step: ClockStep, user: int, away: Mapping[int, float]
    ) -> None:
        """Take the step (``take_clock_step``); GameChangedError if the stored game is no
        longer as judged (``judged``): nothing was written."""
        if step == "timeout":
            await self.time_out(game)
            return
        clock = game.clock
        since = since_of(game)
        params = {
            "mention": mention(user),
            "since": when(clock_start(since, away.get(user))),
            "deadline": when(deadline(clock, since, away.get(user)), "f"),
            "relative": when(deadline(clock, since, away.get(user))),
        }
        key = "clock.reminder" if step == "remind" else f"clock.warning.{clock.action}"
        told = await self._reminder(game, user, key, params)
        await self.mark_reminders(game, REMINDED if step == "remind" else WARNED, told)

    async def _reminder(
        self, game: ActiveGame, user: int, key: str, params: Mapping[str, object]
    ) -> list[Delivery]:
        """A reminder or final warning for ``user``, as they chose to hear of their turns:
        by DM (in the channel if their DMs are closed), in the channel with a ping, both, or
        (``off``) in the channel without a ping."""
        prefs = (await self._members.prefs([user]))[user]
        now = self.clock()
        pinged = outbox.notice(game, now, key, params, users=[user], link=True)
        told = []
        if wants_dm(prefs):
            fallback = None if pings_in_channel(prefs) else pinged
            told.append(outbox.direct(game, now, user, key, params, fallback=fallback, link=True))
        if pings_in_channel(prefs):
            told.append(pinged)
        elif prefs.notify == "off":
            told.append(outbox.notice(game, now, key, params, link=True))
        return told

    async def mark_reminders(
        self, game: ActiveGame, sent: int, told: Sequence[Delivery] = ()
    ) -> None:
        """Record that this turn's reminders up to ``sent`` were sent, with the reminder
        itself (``told``): one commit, so a restart neither loses nor repeats it; only if the
        stored game is still as this process judged it (``judged``), else GameChangedError
        and nothing is recorded nor queued (another process took the step)."""
        row = await self._game_rows.update_game(
            game.id,
            told,
            expected=judged(game),
            reminders_sent=sent,
            clock_turn=game.state.turn_number,
        )
        self.games.take_committed(game, told, row=row)

    async def time_out(self, game: ActiveGame) -> Timeout:
        """The turn limit passed for the member to act: take the game's timeout action.

        Written once, in one transaction: the turn being played for the member (``ai`` or
        ``skip``), the seat's count of timeouts in a row, and — at the limit — the seat
        passing to the AI. After a restart the bot goes on playing that turn; it never
        plays it twice. Only if the stored game is still as this process judged it
        (``judged``), else GameChangedError and nothing is written nor told (another
        process timed the turn out). Call with the game's lock held.
        """
        seat_no = game.to_act()
        if seat_no is None or game.waiting_on() is None:
            raise ServiceError("clock.nothing_waits")
        seat = game.seats[seat_no]
        clock = game.clock
        now = self.clock()
        name = {"name": game.chat_names[seat_no]}
        host = game.row.host_id
        if clock.action == "none":
            params: dict[str, object] = {
                "host": f"<@{host}>",
                **name,
                "hours": {"hours": clock.limit_hours},
            }
            told = [outbox.notice(game, now, "clock.timeout.none", params, users=[host])]
            await self.mark_reminders(game, LIMIT_PASSED, told)
            return Timeout(seat, "none", seat.timeouts, False)
        count = seat.timeouts + 1
        takeover = count >= clock.max_timeouts
        changes: dict[str, object] = {"timeouts": count}
        if takeover:
            changes.update(
                user_id=None,
                ai_level=clock.takeover,
                name=ai_name(clock.takeover, seat_no + 1, seat.name, game.row.locale),
                former_user_id=seat.user_id,
                rejoin=False,
                **self.seating.handed_over(game, seat_no),
            )
        told = [
            outbox.turn_shown(game, now),  # "played for @member by the AI"
            outbox.notice(game, now, f"clock.timeout.{clock.action}", name),
        ]
        if takeover:
            params = {
                "mention": f"<@{seat.user_id}>",
                "count": count,
                "level": outbox.text_of(f"ai.level.{clock.takeover}"),
                "host": f"<@{host}>",
            }
            users = [u for u in (seat.user_id, host) if u is not None]
            told.append(outbox.notice(game, now, "clock.takeover", params, users=users))
        row = await self._seat_rows.commit_seat_change(
            game.id,
            {seat_no: changes},
            told,
            departure=self.seating.departure(game, seat_no, "timeout") if takeover else None,
            expected=judged(game),
            timeout_turn=game.state.turn_number,
            timeout_mode=clock.action,
            waiting_on_user=None,
            reminders_sent=LIMIT_PASSED,
            clock_turn=game.state.turn_number,
        )
        seats = [with_changes(s, changes if s.seat == seat_no else None) for s in game.seats]
        self.games.take_committed(game, told, row=row, seats=seats)
        return Timeout(seat, clock.action, count, takeover)

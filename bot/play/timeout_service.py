"""The game service's turn clock at work: this turn's reminders recorded with the reminder,
and a turn whose limit passed timed out (played by the AI or skipped, the seat handed to
the AI after too many in a row). The clock's background task is
``bot.discord.background.Background``; its texts are ``bot.text.clock_text``'s.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from bot.play import outbox
from bot.play.games import ActiveGame
from bot.play.service_base import ServiceBase, _with
from bot.store.clock_settings import LIMIT_PASSED
from bot.store.errors import ServiceError
from bot.store.rows import Delivery, SeatRow
from bot.text.seat_names import ai_name


@dataclass(frozen=True, slots=True)
class Timeout:
    """What a timed-out turn led to: the seat, the action taken, and whether the seat
    passed to the AI for good (``takeover``) after too many timeouts in a row."""

    seat: SeatRow
    action: Literal["ai", "skip", "none"]
    count: int
    takeover: bool


class TimeoutService(ServiceBase):
    """Reminders recorded and turns timed out."""

    async def back_from_away(self, user_ids: Iterable[int]) -> dict[int, float]:
        """When each of these members' absence ends (those who set one): their turn clock
        starts then."""
        return await self.store.away_until(user_ids)

    async def mark_reminders(
        self, game: ActiveGame, sent: int, told: Sequence[Delivery] = ()
    ) -> None:
        """Record that this turn's reminders up to ``sent`` were sent, with the reminder
        itself (``told``): one commit, so a restart neither loses nor repeats it."""
        row = await self.store.update_game(
            game.id, told, reminders_sent=sent, clock_turn=game.state.turn_number
        )
        self._took(game, row, None, told)

    async def time_out(self, game: ActiveGame) -> Timeout:
        """The turn limit passed for the member to act: take the game's timeout action.

        Written once, in one transaction: the turn being played for the member (``ai`` or
        ``skip``), the seat's count of timeouts in a row, and — at the limit — the seat
        passing to the AI. After a restart the bot goes on playing that turn; it never
        plays it twice. Call with the game's lock held.
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
                **self._handed_over(game, seat_no),
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
        row = await self.store.update(
            game.id,
            {seat_no: changes},
            told,
            departure=self._departure(game, seat_no, "timeout") if takeover else None,
            timeout_turn=game.state.turn_number,
            timeout_mode=clock.action,
            waiting_on_user=None,
            reminders_sent=LIMIT_PASSED,
            clock_turn=game.state.turn_number,
        )
        seats = [_with(s, changes if s.seat == seat_no else None) for s in game.seats]
        self._took(game, row, seats, told)
        return Timeout(seat, clock.action, count, takeover)

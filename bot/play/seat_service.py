"""The game service's seats in a game: a seat kicked (by the host, a moderator, or the other
players once a turn has stalled), handed to another member (at once, or offered and taken),
taken back by a member the AI replaced (``rejoin``); and members away (``/af away``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.play import outbox
from bot.play.games import ActiveGame
from bot.play.seat_changes import SeatChange, Seating, back_to, check_manager
from bot.store.action_log_store import ActionLogStore
from bot.store.clock_settings import HOUR, MAX_AWAY_DAYS
from bot.store.errors import ServiceError
from bot.store.member_store import MemberStore
from bot.store.rating_rules import holders_from_json
from bot.store.rows import SeatRow

DAY = 86400.0


class SeatService:
    """Seats changing hands in a game, and members away."""

    def __init__(
        self,
        seating: Seating,
        *,
        clock: Callable[[], float],
        action_log: ActionLogStore,
        members: MemberStore,
    ) -> None:
        self._action_log = action_log
        self._members = members
        self.seating = seating
        self.clock = clock

    def seat_numbered(self, game: ActiveGame, number: int) -> SeatRow:
        """The seat shown as ``number`` (1-based), or a refusal."""
        if not 1 <= number <= len(game.seats):
            raise ServiceError("seats.no_such_seat", number=number, seats=len(game.seats))
        return game.seats[number - 1]

    async def kick(
        self, game: ActiveGame, user_id: int, can_manage: bool, number: int, by: str = ""
    ) -> SeatChange:
        """The host (or Manage Channels: ``by``, their name) removes a lobby seat, or hands
        a member's seat in a game in play to the AI (the game goes on); a member removed
        before they made a move in the seat is not rated by it. Any other member seated in
        a game in play may remove the member it waits on once that turn has stalled
        (``stall_due``): rated as removed, last, moves or not."""
        manager = game.row.host_id == user_id or can_manage
        stalled = not manager and game.row.status == "playing" and game.seat_of(user_id) is not None
        if not stalled:
            check_manager(game, user_id, can_manage)
        seat = self.seat_numbered(game, number)
        if seat.user_id is not None and seat.user_id == user_id:
            raise ServiceError("seats.kick_self")
        now = self.clock()
        params = {
            "by": by,
            "name": seat.name,
            "level": outbox.text_of(f"ai.level.{game.clock.takeover}"),
        }
        if game.row.status == "lobby":
            said = outbox.notice(game, now, "seats.kicked_lobby", params, reply=True)
            return await self.seating.remove_from_lobby(game, seat.seat, said)
        if seat.is_ai:
            raise ServiceError("seats.already_ai", name=seat.name)
        if stalled:
            await self.check_stalled(game, seat)
            said = outbox.notice(game, now, "seats.kicked_stalled", params, reply=True)
            return await self.seating.to_ai(game, seat.seat, said, "kicked")
        said = outbox.notice(game, now, "seats.kicked_game", params, reply=True)
        rated = await self._moved(game, seat.seat)
        return await self.seating.to_ai(game, seat.seat, said, "kicked", rated)

    def stall_after(self, game: ActiveGame) -> float:
        """How long (seconds) a turn may wait on its member before the other players may
        remove them: the longest absence (``/af away``) and the turn limit, whatever the
        clock's state (off, or nothing happening at the limit)."""
        return MAX_AWAY_DAYS * DAY + game.clock.limit_hours * HOUR

    async def stall_due(self, game: ActiveGame) -> float | None:
        """When the member the game waits on can be removed by the other players: the
        last move of the game (or the start), or the seat's last change of hands if later,
        plus ``stall_after`` (None: the game waits on nobody)."""
        seat = game.to_act()
        if seat is None or game.waiting_on() is None:
            return None
        last = await self._action_log.last_actions(game.id, 1)
        since = last[-1].created_at if last else game.row.updated_at
        handed = holders_from_json(game.seats[seat].holders)
        if handed:
            since = max(since, handed[-1].at)
        return since + self.stall_after(game)

    async def check_stalled(self, game: ActiveGame, seat: SeatRow) -> None:
        """Refuse a player's removal of ``seat`` unless the game waits on it and its turn
        has stalled."""
        due = await self.stall_due(game)
        days = round(self.stall_after(game) / DAY)
        if due is None or game.to_act() != seat.seat:
            raise ServiceError("seats.kick_not_waiting", days=days)
        if self.clock() < due:
            raise ServiceError("seats.kick_too_soon", days=days, when=f"<t:{int(due)}:f>")

    async def _moved(self, game: ActiveGame, seat: int) -> bool:
        """Whether the seat's member made a move in it in this game."""
        user = game.seats[seat].user_id
        return any(
            a.actor == seat and a.user_id == user for a in await self._action_log.actions(game.id)
        )

    async def replace(
        self,
        game: ActiveGame,
        user_id: int,
        can_manage: bool,
        number: int,
        member_id: int,
        member_name: str,
        member_is_bot: bool,
        by: str = "",
    ) -> SeatChange:
        """Hand a seat (a member's or an AI's) to a member who has none in this game,
        keeping everything the seat owns (``by``: the name of who did it): at once to the
        one who asks, else offered to the member, who takes it by ``take_offer`` (``/af
        join``): nobody is seated, and rated, without their consent."""
        check_manager(game, user_id, can_manage)
        seat = self.seat_numbered(game, number)
        if member_is_bot:
            raise ServiceError("seats.replace_bot", name=member_name)
        if game.seat_of(member_id) is not None:
            raise ServiceError("seats.already_seated", name=member_name)
        if member_id == user_id:
            return await self._hand_to(game, seat, member_id, member_name, by)
        now = self.clock()
        params = {"by": by, "old": seat.name, "mention": f"<@{member_id}>"}
        said = outbox.notice(game, now, "seats.offered", params, users=[member_id], reply=True)
        await self.seating.update_seats(game, {seat.seat: {"offered_to": member_id}}, [said])
        return SeatChange(seat, game.seats[seat.seat], pending=True)

    async def take_offer(self, game: ActiveGame, user_id: int, name: str) -> SeatChange:
        """A member takes the seat the host offered them (``/af join``)."""
        seat = next((s for s in game.seats if s.offered_to == user_id), None)
        if seat is None:
            raise ServiceError("seats.no_offer")
        if game.seat_of(user_id) is not None:
            raise ServiceError("lobby.already_seated")
        return await self._hand_to(game, seat, user_id, name, "")

    async def _hand_to(
        self, game: ActiveGame, seat: SeatRow, member_id: int, member_name: str, by: str
    ) -> SeatChange:
        """Give ``seat`` to a member who agreed (``by``: who asked, '' for an offer taken);
        its member is rated as replaced if they made a move in it."""
        changes: dict[str, object] = {
            "user_id": member_id,
            "ai_level": None,
            "name": member_name[:32],
            "former_user_id": None,
            "rejoin": False,
            "timeouts": 0,
            "offered_to": None,
            **self.seating.handed_over(game, seat.seat),
        }
        fields: dict[str, Any] = {}
        if game.timed_out() and game.to_act() == seat.seat:
            fields.update(timeout_turn=None, timeout_mode=None)  # the newcomer plays on
        if seat.user_id == game.row.host_id:
            fields["host_id"] = member_id
        now = self.clock()
        params = {"by": by, "old": seat.name, "new": member_name[:32]}
        key = "seats.replaced" if by else "seats.offer_taken"
        said = [outbox.notice(game, now, key, params, reply=True)]
        if game.row.status == "playing" and game.game is not None and game.to_act() == seat.seat:
            # The member now waited on (a timed-out turn goes back to them too).
            said.append(
                outbox.notice(
                    game,
                    now,
                    "seats.your_turn",
                    {"mention": f"<@{member_id}>"},
                    users=[member_id],
                    link=True,
                )
            )
        departure = None
        if seat.user_id is not None and await self._moved(game, seat.seat):
            departure = self.seating.departure(game, seat.seat, "replaced")
        await self.seating.update_seats(game, {seat.seat: changes}, said, departure, **fields)
        return SeatChange(seat, game.seats[seat.seat])

    async def rejoin(self, game: ActiveGame, user_id: int, name: str) -> SeatChange:
        """A member takes back the seat an AI took over from them: at once, or — if the AI
        is playing that seat's turn — as soon as that turn ends."""
        if game.row.status != "playing" or game.game is None:
            raise ServiceError("seats.nothing_to_rejoin")
        if game.seat_of(user_id) is not None:
            raise ServiceError("lobby.already_seated")
        seat = next((s for s in game.seats if s.is_ai and s.former_user_id == user_id), None)
        if seat is None:
            raise ServiceError("seats.nothing_to_rejoin")
        now = self.clock()
        shown = {"name": name[:32]}
        if game.state.current == seat.seat:
            # The seat shows the member's name again; the AI finishes the turn it is playing.
            said = outbox.notice(game, now, "seats.rejoin_pending", shown, reply=True)
            changes = {seat.seat: {"rejoin": True, "name": name[:32]}}
            await self.seating.update_seats(game, changes, [said])
            return SeatChange(seat, game.seats[seat.seat], pending=True)
        said = outbox.notice(game, now, "seats.rejoined", shown, reply=True)
        back = {**back_to(user_id, name), **self.seating.handed_over(game, seat.seat)}
        await self.seating.update_seats(game, {seat.seat: back}, [said])
        return SeatChange(seat, game.seats[seat.seat])

    async def set_away(self, user_id: int, days: int) -> float | None:
        """Pause the clock for a member for ``days`` (1-14; 0 ends an absence). Returns when
        the absence ends (None once ended). The clock restarts when it ends."""
        if not 0 <= days <= MAX_AWAY_DAYS:
            raise ServiceError("away.range", high=MAX_AWAY_DAYS)
        now = self.clock()
        until = now + days * DAY
        await self._members.set_away_until(user_id, until)
        return until if days else None

    async def away(self, user_ids: list[int]) -> dict[int, float]:
        """Members among ``user_ids`` who are away now, with when they are back."""
        now = self.clock()
        return {u: t for u, t in (await self._members.away_until(user_ids)).items() if t > now}

"""The seat changes several jobs of the game service make (``Seating``): a member's seat in
a game in play handed to the AI, a lobby seat removed, seats changed with the game shown
again, a member's departure rated as last, a seat's change of holder kept in its history,
the game shown again (or closed) after a change. The lobby, the seats, the moves, the
settings and the turn clock (``bot.play.*_service``) are each handed this one object.
``SeatChange`` is what a seat command did. The checks around the changes are pure
functions of a game, which change nothing and which Discord's side asks as well before it
asks for a change (``leaving_counts``, ``ends_without``, ``check_manager``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from dataclasses import fields as fields_of
from typing import Any

from bot.play import outbox
from bot.play.games import ActiveGame
from bot.play.held_games import HeldGames
from bot.store.errors import ServiceError
from bot.store.rating_rules import (
    Departure,
    Handover,
    Holder,
    Reason,
    holders_from_json,
    holders_json,
)
from bot.store.rows import Delivery, GameRow, SeatChanges, SeatRow
from bot.store.seat_store import SeatStore
from bot.text.seat_names import ai_name


@dataclass(frozen=True, slots=True)
class SeatChange:
    """What a seat command did: the seat before and after (``after`` is None when a lobby
    seat was removed), and whether the game ended because no member was left."""

    before: SeatRow
    after: SeatRow | None
    ended: bool = False
    pending: bool = False  # a rejoin that takes effect when the AI's turn ends


# The columns of a game's row (a change's fields that the row in memory takes at once).
_ROW_FIELDS = frozenset(f.name for f in fields_of(GameRow))


class Seating:
    """The seat changes several jobs make; see the module docstring."""

    def __init__(
        self, games: HeldGames, *, clock: Callable[[], float], seat_rows: SeatStore
    ) -> None:
        self._seat_rows = seat_rows
        self.games = games
        self.clock = clock

    def shown(self, game: ActiveGame, now: float) -> Delivery:
        """Show the game again after a change: its lobby message, or its turn message."""
        if game.row.status == "playing" and game.game is not None:
            return outbox.turn_shown(game, now)
        return outbox.lobby_shown(game, now)

    def ended(self, game: ActiveGame, now: float, closing: dict[str, Any]) -> Delivery:
        """Show a game that ends before its end: its turn message in its final form with a
        ``closing`` line (no panel), or its lobby message closed."""
        if game.row.status == "playing" and game.game is not None:
            state = game.state
            return outbox.turn_closed(
                game, now, seat=state.current, to=len(game.game.log), last=True, closing=closing
            )
        return outbox.lobby_shown(game, now, closing=outbox.text_of("lobby.closed"))

    def departure(
        self, game: ActiveGame, seat: int, reason: Reason
    ) -> tuple[int, Departure, float] | None:
        """A member leaving their seat in a game in play, rated as last among the seats
        still in (``bot.store.rating_rules``) in the change's own transaction: on a server,
        never in a guided game. None when the seat has no member."""
        row = game.seats[seat]
        guild = game.row.guild_id
        if not leaving_counts(game) or row.user_id is None or guild is None:
            return None
        others = tuple(Holder(s.seat, s.user_id, s.ai_level) for s in game.seats if s.seat != seat)
        return guild, Departure(row.user_id, seat, reason, others, row.name), self.clock()

    def handed_over(self, game: ActiveGame, seat: int) -> dict[str, object]:
        """The seat's change of holder in play, kept in its history (``holders``): who
        held it until now, so the game's end counts each turn for who played it."""
        if game.row.status != "playing" or game.game is None:
            return {}
        row = game.seats[seat]
        held = [
            *holders_from_json(row.holders),
            Handover(len(game.game.log), row.user_id, row.ai_level, self.clock()),
        ]
        return {"holders": holders_json(held)}

    async def to_ai(
        self,
        game: ActiveGame,
        seat: int,
        said: Delivery,
        reason: Reason,
        rated: bool = True,
        **game_fields: Any,
    ) -> SeatChange:
        """Hand a member's seat in a game in play to the AI (the game's takeover level),
        saying so (``said``); the member is rated as leaving (``reason``) if ``rated``."""
        old = game.seats[seat]
        level = game.clock.takeover
        changes: dict[str, object] = {
            "user_id": None,
            "ai_level": level,
            "name": ai_name(level, seat + 1, old.name, game.row.locale),
            "former_user_id": old.user_id,
            "rejoin": False,
            "timeouts": 0,
            **self.handed_over(game, seat),
        }
        departure = self.departure(game, seat, reason) if rated else None
        await self.update_seats(game, {seat: changes}, [said], departure, **game_fields)
        return SeatChange(old, game.seats[seat])

    async def remove_from_lobby(
        self, game: ActiveGame, seat: int, said: Delivery, said_closed: Delivery | None = None
    ) -> SeatChange:
        """Remove a lobby seat, saying so (``said``, or ``said_closed`` when the lobby
        closes because no member is left)."""
        old = game.seats[seat]
        now = self.clock()
        rest = [s for s in game.seats if s.seat != seat]
        seats = [SeatRow(i, s.user_id, s.ai_level, s.name) for i, s in enumerate(rest)]
        humans = [s for s in seats if not s.is_ai]
        if not humans and old.user_id == game.row.host_id:
            told = [said_closed or said, self.ended(game, now, {})]
            row = await self._seat_rows.set_seats(
                game.id, seats, told, status="aborted", updated_at=now
            )
            self.games.take_committed(game, told, row=row, seats=seats)
            self.games.forget(game)
            return SeatChange(old, None, ended=True)
        host = game.row.host_id
        if old.user_id == host and humans and humans[0].user_id is not None:
            host = humans[0].user_id
        told = [said, outbox.lobby_shown(game, now)]
        row = await self._seat_rows.set_seats(game.id, seats, told, host_id=host, updated_at=now)
        self.games.take_committed(game, told, row=row, seats=seats)
        return SeatChange(old, None)

    async def update_seats(
        self,
        game: ActiveGame,
        seats: SeatChanges,
        said: Sequence[Delivery] = (),
        departure: tuple[int, Departure, float] | None = None,
        **game_fields: Any,
    ) -> None:
        """Change seats of a game (and its row), saying so (``said``) and showing the game
        again, with the ``departure`` of a member it makes, in one transaction, with
        ``waiting_on_user`` kept in step (a member now waited on gets a fresh clock). Nothing
        is read back after the commit: the seats are as set here, the row as the commit
        returned it."""
        now = self.clock()
        game_fields.setdefault("updated_at", now)
        new_seats = [with_changes(s, seats.get(s.seat)) for s in game.seats]
        known = {k: v for k, v in game_fields.items() if k in _ROW_FIELDS}
        after = replace(game, seats=new_seats, row=replace(game.row, **known))
        waiting = after.waiting_on()
        if waiting != game.row.waiting_on_user and game.row.status == "playing":
            game_fields["waiting_on_user"] = waiting
            if waiting is not None:
                game_fields.update(clock_since=now, reminders_sent=0)
        told = [*said, self.shown(after, now)]
        row = await self._seat_rows.commit_seat_change(
            game.id, seats, told, departure=departure, **game_fields
        )
        self.games.take_committed(game, told, row=row, seats=new_seats)


def leaving_counts(game: ActiveGame) -> bool:
    """Whether leaving the game now counts for a member's rating (as last place): a game in
    play, on a server, not a guided game."""
    return (
        game.row.status == "playing"
        and game.row.guild_id is not None
        and not game.row.config.tutorial
    )


def ends_without(game: ActiveGame, seat: int) -> bool:
    """Whether the game in play would end if ``seat`` left: it is the last member's seat,
    in a game that did not start as a game of AI seats only."""
    others = [s for s in game.seats if s.seat != seat and not s.is_ai]
    return not others and not game.row.ai_only


def check_manager(game: ActiveGame, user_id: int, can_manage: bool) -> None:
    """Only the game's host or a member who may manage the channel changes its seats and
    settings: ServiceError("seats.not_allowed") for anyone else."""
    if game.row.host_id != user_id and not can_manage:
        raise ServiceError("seats.not_allowed")


def back_to(user_id: int, name: str | None) -> dict[str, object]:
    """Seat changes that give an AI-played seat back to its member."""
    changes: dict[str, object] = {
        "user_id": user_id,
        "ai_level": None,
        "former_user_id": None,
        "rejoin": False,
        "timeouts": 0,
    }
    if name is not None:
        changes["name"] = name[:32]
    return changes


def with_changes(seat: SeatRow, changes: Mapping[str, object] | None) -> SeatRow:
    """A seat row with some columns changed (as the database will hold it)."""
    if not changes:
        return seat
    return replace(seat, **changes)  # type: ignore[arg-type]

"""The game service's lobby: a game opened (or a guided game, ``/af learn``), joined, given
AI seats, left, started, and ended by its host or a moderator (``abort``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from bot.play import outbox
from bot.play.ai import Level
from bot.play.channel_settings_service import ChannelSettingsService
from bot.play.games import ActiveGame, MoveResult
from bot.play.held_games import HeldGames
from bot.play.move_service import MoveService
from bot.play.seat_changes import SeatChange, Seating, ends_without
from bot.store.clock_settings import DEFAULT_CLOCK
from bot.store.errors import ChannelBusyError, ServiceError
from bot.store.game_config import GameSettings
from bot.store.game_store import GameStore
from bot.store.rows import Delivery, SeatRow
from bot.store.seat_store import SeatStore
from bot.text.seat_names import ai_name
from engine import Game


class LobbyService:
    """A game's lobby, its start, and its end before its end."""

    def __init__(
        self,
        games: HeldGames,
        seating: Seating,
        moves: MoveService,
        channel_settings: ChannelSettingsService,
        *,
        clock: Callable[[], float],
        new_seed: Callable[[], int],
        game_rows: GameStore,
        seat_rows: SeatStore,
    ) -> None:
        self._game_rows = game_rows
        self._seat_rows = seat_rows
        self.games = games
        self.seating = seating
        self.moves = moves
        self.channel_settings = channel_settings
        self.clock = clock
        self.new_seed = new_seed

    async def create(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        host_name: str | None,
        max_players: int,
        locale: str,
        config: GameSettings | None = None,
        invited: Sequence[int] = (),
        host_shown: str = "",
    ) -> ActiveGame:
        """Open a lobby in the channel with the host seated (not if ``host_name`` is None:
        the host watches, e.g. a game of AI seats). ``config``: the game's variants and
        clock; if None, no variant and the server's clock (``default_clock``). The lobby
        message is queued with it (the answer to the command that opened it); a rematch
        pings the ``invited`` members of the last game in it, opened by ``host_shown``."""
        if not 2 <= max_players <= 4:
            raise ServiceError("lobby.players_range")
        if config is None:
            config = GameSettings(clock=await self.channel_settings.default_clock(guild_id))
        now = self.clock()
        payload: dict[str, Any] = {"reply": True}
        if host_shown:
            mentions = " ".join(f"<@{u}>" for u in invited)
            opened = {"name": host_shown, "mentions": mentions}
            extra = outbox.text_of("over.rematch_opened", opened)
            payload.update(extra=extra, users=list(invited))

        # The lobby's message, queued with the game: the storage gives it the game's id.
        told = [Delivery("lobby", None, channel_id, guild_id, payload, created_at=now)]
        try:
            game_id = await self._game_rows.create_game(
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                host_name=host_name,
                max_players=max_players,
                seed=self.new_seed(),
                locale=locale,
                now=now,
                config=config,
                deliveries=told,
            )
        except ChannelBusyError:
            raise ServiceError("lobby.busy") from None
        self.games.take_committed(None, told, lane=channel_id)
        row = await self._game_rows.game(game_id)
        assert row is not None
        return await self.games.load(row)

    async def start_tutorial(
        self, *, guild_id: int | None, channel_id: int, user_id: int, name: str, locale: str
    ) -> ActiveGame:
        """A guided first game (``/af learn``): the member against one easy AI, started at
        once, with no turn clock; its dice and deck follow the script (bot.play.tutor)."""
        config = GameSettings(clock=replace(DEFAULT_CLOCK, enabled=False), tutorial=True)
        game = await self.create(
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=user_id,
            host_name=name,
            max_players=2,
            locale=locale,
            config=config,
        )
        await self.add_ai(game, user_id, "easy", announce=False)
        await self.start(game, user_id)
        return game

    def tutorials_of(self, user_id: int) -> list[ActiveGame]:
        """The member's guided games in play (held by this process)."""
        return [
            g
            for g in self.games.active_games()
            if g.row.config.tutorial and g.row.host_id == user_id and g.row.status == "playing"
        ]

    def _lobby(self, game: ActiveGame) -> None:
        if game.row.status != "lobby":
            raise ServiceError("lobby.already_started")

    def _host(self, game: ActiveGame, user_id: int) -> None:
        if game.row.host_id != user_id:
            raise ServiceError("lobby.host_only", host=game.seats[0].name if game.seats else "")

    async def join(self, game: ActiveGame, user_id: int, name: str) -> None:
        self._lobby(game)
        if game.seat_of(user_id) is not None:
            raise ServiceError("lobby.already_seated")
        if len(game.seats) >= game.row.max_players:
            raise ServiceError("lobby.full", players=game.row.max_players)
        seats = [*game.seats, SeatRow(len(game.seats), user_id, None, name[:32])]
        now = self.clock()
        params = {"name": name[:32], "seats": len(seats), "max": game.row.max_players}
        told = [
            outbox.notice(game, now, "lobby.joined", params, reply=True),
            outbox.lobby_shown(game, now),
        ]
        row = await self._seat_rows.set_seats(game.id, seats, told, updated_at=now)
        self.games.take_committed(game, told, row=row, seats=seats)

    async def add_ai(
        self, game: ActiveGame, user_id: int, level: Level, *, announce: bool = True
    ) -> SeatRow:
        """The host adds an AI seat; ``announce``: say so in the channel (a rematch does
        not: its lobby message shows them)."""
        self._lobby(game)
        self._host(game, user_id)
        if len(game.seats) >= game.row.max_players:
            raise ServiceError("lobby.full", players=game.row.max_players)
        bots = sum(1 for s in game.seats if s.is_ai)
        seat = SeatRow(
            len(game.seats), None, level, ai_name(level, bots + 1, locale=game.row.locale)
        )
        now = self.clock()
        params = {"name": seat.name, "seats": len(game.seats) + 1, "max": game.row.max_players}
        told = [outbox.lobby_shown(game, now)]
        if announce:
            told.insert(0, outbox.notice(game, now, "lobby.bot_added", params, reply=True))
        seats = [*game.seats, seat]
        row = await self._seat_rows.set_seats(game.id, seats, told, updated_at=now)
        self.games.take_committed(game, told, row=row, seats=seats)
        return seat

    async def leave(self, game: ActiveGame, user_id: int) -> SeatChange:
        """Leave a lobby, or hand one's seat in a game in play to the AI (the member may
        take it back with ``rejoin``). When the last member leaves a game in play it ends
        (aborted), unless the host made it a game of AI seats on purpose."""
        seat = game.seat_of(user_id)
        if seat is None:
            raise ServiceError("lobby.not_seated")
        old = game.seats[seat]
        now = self.clock()
        name = {"name": old.name}
        if game.row.status == "playing":
            if ends_without(game, seat):
                closing = outbox.text_of("lobby.left_ended", name)
                told = [
                    outbox.notice(game, now, "lobby.left_ended", name),
                    self.seating.ended(game, now, closing),
                ]
                row = await self._seat_rows.commit_seat_change(
                    game.id,
                    None,
                    told,
                    departure=self.seating.departure(game, seat, "left"),
                    status="aborted",
                    waiting_on_user=None,
                    updated_at=now,
                )
                self.games.take_committed(game, told, row=row)
                self.games.forget(game)
                return SeatChange(old, None, ended=True)
            said = outbox.notice(game, now, "lobby.left_to_ai", name)
            return await self.seating.to_ai(game, seat, said, "left")
        return await self.seating.remove_from_lobby(
            game,
            seat,
            outbox.notice(game, now, "lobby.left", name),
            outbox.notice(game, now, "lobby.left_closed", name),
        )

    async def start(self, game: ActiveGame, user_id: int) -> MoveResult:
        """Start the game: set up, resolve the setup's chance decisions, commit."""
        self._lobby(game)
        self._host(game, user_id)
        if len(game.seats) < 2:
            raise ServiceError("lobby.too_few")
        after = replace(game, game=Game(game.row.config.engine(len(game.seats))))
        steps = self.moves.resolve_chance(after)
        ai_only = all(s.is_ai for s in game.seats)
        await self.moves.commit(
            game, after, steps, 0, None, status="playing", started=True, ai_only=ai_only
        )
        return MoveResult(tuple(steps), True, after.state.over)

    async def abort(
        self, game: ActiveGame, user_id: int, can_manage: bool, by: str = ""
    ) -> SeatChange | None:
        """The host (or Manage Channels: ``by``, their name) ends the channel's game now.

        In a game in play only a moderator (Manage Channels) ends it for everyone, and
        nobody but a moderator who sits in it is rated (as leaving it, last;
        ``bot.store.rating_rules``): the others did not choose to stop, and the standings
        of a game half played are no result. The host without Manage Channels leaves
        instead, as ``/af leave`` does: rated as leaving, the AI takes the seat and the
        game goes on for the others (the SeatChange; it ends if no member is left). A host
        without a seat cannot end a game in play that members sit in: a member behind
        would have a friend's abort as a way out of every lost game."""
        if game.row.host_id != user_id and not can_manage:
            raise ServiceError("abort.not_allowed")
        seat = game.seat_of(user_id)
        rated = game.row.status == "playing" and not game.row.config.tutorial
        if rated and seat is None and not can_manage and any(not s.is_ai for s in game.seats):
            raise ServiceError("abort.watching_host")
        now = self.clock()
        if rated and seat is not None and not can_manage and not ends_without(game, seat):
            level = outbox.text_of(f"ai.level.{game.clock.takeover}")
            said = outbox.notice(game, now, "abort.to_ai", {"name": by, "level": level}, reply=True)
            return await self.seating.to_ai(game, seat, said, "aborted")
        departure = self.seating.departure(game, seat, "aborted") if seat is not None else None
        key = "abort.done_counted" if departure is not None else "abort.done"
        closing = outbox.text_of(key, {"name": by})
        told = [
            outbox.notice(game, now, key, {"name": by}, reply=True),
            self.seating.ended(game, now, closing),
        ]
        row = await self._seat_rows.commit_seat_change(
            game.id,
            None,
            told,
            departure=departure,
            status="aborted",
            waiting_on_user=None,
            updated_at=now,
        )
        self.games.take_committed(game, told, row=row)
        self.games.forget(game)
        return None

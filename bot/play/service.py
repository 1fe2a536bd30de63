"""The game service: lobbies, moves, undo and AI moves on stored games, with no Discord in it.

The database is the authority. A game is loaded by replaying its action log (and
checked against its snapshot), kept in memory while it is active, and every
change is committed before the caller may tell anyone about it. Each game has an
``asyncio.Lock``: callers hold it (``async with game.lock``) around a move *and*
the messages that announce it, so moves on one game are applied one at a time and
announced in order.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from dataclasses import fields as fields_of
from typing import Any, Literal

from bot.play import outbox
from bot.play.ai import AIFactory, Chooser, Level, choose_move, default_factory
from bot.play.coach_memory import Coach
from bot.play.games import (
    ActiveGame,
    MoveResult,
    MoveUnsure,
    Step,
    ai_name,
    ai_name_in,
    event_data,
    new_events,
    replaced_member,
)
from bot.play.readers import Readers
from bot.play.tutor import opponent_move, scripted
from bot.store.clock_settings import (
    DEFAULT_CLOCK,
    HOUR,
    LIMIT_PASSED,
    MAX_AWAY_DAYS,
    ClockSettings,
)
from bot.store.db import UniqueViolation
from bot.store.errors import ChannelBusyError, GameChangedError, ServiceError, StalePanelError
from bot.store.game_config import GameSettings
from bot.store.rating_rules import (
    Departure,
    Handover,
    Holder,
    PlayedBy,
    Reason,
    holders_from_json,
    holders_json,
    played_by,
    played_json,
    turn_starts,
    turns_by_seat,
)
from bot.store.rows import ActionRow, Delivery, GameRow, OrphanedBy, ResultRow, SeatChanges, SeatRow
from bot.store.shards import ALL, Shards
from bot.store.storage import Storage
from bot.text import i18n
from engine import CHANCE, Action, parse, sample_chance
from engine.ai.skip import SkipPlayer
from engine.game import Game
from engine.scoring import outcome, places, score_parts
from engine.serialize import dumps, loads
from engine.state import Event

DAY = 86400.0


@dataclass(frozen=True, slots=True)
class Timeout:
    """What a timed-out turn led to: the seat, the action taken, and whether the seat
    passed to the AI for good (``takeover``) after too many timeouts in a row."""

    seat: SeatRow
    action: Literal["ai", "skip", "none"]
    count: int
    takeover: bool


@dataclass(frozen=True, slots=True)
class SeatChange:
    """What a seat command did: the seat before and after (``after`` is None when a lobby
    seat was removed), and whether the game ended because no member was left."""

    before: SeatRow
    after: SeatRow | None
    ended: bool = False
    pending: bool = False  # a rejoin that takes effect when the AI's turn ends


log = logging.getLogger(__name__)

# The columns of a game's row (a change's fields that the row in memory takes at once).
_ROW_FIELDS = frozenset(f.name for f in fields_of(GameRow))
# How many recent keyed moves a game remembers in memory (older ones: the database).
KEYS_KEPT = 64


class GameService:
    """Every change to games goes through here; see the module docstring for locking."""

    def __init__(
        self,
        store: Storage,
        *,
        clock: Callable[[], float] = time.time,
        ai_factory: AIFactory = default_factory,
        ai_budget_ms: int | None = None,
        shards: Shards = ALL,
    ) -> None:
        self.store = store
        self.shards = shards
        self.clock = clock
        self.ai_factory = ai_factory
        self.ai_budget_ms = ai_budget_ms
        self.new_seed: Callable[[], int] = lambda: random.SystemRandom().randrange(2**62)
        self._games: dict[int, ActiveGame] = {}
        self._by_channel: dict[int, int] = {}
        self._load_lock = asyncio.Lock()
        self._dropped: set[int] = set()  # games dropped from memory after a failed reload
        self.coach = Coach(store, clock)  # /af coach: who has it on, what they used
        self.readers = Readers(store, clock)  # /af notify screen_reader: who has it on
        # Told of every channel whose lane got new deliveries (bot.discord.delivery wakes up).
        self.on_queued: Callable[[int], None] = lambda channel_id: None
        # Deliveries that landed, whose removal rides along with the next move's commit
        # (bot.discord.delivery), and how to give them back when that commit fails.
        self.take_landed: Callable[[], list[int]] = list
        self.give_back_landed: Callable[[list[int]], None] = lambda ids: None

    def _queued(self, game: ActiveGame, deliveries: Sequence[Delivery]) -> None:
        if deliveries:
            self.on_queued(game.row.channel_id)

    # ---- finding and loading games -----------------------------------------------------

    async def in_channel(self, channel_id: int) -> ActiveGame | None:
        """The channel's game in its lobby or in play, loaded. On PostgreSQL, as committed:
        another process over the database may have moved it on (``as_committed``); on
        SQLite one process runs over a database file (``bot.store.db_lock``), and its copy
        is the game."""
        game_id = self._by_channel.get(channel_id)
        if game_id is not None and game_id in self._games:
            if self.store.dialect != "postgresql":
                return self._games[game_id]
            game = await self.as_committed(game_id)
            if game is not None and game.row.channel_id == channel_id:
                return game
        row = await self.store.active_game(channel_id)
        return await self._load(row) if row else None

    async def require(self, channel_id: int | None) -> ActiveGame:
        """The channel's active game, or ServiceError("game.none")."""
        game = await self.in_channel(channel_id) if channel_id is not None else None
        if game is None:
            raise ServiceError("game.none")
        return game

    async def by_id(self, game_id: int) -> ActiveGame | None:
        """A game in its lobby or in play, by id (None once it is over or aborted)."""
        if game_id in self._games:
            return self._games[game_id]
        row = await self.store.game(game_id)
        if row is None or row.status not in ("lobby", "playing"):
            return None
        return await self._load(row)

    async def _load(self, row: GameRow) -> ActiveGame:
        """Rebuild a game from the database. Only the games of this process's shards are
        kept in memory: another process plays the others (``/af mygames`` looks at them
        here), so a copy held here would fall behind."""
        async with self._load_lock:
            if row.id in self._games:
                return self._games[row.id]
            seats = await self.store.seats(row.id)
            active = ActiveGame(row, seats)
            if row.status != "lobby":
                active.game = await self.rebuild(row, seats)
            if row.status in ("lobby", "playing") and self.shards.owns(row.guild_id):
                self._games[row.id] = active
                self._by_channel[row.channel_id] = row.id
            return active

    async def rebuild(self, row: GameRow, seats: list[SeatRow]) -> Game:
        """Replay the stored log; the snapshot must match it. If not, the log wins and the
        snapshot is replaced by the replay (moves are committed against the snapshot). The
        log and the snapshot are read one after the other: another process's commit in
        between (a rolling restart) is no mismatch, and they are read again."""
        for _ in range(3):  # a mismatch that stays is a real one
            actions = await self.store.actions(row.id)
            snapshot = await self.store.snapshot(row.id)
            if snapshot is None or snapshot[0] == len(actions):
                break
        game = Game.replay(row.config.engine(len(seats)), [a.notation for a in actions])
        found = snapshot[0] if snapshot is not None else None
        if snapshot is None and not actions:
            return game
        if snapshot is None or snapshot[0] != len(actions) or loads(snapshot[1]) != game.state:
            log.error(
                "game %d: the snapshot (after %s actions) differs from the replay of the "
                "log (%d actions); using the replay",
                row.id,
                found,
                len(actions),
            )
            await self.store.repair_snapshot(row.id, found, len(actions), dumps(game.state))
        return game

    async def as_committed(self, game_id: int) -> ActiveGame | None:
        """The game (in its lobby or in play) as the database holds it, for what players
        are shown of it (``bot.discord.couriers``); None once it is over or aborted.

        This process's copy falls behind when another process over the same database moved
        the game on (a rolling restart: both are given every interaction, and each acts on
        those it claims, ``bot.discord.owners``): a delivery shown from it would be judged
        out of date and dropped (a started game seen as a lobby: its first turn message
        never posted). It is then loaded again: in place, unless a commit of this process
        changed it meanwhile (that copy is then returned, kept nowhere)."""
        row = await self.store.game(game_id)
        held = self._games.get(game_id)
        if row is None or row.status not in ("lobby", "playing"):
            if held is not None and row is not None and not held.lock.locked():
                self._forget(held)  # ended by another process
            return None
        if held is None:
            return await self._load(row)
        logged = await self.store.logged(game_id)
        # A lobby's seats change with no action logged (and within a clock tick, may be).
        seats = await self.store.seats(game_id) if row.status == "lobby" else held.seats
        if (
            (held.row.status, held.row.updated_at) == (row.status, row.updated_at)
            and (len(held.game.log) if held.game else 0) == logged
            and seats == held.seats
        ):
            return held
        seen = (held.row, held.game)
        if row.status != "lobby":
            seats = await self.store.seats(game_id)
        copy = ActiveGame(row, seats)
        if row.status != "lobby":
            copy.game = await self.rebuild(row, seats)
        if (held.row, held.game) != seen or held.lock.locked():
            return copy  # this process is changing it: its own commit says how
        log.info("game %d: moved on by another process; loaded again", game_id)
        held.row, held.seats, held.game = copy.row, copy.seats, copy.game
        return held

    def held(self, game_id: int) -> ActiveGame | None:
        """The game if it is held in memory (never loaded for asking)."""
        return self._games.get(game_id)

    def active_games(self) -> list[ActiveGame]:
        """The games held in memory (in their lobby or in play)."""
        return list(self._games.values())

    def owned_games(self) -> list[ActiveGame]:
        """The games in memory whose background work (clock, AI turns) is this process's:
        those in the servers of its shards."""
        return [g for g in self._games.values() if self.shards.owns(g.row.guild_id)]

    async def load_active(self) -> list[ActiveGame]:
        """Load every game in play in this process's shards (at start-up): each is rebuilt
        and checked."""
        out = []
        for row in await self.store.games_with_status("playing", self.shards):
            try:
                out.append(await self._load(row))
            except Exception:
                log.exception("game %d could not be loaded", row.id)
        return out

    def _forget(self, game: ActiveGame) -> None:
        self._games.pop(game.id, None)
        if self._by_channel.get(game.row.channel_id) == game.id:
            del self._by_channel[game.row.channel_id]

    async def _refresh_row(self, game: ActiveGame) -> None:
        row = await self.store.game(game.id)
        assert row is not None
        game.row = row
        game.seats = await self.store.seats(game.id)

    def _took(
        self,
        game: ActiveGame,
        row: GameRow | None,
        seats: Sequence[SeatRow] | None,
        told: Sequence[Delivery],
    ) -> None:
        """A change was committed: the game in memory takes its row as the commit returned
        it and the seats as set (nothing is read back: a read failing after the commit
        would turn a change that was made into an error), and its deliveries go out."""
        if row is not None:
            game.row = row
        if seats is not None:
            game.seats = list(seats)
        self._queued(game, told)

    # ---- the lobby ------------------------------------------------------------------------

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
            config = GameSettings(clock=await self.default_clock(guild_id))
        now = self.clock()
        payload: dict[str, Any] = {"reply": True}
        if host_shown:
            mentions = " ".join(f"<@{u}>" for u in invited)
            opened = {"name": host_shown, "mentions": mentions}
            extra = outbox.text_of("over.rematch_opened", opened)
            payload.update(extra=extra, users=list(invited))

        def lobby(game_id: int) -> list[Delivery]:
            return [Delivery("lobby", game_id, channel_id, guild_id, payload, created_at=now)]

        try:
            game_id = await self.store.create_game(
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                host_name=host_name,
                max_players=max_players,
                seed=self.new_seed(),
                locale=locale,
                now=now,
                config=config,
                deliveries=lobby,
            )
        except ChannelBusyError:
            raise ServiceError("lobby.busy") from None
        self.on_queued(channel_id)
        row = await self.store.game(game_id)
        assert row is not None
        return await self._load(row)

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
            for g in self.active_games()
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
        row = await self.store.set_seats(game.id, seats, told, updated_at=now)
        self._took(game, row, seats, told)

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
        row = await self.store.set_seats(game.id, seats, told, updated_at=now)
        self._took(game, row, seats, told)
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
            if self.ends_without(game, seat):
                closing = outbox.text_of("lobby.left_ended", name)
                told = [
                    outbox.notice(game, now, "lobby.left_ended", name),
                    self._ended(game, now, closing),
                ]
                row = await self.store.update(
                    game.id,
                    None,
                    told,
                    departure=self._departure(game, seat, "left"),
                    status="aborted",
                    waiting_on_user=None,
                    updated_at=now,
                )
                self._took(game, row, None, told)
                self._forget(game)
                return SeatChange(old, None, ended=True)
            said = outbox.notice(game, now, "lobby.left_to_ai", name)
            return await self._to_ai(game, seat, said, "left")
        return await self._remove_from_lobby(
            game,
            seat,
            outbox.notice(game, now, "lobby.left", name),
            outbox.notice(game, now, "lobby.left_closed", name),
        )

    def _shown(self, game: ActiveGame, now: float) -> Delivery:
        """Show the game again after a change: its lobby message, or its turn message."""
        if game.row.status == "playing" and game.game is not None:
            return outbox.turn_shown(game, now)
        return outbox.lobby_shown(game, now)

    def _ended(self, game: ActiveGame, now: float, closing: dict[str, Any]) -> Delivery:
        """Show a game that ends before its end: its turn message in its final form with a
        ``closing`` line (no panel), or its lobby message closed."""
        if game.row.status == "playing" and game.game is not None:
            state = game.state
            return outbox.turn_closed(
                game, now, seat=state.current, to=len(game.game.log), last=True, closing=closing
            )
        return outbox.lobby_shown(game, now, closing=outbox.text_of("lobby.closed"))

    def _departure(
        self, game: ActiveGame, seat: int, reason: Reason
    ) -> tuple[int, Departure, float] | None:
        """A member leaving their seat in a game in play, rated as last among the seats
        still in (``bot.store.rating_rules``) in the change's own transaction: on a server,
        never in a guided game. None when the seat has no member."""
        row = game.seats[seat]
        guild = game.row.guild_id
        if not self.leaving_counts(game) or row.user_id is None or guild is None:
            return None
        others = tuple(Holder(s.seat, s.user_id, s.ai_level) for s in game.seats if s.seat != seat)
        return guild, Departure(row.user_id, seat, reason, others, row.name), self.clock()

    async def _moved(self, game: ActiveGame, seat: int) -> bool:
        """Whether the seat's member made a move in it in this game."""
        user = game.seats[seat].user_id
        return any(a.actor == seat and a.user_id == user for a in await self.store.actions(game.id))

    def _handed_over(self, game: ActiveGame, seat: int) -> dict[str, object]:
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

    def leaving_counts(self, game: ActiveGame) -> bool:
        """Whether leaving the game now counts for a member's rating (as last place): a
        game in play, on a server, not a guided game."""
        return (
            game.row.status == "playing"
            and game.row.guild_id is not None
            and not game.row.config.tutorial
        )

    def ends_without(self, game: ActiveGame, seat: int) -> bool:
        """Whether the game in play would end if ``seat`` left: it is the last member's
        seat, in a game that did not start as a game of AI seats only."""
        others = [s for s in game.seats if s.seat != seat and not s.is_ai]
        return not others and not game.row.ai_only

    async def _to_ai(
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
            **self._handed_over(game, seat),
        }
        departure = self._departure(game, seat, reason) if rated else None
        await self._update_seats(game, {seat: changes}, [said], departure, **game_fields)
        return SeatChange(old, game.seats[seat])

    async def _remove_from_lobby(
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
            told = [said_closed or said, self._ended(game, now, {})]
            row = await self.store.set_seats(game.id, seats, told, status="aborted", updated_at=now)
            self._took(game, row, seats, told)
            self._forget(game)
            return SeatChange(old, None, ended=True)
        host = game.row.host_id
        if old.user_id == host and humans and humans[0].user_id is not None:
            host = humans[0].user_id
        told = [said, outbox.lobby_shown(game, now)]
        row = await self.store.set_seats(game.id, seats, told, host_id=host, updated_at=now)
        self._took(game, row, seats, told)
        return SeatChange(old, None)

    async def _update_seats(
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
        new_seats = [_with(s, seats.get(s.seat)) for s in game.seats]
        known = {k: v for k, v in game_fields.items() if k in _ROW_FIELDS}
        after = replace(game, seats=new_seats, row=replace(game.row, **known))
        waiting = after.waiting_on()
        if waiting != game.row.waiting_on_user and game.row.status == "playing":
            game_fields["waiting_on_user"] = waiting
            if waiting is not None:
                game_fields.update(clock_since=now, reminders_sent=0)
        told = [*said, self._shown(after, now)]
        row = await self.store.update(game.id, seats, told, departure=departure, **game_fields)
        self._took(game, row, new_seats, told)

    # ---- seats in a game (kick, replace, rejoin) and members away -------------------------

    def check_manager(self, game: ActiveGame, user_id: int, can_manage: bool) -> None:
        if game.row.host_id != user_id and not can_manage:
            raise ServiceError("seats.not_allowed")

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
            self.check_manager(game, user_id, can_manage)
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
            return await self._remove_from_lobby(game, seat.seat, said)
        if seat.is_ai:
            raise ServiceError("seats.already_ai", name=seat.name)
        if stalled:
            await self.check_stalled(game, seat)
            said = outbox.notice(game, now, "seats.kicked_stalled", params, reply=True)
            return await self._to_ai(game, seat.seat, said, "kicked")
        said = outbox.notice(game, now, "seats.kicked_game", params, reply=True)
        rated = await self._moved(game, seat.seat)
        return await self._to_ai(game, seat.seat, said, "kicked", rated)

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
        last = await self.store.last_actions(game.id, 1)
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
        self.check_manager(game, user_id, can_manage)
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
        await self._update_seats(game, {seat.seat: {"offered_to": member_id}}, [said])
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
            **self._handed_over(game, seat.seat),
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
            departure = self._departure(game, seat.seat, "replaced")
        await self._update_seats(game, {seat.seat: changes}, said, departure, **fields)
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
            await self._update_seats(game, changes, [said])
            return SeatChange(seat, game.seats[seat.seat], pending=True)
        said = outbox.notice(game, now, "seats.rejoined", shown, reply=True)
        back = {**_back_to(user_id, name), **self._handed_over(game, seat.seat)}
        await self._update_seats(game, {seat.seat: back}, [said])
        return SeatChange(seat, game.seats[seat.seat])

    async def set_away(self, user_id: int, days: int) -> float | None:
        """Pause the clock for a member for ``days`` (1-14; 0 ends an absence). Returns when
        the absence ends (None once ended). The clock restarts when it ends."""
        if not 0 <= days <= MAX_AWAY_DAYS:
            raise ServiceError("away.range", high=MAX_AWAY_DAYS)
        now = self.clock()
        until = now + days * DAY
        await self.store.set_away_until(user_id, until)
        return until if days else None

    async def away(self, user_ids: list[int]) -> dict[int, float]:
        """Members among ``user_ids`` who are away now, with when they are back."""
        now = self.clock()
        return {u: t for u, t in (await self.store.away_until(user_ids)).items() if t > now}

    # ---- the turn clock --------------------------------------------------------------------

    async def default_clock(self, guild_id: int | None) -> ClockSettings:
        """A server's clock settings for new games (the built-in defaults if none)."""
        if guild_id is None:
            return DEFAULT_CLOCK
        return ClockSettings.from_json(await self.store.guild_clock(guild_id))

    async def set_guild_clock(self, guild_id: int, clock: ClockSettings) -> None:
        await self.store.set_guild_clock(guild_id, clock.checked().to_json(), self.clock())

    async def default_language(self, guild_id: int | None) -> str | None:
        """The language a server's admins chose for its new games (None: not chosen, or
        no longer a language of the bot)."""
        if guild_id is None:
            return None
        language = await self.store.guild_language(guild_id)
        return language if language in i18n.languages() else None

    async def set_guild_language(self, guild_id: int, language: str) -> None:
        """The language new games of the server start in (``/af settings scope:server``)."""
        if language not in i18n.languages():
            raise ServiceError(
                "language.unknown", language=language, languages=", ".join(i18n.languages())
            )
        await self.store.set_guild_language(guild_id, language, self.clock())

    async def set_clock(
        self, game: ActiveGame, user_id: int, can_manage: bool, clock: ClockSettings
    ) -> None:
        """The host (or Manage Channels) changes the game's clock; it applies at once. A
        clock switched on starts counting now, not from the last move."""
        await self.configure(game, user_id, can_manage, clock=clock)

    async def configure(
        self,
        game: ActiveGame,
        user_id: int,
        can_manage: bool,
        by: str = "",
        *,
        language: str | None = None,
        clock: ClockSettings | None = None,
    ) -> bool:
        """The host (or Manage Channels: ``by``, their name) changes the game's language of
        public messages and its clock, in one commit that says so in the channel and shows
        the game again; False when neither changes. ``language``: a catalogue language
        (``en``, ``ru``, ``pl``) or a Discord locale (``pl-PL``). A clock switched on starts
        counting now, not from the last move."""
        self.check_manager(game, user_id, can_manage)
        now = self.clock()
        fields: dict[str, Any] = {}
        seats: dict[int, dict[str, object]] = {}
        lines = []
        if language is not None:
            chosen = i18n.language_of(language)
            if chosen != language.split("-")[0].split("_")[0].lower():
                raise ServiceError(
                    "language.unknown", language=language, languages=", ".join(i18n.languages())
                )
            if chosen != game.row.locale:
                fields["locale"] = chosen
                lines.append(outbox.text_of("language.changed"))
                # The AI seats' names, said in the game's language (the board, the chart).
                for seat in game.seats:
                    if (name := ai_name_in(seat, chosen)) != seat.name:
                        seats[seat.seat] = {"name": name}
        if clock is not None and clock.checked() != game.clock:
            stops = not clock.enabled or clock.action == "none"
            runs = game.clock.enabled and game.clock.action != "none"
            if stops and runs and not can_manage and self.leaving_counts(game):
                # A player behind could stop the clock and never move again.
                raise ServiceError("settings.clock_off_in_play")
            fields["config"] = game.row.config.with_clock(clock.checked())
            if game.row.status == "playing" and game.game is not None:
                # The turn in play starts its clock afresh under the new settings: a limit
                # made shorter never times out a turn before it could be seen.
                fields.update(clock_since=now, reminders_sent=0, clock_turn=game.state.turn_number)
            elif clock.enabled and not game.clock.enabled:
                fields["clock_since"] = now
            settings = {"clock": clock.checked().to_json()}
            lines.append(outbox.text_of("settings.changed", {"name": by, "settings": settings}))
            if "clock_turn" in fields and game.waiting_on() is not None:
                lines.append(outbox.text_of("settings.clock_restarted"))
        if not fields:
            return False
        told = [outbox.notice(game, now, lines, reply=True), self._shown(game, now)]
        new_seats = [_with(s, seats.get(s.seat)) for s in game.seats]
        row = await self.store.update(game.id, seats, told, updated_at=now, **fields)
        self._took(game, row, new_seats, told)
        return True

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

    async def start(self, game: ActiveGame, user_id: int) -> MoveResult:
        """Start the game: set up, resolve the setup's chance decisions, commit."""
        self._lobby(game)
        self._host(game, user_id)
        if len(game.seats) < 2:
            raise ServiceError("lobby.too_few")
        after = replace(game, game=Game(game.row.config.engine(len(game.seats))))
        steps = self._resolve_chance(after)
        ai_only = all(s.is_ai for s in game.seats)
        await self._commit(
            game, after, steps, 0, None, status="playing", started=True, ai_only=ai_only
        )
        return MoveResult(tuple(steps), True, after.state.over)

    async def set_language(
        self, game: ActiveGame, user_id: int, locale: str, can_manage: bool = False
    ) -> str:
        """The host (or Manage Channels) sets the language of the game's public messages
        (lobby or in play).

        ``locale`` is a catalogue language (``en``, ``ru``, ``pl``) or a Discord locale
        (``pl-PL``); returns the language set.
        """
        await self.configure(game, user_id, can_manage, language=locale)
        return game.row.locale

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
        if rated and seat is not None and not can_manage and not self.ends_without(game, seat):
            level = outbox.text_of(f"ai.level.{game.clock.takeover}")
            said = outbox.notice(game, now, "abort.to_ai", {"name": by, "level": level}, reply=True)
            return await self._to_ai(game, seat, said, "aborted")
        departure = self._departure(game, seat, "aborted") if seat is not None else None
        key = "abort.done_counted" if departure is not None else "abort.done"
        closing = outbox.text_of(key, {"name": by})
        told = [
            outbox.notice(game, now, key, {"name": by}, reply=True),
            self._ended(game, now, closing),
        ]
        row = await self.store.update(
            game.id,
            None,
            told,
            departure=departure,
            status="aborted",
            waiting_on_user=None,
            updated_at=now,
        )
        self._took(game, row, None, told)
        self._forget(game)
        return None

    # ---- a game's channel lost: orphaned, continued elsewhere, back, or ended ----------------

    async def orphan(self, game_id: int, why: OrphanedBy) -> GameRow | None:
        """A game's channel is gone (``why``: the channel or thread deleted, or the bot
        removed from the server): a game in play leaves ``playing`` for ``orphaned`` (a
        lobby is aborted), nothing more is sent to its channel, and its host is told once
        by DM what happened and what they can do. The row as it is now (None if the game
        was not in its lobby or in play)."""
        now = self.clock()

        def told(row: GameRow) -> list[Delivery]:
            params = {"game": row.id}
            said = {"key": f"orphan.{why}", "params": params, "user": row.host_id}
            payload = {**said, "always": True, "plain": True}
            return [Delivery("dm", row.id, -row.host_id, row.guild_id, payload, created_at=now)]

        row = await self.store.orphan_game(game_id, why, now, told)
        held = self._games.get(game_id)
        if held is not None:
            if row is not None:
                held.row = row
            self._forget(held)
        if row is not None:
            log.warning("game %d: its %s is gone; the game is %s", game_id, why, row.status)
            if row.status == "orphaned":
                self.on_queued(-row.host_id)
        return row

    async def channel_gone(self, channel_id: int) -> list[GameRow]:
        """A channel (or thread) was deleted: its game is orphaned (its lobby aborted)."""
        rows = await self.store.games_in(channel_id=channel_id)
        return [r for row in rows if (r := await self.orphan(row.id, "channel")) is not None]

    async def guild_gone(self, guild_id: int) -> list[GameRow]:
        """The bot was removed from a server: its games there are orphaned."""
        rows = await self.store.games_in(guild_id=guild_id)
        return [r for row in rows if (r := await self.orphan(row.id, "guild")) is not None]

    async def orphaned(self, user_id: int) -> list[GameRow]:
        """The orphaned games ``user_id`` hosts."""
        return await self.store.games_in(host_id=user_id, statuses=("orphaned",))

    async def _orphaned_game(self, game_id: int, user_id: int, can_manage: bool) -> GameRow:
        row = await self.store.game(game_id) if 0 < game_id < 2**63 else None
        if row is None or row.status != "orphaned":
            raise ServiceError("orphan.unknown", game=game_id)
        if row.host_id != user_id and not can_manage:
            raise ServiceError("orphan.host_only", game=game_id)
        return row

    async def adopt(
        self,
        game_id: int,
        user_id: int,
        *,
        channel_id: int,
        guild_id: int | None,
        can_manage: bool = False,
        by: str = "",
    ) -> ActiveGame:
        """Continue an orphaned game in ``channel_id`` (its host, or Manage Server in its
        server): in play again there, its turn message and ping posted afresh, with a line
        saying where it comes from."""
        row = await self._orphaned_game(game_id, user_id, can_manage)
        said = outbox.text_of("orphan.continued", {"game": row.id, "name": by})
        return await self._back(row, channel_id, guild_id, {**said, "reply": True})

    async def back_in(self, guild_id: int, channels: set[int]) -> list[ActiveGame]:
        """The bot was added back to a server: its games orphaned by the removal, whose
        channel is still there (``channels``), go on where they were."""
        back = []
        for row in await self.store.games_in(guild_id=guild_id, statuses=("orphaned",)):
            if row.orphaned != "guild" or row.channel_id not in channels:
                continue
            try:
                back.append(await self._back(row, row.channel_id, guild_id, None))
            except ServiceError as e:
                log.warning("game %d stays orphaned: %s", row.id, e.key)
                continue
            log.info("game %d goes on: the bot is back in its server", row.id)
        return back

    async def _back(
        self, row: GameRow, channel_id: int, guild_id: int | None, said: dict[str, Any] | None
    ) -> ActiveGame:
        """An orphaned game in play again in ``channel_id``: in one transaction, with a line
        saying so (``said``; None: back in its own channel, whose turn message is shown as
        the game is, the member to act pinged by the line), its turn message and its ping."""
        now = self.clock()
        before = await self._load(row)  # not kept: it is not in play yet
        user = before.waiting_on()
        turn = before.state.turn_number if before.game is not None else None
        users: list[int] = []
        if said is None:
            key = "orphan.back_turn" if user is not None else "orphan.back"
            said = outbox.text_of(key, {"game": row.id, "mention": f"<@{user}>"})
            users = [user] if user is not None else []
            said["users"] = users

        def told(new: GameRow) -> list[Delivery]:
            out = [
                Delivery("notice", new.id, channel_id, guild_id, said, created_at=now),
                Delivery("turn", new.id, channel_id, guild_id, {"turn": turn}, created_at=now),
            ]
            if user is not None:
                notify = {"turn": turn, "user": user}
                out.append(Delivery("notify", new.id, channel_id, guild_id, notify, created_at=now))
            return out

        try:
            new = await self.store.adopt_game(
                row.id,
                channel_id=channel_id,
                guild_id=guild_id,
                now=now,
                deliveries=told,
                keep_messages=channel_id == row.channel_id,
                waiting_on_user=user,
            )
        except ChannelBusyError:
            raise ServiceError("lobby.busy") from None
        if new is None:
            raise ServiceError("orphan.unknown", game=row.id)
        self.on_queued(channel_id)
        return await self._load(new)

    async def end_orphaned(self, game_id: int, user_id: int, can_manage: bool = False) -> GameRow:
        """End an orphaned game, unrated (its host, or Manage Server in its server)."""
        row = await self._orphaned_game(game_id, user_id, can_manage)
        ended = await self.store.update_game(
            row.id, status="aborted", waiting_on_user=None, updated_at=self.clock()
        )
        assert ended is not None
        return ended

    async def repost(self, game: ActiveGame) -> None:
        """Post the turn message again at the bottom of the channel (``/af panel``; no new
        ping), the old one pointing to the new one: a delivery, like every post."""
        now = self.clock()
        told = [outbox.delivery(game, "turn", now, turn=game.state.turn_number, repost=True)]
        await self.store.queue(told)
        self._queued(game, told)

    # ---- moves (call with game.lock held) ---------------------------------------------------

    def check_version(self, game: ActiveGame, version: int | None) -> None:
        if version is not None and (game.game is None or game.state.version != version):
            raise StalePanelError(game.row.turn_message_id)

    def check_move(
        self,
        game: ActiveGame,
        user_id: int | None,
        move: str | Action,
        *,
        seat: int | None = None,
        version: int | None = None,
    ) -> tuple[int, Action]:
        """The seat and the action of a move the bot may play now (the rules' check is the
        engine's: ``engine.check``, made when the move is applied)."""
        if game.row.status != "playing" or game.game is None:
            raise ServiceError("game.not_started" if game.row.status == "lobby" else "game.none")
        self.check_version(game, version)
        if seat is None:
            seat = game.seat_of(user_id) if user_id is not None else None
            if seat is None:
                raise ServiceError("play.not_seated")
            if game.timed_out() and game.to_act() == seat:
                raise ServiceError("clock.bot_playing")
        return seat, parse(move) if isinstance(move, str) else move

    async def play(
        self,
        game: ActiveGame,
        user_id: int | None,
        move: str | Action,
        *,
        seat: int | None = None,
        version: int | None = None,
        key: str | None = None,
    ) -> MoveResult:
        """Apply a member's (or, with ``seat``, an AI seat's) move, then chance; commit.

        The move is played on a copy of the game, which becomes the game in memory only once
        committed: nothing ahead of the database is ever shown. ``key`` is the move's
        idempotency key (the member's interaction, or their panel pick), stored with its
        action: a move whose key was committed already is not played again, and its first
        result comes back (``repeated``) — a double click, a retry, a second process given
        the same interaction, an acknowledgement of the commit that was lost."""
        if key is not None and key in game.keys:
            return replace(game.keys[key], repeated=True)
        try:
            seat, action = self.check_move(game, user_id, move, seat=seat, version=version)
        except StalePanelError:
            first = await self.first_result(game, key)  # a second click on a panel played already
            if first is not None:
                return first
            raise
        assert game.game is not None
        after = replace(game, game=game.game.copy())
        engine_game = after.game
        assert engine_game is not None
        turn = engine_game.state.turn_number
        first_seq = len(engine_game.log)
        before = engine_game.state
        engine_game.apply(action, player=seat)
        steps = [
            Step(seat, action, new_events(before, engine_game.state)),
            *self._resolve_chance(after),
        ]
        over = engine_game.state.over
        seats: dict[int, dict[str, object]] = {}
        if user_id is not None and game.seats[seat].timeouts:
            seats[seat] = {"timeouts": 0}  # the member is back: the count starts again
        turn_changed = over or engine_game.state.turn_number != turn
        first = await self._commit(
            game,
            after,
            steps,
            first_seq,
            user_id,
            status="over" if over else None,
            seats=seats,
            closed_by=seat if turn_changed else None,
            key=key,
        )
        if first is not None:
            return first
        if turn_changed:  # the board as the turn left it, for its closed message
            game.turn_ends[turn] = engine_game.state if over else before
        result = MoveResult(tuple(steps), turn_changed, over, before)
        if key is not None:
            game.keys[key] = result
            while len(game.keys) > KEYS_KEPT:
                del game.keys[next(iter(game.keys))]
        return result

    async def first_result(self, game: ActiveGame, key: str | None) -> MoveResult | None:
        """The first result of the move with idempotency key ``key`` if it was committed
        (in this process or another), else None."""
        if key is None:
            return None
        if key in game.keys:
            return replace(game.keys[key], repeated=True)
        rows = await self.store.keyed_move(game.id, key)
        if not rows:
            return None
        steps = tuple(
            Step(r.actor, parse(r.notation), tuple(_logged_event(e) for e in r.events))
            for r in rows
        )
        return MoveResult(steps, False, False, None, repeated=True)

    async def play_ai(self, game: ActiveGame) -> MoveResult | None:
        """Let the AI seat to act make one move (None if no AI is to act)."""
        seat = game.ai_to_act()
        if seat is None:
            return None
        state = game.state
        kind = game.player_kind(seat)
        seed = (game.row.seed + 7919 * (seat.seat + 1)) % 2**62
        kept = game.ai_players.get(seat.seat)
        if kept is None or kept[0] != kind:
            kept = (kind, self._player(kind, seed))
            game.ai_players[seat.seat] = kept
        move = await asyncio.to_thread(
            choose_move, kept[1], kind, (seed + state.version) % 2**62, state
        )
        move = opponent_move(game, move)  # a guided game's AI waits for the lessons
        return await self.play(game, None, move, seat=seat.seat)

    def _player(self, kind: str, seed: int) -> Chooser:
        if kind == "skip":
            return SkipPlayer()
        level: Level = kind  # type: ignore[assignment]
        return self.ai_factory(level, seed, self.ai_budget_ms)

    async def undo(self, game: ActiveGame, user_id: int, undone: Sequence[Action] = ()) -> Action:
        """Take back the member's last action of this turn (the engine's undo rule); the
        turn message then says so, with the actions of the same pick ``undone`` before.
        Taken back on a copy of the game, which becomes the game once committed."""
        if game.row.status != "playing" or game.game is None:
            raise ServiceError("game.none")
        seat = game.seat_of(user_id)
        if seat is None:
            raise ServiceError("play.not_seated")
        after = replace(game, game=game.game.copy())
        engine_game = after.game
        assert engine_game is not None
        action = engine_game.undo(player=seat)
        seq = len(engine_game.log)
        now = self.clock()
        moves = "`, `".join(str(a) for a in (action, *reversed(undone)))
        told = [
            outbox.delivery(
                after,
                "turn",
                now,
                turn=after.state.turn_number,
                note=outbox.text_of("undo.done", {"move": moves}),
            )
        ]
        try:
            row = await self.store.undo_action(
                game.id,
                seq,
                dumps(after.state),
                told,
                updated_at=now,
                waiting_on_user=after.waiting_on(),
                clock_since=now,
            )
        except GameChangedError:
            await self._reload(game)
            raise ServiceError("game.changed") from None
        except Exception as e:
            # Was it made (its acknowledgement lost)? The stored snapshot says.
            try:
                stored = await self.store.snapshot(game.id)
            except Exception:
                self._drop(game)
                raise MoveUnsure(f"game {game.id}: undo {seq}") from e
            if stored is None or stored[0] != seq:
                raise  # not made: nothing changed
            log.warning("game %d: the undo was made, its acknowledgement lost: %s", game.id, e)
            row = None
        except BaseException:
            self._drop(game)  # cancelled: made or not, the database says at the next load
            raise
        game.game = engine_game
        self._took(game, row, None, told)
        if row is None:
            await self._reload(game)
        return action

    def _resolve_chance(self, game: ActiveGame) -> list[Step]:
        """Sample and apply pending chance decisions from the game's seed (restart-proof)."""
        assert game.game is not None
        steps = []
        while not game.game.state.over and game.game.state.to_act() == CHANCE:
            before = game.game.state
            action = scripted(game)  # a guided game's dice and deck, while its script runs
            if action is None:
                rng = random.Random(f"{game.row.seed}:{before.version}")
                action = sample_chance(before, rng)
            game.game.apply(action)
            steps.append(Step(CHANCE, action, new_events(before, game.game.state)))
        return steps

    async def _commit(
        self,
        game: ActiveGame,
        after: ActiveGame,
        steps: list[Step],
        first_seq: int,
        user_id: int | None,
        status: str | None,
        seats: dict[int, dict[str, object]] | None = None,
        *,
        closed_by: int | None = None,
        started: bool = False,
        key: str | None = None,
        **fields: Any,
    ) -> MoveResult | None:
        """Append the steps (played on ``after``, a copy of ``game``) to the log with the
        snapshot, the game row and seat changes, and what players must see of them
        (``_told``), in one transaction; then ``game`` becomes ``after``. The turn clock
        restarts (any action is a sign of life); a new turn starts with no reminders sent,
        and hands back seats whose members asked to rejoin. ``closed_by``: the seat whose
        move ended a turn (or the game); ``started``: the game's start; ``key``: the move's
        idempotency key, stored with its first action.

        Returns None once committed, or the first result of the move when its key was
        committed already. A refused or failed commit changes nothing in memory; a commit
        whose answer was lost is looked up by its key: made, it counts as made; if the
        database cannot say, ``MoveUnsure``."""
        now = self.clock()
        rows = [
            ActionRow(
                seq=first_seq + i,
                actor=step.seat,
                user_id=user_id if i == 0 and step.seat != CHANCE else None,
                notation=str(step.action),
                events=event_data(step.events),
                created_at=now,
                move_key=key if i == 0 else None,
            )
            for i, step in enumerate(steps)
        ]
        seats = dict(seats or {})
        state = after.state
        fields.update(updated_at=now, clock_since=now)
        if game.row.clock_turn != state.turn_number:
            fields.update(clock_turn=state.turn_number, reminders_sent=0)
            for s in game.seats:
                if s.rejoin and s.former_user_id is not None and state.current != s.seat:
                    back = {**_back_to(s.former_user_id, None), **self._handed_over(game, s.seat)}
                    seats[s.seat] = {**seats.get(s.seat, {}), **back}
        if seats:
            # The member to act may change with the seats: work it out on the new rows.
            after.seats = [_with(s, seats.get(s.seat)) for s in game.seats]
        fields["waiting_on_user"] = after.waiting_on()
        results: list[ResultRow] = []
        rated_in = None
        if status is not None:
            fields["status"] = status
            if status == "over" and not game.row.config.tutorial:  # a lesson never counts
                results = await self._results(after, rows)
                rated_in = game.row.guild_id  # ratings are per server: none in DMs
        told = self._told(after, now, first_seq + len(steps), closed_by, started)
        landed = self.take_landed()
        try:
            row: GameRow | None = await self.store.commit_actions(
                game.id, rows, dumps(state), seats, results, told, landed, rated_in, **fields
            )
        except (GameChangedError, UniqueViolation):
            # Another process (or a stale copy) moved this game on first, or committed this
            # very move (its key): nothing was written; take the game as stored.
            self.give_back_landed(landed)
            log.warning("game %d moved on in the database meanwhile; reloaded", game.id)
            await self._reload(game)
            try:
                first = await self.first_result(game, key)
            except Exception as e:
                raise MoveUnsure(f"game {game.id}: move {key}") from e
            if first is not None:
                return first
            raise ServiceError("game.changed") from None
        except Exception as e:
            self.give_back_landed(landed)
            if key is None:
                self._drop(game)  # made or not: the database says at the next load
                raise
            try:
                made = await self.store.keyed_move(game.id, key)
            except Exception:
                self._drop(game)
                raise MoveUnsure(f"game {game.id}: move {key}") from e
            if not made:
                raise  # not made: nothing changed, the member may play it again
            log.warning("game %d: move %s was committed, its acknowledgement lost", game.id, key)
            row = None
        except BaseException:
            self.give_back_landed(landed)
            self._drop(game)  # cancelled: made or not, the database says at the next load
            raise
        game.game = after.game
        self._took(game, row, after.seats, told)
        if row is None:
            await self._reload(game)  # made: the row as stored
        if game.row.status not in ("lobby", "playing"):
            self._forget(game)
        return None

    def _drop(self, game: ActiveGame) -> None:
        """The game in memory may be behind the database (a commit whose outcome is not
        known): it is loaded again when next asked for, or at the turn clock's next check."""
        self._forget(game)
        self._dropped.add(game.id)

    def _told(
        self, game: ActiveGame, now: float, logged: int, closed_by: int | None, started: bool
    ) -> list[Delivery]:
        """What players must see of actions that leave ``logged`` actions in the log: at
        the start, the cards dealt, the lobby closed, the first turn's message and its
        ping; after a move, the turn message as it is now, or, if the move ended the turn,
        the turn's message closed and the next turn's message and ping (or the game over).
        """
        state = game.state
        if started:
            told = [
                outbox.game_started(game, now, logged),
                outbox.lobby_shown(game, now, closing=outbox.text_of("lobby.started")),
            ]
        elif closed_by is not None:
            told = [outbox.turn_closed(game, now, seat=closed_by, to=logged, last=state.over)]
        else:
            return [outbox.turn_shown(game, now)]
        if state.over:
            return [*told, outbox.game_over(game, now)]
        told.append(outbox.turn_shown(game, now))
        notify = outbox.turn_told(game, now)
        return [*told, notify] if notify is not None else told

    async def _results(self, game: ActiveGame, new_rows: list[ActionRow]) -> list[ResultRow]:
        """The record of a finished game: each seat's VP part by part, the winners, and the
        territory of each seat's first colony (from the logged events)."""
        state = game.state
        ended = outcome(state)
        assert ended is not None
        place = places(state)
        first: dict[int, str] = {}
        logged = [*await self.store.actions(game.id), *new_rows]
        turns = turns_by_seat((a.actor, a.user_id, a.events) for a in logged)
        by = played_by(
            turn_starts((a.seq, a.actor, a.user_id, a.events) for a in logged),
            {s.seat: holders_from_json(s.holders) for s in game.seats},
            {s.seat: (s.user_id, s.ai_level) for s in game.seats},
        )
        for row in logged:
            for e in row.events:
                seat, territory = e.get("player"), e.get("params", {}).get("territory")
                if e.get("key") == "colony_placed" and isinstance(seat, int):
                    first.setdefault(seat, str(territory))
        out = []
        for s in game.seats:
            parts = score_parts(state, s.seat)
            member = s.user_id if s.user_id is not None else s.former_user_id
            played = turns.get(s.seat, Counter())
            out.append(
                ResultRow(
                    seat=s.seat,
                    user_id=member,
                    ai_level=s.ai_level,
                    name=_played_name(s, by.get(s.seat, ()), played, game.row.locale),
                    vp=ended.scores[s.seat],
                    vp_colonies=parts.colonies,
                    vp_territories=parts.territories,
                    vp_positron=parts.positron,
                    vp_cards=parts.cards,
                    winner=s.seat in ended.winners,
                    first_territory=first.get(s.seat),
                    place=place[s.seat],
                    turns=sum(played.values()),
                    own_turns=played.get(member, 0) if member is not None else 0,
                    bot_turns=played.get(None, 0),
                    played_by=played_json(by.get(s.seat, ())),
                )
            )
        return out

    async def _reload(self, game: ActiveGame) -> None:
        """After a failed commit: put the in-memory game back to what the database holds."""
        try:
            await self._refresh_row(game)
            game.game = (
                None if game.row.status == "lobby" else await self.rebuild(game.row, game.seats)
            )
        except Exception as e:
            log.warning(
                "game %d could not be reloaded (%s); dropped from memory until the next check",
                game.id,
                e,
            )
            self._forget(game)
            self._dropped.add(game.id)

    async def reload_dropped(self) -> list[ActiveGame]:
        """Load again the games a failed reload dropped from memory (the database was
        away), so their clock, AI turns and deliveries go on; those still in play."""
        back = []
        for game_id in sorted(self._dropped):
            try:
                game = await self.by_id(game_id)
            except Exception as e:
                log.warning("game %d not loaded again yet: %s", game_id, e)
                continue
            self._dropped.discard(game_id)
            if game is not None:
                back.append(game)
        return back

    async def mark_notified(self, game: ActiveGame, turn: int) -> None:
        """Record that the start of ``turn`` was notified (before notifying: at most once)."""
        await self._set_row(game, notified_turn=turn)

    async def set_turn_message(self, game: ActiveGame, message_id: int | None, turn: int) -> None:
        await self._set_row(game, turn_message_id=message_id, turn_message_turn=turn)

    async def set_lobby_message(self, game: ActiveGame, message_id: int | None) -> None:
        await self._set_row(game, lobby_message_id=message_id)

    async def _set_row(self, game: ActiveGame, **fields: Any) -> None:
        """Set some columns of the game's row and keep the row as stored."""
        row = await self.store.update_game(game.id, **fields)
        assert row is not None
        game.row = row


def _logged_event(data: dict[str, Any]) -> Event:
    """A logged event (``bot.play.games.event_data``) as the engine's."""
    player = data.get("player")
    params = data.get("params", {})
    return Event(str(data.get("key")), player if isinstance(player, int) else None, params, 0)


def _back_to(user_id: int, name: str | None) -> dict[str, object]:
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


def _played_name(seat: SeatRow, played: PlayedBy, moves: Counter[int | None], locale: str) -> str:
    """A seat's name in the game's record, by who played it: a member's as it is; an
    AI's by the level that played most of its AI turns, with the name of the member who
    left it only if they played some of its turns themselves (``moves``: who played each
    turn) — "alt (AI hard)" for a seat the easy AI played but for its last turn, alt
    never, is "AI 2 (easy)"."""
    if seat.ai_level is None:
        return seat.name
    levels: Counter[str] = Counter()
    for _, level, n in played:
        if level is not None:
            levels[level] += n
    level = levels.most_common(1)[0][0] if levels else seat.ai_level
    former = seat.former_user_id
    member = None
    if former is not None and moves.get(former, 0) > 0:
        member = replaced_member(seat.name, seat.ai_level)
    if level == seat.ai_level and (member is None) == (former is None):
        return seat.name
    return ai_name(level, seat.seat + 1, member, locale)  # type: ignore[arg-type]


def _with(seat: SeatRow, changes: Mapping[str, object] | None) -> SeatRow:
    """A seat row with some columns changed (as the database will hold it)."""
    if not changes:
        return seat
    return replace(seat, **changes)  # type: ignore[arg-type]


# How the bot's helpers reach the service: the bot opens the database (and builds the
# service) when it logs in, after the helpers were built.
ServiceRef = Callable[[], GameService]

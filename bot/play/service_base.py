"""What every job of the game service shares (``ServiceBase``): the database, the clock and
the AI it was given, the games held in memory and their loading (rebuilt from the log and
checked against the snapshot; dropped, and loaded again, when a commit's outcome is not
known), a committed change taken into memory, and the seat changes several jobs make: a
member's seat handed to the AI, a lobby seat removed, seats changed with the game shown
again, a member's departure rated. The jobs are combined in ``bot.play.service``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from dataclasses import fields as fields_of
from typing import Any

from bot.play import outbox
from bot.play.ai import AIFactory
from bot.play.coach_memory import Coach
from bot.play.games import ActiveGame
from bot.play.outbox import Outbox
from bot.play.readers import Readers
from bot.store.db_inspect import database_name, plural
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
from bot.store.shards import Shards
from bot.store.storage import Storage
from bot.text.seat_names import ai_name
from engine import Game, dumps, loads


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


class ServiceBase:
    """What the game service's jobs share; see ``bot.play.service`` for locking."""

    def __init__(
        self,
        store: Storage,
        *,
        clock: Callable[[], float],
        new_seed: Callable[[], int],
        ai_factory: AIFactory,
        ai_budget_ms: int | None,
        shards: Shards,
        outbox: Outbox,
        coach: Coach,
        readers: Readers,
    ) -> None:
        self.store = store
        # The outbox's rows and what this process keeps of it: handed to the delivery
        # worker as well (bot.discord.delivery), which delivers what the changes queue.
        self.outbox = outbox
        self.shards = shards
        self.clock = clock
        self.ai_factory = ai_factory
        self.ai_budget_ms = ai_budget_ms
        self.new_seed = new_seed  # a new game's seed (its dice and its deck)
        self._games: dict[int, ActiveGame] = {}
        self._by_channel: dict[int, int] = {}
        self._load_lock = asyncio.Lock()
        self._dropped: set[int] = set()  # games dropped from memory after a failed reload
        self.coach = coach  # /af coach: who has it on, what they used
        self.readers = readers  # /af notify screen_reader: who has it on

    def _queued(self, game: ActiveGame, deliveries: Sequence[Delivery]) -> None:
        if deliveries:
            self.outbox.queued(game.row.channel_id)

    # ---- the database, opened when the bot logs in -------------------------------------

    @property
    def database_open(self) -> bool:
        return self.store.is_open

    async def open_database(self) -> None:
        """Open (and migrate) the database the service was built on, and say which it is."""
        await self.store.connect()
        stored = await self.store.db.fetchone("SELECT COUNT(*) FROM games")
        count = int(stored[0]) if stored else 0
        log.info("database: %s (%s)", database_name(str(self.store.target)), plural(count, "game"))

    async def database_answers(self) -> None:
        """Ask the database something (raises if it does not answer): the heartbeat's check."""
        await self.store.db.fetch("SELECT 1")

    async def close_database(self) -> None:
        await self.store.close()
        log.info("database closed")

    # ---- finding and loading games ---------------------------------------------------------------

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
        row = await self.store.game_rows.active_game(channel_id)
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
        row = await self.store.game_rows.game(game_id)
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
            seats = await self.store.seat_rows.seats(row.id)
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
            actions = await self.store.action_log.actions(row.id)
            snapshot = await self.store.action_log.snapshot(row.id)
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
            await self.store.action_log.repair_snapshot(
                row.id, found, len(actions), dumps(game.state)
            )
        return game

    async def as_committed(self, game_id: int) -> ActiveGame | None:
        """The game (in its lobby or in play) as the database holds it, for what players
        are shown of it (``bot.discord.couriers``); None once it is over or aborted.

        This process's copy falls behind when another process over the same database moved
        the game on (a rolling restart: both are given every interaction, and each acts on
        those it claims, ``bot.discord.owners``): a delivery shown from it would be judged
        out of date and dropped (a started game seen as a lobby: its first turn message
        never posted). It is then loaded again: in place, unless a commit of this process
        changed it meanwhile (that copy is then returned, kept nowhere). Its row is the row
        as read now (with the ids of the messages recorded by the deliveries): a courier
        reads it once, with the count of actions logged, in one statement."""
        found = await self.store.game_rows.game_as_logged(game_id)  # its row and log, read at once
        row, logged = found if found is not None else (None, 0)
        held = self._games.get(game_id)
        if row is None or row.status not in ("lobby", "playing"):
            if held is not None and row is not None and not held.lock.locked():
                self._forget(held)  # ended by another process
            return None
        if held is None:
            return await self._load(row)
        # A lobby's seats change with no action logged (and within a clock tick, may be).
        seats = await self.store.seat_rows.seats(game_id) if row.status == "lobby" else held.seats
        if (
            (held.row.status, held.row.updated_at) == (row.status, row.updated_at)
            and (len(held.game.log) if held.game else 0) == logged
            and seats == held.seats
        ):
            # The same version: its row as read now (a delivery may have recorded a
            # message's id on it since, which changes no version).
            held.row = row
            return held
        seen = (held.row, held.game)
        if row.status != "lobby":
            seats = await self.store.seat_rows.seats(game_id)
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
        for row in await self.store.game_rows.games_with_status("playing", self.shards):
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
        row = await self.store.game_rows.game(game.id)
        assert row is not None
        game.row = row
        game.seats = await self.store.seat_rows.seats(game.id)

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

    def _drop(self, game: ActiveGame) -> None:
        """The game in memory may be behind the database (a commit whose outcome is not
        known): it is loaded again when next asked for, or at the turn clock's next check."""
        self._forget(game)
        self._dropped.add(game.id)

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

    # ---- seat changes several jobs make ----------------------------------------------------------

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
            row = await self.store.seat_rows.set_seats(
                game.id, seats, told, status="aborted", updated_at=now
            )
            self._took(game, row, seats, told)
            self._forget(game)
            return SeatChange(old, None, ended=True)
        host = game.row.host_id
        if old.user_id == host and humans and humans[0].user_id is not None:
            host = humans[0].user_id
        told = [said, outbox.lobby_shown(game, now)]
        row = await self.store.seat_rows.set_seats(
            game.id, seats, told, host_id=host, updated_at=now
        )
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
        row = await self.store.seat_rows.update(
            game.id, seats, told, departure=departure, **game_fields
        )
        self._took(game, row, new_seats, told)

    def check_manager(self, game: ActiveGame, user_id: int, can_manage: bool) -> None:
        if game.row.host_id != user_id and not can_manage:
            raise ServiceError("seats.not_allowed")


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


def _with(seat: SeatRow, changes: Mapping[str, object] | None) -> SeatRow:
    """A seat row with some columns changed (as the database will hold it)."""
    if not changes:
        return seat
    return replace(seat, **changes)  # type: ignore[arg-type]

"""The games held in memory (``HeldGames``), one object shared by every job of the game
service: each game in its lobby or in play loaded once, rebuilt from its log and checked
against its snapshot, found by its channel or its id, taken as committed when another
process moved it on, dropped and loaded again when a commit's outcome is not known, and a
committed change taken into memory with its deliveries queued. It is handed the areas of
the storage it reads (the games' rows, their seats, the action log) and whether the
database is shared by several processes; the database's lifecycle is
``bot.play.database.GameDatabase``'s.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

from bot.play.games import ActiveGame
from bot.play.outbox import Outbox
from bot.store.action_log_store import ActionLogStore
from bot.store.errors import ServiceError
from bot.store.game_store import GameStore
from bot.store.rows import Delivery, GameRow, SeatRow
from bot.store.seat_store import SeatStore
from bot.store.shards import Shards
from engine import Game, dumps, loads

log = logging.getLogger(__name__)


class HeldGames:
    """The games in memory of this process's shards, over one database; see the module
    docstring."""

    def __init__(
        self,
        *,
        shards: Shards,
        outbox: Outbox,
        shared: bool,
        game_rows: GameStore,
        seat_rows: SeatStore,
        action_log: ActionLogStore,
    ) -> None:
        # Whether another process may move a game on (PostgreSQL): a game is then read as
        # committed when it is asked for.
        self._shared = shared
        self._game_rows = game_rows
        self._seat_rows = seat_rows
        self._action_log = action_log
        self.shards = shards
        # The outbox's rows and what this process keeps of it: handed to the delivery
        # worker as well (bot.discord.delivery), which delivers what the changes queue.
        self.outbox = outbox
        self._games: dict[int, ActiveGame] = {}
        self._by_channel: dict[int, int] = {}
        self._load_lock = asyncio.Lock()
        self._dropped: set[int] = set()  # games dropped from memory after a failed reload

    # ---- finding and loading games ---------------------------------------------------------------

    async def in_channel(self, channel_id: int) -> ActiveGame | None:
        """The channel's game in its lobby or in play, loaded. On PostgreSQL, as committed:
        another process over the database may have moved it on (``as_committed``); on
        SQLite one process runs over a database file (``bot.store.db_lock``), and its copy
        is the game."""
        game_id = self._by_channel.get(channel_id)
        if game_id is not None and game_id in self._games:
            if not self._shared:
                return self._games[game_id]
            game = await self.as_committed(game_id)
            if game is not None and game.row.channel_id == channel_id:
                return game
        row = await self._game_rows.active_game(channel_id)
        return await self.load(row) if row else None

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
        row = await self._game_rows.game(game_id)
        if row is None or row.status not in ("lobby", "playing"):
            return None
        return await self.load(row)

    async def load(self, row: GameRow) -> ActiveGame:
        """Rebuild a game from the database. Only the games of this process's shards are
        kept in memory: another process plays the others (``/af mygames`` looks at them
        here), so a copy held here would fall behind."""
        async with self._load_lock:
            if row.id in self._games:
                return self._games[row.id]
            seats = await self._seat_rows.seats(row.id)
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
            actions = await self._action_log.actions(row.id)
            snapshot = await self._action_log.snapshot(row.id)
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
            await self._action_log.repair_snapshot(row.id, found, len(actions), dumps(game.state))
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
        found = await self._game_rows.game_as_logged(game_id)  # its row and log, read at once
        row, logged = found if found is not None else (None, 0)
        held = self._games.get(game_id)
        if row is None or row.status not in ("lobby", "playing"):
            if held is not None and row is not None and not held.lock.locked():
                self.forget(held)  # ended by another process
            return None
        if held is None:
            return await self.load(row)
        # A lobby's seats change with no action logged (and within a clock tick, may be).
        seats = await self._seat_rows.seats(game_id) if row.status == "lobby" else held.seats
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
            seats = await self._seat_rows.seats(game_id)
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
        for row in await self._game_rows.games_with_status("playing", self.shards):
            try:
                out.append(await self.load(row))
            except Exception:
                log.exception("game %d could not be loaded", row.id)
        return out

    def forget(self, game: ActiveGame) -> None:
        """The game is no longer held (over, ended, orphaned, or held by another process)."""
        self._games.pop(game.id, None)
        if self._by_channel.get(game.row.channel_id) == game.id:
            del self._by_channel[game.row.channel_id]

    async def _refresh_row(self, game: ActiveGame) -> None:
        row = await self._game_rows.game(game.id)
        assert row is not None
        game.row = row
        game.seats = await self._seat_rows.seats(game.id)

    def take_committed(
        self,
        game: ActiveGame | None,
        told: Sequence[Delivery],
        *,
        row: GameRow | None = None,
        seats: Sequence[SeatRow] | None = None,
        lane: int | None = None,
    ) -> None:
        """A change was committed, with the deliveries it queued (``told``): the game in
        memory takes its row as the commit returned it (``row``) and its seats as set
        (``seats``; nothing is read back: a read failing after the commit would turn a
        change that was made into an error), and, if anything was queued, the lane is marked
        for whoever made the change to deliver at once (``Outbox.queued``): the game's
        channel, or ``lane`` for a commit of no game in memory (a lobby just made, a game
        back in a channel, an orphaned game's host told by DM). Every commit that queues
        deliveries ends here."""
        if game is not None:
            if row is not None:
                game.row = row
            if seats is not None:
                game.seats = list(seats)
        if told:
            if lane is None:
                assert game is not None, "a commit of no game in memory names its lane"
                lane = game.row.channel_id
            self.outbox.queued(lane)

    def drop(self, game: ActiveGame) -> None:
        """The game in memory may be behind the database (a commit whose outcome is not
        known): it is loaded again when next asked for, or at the turn clock's next check."""
        self.forget(game)
        self._dropped.add(game.id)

    async def reload(self, game: ActiveGame) -> None:
        """After a refused or failed commit: put the game in memory back to what the
        database holds."""
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
            self.forget(game)
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

"""Storage of games: a new game's lobby, a game's row read and changed, the games of a
channel, a server or a host, and games that lost their channel (orphaned, adopted)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from bot.store.db import UniqueViolation
from bot.store.errors import ChannelBusyError, GameChangedError
from bot.store.game_config import DEFAULT_SETTINGS, GameSettings
from bot.store.rows import ACTIVE, Deliveries, GameRow, GameStatus, OrphanedBy, ToHost
from bot.store.shards import Shards
from bot.store.shared_sql import StoreArea, game_row, game_update, queue_in, shard_filter


class GameStore(StoreArea):
    """The ``games`` table."""

    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        host_name: str | None,
        max_players: int,
        seed: int,
        locale: str,
        now: float,
        config: GameSettings = DEFAULT_SETTINGS,
        deliveries: Deliveries = (),
    ) -> int:
        """A new game in its lobby with the host in seat 0 (unless ``host_name`` is None),
        and ``deliveries``, what must be shown of it, queued as the new game's: each with
        its ``game_id`` set to the game's id, which only the insert knows.

        ChannelBusyError if the channel already has an active game.
        """
        try:
            async with self.db.transaction() as tx:
                row = await tx.fetchone(
                    "INSERT INTO games (guild_id, channel_id, host_id, status, max_players,"
                    " config, seed, locale, created_at, updated_at)"
                    " VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?) RETURNING id",
                    (
                        guild_id,
                        channel_id,
                        host_id,
                        max_players,
                        config.to_json(),
                        seed,
                        locale,
                        float(now),
                        float(now),
                    ),
                )
                assert row is not None
                game_id = int(row["id"])
                if host_name is not None:
                    await tx.execute(
                        "INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, 0, ?, ?)",
                        (game_id, host_id, host_name),
                    )
                await queue_in(tx, [replace(d, game_id=game_id) for d in deliveries])
        except UniqueViolation:
            raise ChannelBusyError(channel_id) from None
        return game_id

    async def game(self, game_id: int) -> GameRow | None:
        row = await self._one("SELECT * FROM games WHERE id = ?", (game_id,))
        return game_row(row) if row else None

    async def game_as_logged(self, game_id: int) -> tuple[GameRow, int] | None:
        """The game's row and the number of actions its stored state follows (0 before its
        start), read together: one statement, one moment of the game."""
        row = await self._one(
            "SELECT games.*, COALESCE(snapshots.seq, 0) AS logged_count FROM games"
            " LEFT JOIN snapshots ON snapshots.game_id = games.id WHERE games.id = ?",
            (game_id,),
        )
        return (game_row(row), int(row["logged_count"])) if row else None

    async def active_game(self, channel_id: int) -> GameRow | None:
        """The channel's game in its lobby or in play, if any."""
        row = await self._one(
            "SELECT * FROM games WHERE channel_id = ? AND status IN ('lobby', 'playing')",
            (channel_id,),
        )
        return game_row(row) if row else None

    async def latest_game(self, channel_id: int) -> GameRow | None:
        """The channel's most recent game, finished or not."""
        row = await self._one(
            "SELECT * FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,)
        )
        return game_row(row) if row else None

    async def latest_played_game(self, channel_id: int) -> GameRow | None:
        """The channel's most recent game that was started (it has a saved state)."""
        row = await self._one(
            "SELECT * FROM games WHERE channel_id = ? AND status != 'lobby'"
            " AND EXISTS (SELECT 1 FROM snapshots WHERE snapshots.game_id = games.id)"
            " ORDER BY id DESC LIMIT 1",
            (channel_id,),
        )
        return game_row(row) if row else None

    async def games_with_status(
        self, status: GameStatus, shards: Shards | None = None
    ) -> list[GameRow]:
        """Games with this status, only those in the servers of ``shards`` if given
        (Discord's formula, ``(guild_id >> 22) % count``; a game with no server is shard 0's)."""
        where, params = shard_filter(shards)
        rows = await self._all(
            f"SELECT * FROM games WHERE status = ?{where} ORDER BY id", [status, *params]
        )
        return [game_row(r) for r in rows]

    async def update_game(
        self,
        game_id: int,
        deliveries: Deliveries = (),
        *,
        expected: Mapping[str, object] | None = None,
        **fields: object,
    ) -> GameRow | None:
        """Set some columns of a game's row (names checked against a fixed list), with the
        deliveries the change causes; the row as it is now (None if there is no such game).
        Without deliveries, one statement committed alone. ``expected``: only if the stored
        row still holds these values, else GameChangedError and nothing is written (nor
        queued): of two processes that judged the same row, one makes the change."""
        update = game_update(game_id, fields, expected=expected)
        if not deliveries:
            rows = await self.db.write(*update)
            if not rows and expected is not None:
                raise GameChangedError(f"game {game_id}: the stored row is not as expected")
            return game_row(rows[0]) if rows else None
        async with self.db.transaction() as tx:
            row = await tx.fetchone(*update)
            if row is None and expected is not None:
                raise GameChangedError(f"game {game_id}: the stored row is not as expected")
            await queue_in(tx, deliveries)
        return game_row(row) if row else None

    # ---- games that lost their channel ---------------------------------------------------

    async def orphan_game(
        self,
        game_id: int,
        why: OrphanedBy,
        now: float,
        told: ToHost | None = None,
    ) -> GameRow | None:
        """A game in play whose channel is gone (``why``: its channel deleted, the bot
        removed from its server) becomes orphaned (a lobby is aborted: nothing of it is
        worth keeping); what was still to be delivered in its channel is given up; and
        ``told`` is queued to its host (made from the row: ``ToHost.to``), once, with the
        host's problem recorded. None if the game was not in its lobby or in play."""
        async with self.db.transaction() as tx:
            row = await tx.fetchone(
                "UPDATE games SET status = CASE WHEN status = 'lobby' THEN 'aborted'"
                " ELSE 'orphaned' END, orphaned = CASE WHEN status = 'lobby' THEN NULL"
                " ELSE ? END, orphaned_at = ?, waiting_on_user = NULL, updated_at = ?"
                " WHERE id = ? AND status IN ('lobby', 'playing') RETURNING *",
                (why, float(now), float(now), game_id),
            )
            if row is None:
                return None
            game = game_row(row)
            await tx.execute(
                "UPDATE deliveries SET status = 'failed', failed_at = ?, error = ?"
                " WHERE status = 'pending' AND channel_id = ?",
                (float(now), f"orphaned: {why}", game.channel_id),
            )
            if told is not None and game.status == "orphaned":
                made = await tx.fetch(
                    "INSERT INTO host_notices (game_id, problem, told_at) VALUES (?, ?, ?)"
                    " ON CONFLICT (game_id, problem) DO NOTHING RETURNING game_id",
                    (game_id, "orphaned", float(now)),
                )
                if made:
                    await queue_in(tx, [told.to(game)])
        return game

    async def adopt_game(
        self,
        game_id: int,
        *,
        channel_id: int,
        guild_id: int | None,
        now: float,
        deliveries: Deliveries = (),
        keep_messages: bool = False,
        waiting_on_user: int | None = None,
    ) -> GameRow | None:
        """An orphaned game plays on in ``channel_id`` (another channel, or its own once the
        bot is back in its server: ``keep_messages``, its messages there are still its own),
        in play again, with no turn message yet (unless kept), its clock starting now, the
        member it waits on ``waiting_on_user`` again, and ``deliveries`` to show it there.
        ChannelBusyError if that channel has a game; None if the game is not orphaned."""
        messages = (
            ""
            if keep_messages
            else " turn_message_id = NULL, turn_message_turn = NULL, lobby_message_id = NULL,"
        )
        try:
            async with self.db.transaction() as tx:
                row = await tx.fetchone(
                    "UPDATE games SET status = 'playing', channel_id = ?, guild_id = ?,"
                    f" orphaned = NULL, orphaned_at = NULL,{messages} clock_since = ?,"
                    " waiting_on_user = ?, updated_at = ? WHERE id = ? AND status = 'orphaned'"
                    " RETURNING *",
                    (channel_id, guild_id, float(now), waiting_on_user, float(now), game_id),
                )
                if row is None:
                    return None
                game = game_row(row)
                await tx.execute("DELETE FROM host_notices WHERE game_id = ?", (game_id,))
                await queue_in(tx, deliveries)
        except UniqueViolation:
            raise ChannelBusyError(channel_id) from None
        return game

    async def games_in(
        self,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
        host_id: int | None = None,
        statuses: Sequence[GameStatus] = ACTIVE,
    ) -> list[GameRow]:
        """Games of a server, a channel or a host (any of them given), with these statuses."""
        where = [f"status IN ({', '.join('?' for _ in statuses)})"]
        params: list[object] = list(statuses)
        for column, value in (
            ("guild_id", guild_id),
            ("channel_id", channel_id),
            ("host_id", host_id),
        ):
            if value is not None:
                where.append(f"{column} = ?")
                params.append(value)
        rows = await self._all(
            f"SELECT * FROM games WHERE {' AND '.join(where)} ORDER BY id", params
        )
        return [game_row(r) for r in rows]

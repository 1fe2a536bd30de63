"""Storage of the outbox's deliveries (made by ``bot.play.outbox``, delivered by
``bot.discord.delivery``) and of the leases on their lanes (who delivers a channel's)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from bot.store.rows import Deliveries, Delivery
from bot.store.shards import Shards
from bot.store.shared_sql import (
    StoreArea,
    delivery_row,
    delivery_values,
    forget_in,
    queue_in,
    shard_filter,
    update_game_in,
)


class DeliveryStore(StoreArea):
    """The ``deliveries`` and ``delivery_lanes`` tables."""

    async def queue(self, deliveries: Deliveries) -> None:
        """Store deliveries that no change of a game causes (a repair, a notice of the
        delivery worker's own)."""
        async with self.db.transaction() as tx:
            await queue_in(tx, deliveries)

    async def pending_deliveries(
        self, shards: Shards | None = None, channel_id: int | None = None
    ) -> list[Delivery]:
        """Deliveries still to make, in the servers of ``shards`` (or one channel's), in
        the order they were queued."""
        return await self._with_status("pending", shards, "channel_id", channel_id, "")

    async def has_pending(self, game_id: int, kind: str) -> bool:
        row = await self._one(
            "SELECT 1 FROM deliveries WHERE game_id = ? AND kind = ? AND status = 'pending'"
            " LIMIT 1",
            (game_id, kind),
        )
        return row is not None

    async def delivered(
        self,
        delivery_id: int,
        game_id: int | None,
        then: Deliveries = (),
        **game_fields: object,
    ) -> None:
        """A delivery landed: remove it, and record what it made (a message's id in the
        game's row) and queue what comes in its place (``then``) in the same transaction, so
        a retry never makes it twice. What comes in its place takes its place in the lane
        (the row becomes the first of them: a DM refused becomes its notice in the channel,
        before what was queued after it)."""
        async with self.db.transaction() as tx:
            first, rest = (then[0], then[1:]) if then else (None, ())
            if first is None:
                await tx.execute("DELETE FROM deliveries WHERE id = ?", (delivery_id,))
            else:
                values = delivery_values(first)
                await tx.execute(
                    "UPDATE deliveries SET game_id = ?, guild_id = ?, channel_id = ?, kind = ?,"
                    " payload = ?, status = ?, attempts = ?, due_at = ?, created_at = ?,"
                    " error = NULL WHERE id = ?",
                    (*values, delivery_id),
                )
            if game_id is not None:
                await update_game_in(tx, game_id, game_fields)
            await queue_in(tx, rest)

    async def forget_deliveries(self, landed: Sequence[int]) -> None:
        """Remove deliveries that landed (their removal waited, to go with a commit)."""
        if landed:
            async with self.db.transaction() as tx:
                await forget_in(tx, landed)

    async def delivery_failed(
        self,
        delivery_id: int,
        *,
        attempts: int,
        due_at: float,
        error: str,
        give_up: bool = False,
        now: float | None = None,
    ) -> None:
        """An attempt failed: try again at ``due_at``, or (``give_up``) never (failed at
        ``now``: failed rows are pruned after a while)."""
        status = "failed" if give_up else "pending"
        failed_at = float(now if now is not None else due_at) if give_up else None
        await self.db.write(
            "UPDATE deliveries SET attempts = ?, due_at = ?, error = ?, status = ?, failed_at = ?"
            " WHERE id = ?",
            (attempts, float(due_at), error[:500], status, failed_at, delivery_id),
        )

    async def delivery_counts(self, shards: Shards | None = None) -> tuple[int, float | None, int]:
        """(pending, the oldest pending one's creation time, failed) in ``shards``."""
        where, params = shard_filter(shards)
        row = await self._one(
            "SELECT SUM(CASE WHEN status = 'pending' THEN 1 ELSE 0 END) AS pending,"
            " MIN(CASE WHEN status = 'pending' THEN created_at END) AS oldest,"
            " SUM(CASE WHEN status = 'failed' THEN 1 ELSE 0 END) AS failed"
            f" FROM deliveries WHERE 1 = 1{where}",
            params,
        )
        if row is None:
            return 0, None, 0
        oldest = row["oldest"]
        return (
            int(row["pending"] or 0),
            float(oldest) if oldest is not None else None,
            int(row["failed"] or 0),
        )

    async def failed_deliveries(
        self, shards: Shards | None = None, game_id: int | None = None
    ) -> list[Delivery]:
        """The deliveries given up (in ``shards``, or of one game), newest first."""
        return await self._with_status("failed", shards, "game_id", game_id, " DESC")

    async def _with_status(
        self,
        status: str,
        shards: Shards | None,
        column: Literal["channel_id", "game_id"],
        value: int | None,
        order: Literal["", " DESC"],
    ) -> list[Delivery]:
        """The deliveries of ``status`` in ``shards`` (and ``column`` = ``value``, if
        given), by the order they were queued (``order``)."""
        where, params = shard_filter(shards)
        if value is not None:
            where += f" AND {column} = ?"
            params.append(value)
        rows = await self._all(
            f"SELECT * FROM deliveries WHERE status = ?{where} ORDER BY id{order}",
            [status, *params],
        )
        return [delivery_row(r) for r in rows]

    async def prune_failed(self, before: float) -> int:
        """Remove the deliveries given up before ``before``; how many."""
        rows = await self.db.write(
            "DELETE FROM deliveries WHERE status = 'failed' AND COALESCE(failed_at, due_at) < ?"
            " RETURNING id",
            (float(before),),
        )
        return len(rows)

    # ---- who delivers which lane: leases ----------------------------------------------

    async def claim_lane(
        self, channel_id: int, owner: str, now: float, until: float
    ) -> tuple[bool, str | None]:
        """Take (or keep) a lane until ``until``: only if its lease is ``owner``'s or ran out
        by ``now``; one statement, so of two processes claiming at once one gets it.
        (Whether it was taken, and the owner before: whose deliveries of the lane may have
        been made without being recorded.)"""
        rows = await self.db.write(
            "INSERT INTO delivery_lanes (channel_id, owner, until, taken_from)"
            " VALUES (?, ?, ?, NULL) ON CONFLICT (channel_id) DO UPDATE SET"
            " owner = excluded.owner, until = excluded.until,"
            " taken_from = delivery_lanes.owner"
            " WHERE delivery_lanes.owner = excluded.owner OR delivery_lanes.until < ?"
            " RETURNING taken_from",
            (channel_id, owner, float(until), float(now)),
        )
        if not rows:
            return False, None
        before = rows[0]["taken_from"]
        return True, str(before) if before is not None else None

    async def release_lanes(self, owner: str) -> None:
        """Let the lanes ``owner`` holds go (a process stopping): another takes them at once."""
        await self.db.write("UPDATE delivery_lanes SET until = 0 WHERE owner = ?", (owner,))

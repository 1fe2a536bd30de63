"""Storage of what a game's host was told of a problem, so they are told once."""

from __future__ import annotations

from bot.store.rows import Deliveries
from bot.store.shared_sql import StoreArea, queue_in


class HostNoticeStore(StoreArea):
    """The ``host_notices`` table."""

    async def tell_host(
        self, game_id: int, problem: str, now: float, deliveries: Deliveries
    ) -> bool:
        """Queue what tells the host of ``problem`` (a DM), unless they were told of it
        already (and it was not solved since): whether it was queued. Remembered in the
        database, so a restart does not tell them again."""
        async with self.db.transaction() as tx:
            rows = await tx.fetch(
                "INSERT INTO host_notices (game_id, problem, told_at) VALUES (?, ?, ?)"
                " ON CONFLICT (game_id, problem) DO NOTHING RETURNING game_id",
                (game_id, problem, float(now)),
            )
            if rows:
                await queue_in(tx, deliveries)
        return bool(rows)

    async def host_told(self, game_id: int) -> dict[str, float]:
        """The problems the host of a game was told of (and when)."""
        rows = await self._all(
            "SELECT problem, told_at FROM host_notices WHERE game_id = ?", (game_id,)
        )
        return {str(r["problem"]): float(r["told_at"]) for r in rows}

    async def problem_solved(self, game_id: int, problem: str) -> None:
        """The problem is gone: if it comes back, the host is told again."""
        await self.db.write(
            "DELETE FROM host_notices WHERE game_id = ? AND problem = ?", (game_id, problem)
        )

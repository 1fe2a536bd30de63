"""Storage of which process answers which interaction: of two processes given the same
interaction (a rolling restart on PostgreSQL), the one that claims it acts."""

from __future__ import annotations

from bot.store.shared_sql import StoreArea


class InteractionStore(StoreArea):
    """The ``interaction_owners`` table."""

    async def claim_interaction(
        self, interaction_id: int, owner: str, now: float, within: float | None = None
    ) -> bool:
        """Take an interaction for ``owner``: whether it is theirs (one statement, so of two
        processes given the same interaction one gets it; the same owner asking again
        keeps it, so a claim whose answer was lost is asked again safely). ``within``
        (seconds; PostgreSQL): the server gives the statement up after that long (its
        ``statement_timeout``, lock waits included), so no claim is written later."""
        sql = (
            "INSERT INTO interaction_owners (interaction_id, owner, at) VALUES (?, ?, ?)"
            " ON CONFLICT (interaction_id) DO UPDATE SET at = interaction_owners.at"
            " WHERE interaction_owners.owner = excluded.owner RETURNING owner"
        )
        params = (interaction_id, owner, float(now))
        if within is None or self.db.dialect != "postgresql":
            return bool(await self.db.write(sql, params))
        async with self.db.transaction() as tx:
            await tx.execute(f"SET LOCAL statement_timeout = {max(1, int(within * 1000))}")
            return bool(await tx.fetch(sql, params))

    async def owner_of(self, interaction_id: int) -> str | None:
        """Who took the interaction, if anyone (read only: a read-only database answers)."""
        row = await self._one(
            "SELECT owner FROM interaction_owners WHERE interaction_id = ?", (interaction_id,)
        )
        return None if row is None else str(row["owner"])

    async def prune_interactions(self, before: float) -> int:
        """Forget who answered the interactions taken before ``before``; how many."""
        rows = await self.db.write(
            "DELETE FROM interaction_owners WHERE at < ? RETURNING interaction_id",
            (float(before),),
        )
        return len(rows)

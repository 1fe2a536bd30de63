"""Storage of which process answers which interaction: of two processes given the same
interaction (a rolling restart on PostgreSQL), the one that claims it acts."""

from __future__ import annotations

from bot.store.shared_sql import StoreArea


class InteractionStore(StoreArea):
    """The ``interaction_owners`` table."""

    async def claim_interaction(self, interaction_id: int, owner: str, now: float) -> bool:
        """Take an interaction for ``owner``: whether it is theirs (one statement, so of two
        processes given the same interaction one gets it; the same owner asking again
        keeps it)."""
        rows = await self.db.write(
            "INSERT INTO interaction_owners (interaction_id, owner, at) VALUES (?, ?, ?)"
            " ON CONFLICT (interaction_id) DO UPDATE SET at = interaction_owners.at"
            " WHERE interaction_owners.owner = excluded.owner RETURNING owner",
            (interaction_id, owner, float(now)),
        )
        return bool(rows)

    async def prune_interactions(self, before: float) -> int:
        """Forget who answered the interactions taken before ``before``; how many."""
        rows = await self.db.write(
            "DELETE FROM interaction_owners WHERE at < ? RETURNING interaction_id",
            (float(before),),
        )
        return len(rows)

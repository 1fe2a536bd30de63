"""The game service's owners of interactions: of two processes over one database given the
same command or click (a rolling restart), the one that claims it first acts
(``bot.discord.owners``). On SQLite one process only runs over a database file
(``bot.store.db_lock``): nothing is claimed there.
"""

from __future__ import annotations

from bot.store.interaction_store import InteractionStore


class OwnerService:
    """Interactions claimed by one process."""

    def __init__(self, *, shared: bool, interactions: InteractionStore) -> None:
        self._shared = shared
        self._interactions = interactions

    @property
    def shares_its_database(self) -> bool:
        """Whether another process may run over this database (PostgreSQL)."""
        return self._shared

    async def claim_interaction(
        self, interaction_id: int, owner: str, now: float, within: float | None = None
    ) -> bool:
        """Take an interaction for ``owner``: whether it is theirs (the same owner asking
        again keeps it). ``within``: seconds the database may take to write it, at most."""
        if not self.shares_its_database:
            return True
        return await self._interactions.claim_interaction(interaction_id, owner, now, within)

    async def owner_of(self, interaction_id: int) -> str | None:
        """Who took the interaction, if anyone."""
        if not self.shares_its_database:
            return None
        return await self._interactions.owner_of(interaction_id)

    async def prune_claims(self, before: float) -> int:
        """Forget who took the interactions taken before ``before``; how many."""
        if not self.shares_its_database:
            return 0
        return await self._interactions.prune_interactions(before)

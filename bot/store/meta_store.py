"""Storage of the bot's own notes, by key (``meta``): the digest of the slash commands last
synced, kept across restarts."""

from __future__ import annotations

from bot.store.shared_sql import StoreArea


class MetaStore(StoreArea):
    """The ``meta`` table: one value per key."""

    async def get_meta(self, key: str) -> str | None:
        row = await self._one("SELECT value FROM meta WHERE key = ?", (key,))
        return str(row["value"]) if row else None

    async def set_meta(self, key: str, value: str) -> None:
        async with self.db.transaction() as tx:
            await tx.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

"""The digest of the slash commands last synced with Discord, by scope (``CommandDigests``):
the bot's own note, not a game's or a server's setting. The client compares it when it
logs in and syncs the commands only when they changed (``bot.discord.client``).
"""

from __future__ import annotations

from bot.store.meta_store import MetaStore


class CommandDigests:
    """The commands' digests, kept in the bot's notes (``meta``)."""

    def __init__(self, meta: MetaStore) -> None:
        self._meta = meta

    async def last_synced(self, key: str) -> str | None:
        """The digest of the slash commands last synced under ``key`` (their scope)."""
        return await self._meta.get_meta(key)

    async def remember(self, key: str, digest: str) -> None:
        """The commands were synced under ``key``: their digest is kept."""
        await self._meta.set_meta(key, digest)


__all__ = ["CommandDigests"]

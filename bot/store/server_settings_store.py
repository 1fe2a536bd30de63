"""Storage of a server's defaults for new games: its clock and its admins' language.

Both are one JSON object in ``guild_settings.clock``: the clock's settings, and the admins'
choice of language under "language" (the clock's reader ignores keys it does not know).
"""

from __future__ import annotations

import json
from collections.abc import Callable

from bot.store.shared_sql import StoreArea


class ServerSettingsStore(StoreArea):
    """The ``guild_settings`` table."""

    async def guild_clock(self, guild_id: int) -> str | None:
        """A server's default clock settings for new games (JSON), if its admins set them."""
        row = await self._one("SELECT clock FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return str(row["clock"]) if row else None

    async def guild_language(self, guild_id: int) -> str | None:
        """The language a server's admins chose for its new games, if they chose one."""
        language = _json_object(await self.guild_clock(guild_id)).get("language")
        return str(language) if language else None

    async def set_guild_clock(self, guild_id: int, clock: str, now: float) -> None:
        """Replace a server's clock defaults (JSON), keeping its language."""
        await self._update_guild_settings(
            guild_id, lambda old: {**_json_object(clock), **_language_of(old)}, now
        )

    async def set_guild_language(self, guild_id: int, language: str, now: float) -> None:
        """Set the language of a server's new games, keeping its clock defaults."""
        await self._update_guild_settings(guild_id, lambda old: {**old, "language": language}, now)

    async def _update_guild_settings(
        self,
        guild_id: int,
        change: Callable[[dict[str, object]], dict[str, object]],
        now: float,
    ) -> None:
        async with self.db.transaction() as tx:
            row = await tx.fetchone(
                "SELECT clock FROM guild_settings WHERE guild_id = ?", (guild_id,)
            )
            data = change(_json_object(str(row["clock"]) if row else None))
            await tx.execute(
                "INSERT INTO guild_settings (guild_id, clock, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET clock = excluded.clock,"
                " updated_at = excluded.updated_at",
                (guild_id, json.dumps(data, sort_keys=True), float(now)),
            )


def _json_object(raw: str | None) -> dict[str, object]:
    """A stored JSON object; empty for none, or for text that is no JSON object."""
    try:
        data = json.loads(raw) if raw else {}
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _language_of(settings: dict[str, object]) -> dict[str, object]:
    return {"language": settings["language"]} if settings.get("language") else {}

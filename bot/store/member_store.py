"""Storage of members: their absences, notification and reading preferences, and what the
coach saw them use."""

from __future__ import annotations

from collections.abc import Iterable

from bot.store.rows import MemberPrefs
from bot.store.shared_sql import StoreArea, from_row


class MemberStore(StoreArea):
    """The ``members`` and ``member_things`` tables."""

    async def away_until(self, user_ids: Iterable[int]) -> dict[int, float]:
        """When each of these members' absence ends (only those who ever set one)."""
        ids = sorted(set(user_ids))
        if not ids:
            return {}
        marks = ", ".join("?" for _ in ids)
        rows = await self._all(
            f"SELECT user_id, away_until FROM members WHERE user_id IN ({marks})"
            " AND away_until IS NOT NULL",
            ids,
        )
        return {int(r["user_id"]): float(r["away_until"]) for r in rows}

    async def set_away_until(self, user_id: int, until: float) -> None:
        async with self.db.transaction() as tx:
            await tx.execute(
                "INSERT INTO members (user_id, away_until) VALUES (?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET away_until = excluded.away_until",
                (user_id, float(until)),
            )

    async def prefs(self, user_ids: Iterable[int]) -> dict[int, MemberPrefs]:
        """The notification preferences of these members (defaults for those never set)."""
        ids = sorted(set(user_ids))
        out = {u: MemberPrefs(u) for u in ids}
        if not ids:
            return out
        marks = ", ".join("?" for _ in ids)
        rows = await self._all(
            "SELECT user_id, notify, dm_channel_id, dm_blocked, dm_hint, locale, coach,"
            " screen_reader"
            f" FROM members WHERE user_id IN ({marks})",
            ids,
        )
        for r in rows:
            u = int(r["user_id"])
            out[u] = from_row(
                MemberPrefs,
                r,
                user_id=int,
                dm_blocked=bool,
                dm_hint=bool,
                coach=bool,
                screen_reader=bool,
            )
        return out

    async def set_prefs(self, user_id: int, **changes: object) -> None:
        """Set some of a member's preferences (the columns of ``MemberPrefs``)."""
        unknown = set(changes) - {
            "notify",
            "dm_channel_id",
            "dm_blocked",
            "dm_hint",
            "locale",
            "coach",
            "screen_reader",
        }
        if unknown or not changes:
            raise ValueError(f"not member preferences: {sorted(unknown)}")
        names = list(changes)
        updates = ", ".join(f"{n} = excluded.{n}" for n in names)
        async with self.db.transaction() as tx:
            await tx.execute(
                f"INSERT INTO members (user_id, {', '.join(names)})"
                f" VALUES (?, {', '.join('?' for _ in names)})"
                f" ON CONFLICT (user_id) DO UPDATE SET {updates}",
                (user_id, *changes.values()),
            )

    async def used_things(self, user_id: int) -> set[str]:
        """What a coached member has used, in any game (thing ids of ``bot.play.coach_things``)."""
        rows = await self._all("SELECT thing FROM member_things WHERE user_id = ?", (user_id,))
        return {str(r["thing"]) for r in rows}

    async def add_used_things(self, user_id: int, things: Iterable[str]) -> None:
        new = sorted(set(things))
        if not new:
            return
        async with self.db.transaction() as tx:
            await tx.executemany(
                "INSERT INTO member_things (user_id, thing) VALUES (?, ?) ON CONFLICT DO NOTHING",
                [(user_id, t) for t in new],
            )

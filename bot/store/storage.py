"""Storage of games, seats, the action log and state snapshots, on SQLite or PostgreSQL.

Every method's SQL is written once, in the subset both databases speak (``?``
placeholders, ``ON CONFLICT``, ``RETURNING``; see ``bot.store.db``), and runs on either:
``Storage.open("af.db")`` or ``Storage.open("sqlite:///af.db")`` for the embedded
SQLite file, ``Storage.open("postgresql://…")`` for a PostgreSQL server shared by
several bot processes. Writes that belong together (a move, the chance outcomes it
caused, the snapshot and the game row) are committed in one transaction, on disk
before the method returns, so an acknowledged move survives a crash or power loss.

``Storage`` is the areas of the storage, each a module of its tables, combined on one
database: games (``game_store``), seats (``seat_store``), the action log and snapshots
(``action_log_store``), a server's defaults (``server_settings_store``), members
(``member_store``), results and ratings (``result_store``), the outbox's deliveries and
lanes (``delivery_store``), the host's notices (``host_notice_store``). Their rows are in
``bot.store.rows``, what they share in ``bot.store.shared_sql``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from bot.store.action_log_store import ActionLogStore
from bot.store.db import NotOpen, open_database
from bot.store.delivery_store import DeliveryStore
from bot.store.game_store import GameStore
from bot.store.host_notice_store import HostNoticeStore
from bot.store.interaction_store import InteractionStore
from bot.store.member_store import MemberStore
from bot.store.migrations import MIGRATIONS
from bot.store.result_store import ResultStore
from bot.store.seat_store import SeatStore
from bot.store.server_settings_store import ServerSettingsStore

# Every table, in an order that copies rows before the rows that refer to them
# (``python -m bot copy-db``); a test checks it names every table of the schema.
TABLES: Final = (
    "games",
    "seats",
    "actions",
    "snapshots",
    "results",
    "seasons",
    "departures",
    "rating_events",
    "ratings",
    "rating_changes",
    "guild_settings",
    "members",
    "member_things",
    "meta",
    "deliveries",
    "delivery_lanes",
    "host_notices",
    "interaction_owners",
)


class Storage(
    GameStore,
    SeatStore,
    ActionLogStore,
    ServerSettingsStore,
    MemberStore,
    ResultStore,
    DeliveryStore,
    HostNoticeStore,
    InteractionStore,
):
    """The database. Open with ``await Storage.open(url_or_path)``; close with ``await close()``."""

    target: str | Path = ""  # what it opens (a DATABASE_URL or a file's path)

    @classmethod
    async def open(cls, target: str | Path) -> Storage:
        """Open a ``DATABASE_URL`` (``sqlite:///…`` or ``postgresql://…``) or a SQLite file
        path (creating the file and its folder if needed), and migrate it."""
        store = cls.to_open(target)
        await store.connect()
        return store

    @classmethod
    def to_open(cls, target: str | Path) -> Storage:
        """The storage of ``target``, not open yet: ``connect`` opens it (the bot builds
        its parts on it, and connects when it logs in)."""
        store = cls(NotOpen(target))
        store.target = target
        return store

    async def connect(self) -> None:
        """Open the database named by ``to_open`` (or closed), and migrate it."""
        if not isinstance(self.db, NotOpen):
            raise RuntimeError("the database is open already")
        target = self.db.target
        db = await open_database(target)
        try:
            await db.migrate(MIGRATIONS)
        except BaseException:
            await db.close()
            raise
        self.db = db
        self.target = target

    @property
    def is_open(self) -> bool:
        return not isinstance(self.db, NotOpen)

    async def close(self) -> None:
        """Close the database (``connect`` opens it again)."""
        if self.is_open:
            await self.db.close()
            self.db = NotOpen(self.target)

    async def schema_version(self) -> int:
        return await self.db.schema_version()

    async def migrate(self) -> None:
        """Apply the migrations the database has not seen yet, each in its own transaction."""
        await self.db.migrate(MIGRATIONS)

    # ---- meta -------------------------------------------------------------------------

    async def get_meta(self, key: str) -> str | None:
        row = await self._one("SELECT value FROM meta WHERE key = ?", (key,))
        return str(row["value"]) if row else None

    async def set_meta(self, key: str, value: str) -> None:
        async with self.transaction() as tx:
            await tx.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

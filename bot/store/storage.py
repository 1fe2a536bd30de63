"""Storage of games, seats, the action log and state snapshots, on SQLite or PostgreSQL.

Every method's SQL is written once, in the subset both databases speak (``?``
placeholders, ``ON CONFLICT``, ``RETURNING``; see ``bot.store.db``), and runs on either:
``Storage.open("af.db")`` or ``Storage.open("sqlite:///af.db")`` for the embedded
SQLite file, ``Storage.open("postgresql://…")`` for a PostgreSQL server shared by
several bot processes. Writes that belong together (a move, the chance outcomes it
caused, the snapshot and the game row) are committed in one transaction, on disk
before the method returns, so an acknowledged move survives a crash or power loss.

``Storage`` is the database as a whole (open, connect, close, migrate, a transaction, its
dialect) and holds each area of its tables as an object of its own, an attribute named for
what it holds:

- ``game_rows``: games, a lobby made, a row read and changed, orphaned and adopted
  (``game_store``);
- ``seat_rows``: a game's seats, replaced, or a seat change committed with the game's row,
  its deliveries and a departure (``seat_store``);
- ``action_log``: the action log and the snapshot, a move committed, undone, found by its
  key (``action_log_store``);
- ``server_settings``: a server's defaults (``server_settings_store``);
- ``members``: members' absences and preferences (``member_store``);
- ``results``: finished games' results, seasons and ratings (``result_store``);
- ``deliveries``: the outbox's deliveries and their lanes (``delivery_store``);
- ``host_notices``: what a game's host was told (``host_notice_store``);
- ``interactions``: which process answers which interaction (``interaction_store``);
- ``meta``: the bot's own notes, by key (``meta_store``).

So ``store.game_rows.game(game_id)``, ``store.action_log.commit_actions(...)``. No area's
name is a method's name, and no area calls another: a change that writes several tables
(a move with its deliveries and ratings, a seat change with its departures) is one
method of one area, one transaction. The areas share the one database through a
``DatabaseSlot`` the storage swaps as a whole when it connects and closes, so none holds a
database that is not open yet or closed. Their rows are in ``bot.store.rows``, what they
share in ``bot.store.shared_sql``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

from bot.store.action_log_store import ActionLogStore
from bot.store.db import Database, NotOpen, open_database
from bot.store.delivery_store import DeliveryStore
from bot.store.game_store import GameStore
from bot.store.host_notice_store import HostNoticeStore
from bot.store.interaction_store import InteractionStore
from bot.store.member_store import MemberStore
from bot.store.meta_store import MetaStore
from bot.store.migrations import MIGRATIONS
from bot.store.result_store import ResultStore
from bot.store.seat_store import SeatStore
from bot.store.server_settings_store import ServerSettingsStore
from bot.store.shared_sql import DatabaseSlot

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


class Storage:
    """The database. Open with ``await Storage.open(url_or_path)``; close with ``await close()``.

    What is the database's as a whole is here (open, connect, close, migrate, a transaction,
    its dialect); each area of its tables is an object of its own, an attribute named for
    what it holds: ``store.game_rows.game(id)``, ``store.action_log.commit_actions(...)``.
    """

    target: str | Path = ""  # what it opens (a DATABASE_URL or a file's path)

    def __init__(self, db: Database) -> None:
        self._slot = DatabaseSlot(db)
        slot = self._slot
        self.game_rows: Final = GameStore(slot)
        self.seat_rows: Final = SeatStore(slot)
        self.action_log: Final = ActionLogStore(slot)
        self.server_settings: Final = ServerSettingsStore(slot)
        self.members: Final = MemberStore(slot)
        self.results: Final = ResultStore(slot)
        self.deliveries: Final = DeliveryStore(slot)
        self.host_notices: Final = HostNoticeStore(slot)
        self.interactions: Final = InteractionStore(slot)
        self.meta: Final = MetaStore(slot)

    @property
    def db(self) -> Database:
        """The database every area runs on (``NotOpen`` before ``connect`` and after
        ``close``)."""
        return self._slot.db

    @property
    def dialect(self) -> str:
        return self._slot.db.dialect

    @property
    def shared(self) -> bool:
        """Whether several bot processes may run over this database (PostgreSQL; a SQLite
        file is one process's, ``bot.store.db_lock``). Known before it is open."""
        return self.dialect == "postgresql"

    def transaction(self) -> Any:
        """``async with store.transaction() as tx:`` one write transaction (``bot.store.db.Tx``)."""
        return self._slot.db.transaction()

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
        now = self._slot.db
        if not isinstance(now, NotOpen):
            raise RuntimeError("the database is open already")
        target = now.target
        db = await open_database(target)
        try:
            await db.migrate(MIGRATIONS)
        except BaseException:
            await db.close()
            raise
        self._slot.db = db
        self.target = target

    @property
    def is_open(self) -> bool:
        return not isinstance(self._slot.db, NotOpen)

    async def close(self) -> None:
        """Close the database (``connect`` opens it again)."""
        if self.is_open:
            await self._slot.db.close()
            self._slot.db = NotOpen(self.target)

    async def answers(self) -> None:
        """Ask the database something (raises if it does not answer): the heartbeat's check."""
        await self._slot.db.fetch("SELECT 1")

    async def games_count(self) -> int:
        """How many games it holds (whatever their status), for the log when it opens."""
        stored = await self._slot.db.fetchone("SELECT COUNT(*) FROM games")
        return int(stored[0]) if stored else 0

    async def schema_version(self) -> int:
        return await self._slot.db.schema_version()

    async def migrate(self) -> None:
        """Apply the migrations the database has not seen yet, each in its own transaction."""
        await self._slot.db.migrate(MIGRATIONS)

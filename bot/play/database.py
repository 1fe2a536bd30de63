"""The database as the bot's lifecycle sees it (``GameDatabase``): opened (and migrated)
when the bot logs in, closed when it stops, asked by the heartbeat whether it answers, and
whether several bot processes may run over it. The one object that holds the storage as a
whole (``bot.store.storage.Storage``); every job is handed only the areas of it it uses
(``bot.factory.build_service``), and Discord's side only this port and the jobs.
"""

from __future__ import annotations

import logging

from bot.store.db_inspect import database_name, plural
from bot.store.storage import Storage

log = logging.getLogger(__name__)


class GameDatabase:
    """The database's lifecycle: open, close, does it answer, is it shared."""

    def __init__(self, storage: Storage) -> None:
        self._storage = storage

    @property
    def shared(self) -> bool:
        """Whether another process may run over this database (PostgreSQL), known before it
        is open."""
        return self._storage.shared

    @property
    def is_open(self) -> bool:
        return self._storage.is_open

    async def open(self) -> None:
        """Open (and migrate) the database the jobs were built on, and say which it is."""
        await self._storage.connect()
        count = await self._storage.games_count()
        target = database_name(str(self._storage.target))
        log.info("database: %s (%s)", target, plural(count, "game"))

    async def answers(self) -> None:
        """Ask the database something (raises if it does not answer): the heartbeat's check."""
        await self._storage.answers()

    async def close(self) -> None:
        await self._storage.close()
        log.info("database closed")


__all__ = ["GameDatabase"]

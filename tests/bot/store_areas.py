"""The storage's areas as tests reach them by a method's name (a read made to fail, a
database made read-only): ``area_of(store, "commit_actions")`` is ``store.action_log``."""

from __future__ import annotations

from bot.store.shared_sql import StoreArea
from bot.store.storage import Storage


def areas(store: Storage) -> dict[str, StoreArea]:
    """Each area of ``store`` by its attribute's name."""
    return {name: area for name, area in vars(store).items() if isinstance(area, StoreArea)}


def area_of(store: Storage, method: str) -> StoreArea:
    """The area of ``store`` whose method is ``method``."""
    found = [area for area in areas(store).values() if callable(getattr(area, method, None))]
    if len(found) != 1:
        raise AttributeError(f"{method}: in {len(found)} areas of the storage")
    return found[0]

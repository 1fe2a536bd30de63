"""Refusals of the bot itself (not of the rules): a strings key and its parameters; and the
storage's own errors (a channel busy, a game that moved on).

Engine refusals are ``engine.errors.EngineError``; both become a private reply.
"""

from __future__ import annotations


class ServiceError(Exception):
    """A refusal of the bot itself (not of the rules): a strings key and its parameters."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


class StalePanelError(ServiceError):
    """A panel was used after the game moved on; ``message_id`` is the current panel."""

    def __init__(self, message_id: int | None) -> None:
        super().__init__("panel.stale")
        self.message_id = message_id


class ChannelBusyError(Exception):
    """The channel already has a game in its lobby or in play."""


class GameChangedError(Exception):
    """The game moved on in the database since the caller's copy was loaded (another
    process, or another copy, committed first): nothing was written."""


class SeasonChangedError(Exception):
    """The server's current season is not the one the caller read (a season started, or
    opened, by another command meanwhile): nothing was written; the caller reads again."""


__all__ = [
    "ChannelBusyError",
    "GameChangedError",
    "SeasonChangedError",
    "ServiceError",
    "StalePanelError",
]

"""Refusals of the bot itself (not of the rules): a strings key and its parameters.

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


__all__ = ["ServiceError", "StalePanelError"]

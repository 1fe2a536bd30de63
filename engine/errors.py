"""Typed errors of the engine. All are ValueErrors so callers can catch them broadly."""

from __future__ import annotations

from engine.messages import render


class EngineError(ValueError):
    """Base of the engine's errors: a message key and its parameters, rendered in English.

    The key and params let a front end translate the message (see engine.messages).
    """

    def __init__(self, key: str, **params: object) -> None:
        self.key = key
        self.params = params
        super().__init__(render(key, params))


class IllegalActionError(EngineError):
    """The action is well formed but the rules do not allow it now."""


class InvalidNotationError(EngineError):
    """The text is not an action in the engine's notation."""


class StateLoadError(EngineError):
    """A serialised state could not be loaded."""

"""How long Discord lets the words the bot sends be, in characters: one place for each
limit the words are cut or fitted to (a text checks its own length against these)."""

from __future__ import annotations

from typing import Final

MESSAGE_LIMIT: Final = 2000  # a message's content
ALT_LIMIT: Final = 1024  # an attachment's description (a picture's alt text)
LABEL_LIMIT: Final = 100  # a select option's label (and an autocomplete choice's name)

__all__ = ["ALT_LIMIT", "LABEL_LIMIT", "MESSAGE_LIMIT"]

"""Every user-facing text of the bot and the board image, in one catalogue per language.

Rules-level text (names of facilities, territories, cards; refusals; events) lives
in ``engine.messages``; ``text`` looks a key up here first, then there, so one call
serves both. To translate, add a catalogue with the same keys to ``CATALOGS``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from engine.messages import name as engine_name
from engine.messages import render as engine_render

# ---- board image labels (owned by bot/render) ------------------------------------------
BOARD_EN: Final[dict[str, str]] = {}

# ---- bot texts: commands, panels, replies (owned by the bot cogs) ------------------------
BOT_EN: Final[dict[str, str]] = {}

CATALOGS: Final[dict[str, dict[str, str]]] = {"en": {**BOARD_EN, **BOT_EN}}


def text(key: str, locale: str = "en", params: Mapping[str, object] | None = None) -> str:
    """The text for ``key`` in ``locale`` (English if missing), formatted with ``params``."""
    catalog = CATALOGS.get(locale, CATALOGS["en"])
    template = catalog.get(key) or CATALOGS["en"].get(key)
    if template is None:
        return engine_render(key, params, locale)
    try:
        return template.format(**(params or {}))
    except (KeyError, IndexError):
        return template


def thing_name(thing: str, locale: str = "en") -> str:
    """Display name of a facility, territory, card or field id."""
    return engine_name(thing, locale)

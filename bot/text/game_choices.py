"""Games as an autocomplete offers them: a finished game to replay (``/af replay``), an
orphaned game to end (``/af abort game:``): its number, its channel's name, its day.

Said from the game's row and the channel's name Discord's side read for it."""

from __future__ import annotations

from bot.store.rows import GameRow
from bot.text.durations import day_text
from bot.text.strings import text


def replay_choice(row: GameRow, channel: str, locale: str) -> str:
    """A finished game: its number, its channel (``#name``), the day it ended."""
    return text(
        "replay.choice",
        locale,
        {"game": row.id, "channel": channel, "date": day_text(row.updated_at, locale, year=True)},
    )


def orphan_choice(row: GameRow, channel: str, locale: str) -> str:
    """An orphaned game: its number, its channel (``#name``, or its number once gone), the
    day its channel was found gone."""
    return text(
        "orphan.choice",
        locale,
        {
            "game": row.id,
            "channel": channel,
            "date": day_text(row.orphaned_at or row.updated_at, locale),
        },
    )


__all__ = ["orphan_choice", "replay_choice"]

"""What the commands' autocompletes offer, in words: a finished game to replay (``/af
replay``) and an orphaned game to end (``/af abort game:``), each with its number, its
channel's name and its day; a season (``/af rating``, ``/af leaderboard``); a seat of the
channel's game (``/af kick``, ``/af replace``).

Said from rows, seasons and the names Discord's side read (a channel's); the cogs filter
them by what is typed and cut them to Discord's limit."""

from __future__ import annotations

from bot.store.rating_store import Season
from bot.store.rows import GameRow, SeatRow
from bot.text.describe import shorten
from bot.text.durations import day_text
from bot.text.rating_text import season_name
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


def season_choice(season: Season, locale: str) -> str:
    """A season: its name, marked if it is the current one."""
    name = season_name(season, locale)
    if season.ended_at is None:
        return text("season.current", locale, {"season": name})
    return name


def seat_choice(seat: SeatRow) -> str:
    """A seat of the game: its number and who sits there ("2 · Anna")."""
    return shorten(f"{seat.seat + 1} · {seat.name}")


__all__ = ["orphan_choice", "replay_choice", "season_choice", "seat_choice"]

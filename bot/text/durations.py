"""Numbers, days and spans of time, in the reader's language: CLDR units and plurals through Babel
("12 hours", "12 часов", "2,5 dnia")."""

from __future__ import annotations

from datetime import UTC, datetime

import discord.utils
from babel.dates import format_date
from babel.numbers import format_decimal
from babel.units import format_unit

HOUR = 3600.0
DAY = 24 * HOUR


def hours_text(hours: float, locale: str) -> str:
    """A span given in hours: minutes under an hour, else hours ("30 minutes", "12 hours")."""
    if hours < 1:
        return format_unit(round(hours * 60), "duration-minute", length="long", locale=locale)
    return format_unit(round(hours, 2), "duration-hour", length="long", locale=locale)


def duration_text(seconds: float, locale: str) -> str:
    """A game's length: days (one decimal) from a day on, else hours or minutes."""
    if seconds >= DAY:
        return format_unit(round(seconds / DAY, 1), "duration-day", length="long", locale=locale)
    return hours_text(max(seconds, 60.0) / HOUR, locale)


def day_text(timestamp: float, locale: str, *, year: bool = False) -> str:
    """The day of a timestamp (UTC) in the reader's language: "25 Nov", "25 нояб. 2026"."""
    day = datetime.fromtimestamp(timestamp, UTC).date()
    return format_date(day, format="d MMM y" if year else "d MMM", locale=locale)


def decimal_text(value: float, locale: str) -> str:
    """A number with one decimal in the reader's language: "7.5", "7,5"."""
    return format_decimal(round(value, 1), format="0.0", locale=locale)


__all__ = ["day_text", "decimal_text", "duration_text", "hours_text"]


def when(timestamp: float, style: str = "R") -> str:
    """A Discord timestamp: shown in each reader's own time zone and language."""
    return discord.utils.format_dt(datetime.fromtimestamp(timestamp, UTC), style)  # type: ignore[arg-type]

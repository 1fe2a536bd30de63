"""The turn clock in words: its settings, who a game waits on and until when, and a
member's mention. The clock's facts of a game in play (since when its turn counts, the
reminders sent) are ``bot.play.games``'s; its background task is
``bot.discord.background.Background`` (``tick``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.store.clock_settings import LIMIT_PASSED, ClockSettings, deadline
from bot.store.rows import SeatRow
from bot.text.describe import seat_name
from bot.text.durations import hours_text, when
from bot.text.strings import text


def mention(user_id: int | None) -> str:
    return f"<@{user_id}>" if user_id is not None else ""


def settings_text(clock: ClockSettings, locale: str) -> str:
    """The clock settings in one short paragraph."""
    if not clock.enabled:
        return text("clock.settings_off", locale)
    return text(
        f"clock.settings.{clock.action}",
        locale,
        {
            "remind": hours_text(clock.remind_hours, locale),
            "warn": hours_text(clock.warn_hours, locale),
            "limit": hours_text(clock.limit_hours, locale),
            "level": text(f"ai.level.{clock.takeover}", locale),
            "count": clock.max_timeouts,
        },
    )


@dataclass(frozen=True, slots=True)
class Waiting:
    """Whom a game in play waits on, as its turn clock counts (``bot.play.games.waiting``):
    the seat to act (None: none, or chance's), the member waited on (None: an AI seat, or
    the bot plays the member's timed-out turn: ``bot_plays``), since when the turn's clock
    counts and how many reminders it sent."""

    seat: int | None
    member: int | None
    bot_plays: bool
    since: float
    reminded: int


def waiting_lines(
    seats: Sequence[SeatRow],
    clock: ClockSettings,
    waiting: Waiting,
    away: Mapping[int, float],
    names: Sequence[str],
    locale: str,
) -> list[str]:
    """For ``/af status``: who the game waits on and until when, and who is away."""
    lines = []
    user = waiting.member
    seat = waiting.seat
    if user is not None and seat is not None:
        since = waiting.since
        params = {"player": seat_name(seat, names), "since": when(since)}
        if clock.enabled and waiting.reminded < LIMIT_PASSED:
            params["deadline"] = when(deadline(clock, since, away.get(user)))
            lines.append(text("clock.status_waiting", locale, params))
        else:
            lines.append(text("clock.status_waiting_no_limit", locale, params))
    elif waiting.bot_plays and seat is not None:
        lines.append(text("clock.status_bot_playing", locale, {"player": seat_name(seat, names)}))
    for s in seats:
        if s.user_id is not None and s.user_id in away:
            lines.append(
                text(
                    "clock.status_away",
                    locale,
                    {"player": seat_name(s.seat, names), "until": when(away[s.user_id], "f")},
                )
            )
    return lines


__all__ = ["Waiting", "mention", "settings_text", "waiting_lines"]

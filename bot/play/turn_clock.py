"""The turn clock's texts and pure helpers: Discord timestamps, the settings in words,
who is waited on, when a turn's clock started and how many reminders it sent. The
clock's background task is ``bot.discord.background.Background`` (``tick``).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from bot.play.games import ActiveGame
from bot.store.clock_settings import (
    ClockSettings,
    deadline,
)
from bot.text.describe import seat_name
from bot.text.durations import hours_text, when
from bot.text.strings import text

log = logging.getLogger(__name__)


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


def since_of(game: ActiveGame) -> float:
    """When the clock of the turn in play started counting (before any absence)."""
    return game.row.clock_since if game.row.clock_since is not None else game.row.updated_at


def reminders_sent(game: ActiveGame) -> int:
    """Reminders already sent for the turn in play."""
    return game.row.reminders_sent if game.row.clock_turn == game.state.turn_number else 0


def waiting_lines(
    game: ActiveGame, away: dict[int, float], names: Sequence[str], locale: str
) -> list[str]:
    """For ``/af status``: who the game waits on and until when, and who is away."""
    lines = []
    user = game.waiting_on()
    seat = game.to_act()
    if user is not None and seat is not None:
        clock = game.clock
        since = since_of(game)
        params = {"player": seat_name(seat, names), "since": when(since)}
        if clock.enabled and reminders_sent(game) < 3:
            params["deadline"] = when(deadline(clock, since, away.get(user)))
            lines.append(text("clock.status_waiting", locale, params))
        else:
            lines.append(text("clock.status_waiting_no_limit", locale, params))
    elif game.timed_out() and seat is not None:
        lines.append(text("clock.status_bot_playing", locale, {"player": seat_name(seat, names)}))
    for s in game.seats:
        if s.user_id is not None and s.user_id in away:
            lines.append(
                text(
                    "clock.status_away",
                    locale,
                    {"player": seat_name(s.seat, names), "until": when(away[s.user_id], "f")},
                )
            )
    return lines


__all__ = ["hours_text", "mention", "settings_text", "waiting_lines", "when"]

"""The turn clock's settings and schedule (pure): defaults, checks, which step is due."""

from __future__ import annotations

import pytest

from bot.store.clock_settings import (
    DEFAULT_CLOCK,
    LIMIT_PASSED,
    REMINDED,
    WARNED,
    ClockError,
    ClockSettings,
    deadline,
    due_step,
)
from bot.text.durations import hours_text

H = 3600.0
T0 = 1_000_000.0


def test_play_by_post_defaults() -> None:
    c = DEFAULT_CLOCK
    assert (c.enabled, c.remind_hours, c.warn_hours, c.limit_hours) == (True, 12, 36, 48)
    assert (c.action, c.max_timeouts, c.takeover) == ("ai", 3, "normal")


def test_steps_of_a_quiet_turn_come_in_order_once_each() -> None:
    c = DEFAULT_CLOCK
    assert due_step(c, T0, 0, None, T0 + 11.9 * H) is None
    assert due_step(c, T0, 0, None, T0 + 12 * H) == "remind"
    assert due_step(c, T0, REMINDED, None, T0 + 30 * H) is None
    assert due_step(c, T0, REMINDED, None, T0 + 36 * H) == "warn"
    assert due_step(c, T0, WARNED, None, T0 + 47.9 * H) is None
    assert due_step(c, T0, WARNED, None, T0 + 48 * H) == "timeout"
    assert due_step(c, T0, LIMIT_PASSED, None, T0 + 100 * H) is None
    assert deadline(c, T0, None) == T0 + 48 * H


def test_after_a_long_downtime_only_the_latest_step_is_taken() -> None:
    c = DEFAULT_CLOCK
    assert due_step(c, T0, 0, None, T0 + 40 * H) == "warn"  # no reminder first
    assert due_step(c, T0, 0, None, T0 + 60 * H) == "timeout"


def test_an_absence_moves_the_clock_start_to_its_end() -> None:
    c = DEFAULT_CLOCK
    back = T0 + 72 * H
    assert due_step(c, T0, 0, back, T0 + 70 * H) is None  # away: nothing at all
    assert due_step(c, T0, 0, back, back + 11 * H) is None
    assert due_step(c, T0, 0, back, back + 12 * H) == "remind"
    assert deadline(c, T0, back) == back + 48 * H
    assert due_step(c, T0, 0, T0 - 5 * H, T0 + 12 * H) == "remind"  # an old absence


def test_a_clock_switched_off_never_acts() -> None:
    off = DEFAULT_CLOCK.changed(enabled=False)
    assert due_step(off, T0, 0, None, T0 + 1000 * H) is None


def test_a_new_limit_alone_moves_the_reminder_and_warning_along() -> None:
    c = DEFAULT_CLOCK.changed(limit_hours=24)
    assert (c.remind_hours, c.warn_hours, c.limit_hours) == (6, 18, 24)
    with pytest.raises(ClockError):  # given with the reminder, the limit moves alone
        DEFAULT_CLOCK.changed(limit_hours=24, remind_hours=1)
    c = DEFAULT_CLOCK.changed(limit_hours=72, remind_hours=1)
    assert (c.remind_hours, c.warn_hours, c.limit_hours) == (1, 36, 72)


def test_settings_that_do_not_fit_are_refused() -> None:
    with pytest.raises(ClockError) as e:
        DEFAULT_CLOCK.changed(limit_hours=24, warn_hours=30)
    assert e.value.key == "clock.order"
    with pytest.raises(ClockError) as e:
        DEFAULT_CLOCK.changed(limit_hours=1000)
    assert e.value.key == "clock.hours_range"
    with pytest.raises(ClockError) as e:
        DEFAULT_CLOCK.changed(max_timeouts=0)
    assert e.value.key == "clock.timeouts_range"
    with pytest.raises(ClockError) as e:
        DEFAULT_CLOCK.changed(action="explode")
    assert e.value.key == "clock.bad_action"


def test_stored_settings_round_trip_and_bad_ones_fall_back() -> None:
    c = ClockSettings(remind_hours=1, warn_hours=2, limit_hours=3, action="skip", max_timeouts=5)
    assert ClockSettings.from_json(c.to_json()) == c
    assert ClockSettings.from_json(None) == DEFAULT_CLOCK
    assert ClockSettings.from_json("{not json") == DEFAULT_CLOCK
    assert ClockSettings.from_json('{"limit_hours": 1}') == DEFAULT_CLOCK  # out of order
    assert ClockSettings.from_json('{"action": "none", "colour": "red"}').action == "none"


def test_hours_are_written_in_the_readers_language_with_cldr_plurals() -> None:
    assert hours_text(12, "en") == "12 hours" and hours_text(1, "en") == "1 hour"
    assert hours_text(0.5, "en") == "30 minutes"
    assert [hours_text(h, "ru") for h in (1, 2, 5, 21)] == ["1 час", "2 часа", "5 часов", "21 час"]
    assert [hours_text(h, "pl") for h in (1, 2, 5, 22)] == [
        "1 godzina",
        "2 godziny",
        "5 godzin",
        "22 godziny",
    ]

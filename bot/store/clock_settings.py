"""The turn clock of a play-by-post game: its settings, and which step of it is due.

A game waits on the member to act. The clock counts from the moment that seat last
showed life (its turn began, or it acted) — or from the end of the member's absence
(``/af away``, 14 days of one turn at most), whichever is later. After ``remind_hours``
the member is reminded, after ``warn_hours`` warned (with the deadline), and after
``limit_hours`` the turn times out and the game's timeout ``action`` happens once:

- ``ai``: the AI (level ``takeover``) plays that one turn for the member; the seat
  stays theirs;
- ``skip``: the turn ends with the fewest moves the rules allow (``engine.ai.skip``);
- ``none``: nothing happens and the reminders stop; the host decides.

After ``max_timeouts`` timed-out turns in a row the seat passes to the AI for good
(the member may take it back with ``/af rejoin``). At most two reminders are sent per
turn. Everything here is pure: the storage keeps the values, the game service takes the
steps (``bot.play.turn_clock_service``), ``bot.discord.background`` ticks.
"""

from __future__ import annotations

import json
import logging
from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Final, Literal, get_args

from bot.store.errors import ServiceError
from engine.ai import LEVELS, Level

log = logging.getLogger(__name__)

TimeoutAction = Literal["ai", "skip", "none"]
TIMEOUT_ACTIONS: Final[tuple[TimeoutAction, ...]] = get_args(TimeoutAction)
ClockStep = Literal["remind", "warn", "timeout"]
MAX_HOURS: Final = 14 * 24.0  # two weeks
MIN_HOURS: Final = 0.1  # six minutes: a live game's clock
MAX_TIMEOUTS: Final = 10
HOUR: Final = 3600.0
MAX_AWAY_DAYS: Final = 14  # the longest absence (/af away), and what it pauses of one turn
# reminders_sent values
REMINDED: Final = 1
WARNED: Final = 2
LIMIT_PASSED: Final = 3  # the turn limit passed with nothing to do (action none)


class ClockError(ServiceError):
    """Settings that do not fit together (refused like any other bad input)."""


@dataclass(frozen=True, slots=True)
class ClockSettings:
    """A game's turn clock (also a server's defaults for new games). Hours are floats."""

    enabled: bool = True
    remind_hours: float = 12.0
    warn_hours: float = 36.0
    limit_hours: float = 48.0
    action: TimeoutAction = "ai"
    max_timeouts: int = 3
    takeover: Level = "normal"

    def checked(self) -> ClockSettings:
        """These settings, or ClockError saying what does not fit."""
        for name in ("remind_hours", "warn_hours", "limit_hours"):
            value = getattr(self, name)
            if not MIN_HOURS <= value <= MAX_HOURS:
                raise ClockError("clock.hours_range", low=MIN_HOURS, high=int(MAX_HOURS))
        if not self.remind_hours < self.warn_hours < self.limit_hours:
            raise ClockError(
                "clock.order",
                remind=f"{self.remind_hours:g}",
                warn=f"{self.warn_hours:g}",
                limit=f"{self.limit_hours:g}",
            )
        if self.action not in TIMEOUT_ACTIONS:
            raise ClockError("clock.bad_action", action=self.action)
        if not 1 <= self.max_timeouts <= MAX_TIMEOUTS:
            raise ClockError("clock.timeouts_range", high=MAX_TIMEOUTS)
        if self.takeover not in LEVELS:
            raise ClockError("clock.bad_level", level=self.takeover)
        return self

    def changed(self, **changes: Any) -> ClockSettings:
        """These settings with some values changed, checked.

        A new turn limit given alone moves the reminder and the warning with it, keeping
        their share of the limit (12 h and 36 h of 48 h become 6 h and 18 h of 24 h).
        """
        changes = {k: v for k, v in changes.items() if v is not None}
        limit = changes.get("limit_hours")
        if limit is not None and "remind_hours" not in changes and "warn_hours" not in changes:
            scale = float(limit) / self.limit_hours
            changes["remind_hours"] = round(self.remind_hours * scale, 2)
            changes["warn_hours"] = round(self.warn_hours * scale, 2)
        return replace(self, **changes).checked()

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, raw: str | None) -> ClockSettings:
        """Settings stored as JSON; defaults for None, missing keys or a broken value."""
        if not raw:
            return DEFAULT_CLOCK
        try:
            return cls.from_data(json.loads(raw))
        except ValueError as e:
            log.warning("clock settings %r could not be read (%s); using the defaults", raw, e)
            return DEFAULT_CLOCK

    @classmethod
    def from_data(cls, data: object) -> ClockSettings:
        """Settings read from JSON data (unknown keys ignored); defaults for None or a
        broken value."""
        if data is None:
            return DEFAULT_CLOCK
        try:
            if not isinstance(data, dict):
                raise TypeError(f"not an object: {data!r}")
            known = {f.name for f in fields(cls)}
            return cls(**{k: v for k, v in data.items() if k in known}).checked()
        except (ValueError, TypeError, ClockError) as e:
            log.warning("clock settings %r could not be read (%s); using the defaults", data, e)
            return DEFAULT_CLOCK


DEFAULT_CLOCK: Final = ClockSettings()


def clock_start(since: float, away_until: float | None) -> float:
    """When the clock started: the last sign of life, or the end of an absence if later.
    An absence pauses one turn's clock for ``MAX_AWAY_DAYS`` at most: renewing ``/af away``
    again and again does not hold a game up for ever."""
    return max(since, min(away_until or 0.0, since + MAX_AWAY_DAYS * 24 * HOUR))


def deadline(clock: ClockSettings, since: float, away_until: float | None) -> float:
    """When the turn times out."""
    return clock_start(since, away_until) + clock.limit_hours * HOUR


def due_step(
    clock: ClockSettings, since: float, sent: int, away_until: float | None, now: float
) -> ClockStep | None:
    """The step of the clock due at ``now`` for a member waited on since ``since``, with
    ``sent`` reminders already sent this turn (None: nothing is due).

    Only the latest due step is returned: after a long downtime the warning is sent
    without the reminder before it, so a turn never gets more than two reminders.
    """
    if not clock.enabled or sent >= LIMIT_PASSED:
        return None
    start = clock_start(since, away_until)
    if now < start:
        return None  # away
    elapsed = now - start
    if elapsed >= clock.limit_hours * HOUR:
        return "timeout"
    if elapsed >= clock.warn_hours * HOUR and sent < WARNED:
        return "warn"
    if elapsed >= clock.remind_hours * HOUR and sent < REMINDED:
        return "remind"
    return None


__all__ = [
    "DEFAULT_CLOCK",
    "MAX_AWAY_DAYS",
    "MAX_HOURS",
    "MAX_TIMEOUTS",
    "MIN_HOURS",
    "TIMEOUT_ACTIONS",
    "ClockError",
    "ClockSettings",
    "ClockStep",
    "TimeoutAction",
    "clock_start",
    "deadline",
    "due_step",
]

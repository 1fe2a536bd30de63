"""The turn clock at work: one background task sends reminders and final warnings and
takes the timeout action of games whose member to act went quiet.

The timing lives in the database (``games.clock_since``, ``clock_turn``,
``reminders_sent``, ``timeout_turn``; ``members.away_until``), so a restart neither
loses nor repeats a step: a reminder is recorded before it is sent, and a timeout is
written once, in one transaction, before the bot plays the turn (``GameService.time_out``);
after a restart the bot goes on playing that turn. The bot's clock is injectable
(the service's ``clock``), so tests make days pass by moving it and calling ``tick``.
The same task restarts AI turns that an error stopped (a watchdog).
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime

import discord

from bot.announce import Announcer
from bot.clock_settings import (
    REMINDED,
    WARNED,
    ClockSettings,
    Step,
    clock_start,
    deadline,
    due_step,
)
from bot.describe import seat_name
from bot.durations import hours_text
from bot.games import ActiveGame
from bot.notify import Notifier
from bot.service import ServiceRef, Timeout
from bot.settings import Settings
from bot.shutdown import cancel
from bot.strings import text
from bot.turns import TurnFlow

log = logging.getLogger(__name__)


def when(timestamp: float, style: str = "R") -> str:
    """A Discord timestamp: shown in each reader's own time zone and language."""
    return discord.utils.format_dt(datetime.fromtimestamp(timestamp, UTC), style)  # type: ignore[arg-type]


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


class TurnClock:
    """The background task of the turn clock (see the module docstring)."""

    def __init__(
        self,
        client: discord.Client,
        settings: Settings,
        service: ServiceRef,
        announcer: Announcer,
        notifier: Notifier,
        turns: TurnFlow,
    ) -> None:
        self.client = client
        self.settings = settings
        self._service = service
        self.announcer = announcer
        self.notifier = notifier
        self.turns = turns
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is not None and not self._task.done():
            return
        self._task = asyncio.create_task(self._loop(), name="af-turn-clock")

    async def stop(self) -> None:
        await cancel(self._task)
        self._task = None

    async def _loop(self) -> None:
        await self.client.wait_until_ready()
        while True:
            try:
                await self.tick()
            except Exception:
                log.exception("the turn clock failed; it tries again at the next check")
            await asyncio.sleep(self.settings.reminder_check_seconds)

    async def tick(self, now: float | None = None) -> Counter[str]:
        """Take every step of the clock due at ``now`` (default: the service's clock); returns
        how many of each kind were taken ("remind", "warn", "timeout")."""
        now = self._service().clock() if now is None else now
        service = self._service()
        games = [g for g in service.owned_games() if g.waiting_on() is not None]
        away = await service.store.away_until(u for g in games if (u := g.waiting_on()))
        done: Counter[str] = Counter()
        for game in games:
            step = self.due(game, away, now)
            if step is None:
                continue
            try:
                if await self._take(game, step, now):
                    done[step] += 1
            except Exception:
                log.exception("game %d: the turn clock's %s failed", game.id, step)
        self.turns.restart_stalled()
        return done

    def due(self, game: ActiveGame, away: dict[int, float], now: float) -> Step | None:
        user = game.waiting_on()
        if user is None or game.row.status != "playing":
            return None
        return due_step(game.clock, since_of(game), reminders_sent(game), away.get(user), now)

    async def _take(self, game: ActiveGame, step: Step, now: float) -> bool:
        announcer = self.announcer
        timeout: Timeout | None = None
        async with game.lock:
            user = game.waiting_on()
            away = await self._service().store.away_until([user] if user else [])
            if self.due(game, away, now) != step or user is None:
                return False  # a move (or a change of seats) came in meanwhile
            locale = game.row.locale
            link = announcer.panel_link(game)
            if step == "timeout":
                timeout = await self._service().time_out(game)
                await announcer.edit_turn_message(
                    game, announcer.turn_text(game), announcer.panel(game)
                )
                await self._announce_timeout(game, timeout)
            else:
                await self._service().mark_reminders(game, REMINDED if step == "remind" else WARNED)
                clock = game.clock
                since = since_of(game)
                params = {
                    "mention": mention(user),
                    "since": when(clock_start(since, away.get(user))),
                    "link": link,
                    "deadline": when(deadline(clock, since, away.get(user)), "f"),
                    "relative": when(deadline(clock, since, away.get(user))),
                }
                key = "clock.reminder" if step == "remind" else f"clock.warning.{clock.action}"
                await self.notifier.remind(game, user, text(key, locale, params), announcer)
        if timeout is not None and timeout.action != "none":
            self.turns.schedule_ai(game)
        return True

    async def _announce_timeout(self, game: ActiveGame, timeout: Timeout) -> None:
        locale = game.row.locale
        announcer = self.announcer
        name = game.chat_names[timeout.seat.seat]
        host = game.row.host_id
        if timeout.action == "none":
            content = text(
                "clock.timeout.none",
                locale,
                {
                    "host": mention(host),
                    "name": name,
                    "hours": hours_text(game.clock.limit_hours, locale),
                },
            )
            await announcer.notify(game, content, [host])
            return
        await announcer.notify(
            game, text(f"clock.timeout.{timeout.action}", locale, {"name": name})
        )
        if timeout.takeover:
            player = timeout.seat.user_id
            content = text(
                "clock.takeover",
                locale,
                {
                    "mention": mention(player),
                    "count": timeout.count,
                    "level": text(f"ai.level.{game.clock.takeover}", locale),
                    "host": mention(host),
                },
            )
            await announcer.notify(game, content, [u for u in (player, host) if u is not None])


__all__ = ["TurnClock", "hours_text", "mention", "settings_text", "waiting_lines", "when"]

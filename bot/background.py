"""Background work, in one place: AI turns, resuming games after a start, the turn clock.

AI seats play one action at a time with a short pause, as a task per game; a watchdog
(``restart_stalled``, at each tick of the clock) starts again those an error stopped.
After a start, turn messages a crash left unposted are posted and AI turns go on.

The turn clock is one task that sends reminders and final warnings and takes the
timeout action of games whose member to act went quiet. The timing lives in the
database (``games.clock_since``, ``clock_turn``, ``reminders_sent``, ``timeout_turn``;
``members.away_until``), so a restart neither loses nor repeats a step: a reminder is
recorded before it is sent, and a timeout is written once, in one transaction, before
the bot plays the turn (``GameService.time_out``); after a restart the bot goes on
playing that turn. Its time is the service's ``clock``, so tests make days pass by
moving it and calling ``tick``. The texts and pure helpers are in ``bot.turn_clock``.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Sequence

import discord

from bot.announce import Announcer
from bot.clock_settings import REMINDED, WARNED, Step, clock_start, deadline, due_step
from bot.durations import hours_text
from bot.games import ActiveGame, ServiceError
from bot.notify import Notifier
from bot.service import ServiceRef, Timeout
from bot.settings import Settings
from bot.shutdown import cancel
from bot.strings import text
from bot.turn_clock import mention, reminders_sent, since_of, when

log = logging.getLogger(__name__)


class Background:
    """The bot's background work: AI turns and their watchdog, resume, the turn clock."""

    def __init__(
        self,
        client: discord.Client,
        settings: Settings,
        service: ServiceRef,
        announcer: Announcer,
        notifier: Notifier,
    ) -> None:
        self.client = client
        self.settings = settings
        self._service = service
        self.announcer = announcer
        self.notifier = notifier
        self._ai_tasks: dict[int, asyncio.Task[None]] = {}
        self._clock_task: asyncio.Task[None] | None = None
        self._checked = asyncio.Event()  # the turn clock's first check since the start is done

    # ---- AI seats -------------------------------------------------------------------------

    def schedule_ai(self, game: ActiveGame) -> None:
        """Start playing the AI seat to act, unless that is already under way."""
        if game.ai_to_act() is None:
            return
        task = self._ai_tasks.get(game.id)
        if task is not None and not task.done():
            return
        self._ai_tasks[game.id] = asyncio.create_task(
            self._run_ai(game.id), name=f"af-ai-game-{game.id}"
        )

    async def _run_ai(self, game_id: int) -> None:
        pause = self.settings.ai_pause_seconds
        try:
            while True:
                game = await self._service().by_id(game_id)
                if game is None or game.ai_to_act() is None:
                    return
                await asyncio.sleep(pause)
                async with game.lock:
                    if game.ai_to_act() is None:
                        return
                    result = await self._service().play_ai(game)
                    if result is None:
                        return
                    try:
                        await self.announcer.announce(game, result, None)
                    except ServiceError as e:  # saved; shown once the bot can post again
                        log.warning("game %d: AI move not shown: %s", game_id, e.key)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("AI turn of game %d stopped; it resumes at the next check", game_id)

    def restart_stalled(self) -> int:
        """Start AI turns that are due but not running (after an error); returns how many."""
        started = 0
        for game in self._service().owned_games():
            task = self._ai_tasks.get(game.id)
            if game.ai_to_act() is not None and (task is None or task.done()):
                self.schedule_ai(game)
                started += 1
        return started

    async def wait_idle(self) -> None:
        """Wait until no AI turn is being played (tests, shutdown)."""
        while True:
            running = [t for t in self._ai_tasks.values() if not t.done()]
            if not running:
                return
            await asyncio.gather(*running, return_exceptions=True)

    async def stop_ai(self) -> None:
        for task in self._ai_tasks.values():
            task.cancel()
        await asyncio.gather(*self._ai_tasks.values(), return_exceptions=True)
        self._ai_tasks.clear()

    async def resume(self, games: Sequence[ActiveGame]) -> None:
        """After a start: post turn messages a crash left unposted, go on with AI turns."""
        for game in games:
            try:
                async with game.lock:
                    if game.row.turn_message_turn != game.state.turn_number and not game.state.over:
                        await self.announcer.post_turn(game)
                self.schedule_ai(game)
            except Exception:
                log.exception("could not resume game %d", game.id)

    # ---- the turn clock ----------------------------------------------------------------

    def start_clock(self) -> None:
        if self._clock_task is not None and not self._clock_task.done():
            return
        self._clock_task = asyncio.create_task(self._loop(), name="af-turn-clock")

    async def stop_clock(self) -> None:
        await cancel(self._clock_task)
        self._clock_task = None

    async def _loop(self) -> None:
        await self.client.wait_until_ready()
        while True:
            try:
                await self.tick()
            except Exception:
                log.exception("the turn clock failed; it tries again at the next check")
            self._checked.set()
            await asyncio.sleep(self.settings.reminder_check_seconds)

    async def wait_first_check(self) -> None:
        """Wait until the turn clock has looked once since the start (tests: a step due
        later is then taken by the test's own ``tick``, not by the clock's first look
        racing it)."""
        if self._clock_task is not None and not self._clock_task.done():
            await self._checked.wait()

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
        self.restart_stalled()
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
            self.schedule_ai(game)
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


__all__ = ["Background"]

"""Turn reminders for play-by-post: ping the member to act after a quiet spell.

The timing lives in the database (``games.updated_at``, ``games.reminded_at``,
``games.waiting_on_user``), so a restart neither loses nor repeats a reminder.
A reminder is sent once per quiet period of ``TURN_REMINDER_HOURS`` (0: never).
The same periodic task restarts AI turns that an error stopped.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

import discord

from bot.replies import jump_url
from bot.strings import text

if TYPE_CHECKING:
    from bot.client import AlienFrontiersBot

log = logging.getLogger(__name__)


class Reminders:
    """The background task that sends turn reminders."""

    def __init__(self, bot: AlienFrontiersBot) -> None:
        self.bot = bot
        self._task: asyncio.Task[None] | None = None

    @property
    def hours(self) -> float:
        return self.bot.settings.turn_reminder_hours

    def start(self) -> None:
        if self._task is not None and not self._task.done():
            return
        self._task = asyncio.create_task(self._loop(), name="af-turn-reminders")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _loop(self) -> None:
        await self.bot.wait_until_ready()
        while True:
            try:
                await self.check()
                self.bot.turns.restart_stalled()  # a watchdog for AI turns stopped by an error
            except Exception:
                log.exception("turn reminders failed")
            await asyncio.sleep(self.bot.settings.reminder_check_seconds)

    async def check(self, now: float | None = None) -> int:
        """Send the reminders that are due at ``now``; returns how many were sent."""
        if self.hours <= 0:
            return 0
        now = self.bot.clock() if now is None else now
        store = self.bot.service.store
        sent = 0
        for row in await store.idle_games(now - self.hours * 3600):
            user = row.waiting_on_user
            if user is None:
                continue
            link = ""
            if row.turn_message_id is not None:
                link = jump_url(row.guild_id, row.channel_id, row.turn_message_id)
            idle_hours = max(1, round((now - row.updated_at) / 3600))
            content = text(
                "reminder",
                row.locale,
                {"mention": f"<@{user}>", "hours": idle_hours, "link": link},
            )
            channel = self.bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
            try:
                await channel.send(
                    content,
                    allowed_mentions=discord.AllowedMentions(
                        everyone=False, roles=False, users=[discord.Object(user)]
                    ),
                )
            except discord.HTTPException as e:
                log.warning("reminder for game %d not sent: %s", row.id, e)
            await store.update_game(row.id, reminded_at=now)
            sent += 1
        return sent

"""Background work, in one place: AI turns, resuming games after a start, the turn clock.

AI seats play one action at a time with a short pause, as a task per game; a move that
fails (the database refusing writes, Discord away) is tried again after a backoff that
doubles up to a minute, for as long as it fails; a watchdog (``restart_stalled``, at each
tick of the clock) starts those not running, the last resort.
After a start, AI turns go on, and a game whose turn has no message (nor a delivery
queued for it) gets one queued; the delivery worker (``bot.discord.delivery``) sends what was
left pending. At every check the clock repairs the same way a game whose turn message
is still missing a short while (``REPAIR_SECONDS``) after its turn began, and asks again
about a game whose channel Discord did not confirm at a READY (``check_places``).

The turn clock is one task that ticks: at each tick it asks the game service which games
have a step of their clock due (``clock_due``) and has it take each (``take_clock_step``:
a reminder or final warning, queued as the member chose to hear of their turn, or the
timeout action of a game whose member to act went quiet), then delivers what was queued
and lets the AI play a turn timed out. The timing lives in the
database (``games.clock_since``, ``clock_turn``, ``reminders_sent``, ``timeout_turn``;
``members.away_until``), so a restart neither loses nor repeats a step: a reminder is
recorded before it is sent, and a timeout is written once, in one transaction, before
the bot plays the turn (``TurnClockService.time_out``); after a restart the bot goes on
playing that turn. Its time is the ``clock`` it was handed, so tests make days pass by
moving it and calling ``tick``. Its texts are ``bot.text.clock_text``'s, the clock's facts
of a game in play ``bot.play.games``'s, which step is due when ``bot.store.clock_settings``'s.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from collections.abc import Callable, Sequence

import discord

from bot.discord.delivery import DeliveryWorker
from bot.discord.failures import MISSING_ACCESS, UNKNOWN_CHANNEL, UNKNOWN_GUILD, judge
from bot.discord.shutdown import cancel
from bot.play.games import ActiveGame
from bot.play.held_games import HeldGames
from bot.play.message_service import MessageService
from bot.play.move_service import MoveService
from bot.play.orphan_service import OrphanService
from bot.play.turn_clock_service import TurnClockService
from bot.settings import Settings
from bot.store.clock_settings import ClockStep
from bot.store.errors import ServiceError
from bot.store.shards import Shards

log = logging.getLogger(__name__)

# A turn whose message is still missing this long after it began gets one queued.
REPAIR_SECONDS = 60.0
# A server whose games were orphaned by the bot's removal, yet in view, is asked about this
# often at most (is the bot back?).
CONFIRM_SECONDS = 600.0
# The longest wait between two attempts at an AI move that keeps failing.
AI_RETRY_CAP_SECONDS = 60.0


def ai_retry_wait(failures: int, first: float) -> float:
    """Seconds before the next attempt at an AI move after ``failures`` failed ones in a row:
    ``first``, doubling, at most ``AI_RETRY_CAP_SECONDS`` (and never less than 0.01 s)."""
    wait: float = first * 2.0 ** min(failures - 1, 32)
    return max(0.01, min(AI_RETRY_CAP_SECONDS, wait))


def _lost_race(e: Exception, game: ActiveGame | None, logged: int) -> bool:
    """Whether an AI move failed only because another process committed a move of the
    game first: refused as ``game.changed``, and the game (loaded again as committed)
    has more actions than when the move was chosen."""
    return (
        isinstance(e, ServiceError)
        and e.key == "game.changed"
        and game is not None
        and game.game is not None
        and len(game.game.log) > logged >= 0
    )


class Background:
    """The bot's background work: AI turns and their watchdog, resume, the turn clock."""

    def __init__(
        self,
        client: discord.Client,
        settings: Settings,
        *,
        games: HeldGames,
        moves: MoveService,
        turn_clock: TurnClockService,
        messages: MessageService,
        orphans: OrphanService,
        shards: Shards,
        deliveries: DeliveryWorker,
        clock: Callable[[], float],
    ) -> None:
        self.client = client
        self.settings = settings
        self.games = games
        self.moves = moves
        self.turn_clock = turn_clock
        self.messages = messages
        self.orphans = orphans
        self.shards = shards  # the servers whose games this process plays
        self.clock = clock
        self.deliveries = deliveries
        self._ai_tasks: dict[int, asyncio.Task[None]] = {}
        self._clock_task: asyncio.Task[None] | None = None
        self._checked = asyncio.Event()  # the turn clock's first check since the start is done
        self._asked: dict[int, float] = {}  # servers asked whether the bot is back, when
        self._unchecked: set[int] = set()  # games whose place Discord did not confirm yet

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
        """Play the game's AI seats while one is to act. A move that fails (the database
        refusing writes, Discord away, a bug) is tried again after a wait that doubles from
        ``ai_retry_seconds`` up to ``AI_RETRY_CAP_SECONDS``, for as long as it fails: the
        AI goes on within a minute of the fault ending, never in a hot loop.

        Another process over the database (a rolling restart's overlap) may play the same
        seat: a move it committed first refuses this one (``game.changed``), the game is
        loaded again as committed, and the AI looks again at once — the expected outcome
        of losing that race, no failure, as long as the game moved on meanwhile."""
        pause = self.settings.ai_pause_seconds
        failures = 0
        while True:
            game: ActiveGame | None = None
            logged = -1  # the game's count of actions when this move was chosen
            try:
                game = await self.games.by_id(game_id)
                if game is None or game.ai_to_act() is None:
                    return
                logged = len(game.game.log) if game.game is not None else -1
                await asyncio.sleep(pause)
                async with game.lock:
                    if game.ai_to_act() is None:
                        return
                    result = await self.moves.play_ai(game)
                    if result is None:
                        return
                    failures = 0
                    # Shown now if Discord answers; else the deliveries wait and retry.
                    await self.deliveries.run(game.row.channel_id)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                if _lost_race(e, game, logged):
                    log.info(
                        "game %d: another process played the AI's move first; the AI looks again",
                        game_id,
                    )
                    continue
                failures += 1
                wait = ai_retry_wait(failures, self.settings.ai_retry_seconds)
                if failures == 1:
                    log.exception(
                        "AI turn of game %d stopped; tried again in %.3g s", game_id, wait
                    )
                else:
                    log.warning(
                        "AI turn of game %d failed again (%d times: %s); tried again in %.3g s",
                        game_id,
                        failures,
                        judge(e),
                        wait,
                    )
                await asyncio.sleep(wait)

    def restart_stalled(self) -> int:
        """Start AI turns that are due but not running (a game loaded again after the
        database was away; the last resort); returns how many."""
        started = 0
        for game in self.games.owned_games():
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
        """After a start: queue the turn message of a game whose turn has none (the worker
        delivers it with what was left pending), go on with AI turns."""
        for game in games:
            try:
                await self.repair(game)
                self.schedule_ai(game)
            except Exception:
                log.exception("could not resume game %d", game.id)

    async def check_places(self, games: set[int] | None = None, shard: int | None = None) -> int:
        """At every READY (a start, or a new session after a reconnect that could not
        resume; a sharded bot: each shard's, ``shard``): a game whose channel is gone, or
        whose server removed the bot, while the bot was away (its event missed) is orphaned
        once Discord confirms it (a channel or thread not in view is asked for: 10003
        Unknown Channel; a server not among the bot's: 50001 Missing Access, or 10004
        Unknown Guild; any other refusal, a 404 without that code from a proxy or a
        hiccup, confirms nothing: checked again later). A server Discord says the bot is
        in, though not in view (the bot added back since the READY, its GUILD_CREATE not
        yet here), has its game's channel asked for the same way. A game Discord gave no
        answer about (an error, its server unavailable) is checked again at the turn
        clock's next check (``tick``), until it has one: nothing else would find its channel
        gone if nothing waits to be sent there, and its host would never be told.
        ``games``: only those; ``shard``: only the games in that shard's servers (default:
        every game in play here). How many were orphaned."""
        orphaned = 0
        checked: set[int] = set()
        unchecked: set[int] = set()
        count = getattr(self.client, "shard_count", None) or 1
        owned = list(self.games.owned_games())
        for game in owned:
            row = game.row
            if row.guild_id is None or (games is not None and row.id not in games):
                continue
            if shard is not None and (row.guild_id >> 22) % count != shard:
                continue
            checked.add(row.id)
            guild = self.client.get_guild(row.guild_id)
            try:
                if guild is None:
                    try:
                        await self.client.fetch_guild(row.guild_id)
                    except (discord.Forbidden, discord.NotFound) as e:
                        if e.code not in (MISSING_ACCESS, UNKNOWN_GUILD):
                            raise  # a stray refusal says nothing of the server: again later
                        orphaned += bool(await self.orphans.orphan(row.id, "guild"))
                        continue
                elif guild.unavailable:
                    unchecked.add(row.id)  # its channels unknown yet
                    continue
                elif guild.get_channel_or_thread(row.channel_id):
                    continue
                try:
                    await self.client.fetch_channel(row.channel_id)  # an archived thread?
                except discord.NotFound as e:
                    if e.code != UNKNOWN_CHANNEL:  # (a thread deleted is one too)
                        raise  # a stray 404 says nothing of the channel: again later
                    orphaned += bool(await self.orphans.orphan(row.id, "channel"))
            except Exception as e:
                unchecked.add(row.id)
                log.warning(
                    "game %d: its channel not checked (again at the next check): %s", row.id, e
                )
        # The games in play not looked at this time (another shard's) keep their verdict.
        self._unchecked = (self._unchecked - checked) & {g.id for g in owned} | unchecked
        if orphaned:
            self.deliveries.wake()
        return orphaned

    async def repair(self, game: ActiveGame, grace: float = 0.0) -> bool:
        """Show the turn of a game in play that has no turn message (``grace`` seconds
        after it began; ``MessageService.show_turn_again``), and deliver it now; whether it
        was queued."""
        if not await self.messages.show_turn_again(game, grace):
            return False
        await self.deliveries.run(game.row.channel_id)
        return True

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
        """Take every step of the clock due at ``now`` (default: its clock), and
        queue the turn message of games whose turn has none (``repair``); returns how many
        of each kind were taken ("remind", "warn", "timeout", "repair")."""
        now = self.clock() if now is None else now
        for game in await self.games.reload_dropped():  # the database was away for them
            self.schedule_ai(game)
        done: Counter[str] = Counter()
        for game, step in await self.turn_clock.clock_due(self.games.owned_games(), now):
            try:
                if await self._take(game, step, now):
                    done[step] += 1
            except Exception:
                log.exception("game %d: the turn clock's %s failed", game.id, step)
        for game in self.games.owned_games():
            try:
                if await self.repair(game, REPAIR_SECONDS):
                    done["repair"] += 1
            except Exception as e:
                log.warning("game %d: the turn message not checked: %s", game.id, e)
        done["back"] = await self.back_in_view()
        if self._unchecked:
            done["orphaned"] = await self.check_places(self._unchecked)
        self.restart_stalled()
        return +done

    async def back_in_view(self) -> int:
        """Games orphaned when the bot was removed from their server, in a server the bot
        is in again (its return missed, or not yet taken: the database was away): they go
        on. How many."""
        back = 0
        try:
            guilds = await self.orphans.servers_that_removed_the_bot()
        except Exception as e:
            log.warning("orphaned games not looked at: %s", e)
            return 0
        now = time.monotonic()
        for guild_id in sorted(guilds):
            guild = self.client.get_guild(guild_id)
            if guild is None or guild.unavailable or not self.shards.owns(guild_id):
                continue
            # In view, but the removal's event may have been missed: Discord is asked, at
            # most every CONFIRM_SECONDS per server.
            if now - self._asked.get(guild_id, -CONFIRM_SECONDS) < CONFIRM_SECONDS:
                continue
            try:
                await self.client.fetch_guild(guild_id)
            except (discord.Forbidden, discord.NotFound):
                self._asked[guild_id] = now  # still not a member: ask again later
                continue
            except Exception as e:
                log.warning("server %d: not asked about yet: %s", guild_id, e)
                continue
            channels = {c.id for c in guild.channels} | {t.id for t in guild.threads}
            try:
                games = await self.orphans.back_in(guild_id, channels)
            except Exception as e:
                log.warning("server %d: its games not resumed yet: %s", guild_id, e)
                continue
            for game in games:
                await self.deliveries.run(game.row.channel_id)
                self.schedule_ai(game)
            back += len(games)
        return back

    async def _take(self, game: ActiveGame, step: ClockStep, now: float) -> bool:
        """Ask the service to take the clock's step (``take_clock_step``), with the game's
        lock held, and deliver what it queued; a turn timed out goes on with the AI."""
        async with game.lock:
            if not await self.turn_clock.take_clock_step(game, step, now):
                return False  # a move (or a change of seats) came in meanwhile
            await self.deliveries.run(game.row.channel_id)
        if step == "timeout":
            self.schedule_ai(game)  # the AI plays the turn for its member (action ai)
        return True


__all__ = ["Background"]

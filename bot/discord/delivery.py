"""The delivery worker: the outbox's deliveries sent until they land, in order per channel.

Each change queues its deliveries with itself (``bot.play.outbox``). The member's command or
click then delivers its channel's lane at once (``run``, with their interaction to carry
the answer); a background task (``start``) delivers everything else due — AI turns'
deliveries once the fast path is past, retries, and after a start what a crash or a stop
left pending. Each process delivers the lanes of the servers of its shards.

A lane is a channel: its deliveries go in the order they were queued, one at a time, so
a turn's message is closed before the next one is posted and the ping comes after it.
A delivery that fails stops its lane; the failure is judged (``bot.discord.failures``):

- a passing fault (5xx, 429, a timeout, a reset connection, the database) is tried
  again after a capped, jittered exponential backoff;
- missing permissions pause the channel: tried again every minute or two, and its game's
  host is told once by DM which permissions are missing; it carries on as soon as it
  works;
- a body Discord rejects, or a channel that no longer exists, is given up at once (one
  ERROR line), and so is a delivery still failing after ``MAX_AGE_SECONDS``;
- an unexpected error (a bug) is logged with its traceback and given up after a few tries.

Every failed attempt is one WARNING line (route, status, attempt); no traceback for the
HTTP errors Discord is known to answer. An edit that landed (the turn message shown as
the game is) is removed with the game's next move's commit, or within a second: a move
costs no database write more than it did. Several ``turn`` deliveries of one game waiting in
a lane are one: the last one shows the game as it is (the earlier ones are dropped); and
a ``lobby`` delivery shows the lobby as the ones queued after it would (they are dropped,
its extra line and its pings kept).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final

import discord

from bot.discord.couriers import Couriers, Done, Reply
from bot.discord.failures import BUG_ATTEMPTS, Verdict, backoff, judge
from bot.play.outbox import text_of
from bot.play.service import GameService, ServiceRef
from bot.shutdown import cancel
from bot.store.shards import Shards
from bot.store.storage import Delivery

log = logging.getLogger(__name__)

POLL_SECONDS: Final = 30.0  # the worker looks for due deliveries at least this often
FORGET_SECONDS: Final = 1.0  # edits that landed are removed within this, if no move did
FAST_SECONDS: Final = 5.0  # a lane a command is delivering itself waits this long for it
MAX_AGE_SECONDS: Final = 3 * 86400.0  # a delivery failing this long is given up
PERMISSIONS: Final = ("view_channel", "send_messages", "attach_files")


@dataclass(frozen=True, slots=True)
class Backlog:
    """What waits to be delivered (this process's shards): for the health check."""

    pending: int = 0
    oldest: float | None = None  # when the oldest pending one was queued
    failed: int = 0  # given up
    paused: int = 0  # channels waiting for their permissions

    def age(self, now: float) -> float:
        return max(0.0, now - self.oldest) if self.oldest is not None else 0.0


class Deliveries:
    """Delivers the outbox; see the module docstring."""

    def __init__(
        self,
        client: discord.Client,
        service: ServiceRef,
        couriers: Couriers,
        shards: Shards | None = None,
        *,
        clock: Callable[[], float] | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        rng: random.Random | None = None,
    ) -> None:
        self.client = client
        self._service = service
        self.couriers = couriers
        self.shards = shards
        self._clock = clock
        self.sleep = sleep
        self.rng = rng or random.Random()
        self._lanes: dict[int, asyncio.Lock] = {}
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._fast: dict[int, float] = {}  # lane -> when a change queued in it (monotonic)
        self._paused: set[int] = set()  # lanes whose channel lacks permissions
        self._told: set[int] = set()  # lanes whose game's host was told of it
        self._unrecorded: dict[int, Done] = {}  # delivered, but the removal failed
        self._landed: dict[int, int] = {}  # edits delivered, removal to come: id -> game
        self._forget_task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._loop_task: asyncio.Task[None] | None = None
        self.backlog = Backlog()

    @property
    def service(self) -> GameService:
        return self._service()

    def now(self) -> float:
        return self._clock() if self._clock is not None else self.service.clock()

    # ---- queued, and the fast path -----------------------------------------------------

    def queued(self, channel_id: int) -> None:
        """A change queued deliveries in this lane (``GameService.on_queued``): the command
        (or AI turn) that made it delivers them itself (``run``); the worker takes them at
        its next look if it does not."""
        self._fast[channel_id] = time.monotonic()

    async def run(
        self, channel_id: int, interaction: discord.Interaction[Any] | None = None
    ) -> None:
        """Deliver the lane's due deliveries now, in this task (a command or an AI turn,
        right after its change): ``interaction`` answers with one of them. Never raises: what
        fails stays queued, for the worker to try again, and the member's answer is about
        their move, which is committed."""
        reply = Reply(interaction) if interaction is not None else None
        try:
            await self._drain(channel_id, reply)
        except asyncio.CancelledError:
            raise
        except Exception as e:
            log.warning("channel %d: deliveries left to the worker: %s", channel_id, judge(e))
        finally:
            self._fast.pop(channel_id, None)
            if reply is not None:
                await reply.finish()

    async def _drain(self, lane: int, reply: Reply | None = None) -> None:
        """Deliver the lane's deliveries in order while they are due and land."""
        lock = self._lanes.setdefault(lane, asyncio.Lock())
        async with lock:
            again = True
            while again:  # once more if a delivery queued others in its place
                again = False
                rows = await self.service.store.pending_deliveries(channel_id=lane)
                rows = [d for d in rows if d.id not in self._landed]
                shown: set[int] = set()  # lobby deliveries a former one showed
                for i, d in enumerate(rows):
                    if d.id in shown:
                        self._land(d)
                        continue
                    if d.due_at > self.now():
                        return  # in order: the rest of the lane waits for it
                    later = [
                        r for r in rows[i + 1 :] if r.kind == d.kind and r.game_id == d.game_id
                    ]
                    if d.kind == "turn" and later:
                        self._land(d)  # a later one shows the game as it is
                        continue
                    landed = await self._attempt(d, reply)
                    if landed is None:
                        return
                    if d.kind == "lobby":  # it showed the lobby as the later ones would
                        shown.update(r.id for r in later)
                    again = again or landed

    async def _attempt(self, d: Delivery, reply: Reply | None) -> bool | None:
        """Deliver ``d`` once. None: the lane must wait (it failed, to be tried again);
        else it goes on, and True says the delivery queued others in its place."""
        store = self.service.store
        done = self._unrecorded.pop(d.id, None)
        if done is None:
            try:
                done = await self.couriers.deliver(d, reply)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                return False if await self._failed(d, e) else None
        if done.again_harmless and not done.fields and not done.then:
            self._land(d)  # removed with the game's next move, or within a second
            self._going_again(d)
            return False
        try:
            await store.delivered(d.id, d.game_id, done.then, **done.fields)
        except Exception as e:
            # Delivered, not recorded (the database): record it at the next attempt, without
            # delivering it again.
            self._unrecorded[d.id] = done
            await self._failed(d, e)
            return None
        self._going_again(d)
        return bool(done.then)

    def _going_again(self, d: Delivery) -> None:
        """A delivery landed: its channel goes through again if it was paused."""
        if d.channel_id in self._paused:
            self._paused.discard(d.channel_id)
            self._told.discard(d.channel_id)
            log.info("channel %d: deliveries go through again", d.channel_id)

    # ---- edits that landed: their removal goes with a commit ----------------------------

    def _land(self, d: Delivery) -> None:
        """``d`` landed and doing it again would change nothing (an edit): its row is removed
        by the next move's commit (``take_landed``), or within ``FORGET_SECONDS``, so a
        move costs no write more than it did."""
        self._landed[d.id] = d.game_id
        if self._forget_task is None or self._forget_task.done():
            self._forget_task = asyncio.create_task(self._forget_soon(), name="af-landed")

    def take_landed(self) -> list[int]:
        """The rows of edits that landed, for a commit to remove (``GameService``)."""
        ids = list(self._landed)
        self._landed.clear()
        return ids

    def give_back_landed(self, ids: list[int]) -> None:
        """The commit that was to remove them failed: they wait for the next one."""
        for i in ids:
            self._landed[i] = 0
        if ids and (self._forget_task is None or self._forget_task.done()):
            self._forget_task = asyncio.create_task(self._forget_soon(), name="af-landed")

    async def _forget_soon(self) -> None:
        await self.sleep(FORGET_SECONDS)
        await self.forget_landed()

    async def forget_landed(self) -> None:
        """Remove the rows of the edits that landed now (no commit took them)."""
        ids = self.take_landed()
        if not ids:
            return
        try:
            await self.service.store.forget_deliveries(ids)
        except asyncio.CancelledError:
            self.give_back_landed(ids)
            raise
        except Exception as e:
            log.warning("deliveries: %d landed ones not removed yet: %s", len(ids), judge(e))
            self.give_back_landed(ids)

    async def _failed(self, d: Delivery, error: Exception) -> bool:
        """Judge a failed attempt, log it, and record when to try again (or that it is
        given up); whether the lane may go on."""
        verdict = judge(error)
        attempt = d.attempts + 1
        now = self.now()
        give_up = verdict.kind == "rejected" or now - d.created_at > MAX_AGE_SECONDS
        if verdict.kind == "bug":
            log.error(
                "delivery %d (%s, game %d) failed unexpectedly (attempt %d)",
                d.id,
                d.kind,
                d.game_id,
                attempt,
                exc_info=error,
            )
            give_up = give_up or attempt >= BUG_ATTEMPTS
        wait = backoff(attempt, self.rng, verdict)
        if give_up:
            log.error(
                "delivery %d (%s, game %d, channel %d) given up after %d attempts: %s",
                d.id,
                d.kind,
                d.game_id,
                d.channel_id,
                attempt,
                verdict,
            )
        elif verdict.kind != "bug":
            log.warning(
                "delivery %d (%s, game %d, channel %d) attempt %d failed: %s; again in %.0f s",
                d.id,
                d.kind,
                d.game_id,
                d.channel_id,
                attempt,
                verdict,
                wait,
            )
        try:
            await self.service.store.delivery_failed(
                d.id, attempts=attempt, due_at=now + wait, error=str(verdict), give_up=give_up
            )
        except Exception as e:
            log.warning("delivery %d: its failure not recorded: %s", d.id, judge(e))
            return False
        if verdict.kind == "forbidden" and not give_up:
            await self._forbidden(d, verdict)
        self._wake.set()  # the worker takes it from here, when it is due
        return give_up

    async def _forbidden(self, d: Delivery, verdict: Verdict) -> None:
        """The channel refuses the bot: pause its lane (its deliveries are tried every few
        minutes) and tell the game's host once, by DM, what the bot is missing there."""
        self._paused.add(d.channel_id)
        if d.channel_id in self._told:
            return
        self._told.add(d.channel_id)
        row = await self.service.store.game(d.game_id)
        if row is None:
            return
        missing = self.missing_permissions(row.guild_id, row.channel_id)
        host = Delivery(
            "dm",
            d.game_id,
            -row.host_id,  # a lane of its own: the game's channel is the one that fails
            d.guild_id,
            {
                "key": "delivery.forbidden",
                "params": {
                    "channel": f"<#{row.channel_id}>",
                    "permissions": {"list": [text_of(f"permission.{p}") for p in missing]},
                },
                "user": row.host_id,
                "always": True,
            },
            created_at=self.now(),
            due_at=self.now(),
        )
        try:
            await self.service.store.queue([host])
        except Exception as e:
            log.warning("game %d: its host not told of the permissions: %s", d.game_id, e)
            self._told.discard(d.channel_id)
            return
        log.warning(
            "channel %d: permissions missing (%s); the host of game %d is told",
            d.channel_id,
            ", ".join(missing),
            d.game_id,
        )
        self._wake.set()

    def missing_permissions(self, guild_id: int | None, channel_id: int) -> list[str]:
        """The permissions the bot lacks in a channel (as far as the cache knows; all it
        needs there, if it knows nothing)."""
        guild = self.client.get_guild(guild_id) if guild_id is not None else None
        channel = guild.get_channel_or_thread(channel_id) if guild is not None else None
        me = guild.me if guild is not None else None
        wanted = [*PERMISSIONS]
        if isinstance(channel, discord.Thread):
            wanted.append("send_messages_in_threads")
        if channel is None or me is None:
            return wanted
        allowed = channel.permissions_for(me)
        return [p for p in wanted if not getattr(allowed, p)] or wanted

    # ---- the worker --------------------------------------------------------------------

    def start(self) -> None:
        if self._loop_task is None or self._loop_task.done():
            self._loop_task = asyncio.create_task(self._loop(), name="af-deliveries")

    async def stop(self, timeout: float = 0.0) -> None:
        """Stop the worker; lanes being delivered get ``timeout`` seconds to finish (what
        is not delivered stays queued for the next start)."""
        await cancel(self._loop_task)
        self._loop_task = None
        running = [t for t in self._tasks.values() if not t.done()]
        if running and timeout > 0:
            await asyncio.wait(running, timeout=timeout)
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)
        self._tasks.clear()
        await cancel(self._forget_task)
        self._forget_task = None
        with contextlib.suppress(Exception):  # else the next start delivers them again: edits
            await self.forget_landed()

    async def _loop(self) -> None:
        await self.client.wait_until_ready()
        failures = 0
        while True:
            self._wake.clear()
            try:
                wait = await self.check()
                failures = 0
            except asyncio.CancelledError:
                raise
            except Exception as e:
                failures += 1
                wait = backoff(failures, self.rng)
                log.warning("deliveries: the outbox could not be read: %s", judge(e))
            # asyncio.timeout, not wait_for: Python 3.11's wait_for swallows a cancellation
            # that comes as the wake-up does, and the bot could never stop.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(max(0.05, wait)):
                    await self._wake.wait()

    async def check(self) -> float:
        """Start delivering every lane whose first delivery is due (and that no command is
        delivering itself); returns how long until the next one is due."""
        rows = await self.service.store.pending_deliveries(self.shards)
        rows = [d for d in rows if d.id not in self._landed]
        failed = (await self.service.store.delivery_counts(self.shards))[2]
        now = self.now()
        heads: dict[int, Delivery] = {}
        for d in rows:
            heads.setdefault(d.channel_id, d)
        self.backlog = Backlog(
            len(rows), min((d.created_at for d in rows), default=None), failed, len(self._paused)
        )
        soonest = POLL_SECONDS
        for lane, head in heads.items():
            task = self._tasks.get(lane)
            if task is not None and not task.done():
                continue
            fast = self._fast.get(lane)
            if fast is not None and time.monotonic() - fast < FAST_SECONDS:
                soonest = min(soonest, FAST_SECONDS)
                continue
            if head.due_at > now:
                soonest = min(soonest, head.due_at - now)
                continue
            self._tasks[lane] = asyncio.create_task(self._lane(lane), name=f"af-lane-{lane}")
        return soonest

    async def _lane(self, lane: int) -> None:
        try:
            await self._drain(lane)
        except asyncio.CancelledError:
            raise
        except Exception as e:
            log.warning("channel %d: deliveries stopped: %s", lane, judge(e))
        finally:
            self._wake.set()  # what is due next in it

    # ---- tests and shutdown ------------------------------------------------------------

    async def settle(self, rounds: int = 20) -> None:
        """Deliver, in this task, everything due now, until nothing due is left (tests:
        once their moves and AI turns are done)."""
        for _ in range(rounds):
            running = [t for t in self._tasks.values() if not t.done()]
            if running:
                await asyncio.gather(*running, return_exceptions=True)
            rows = await self.service.store.pending_deliveries(self.shards)
            now = self.now()
            lanes: dict[int, Delivery] = {}
            for d in rows:
                if d.id not in self._landed:
                    lanes.setdefault(d.channel_id, d)
            due = [lane for lane, head in lanes.items() if head.due_at <= now]
            if not due:
                await self.forget_landed()
                return
            for lane in due:
                try:
                    await self._drain(lane)
                except Exception as e:
                    log.warning("channel %d: deliveries stopped: %s", lane, judge(e))

    def wake(self) -> None:
        """Look for due deliveries now (after the clock moved, in tests)."""
        self._wake.set()


__all__ = ["FAST_SECONDS", "MAX_AGE_SECONDS", "POLL_SECONDS", "Backlog", "Deliveries"]

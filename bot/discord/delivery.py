"""The delivery worker: the outbox's deliveries sent until they land, in order per channel.

Each change queues its deliveries with itself (``bot.play.outbox``). The member's command or
click then delivers its channel's lane at once (``run``, with their interaction to carry
the answer); a background task (``start``) delivers everything else due — AI turns'
deliveries once the fast path is past, retries, and after a start what a crash or a stop
left pending. Each process delivers the lanes of the servers of its shards.

A lane is a channel: its deliveries go in the order they were queued, one at a time, so
a turn's message is closed before the next one is posted and the ping comes after it. A
pass over a lane is one conversation with the outbox (``Outbox.lane_pass``): the lane's
waiting rows handed at once, each delivery's outcome handed back as it comes and recorded
before the next one is attempted (whose courier reads what it recorded).

**One owner per lane.** A process delivers a lane only while it holds the lane's lease
(``DeliveryStore.claim_lane``: one statement that takes it only if its lease ran out or is its
own, on both databases), renewed as it goes, and while a delivery is under way (one call
to Discord may outlast a lease: ``KEEP_SECONDS``); a process that stops lets its lanes go, one
that dies holds them ``LEASE_SECONDS`` more. Two processes over one database — a rolling
restart, a mistaken config — never send the same delivery twice; what one queues in a
lane the other holds, the other delivers (it looks at the outbox every
``HELD_POLL_SECONDS`` while it holds a lane). A courier shows a game as committed, not as
this process last saw it (``HeldGames.as_committed``): the other process may have moved
it on. A lane taken over from another owner (or from this process before a
restart) may hold deliveries that were made but not recorded: before making one of them
again, the courier looks for it among the messages posted since it was queued (``check``),
whatever time has passed and however many members posted meanwhile — Discord's nonce
only covers a few minutes. So does an attempt that failed without knowing whether it
landed, once that is older than the nonce's minutes.

A delivery that fails stops its lane; the failure is judged (``bot.discord.failures``):

- a passing fault (5xx, 429, a timeout, a reset connection, the database) is tried
  again after a capped, jittered exponential backoff, held in memory as well as in the
  database: a failure that cannot be recorded (the database refusing writes) still waits;
- missing permissions pause the channel: tried again every minute or two, and its game's
  host is told once by DM which permissions are missing (remembered in the database, so a
  restart does not tell them again); it carries on as soon as it works;
- the channel deleted, or the bot no longer in its server (10003, 10004; 50001 with the
  server gone): the game is orphaned (``OrphanService.orphan``): nothing more is sent there,
  its host is told once;
- a body Discord rejects is given up at once (one ERROR line with the route and the
  rejected field) and the host is told once; a turn message is then sent as text
  (``bot.discord.couriers``), so the player to act is still told;
- a delivery still failing after ``MAX_AGE_SECONDS`` is given up;
- an unexpected error (a bug) is logged with its traceback and given up after a few tries.

Every failed attempt is one WARNING line (route, status, attempt); no traceback for the
HTTP errors Discord is known to answer. The bot's own attempts are spaced out across all
lanes as Discord's count of invalid requests climbs (``failures.InvalidRequests``).
Failed rows are pruned after ``PRUNE_AFTER_SECONDS``. An edit that landed (the turn message
shown as the game is) is removed with the game's next move's commit, or within a second:
a move costs no database write more than it did. Several ``turn`` deliveries of one game
waiting in a lane are one: the last one shows the game as it is (the earlier ones are
dropped, but for one made and not recorded: recorded first, its message is its turn's;
one dropped that may have posted it unknowingly has its turn's close look for that message,
since it was queued, to close it rather than post the closed turn beside it); and a
``lobby`` delivery shows the lobby as the ones queued after it would (they are dropped, its
extra line and its pings kept).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass, replace
from typing import Any

import discord

from bot.discord.couriers import Delivered, Reply
from bot.discord.delivery_base import (
    FAST_SECONDS,
    HELD_POLL_SECONDS,
    KEEP_SECONDS,
    KINDS_EVERY_SECONDS,
    LEASE_SECONDS,
    MAX_AGE_SECONDS,
    PERMISSIONS,
    POLL_SECONDS,
    PRUNE_AFTER_SECONDS,
    PRUNE_EVERY_SECONDS,
    Backlog,
    DeliveryWorkerBase,
)
from bot.discord.failures import (
    BUG_ATTEMPTS,
    MISSING_ACCESS,
    Verdict,
    backoff,
    judge,
    maybe_made,
)
from bot.discord.shutdown import cancel
from bot.play.outbox import Failed, Landed, Made, text_of
from bot.store.rows import Delivery

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Failure:
    """A failed attempt judged: what the outbox records of it, and the verdict (what the
    worker does once it is recorded)."""

    outcome: Failed
    verdict: Verdict


class DeliveryWorker(DeliveryWorkerBase):
    """Delivers the outbox; see the module docstring."""

    # ---- queued, and the fast path -----------------------------------------------------

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
            self.outbox.done_with(channel_id)
            if reply is not None:
                await reply.finish()

    def _waiting(self, lane: int) -> float:
        """Seconds the lane still waits (its backoff, or another owner's lease); 0: go."""
        now = self.now()
        until = max(self._not_before.get(lane, 0.0), self._held_by_others.get(lane, 0.0))
        return max(0.0, until - now)

    async def _drain(self, lane: int, reply: Reply | None = None) -> None:
        """Deliver the lane's deliveries in order while they are due and land: each pass is
        one conversation with the outbox (``Outbox.lane_pass``), which hands the lane's
        rows at once and records each outcome before the next attempt."""
        lock = self._lanes.setdefault(lane, asyncio.Lock())
        async with lock:
            again = True
            while again:  # once more if a delivery queued others in its place
                if self._waiting(lane) > 0 or not await self._own(lane):
                    return
                again = await self._pass(lane, reply)

    async def _pass(self, lane: int, reply: Reply | None) -> bool:
        """One pass over the lane: whether to read it again (a delivery queued others in
        its place). Its one conversation with the outbox is here: the lane's rows handed at
        once, every outcome handed back as it comes (``Outbox.lane_pass``)."""
        talk = self.outbox.lane_pass(lane)
        try:
            rows = [self._since(d) for d in (await anext(talk)).rows]
            if lane in self._taken_over:
                self._taken_over.discard(lane)
                self._check.update(d.id for d in rows)
            shown: set[int] = set()  # lobby deliveries a former one showed
            for i, d in enumerate(rows):
                if d.id in shown:
                    await talk.asend(Landed(d))
                    continue
                if d.due_at > self.now() or self._waiting(lane) > 0:
                    return False  # in order: the rest of the lane waits for it
                later = [r for r in rows[i + 1 :] if r.kind == d.kind and r.game_id == d.game_id]
                # A later one shows the game as it is; but one made and not recorded is
                # recorded first (the message it posted is its turn's, for its close to edit).
                made = d.id in self._unrecorded
                if d.kind == "turn" and later and not d.payload.get("repost") and not made:
                    await talk.asend(Landed(d))
                    self._closes_for(rows[i + 1 :], d)
                    self._stands_for(later[0], d)
                    continue
                if not await self._own(lane):
                    return False
                # It may stand for earlier ones dropped in this very pass: it looks for a post
                # they may have made since the first of them was queued.
                d = self._since(d)
                keep = asyncio.create_task(self._keep(lane), name=f"af-lease-{lane}")
                try:
                    tried = await self._attempt(d, reply)
                finally:
                    keep.cancel()
                    await asyncio.gather(keep, return_exceptions=True)
                if isinstance(tried, Failure):
                    went_on = await self._failed(tried, (await talk.asend(tried.outcome)).error)
                    tried = False if went_on else None
                elif isinstance(tried, Made):
                    error = (await talk.asend(tried)).error
                    if error is not None:
                        # Delivered, not recorded (the database): record it at the next attempt,
                        # without delivering it again.
                        self._unrecorded[d.id] = Delivered(fields=tried.fields, then=tried.then)
                        failure = await self._judged(d, error)
                        if failure is not None:
                            await self._failed(failure, (await talk.asend(failure.outcome)).error)
                        return False
                    await self._going_again(d)
                    tried = bool(tried.then)
                elif isinstance(tried, Landed):
                    await talk.asend(tried)  # removed with the game's next move, or within a second
                    await self._going_again(d)
                    tried = False
                if tried is None:
                    return False
                if d.kind == "lobby":  # it showed the lobby as the later ones would
                    shown.update(r.id for r in later)
                if tried:
                    return True  # its replacement takes its place: read the lane again
            return False
        finally:
            await talk.aclose()

    def _stands_for(self, later: Delivery, earlier: Delivery) -> None:
        """``later`` (a turn's message) is delivered in place of ``earlier``, which may have
        posted it unrecorded: it is looked for as ``earlier`` would have been (since it was
        queued, and first if it was to be)."""
        first = min(earlier.created_at, self._first_queued.pop(earlier.id, earlier.created_at))
        self._first_queued[later.id] = min(first, self._first_queued.get(later.id, first))
        if earlier.id in self._check:
            self._check.discard(earlier.id)
            self._check.add(later.id)
        if earlier.id in self._unsure:
            unsure = self._unsure.pop(earlier.id)
            self._unsure[later.id] = min(unsure, self._unsure.get(later.id, unsure))

    def _closes_for(self, rows: list[Delivery], earlier: Delivery) -> None:
        """``earlier`` (a turn's message, dropped) may have posted it unrecorded: its turn's
        close in the lane looks for that message (since ``earlier`` was queued) to close it,
        rather than post the closed turn beside it. Its nonce is not the turn message's:
        the close looks, however recent the attempt."""
        if earlier.id not in self._check and earlier.id not in self._unsure:
            return
        turn = earlier.payload.get("turn")
        for close in rows:
            if (
                close.kind == "close"
                and close.game_id == earlier.game_id
                and close.payload.get("turn") == turn
            ):
                first = min(
                    earlier.created_at, self._first_queued.get(earlier.id, earlier.created_at)
                )
                self._first_queued[close.id] = min(first, self._first_queued.get(close.id, first))
                self._check.add(close.id)

    def _since(self, d: Delivery) -> Delivery:
        """``d`` as delivered: queued when the first of the deliveries it stands for was."""
        first = self._first_queued.get(d.id)
        return d if first is None or first >= d.created_at else replace(d, created_at=first)

    async def _own(self, lane: int) -> bool:
        """Whether this process holds the lane's lease (claimed, or renewed at half of it:
        one write per lane every half a minute at most)."""
        now = self.now()
        if self._leases.get(lane, 0.0) - now > LEASE_SECONDS / 2:
            return True
        try:
            took, before = await self.outbox.take_lane(lane, self.owner, now, now + LEASE_SECONDS)
        except Exception as e:
            log.warning("channel %d: its lane not claimed: %s", lane, judge(e))
            self._hold(lane, backoff(self._failures.get(lane, 0) + 1, self.rng))
            return False
        if not took:
            self._leases.pop(lane, None)
            self._held_by_others[lane] = now + LEASE_SECONDS / 4  # look again then
            log.info("channel %d: delivered by another process; left to it", lane)
            return False
        self._held_by_others.pop(lane, None)
        if self._leases.get(lane, 0.0) <= now:
            self._wake.set()  # the worker looks every HELD_POLL_SECONDS from now on
        if before != self.owner:
            # Taken from another owner (or this process before a restart): what it was
            # delivering may have landed without being recorded.
            self._taken_over.add(lane)
        self._leases[lane] = now + LEASE_SECONDS
        return True

    async def _keep(self, lane: int) -> None:
        """Keep the lane's lease while a delivery in it is under way (cancelled when it
        ends): renewed at half of it, looked at every ``KEEP_SECONDS``."""
        while True:
            await asyncio.sleep(KEEP_SECONDS)
            if not await self._own(lane):
                log.warning("channel %d: its lease was lost during a delivery", lane)
                return

    def _hold(self, lane: int, seconds: float) -> None:
        """No attempt in the lane for ``seconds`` (in memory: whatever the database does)."""
        self._not_before[lane] = max(self._not_before.get(lane, 0.0), self.now() + seconds)
        self._wake.set()  # the worker recomputes when to look next

    async def _attempt(
        self, d: Delivery, reply: Reply | None
    ) -> Made | Landed | Failure | bool | None:
        """Deliver ``d`` once: what to record of it (made, or an edit landed; a failure), or
        False: nothing to record, the lane goes on (its game was orphaned), or None: the
        lane must wait (Discord counts many invalid requests)."""
        done = self._unrecorded.pop(d.id, None)
        if done is None:
            wait = self.guard.wait() if reply is None else 0.0
            if wait > 0:  # Discord counts many invalid requests: every lane slows down
                self._hold(d.channel_id, wait)
                return None
            unsure = self._unsure.get(d.id)
            check = d.id in self._check or (
                unsure is not None and self.now() - unsure > self.nonce_trust
            )
            try:
                done = await self.couriers.deliver(d, reply, check=check)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                if maybe_made(e):
                    self._unsure.setdefault(d.id, self.now())
                failure = await self._judged(d, e)
                return failure if failure is not None else False  # orphaned: the lane goes on
            self._check.discard(d.id)
            self._unsure.pop(d.id, None)
            self._first_queued.pop(d.id, None)
        self._failures.pop(d.channel_id, None)
        if done.again_harmless and not done.fields and not done.then:
            return Landed(d)
        return Made(d, done.then, done.fields)

    async def _going_again(self, d: Delivery) -> None:
        """A delivery landed: its channel goes through again if it was paused (and the host,
        told of it, will be told again if it comes back)."""
        if d.channel_id in self._paused:
            self._paused.discard(d.channel_id)
            log.info("channel %d: deliveries go through again", d.channel_id)
            if d.game_id is not None:
                with contextlib.suppress(Exception):
                    problem = f"forbidden:{d.channel_id}"
                    await self.orphans.problem_solved(d.game_id, problem)

    # ---- failures ----------------------------------------------------------------------

    async def _judged(self, d: Delivery, error: Exception) -> Failure | None:
        """Judge a failed attempt, log it, and hold the lane (in memory first: a failure
        that cannot be recorded still waits): what to record of it (when to try again, or
        that it is given up), or None when its channel is gone (the game is orphaned)."""
        verdict = judge(error)
        lane = d.channel_id
        attempt = d.attempts + 1
        failures = self._failures[lane] = self._failures.get(lane, 0) + 1
        now = self.now()
        wait = backoff(max(attempt, failures), self.rng, verdict)
        self._hold(lane, wait)
        if (
            verdict.kind == "forbidden"
            and verdict.code == MISSING_ACCESS
            and await self._server_gone(d)
        ):
            verdict = Verdict("gone", verdict.route, verdict.status, verdict.code, "removed")
        if verdict.kind == "gone" and d.game_id is not None and lane > 0:
            why = "guild" if verdict.reason == "removed" or verdict.code == 10004 else "channel"
            log.warning(
                "delivery %d (%s, game %d, channel %d): %s; the game is orphaned",
                d.id,
                d.kind,
                d.game_id,
                lane,
                verdict,
            )
            await self._orphan(d, why)
            return None
        give_up = verdict.kind in ("rejected", "gone") or now - d.created_at > MAX_AGE_SECONDS
        if verdict.kind == "bug":
            log.error(
                "delivery %d (%s, game %s) failed unexpectedly (attempt %d)",
                d.id,
                d.kind,
                d.game_id,
                attempt,
                exc_info=error,
            )
            give_up = give_up or attempt >= BUG_ATTEMPTS
        if give_up:
            log.error(
                "delivery %d (%s, game %s, channel %d) given up after %d attempts: %s",
                d.id,
                d.kind,
                d.game_id,
                lane,
                attempt,
                verdict,
            )
        elif verdict.kind != "bug":
            log.warning(
                "delivery %d (%s, game %s, channel %d) attempt %d failed: %s; again in %.0f s",
                d.id,
                d.kind,
                d.game_id,
                lane,
                attempt,
                verdict,
                wait,
            )
        outcome = Failed(
            d, attempts=attempt, due_at=now + wait, error=str(verdict), give_up=give_up, now=now
        )
        return Failure(outcome, verdict)

    async def _failed(self, failure: Failure, error: Exception | None) -> bool:
        """A failure was recorded (or not: ``error``): the lane goes on past a delivery
        given up (its host told if Discord rejected it), a channel that refuses the bot is
        paused (its host told); whether the lane may go on."""
        d, verdict = failure.outcome.delivery, failure.verdict
        lane = d.channel_id
        if error is not None:
            log.warning("delivery %d: its failure not recorded: %s", d.id, judge(error))
            return False
        if failure.outcome.give_up:
            self._not_before.pop(lane, None)  # the lane goes on with what follows
            self._failures.pop(lane, None)
            if verdict.kind == "rejected" and d.game_id is not None:
                await self._tell_host(d, "rejected", "delivery.rejected", _rejected(verdict))
        elif verdict.kind == "forbidden":
            await self._forbidden(d)
        self._wake.set()  # the worker takes it from here, when it is due
        return failure.outcome.give_up

    async def _server_gone(self, d: Delivery) -> bool:
        """Whether a 50001 Missing Access means the bot is no longer in the server (not a
        channel hidden from it): Discord refuses it the server itself (asked once per such
        failure, which waits its backoff: the removal's event may have been missed while the
        bot was away)."""
        if d.guild_id is None or not self.client.is_ready():
            return False
        try:
            await self.client.fetch_guild(d.guild_id)
        except (discord.Forbidden, discord.NotFound):
            return True
        except Exception:
            return False
        return False

    async def _orphan(self, d: Delivery, why: str) -> None:
        """The game's channel is gone: the game is orphaned (nothing more is sent there; its
        host is told once)."""
        if d.game_id is None:
            return
        try:
            await self.orphans.orphan(d.game_id, "guild" if why == "guild" else "channel")
        except Exception as e:
            log.warning("game %d: not orphaned yet: %s", d.game_id, judge(e))
            return
        self._paused.discard(d.channel_id)
        self._not_before.pop(d.channel_id, None)

    async def _forbidden(self, d: Delivery) -> None:
        """The channel refuses the bot: pause its lane (its deliveries are tried every few
        minutes) and tell the game's host once, by DM, what the bot is missing there."""
        self._paused.add(d.channel_id)
        if d.game_id is None:
            return
        row = await self.orphans.game_row(d.game_id)
        if row is None:
            return
        missing = self.missing_permissions(row.guild_id, row.channel_id)
        params = {
            "channel": f"<#{row.channel_id}>",
            "permissions": {"list": [text_of(f"permission.{p}") for p in missing]},
        }
        if await self._tell_host(d, f"forbidden:{row.channel_id}", "delivery.forbidden", params):
            log.warning(
                "channel %d: permissions missing (%s); the host of game %d is told",
                d.channel_id,
                ", ".join(missing),
                d.game_id,
            )

    async def _tell_host(self, d: Delivery, problem: str, key: str, params: dict[str, Any]) -> bool:
        """Tell the game's host of ``problem`` by DM, once (the game service queues it):
        whether they are told now."""
        assert d.game_id is not None
        try:
            told = await self.orphans.tell_host(d.game_id, problem, key, params)
        except Exception as e:
            log.warning("game %d: its host not told of %s: %s", d.game_id, problem, judge(e))
            return False
        if told:
            self._wake.set()
        return told

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
        is not delivered stays queued for the next start); the lanes are let go."""
        await cancel(self._loop_task)
        self._loop_task = None
        running = [t for t in self._tasks.values() if not t.done()]
        if running and timeout > 0:
            await asyncio.wait(running, timeout=timeout)
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)
        self._tasks.clear()
        await self.outbox.stop()  # the edits that landed removed (else made again at start)
        if self._leases:
            self._leases.clear()
            with contextlib.suppress(Exception):  # else they run out within a minute
                await self.outbox.let_lanes_go(self.owner)

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
        delivering itself, nor waits, nor another process holds); returns how long until
        the next one is due. Failed rows older than ``PRUNE_AFTER_SECONDS`` are pruned."""
        rows = await self.outbox.due(self.shards)
        now = self.now()
        await self._prune(now)
        failed = await self.outbox.given_up_count(self.shards)
        if time.monotonic() - self._kinds_at > KINDS_EVERY_SECONDS:  # for the health file
            self._kinds_at = time.monotonic()
            kinds: dict[str, tuple[int, float]] = {}
            for d in await self.outbox.given_up(self.shards):
                count, oldest = kinds.get(d.kind, (0, now))
                kinds[d.kind] = (count + 1, min(oldest, d.failed_at or d.due_at))
            self._kinds = tuple((k, n, t) for k, (n, t) in sorted(kinds.items()))
        heads: dict[int, Delivery] = {}
        for d in rows:
            heads.setdefault(d.channel_id, d)
        self.backlog = Backlog(
            len(rows),
            min((d.created_at for d in rows), default=None),
            failed,
            len(self._paused),
            self._kinds,
        )
        soonest = POLL_SECONDS
        if any(until > now for until in self._leases.values()):
            soonest = HELD_POLL_SECONDS  # another process may queue in a lane held here
        for lane, head in heads.items():
            task = self._tasks.get(lane)
            if task is not None and not task.done():
                continue
            fast = self.outbox.queued_at(lane)
            if fast is not None and time.monotonic() - fast < FAST_SECONDS:
                soonest = min(soonest, FAST_SECONDS)
                continue
            due = max(head.due_at - now, self._waiting(lane))
            if due > 0:
                soonest = min(soonest, due)
                continue
            self._tasks[lane] = asyncio.create_task(self._lane(lane), name=f"af-lane-{lane}")
        return soonest

    async def _prune(self, now: float) -> None:
        if now - self._pruned_at < PRUNE_EVERY_SECONDS:
            return
        self._pruned_at = now
        try:
            gone = await self.outbox.prune_given_up(now - PRUNE_AFTER_SECONDS)
        except Exception as e:
            log.warning("deliveries: failed ones not pruned: %s", judge(e))
            return
        if gone:
            log.info("deliveries: %d given up more than %d days ago pruned", gone, 30)
        if self.owners is not None:
            try:
                await self.owners.prune(now)
            except Exception as e:
                log.warning("interactions: their owners not pruned: %s", judge(e))

    async def _lane(self, lane: int) -> None:
        try:
            await self._drain(lane)
        except asyncio.CancelledError:
            raise
        except Exception as e:
            log.warning("channel %d: deliveries stopped: %s", lane, judge(e))
            self._hold(lane, backoff(self._failures.get(lane, 0) + 1, self.rng))
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
            rows = await self.outbox.due(self.shards)
            now = self.now()
            lanes: dict[int, Delivery] = {}
            for d in rows:
                lanes.setdefault(d.channel_id, d)
            due = [
                lane
                for lane, head in lanes.items()
                if head.due_at <= now and self._waiting(lane) <= 0
            ]
            if not due:
                await self.outbox.forget_landed()
                return
            for lane in due:
                try:
                    await self._drain(lane)
                except Exception as e:
                    log.warning("channel %d: deliveries stopped: %s", lane, judge(e))

    def wake(self) -> None:
        """Look for due deliveries now (after the clock moved, in tests)."""
        self._wake.set()


def _rejected(verdict: Verdict) -> dict[str, Any]:
    """What the host is told of a body Discord rejects."""
    return {
        "route": verdict.route,
        "reason": f"{verdict.status}/{verdict.code} {verdict.reason}"
        + (f" ({', '.join(verdict.fields)})" if verdict.fields else ""),
    }


__all__ = [
    "FAST_SECONDS",
    "HELD_POLL_SECONDS",
    "KEEP_SECONDS",
    "LEASE_SECONDS",
    "MAX_AGE_SECONDS",
    "POLL_SECONDS",
    "PRUNE_AFTER_SECONDS",
    "Backlog",
    "DeliveryWorker",
]

"""What the delivery worker (bot/discord/delivery.py) starts from: its timings (the
lease, the polls, the nonce's trust, when failed rows are given up and pruned), the
permissions it needs in a channel, the backlog it reports to the health check, its name
as a lane's owner, and its state in memory (per lane: its lock and task, its lease, its
backoff, its pause; the deliveries landed or unsure)."""

from __future__ import annotations

import asyncio
import os
import random
import socket
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Final

import discord

from bot.discord.couriers import Couriers, Delivered
from bot.discord.failures import InvalidRequests
from bot.discord.owners import InteractionOwners
from bot.play.orphan_service import OrphanService
from bot.play.outbox import Outbox
from bot.store.shards import Shards

POLL_SECONDS: Final = 30.0  # the worker looks for due deliveries at least this often
FAST_SECONDS: Final = 5.0  # a lane a command is delivering itself waits this long for it
MAX_AGE_SECONDS: Final = 3 * 86400.0  # a delivery failing this long is given up
# A lane's lease (renewed at half of it while in use): a lane of a process that died
# unannounced (kill -9, a crash) waits this long, a quarter of it more and the worker's next
# look at most, before another process takes it over (20 to 30 s in all).
LEASE_SECONDS: Final = 20.0
# While a delivery is under way (it may take longer than a lease: Discord's 5xx and resets
# are tried again within one call), its lease is renewed this often, so another process
# never takes the lane and makes the same delivery meanwhile.
KEEP_SECONDS: Final = LEASE_SECONDS / 4
# While it holds a lease, a process looks at the outbox this often: what another process
# over the database queued in one of its lanes (a command it took, in a rolling restart)
# waits no longer than this for it.
HELD_POLL_SECONDS: Final = 3.0
NONCE_SECONDS: Final = 120.0  # how long Discord's nonce is trusted to catch a repeated post
PRUNE_AFTER_SECONDS: Final = 30 * 86400.0  # failed rows are kept this long, then removed
PRUNE_EVERY_SECONDS: Final = 3600.0
KINDS_EVERY_SECONDS: Final = 60.0  # the given-up deliveries by kind, summed this often
PERMISSIONS: Final = ("view_channel", "send_messages", "attach_files", "read_message_history")


@dataclass(frozen=True, slots=True)
class Backlog:
    """What waits to be delivered (this process's shards): for the health check."""

    pending: int = 0
    oldest: float | None = None  # when the oldest pending one was queued
    failed: int = 0  # given up
    paused: int = 0  # channels waiting for their permissions
    # Given up, by kind: (how many, when the oldest of them was given up).
    failed_by_kind: tuple[tuple[str, int, float], ...] = ()

    def age(self, now: float) -> float:
        return max(0.0, now - self.oldest) if self.oldest is not None else 0.0


def process_name() -> str:
    """This process's name as a lane's owner: host, pid and a random part (a restarted
    process is another owner, whose predecessor's deliveries it checks)."""
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class DeliveryWorkerBase:
    """The delivery worker's settings and state in memory (``DeliveryWorker`` works on them)."""

    def __init__(
        self,
        client: discord.Client,
        orphans: OrphanService,
        couriers: Couriers,
        shards: Shards | None = None,
        *,
        outbox: Outbox,
        clock: Callable[[], float],
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        rng: random.Random,
        guard: InvalidRequests,
        owner: str,
        owners: InteractionOwners | None = None,
    ) -> None:
        self.client = client
        self.orphans = orphans  # a game's channel gone, its host told of a problem
        self.outbox = outbox  # its rows, lanes just queued in, edits that landed (the service's)
        self.couriers = couriers
        self.shards = shards
        self.clock = clock
        self.sleep = sleep
        self.rng = rng  # the backoff's jitter
        self.guard = guard  # the bot's count of Discord's invalid requests
        self.owner = owner  # this process, as a lane's owner (process_name)
        # How long a post's nonce is trusted to make a retry harmless (Discord keeps it "a
        # few minutes"); past it, a delivery that may have landed is looked for first.
        self.nonce_trust = NONCE_SECONDS
        self._lanes: dict[int, asyncio.Lock] = {}
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._paused: set[int] = set()  # lanes whose channel lacks permissions
        self._unrecorded: dict[int, Delivered] = {}  # delivered, but the removal failed
        self._leases: dict[int, float] = {}  # lanes this process holds: lane -> until
        self._held_by_others: dict[int, float] = {}  # lanes to look at again after this
        self._not_before: dict[int, float] = {}  # lane -> no attempt before (backoff)
        self._failures: dict[int, int] = {}  # lane -> failed attempts in a row
        self._taken_over: set[int] = set()  # lanes taken from another owner, rows unread
        self._check: set[int] = set()  # deliveries to look for before making them again
        self._unsure: dict[int, float] = {}  # delivery -> when it failed, maybe made
        # A turn delivery standing for earlier ones dropped: when the first was queued.
        self._first_queued: dict[int, float] = {}
        self._wake = asyncio.Event()
        self._loop_task: asyncio.Task[None] | None = None
        self._pruned_at = -float("inf")
        self._kinds_at = -float("inf")  # when the given-up deliveries were last summed up
        self._kinds: tuple[tuple[str, int, float], ...] = ()
        self.backlog = Backlog()
        # Who answers which interaction (bot.discord.owners): pruned with the failed rows.
        self.owners = owners

    def now(self) -> float:
        return self.clock()

"""The bot built: its parts built once, here, each handed its ports when it is built.

``create_bot`` builds the Discord client (``bot.discord.client``) and gives it
``build_parts``, the one factory of its parts: the storage (named now, opened when the bot
logs in), the game service with its clock, AI, outbox, coach and readers
(``build_service``, which the demo and the tests use too), and the parts that talk to
Discord — the notifier, the announcer (with the renderer), the couriers, the delivery
worker (with the same outbox), the interactions' owners, the background work, the
heartbeat, and the cogs, each handed the parts it uses and its job of the game service
(``bot.play.jobs``; the client adds them when it logs in). Nothing is patched on later:
what a part uses is an argument of its constructor. Two callables are handed on purpose:
the client is given this factory (discord.py builds the client, and the parts need it: it
calls the factory once, with itself, in its constructor), and the heartbeat the backlog's
figures (read when it beats).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from bot.discord.announce import Announcer
from bot.discord.background import Background
from bot.discord.board_edits import BoardEdits
from bot.discord.client import AlienFrontiersBot, ShardedAlienFrontiersBot
from bot.discord.cogs.channel_settings import ChannelSettings
from bot.discord.cogs.info import Info
from bot.discord.cogs.learn import Learn
from bot.discord.cogs.lobby import Lobby
from bot.discord.cogs.notifications import Notifications
from bot.discord.cogs.play import Play
from bot.discord.cogs.records import Records
from bot.discord.cogs.seats import Seats
from bot.discord.couriers import Couriers
from bot.discord.delivery import Deliveries
from bot.discord.delivery_base import process_name
from bot.discord.failures import InvalidRequests
from bot.discord.health import Heartbeat
from bot.discord.notify import Notifier
from bot.discord.owners import InteractionOwners
from bot.discord.parts import Parts
from bot.discord.pictures import Pictures, Renderer, default_renderer
from bot.play.ai import AIFactory, default_factory
from bot.play.coach_memory import Coach
from bot.play.outbox import Outbox
from bot.play.picks import Picks
from bot.play.readers import Readers
from bot.play.service import GameService
from bot.settings import Settings
from bot.store.shards import ALL, Shards
from bot.store.storage import Storage


def create_bot(
    settings: Settings | None = None,
    *,
    renderer: Renderer | None = None,
    clock: Callable[[], float] | None = None,
    ai_factory: AIFactory | None = None,
) -> AlienFrontiersBot:
    """Build the bot without connecting (settings from the environment if not given)."""
    if settings is None:
        from bot.settings import load_settings

        settings = load_settings()
    build = partial(
        build_parts,
        settings=settings,
        renderer=renderer or default_renderer,
        clock=clock or time.time,
        ai_factory=ai_factory or default_factory,
    )
    if settings.shards is not None:
        return ShardedAlienFrontiersBot(
            settings,
            build=build,
            clock=clock or time.time,
            shard_count=settings.shards.count,
            shard_ids=sorted(settings.shards.ids),
        )
    return AlienFrontiersBot(settings, build=build, clock=clock or time.time)


def build_parts(
    client: AlienFrontiersBot,
    *,
    settings: Settings,
    renderer: Renderer,
    clock: Callable[[], float],
    ai_factory: AIFactory,
) -> Parts:
    """The bot's parts over ``settings.database_url`` (opened when the bot logs in:
    ``GameService.open_database``), on the client's shards, with its count of Discord's
    invalid requests."""
    shards, guard = client.shard_set, client.invalid_requests
    storage = Storage.to_open(settings.database_url)
    service = build_service(
        storage,
        clock=clock,
        ai_factory=ai_factory,
        ai_budget_ms=settings.ai_budget_ms,
        shards=shards,
    )
    outbox = service.outbox
    notifier = Notifier(client, service)
    pictures = Pictures(service, renderer)
    boards = BoardEdits(client, pictures, guard)
    announcer = Announcer(pictures, boards)
    couriers = Couriers(client, service, announcer, notifier, pictures=pictures, boards=boards)
    owner = process_name()  # this process, as the owner of lanes and interactions
    owners = InteractionOwners(service, owner, clock)
    deliveries = Deliveries(
        client,
        service,
        couriers,
        shards,
        outbox=outbox,
        clock=clock,
        rng=random.Random(),  # the backoff's jitter
        guard=guard,
        owner=owner,
        owners=owners,
    )
    background = Background(client, settings, service, deliveries)
    heartbeat = (
        Heartbeat(
            client,
            service,
            settings.health_file,
            backlog=partial(backlog_figures, deliveries, guard, clock),
        )
        if settings.health_file
        else None
    )
    schedule_ai = background.schedule_ai
    cogs = (  # in the order the commands are listed
        Lobby(
            client,
            owners=owners,
            service=service,
            deliveries=deliveries,
            schedule_ai=schedule_ai,
        ),
        Seats(
            client,
            owners=owners,
            service=service,
            deliveries=deliveries,
            schedule_ai=schedule_ai,
        ),
        ChannelSettings(client, owners=owners, service=service, deliveries=deliveries),
        Notifications(
            client, owners=owners, service=service, readers=service.readers, notifier=notifier
        ),
        Play(
            client,
            owners=owners,
            service=service,
            readers=service.readers,
            picks=Picks(service),
            announcer=announcer,
            deliveries=deliveries,
            notifier=notifier,
            schedule_ai=schedule_ai,
            coach=service.coach,
        ),
        Info(client, owners=owners, service=service, readers=service.readers, pictures=pictures),
        Records(client, owners=owners, service=service, pictures=pictures, deliveries=deliveries),
        Learn(
            client,
            owners=owners,
            service=service,
            coach=service.coach,
            deliveries=deliveries,
            announcer=announcer,
            schedule_ai=schedule_ai,
        ),
    )
    return Parts(
        service=service,
        announcer=announcer,
        boards=boards,
        deliveries=deliveries,
        owners=owners,
        background=background,
        heartbeat=heartbeat,
        cogs=cogs,
    )


def random_seed() -> int:
    """A new game's seed, from the system's randomness."""
    return random.SystemRandom().randrange(2**62)


def build_service(
    storage: Storage,
    *,
    clock: Callable[[], float] = time.time,
    new_seed: Callable[[], int] = random_seed,
    ai_factory: AIFactory = default_factory,
    ai_budget_ms: int | None = None,
    shards: Shards = ALL,
) -> GameService:
    """The game service over ``storage``, handed its clock, what seeds a new game (by
    default the system's randomness), its outbox (the delivery worker is given
    the same one: ``service.outbox``), its coach's memory and its screen readers' modes.
    The bot's, the demo's and the tests' service are all built here."""
    return GameService(
        storage,
        clock=clock,
        new_seed=new_seed,
        ai_factory=ai_factory,
        ai_budget_ms=ai_budget_ms,
        shards=shards,
        outbox=Outbox(storage),
        coach=Coach(storage, clock),
        readers=Readers(storage, clock),
    )


def backlog_figures(
    deliveries: Deliveries, guard: InvalidRequests, clock: Callable[[], float]
) -> dict[str, Any]:
    """What waits to be delivered, for the health file."""
    backlog = deliveries.backlog
    now = clock()
    return {
        "pending": backlog.pending,
        "oldest_seconds": round(backlog.age(now), 1),
        "failed": backlog.failed,
        "paused_channels": backlog.paused,
        "failed_by_kind": {
            kind: [count, round(max(0.0, now - oldest))]
            for kind, count, oldest in backlog.failed_by_kind
        },
        "invalid_requests": guard.count(),
    }


__all__ = ["backlog_figures", "build_parts", "build_service", "create_bot", "random_seed"]

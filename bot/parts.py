"""The bot's parts, built once, here, each handed its ports when it is built.

``build_parts`` is the one factory: the storage (named now, opened when the bot logs in),
the outbox over it, the game service with its clock, AI and outbox, and the parts that
talk to Discord — the notifier, the announcer (with the renderer), the couriers, the
delivery worker (with the same outbox), the interactions' owners, the background work,
the members' moves and the heartbeat. Nothing is patched on later, and no part reaches
another through a callable: what a part uses is an argument of its constructor.

The client (``bot.client``) holds the parts and hands them to the cogs.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import discord

from bot.discord.announce import Announcer, Renderer
from bot.discord.background import Background
from bot.discord.couriers import Couriers
from bot.discord.delivery import Deliveries
from bot.discord.delivery_base import process_name
from bot.discord.failures import InvalidRequests
from bot.discord.notify import Notifier
from bot.discord.owners import InteractionOwners
from bot.health import Heartbeat
from bot.play.ai import AIFactory
from bot.play.outbox_service import Outbox
from bot.play.service import GameService
from bot.play.turns import Moves
from bot.settings import Settings
from bot.store.shards import Shards
from bot.store.storage import Storage


@dataclass(frozen=True, slots=True)
class Parts:
    """Everything the bot runs on; see the module docstring."""

    storage: Storage
    service: GameService
    notifier: Notifier
    announcer: Announcer
    couriers: Couriers
    deliveries: Deliveries
    owners: InteractionOwners
    background: Background
    moves: Moves
    heartbeat: Heartbeat | None


def build_parts(
    client: discord.Client,
    settings: Settings,
    *,
    shards: Shards,
    renderer: Renderer,
    clock: Callable[[], float] = time.time,
    ai_factory: AIFactory,
    guard: InvalidRequests,
) -> Parts:
    """The bot's parts over ``settings.database_url`` (not opened yet: ``storage.connect``)."""
    storage = Storage.to_open(settings.database_url)
    outbox = Outbox(storage)
    service = GameService(
        storage,
        clock=clock,
        ai_factory=ai_factory,
        ai_budget_ms=settings.ai_budget_ms,
        shards=shards,
        outbox=outbox,
    )
    notifier = Notifier(client, service)
    announcer = Announcer(client, service, renderer, guard)
    couriers = Couriers(client, service, announcer, notifier)
    owner = process_name()  # this process, as the owner of lanes and interactions
    owners = InteractionOwners(service, owner, clock)
    deliveries = Deliveries(
        client, service, couriers, shards, guard=guard, owner=owner, owners=owners
    )
    background = Background(client, settings, service, deliveries, notifier)
    heartbeat = (
        Heartbeat(
            client,
            storage,
            settings.health_file,
            backlog=partial(backlog_figures, deliveries, guard, clock),
        )
        if settings.health_file
        else None
    )
    return Parts(
        storage=storage,
        service=service,
        notifier=notifier,
        announcer=announcer,
        couriers=couriers,
        deliveries=deliveries,
        owners=owners,
        background=background,
        moves=Moves(service),
        heartbeat=heartbeat,
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


__all__ = ["Parts", "backlog_figures", "build_parts"]

"""The bot built: its parts built once, here, each handed its ports when it is built.

``build_bot`` builds the game service's jobs (``build_service``, which the demo and the
tests use too: the games in memory, the seat changes, and each job — lobby, seats, moves,
final results, turn clock, settings, orphans, messages, turn views, story, owners, records,
look, members — built once, in order, each handed the areas of the storage (opened when the
bot logs in), the clock, AI, outbox, coach and readers it uses and the jobs it asks;
``bot.play.jobs``), then the Discord client (``bot.discord.client``), given
``build_parts``, the one factory of its parts: the notifier, the announcer, the pictures
(with the renderer), the couriers (each kind its own, and the messenger they share), the
delivery worker (with the same outbox), the interactions' owners, the background work, the
heartbeat, and the cogs — each handed the parts it uses and only the jobs it asks (the
client adds the cogs when it logs in); the client's own parts hold only the jobs it asks
itself. It returns both (``Built``): the record of every job stays here, out of the
client's reach (the tests reach the jobs through it); ``create_bot`` returns the client.
Nothing is patched on later: what a part uses is an argument of its constructor. Three
callables are handed on purpose: the client is given ``build_parts`` (discord.py builds
the client, and the parts need it: it calls the factory once, with itself, in its
constructor), the heartbeat the backlog's figures (read when it beats), and the cogs that
may leave an AI seat to act the background work's ``schedule_ai`` (an AI turn started as
a task of the background work, which they do not hold).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
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
from bot.discord.delivery import DeliveryWorker
from bot.discord.delivery_base import process_name
from bot.discord.failures import InvalidRequests
from bot.discord.game_couriers import GameCourier
from bot.discord.health import Heartbeat
from bot.discord.member_couriers import MemberCourier
from bot.discord.messenger import Messenger
from bot.discord.notify import Notifier
from bot.discord.owners import InteractionOwners
from bot.discord.parts import Parts
from bot.discord.pictures import Pictures, Renderer, default_renderer
from bot.discord.turn_couriers import TurnCourier
from bot.play.ai import AIFactory, default_factory
from bot.play.channel_settings_service import ChannelSettingsService
from bot.play.coach_memory import Coach
from bot.play.command_digests import CommandDigests
from bot.play.database import GameDatabase
from bot.play.final_results_service import FinalResultsService
from bot.play.held_games import HeldGames
from bot.play.jobs import GameJobs
from bot.play.lobby_service import LobbyService
from bot.play.look_service import LookService
from bot.play.member_service import MemberService
from bot.play.message_service import MessageService
from bot.play.move_service import MoveService
from bot.play.orphan_service import OrphanService
from bot.play.outbox import Outbox
from bot.play.owner_service import OwnerService
from bot.play.picks import Picks
from bot.play.readers import Readers
from bot.play.records_service import RecordsService
from bot.play.seat_changes import Seating
from bot.play.seat_service import SeatService
from bot.play.story_service import StoryService
from bot.play.turn_clock_service import TurnClockService
from bot.play.turn_view import TurnViews
from bot.settings import Settings
from bot.store.shards import ALL, Shards
from bot.store.storage import Storage


@dataclass(frozen=True, slots=True)
class Built:
    """The bot as the factory built it: the Discord client (which holds its parts, never
    the record of every job) and the record of the game service's jobs, which stays
    here: the command line runs the client; the tests reach the jobs through the record."""

    client: AlienFrontiersBot
    jobs: GameJobs


def create_bot(
    settings: Settings | None = None,
    *,
    renderer: Renderer | None = None,
    clock: Callable[[], float] | None = None,
    ai_factory: AIFactory | None = None,
) -> AlienFrontiersBot:
    """Build the bot without connecting (settings from the environment if not given)."""
    return build_bot(settings, renderer=renderer, clock=clock, ai_factory=ai_factory).client


def build_bot(
    settings: Settings | None = None,
    *,
    renderer: Renderer | None = None,
    clock: Callable[[], float] | None = None,
    ai_factory: AIFactory | None = None,
) -> Built:
    """The client and the record of the jobs its parts were handed (see ``Built``)."""
    if settings is None:
        from bot.settings import load_settings

        settings = load_settings()
    clock = clock or time.time
    jobs = build_service(
        Storage.to_open(settings.database_url),
        clock=clock,
        ai_factory=ai_factory or default_factory,
        ai_budget_ms=settings.ai_budget_ms,
        shards=settings.shards or ALL,
    )
    build = partial(
        build_parts,
        jobs=jobs,
        settings=settings,
        renderer=renderer or default_renderer,
        clock=clock,
    )
    if settings.shards is not None:
        client: AlienFrontiersBot = ShardedAlienFrontiersBot(
            settings,
            build=build,
            clock=clock,
            shard_count=settings.shards.count,
            shard_ids=sorted(settings.shards.ids),
        )
    else:
        client = AlienFrontiersBot(settings, build=build, clock=clock)
    return Built(client, jobs)


def build_parts(
    client: AlienFrontiersBot,
    *,
    jobs: GameJobs,
    settings: Settings,
    renderer: Renderer,
    clock: Callable[[], float],
) -> Parts:
    """The bot's parts over the game service's ``jobs`` (their database opened when the bot
    logs in: ``bot.play.database.GameDatabase.open``), on the client's shards, with its count
    of Discord's invalid requests. Each part is handed the jobs it asks, never the record."""
    shards, guard = client.shard_set, client.invalid_requests
    games, readers, coach = jobs.games, jobs.readers, jobs.coach
    notifier = Notifier(client, jobs.members)
    pictures = Pictures(jobs.seats, renderer)
    boards = BoardEdits(client, pictures, guard)
    announcer = Announcer()
    messenger = Messenger(client, jobs.orphans, boards)
    couriers = Couriers(
        TurnCourier(
            messenger,
            turns=jobs.turns,
            announcer=announcer,
            notifier=notifier,
            pictures=pictures,
            boards=boards,
        ),
        MemberCourier(
            messenger, members=jobs.members, story=jobs.story, readers=readers, notifier=notifier
        ),
        GameCourier(messenger, story=jobs.story, readers=readers, pictures=pictures),
    )
    owner = process_name()  # this process, as the owner of lanes and interactions
    owners = InteractionOwners(jobs.owners, owner, clock)
    deliveries = DeliveryWorker(
        client,
        jobs.orphans,
        couriers,
        shards,
        outbox=jobs.outbox,
        clock=clock,
        rng=random.Random(),  # the backoff's jitter
        guard=guard,
        owner=owner,
        owners=owners,
    )
    background = Background(
        client,
        settings,
        games=games,
        moves=jobs.moves,
        turn_clock=jobs.turn_clock,
        messages=jobs.messages,
        orphans=jobs.orphans,
        shards=shards,
        deliveries=deliveries,
        clock=clock,
    )
    heartbeat = (
        Heartbeat(
            client,
            jobs.database,
            settings.health_file,
            backlog=partial(backlog_figures, deliveries, guard, clock),
        )
        if settings.health_file
        else None
    )
    schedule_ai = background.schedule_ai
    # What every cog is wired with as it loads: the owners of interactions, the gate that
    # refuses clicks while the bot stops, and /af, where its commands go (the client's).
    wiring: dict[str, Any] = {"owners": owners, "gate": client.gate, "af_group": client.af_group}
    cogs = (  # in the order the commands are listed
        Lobby(
            client,
            **wiring,
            games=games,
            lobby=jobs.lobby,
            seats=jobs.seats,
            channel_settings=jobs.channel_settings,
            orphans=jobs.orphans,
            records=jobs.records,
            deliveries=deliveries,
            schedule_ai=schedule_ai,
        ),
        Seats(
            client,
            **wiring,
            games=games,
            lobby=jobs.lobby,
            seats=jobs.seats,
            deliveries=deliveries,
            schedule_ai=schedule_ai,
        ),
        ChannelSettings(
            client,
            **wiring,
            games=games,
            channel_settings=jobs.channel_settings,
            deliveries=deliveries,
        ),
        Notifications(
            client,
            **wiring,
            games=games,
            members=jobs.members,
            readers=readers,
            notifier=notifier,
        ),
        Play(
            client,
            **wiring,
            games=games,
            moves=jobs.moves,
            messages=jobs.messages,
            orphans=jobs.orphans,
            readers=readers,
            picks=Picks(jobs.moves),
            announcer=announcer,
            deliveries=deliveries,
            notifier=notifier,
            schedule_ai=schedule_ai,
            coach=coach,
        ),
        Info(
            client,
            **wiring,
            games=games,
            look=jobs.look,
            seats=jobs.seats,
            readers=readers,
            pictures=pictures,
        ),
        Records(client, **wiring, records=jobs.records, pictures=pictures, deliveries=deliveries),
        Learn(
            client,
            **wiring,
            games=games,
            lobby=jobs.lobby,
            coach=coach,
            deliveries=deliveries,
            announcer=announcer,
            schedule_ai=schedule_ai,
        ),
    )
    return Parts(
        database=jobs.database,
        games=games,
        orphans=jobs.orphans,
        command_digests=jobs.command_digests,
        readers=readers,
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
) -> GameJobs:
    """The game service's jobs over ``storage``, each built once, here, and handed what it
    uses: the areas of the storage it reads and writes (``storage.game_rows``...; never
    the storage itself, which only the database's lifecycle holds: ``jobs.database``,
    ``bot.play.database``), whether the database is shared by several processes, the
    clock, what seeds a new game (by default the system's randomness), the AI,
    the outbox (the delivery worker is given the same one: ``jobs.outbox``), the coach's
    memory, the screen readers' modes, the games in memory, the seat changes, and the jobs
    it asks (each built before the jobs that ask it). The bot's, the demo's and the tests'
    jobs are all built here."""
    database = GameDatabase(storage)
    shared = database.shared
    outbox = Outbox(storage.deliveries)
    coach = Coach(clock, members=storage.members)
    readers = Readers(clock, members=storage.members)
    games = HeldGames(
        shards=shards,
        outbox=outbox,
        shared=shared,
        game_rows=storage.game_rows,
        seat_rows=storage.seat_rows,
        action_log=storage.action_log,
    )
    seating = Seating(games, clock=clock, seat_rows=storage.seat_rows)
    story = StoryService(
        readers=readers,
        game_rows=storage.game_rows,
        seat_rows=storage.seat_rows,
        action_log=storage.action_log,
        results=storage.results,
    )
    final_results = FinalResultsService(action_log=storage.action_log)
    moves = MoveService(
        games,
        seating,
        final_results,
        clock=clock,
        outbox=outbox,
        ai_factory=ai_factory,
        ai_budget_ms=ai_budget_ms,
        action_log=storage.action_log,
    )
    channel_settings = ChannelSettingsService(
        games,
        seating,
        clock=clock,
        seat_rows=storage.seat_rows,
        server_settings=storage.server_settings,
    )
    return GameJobs(
        store=storage,
        database=database,
        command_digests=CommandDigests(storage.meta),
        outbox=outbox,
        coach=coach,
        readers=readers,
        games=games,
        seating=seating,
        story=story,
        turns=TurnViews(
            games, story, clock=clock, readers=readers, coach=coach, members=storage.members
        ),
        final_results=final_results,
        moves=moves,
        channel_settings=channel_settings,
        lobby=LobbyService(
            games,
            seating,
            moves,
            channel_settings,
            clock=clock,
            new_seed=new_seed,
            game_rows=storage.game_rows,
            seat_rows=storage.seat_rows,
        ),
        seats=SeatService(
            seating, clock=clock, action_log=storage.action_log, members=storage.members
        ),
        turn_clock=TurnClockService(
            games,
            seating,
            clock=clock,
            game_rows=storage.game_rows,
            seat_rows=storage.seat_rows,
            members=storage.members,
        ),
        orphans=OrphanService(
            games,
            clock=clock,
            game_rows=storage.game_rows,
            host_notices=storage.host_notices,
        ),
        messages=MessageService(
            games, clock=clock, game_rows=storage.game_rows, deliveries=storage.deliveries
        ),
        owners=OwnerService(shared=shared, interactions=storage.interactions),
        records=RecordsService(
            clock=clock,
            game_rows=storage.game_rows,
            seat_rows=storage.seat_rows,
            action_log=storage.action_log,
            results=storage.results,
        ),
        look=LookService(
            games,
            game_rows=storage.game_rows,
            seat_rows=storage.seat_rows,
            action_log=storage.action_log,
            deliveries=storage.deliveries,
        ),
        members=MemberService(
            games,
            story,
            clock=clock,
            readers=readers,
            members=storage.members,
            results=storage.results,
            seat_rows=storage.seat_rows,
        ),
    )


def backlog_figures(
    deliveries: DeliveryWorker, guard: InvalidRequests, clock: Callable[[], float]
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


__all__ = [
    "Built",
    "backlog_figures",
    "build_bot",
    "build_parts",
    "build_service",
    "create_bot",
    "random_seed",
]

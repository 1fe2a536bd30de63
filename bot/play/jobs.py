"""The game service's jobs (``GameJobs``), each its own object, built once by
``bot.factory.build_service`` and each handed at construction what it uses: the areas of
the storage it reads and writes (``store.game_rows``, ``store.action_log``...: never the
storage as a whole; whether the database is shared by several processes as a fact,
``shared``), the clock, the outbox, the coach and the screen readers' modes, the games in
memory (``bot.play.held_games.HeldGames``, one object every job shares), the seat changes
several jobs make (``bot.play.seat_changes.Seating``), and the other jobs it asks.

Two ports that are no game's job: ``database`` (``bot.play.database.GameDatabase``), the
database's lifecycle (opened when the bot logs in, closed when it stops, asked by the
heartbeat), the one object holding the storage as a whole; and ``command_digests``
(``bot.play.command_digests``), the digest of the slash commands last synced, for the
client that syncs them.

The jobs, and who asks whom (no job asks one built after it):

- ``story`` (``story_service``): a game's record as its messages show it, as committed;
- ``turns`` (``turn_view``): a turn as its messages show it, read once per delivery (asks
  the story);
- ``final_results`` (``final_results_service``): a finished game's record;
- ``moves`` (``move_service``): moves, undo, AI moves and the commit (asks the final results);
- ``channel_settings`` (``channel_settings_service``): a server's defaults and a game's
  settings;
- ``lobby`` (``lobby_service``): a lobby, its start, and its end before its end (asks the
  moves to commit the start, the channel settings for the server's clock);
- ``seats`` (``seat_service``): seats changing hands, members away;
- ``turn_clock`` (``turn_clock_service``): the turn clock's reminders and timeouts;
- ``orphans`` (``orphan_service``): games that lost their channel, a host told of a
  problem once;
- ``messages`` (``message_service``): a game's turn message posted again, its id recorded;
- ``owners`` (``owner_service``): which process acts on an interaction;
- ``records`` (``records_service``): finished games, ratings and seasons;
- ``look`` (``look_service``): a channel's game looked at;
- ``members`` (``member_service``): a member's notices, DMs and games.

Each part of Discord's side (``bot.discord``) is handed only the jobs it uses; none is
handed this record, not even the client: it stays with the factory (``bot.factory.
Built``), and the tests and the demo reach the jobs through it. Discord's side asks the
jobs, never the storage.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.play.channel_settings_service import ChannelSettingsService
from bot.play.coach_memory import Coach
from bot.play.command_digests import CommandDigests
from bot.play.database import GameDatabase
from bot.play.final_results_service import FinalResultsService
from bot.play.held_games import HeldGames
from bot.play.lobby_service import LobbyService
from bot.play.look_service import LookService
from bot.play.member_service import MemberService
from bot.play.message_service import MessageService
from bot.play.move_service import MoveService
from bot.play.orphan_service import OrphanService
from bot.play.outbox import Outbox
from bot.play.owner_service import OwnerService
from bot.play.readers import Readers
from bot.play.records_service import RecordsService
from bot.play.seat_changes import Seating
from bot.play.seat_service import SeatService
from bot.play.story_service import StoryService
from bot.play.turn_clock_service import TurnClockService
from bot.play.turn_view import TurnViews
from bot.store.storage import Storage


@dataclass(frozen=True, slots=True)
class GameJobs:
    """The game service's jobs as the factory built them, with the ports they share."""

    store: Storage  # the tests' way to the storage; no job and no part is handed it
    database: GameDatabase
    command_digests: CommandDigests
    outbox: Outbox
    coach: Coach
    readers: Readers
    games: HeldGames
    seating: Seating
    story: StoryService
    turns: TurnViews
    final_results: FinalResultsService
    moves: MoveService
    channel_settings: ChannelSettingsService
    lobby: LobbyService
    seats: SeatService
    turn_clock: TurnClockService
    orphans: OrphanService
    messages: MessageService
    owners: OwnerService
    records: RecordsService
    look: LookService
    members: MemberService


__all__ = ["GameJobs"]

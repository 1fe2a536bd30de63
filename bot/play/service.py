"""The game service: lobbies, moves, undo and AI moves on stored games, with no Discord in it.

The database is the authority. A game is loaded by replaying its action log (and
checked against its snapshot), kept in memory while it is active, and every
change is committed before the caller may tell anyone about it. Each game has an
``asyncio.Lock``: callers hold it (``async with game.lock``) around a move *and*
the messages that announce it, so moves on one game are applied one at a time and
announced in order.

``GameService`` is the service's jobs, each a module, combined on one database and one set
of games in memory: the lobby, the start and the end before the end (``lobby_service``),
seats changing hands and members away (``seat_service``), moves, undo, AI moves and the
commit (``move_service``), a finished game's record (``final_results_service``), the turn
clock's reminders and timeouts (``timeout_service``), a server's defaults and a game's
settings (``settings_service``), games that lost their channel and a host told of a problem
once (``orphan_service``), the ids of a game's messages (``message_service``), a game's
record as its messages show it (``story_service``) and a turn as its messages show it, read
once per delivery (``turn_view``), which process acts on an interaction (``owner_service``);
and what the commands read: finished games, ratings and seasons (``records_service``), a
channel's game looked at (``look_service``), a member's notices, DMs and games
(``member_service``). What they share is in ``bot.play.service_base``. Discord's side
(``bot.discord``) asks these, never the storage.
"""

from __future__ import annotations

from bot.play.final_results_service import FinalResultsService
from bot.play.lobby_service import LobbyService
from bot.play.look_service import LookService
from bot.play.member_service import MemberService
from bot.play.message_service import MessageService
from bot.play.move_service import MoveService
from bot.play.orphan_service import OrphanService
from bot.play.owner_service import OwnerService
from bot.play.records_service import RecordsService
from bot.play.seat_service import SeatService
from bot.play.settings_service import SettingsService
from bot.play.story_service import StoryService
from bot.play.timeout_service import TimeoutService
from bot.play.turn_view import TurnViews


class GameService(
    LobbyService,
    SeatService,
    MoveService,
    FinalResultsService,
    TimeoutService,
    SettingsService,
    OrphanService,
    MessageService,
    TurnViews,
    StoryService,
    OwnerService,
    RecordsService,
    LookService,
    MemberService,
):
    """Every change to games goes through here; see the module docstring for locking."""

"""What each of Discord's features may ask of the game service: one ``Protocol`` per job.

``GameService`` (``bot.play.service``) is one object over one database and one set of
games in memory; its 90-odd public names are every job's. A cog is handed the service as
the one job it does (``bot.factory.build_parts`` hands it; mypy checks there that the
service does each job), so its reader sees here what it can ask, and nothing else:

- ``LobbyJob``: a lobby opened, joined, filled with AI seats, started or ended, a rematch
  (the Lobby cog);
- ``SeatsJob``: seats changing hands, members leaving, kicked, replaced, away (Seats);
- ``TableSettingsJob``: a game's and a server's settings (Settings);
- ``NotifyJob``: how a member is told of their turn, and their games (Notifications);
- ``PlayJob``: the game a move, an undo or a panel's click is for, the panel re-posted, an
  orphaned game continued (Play); ``PicksJob``: a pick checked, committed and taken back
  (``bot.play.picks.Picks``, which the Play cog is given);
- ``LookJob``: a game looked at: its status, its log, what did not reach the channel (Info);
- ``RecordsJob``: finished games, ratings, seasons, replays (Records);
- ``LessonsJob``: guided games (Learn).

What several share: ``FindsGames`` (a channel's game, a game by id) and ``HostsOrphans``
(the games a member hosts whose channel is gone).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from bot.play.ai import Level
    from bot.play.games import ActiveGame, MoveResult
    from bot.play.look_service import PlayedGame
    from bot.play.records_service import MemberRating, PlayedMoves, Rematch, Standings
    from bot.play.service_base import SeatChange
    from bot.store.clock_settings import ClockSettings
    from bot.store.game_config import GameSettings
    from bot.store.rating_store import Season
    from bot.store.rows import ActionRow, Delivery, GameRow, ResultRow, SeatRow
    from engine import Action


class FindsGames(Protocol):
    """A game in its lobby or in play: the channel's, or by id."""

    async def require(self, channel_id: int | None) -> ActiveGame: ...

    async def in_channel(self, channel_id: int) -> ActiveGame | None: ...

    async def by_id(self, game_id: int) -> ActiveGame | None: ...


class HostsOrphans(Protocol):
    """The games a member hosts whose channel is gone (offered to ``game:`` options)."""

    async def orphaned(self, user_id: int) -> list[GameRow]: ...


class LobbyJob(FindsGames, HostsOrphans, Protocol):
    """A lobby opened (with the server's defaults), joined, given AI seats, started or
    ended; an orphaned game ended; a rematch of a finished game."""

    async def default_clock(self, guild_id: int | None) -> ClockSettings: ...

    async def default_language(self, guild_id: int | None) -> str | None: ...

    async def create(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        host_name: str | None,
        max_players: int,
        locale: str,
        config: GameSettings | None = None,
        invited: Sequence[int] = (),
        host_shown: str = "",
    ) -> ActiveGame: ...

    async def rematch_of(self, game_id: int, channel_id: int | None) -> Rematch | None: ...

    async def add_ai(
        self, game: ActiveGame, user_id: int, level: Level, *, announce: bool = True
    ) -> SeatRow: ...

    async def join(self, game: ActiveGame, user_id: int, name: str) -> None: ...

    async def take_offer(self, game: ActiveGame, user_id: int, name: str) -> SeatChange: ...

    async def rejoin(self, game: ActiveGame, user_id: int, name: str) -> SeatChange: ...

    async def start(self, game: ActiveGame, user_id: int) -> MoveResult: ...

    async def abort(
        self, game: ActiveGame, user_id: int, can_manage: bool, by: str = ""
    ) -> SeatChange | None: ...

    async def end_orphaned(
        self, game_id: int, user_id: int, can_manage: bool = False
    ) -> GameRow: ...


class SeatsJob(FindsGames, Protocol):
    """Seats changing hands: a member leaving (and whether it counts, whether it ends the
    game), kicked or replaced by the host, away for some days."""

    def leaving_counts(self, game: ActiveGame) -> bool: ...

    def ends_without(self, game: ActiveGame, seat: int) -> bool: ...

    async def leave(self, game: ActiveGame, user_id: int) -> SeatChange: ...

    async def kick(
        self, game: ActiveGame, user_id: int, can_manage: bool, number: int, by: str = ""
    ) -> SeatChange: ...

    async def replace(
        self,
        game: ActiveGame,
        user_id: int,
        can_manage: bool,
        number: int,
        member_id: int,
        member_name: str,
        member_is_bot: bool,
        by: str = "",
    ) -> SeatChange: ...

    async def set_away(self, user_id: int, days: int) -> float | None: ...


class TableSettingsJob(Protocol):
    """A game's settings (its host's or a channel manager's) and a server's defaults."""

    async def in_channel(self, channel_id: int) -> ActiveGame | None: ...

    def check_manager(self, game: ActiveGame, user_id: int, can_manage: bool) -> None: ...

    async def configure(
        self,
        game: ActiveGame,
        user_id: int,
        can_manage: bool,
        by: str = "",
        *,
        language: str | None = None,
        clock: ClockSettings | None = None,
    ) -> bool: ...

    async def default_clock(self, guild_id: int | None) -> ClockSettings: ...

    async def default_language(self, guild_id: int | None) -> str | None: ...

    async def set_guild_clock(self, guild_id: int, clock: ClockSettings) -> None: ...

    async def set_guild_language(self, guild_id: int, language: str) -> None: ...


class NotifyJob(Protocol):
    """How a member is told it is their turn, the hint on opening DMs given, and the games
    they sit in."""

    async def set_turn_notice(self, user_id: int, mode: str, locale: str) -> None: ...

    async def dm_hint_given(self, user_id: int) -> None: ...

    async def games_of(self, user_id: int) -> list[GameRow]: ...

    async def by_id(self, game_id: int) -> ActiveGame | None: ...


class PlayJob(FindsGames, HostsOrphans, Protocol):
    """The game a move, an undo or a panel's click is for (as committed, at the panel's
    version), a pick played already, the turn message re-posted, an orphaned game
    continued in another channel."""

    async def as_committed(self, game_id: int) -> ActiveGame | None: ...

    def check_version(self, game: ActiveGame, version: int | None) -> None: ...

    async def first_result(self, game: ActiveGame, key: str | None) -> MoveResult | None: ...

    async def repost(self, game: ActiveGame) -> None: ...

    async def adopt(
        self,
        game_id: int,
        user_id: int,
        *,
        channel_id: int,
        guild_id: int | None,
        can_manage: bool = False,
        by: str = "",
    ) -> ActiveGame: ...


class PicksJob(Protocol):
    """A member's move checked, played and committed (or its first result, if its key was
    committed already), and taken back."""

    def check_version(self, game: ActiveGame, version: int | None) -> None: ...

    def check_move(
        self,
        game: ActiveGame,
        user_id: int | None,
        move: str | Action,
        *,
        seat: int | None = None,
        version: int | None = None,
    ) -> tuple[int, Action]: ...

    async def play(
        self,
        game: ActiveGame,
        user_id: int | None,
        move: str | Action,
        *,
        seat: int | None = None,
        version: int | None = None,
        key: str | None = None,
    ) -> MoveResult: ...

    async def first_result(self, game: ActiveGame, key: str | None) -> MoveResult | None: ...

    async def undo(
        self, game: ActiveGame, user_id: int, undone: Sequence[Action] = ()
    ) -> Action: ...


class LookJob(Protocol):
    """A channel's game looked at (in play, or the last one finished): its status with the
    clock and who is away, its log, what did not reach the channel."""

    async def played_in(self, channel_id: int | None) -> PlayedGame: ...

    async def by_id(self, game_id: int) -> ActiveGame | None: ...

    async def away(self, user_ids: list[int]) -> dict[int, float]: ...

    async def game_log(self, game_id: int) -> list[ActionRow]: ...

    async def undelivered(self, game_id: int) -> list[Delivery]: ...


class RecordsJob(Protocol):
    """Finished games kept: a member's record and rating, the seasons and their
    standings, a new season, a game's moves for its replay."""

    async def record_of(self, user_id: int, guild_id: int | None) -> list[ResultRow]: ...

    async def member_rating(
        self, guild_id: int | None, user_id: int, number: int | None, recent: int
    ) -> MemberRating: ...

    async def rating_curve(self, guild_id: int | None, user_id: int) -> list[int]: ...

    async def seasons_of(self, guild_id: int | None) -> list[Season]: ...

    async def season_standings(
        self, guild_id: int | None, number: int | None
    ) -> Standings | None: ...

    async def start_season(
        self, guild_id: int | None, channel_id: int, name: str, locale: str, can_manage: bool
    ) -> None: ...

    async def finished_games_here(
        self, guild_id: int | None, channel_id: int | None
    ) -> list[GameRow]: ...

    async def finished_game(
        self, guild_id: int | None, channel_id: int | None, game_id: int | None
    ) -> GameRow: ...

    async def moves_played(self, game_id: int) -> PlayedMoves: ...


class LessonsJob(Protocol):
    """Guided games: a member's, one started, one ended; the channel's game."""

    def tutorials_of(self, user_id: int) -> list[ActiveGame]: ...

    async def start_tutorial(
        self, *, guild_id: int | None, channel_id: int, user_id: int, name: str, locale: str
    ) -> ActiveGame: ...

    async def in_channel(self, channel_id: int) -> ActiveGame | None: ...

    async def abort(
        self, game: ActiveGame, user_id: int, can_manage: bool, by: str = ""
    ) -> SeatChange | None: ...


__all__ = [
    "FindsGames",
    "HostsOrphans",
    "LessonsJob",
    "LobbyJob",
    "LookJob",
    "NotifyJob",
    "PicksJob",
    "PlayJob",
    "RecordsJob",
    "SeatsJob",
    "TableSettingsJob",
]

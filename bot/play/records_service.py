"""The game service's records of finished games, as members ask for them: a member's record
(``/af stats``), their rating over the current season (its chart), their rating in a season
(``/af rating``), a season's table (``/af leaderboard``), a new season started and announced
(``/af season start``), a finished game found and its moves read again (``/af replay``),
and a finished game to play again (the Rematch button).

Ratings are kept per server and season (``bot.store.rating_store``): a season is named by
its number, newest first, and the current one is the newest while it has not ended.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Final

from bot.play import outbox
from bot.store.action_log_store import ActionLogStore
from bot.store.errors import SeasonChangedError, ServiceError
from bot.store.game_store import GameStore
from bot.store.rating_store import RatedChange, Season
from bot.store.ratings import Skill
from bot.store.result_store import ResultStore, SeasonNews
from bot.store.rows import Delivery, GameRow, ResultRow, SeatRow
from bot.store.seat_store import SeatStore
from bot.text.rating_text import season_name

# How often a season's start is tried when another command started one meanwhile.
SEASON_TRIES: Final = 3


@dataclass(frozen=True, slots=True)
class MemberRating:
    """A member's rating in the season asked for (``/af rating``). ``season`` is None before
    the server's first; ``table`` is that season's ratings by member; ``recent``, the
    member's latest rated games there, each with the number of players of its game (its
    place, for a game with no results kept). Where the member has no rating in ``season``,
    ``earlier`` is the last earlier season they were rated in, with its table."""

    season: Season | None
    table: dict[int, Skill] = field(default_factory=dict)
    recent: list[tuple[RatedChange, int]] = field(default_factory=list)
    earlier: Season | None = None
    earlier_table: dict[int, Skill] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Standings:
    """A season's table (``/af leaderboard``): each member's rating, and their (wins, rated
    games)."""

    season: Season
    table: dict[int, Skill]
    wins: dict[int, tuple[int, int]]


@dataclass(frozen=True, slots=True)
class PlayedMoves:
    """A finished game's seats' names and its moves, in order (what its replay plays)."""

    names: list[str]
    notations: list[str]


@dataclass(frozen=True, slots=True)
class Rematch:
    """A finished game to play again: its row, its seats, and the members who played it
    (seated at its end, or whose seat the AI took over), in seat order."""

    row: GameRow
    seats: list[SeatRow]
    members: list[int]


def season_numbered(seasons: list[Season], number: int | None) -> Season | None:
    """The season numbered ``number`` (a refusal if the server has none), or the current
    one (None before the server's first)."""
    if number is None:
        return seasons[0] if seasons else None
    found = [s for s in seasons if s.number == number]
    if not found:
        raise ServiceError("season.unknown", season=number)
    return found[0]


class RecordsService:
    """Finished games, ratings and seasons."""

    def __init__(
        self,
        *,
        clock: Callable[[], float],
        game_rows: GameStore,
        seat_rows: SeatStore,
        action_log: ActionLogStore,
        results: ResultStore,
    ) -> None:
        self._game_rows = game_rows
        self._seat_rows = seat_rows
        self._action_log = action_log
        self._results = results
        self.clock = clock

    async def record_of(self, user_id: int, guild_id: int | None) -> list[ResultRow]:
        """A member's results in the server's finished games, newest first (the seats they
        held at the end and played most of)."""
        rows = await self._results.results_of(user_id=user_id, guild_id=guild_id)
        return [result for _, result in rows]

    async def seasons_of(self, guild_id: int | None) -> list[Season]:
        """The server's seasons, newest first (none before its first rated game)."""
        return await self._results.seasons(guild_id) if guild_id is not None else []

    async def current_season(self, guild_id: int | None) -> Season | None:
        """The server's season in play: its newest, unless it ended."""
        seasons = await self.seasons_of(guild_id)
        return seasons[0] if seasons and seasons[0].ended_at is None else None

    async def rating_curve(self, guild_id: int | None, user_id: int) -> list[int]:
        """A member's shown rating after each of their rated games of the server's current
        season, in order (empty: no season in play, or none rated in it)."""
        season = await self.current_season(guild_id)
        if season is None:
            return []
        return [
            h.change.after.shown for h in await self._results.rating_history(season.id, user_id)
        ]

    async def member_rating(
        self, guild_id: int | None, user_id: int, number: int | None, recent: int
    ) -> MemberRating:
        """A member's rating in the season numbered ``number`` (the current one when None;
        ServiceError("season.unknown") when the server has no such season), with their
        ``recent`` latest rated games; or, where they have none in it, their rating in the
        last earlier season they played."""
        seasons = await self.seasons_of(guild_id)
        chosen = season_numbered(seasons, number)
        if chosen is None:
            return MemberRating(None)
        table = await self._results.season_table(chosen.id)
        if user_id not in table:
            for earlier in seasons:
                if earlier.number >= chosen.number:
                    continue
                skills = await self._results.season_table(earlier.id)
                if user_id in skills:
                    return MemberRating(chosen, table, earlier=earlier, earlier_table=skills)
            return MemberRating(chosen, table)
        history = await self._results.rating_history(chosen.id, user_id)
        games = [
            (h, len(await self._results.of_game(h.game_id)) or h.change.place)
            for h in history[-recent:]
        ]
        return MemberRating(chosen, table, games)

    async def season_standings(self, guild_id: int | None, number: int | None) -> Standings | None:
        """The table of the season numbered ``number`` (the current one when None; None
        before the server's first; ServiceError("season.unknown") for a number it never
        had)."""
        chosen = season_numbered(await self.seasons_of(guild_id), number)
        if chosen is None:
            return None
        table = await self._results.season_table(chosen.id)
        return Standings(chosen, table, await self._results.season_wins(chosen.id))

    async def start_season(
        self, guild_id: int | None, channel_id: int, name: str, locale: str, can_manage: bool
    ) -> None:
        """End the server's season (its table is kept) and start the next, ``name``d (Manage
        Server: ``can_manage``), announced in ``channel_id`` in ``locale`` (the server's
        language) through the outbox, with the commit that starts it: a failed post is
        posted again, never a reason to start another season."""
        if guild_id is None:
            raise ServiceError("settings.not_in_server")
        if not can_manage:
            raise ServiceError("season.admins_only")
        now = self.clock()
        name = " ".join(name.split())

        def announced(key: str, params: dict[str, object]) -> list[Delivery]:
            return [
                outbox.announcement(
                    guild_id, channel_id, now, key, params, locale=locale, reply=True
                )
            ]

        # Both announcements are made before the commit, from the current season as read
        # now (the storage picks one in its transaction: whether anything was rated in it);
        # if another command started a season meanwhile, they are made again.
        for attempt in range(SEASON_TRIES):
            seasons = await self._results.seasons(guild_id)
            current = seasons[0] if seasons and seasons[0].ended_at is None else None
            if current is None:  # the server's first season is opened with the start
                number = seasons[0].number + 1 if seasons else 1
                current = Season(0, guild_id, number, "", now, None)
            renamed = replace(current, name=name)
            following = replace(current, number=current.number + 1, name=name)
            news = SeasonNews(
                current.number,
                current.name,
                renamed=announced("season.started_first", {"season": season_name(renamed, locale)}),
                closed=announced(
                    "season.started",
                    {
                        "season": season_name(following, locale),
                        "previous": season_name(current, locale),
                        "number": current.number,
                    },
                ),
            )
            try:
                await self._results.start_season(guild_id, name, now, news=news)
                return
            except SeasonChangedError:
                if attempt == SEASON_TRIES - 1:
                    raise

    async def finished_game(
        self, guild_id: int | None, channel_id: int | None, game_id: int | None
    ) -> GameRow:
        """The finished game numbered ``game_id`` of this server, or (None) the channel's
        newest: ServiceError("replay.unknown") for a game that is not a finished game of the
        server, ("replay.none") when the channel has none."""
        if game_id is None:
            games = await self._results.finished_games(guild_id, channel_id)
            if not games:
                raise ServiceError("replay.none")
            return games[0]
        row = await self._game_rows.game(game_id) if 0 < game_id < 2**63 else None
        if row is None or row.guild_id != guild_id or row.status != "over":
            raise ServiceError("replay.unknown", game=game_id)
        return row

    async def finished_games_here(
        self, guild_id: int | None, channel_id: int | None
    ) -> list[GameRow]:
        """The server's finished games, the channel's first, each newest first."""
        games = await self._results.finished_games(guild_id, None)
        here = [g for g in games if g.channel_id == channel_id]
        return [*here, *(g for g in games if g.channel_id != channel_id)]

    async def moves_played(self, game_id: int) -> PlayedMoves:
        """A game's seats' names and every move of its log, in order."""
        seats = await self._seat_rows.seats(game_id)
        notations = [a.notation for a in await self._action_log.actions(game_id)]
        return PlayedMoves([s.name for s in seats], notations)

    async def rematch_of(self, game_id: int, channel_id: int | None) -> Rematch | None:
        """The finished game ``game_id`` of this channel, to play again (None when it is not
        one: not over, or of another channel)."""
        row = await self._game_rows.game(game_id)
        if row is None or row.status != "over" or row.channel_id != channel_id:
            return None
        seats = await self._seat_rows.seats(game_id)
        members = [
            u for s in seats if (u := s.user_id if s.user_id is not None else s.former_user_id)
        ]
        return Rematch(row, seats, members)

"""Storage of finished games: their results, and the seasons and ratings they make
(``bot.store.rating_store``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.store import rating_store
from bot.store.errors import SeasonChangedError
from bot.store.rating_store import RatedChange
from bot.store.ratings import Skill
from bot.store.rows import Deliveries, GameRow, ResultRow
from bot.store.shared_sql import StoreArea, game_row, queue_in, result_row


@dataclass(frozen=True, slots=True)
class SeasonNews:
    """What ``ResultStore.start_season`` queues with a season's start, made by its caller
    beforehand from the server's current season as it read it (``number`` and ``name``; the
    number the server's first season will have if it has none): ``renamed``, if nothing was
    rated in it (it is renamed and starts now: no season is closed), else ``closed`` (it is
    closed and the next one opened). The storage picks one in its transaction, which is
    what finds out, and runs no code of the caller's there."""

    number: int
    name: str
    renamed: Deliveries
    closed: Deliveries


class ResultStore(StoreArea):
    """The ``results`` table, and the ratings' tables through ``rating_store``."""

    async def of_game(self, game_id: int) -> list[ResultRow]:
        """A finished game's results, seat by seat."""
        rows = await self._all("SELECT * FROM results WHERE game_id = ? ORDER BY seat", (game_id,))
        return [result_row(r) for r in rows]

    async def results_of(
        self, *, user_id: int | None = None, guild_id: int | None = None
    ) -> list[tuple[GameRow, ResultRow]]:
        """Results of finished games (of one member, of one server, or both), newest first.
        A member's are the seats they held at the end and played most of (a seat the AI
        took from them, or one they were handed late, is not their result)."""
        where = ["g.status = 'over'"]
        params: list[object] = []
        if user_id is not None:
            where.append("r.user_id = ? AND r.ai_level IS NULL AND 2 * r.own_turns >= r.turns")
            params.append(user_id)
        if guild_id is not None:
            where.append("g.guild_id = ?")
            params.append(guild_id)
        rows = await self._all(
            "SELECT g.*, r.seat AS r_seat, r.user_id AS r_user_id, r.ai_level AS r_ai_level,"
            " r.name AS r_name, r.vp AS r_vp, r.vp_colonies AS r_vp_colonies,"
            " r.vp_territories AS r_vp_territories, r.vp_positron AS r_vp_positron,"
            " r.vp_cards AS r_vp_cards, r.winner AS r_winner,"
            " r.first_territory AS r_first_territory, r.place AS r_place,"
            " r.turns AS r_turns, r.own_turns AS r_own_turns, r.bot_turns AS r_bot_turns,"
            " r.played_by AS r_played_by"
            " FROM results r JOIN games g ON g.id = r.game_id"
            f" WHERE {' AND '.join(where)} ORDER BY g.id DESC, r.seat",
            params,
        )
        return [(game_row(r), result_row(r, prefix="r_")) for r in rows]

    async def finished_games(self, guild_id: int | None, channel_id: int | None) -> list[GameRow]:
        """Finished games of a server (or one of its channels), newest first."""
        if channel_id is not None:
            rows = await self._all(
                "SELECT * FROM games WHERE status = 'over' AND channel_id = ? ORDER BY id DESC",
                (channel_id,),
            )
        elif guild_id is None:  # games in DMs
            rows = await self._all(
                "SELECT * FROM games WHERE status = 'over' AND guild_id IS NULL ORDER BY id DESC"
            )
        else:
            rows = await self._all(
                "SELECT * FROM games WHERE status = 'over' AND guild_id = ? ORDER BY id DESC",
                (guild_id,),
            )
        return [game_row(r) for r in rows]

    async def games_by_id(self, game_ids: Iterable[int]) -> list[GameRow]:
        ids = sorted(set(game_ids))
        if not ids:
            return []
        marks = ", ".join("?" for _ in ids)
        rows = await self._all(f"SELECT * FROM games WHERE id IN ({marks})", ids)
        return [game_row(r) for r in rows]

    # ---- ratings and seasons (bot/store/rating_store.py) -----------------------------------

    async def seasons(self, guild_id: int) -> list[rating_store.Season]:
        """The server's seasons, newest first (none before its first rated game)."""
        return await rating_store.seasons(self.db, guild_id)

    async def season_table(self, season_id: int) -> dict[int, Skill]:
        return await rating_store.table(self.db, season_id)

    async def season_wins(self, season_id: int) -> dict[int, tuple[int, int]]:
        """Each member's (wins, rated games) in a season."""
        return await rating_store.wins(self.db, season_id)

    async def rating_history(self, season_id: int, user_id: int) -> list[RatedChange]:
        return await rating_store.history(self.db, season_id, user_id)

    async def rating_changes(self, game_id: int) -> list[RatedChange]:
        return await rating_store.of_game(self.db, game_id)

    async def start_season(
        self,
        guild_id: int,
        name: str,
        now: float,
        news: SeasonNews | None = None,
    ) -> tuple[rating_store.Season | None, rating_store.Season]:
        """Close the server's season (its table is kept) and start the next, ``name``d:
        (the season closed, if one was, the new one); ``news``: what must be shown of it
        (its announcement), queued in the same transaction. SeasonChangedError, and nothing
        written, if the current season is not the one ``news`` was made from."""
        async with self.db.transaction() as tx:
            closed, new = await rating_store.start_season(tx, self.db.dialect, guild_id, name, now)
            if news is not None:
                was = new if closed is None else closed  # the current season, as it was
                if was.number != news.number or (closed is not None and was.name != news.name):
                    raise SeasonChangedError(f"server {guild_id}: season {was.number}")
                await queue_in(tx, news.renamed if closed is None else news.closed)
        return closed, new

    async def rebuild_ratings(self) -> rating_store.Rebuilt:
        """Every rating recomputed from the stored results (``python -m bot ratings
        rebuild``), in one transaction."""
        async with self.db.transaction() as tx:
            return await rating_store.rebuild(tx)

"""Ratings and seasons in the database (tables of migration 7), in the SQL both databases
speak. The arithmetic is ``bot.store.ratings``'s; this module only reads and writes.

- ``seasons``: a server's seasons, numbered from 1; the open one (``ended_at`` NULL) is
  the current one. A server's first season opens with its first rated game.
- ``rated_games``: which finished games count, for which season, and in which order they
  were rated (``seq``): the stored fact ``rebuild`` replays.
- ``ratings``: each member's rating per season, as the last rated game left it.
- ``rating_changes``: what each rated game did to each member's rating (the game over
  message, ``/af rating``, the chart of ``/af stats``).

A game is rated in the transaction that records its results (``rate_game``). On
PostgreSQL, two games ending at once on one server take turns on the season's row
(``FOR UPDATE``), so neither update is lost; SQLite's write transactions take turns
anyway.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final, Protocol

from bot.store.db import Dialect, Row, Tx
from bot.store.ratings import Change, RatedSeat, Skill, rate

_CHANGE_COLUMNS: Final = (
    "seq, season_id, game_id, user_id, seat, place, mu_before, sigma_before, mu, sigma, games"
)


class Reader(Protocol):
    """A database or a transaction: anything that reads rows."""

    async def fetch(self, sql: str, params: Sequence[object] = ()) -> list[Row]: ...


@dataclass(frozen=True, slots=True)
class Season:
    """One season of a server: its number (from 1), its name ('' unless given)."""

    id: int
    guild_id: int
    number: int
    name: str
    started_at: float
    ended_at: float | None


@dataclass(frozen=True, slots=True)
class RatedChange:
    """A member's change in one rated game, with the game's order and season."""

    seq: int
    game_id: int
    season_id: int
    change: Change


def season_of(row: Row) -> Season:
    return Season(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        number=int(row["number"]),
        name=str(row["name"]),
        started_at=float(row["started_at"]),
        ended_at=None if row["ended_at"] is None else float(row["ended_at"]),
    )


def change_of(row: Row) -> RatedChange:
    games = int(row["games"])
    return RatedChange(
        seq=int(row["seq"]),
        game_id=int(row["game_id"]),
        season_id=int(row["season_id"]),
        change=Change(
            user_id=int(row["user_id"]),
            seat=int(row["seat"]),
            place=int(row["place"]),
            before=Skill(float(row["mu_before"]), float(row["sigma_before"]), games - 1),
            after=Skill(float(row["mu"]), float(row["sigma"]), games),
        ),
    )


async def open_season(tx: Tx, dialect: Dialect, guild_id: int, now: float) -> Season:
    """The server's current season (opened if it has none), locked until the transaction
    ends on PostgreSQL: whoever rates a game or starts a season on this server waits."""
    # Opened only if there is none; two processes opening it at once: the unique index of
    # open seasons makes the second insert wait for the first and then do nothing.
    await tx.execute(
        "INSERT INTO seasons (guild_id, number, name, started_at)"
        " SELECT ?, (SELECT COALESCE(MAX(number), 0) + 1 FROM seasons WHERE guild_id = ?), '', ?"
        " WHERE NOT EXISTS (SELECT 1 FROM seasons WHERE guild_id = ? AND ended_at IS NULL)"
        " ON CONFLICT DO NOTHING",
        (guild_id, guild_id, now, guild_id),
    )
    lock = " FOR UPDATE" if dialect == "postgresql" else ""
    row = await tx.fetchone(
        f"SELECT * FROM seasons WHERE guild_id = ? AND ended_at IS NULL{lock}", (guild_id,)
    )
    assert row is not None, "a season was just opened"
    return season_of(row)


async def start_season(
    tx: Tx, dialect: Dialect, guild_id: int, name: str, now: float
) -> tuple[Season | None, Season]:
    """Close the server's current season (its table stays) and open the next one, named:
    (the season closed, the new one). A season with no rated game yet is not kept: it is
    renamed and starts now instead (no season closed)."""
    current = await open_season(tx, dialect, guild_id, now)
    played = await tx.fetchone(
        "SELECT 1 AS played FROM rated_games WHERE season_id = ? LIMIT 1", (current.id,)
    )
    if played is None:
        row = await tx.fetchone(
            "UPDATE seasons SET name = ?, started_at = ? WHERE id = ? RETURNING *",
            (name, now, current.id),
        )
        assert row is not None
        return None, season_of(row)
    await tx.execute("UPDATE seasons SET ended_at = ? WHERE id = ?", (now, current.id))
    row = await tx.fetchone(
        "INSERT INTO seasons (guild_id, number, name, started_at) VALUES (?, ?, ?, ?) RETURNING *",
        (guild_id, current.number + 1, name, now),
    )
    assert row is not None
    return replace(current, ended_at=now), season_of(row)


async def _skills(tx: Tx, season_id: int, user_ids: Iterable[int]) -> dict[int, Skill]:
    users = sorted(set(user_ids))
    if not users:
        return {}
    marks = ", ".join("?" for _ in users)
    rows = await tx.fetch(
        f"SELECT user_id, mu, sigma, games FROM ratings WHERE season_id = ?"
        f" AND user_id IN ({marks})",
        (season_id, *users),
    )
    return {
        int(r["user_id"]): Skill(float(r["mu"]), float(r["sigma"]), int(r["games"])) for r in rows
    }


async def _write(tx: Tx, seq: int, season_id: int, game_id: int, changes: Sequence[Change]) -> None:
    await tx.executemany(
        "INSERT INTO ratings (season_id, user_id, mu, sigma, games) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (season_id, user_id) DO UPDATE SET mu = excluded.mu,"
        " sigma = excluded.sigma, games = excluded.games",
        [(season_id, c.user_id, c.after.mu, c.after.sigma, c.after.games) for c in changes],
    )
    await tx.executemany(
        f"INSERT INTO rating_changes ({_CHANGE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                seq,
                season_id,
                game_id,
                c.user_id,
                c.seat,
                c.place,
                c.before.mu,
                c.before.sigma,
                c.after.mu,
                c.after.sigma,
                c.after.games,
            )
            for c in changes
        ],
    )


def _seats(rows: Iterable[Row]) -> list[RatedSeat]:
    """The seats of a game's stored results as the rating update takes them."""
    return [
        RatedSeat(
            seat=int(r["seat"]),
            place=int(r["place"]),
            user_id=None if r["user_id"] is None else int(r["user_id"]),
            ai_level=None if r["ai_level"] is None else str(r["ai_level"]),
        )
        for r in rows
    ]


async def rate_game(
    tx: Tx, dialect: Dialect, game_id: int, guild_id: int, seats: Sequence[RatedSeat], now: float
) -> list[Change]:
    """Rate a game that has just finished on a server, in the transaction recording it."""
    if not any(s.user_id is not None for s in seats):
        return []
    season = await open_season(tx, dialect, guild_id, now)
    current = await _skills(tx, season.id, (s.user_id for s in seats if s.user_id is not None))
    changes = rate(seats, current)
    if not changes:
        return []
    row = await tx.fetchone(
        "INSERT INTO rated_games (game_id, season_id) VALUES (?, ?) RETURNING seq",
        (game_id, season.id),
    )
    assert row is not None
    await _write(tx, int(row["seq"]), season.id, game_id, changes)
    return changes


@dataclass(frozen=True, slots=True)
class Rebuilt:
    """What ``rebuild`` did: games replayed, ratings written, and how many of them differ
    from what was stored (0: the incremental updates were exact)."""

    games: int
    ratings: int
    differ: int


async def rebuild(tx: Tx) -> Rebuilt:
    """Recompute every rating of every season from the stored results, in the order the
    games were rated (``rated_games``), and replace the stored ratings and changes."""
    old = {
        (int(r["season_id"]), int(r["user_id"])): (float(r["mu"]), float(r["sigma"]), r["games"])
        for r in await tx.fetch("SELECT season_id, user_id, mu, sigma, games FROM ratings")
    }
    games = await tx.fetch("SELECT seq, game_id, season_id FROM rated_games ORDER BY seq")
    results: dict[int, list[Row]] = {}
    for r in await tx.fetch(
        "SELECT r.game_id, r.seat, r.place, r.user_id, r.ai_level FROM results r"
        " JOIN rated_games g ON g.game_id = r.game_id ORDER BY r.game_id, r.seat"
    ):
        results.setdefault(int(r["game_id"]), []).append(r)
    await tx.execute("DELETE FROM rating_changes")
    await tx.execute("DELETE FROM ratings")
    skills: dict[tuple[int, int], Skill] = {}
    for g in games:
        season_id = int(g["season_id"])
        seats = _seats(results.get(int(g["game_id"]), []))
        current = {
            u: skills[(season_id, u)]
            for s in seats
            if (u := s.user_id) is not None and (season_id, u) in skills
        }
        changes = rate(seats, current)
        for c in changes:
            skills[(season_id, c.user_id)] = c.after
        await _write(tx, int(g["seq"]), season_id, int(g["game_id"]), changes)
    differ = sum(
        1 for key, skill in skills.items() if old.get(key) != (skill.mu, skill.sigma, skill.games)
    ) + sum(1 for key in old if key not in skills)
    return Rebuilt(len(games), len(skills), differ)


# ---- reads --------------------------------------------------------------------------


async def seasons(db: Reader, guild_id: int) -> list[Season]:
    """The server's seasons, newest first."""
    rows = await db.fetch(
        "SELECT * FROM seasons WHERE guild_id = ? ORDER BY number DESC", (guild_id,)
    )
    return [season_of(r) for r in rows]


async def table(db: Reader, season_id: int) -> dict[int, Skill]:
    """Every member's rating in a season."""
    rows = await db.fetch(
        "SELECT user_id, mu, sigma, games FROM ratings WHERE season_id = ?", (season_id,)
    )
    return {
        int(r["user_id"]): Skill(float(r["mu"]), float(r["sigma"]), int(r["games"])) for r in rows
    }


async def wins(db: Reader, season_id: int) -> dict[int, tuple[int, int, int]]:
    """Each member's (wins, games, VP in all) over a season's rated games."""
    rows = await db.fetch(
        "SELECT c.user_id, r.winner, r.vp FROM rating_changes c"
        " JOIN results r ON r.game_id = c.game_id AND r.seat = c.seat"
        " WHERE c.season_id = ?",
        (season_id,),
    )
    out: dict[int, tuple[int, int, int]] = {}
    for r in rows:
        won, games, vp = out.get(int(r["user_id"]), (0, 0, 0))
        out[int(r["user_id"])] = (won + int(bool(r["winner"])), games + 1, vp + int(r["vp"]))
    return out


async def history(db: Reader, season_id: int, user_id: int) -> list[RatedChange]:
    """A member's rating changes in a season, oldest first."""
    rows = await db.fetch(
        f"SELECT {_CHANGE_COLUMNS} FROM rating_changes WHERE season_id = ? AND user_id = ?"
        " ORDER BY seq",
        (season_id, user_id),
    )
    return [change_of(r) for r in rows]


async def of_game(db: Reader, game_id: int) -> list[RatedChange]:
    """What a game did to its members' ratings (none: it was not rated)."""
    rows = await db.fetch(
        f"SELECT {_CHANGE_COLUMNS} FROM rating_changes WHERE game_id = ? ORDER BY seat",
        (game_id,),
    )
    return [change_of(r) for r in rows]


def ranking(skills: Mapping[int, Skill]) -> list[tuple[int, Skill]]:
    """Members in leaderboard order: established ratings first (highest first), then the
    provisional ones."""
    return sorted(skills.items(), key=lambda kv: (kv[1].provisional, -kv[1].shown, kv[0]))

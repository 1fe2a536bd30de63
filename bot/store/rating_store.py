"""Ratings and seasons in the database (their tables: ``bot.store.migrations``), in the SQL
both databases speak. The arithmetic is ``bot.store.ratings``'s and the rules of who is rated
how are ``bot.store.rating_rules``'s; this module only reads and writes.

- ``seasons``: a server's seasons, numbered from 1; the open one (``ended_at`` NULL) is
  the current one. A server's first season opens with its first rated moment.
- ``departures``: each member who left a game in play (or was removed, replaced, timed
  out or aborted it), when and why, and who held the other seats then: the facts a
  departure is rated from.
- ``results`` (of ``bot.store.result_store``): each seat of a finished game, its place, and
  who played its turns: the facts a game's end is rated from.
- ``rating_events``: what was rated, in order (``seq``), in which season: a departure
  (``user_id`` the member) or a game's end (``user_id`` NULL). What ``rebuild`` replays.
- ``ratings``: each member's rating per season, as the last rated moment left it.
- ``rating_changes``: what each rated moment did to each member's rating (the game-over
  message, ``/af rating``, the chart of ``/af stats``).

A departure is rated in the transaction that records it, a game's end in the one that
records its results. On PostgreSQL everything that rates or opens a season on a server
first takes that server's advisory lock (``lock_server``), so a season start and a game's
end on one server take turns, and each sees what the other committed; SQLite's write
transactions take turns anyway.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final, Protocol

from bot.store.db import Dialect, Row, Tx
from bot.store.rating_rules import (
    Departure,
    Holder,
    SeatPlay,
    departure_changes,
    end_changes,
    played_from_json,
)
from bot.store.ratings import Change, Skill

_CHANGE_COLUMNS: Final = (
    "seq, season_id, game_id, user_id, seat, place, how, mu_before, sigma_before, mu, sigma, games"
)
# pg_advisory_xact_lock(key1, key2): the first key says "a server's ratings" (its 32 bits
# spell "AFra"), the second is the server's id folded into 32 bits (two servers sharing
# one only wait for each other).
_SERVER_LOCK: Final = 0x4146_7261


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
    """A member's change at one rated moment, with its order and season; ``name``: the
    member's name when they left (a departure), else ''."""

    seq: int
    game_id: int
    season_id: int
    change: Change
    name: str = ""

    @property
    def departed(self) -> bool:
        return bool(self.name)


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
            how=str(row["how"]),
        ),
    )


async def lock_server(tx: Tx, dialect: Dialect, guild_id: int) -> None:
    """PostgreSQL: hold the server's ratings lock until the transaction ends (whoever
    rates on this server or starts its season waits). SQLite: nothing to do."""
    if dialect == "postgresql":
        folded = (guild_id ^ (guild_id >> 32)) & 0xFFFF_FFFF
        await tx.execute("SELECT pg_advisory_xact_lock(?, ?)", (_SERVER_LOCK, folded - (1 << 31)))


async def open_season(tx: Tx, dialect: Dialect, guild_id: int, now: float) -> Season:
    """The server's current season (opened if it has none), with the server's lock."""
    await lock_server(tx, dialect, guild_id)
    row = await tx.fetchone(
        "SELECT * FROM seasons WHERE guild_id = ? AND ended_at IS NULL", (guild_id,)
    )
    if row is None:
        row = await tx.fetchone(
            "INSERT INTO seasons (guild_id, number, name, started_at) VALUES"
            " (?, (SELECT COALESCE(MAX(number), 0) + 1 FROM seasons WHERE guild_id = ?), '', ?)"
            " RETURNING *",
            (guild_id, guild_id, now),
        )
    assert row is not None
    return season_of(row)


async def start_season(
    tx: Tx, dialect: Dialect, guild_id: int, name: str, now: float
) -> tuple[Season | None, Season]:
    """Close the server's current season (its table stays) and open the next one, named:
    (the season closed, the new one). A season with nothing rated yet is not kept: it is
    renamed and starts now instead (no season closed)."""
    current = await open_season(tx, dialect, guild_id, now)
    played = await tx.fetchone(
        "SELECT 1 AS played FROM rating_events WHERE season_id = ? LIMIT 1", (current.id,)
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


async def _skills(tx: Reader, season_id: int, user_ids: Iterable[int]) -> dict[int, Skill]:
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
        f"INSERT INTO rating_changes ({_CHANGE_COLUMNS})"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                seq,
                season_id,
                game_id,
                c.user_id,
                c.seat,
                c.place,
                c.how,
                c.before.mu,
                c.before.sigma,
                c.after.mu,
                c.after.sigma,
                c.after.games,
            )
            for c in changes
        ],
    )


async def _event(tx: Tx, game_id: int, season_id: int, user_id: int | None) -> int:
    row = await tx.fetchone(
        "INSERT INTO rating_events (game_id, season_id, user_id) VALUES (?, ?, ?) RETURNING seq",
        (game_id, season_id, user_id),
    )
    assert row is not None
    return int(row["seq"])


def others_json(others: Sequence[Holder]) -> str:
    return json.dumps([[h.seat, h.user_id, h.ai_level] for h in others], separators=(",", ":"))


def departure_of(row: Row) -> Departure:
    others = tuple(
        Holder(int(seat), None if user is None else int(user), level)
        for seat, user, level in json.loads(str(row["others"]))
    )
    return Departure(
        user_id=int(row["user_id"]),
        seat=int(row["seat"]),
        reason=row["reason"],
        others=others,
        name=str(row["name"]),
    )


async def record_departure(
    tx: Tx, dialect: Dialect, game_id: int, guild_id: int, d: Departure, now: float
) -> list[Change]:
    """Record that a member left a game in play and rate it (last among the seats still
    in), in the transaction that hands their seat on. Only a member's first departure
    from a game counts: nothing for a second one."""
    fresh = await tx.fetch(
        "INSERT INTO departures (game_id, user_id, seat, reason, name, others, at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, user_id) DO NOTHING"
        " RETURNING user_id",
        (game_id, d.user_id, d.seat, d.reason, d.name[:32], others_json(d.others), now),
    )
    if not fresh:
        return []
    season = await open_season(tx, dialect, guild_id, now)
    seq = await _event(tx, game_id, season.id, d.user_id)
    members = [d.user_id, *(h.user_id for h in d.others if h.user_id is not None)]
    changes = departure_changes(d, await _skills(tx, season.id, members))
    await _write(tx, seq, season.id, game_id, changes)
    return changes


async def _departed(tx: Reader, game_id: int) -> set[int]:
    rows = await tx.fetch("SELECT user_id FROM departures WHERE game_id = ?", (game_id,))
    return {int(r["user_id"]) for r in rows}


async def rate_game(
    tx: Tx, dialect: Dialect, game_id: int, guild_id: int, seats: Sequence[SeatPlay], now: float
) -> list[Change]:
    """Rate a game that has just finished on a server, in the transaction recording it
    (nothing for a game no member ever sat in)."""
    if not any(s.user_id is not None for s in seats):
        return []
    season = await open_season(tx, dialect, guild_id, now)
    seq = await _event(tx, game_id, season.id, None)
    members = [s.user_id for s in seats if s.user_id is not None]
    current = await _skills(tx, season.id, members)
    changes = end_changes(seats, await _departed(tx, game_id), current)
    await _write(tx, seq, season.id, game_id, changes)
    return changes


def seat_play(row: Row) -> SeatPlay:
    """A stored result as the end's rating reads it (who played it: not known in a
    database before migration 11, as when migration 9 rates the older games)."""
    try:
        played_by = str(row["played_by"])
    except (IndexError, KeyError):
        played_by = ""
    return SeatPlay(
        seat=int(row["seat"]),
        place=int(row["place"]) if row["place"] is not None else 1 + int(not row["winner"]),
        user_id=None if row["user_id"] is None else int(row["user_id"]),
        ai_level=None if row["ai_level"] is None else str(row["ai_level"]),
        turns=int(row["turns"]),
        own_turns=int(row["own_turns"]),
        bot_turns=int(row["bot_turns"]),
        played_by=played_from_json(played_by),
    )


@dataclass(frozen=True, slots=True)
class Rebuilt:
    """What ``rebuild`` did: games whose moments it replayed, ratings written, and how
    many of them differ from what was stored (0: the updates as they were made agree)."""

    games: int
    ratings: int
    differ: int


async def rebuild(tx: Tx) -> Rebuilt:
    """Rate again every departure and every game's end of every season from their stored
    facts, in the order they were rated (``rating_events``), with the rules as they are
    now, and replace the stored ratings and changes."""
    old = {
        (int(r["season_id"]), int(r["user_id"])): (float(r["mu"]), float(r["sigma"]), r["games"])
        for r in await tx.fetch("SELECT season_id, user_id, mu, sigma, games FROM ratings")
    }
    events = await tx.fetch(
        "SELECT seq, game_id, season_id, user_id FROM rating_events ORDER BY seq"
    )
    results: dict[int, list[SeatPlay]] = {}
    for r in await tx.fetch(
        "SELECT * FROM results WHERE game_id IN (SELECT game_id FROM rating_events)"
        " ORDER BY game_id, seat"
    ):
        results.setdefault(int(r["game_id"]), []).append(seat_play(r))
    departures: dict[tuple[int, int], Departure] = {}
    departed: dict[int, set[int]] = {}
    for r in await tx.fetch("SELECT * FROM departures"):
        d = departure_of(r)
        departures[(int(r["game_id"]), d.user_id)] = d
        departed.setdefault(int(r["game_id"]), set()).add(d.user_id)
    await tx.execute("DELETE FROM rating_changes")
    await tx.execute("DELETE FROM ratings")
    by_season: dict[int, dict[int, Skill]] = {}
    for e in events:
        season_id, game_id = int(e["season_id"]), int(e["game_id"])
        current = by_season.setdefault(season_id, {})
        if e["user_id"] is None:
            changes = end_changes(results.get(game_id, []), departed.get(game_id, set()), current)
        else:
            found = departures.get((game_id, int(e["user_id"])))
            changes = departure_changes(found, current) if found is not None else []
        for c in changes:
            current[c.user_id] = c.after
        await _write(tx, int(e["seq"]), season_id, game_id, changes)
    skills = {
        (season, user): skill
        for season, table in by_season.items()
        for user, skill in table.items()
    }
    differ = sum(
        1 for key, skill in skills.items() if old.get(key) != (skill.mu, skill.sigma, skill.games)
    ) + sum(1 for key in old if key not in skills)
    return Rebuilt(len({int(e["game_id"]) for e in events}), len(skills), differ)


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


async def wins(db: Reader, season_id: int) -> dict[int, tuple[int, int]]:
    """Each member's (wins: rated first, rated games) in a season."""
    rows = await db.fetch(
        "SELECT user_id, SUM(CASE WHEN place = 1 THEN 1 ELSE 0 END) AS won, COUNT(*) AS games"
        " FROM rating_changes WHERE season_id = ? GROUP BY user_id",
        (season_id,),
    )
    return {int(r["user_id"]): (int(r["won"]), int(r["games"])) for r in rows}


_NAMED: Final = (
    f"SELECT {', '.join('c.' + c.strip() for c in _CHANGE_COLUMNS.split(','))},"
    " COALESCE(d.name, '') AS name FROM rating_changes c JOIN rating_events e ON e.seq = c.seq"
    " LEFT JOIN departures d ON d.game_id = e.game_id AND d.user_id = e.user_id"
)


def named_change_of(row: Row) -> RatedChange:
    return replace(change_of(row), name=str(row["name"]))


async def history(db: Reader, season_id: int, user_id: int) -> list[RatedChange]:
    """A member's rating changes in a season, oldest first."""
    rows = await db.fetch(
        f"{_NAMED} WHERE c.season_id = ? AND c.user_id = ? ORDER BY c.seq", (season_id, user_id)
    )
    return [named_change_of(r) for r in rows]


async def of_game(db: Reader, game_id: int) -> list[RatedChange]:
    """What a game did to its members' ratings, in order: its departures, then its end
    by seat (none: it was not rated)."""
    rows = await db.fetch(f"{_NAMED} WHERE c.game_id = ? ORDER BY c.seq, c.seat", (game_id,))
    return [named_change_of(r) for r in rows]


def ranking(skills: Mapping[int, Skill]) -> list[tuple[int, Skill]]:
    """Members in leaderboard order: settled ratings first (highest first), then the
    provisional ones."""
    return sorted(skills.items(), key=lambda kv: (kv[1].provisional, -kv[1].shown, kv[0]))

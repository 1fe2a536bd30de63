"""Ratings in words: ``/af rating``, ``/af leaderboard`` by rating, the season's name and
the ratings line of the game over message (texts in the catalogue, ``rating.*``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.store.rating_store import RatedChange, Season, ranking
from bot.store.ratings import PROVISIONAL_GAMES, Skill
from bot.text.strings import text

LEADERS = 10
RECENT = 5


def season_name(season: Season, locale: str) -> str:
    """ "season 2", or "season 2 “Winter”" when it was named."""
    params = {"number": season.number, "name": season.name}
    return text("season.named" if season.name else "season.name", locale, params)


def change_text(delta: int) -> str:
    """A change of the shown rating with its sign: +23, −12 (a real minus), ±0."""
    if delta > 0:
        return f"+{delta}"
    if delta < 0:
        return f"−{-delta}"
    return "±0"


def number_text(rating: int) -> str:
    """A shown rating, with a real minus below zero (a member who kept losing to the easy
    AI can get there)."""
    return f"−{-rating}" if rating < 0 else str(rating)


def how_text(how: str, locale: str) -> str:
    """How a rated moment counted, in a few words (``bot.store.rating_rules``): "" for a
    seat rated by its place."""
    return "" if how == "result" else text(f"rating.how.{how}", locale)


def rank_of(skills: Mapping[int, Skill], user_id: int) -> int | None:
    """A member's rank among the settled ratings (equal ratings share a rank: 1, 2, 2, 4),
    None while theirs is provisional (or they have none)."""
    mine = skills.get(user_id)
    if mine is None or mine.provisional:
        return None
    return 1 + sum(1 for s in skills.values() if not s.provisional and s.shown > mine.shown)


def settled_count(skills: Mapping[int, Skill]) -> int:
    return sum(1 for s in skills.values() if not s.provisional)


def rating_text(
    name: str,
    season: Season,
    skill: Skill,
    skills: Mapping[int, Skill],
    user_id: int,
    recent: Sequence[tuple[RatedChange, int]],
    locale: str,
) -> str:
    """A member's rating, rank in the server, rated games and latest results (each with
    the number of players of its game): ``/af rating``."""
    rank = rank_of(skills, user_id)
    params: dict[str, object] = {
        "name": name,
        "rating": number_text(skill.shown),
        "season": season_name(season, locale),
    }
    ranked = (
        text("rating.unranked", locale, {"count": PROVISIONAL_GAMES})
        if rank is None
        else text("rating.rank", locale, {"rank": rank, "count": settled_count(skills)})
    )
    facts = [ranked, text("rating.games", locale, {"count": skill.games})]
    if skill.provisional:
        left = PROVISIONAL_GAMES - skill.games
        facts.insert(0, text("rating.provisional", locale, {"count": left}))
    lines = [text("rating.header", locale, params), " · ".join(facts)]
    if recent:
        lines.append(text("rating.recent", locale))
        for rated, players in recent[-RECENT:][::-1]:
            c = rated.change
            line: dict[str, object] = {
                "game": rated.game_id,
                "place": c.place,
                "players": players,
                "change": change_text(c.delta),
            }
            how = how_text(c.how, locale)
            if how:
                lines.append(text("rating.result_how", locale, {**line, "how": how}))
            else:
                lines.append(text("rating.result", locale, line))
    lines.append(text("rating.about", locale))
    return "\n".join(lines)


def earlier_text(
    name: str,
    season: Season,
    earlier: Season,
    skills: Mapping[int, Skill],
    user_id: int,
    locale: str,
) -> str:
    """A member with no rated game in ``season`` yet: their rating in the last season they
    played (``earlier``), and how to see it."""
    rank = rank_of(skills, user_id)
    return text(
        "rating.none_in_season_earlier"
        if rank is not None
        else "rating.none_in_season_earlier_provisional",
        locale,
        {
            "name": name,
            "season": season_name(season, locale),
            "earlier": season_name(earlier, locale),
            "rating": number_text(skills[user_id].shown),
            "rank": rank,
            "count": settled_count(skills),
            "number": earlier.number,
        },
    )


def member_rating_text(
    name: str,
    user_id: int,
    season: Season | None,
    skills: Mapping[int, Skill],
    recent: Sequence[tuple[RatedChange, int]],
    earlier: Season | None,
    earlier_skills: Mapping[int, Skill],
    locale: str,
) -> str:
    """``/af rating``'s answer: the member's rating in ``season`` (``rating_text``), else
    why they have none: no season yet in the server, or no rated game in this one, with
    their rating in the last season they played (``earlier``)."""
    if season is not None and user_id in skills:
        return rating_text(name, season, skills[user_id], skills, user_id, recent, locale)
    if season is None:
        return text("rating.none", locale, {"name": name})
    if earlier is not None:
        return earlier_text(name, season, earlier, earlier_skills, user_id, locale)
    shown = season_name(season, locale)
    return text("rating.none_in_season", locale, {"name": name, "season": shown})


def leaderboard_answer(
    season: Season | None,
    skills: Mapping[int, Skill],
    wins: Mapping[int, tuple[int, int]],
    locale: str,
) -> str:
    """``/af leaderboard``'s answer: the season's table (``leaderboard_text``), or that
    the server has no season yet (``season`` None)."""
    if season is None:
        return text("leaderboard.none", locale)
    return leaderboard_text(season, skills, wins, locale)


def leaderboard_text(
    season: Season,
    skills: Mapping[int, Skill],
    wins: Mapping[int, tuple[int, int]],
    locale: str,
) -> str:
    """A season's table: the settled ratings ranked (at most ``LEADERS``), then the
    provisional ones apart, unranked (at most ``RECENT``), each with the member's wins
    in the season."""
    shown_season = season_name(season, locale)
    if not skills:
        return text("leaderboard.season_empty", locale, {"season": shown_season})
    lines = [text("leaderboard.rated_header", locale, {"season": shown_season})]
    order = ranking(skills)
    settled = [(u, s) for u, s in order if not s.provisional][:LEADERS]
    provisional = [(u, s) for u, s in order if s.provisional][:RECENT]
    if not settled:
        lines.append(text("leaderboard.none_settled", locale, {"count": PROVISIONAL_GAMES}))
    for user, skill in settled:
        place = rank_of(skills, user) or 0  # equal ratings share a place
        lines.append(text("leaderboard.rated_line", locale, _line(place, user, skill, wins)))
    if provisional and settled:
        lines.append(text("leaderboard.provisional", locale, {"count": PROVISIONAL_GAMES}))
    for user, skill in provisional:
        lines.append(text("leaderboard.provisional_line", locale, _line(0, user, skill, wins)))
    return "\n".join(lines)


def _line(
    place: int, user: int, skill: Skill, wins: Mapping[int, tuple[int, int]]
) -> dict[str, object]:
    won, games = wins.get(user, (0, skill.games))
    return {
        "place": place,
        "name": f"<@{user}>",  # shown as their current name, no ping
        "rating": number_text(skill.shown),
        "wins": won,
        "games": games,
    }


def over_ratings_text(changes: Sequence[RatedChange], locale: str) -> str:
    """The game over message's line: each member's new rating and its change (with how it
    counted, and "provisional" while it is), those who left the game first (rated when
    they left). Each member is named by their mention, shown as their name (no ping),
    which no seat's name can pass for: a member named "AI 1 (hard)" is not the AI."""
    parts = []
    for r in sorted(changes, key=lambda r: (not r.departed, r.change.seat)):
        c = r.change
        details = [change_text(c.delta), how_text(c.how, locale)]
        if c.after.provisional:
            details.append(text("over.rating_provisional", locale))
        params = {
            "name": f"<@{c.user_id}>",
            "rating": number_text(c.after.shown),
            "details": ", ".join(d for d in details if d),
        }
        parts.append(text("over.rating_change", locale, params))
    return text("over.ratings", locale, {"changes": " · ".join(parts)})

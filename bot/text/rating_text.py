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


def rank_of(skills: Mapping[int, Skill], user_id: int) -> int:
    order = [u for u, _ in ranking(skills)]
    return order.index(user_id) + 1 if user_id in order else len(order) + 1


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
    facts = [
        text("rating.rank", locale, {"rank": rank, "count": len(skills)}),
        text("rating.games", locale, {"count": skill.games}),
    ]
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
    return text(
        "rating.none_in_season_earlier",
        locale,
        {
            "name": name,
            "season": season_name(season, locale),
            "earlier": season_name(earlier, locale),
            "rating": number_text(skills[user_id].shown),
            "rank": rank_of(skills, user_id),
            "count": len(skills),
            "number": earlier.number,
        },
    )


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
    for place, (user, skill) in enumerate(settled, start=1):
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


def over_ratings_text(changes: Sequence[RatedChange], names: Mapping[int, str], locale: str) -> str:
    """The game over message's line: each member's new rating and its change (with how it
    counted, and "provisional" while it is), those who left the game first (rated when
    they left, by name)."""
    parts = []
    for r in sorted(changes, key=lambda r: (not r.departed, r.change.seat)):
        c = r.change
        details = [change_text(c.delta), how_text(c.how, locale)]
        if c.after.provisional:
            details.append(text("over.rating_provisional", locale))
        params = {
            "name": r.name if r.departed else names.get(c.seat, "?"),
            "rating": number_text(c.after.shown),
            "details": ", ".join(d for d in details if d),
        }
        parts.append(text("over.rating_change", locale, params))
    return text("over.ratings", locale, {"changes": " · ".join(parts)})

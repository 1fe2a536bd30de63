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
    order = [u for u, _ in ranking(skills)]
    rank = order.index(user_id) + 1 if user_id in order else len(order) + 1
    params = {"name": name, "rating": skill.shown, "season": season_name(season, locale)}
    facts = [
        text("rating.rank", locale, {"rank": rank, "count": len(order)}),
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
            lines.append(
                text(
                    "rating.result",
                    locale,
                    {
                        "game": rated.game_id,
                        "place": c.place,
                        "players": players,
                        "change": change_text(c.delta),
                    },
                )
            )
    lines.append(text("rating.about", locale))
    return "\n".join(lines)


def leaderboard_text(
    season: Season,
    skills: Mapping[int, Skill],
    wins: Mapping[int, tuple[int, int, int]],
    locale: str,
) -> str:
    """A season's table: established ratings first, then the provisional ones (at most
    ``LEADERS`` lines in all), each with the member's wins in the season."""
    shown_season = season_name(season, locale)
    if not skills:
        return text("leaderboard.season_empty", locale, {"season": shown_season})
    lines = [text("leaderboard.rated_header", locale, {"season": shown_season})]
    provisional_said = False
    for place, (user, skill) in enumerate(ranking(skills)[:LEADERS], start=1):
        if skill.provisional and not provisional_said:
            lines.append(text("leaderboard.provisional", locale, {"count": PROVISIONAL_GAMES}))
            provisional_said = True
        won, games, _vp = wins.get(user, (0, skill.games, 0))
        params = {
            "place": place,
            "name": f"<@{user}>",  # shown as their current name, no ping
            "rating": skill.shown,
            "wins": won,
            "games": games,
        }
        lines.append(text("leaderboard.rated_line", locale, params))
    return "\n".join(lines)


def over_ratings_text(changes: Sequence[RatedChange], names: Mapping[int, str], locale: str) -> str:
    """The game over message's line: each member's new rating and its change."""
    parts = [
        text(
            "over.rating_change",
            locale,
            {
                "name": names.get(r.change.seat, "?"),
                "rating": r.change.after.shown,
                "change": change_text(r.change.delta),
            },
        )
        for r in changes
    ]
    return text("over.ratings", locale, {"changes": " · ".join(parts)})

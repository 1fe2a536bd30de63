"""``/af stats``' words: a member's record over some finished games (games, wins, average
and best VP, the territory they most often took first), in one short paragraph. Fed with
the games' result rows."""

from __future__ import annotations

from collections import Counter

from bot.store.rows import ResultRow
from bot.text.describe import chat_name
from bot.text.durations import decimal_text
from bot.text.strings import text, thing_name


def record_text(name: str, results: list[ResultRow], locale: str) -> str:
    """A member's record over some finished games, in one short paragraph (or that they
    have finished none)."""
    if not results:
        return text("stats.none", locale, {"name": chat_name(name)})
    games = len(results)
    wins = sum(1 for r in results if r.winner)
    firsts = Counter(r.first_territory for r in results if r.first_territory)
    parts = [
        text("stats.games", locale, {"count": games}),
        text("stats.wins", locale, {"count": wins, "rate": round(100 * wins / games)}),
        text(
            "stats.average",
            locale,
            {"vp": decimal_text(sum(r.vp for r in results) / games, locale)},
        ),
        text("stats.best", locale, {"vp": max(r.vp for r in results)}),
    ]
    if firsts:
        favourite = thing_name(firsts.most_common(1)[0][0], locale)
        parts.append(text("stats.first", locale, {"territory": favourite}))
    return text("stats.header", locale, {"name": chat_name(name)}) + " " + " · ".join(parts)


__all__ = ["record_text"]

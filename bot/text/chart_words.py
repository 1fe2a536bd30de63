"""The charts in words, their alt texts (an attachment's description, read aloud by screen
readers): each player's victory points by round of a finished game, and a member's
rating over their rated games (``/af stats``). The charts are drawn by
``bot.render.charts``."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Final

from bot.text.limits import ALT_LIMIT
from bot.text.strings import text

# The most ratings an alt text reads out (the first and last half): a screen reader
# reading 500 numbers tells less than the first and last ones and the extremes.
RATING_ALT_VALUES: Final = 20


def series_rounds(series: Sequence[Sequence[int]], names: Sequence[str]) -> int:
    """The rounds of a VP chart's ``series`` (each player's VP by round, a series a name),
    which must all be as long, and at least one round."""
    if not series or len(series) != len(names):
        raise ValueError(f"{len(series)} series for {len(names)} names")
    rounds = {len(s) for s in series}
    if len(rounds) != 1 or 0 in rounds:
        raise ValueError(f"series of rounds {sorted(rounds)}: one length, at least 1")
    return rounds.pop()


# Emoji and what builds them: symbols, skin tones, joiners, variation selectors.
_NOT_SAID: Final = frozenset({"So", "Sk", "Cs", "Co", "Cf"})


def plain_name(name: str) -> str:
    """A name for the alt text: without emoji (a screen reader reads them as noise)."""
    kept = "".join(
        ch
        for ch in name
        if unicodedata.category(ch) not in _NOT_SAID and not 0xFE00 <= ord(ch) <= 0xFE0F
    )
    return " ".join(kept.split())


def thinned(values: Sequence[int], keep: int) -> str:
    """``values`` as "3, 5, 8", or with only the first and last ``keep`` of them shown
    ("3, 5 … 11, 12") when there are more."""
    if len(values) <= keep:
        return ", ".join(str(v) for v in values)
    head, tail = values[: (keep + 1) // 2], values[len(values) - keep // 2 :]
    shown = ", ".join(str(v) for v in head) + " …"
    return f"{shown} {', '.join(str(v) for v in tail)}" if tail else shown


def fit_alt(say: Sequence[str]) -> str:
    """The sentences ``say`` run together, at most ``ALT_LIMIT`` characters: if they are
    longer (absurdly long names), cut after the last whole word that fits, with "…"."""
    whole = " ".join(s for s in say if s)
    if len(whole) <= ALT_LIMIT:
        return whole
    cut = whole[: ALT_LIMIT - 1]
    if not whole[ALT_LIMIT - 1].isspace():
        cut = cut.rsplit(None, 1)[0] if " " in cut else ""
    return cut.rstrip() + "…"


def vp_chart_text(series: Sequence[Sequence[int]], names: Sequence[str], locale: str) -> str:
    """The VP chart in words (its alt text): the number of rounds, then each player's VP
    round by round and their final VP, the middle rounds left out as needed to stay
    within ``ALT_LIMIT`` characters."""
    rounds = series_rounds(series, names)
    head = text("chart.vp.alt", locale, {"rounds": rounds})

    def said(keep: int) -> list[str]:
        lines = [head]
        for p, values in enumerate(series):
            who = plain_name(names[p]) or f"P{p + 1}"
            before = values[:-1]
            if keep and before:
                params = {"name": who, "values": thinned(before, keep), "vp": values[-1]}
                lines.append(text("chart.vp.alt.player", locale, params))
            else:
                params = {"name": who, "vp": values[-1]}
                lines.append(text("chart.vp.alt.player_final", locale, params))
        return lines

    for keep in range(rounds - 1, 0, -1):
        words = " ".join(said(keep))
        if len(words) <= ALT_LIMIT:
            return words
    return fit_alt(said(0))


def rating_chart_text(
    points: Sequence[int], name: str, locale: str, provisional_until: int = 5
) -> str:
    """The rating chart in words (its alt text): the member, the number of games, the
    rating after each (at most ``RATING_ALT_VALUES`` of them, the first and the last,
    fewer if needed to stay within ``ALT_LIMIT``), the highest and lowest, and how many
    games gave a provisional rating (those numbered below ``provisional_until``)."""
    if not points:
        raise ValueError("no rating to describe")
    who = plain_name(name) or "?"
    extremes = (
        text("chart.rating.alt.range", locale, {"high": max(points), "low": min(points)})
        if len(points) > 2
        else ""
    )
    provisional = min(len(points), max(0, provisional_until - 1))
    tail = (
        text("chart.rating.alt.provisional", locale, {"count": provisional}) if provisional else ""
    )

    def said(keep: int) -> list[str]:
        params = {"name": who, "count": len(points), "values": thinned(points, keep)}
        return [text("chart.rating.alt", locale, params), extremes, tail]

    for keep in range(min(len(points), RATING_ALT_VALUES), 1, -1):
        words = " ".join(s for s in said(keep) if s)
        if len(words) <= ALT_LIMIT:
            return words
    return fit_alt(said(min(2, len(points))))


__all__ = ["rating_chart_text", "series_rounds", "vp_chart_text"]

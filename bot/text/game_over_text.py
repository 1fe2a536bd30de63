"""The sentences of a game's final message: who is pinged, each player's VP part by part,
the winner and the tie-break, the new ratings, the rounds and the game's length, and where
a guided game leads next. Composed from what ``bot.play.story_service.StoryService.game_over``
read; posted with the final board, the VP chart and a Rematch button by ``bot.discord``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.store.rating_store import RatedChange
from bot.store.rows import SeatRow
from bot.text import describe
from bot.text.durations import duration_text
from bot.text.rating_text import over_ratings_text
from bot.text.strings import text
from bot.text.turn_message import said
from engine import GameState, outcome, score_parts


def game_over_message(
    state: GameState,
    seats: Sequence[SeatRow],
    recorded: Mapping[int, str],
    rated: Sequence[RatedChange],
    seconds: float,
    locale: str,
    *,
    tutorial: bool,
    spoken: bool,
) -> str | None:
    """The final message's text (None if ``state`` has no outcome). Each seat is named by
    who played it (``recorded``: the name its result was recorded under; an AI seat by
    the level that played most of it), a member by their mention, which no seat's name can
    pass for; the members holding a seat at the end are pinged in its first line."""
    result = outcome(state)
    if result is None:
        return None
    names = [
        f"<@{s.user_id}>"
        if s.user_id is not None
        else describe.chat_name(recorded.get(s.seat, s.name))
        for s in seats
    ]
    members = [s.user_id for s in seats if s.user_id is not None]
    parts = [score_parts(state, p) for p in range(state.num_players)]
    lines = [
        text("over.header", locale, {"mentions": " ".join(f"<@{u}>" for u in members)}),
        describe.outcome_text(result, names, locale, parts),
    ]
    if rated:
        lines.append(over_ratings_text(rated, locale))
    lines.append(
        text(
            "over.length",
            locale,
            {"rounds": state.round, "duration": duration_text(seconds, locale)},
        )
    )
    if tutorial:  # a guided game ends with where to go next, no rematch
        lines.append(text("learning.over", locale))
    return said("\n".join(lines), locale, spoken)


__all__ = ["game_over_message"]

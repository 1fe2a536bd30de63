"""Seats in words: what ``/af leave`` would do (its question, before the member confirms)
and ``/af away``'s answer.

Said from the game's row and seats, its clock's settings and what the game service worked
out (whether the game ends without the member, whether leaving counts as last place)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.store.rows import SeatRow
from bot.text.durations import when
from bot.text.strings import text


def leave_question(
    playing: bool,
    seats: Sequence[SeatRow],
    host_id: int | None,
    user_id: int,
    takeover: str,
    ends_game: bool,
    counts_last: bool,
    locale: str,
) -> str:
    """What leaving would do: in a game in play, the AI takes the seat (at ``takeover``'s
    level) or the game ends (``ends_game``), and leaving may count as last place
    (``counts_last``, docs/ratings.md); in a lobby, the seat is freed, the lobby ends with
    its last member, or the host's part goes to the next member."""
    if playing:
        if ends_game:
            asked = text("leave.confirm_game_last", locale)
        else:
            level = text(f"ai.level.{takeover}", locale)
            asked = text("leave.confirm_game", locale, {"level": level})
        if counts_last:
            asked = f"{asked}\n{text('leave.counts_last', locale)}"
        return asked
    humans = [s for s in seats if s.user_id is not None and s.user_id != user_id]
    if host_id != user_id:
        return text("leave.confirm_lobby", locale)
    if not humans:
        return text("leave.confirm_lobby_last", locale)
    return text("leave.confirm_lobby_host", locale, {"next": humans[0].name})


def away_text(until: float | None, locale: str) -> str:
    """``/af away``'s answer: back (``until`` None), or away until when."""
    if until is None:
        return text("away.back", locale)
    return text("away.set", locale, {"until": when(until, "f")})


__all__ = ["away_text", "leave_question"]

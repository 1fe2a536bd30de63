"""``/af status``' answer in words: the game as it stands (``describe.status_text``); for a
game still in play, who its turn clock waits on and until when, and who is away
(``clock_text.waiting_lines``); for its host, what did not reach the channel.

Said from the engine's state, the players' names, the game's seats and clock settings as
play read them (``InPlay``) and the deliveries that failed (their rows)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.store.clock_settings import ClockSettings
from bot.store.rows import Delivery, SeatRow
from bot.text.clock_text import Waiting, waiting_lines
from bot.text.describe import chat_name, status_text
from bot.text.durations import when
from bot.text.strings import text
from engine import GameState, view


@dataclass(frozen=True)
class InPlay:
    """A game still in play, as its clock sees it: its seats, its clock's settings, whom it
    waits on (``bot.play.games.waiting``), and its members who are away (until when)."""

    seats: Sequence[SeatRow]
    clock: ClockSettings
    waiting: Waiting
    away: Mapping[int, float]


def status_answer(
    state: GameState,
    names: Sequence[str],
    locale: str,
    in_play: InPlay | None = None,
    failed: Sequence[Delivery] = (),
) -> str:
    """/af status: the game, who it waits on (``in_play``: None once it ended) and, for its
    host, how many deliveries failed (``failed``, the latest first): what and when."""
    chat = [chat_name(n) for n in names]
    lines = [status_text(state, view(state), chat, locale)]
    if in_play is not None:
        lines += waiting_lines(
            in_play.seats, in_play.clock, in_play.waiting, in_play.away, chat, locale
        )
    if failed:
        last = failed[0]
        said = {
            "count": len(failed),
            "what": text(f"delivery.kind.{last.kind}", locale),
            "when": when(last.failed_at or last.due_at),
        }
        lines.append(text("status.failed", locale, said))
    return "\n".join(lines)


__all__ = ["InPlay", "status_answer"]

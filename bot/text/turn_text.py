"""A turn message's words: its first line (whose turn, in which round, played by whom) and
the turn's events as its lines, within a message's room. The message is
composed by ``bot.text.turn_message`` and posted by ``bot.discord.announce.Announcer``."""

from __future__ import annotations

from collections.abc import Sequence

from bot.text import describe
from bot.text.heard import heard_lines
from bot.text.limits import MESSAGE_LIMIT
from bot.text.strings import text
from engine import Event, GameState, GameView


def turn_segments(state: GameState) -> list[list[Event]]:
    """The state's recent events split at each turn start (the last list is this turn)."""
    segments: list[list[Event]] = [[]]
    for e in state.events:
        if e.key == "turn_started":
            segments.append([])
        segments[-1].append(e)
    return segments


def turn_header(
    timeout: str | None,
    ai: bool,
    locale: str,
    *,
    round: object,
    name: str,
    mention: str = "",
    member: int | None = None,
) -> str:
    """A turn message's first line: whose turn, in which round; played by the AI, or for
    a member whose turn timed out (``timeout``: ai or skip)."""
    if timeout is not None and member is not None:
        key = f"turn.header_timeout.{timeout}"
    else:
        key = "turn.header_ai" if ai else "turn.header"
    params = {"round": round, "name": name, "mention": mention, "member": f"<@{member}>"}
    return text(key, locale, params)


def event_lines(
    events: Sequence[Event],
    locale: str,
    names: Sequence[str],
    room: int = MESSAGE_LIMIT,
    spoken: bool = False,
) -> list[str]:
    """A turn's events as the lines of its message: every one, as long as they fit in
    ``room`` characters (lines joined by newlines); else the first (the roll) and the
    latest that fit, with how many are left out and where they are (``/af log``).

    For a screen reader (``spoken``) each fact once, in few lines (``bot.text.heard``): the
    header names whose turn it is, so their own lines start with the verb ("docks 5 at the
    Lunar Mine", not "AI 2 (easy) docks 5…", whose digits run into the dice), repeats are
    said once, and the turn's end is the next header."""
    start = next((e for e in events if e.key == "turn_started"), None)
    if spoken:
        lines = heard_lines(events, locale, names, start.player if start is not None else None)
    else:
        lines = [
            "• " + describe.event_line(e, locale, names) for e in events if e.key != "turn_started"
        ]
    if lines_length(lines) <= room:
        return lines
    kept = lines[:1]
    latest: list[str] = []
    for line in reversed(lines[1:]):
        more = text("turn.more", locale, {"count": len(lines) - len(kept) - len(latest) - 1})
        if lines_length([*kept, more, line, *latest]) > room:
            break
        latest.insert(0, line)
    hidden = len(lines) - len(kept) - len(latest)
    return [*kept, text("turn.more", locale, {"count": hidden}), *latest]


def lines_length(lines: Sequence[str]) -> int:
    """The characters of ``lines`` in a message, each with its newline."""
    return sum(len(line) + 1 for line in lines)


def as_rolled(v: GameView, rolled: Sequence[Event]) -> bool:
    """Whether the ships still to dock are those the turn's roll gave (no dock yet)."""
    values = str(rolled[-1].params.get("values", "")) if rolled else None
    return values is not None and sorted(values.split()) == sorted(
        f"{s.value}{'r' if s.relic else ''}" for s in v.undocked
    )


__all__ = ["as_rolled", "event_lines", "lines_length", "turn_header", "turn_segments"]

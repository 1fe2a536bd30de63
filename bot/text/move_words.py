"""A member's move in words, for their private answers: the first move of a pick as made and
what it did (``move_made``), a pick's actions for the screen-reader line after it
(``pick_words``), and the moves an undo took back (``undone_text``). Fed with the engine's
actions, events and state, and the seats' names."""

from __future__ import annotations

from collections.abc import Sequence

from bot.text import describe
from bot.text.strings import text
from engine import Action, Done, Event, GameState, market_rate


def move_made(
    action: Action, events: Sequence[Event], locale: str, names: Sequence[str]
) -> list[str]:
    """The member's private answer to a committed pick: its first move (``action``), as
    made, and what it did (its ``events``)."""
    done = text("play.done", locale, {"move": str(action)})
    return [done, *(describe.event_line(e, locale, names) for e in events)]


def pick_words(
    before: GameState, actions: Sequence[Action], names: Sequence[str], locale: str
) -> str:
    """A pick's actions in words ("Dock 1 at the Lunar Mine ×2, End the turn"), for the
    screen-reader line after it."""
    rate = market_rate(before, before.current) if before.turn.market_rates else None
    said = [a for a in actions if not isinstance(a, Done)] or list(actions)  # a raid's end
    labels = [describe.action_label(a, locale, names, rate) for a in said]
    out: list[tuple[str, int]] = []
    for label in labels:
        if out and out[-1][0] == label:
            out[-1] = (label, out[-1][1] + 1)
        else:
            out.append((label, 1))
    return "; ".join(f"{label} ×{n}" if n > 1 else label for label, n in out)


def undone_text(undone: Sequence[Action], locale: str) -> str:
    """What ``/undo`` took back (``undone``: the last played first), in the order they were
    played."""
    moves = "`, `".join(str(a) for a in reversed(undone))
    return text("undo.done", locale, {"move": moves})


__all__ = ["move_made", "pick_words", "undone_text"]

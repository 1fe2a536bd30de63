"""``/af log``'s words: who made a logged action, what it did in sentences, its lines in the
answer (a new turn as a heading), the answer itself and the whole log as a file. Fed with
the log's rows and the seats' names."""

from __future__ import annotations

from collections.abc import Sequence

from bot.store.rows import ActionRow
from bot.text import describe
from bot.text.limits import MESSAGE_LIMIT
from bot.text.strings import text
from engine import Event


def who_acted(action: ActionRow, names: Sequence[str], locale: str) -> str:
    """The seat that acted, or the dice/deck for a chance outcome."""
    return (
        text("log.chance", locale) if action.actor < 0 else describe.seat_name(action.actor, names)
    )


def action_sentences(
    action: ActionRow, names: Sequence[str], locale: str, *, bullet: bool = True
) -> list[str]:
    """What one logged action did, in sentences of the reader's language (its events; a
    new turn as a heading)."""
    out = []
    for data in action.events:
        player = data.get("player")
        event = Event(
            str(data.get("key")),
            player if isinstance(player, int) else None,
            data.get("params") or {},
            0,
        )
        line = describe.event_line(event, locale, names)
        if event.key == "turn_started":
            out.append(f"**{line}**" if bullet else f"— {line} —")
        else:
            out.append(f"• {line}" if bullet else line)
    return out


def action_lines(action: ActionRow, names: Sequence[str], locale: str) -> list[str]:
    """One logged action as a line of ``/af log`` (its sentences joined: "the last 5
    actions" are five lines), a new turn as a heading where it starts: an end of turn's
    "ends the turn" above the next turn's heading, not under it."""
    out: list[str] = []
    said: list[str] = []
    for line in action_sentences(action, names, locale, bullet=False):
        if line.startswith("— "):
            if said:
                out.append("• " + "; ".join(said))
                said = []
            out.append(f"**{line.strip('— ')}**")
        else:
            said.append(line)
    if said:
        out.append("• " + "; ".join(said))
    return out


def log_message(actions: Sequence[ActionRow], count: int, names: Sequence[str], locale: str) -> str:
    """``/af log``'s answer: how many of the game's actions it shows, and the last ``count``
    of them (``names``: the seats' names as said in the chat), the earliest sentences left
    out where they would not fit a message."""
    recent = actions[-count:]
    shown = [line for a in recent for line in action_lines(a, names, locale)]
    body = "\n".join(shown) or text("log.empty", locale)
    header = text("log.header", locale, {"count": len(recent), "total": len(actions)})
    while len(body) > MESSAGE_LIMIT - len(header) - 10 and "\n" in body:
        body = body.split("\n", 1)[1]  # keep the latest sentences
    return f"{header}\n{body}"


def log_file(actions: Sequence[ActionRow], names: Sequence[str], locale: str) -> str:
    """The whole log, attached to ``/af log``'s answer as a text file: each action's number,
    who made it and its notation, then what it did."""
    return "\n".join(
        line
        for a in actions
        for line in [
            text(
                "log.line",
                locale,
                {"seq": a.seq + 1, "who": who_acted(a, names, locale), "move": a.notation},
            ),
            *("    " + s for s in action_sentences(a, names, locale, bullet=False)),
        ]
    )


__all__ = ["action_lines", "action_sentences", "log_file", "log_message", "who_acted"]

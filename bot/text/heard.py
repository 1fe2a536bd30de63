"""A turn's events as a screen reader should hear them: each fact once, in few lines.

In a game followed with a screen reader (``bot.play.readers``) a turn message's header
names whose turn it is, so the lines of that player start with the verb ("docks 5 at
the Lunar Mine", not "AI 2 (easy) docks 5…", whose digits run into the dice) — unless the
line before named another player, after whom a line without a subject would seem to be
theirs ("AI 1 loses control of Lem Badlands", then "Ann places a colony"). A line that
starts with the player's possessive ("Ann's colony moves…") keeps it. What repeats is
said once:

- ships docked one after another at the same facility and what they did: "docks 4 4 at
  the Solar Converter, gains 4 fuel", "docks 1 4 5 at the Colony Hub, Bob's colony moves
  to space 3 of the Colony Hub" (where it is at last), "docks 1 1 at the Shipyard, builds
  a ship (4 in play)";
- a raid's resources per victim ("steals 1 fuel + 3 ore from Bob"), the ships one raid
  drives from the Raiders' Outpost per owner, the cards turned up one after another;
- the colony placed comes before the control it changed, what a Resource Cache paid before
  that it is discarded, and the cards a cycle of the display turned up with the cycle;
- the turn's start and end (the headers say them) and "is done" (after a raid or the
  Plasma Cannon: the next line says what came next) are not said.

The words are the catalogue's event texts (``bot.text.describe.event_line``) and a few of
their own (``spoken.*``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Final

from bot.text.describe import event_line
from bot.text.strings import text, thing_name
from engine import Event

UNSAID: Final = frozenset({"turn_started", "turn_ended", "stopped"})
GAINS: Final = ("gained_fuel", "gained_ore")
FOLLOWS: Final = frozenset({"hub_advanced", "ship_built"})  # said with the dock that did it
CONTROL: Final = frozenset({"control_gained", "control_lost"})
REPEATED: Final = frozenset({"stole_resource", "displaced", "revealed"})
_SUBJECT: Final = "\x00"  # the turn's player, in a line said without them


def heard_lines(
    events: Sequence[Event], locale: str, names: Sequence[str], seat: int | None
) -> list[str]:
    """The lines of a turn of ``seat`` for a screen reader (see the module docstring), each
    with the bullet the turn message's lines have (which ``bot.text.spoken.plain`` drops)."""
    out: list[str] = []
    others = [n for i, n in enumerate(names) if i != seat and n]
    named_other = False
    for group in _grouped(events):
        line = _said(group, locale, names, seat, strip=not named_other)
        out.append("• " + line)
        named_other = any(name in line for name in others)
    return out


def _grouped(events: Sequence[Event]) -> list[list[Event]]:
    """The events to say, each list one line: repeats together (see the module docstring),
    a colony placed before the change of control it caused."""
    groups: list[list[Event]] = []
    for e in events:
        if e.key in UNSAID:
            continue
        last = groups[-1] if groups else None
        if last is not None and _joins(last, e):
            last.append(e)
            continue
        if e.key == "cache_paid" and last is not None and last[0].key == "cache_spent":
            groups.insert(len(groups) - 1, [e])  # what the card paid, then that it is gone
            continue
        if e.key == "colony_placed":  # before the control lines just before it
            at = len(groups)
            while at > 0 and groups[at - 1][0].key in CONTROL:
                at -= 1
            groups.insert(at, [e])
            continue
        groups.append([e])
    return groups


def _joins(group: list[Event], e: Event) -> bool:
    head = group[0]
    if head.key == "cycled":  # the cards the cycle turned up, with it
        return e.key == "revealed"
    if e.player != head.player:
        return False
    if head.key == "docked":
        if e.key in GAINS or e.key in FOLLOWS:
            return True
        return e.key == "docked" and e.params.get("facility") == head.params.get("facility")
    if head.key in REPEATED and e.key == head.key:
        return e.params.get("victim") == head.params.get("victim")
    return False


def _said(
    group: list[Event], locale: str, names: Sequence[str], seat: int | None, strip: bool
) -> str:
    head = group[0]
    marked = _marked(names, seat) if strip and head.player == seat else list(names)
    if head.key == "docked":
        values = " ".join(str(e.params.get("values", "")) for e in group if e.key == "docked")
        docked = Event("docked", head.player, {**head.params, "values": values}, 0)
        parts = [_unmarked(event_line(docked, locale, marked), names, seat, strip)]
        for key in GAINS:  # what they gave, said without its subject: the dock's
            amount = sum(int(str(e.params.get("amount", 0))) for e in group if e.key == key)
            if amount:
                gained = Event(key, head.player, {"amount": amount}, 0)
                line = event_line(gained, locale, _marked(names, head.player))
                parts.append(_unmarked(line, names, head.player, True))
        hub = [e for e in group if e.key == "hub_advanced"][-1:]  # where the colony is now
        for e in hub + [e for e in group if e.key == "ship_built"]:
            line = event_line(e, locale, _marked(names, head.player))
            parts.append(_unmarked(line, names, head.player, True))
        return ", ".join(parts)
    if len(group) > 1 and head.key == "stole_resource":
        taken = Counter(str(e.params.get("resource")) for e in group)
        amounts = " + ".join(
            text(f"choice.{r}", locale, {"count": taken[r]}) for r in ("fuel", "ore") if taken[r]
        )
        params = {"player": head.player, "victim": head.params.get("victim"), "amounts": amounts}
        return _unmarked(text("a11y.alt.stole", locale, params, marked), names, seat, strip)
    if head.key == "displaced":  # the owner named first, so no digit runs into the values
        values = ", ".join(str(e.params.get("value")) for e in group)
        params = {"player": head.player, "values": values, "count": len(group)}
        return _unmarked(text("spoken.displaced", locale, params, marked), names, seat, strip)
    if head.key == "cycled" and len(group) > 1:
        cards = ", ".join(thing_name(str(e.params.get("card")), locale) for e in group[1:])
        params = {"player": head.player, "cards": cards}
        return _unmarked(text("spoken.cycled", locale, params, marked), names, seat, strip)
    if len(group) > 1 and head.key == "revealed":
        cards = ", ".join(thing_name(str(e.params.get("card")), locale) for e in group)
        return text("spoken.revealed", locale, {"cards": cards, "count": len(group)})
    return _unmarked(event_line(head, locale, marked), names, seat, strip)


def _marked(names: Sequence[str], seat: int | None) -> list[str]:
    return [_SUBJECT if n == seat else name for n, name in enumerate(names)]


def _unmarked(line: str, names: Sequence[str], seat: int | None, strip: bool) -> str:
    """The line without its subject when it starts with the marked player (and ``strip``),
    the player's name put back wherever else they are named ("swaps Ann's…")."""
    if seat is None or not 0 <= seat < len(names):
        return line
    if strip and line.startswith(f"{_SUBJECT} "):
        line = line.removeprefix(f"{_SUBJECT} ")
    return line.replace(_SUBJECT, names[seat])


__all__ = ["heard_lines"]

"""Catch-up: what the others did since a member's last turn, in a few readable sentences.

When it becomes a member's turn, their ping (in the channel or by DM) carries the
moves of the others that touched the game — colonies placed, territories taken or
lost, raids on them, cards claimed, fields moved — read from the stored action log,
not every dock. Raids on the member are summed up per raider and resource. Then, for
each other player whose fuel, ore, Colony Hub track or cards changed between the end of
the member's previous turn (or the start, before their first) and the start of this one,
where they are now and by how much ("Bob: fuel 5 (+3), ore 0 (−1), Colony Hub track: space
4 of 7, now holds Plasma Cannon"), both boards replayed from the log. The member's own moves
in this turn are never part of it: the catch-up reads the same on every edit of the turn's
message, and after a restart.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Final

from bot.store.rows import ActionRow
from bot.text import describe
from bot.text.strings import text, thing_name
from engine import Action, Event, Game, GameConfig, GameState

# Events worth telling a member who was away from the game (the others' moves).
NOTABLE: Final = frozenset(
    {
        "colony_placed",
        "control_gained",
        "control_lost",
        "claimed",
        "stole_card",
        "stole_card_discarded",
        "field_placed",
        "field_removed",
        "colony_moved",
        "colonies_swapped",
        "relic_bought",
        "ship_built",
        "took_from_discard",
        "relic_returns",
        "card_discarded",
        "cache_spent",
    }
)
# Events that touch the member's own ships.
ON_YOUR_SHIPS: Final = frozenset({"ship_removed", "ship_destroyed"})
MAX_LINES: Final = 8
CONTROL: Final = frozenset({"control_gained", "control_lost"})
# What a screen reader hears again in the catch-up although each turn was said as it ended
# (the rest is summed up by ``changes``): the colonies, who controls what, and the member's
# own losses to raids.
SAID_AGAIN: Final = frozenset({"colony_placed", *CONTROL})
RAIDS: Final = frozenset({"stole_resource", "stole_card", "stole_card_discarded"})


def turn_window(rows: Sequence[ActionRow], seat: int) -> list[ActionRow] | None:
    """Of ``rows`` (the log's last actions), those from the end of ``seat``'s previous turn
    to the action that began its turn in play, that one included; None when ``rows`` do not
    reach back to that beginning."""
    start = next(
        (
            i
            for i in range(len(rows) - 1, -1, -1)
            if any(
                e.get("key") == "turn_started" and e.get("player") == seat for e in rows[i].events
            )
        ),
        None,
    )
    if start is None:
        return None
    last = max((i for i in range(start) if rows[i].actor == seat), default=-1)
    return list(rows[last + 1 : start + 1])


def since_last_turn(rows: Sequence[ActionRow], seat: int) -> list[Event]:
    """The notable events of the log after ``seat``'s last action (its previous turn),
    raids on ``seat`` kept as they are (``lines`` sums them up)."""
    start = 0
    for i, row in enumerate(rows):
        if row.actor == seat:
            start = i + 1
    out = []
    for row in rows[start:]:
        for data in row.events:
            key, player = data.get("key"), data.get("player")
            params = data.get("params") or {}
            if not isinstance(key, str):
                continue
            if key in ON_YOUR_SHIPS:
                wanted = player == seat  # the event's player owns the ship hit
            elif key == "stole_resource":
                wanted = params.get("victim") == seat
            else:
                wanted = key in NOTABLE
            if wanted:
                out.append(Event(key, player if isinstance(player, int) else None, params, 0))
    return out


def lines(events: Iterable[Event], names: Sequence[str], locale: str) -> list[str]:
    """The catch-up in sentences: raids on the member summed per raider and resource (at
    the place of the first), every other event as the log tells it; at most
    ``MAX_LINES``, then how many more."""
    stolen: Counter[tuple[int, str]] = Counter()
    items: list[Event | tuple[int, str]] = []
    for e in events:
        if e.key == "stole_resource" and e.player is not None:
            raid = (e.player, str(e.params.get("resource")))
            if raid not in stolen:
                items.append(raid)
            stolen[raid] += 1
        elif e.key == "colony_placed":  # before the change of control it caused
            at = len(items)
            while at and _is_control(items[at - 1]):
                at -= 1
            items.insert(at, e)
        else:
            items.append(e)
    shown = []
    for item in items:
        if isinstance(item, Event):
            shown.append("• " + describe.event_line(item, locale, names))
        else:
            player, resource = item
            params = {"player": describe.seat_name(player, names), "count": stolen[item]}
            shown.append("• " + text(f"catchup.stole_{resource}", locale, params))
    if len(shown) > MAX_LINES:
        more = len(shown) - (MAX_LINES - 1)
        shown = [*shown[: MAX_LINES - 1], text("catchup.more", locale, {"count": more})]
    return shown


def _is_control(item: Event | tuple[int, str]) -> bool:
    return isinstance(item, Event) and item.key in CONTROL


def board_at_start(
    config: GameConfig, log: Sequence[Action], rows: Sequence[ActionRow]
) -> GameState | None:
    """The board as the member's turn in play began, before their own moves (``rows``: the
    window of ``turn_window``, which ends with the action that began it); None without
    one."""
    if not rows or not 0 <= rows[-1].seq < len(log):
        return None
    return Game.replay(config, log[: rows[-1].seq + 1]).state


def board_then(
    config: GameConfig, log: Sequence[Action], rows: Sequence[ActionRow]
) -> GameState | None:
    """The board just after the member's last action (``rows``: the actions since, from
    ``ActionLogStore.actions_since``), replayed from the game's log; before their first, the board
    as the first turn began (the cards dealt and the compensation said by the start's
    message); None when nothing happened since."""
    if not rows or rows[0].seq < 0 or rows[0].seq > len(log):
        return None
    if rows[0].seq > 0:
        return Game.replay(config, log[: rows[0].seq]).state
    started = next((r for r in rows if any(e.get("key") == "turn_started" for e in r.events)), None)
    if started is None or started.seq >= len(log):
        return None
    return Game.replay(config, log[: started.seq + 1]).state


def changes(
    before: GameState | None,
    now: GameState | None,
    seat: int,
    names: Sequence[str],
    locale: str,
) -> list[str]:
    """Per other player, what of their fuel, ore, Colony Hub track and alien tech cards
    changed from ``before`` to ``now`` (the board as the member's turn began): where it is
    now and by how much, and the cards they hold now (a card claimed and discarded in one
    turn is not theirs any more)."""
    if before is None or now is None or before.num_players != now.num_players:
        return []
    out = []
    for p in range(now.num_players):
        if p == seat:
            continue
        was, is_ = before.players[p], now.players[p]
        parts = [
            text(f"catchup.{kind}", locale, {"now": b, "delta": _signed(b - a)})
            for kind, a, b in (("fuel", was.fuel, is_.fuel), ("ore", was.ore, is_.ore))
            if a != b
        ]
        if was.hub != is_.hub:
            key = "catchup.hub" if is_.hub else "catchup.hub_empty"
            parts.append(text(key, locale, {"space": is_.hub, "of": 7}))
        if Counter(was.cards) != Counter(is_.cards):  # claimed, stolen, discarded: held now
            held = ", ".join(thing_name(c, locale) for c in is_.cards)
            key = "catchup.holds" if held else "catchup.holds_none"
            parts.append(text(key, locale, {"cards": held, "count": len(is_.cards)}))
        if parts:
            params = {"player": p, "changes": ", ".join(parts)}
            out.append("• " + text("catchup.change", locale, params, names))
    return out


def said_again(events: Iterable[Event], seat: int) -> list[Event]:
    """Of the catch-up's events, those a screen reader hears again (``SAID_AGAIN``): the
    colonies placed, the changes of control, and the raids on ``seat``."""
    return [
        e
        for e in events
        if e.key in SAID_AGAIN or (e.key in RAIDS and e.params.get("victim") == seat)
    ]


def _signed(delta: int) -> str:
    return f"+{delta}" if delta > 0 else f"−{-delta}"


def catch_up_text(
    rows: Sequence[ActionRow],
    seat: int,
    names: Sequence[str],
    locale: str,
    changed: Sequence[str] = (),
) -> str:
    """ "Since your last turn:" and its sentences (and ``changed``: the others' resources
    and hub tracks, from ``changes``), or "" when nothing notable happened."""
    return told_text(since_last_turn(rows, seat), names, locale, changed)


def told_text(
    events: Iterable[Event], names: Sequence[str], locale: str, changed: Sequence[str] = ()
) -> str:
    """``catch_up_text`` of the events ``since_last_turn`` picked already."""
    shown = [*lines(events, names, locale), *changed]
    if not shown:
        return ""
    return "\n".join([text("catchup.header", locale), *shown])


__all__ = [
    "MAX_LINES",
    "NOTABLE",
    "SAID_AGAIN",
    "board_at_start",
    "board_then",
    "catch_up_text",
    "changes",
    "lines",
    "said_again",
    "since_last_turn",
    "told_text",
    "turn_window",
]

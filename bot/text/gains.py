"""What a pick does to the game, in words: what the player gains and loses (and takes from
others), and what is left of their turn.

The panel's options carry it in their description ("+1 ore, now 2", Discord's 100
characters under the option's label), for everyone; a member in screen-reader mode hears
it again after their pick, with what is left ("Left to dock: 2 4 4"), since an edited
message is not reliably read aloud. Worked out by comparing the views before and after
the pick's actions (``engine.view``), so it follows the engine and restates no rule.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Final

from bot.text.labels import dice_text
from bot.text.strings import text
from engine import Action, GameState, apply_in_place
from engine.actions import Die
from engine.view import GameView, PlayerView, view

DESCRIPTION_LIMIT: Final = 100  # characters of a select option's description
MINUS: Final = "−"


def signed(delta: int) -> str:
    return f"+{delta}" if delta > 0 else f"{MINUS}{-delta}"


def after(state: GameState, moves: Sequence[Action]) -> GameState | None:
    """A copy of ``state`` with ``moves`` applied (None if one cannot be: never for the
    panel's picks, made of legal actions)."""
    s = state.copy()
    try:
        for a in moves:
            apply_in_place(s, a)
    except (ValueError, KeyError, IndexError):
        return None
    return s


def gains(
    before: GameView, now: GameView, seat: int, names: Sequence[str], locale: str = "en"
) -> list[str]:
    """What changed for ``seat`` (resources, VP, ships, the hub track, colonies, control,
    cards, the relic ship, a card's change to their ships, the market's rate), then what
    others lost or won (resources, VP), each a short phrase; what matters most first (a
    description keeps what fits): the seat's colonies, VP, cards and resources, the others',
    then the rest (ships, hub track, dice, rate)."""
    major, minor = _own(before.players[seat], now.players[seat], before, now, seat, locale)
    out = major
    for p, q in zip(before.players, now.players, strict=True):
        if p.seat == seat:
            continue
        changed = _resources(p, q, locale)
        if q.vp != p.vp:  # a colony that ends their control, a Positron Field moved
            changed.append(text("gains.vp", locale, {"delta": signed(q.vp - p.vp), "now": q.vp}))
        if changed:
            params = {"player": p.seat, "changes": ", ".join(changed)}
            out.append(text("gains.other", locale, params, names))
    return [*out, *minor]


def _resources(p: PlayerView, q: PlayerView, locale: str) -> list[str]:
    return [
        text(f"gains.{kind}", locale, {"delta": signed(b - a), "now": b})
        for kind, a, b in (("fuel", p.fuel, q.fuel), ("ore", p.ore, q.ore))
        if a != b
    ]


def _own(
    p: PlayerView,
    q: PlayerView,
    before: GameView,
    now: GameView,
    seat: int,
    locale: str,
) -> tuple[list[str], list[str]]:
    out = []
    for t0, t1 in zip(before.territories, now.territories, strict=True):
        gained = t1.controller == seat and t0.controller != seat
        if t1.colonies[seat] > t0.colonies[seat]:
            key = "gains.colony_control" if gained else "gains.colony"
            out.append(text(key, locale, {"territory": t1.id}))
        elif t1.colonies[seat] < t0.colonies[seat]:
            out.append(text("gains.colony_gone", locale, {"territory": t1.id}))
        if gained and t1.colonies[seat] <= t0.colonies[seat]:
            out.append(text("gains.control", locale, {"territory": t1.id}))
        elif t0.controller == seat and t1.controller != seat:
            out.append(text("gains.control_lost", locale, {"territory": t1.id}))
    if q.vp != p.vp:
        out.append(text("gains.vp", locale, {"delta": signed(q.vp - p.vp), "now": q.vp}))
    cards = Counter(q.cards)
    cards.subtract(p.cards)
    for card, n in cards.items():
        if n > 0:
            out.append(text("gains.card", locale, {"card": card}))
        elif n < 0:
            out.append(text("gains.card_gone", locale, {"card": card}))
    if q.has_relic and not p.has_relic:
        out.append(text("gains.relic", locale))
    out += _resources(p, q, locale)
    major, out = out, []
    if q.ships_in_play != p.ships_in_play:
        delta = signed(q.ships_in_play - p.ships_in_play)
        out.append(text("gains.ships", locale, {"delta": delta, "now": q.ships_in_play}))
    if q.hub_space != p.hub_space:
        key = "gains.hub" if q.hub_space else "gains.hub_empty"
        out.append(text(key, locale, {"space": q.hub_space, "of": 7}))
    if before.current == seat == now.current and before.pending is None:
        dice = Counter((s.value, s.relic) for s in now.undocked)
        if len(now.undocked) == len(before.undocked) and dice != Counter(
            (s.value, s.relic) for s in before.undocked
        ):
            ordered = sorted(now.undocked, key=lambda s: (s.value, s.relic))
            shown = dice_text([Die(s.value, s.relic) for s in ordered], locale)
            out.append(text("gains.dice", locale, {"dice": shown}))
    if now.current == seat and now.market_rate is not None and before.market_rate is None:
        out.append(text("gains.market", locale, {"rate": now.market_rate}))
    return major, out


def description(
    state: GameState,
    moves: Sequence[Action],
    names: Sequence[str],
    locale: str = "en",
    before: GameView | None = None,
) -> str | None:
    """What a pick of ``moves`` yields, within Discord's 100 characters (whole phrases),
    or None when it changes nothing one can count (docking at the Alien Artifact);
    ``before``: ``state``'s view, if it was worked out already."""
    s = after(state, moves)
    if s is None:
        return None
    said = gains(before or view(state), view(s), state.current, names, locale)
    return fitted(said, DESCRIPTION_LIMIT) or None


def fitted(parts: Sequence[str], limit: int) -> str:
    """``parts`` joined by "; ", as many whole ones as fit in ``limit`` characters."""
    out = ""
    for part in parts:
        joined = f"{out}; {part}" if out else part
        if len(joined) > limit:
            break
        out = joined
    return out


def left(now: GameView, seat: int, names: Sequence[str], locale: str = "en") -> str:
    """What is left of ``seat``'s turn: the decision waiting, the ships still to dock, or
    that every ship is docked (or whose turn it is now)."""
    if now.over:
        return text("gains.over", locale)
    d = now.pending
    if d is not None and d.player == seat and d.kind in ("place", "raid", "plasma", "return"):
        detail = {k: v for k, v in d.detail.items() if k == "excess"}
        return text(f"gains.now.{d.kind}", locale, detail)
    if now.current != seat:
        return text("gains.turn_of", locale, {"player": now.current}, names)
    dice = dice_text([Die(s.value, s.relic) for s in now.undocked], locale)
    return text("gains.left", locale, {"dice": dice}) if dice else text("gains.docked", locale)


def confirmation(
    what: str,
    before: GameState,
    now: GameState,
    seat: int,
    names: Sequence[str],
    locale: str = "en",
) -> str:
    """The private line after a pick in screen-reader mode: what was done, what it gave,
    what is left ("Done: Lunar Mine: 6. +1 ore, now 2. Left to dock: 2 4 4.")."""
    then = view(now)
    said = gains(view(before), then, seat, names, locale)
    parts = [text("gains.done", locale, {"what": what})]
    if said:
        parts.append(_sentence("; ".join(said), names) + ".")
    parts.append(left(then, seat, names, locale))
    return " ".join(parts)


def _sentence(words: str, names: Sequence[str]) -> str:
    """A capital first, unless the words start with a member's name ("owner: −1 fuel")."""
    if any(name and words.startswith(name) for name in names):
        return words
    return words[:1].upper() + words[1:]


__all__ = [
    "DESCRIPTION_LIMIT",
    "after",
    "confirmation",
    "description",
    "fitted",
    "gains",
    "left",
    "signed",
]

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
from dataclasses import dataclass
from typing import Final

from bot.text.describe import sentence
from bot.text.labels import dice_text
from bot.text.strings import text
from engine import (
    ARTIFACT_CLAIM_TOTAL,
    HAND_LIMIT,
    Action,
    Die,
    Dock,
    GameState,
    GameView,
    PlayerView,
    apply_in_place,
    legal_actions,
    view,
)

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


@dataclass(frozen=True, slots=True)
class Phrase:
    """One thing a pick does, in words: in full ("+1 fuel, now 3") and short ("+1 fuel"),
    and whether it is what happens to another player (never left out of a description)."""

    words: str
    short: str
    others: bool = False


def gains(
    before: GameView, now: GameView, seat: int, names: Sequence[str], locale: str = "en"
) -> list[str]:
    """What changed for ``seat`` and the others, each a short phrase (``phrases``)."""
    return [p.words for p in phrases(before, now, seat, names, locale)]


def phrases(
    before: GameView,
    now: GameView,
    seat: int,
    names: Sequence[str],
    locale: str = "en",
    dice: bool = True,
) -> list[Phrase]:
    """What changed for ``seat`` (colonies, control, VP, cards, the relic ship, resources,
    ships, the hub track, a card's change to their dice, the market's rate), and what the
    others lost or won (resources, VP, ships sent to the Maintenance Bay or to their stock),
    most telling first: the seat's colonies, control, VP, cards and resources, then the
    others', then the rest (ships, hub track, dice, rate);
    ``dice``: say the seat's dice when a card changed them."""
    mine = before.players[seat], now.players[seat]
    major, resources, minor = _own(*mine, before, now, seat, locale, dice)
    out = [Phrase(m, m) for m in major] + resources
    for p, q in zip(before.players, now.players, strict=True):
        if p.seat == seat:
            continue
        full = [*_resources(p, q, locale), *_others_rest(p, q, locale)]
        brief = [*_resources(p, q, locale, short=True), *_others_rest(p, q, locale)]
        if full:
            params = {"player": p.seat, "changes": ", ".join(full)}
            shorter = {"player": p.seat, "changes": ", ".join(brief)}
            out.append(
                Phrase(
                    text("gains.other", locale, params, names),
                    text("gains.other", locale, shorter, names),
                    others=True,
                )
            )
    out += [Phrase(m, m) for m in minor]
    return out


def _resources(p: PlayerView, q: PlayerView, locale: str, short: bool = False) -> list[str]:
    key = "gains.short" if short else "gains"
    return [
        text(f"{key}.{kind}", locale, {"delta": signed(b - a), "now": b})
        for kind, a, b in (("fuel", p.fuel, q.fuel), ("ore", p.ore, q.ore))
        if a != b
    ]


def _others_rest(p: PlayerView, q: PlayerView, locale: str) -> list[str]:
    """What else a pick does to another player: their VP (a colony that ends their control,
    a Positron Field moved), their ships sent to the Maintenance Bay or to their stock."""
    out = []
    if q.vp != p.vp:
        out.append(text("gains.vp", locale, {"delta": signed(q.vp - p.vp), "now": q.vp}))
    if len(q.bay) > len(p.bay):
        out.append(text("gains.to_bay", locale, {"count": len(q.bay) - len(p.bay)}))
    if q.ships_in_play < p.ships_in_play:
        delta = signed(q.ships_in_play - p.ships_in_play)
        out.append(text("gains.ships", locale, {"delta": delta, "now": q.ships_in_play}))
    return out


def _own(
    p: PlayerView,
    q: PlayerView,
    before: GameView,
    now: GameView,
    seat: int,
    locale: str,
    said_dice: bool = True,
) -> tuple[list[str], list[Phrase], list[str]]:
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
    resources = [
        Phrase(full, short)
        for full, short in zip(
            _resources(p, q, locale), _resources(p, q, locale, short=True), strict=True
        )
    ]
    minor = []
    if q.ships_in_play != p.ships_in_play:
        delta = signed(q.ships_in_play - p.ships_in_play)
        minor.append(text("gains.ships", locale, {"delta": delta, "now": q.ships_in_play}))
    if q.hub_space != p.hub_space:
        key = "gains.hub" if q.hub_space else "gains.hub_empty"
        minor.append(text(key, locale, {"space": q.hub_space, "of": 7}))
    if said_dice and before.current == seat == now.current and before.pending is None:
        dice = Counter((s.value, s.relic) for s in now.undocked)
        if len(now.undocked) == len(before.undocked) and dice != Counter(
            (s.value, s.relic) for s in before.undocked
        ):
            ordered = sorted(now.undocked, key=lambda s: (s.value, s.relic))
            shown = dice_text([Die(s.value, s.relic) for s in ordered], locale)
            minor.append(text("gains.dice", locale, {"dice": shown}))
    if now.current == seat and now.market_rate is not None and before.market_rate is None:
        minor.append(text("gains.market", locale, {"rate": now.market_rate}))
    return out, resources, minor


def description(
    state: GameState,
    moves: Sequence[Action],
    names: Sequence[str],
    locale: str = "en",
    before: GameView | None = None,
) -> str | None:
    """What a pick of ``moves`` yields, within Discord's 100 characters, or None when it
    changes nothing one can count; ``before``: ``state``'s view, if it was worked out
    already. Besides what changes (``phrases``): what a card claimed does, the Alien
    Artifact's count toward a card, a resource count over the limit (to return at the
    turn's end), the decision the pick leaves to take (the Plasma Cannon's next hit), and
    that the game ends with it or the colony it leaves to place (a last colony, R-END-2)."""
    s = after(state, moves)
    if s is None:
        return None
    seat = state.current
    said = phrases(before or view(state), view(s), seat, names, locale)
    gained = Counter(s.players[seat].cards)
    gained.subtract(state.players[seat].cards)
    for card in (c for c, n in gained.items() if n > 0):  # a card taken: what it does
        took = text("gains.card", locale, {"card": card})
        params = {"card": card, "power": text(f"a11y.brief.{card}", locale)}
        claimed = text("gains.card_claimed", locale, params)
        said = [Phrase(claimed, took) if p.words == took else p for p in said]
    said += [Phrase(w, w) for w in _what_next(state, s, moves, seat, locale)]
    ends = text("gains.ends_game", locale)
    if s.over and not state.over:  # first: never the part left out
        said = [Phrase(ends, ends), *said]
    elif _last_colony_next(s, seat):  # after "then choose the territory", never left out
        said.append(Phrase(ends, ends, others=True))
    return fitted(said, DESCRIPTION_LIMIT) or None


def _last_colony_next(s: GameState, seat: int) -> bool:
    """Whether the pick leaves ``seat`` a colony to place that ends the game wherever it
    lands (R-END-2: their last), as the engine says."""
    d = s.pending[0] if s.pending else None
    if d is None or d.kind != "place" or getattr(d, "player", None) != seat:
        return False
    landed = [after(s, [a]) for a in legal_actions(s)]
    return bool(landed) and all(then is not None and then.over for then in landed)


def _what_next(
    state: GameState, s: GameState, moves: Sequence[Action], seat: int, locale: str
) -> list[str]:
    out = []
    docked = any(isinstance(a, Dock) and a.facility == "artifact" for a in moves)
    total = s.turn.artifact_total
    if docked and s.current == seat and 0 < total < ARTIFACT_CLAIM_TOTAL:
        out.append(text("gains.artifact", locale, {"total": total, "of": ARTIFACT_CLAIM_TOTAL}))
    elif docked and s.current == seat and total >= ARTIFACT_CLAIM_TOTAL:
        out.append(text("gains.artifact_ready", locale, {"total": total}))
    was, now = state.players[seat], s.players[seat]
    over = now.fuel + now.ore - HAND_LIMIT
    if over > 0 and now.fuel + now.ore > was.fuel + was.ore:
        out.append(text("gains.over_limit", locale, {"count": over, "limit": HAND_LIMIT}))
    d = s.pending[0] if s.pending else None
    if d is not None and getattr(d, "player", None) == seat and d.kind in NEXT:
        out.append(text(f"gains.then.{d.kind}", locale))
    return out


NEXT: Final = ("place", "raid", "plasma")  # decisions a pick may leave to take


def fitted(parts: Sequence[Phrase | str], limit: int) -> str:
    """``parts`` joined by "; " within ``limit`` characters: all of them, in full or with
    the resources short ("+1 fuel"); else without the player's own last phrases, one at a
    time, and "…" where they were. What happens to another player is never left out (cut
    at a word, with "…", only if that alone is too long)."""
    kept = [p if isinstance(p, Phrase) else Phrase(p, p) for p in parts]
    cut = ""
    while True:
        for words in ([p.words for p in kept], [p.short for p in kept]):
            joined = "; ".join(words) + cut
            if len(joined) <= limit:
                return joined
        own = [i for i, p in enumerate(kept) if not p.others and i > 0]
        if not own:
            return _cut("; ".join(p.short for p in kept), limit)
        del kept[own[-1]]
        cut = ELLIPSIS


ELLIPSIS: Final = "…"


def _cut(words: str, limit: int) -> str:
    """Whole words within ``limit`` characters, then "…"."""
    return words[: limit - len(ELLIPSIS)].rsplit(" ", 1)[0].rstrip(";,") + ELLIPSIS


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
    # The dice are said once: by what is left ("Left to dock: 3 3 6").
    said = [p.words for p in phrases(view(before), then, seat, names, locale, dice=False)]
    parts = [text("gains.done", locale, {"what": what})]
    if said:
        parts.append(sentence("; ".join(said), names) + ".")
    parts.append(left(then, seat, names, locale))
    return " ".join(parts)


__all__ = [
    "DESCRIPTION_LIMIT",
    "Phrase",
    "after",
    "confirmation",
    "description",
    "fitted",
    "gains",
    "left",
    "phrases",
    "signed",
]

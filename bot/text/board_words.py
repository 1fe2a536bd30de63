"""The board in words, for members who cannot see the picture: the images' alt text and
``/af board text:true``.

Both are made from the view the picture is drawn from (``engine.view``), in the language
asked for. WCAG 1.1.1 asks of a complex image a short alternative and a long description:

- **The alt text** (``alt_text``) is the short one, read aloud with every picture: at most
  ``ALT_SUMMARY`` characters (about 60 words, a quarter of a minute) — the round, who acts
  and their dice, each player's victory points, what changed this turn (the notable
  events: colonies, territories, cards, raids...), and where the whole board is in words.
  What does not fit of this turn's changes is left out whole, the latest first, and said
  to be left out.
- **The board in words** (``board_text``, ``/af board text:true``) is the long one, and
  everything the full picture shows: the turn (and the decision waiting), each player
  (VP, fuel, ore, colonies, cards with their VP, the hub track, ships in play, in stock
  and in the Maintenance Bay — which have no value until rolled — and the relic ship),
  the ships on each facility grouped by owner and the free docks, every territory with
  its controller, colonies, fields and bonus (and whose bonus it is), the alien tech
  display, deck, discard pile and bank, and what each card in play does, in one clause.
  At the end of the game the ranking comes first and the territories before the ships.
  A private answer marks the member's own seat "(you)". One fact a line under short
  headings; no emoji or box art (a screen reader reads those as noise).

Sentences start with a capital and facts joined inside one by "; " or ", " keep the case
the catalogue gives them (lower case but for names), in every language.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final

from bot.text.catchup import NOTABLE
from bot.text.describe import event_line, seat_name, sentence
from bot.text.labels import dice_text
from bot.text.limits import ALT_LIMIT, MESSAGE_LIMIT
from bot.text.player_shapes import player_shape
from bot.text.strings import text, thing_name
from bot.text.turn_text import turn_segments
from engine import (
    FACILITY_ORDER,
    PLAYER_COLOURS,
    SHARED_FACILITIES,
    Die,
    Event,
    GameState,
    GameView,
    Ship,
    card_vp,
    view,
)

ALT_SUMMARY: Final = 400  # the alt text's own, within ALT_LIMIT: a quarter of a minute read aloud
HUB_SPACES: Final = 7
FULL_BOARD: Final = "/af board text:true"

# What the alt text tells of a turn's changes, besides the notable events of a catch-up.
CHANGES: Final = NOTABLE | {
    "stole_resource",
    "ship_removed",
    "ship_destroyed",
    "launched",
    "bonus_borrowed",
}


@dataclass(frozen=True, slots=True)
class Fact:
    """One fact of the board: its section's heading key, its words, and whether it heads
    a section of its own (a player's name)."""

    section: str
    line: str
    heading: bool = False


def _values(ships: Sequence[Ship], locale: str) -> str:
    ordered = sorted(ships, key=lambda s: (s.value, s.relic))
    return ", ".join(dice_text([Die(s.value, s.relic)], locale) for s in ordered)


def ships_by_owner(ships: Sequence[Ship], names: Sequence[str], locale: str) -> str:
    """Ships grouped by owner, the owner after the values ("ships 4, 5 of Ann; ship 6 of
    Bob"), so a name's digits ("AI 2") never run into the dice."""
    owners: dict[int, list[Ship]] = {}
    for s in ships:
        owners.setdefault(s.owner, []).append(s)
    return "; ".join(
        text(
            "a11y.ships_of",
            locale,
            {"count": len(own), "values": _values(own, locale), "owner": owner},
            names,
        )
        for owner, own in owners.items()
    )


def _card(card: str, locale: str) -> str:
    """A card's name, with its VP when it has some."""
    name = thing_name(card, locale)
    vp = card_vp(card)  # type: ignore[arg-type]
    return text("a11y.card_vp", locale, {"card": name, "vp": vp}) if vp else name


def _cards(cards: Sequence[str], locale: str) -> str:
    return ", ".join(_card(c, locale) for c in cards) or text("a11y.none", locale)


def _who(seat: int, names: Sequence[str], you: int | None, locale: str) -> str:
    name = seat_name(seat, names)
    return text("a11y.you", locale, {"name": name}) if seat == you else name


def facts(
    state: GameState, names: Sequence[str], locale: str = "en", you: int | None = None
) -> Iterator[Fact]:
    """The board's facts, in reading order (see the module docstring); ``you``: the seat
    of the member asking, marked "(you)"."""
    v = view(state)
    yield from _turn(v, names, locale, you)
    yield from _players(v, names, locale, you)
    if v.over:  # the ships no longer matter: the territories first
        yield from _territories(v, names, locale)
        yield from _docks(v, names, locale)
    else:
        yield from _docks(v, names, locale)
        yield from _territories(v, names, locale)
    yield from _tech(v, locale)


def _turn(v: GameView, names: Sequence[str], locale: str, you: int | None) -> Iterator[Fact]:
    section = "a11y.section.turn"
    result = v.outcome
    if v.over and result is not None:
        yield Fact(section, text("a11y.over", locale, {"round": v.round}))
        for rank, seat in enumerate(ranking(v), start=1):
            key = "a11y.rank_winner" if seat in result.winners else "a11y.rank"
            params = {"rank": rank, "name": _who(seat, names, you, locale)}
            yield Fact(section, text(key, locale, {**params, "vp": result.scores[seat]}))
        return
    params = {"round": v.round, "turn": v.turn_number}
    yield Fact(section, text("a11y.round", locale, params))
    dice = dice_text([Die(s.value, s.relic) for s in v.undocked], locale)
    key = "a11y.to_act" if dice else "a11y.to_act_docked"
    who = _who(v.current, names, you, locale)
    yield Fact(section, text(key, locale, {"player": who, "dice": dice}))
    d = v.pending
    if d is not None and d.player is not None and d.kind in ("place", "raid", "plasma", "return"):
        detail = {k: val for k, val in d.detail.items() if k == "excess"}
        params = {"player": _who(d.player, names, you, locale), **detail}
        yield Fact(section, text(f"a11y.pending.{d.kind}", locale, params))
    if v.market_rate is not None:
        yield Fact(section, text("a11y.market_rate", locale, {"rate": v.market_rate}))


def ranking(v: GameView) -> list[int]:
    """The seats from first to last: the winners first (a tie-break may have decided
    between equal VP), then by VP."""
    result = v.outcome
    assert result is not None
    return sorted(
        range(len(result.scores)), key=lambda p: (p not in result.winners, -result.scores[p])
    )


def _players(v: GameView, names: Sequence[str], locale: str, you: int | None) -> Iterator[Fact]:
    section = "a11y.section.player"
    for p in v.players:
        who = {
            "name": _who(p.seat, names, you, locale),
            "colour": text(f"a11y.colour.{PLAYER_COLOURS[p.seat]}", locale),
            "shape": text(f"a11y.shape.{player_shape(p.seat)}", locale),
        }
        # A player's section starts with their name: a heading of its own.
        yield Fact(section, text("a11y.player", locale, who), heading=True)
        yield Fact(section, text("a11y.vp", locale, {"vp": p.vp}))
        yield Fact(section, text("a11y.fuel", locale, {"fuel": p.fuel}))
        yield Fact(section, text("a11y.ore", locale, {"ore": p.ore}))
        left = p.colonies_unplaced + (1 if p.hub_space else 0)
        placed = {"left": left, "placed": p.colonies_placed}
        yield Fact(section, text("a11y.colonies", locale, placed))
        yield Fact(section, text("a11y.cards", locale, {"cards": _cards(p.cards, locale)}))
        if p.cards_used:
            used = _cards(p.cards_used, locale)
            yield Fact(section, text("a11y.cards_used", locale, {"cards": used}))
        yield Fact(section, text("a11y.hub", locale, {"space": p.hub_space, "of": HUB_SPACES}))
        stock = {"in_play": p.ships_in_play, "stock": p.ships_in_stock}
        yield Fact(section, text("a11y.ships", locale, stock))
        if p.bay:  # a ship in the bay has no value until it is rolled
            yield Fact(section, text("a11y.bay", locale, {"count": len(p.bay)}))
            if any(s.relic for s in p.bay):
                yield Fact(section, text("a11y.relic_in_bay", locale))
        if p.has_relic:
            yield Fact(section, text("a11y.has_relic", locale))


def _docks(v: GameView, names: Sequence[str], locale: str) -> Iterator[Fact]:
    section = "a11y.section.facilities"
    shown = False
    for f in FACILITY_ORDER:
        if f == "hub":
            ships = [s for track in v.hub_tracks for s in track]
        else:
            ships = [d.ship for d in v.docks.get(f, ()) if d.ship is not None]
        if ships:
            shown = True
            said = ships_by_owner(ships, names, locale)
            if f == "terraform":
                said = text("a11y.used_up", locale, {"ships": said})
            params = {"facility": thing_name(f, locale), "ships": said}
            yield Fact(section, text("a11y.facility", locale, params))
    if not shown:
        yield Fact(section, text("a11y.no_ships", locale))
    free = [
        text(
            "a11y.free_at",
            locale,
            {"facility": thing_name(f, locale), "count": n},
        )
        for f in SHARED_FACILITIES
        if (n := sum(1 for d in v.docks.get(f, ()) if d.ship is None and not d.blocked))
    ]
    if free and not v.over:
        yield Fact(section, text("a11y.free", locale, {"docks": ", ".join(free)}))


def _territories(v: GameView, names: Sequence[str], locale: str) -> Iterator[Fact]:
    section = "a11y.section.territories"
    for t in v.territories:
        bonus = text(f"a11y.bonus.{t.id}", locale)
        if t.controller is None:
            first = text("a11y.uncontrolled", locale, {"bonus": bonus})
        else:
            key = "a11y.controlled_void" if "isolation" in t.fields else "a11y.controlled"
            first = text(key, locale, {"player": t.controller, "bonus": bonus}, names)
        parts = [first]
        colonies = [
            text("a11y.colonies_of", locale, {"owner": seat, "count": n}, names)
            for seat, n in enumerate(t.colonies)
            if n
        ]
        if colonies:
            parts.append(text("a11y.colonies_on", locale, {"colonies": ", ".join(colonies)}))
        fields = [
            text("a11y.field", locale, {"field": f, "effect": text(f"a11y.field.{f}", locale)})
            for f in t.fields
        ]
        if fields:
            parts.append(text("a11y.fields_on", locale, {"fields": ", ".join(fields)}))
        if t.relic_here:
            parts.append(text("a11y.relic_here", locale))
        params = {"territory": thing_name(t.id, locale), "facts": "; ".join(parts)}
        yield Fact(section, text("a11y.territory", locale, params))


def _tech(v: GameView, locale: str) -> Iterator[Fact]:
    section = "a11y.section.tech"
    yield Fact(section, text("a11y.display", locale, {"cards": _cards(v.display, locale)}))
    yield Fact(section, text("a11y.deck", locale, {"count": v.deck_count}))
    discard = [c for c, n in v.discard.items() for _ in range(n)]
    yield Fact(section, text("a11y.discard", locale, {"cards": _cards(discard, locale)}))
    if v.supply is not None:
        fuel, ore = v.supply
        yield Fact(section, text("a11y.bank", locale, {"fuel": fuel, "ore": ore}))
    # What each card on the board does (held, on display or in the discard pile), once.
    named = dict.fromkeys([*(c for p in v.players for c in p.cards), *v.display, *discard])
    for card in named:
        params = {"card": thing_name(card, locale), "power": text(f"a11y.power.{card}", locale)}
        yield Fact("a11y.section.powers", text("a11y.power", locale, params))


def board_text(
    state: GameState, names: Sequence[str], locale: str = "en", you: int | None = None
) -> str:
    """The whole board as text: a heading per section (each player's name heads theirs),
    then one fact per line, each a sentence."""
    lines: list[str] = []
    section = None
    for fact in facts(state, names, locale, you):
        if fact.heading:
            lines += ["", f"## {fact.line}"]
        elif fact.section != section and fact.section != "a11y.section.player":
            lines += ["", f"## {text(fact.section, locale)}"]
        if not fact.heading:
            lines.append(f"- {sentence(fact.line, names)}")
        section = fact.section
    return "\n".join(lines).strip() + "\n"


def message_parts(board: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """The text board in messages of at most ``limit`` characters, cut between sections
    (or, for a section longer than a message, between lines)."""
    parts: list[str] = []
    current = ""
    for block in board.strip().split("\n\n"):
        pieces = [block] if len(block) <= limit else block.split("\n")
        for n, piece in enumerate(pieces):
            gap = "\n" if n else "\n\n"  # a section's lines, or between sections
            joined = f"{current}{gap}{piece}" if current else piece
            if len(joined) <= limit:
                current = joined
            else:
                parts.append(current)
                current = piece
    if current:
        parts.append(current)
    return parts


# ---- the alt text: the short alternative -------------------------------------------------


def this_turn(state: GameState) -> list[Event]:
    """The events of the turn in play (or just ended) worth telling in the alt text."""
    return [e for e in turn_segments(state)[-1] if e.key in CHANGES]


def said_changes(events: Sequence[Event], names: Sequence[str], locale: str) -> list[str]:
    """The turn's changes as the log tells them, a raid's resources summed up per raider
    and victim ("Bob steals 1 fuel + 3 ore from Ann") at the place of its first."""
    stolen: dict[tuple[int, int], Counter[str]] = {}
    items: list[Event | tuple[int, int]] = []
    for e in events:
        victim = e.params.get("victim")
        if e.key == "stole_resource" and e.player is not None and isinstance(victim, int):
            raid = (e.player, victim)
            if raid not in stolen:
                items.append(raid)
                stolen[raid] = Counter()
            stolen[raid][str(e.params.get("resource"))] += 1
        else:
            items.append(e)
    out = []
    for item in items:
        if isinstance(item, Event):
            out.append(event_line(item, locale, names))
            continue
        taken = stolen[item]
        amounts = " + ".join(
            text(f"choice.{r}", locale, {"count": taken[r]}) for r in ("fuel", "ore") if taken[r]
        )
        params = {"player": item[0], "victim": item[1], "amounts": amounts}
        out.append(text("a11y.alt.stole", locale, params, names))
    return out


def alt_text(
    state: GameState,
    names: Sequence[str],
    locale: str = "en",
    limit: int = ALT_SUMMARY,
    you: int | None = None,
    full_board: bool = True,
) -> str:
    """The picture's short description (see the module docstring): at most ``limit``
    characters, the changes of this turn left out whole, the latest first, when they do
    not fit (and said to be); ``full_board``: end with where the whole board is in words
    (said with the picture a message is posted with, not again with each redrawn one)."""
    v = view(state)
    head: list[str] = []
    if v.over and v.outcome is not None:
        head.append(text("a11y.alt.over", locale, {"round": v.round}))
        result = v.outcome
        places = []
        for rank, seat in enumerate(ranking(v), start=1):
            key = "a11y.alt.rank_winner" if seat in result.winners else "a11y.alt.rank"
            params = {"rank": rank, "name": _who(seat, names, you, locale)}
            places.append(text(key, locale, {**params, "vp": result.scores[seat]}))
        head.append(sentence("; ".join(places), names) + ".")
    else:
        params = {"round": v.round, "turn": v.turn_number}
        head.append(text("a11y.alt.round", locale, params))
        dice = dice_text([Die(s.value, s.relic) for s in v.undocked], locale)
        key = "a11y.to_act" if dice else "a11y.to_act_docked"
        who = _who(v.current, names, you, locale)
        head.append(sentence(text(key, locale, {"player": who, "dice": dice}), names) + ".")
        head.append(scores_line(v, names, locale, you))
    tail = text("a11y.alt.full", locale, {"command": FULL_BOARD}) if full_board else ""
    changes = [] if v.over else said_changes(this_turn(state), names, locale)
    for shown in range(len(changes), -1, -1):
        middle = []
        if shown:
            said = "; ".join(changes[:shown])
            if shown < len(changes):
                more = text("a11y.alt.more", locale, {"count": len(changes) - shown})
                said = f"{said}; {more}"
            middle.append(text("a11y.alt.changes", locale, {"changes": said}))
        elif changes:
            more = text("a11y.alt.more", locale, {"count": len(changes)})
            middle.append(text("a11y.alt.changes", locale, {"changes": more}))
        words = " ".join([*head, *middle, *[tail] * bool(tail)])
        if len(words) <= limit:
            return words
    return _cut(" ".join([*head, *[tail] * bool(tail)]), limit)


def scores_line(
    v: GameView, names: Sequence[str], locale: str = "en", you: int | None = None
) -> str:
    """Every player's victory points in one sentence ("Scores: Ann: 3; AI 1 (easy): 2."): the
    alt text's, and the one line of a turn message that says them in
    screen-reader mode (whose picture's words are short)."""
    scores = [
        text("a11y.alt.score", locale, {"name": _who(p.seat, names, you, locale), "vp": p.vp})
        for p in v.players
    ]
    return text("a11y.alt.scores", locale, {"scores": "; ".join(scores)})


def _cut(words: str, limit: int) -> str:
    """Whole words within ``limit`` (only names of 32 characters in a 4-player game's
    ranking could come near it)."""
    if len(words) <= limit:
        return words
    return words[: limit - 1].rsplit(" ", 1)[0] + "…"


def board_caption(round_number: int, detail: bool, locale: str) -> str:
    """/af board's caption over the picture: the round, and whether it is the full board."""
    key = "board.caption_detail" if detail else "board.caption"
    return text(key, locale, {"round": round_number})


def brief_alt_text(locale: str = "en") -> str:
    """The alt text of a turn message's picture in a game followed with a screen reader:
    the message itself says the turn, so the picture's words only say what it is (each
    fact said once; the member was told where the board is in words when they chose the
    mode: ``notify.reader.on``)."""
    return text("a11y.alt.brief", locale)


def replay_caption(game_id: int, frames: int, seconds: float, locale: str) -> str:
    """A replay's caption: the game, its frames and how long it plays."""
    return text(
        "replay.caption", locale, {"game": game_id, "frames": frames, "seconds": round(seconds)}
    )


def replay_text(
    game_id: int, frames: int, final: GameState, names: Sequence[str], locale: str = "en"
) -> str:
    """A replay's description: what it is, then its last board in words (within the
    limit)."""
    params = {"game": game_id, "frames": frames, "board": ""}
    head = text("a11y.replay", locale, params)
    return text(
        "a11y.replay",
        locale,
        {**params, "board": alt_text(final, names, locale, ALT_LIMIT - len(head))},
    )


__all__ = [
    "ALT_SUMMARY",
    "FULL_BOARD",
    "Fact",
    "alt_text",
    "board_caption",
    "board_text",
    "brief_alt_text",
    "facts",
    "message_parts",
    "ranking",
    "replay_caption",
    "replay_text",
    "scores_line",
    "ships_by_owner",
]

"""The board in words, for members who cannot see the picture: the images' alt text and
``/af board text:true``.

Both are made from the view the picture is drawn from (``engine.view``), fact by fact,
in the language asked for: the round, whose turn and their dice; each player's VP, fuel,
ore, colonies, ships and cards; who holds ships on each facility (the occupied ones);
who controls each territory, its colonies and fields; the alien tech; at the end, the
ranking. The text board gives every fact on a line of its own under short headings, and
no emoji or box art (a screen reader reads those as noise). The alt text is the same
facts run together, at most ``ALT_LIMIT`` characters (Discord's limit for an
attachment's description): when they do not fit, whole facts are left out, the least
important first (``Fact.rank``), never part of a word.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final

from bot.render.theme import player_shape
from bot.text.describe import seat_name
from bot.text.labels import dice_text
from bot.text.strings import text, thing_name
from engine.actions import Die
from engine.state import GameState, Ship
from engine.tables import FACILITY_ORDER, PLAYER_COLOURS
from engine.view import GameView, view

ALT_LIMIT: Final = 1024
MESSAGE_LIMIT: Final = 2000  # Discord's, for a message's content
HUB_SPACES: Final = 7

# What the alt text leaves out first when it is too long (a higher rank goes first).
KEEP: Final = 0  # the turn, the ranking, each player's VP
PLAYER: Final = 1  # the rest of a player's resources
DOCKS: Final = 2  # ships on the facilities
LAND: Final = 3  # territories with colonies or a controller
CARDS: Final = 4  # the players' cards
DETAIL: Final = 5  # hub tracks, the bay, ships in stock, fields, the relic ship
TECH: Final = 6  # the display, the deck, the discard pile, the bank


@dataclass(frozen=True, slots=True)
class Fact:
    """One fact of the board: its section's heading key, its words, how early the alt text
    drops it (``rank``: higher goes first), whether the alt text has it at all, and
    whether it heads a section of its own (a player's name)."""

    section: str
    line: str
    rank: int
    in_alt: bool = True
    heading: bool = False
    alt_line: str | None = None  # shorter words for the alt text, if any

    def said(self) -> str:
        return self.alt_line if self.alt_line is not None else self.line


def _ships(ships: Sequence[Ship], names: Sequence[str], locale: str) -> str:
    """Ships as "Ann 4, Bob 5 (relic)"."""
    return ", ".join(
        text(
            "a11y.ship",
            locale,
            {
                "owner": seat_name(s.owner, names),
                "value": dice_text([Die(s.value, s.relic)], locale),
            },
        )
        for s in ships
    )


def _cards(cards: Sequence[str], locale: str) -> str:
    return ", ".join(thing_name(c, locale) for c in cards) or text("a11y.none", locale)


def facts(state: GameState, names: Sequence[str], locale: str = "en") -> Iterator[Fact]:
    """The board's facts, in reading order (see the module docstring)."""
    v = view(state)
    yield from _turn(v, names, locale)
    yield from _players(v, names, locale)
    yield from _docks(v, names, locale)
    yield from _territories(v, names, locale)
    yield from _tech(v, locale)


def _turn(v: GameView, names: Sequence[str], locale: str) -> Iterator[Fact]:
    section = "a11y.section.turn"
    result = v.outcome
    if v.over and result is not None:
        yield Fact(section, text("a11y.over", locale, {"round": v.round}), KEEP)
        # The winners first (a tie-break may have decided between equal VP), then by VP.
        order = sorted(
            range(len(result.scores)), key=lambda p: (p not in result.winners, -result.scores[p])
        )
        for rank, seat in enumerate(order, start=1):
            key = "a11y.rank_winner" if seat in result.winners else "a11y.rank"
            params = {"rank": rank, "name": seat_name(seat, names), "vp": result.scores[seat]}
            yield Fact(section, text(key, locale, params), KEEP)
        return
    params = {"round": v.round, "turn": v.turn_number}
    yield Fact(section, text("a11y.round", locale, params), KEEP)
    dice = dice_text([Die(s.value, s.relic) for s in v.undocked], locale)
    key = "a11y.to_act" if dice else "a11y.to_act_docked"
    yield Fact(
        section, text(key, locale, {"player": seat_name(v.current, names), "dice": dice}), KEEP
    )


def _players(v: GameView, names: Sequence[str], locale: str) -> Iterator[Fact]:
    for p in v.players:
        section = "a11y.section.player"
        who = {
            "name": seat_name(p.seat, names),
            "colour": text(f"a11y.colour.{PLAYER_COLOURS[p.seat]}", locale),
            "shape": text(f"a11y.shape.{player_shape(p.seat)}", locale),
        }
        # A player's section starts with their name: a heading of its own.
        yield Fact(section, text("a11y.player", locale, who), KEEP, heading=True)
        yield Fact(section, text("a11y.vp", locale, {"vp": p.vp}), KEEP)
        yield Fact(section, text("a11y.fuel", locale, {"fuel": p.fuel}), PLAYER)
        yield Fact(section, text("a11y.ore", locale, {"ore": p.ore}), PLAYER)
        left = p.colonies_unplaced + (1 if p.hub_space else 0)
        placed = {"left": left, "placed": p.colonies_placed}
        yield Fact(section, text("a11y.colonies", locale, placed), PLAYER)
        yield Fact(section, text("a11y.cards", locale, {"cards": _cards(p.cards, locale)}), CARDS)
        if p.cards_used:
            used = _cards(p.cards_used, locale)
            yield Fact(section, text("a11y.cards_used", locale, {"cards": used}), DETAIL)
        hub = {"hub": thing_name("hub", locale), "space": p.hub_space, "of": HUB_SPACES}
        yield Fact(section, text("a11y.hub", locale, hub), DETAIL)
        stock = {"in_play": p.ships_in_play, "stock": p.ships_in_stock}
        yield Fact(section, text("a11y.ships", locale, stock), DETAIL)
        if p.bay:
            bay = {"bay": thing_name("bay", locale), "ships": _ships(p.bay, names, locale)}
            yield Fact(section, text("a11y.bay", locale, bay), DETAIL)
        if p.has_relic:
            yield Fact(section, text("a11y.has_relic", locale), DETAIL)


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
            params = {"facility": thing_name(f, locale), "ships": _ships(ships, names, locale)}
            yield Fact(section, text("a11y.facility", locale, params), DOCKS)
    if not shown:
        yield Fact(section, text("a11y.no_ships", locale), DOCKS)


def _territories(v: GameView, names: Sequence[str], locale: str) -> Iterator[Fact]:
    section = "a11y.section.territories"
    for t in v.territories:
        control = (
            [text("a11y.controlled", locale, {"player": seat_name(t.controller, names)})]
            if t.controller is not None
            else []
        )
        colonies = [
            text("a11y.colonies_of", locale, {"name": seat_name(seat, names), "count": n})
            for seat, n in enumerate(t.colonies)
            if n
        ]
        held = [text("a11y.colonies_on", locale, {"colonies": ", ".join(colonies)})] * bool(
            colonies
        )
        fields = [thing_name(f, locale) for f in t.fields]
        on_it = [text("a11y.fields_on", locale, {"fields": ", ".join(fields)})] * bool(fields)
        relic = [text("a11y.relic_here", locale)] * t.relic_here
        parts = [*control, *held, *on_it, *relic] or [text("a11y.empty", locale)]
        name = thing_name(t.id, locale)
        # The alt text tells who controls a territory and its fields, not its colonies;
        # a territory with neither is only in the text board.
        short = [*control, *on_it]
        yield Fact(
            section,
            text("a11y.territory", locale, {"territory": name, "facts": "; ".join(parts)}),
            LAND if control else DETAIL,
            in_alt=bool(short),
            alt_line=text("a11y.territory", locale, {"territory": name, "facts": ", ".join(short)}),
        )


def _tech(v: GameView, locale: str) -> Iterator[Fact]:
    section = "a11y.section.tech"
    yield Fact(section, text("a11y.display", locale, {"cards": _cards(v.display, locale)}), TECH)
    yield Fact(section, text("a11y.deck", locale, {"count": v.deck_count}), TECH)
    discard = [c for c, n in v.discard.items() for _ in range(n)]
    yield Fact(section, text("a11y.discard", locale, {"cards": _cards(discard, locale)}), TECH)
    if v.supply is not None:
        fuel, ore = v.supply
        yield Fact(section, text("a11y.bank", locale, {"fuel": fuel, "ore": ore}), TECH)


def board_text(state: GameState, names: Sequence[str], locale: str = "en") -> str:
    """The whole board as text: a heading per section (each player's name heads theirs),
    then one fact per line."""
    lines: list[str] = []
    section = None
    for fact in facts(state, names, locale):
        if fact.heading:
            lines += ["", f"## {fact.line}"]
        elif fact.section != section and fact.section != "a11y.section.player":
            lines += ["", f"## {text(fact.section, locale)}"]
        if not fact.heading:
            lines.append(f"- {fact.line}")
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


def alt_text(
    state: GameState, names: Sequence[str], locale: str = "en", limit: int = ALT_LIMIT
) -> str:
    """The picture's description: the facts run together, shortened to ``limit`` by leaving
    out whole facts, the least important first."""
    kept = [f for f in facts(state, names, locale) if f.in_alt]
    intro = text("a11y.alt_intro", locale)
    for rank in range(TECH, KEEP - 1, -1):
        said = _run_together(intro, kept)
        if len(said) <= limit:
            return said
        kept = [f for f in kept if f.rank < rank]
    said = _run_together(intro, kept)
    if len(said) <= limit:
        return said
    return said[: limit - 1].rsplit(" ", 1)[0] + "…"  # whole words (not reached: 4 players)


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


def _run_together(intro: str, kept: Sequence[Fact]) -> str:
    """Facts as sentences: a section's facts (a player's after their name and a colon)
    joined by "; ", sections by ". "."""
    out = [intro]
    section: str | None = None
    parts: list[str] = []
    for fact in kept:
        if fact.heading or fact.section != section:
            if parts:
                out.append("; ".join(parts) + ".")
            parts = []
            section = fact.section
        if fact.heading:
            out.append(f"{fact.line}:")
        else:
            parts.append(fact.said())
    if parts:
        out.append("; ".join(parts) + ".")
    return " ".join(out)


__all__ = [
    "ALT_LIMIT",
    "MESSAGE_LIMIT",
    "Fact",
    "alt_text",
    "board_text",
    "facts",
    "message_parts",
    "replay_text",
]

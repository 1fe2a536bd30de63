"""Who a game rates, how, and against whom: the rules a competitive server can trust.

A member is rated for what they played, never for moves they did not make:

- **Leaving counts as last.** A member who leaves a game in play (``left``), is removed
  from it (``kicked``), has their seat handed to another member (``replaced``) or to the
  AI by the turn clock (``timeout``), or aborts a game they sit in (``aborted``) is rated
  at that moment as last among the seats still in, against each of them as they stand
  then (a member's rating, an AI level's anchor), in the order ahead of them that costs
  most (the strongest first): leaving is never better than finishing last. Only the
  leaver's rating moves: nobody
  gains from someone else leaving. It is final for that game: taking the seat back later
  does not change it, and the game's end does not rate them again.
- **At the end** every seat counts at its place (VP, then the rules' tie-breaks; exact
  ties share a place), for the others as whoever holds it then (a member's rating, or the
  anchor of the AI level playing it). A member holding a seat at the end is rated by its
  place (``result``) if they played every one of its turns; if the bot played some of
  them (a turn that timed out), or another member played some before a seat was handed
  to them, the game can lower their rating but not raise it (``helped``); if the bot
  played most of their seat's turns and nobody else did, they count as last (``absent``);
  a member handed a seat that others played for most of the game is not rated by it.
- A seat held by an AI at the end rates nobody: an AI never gains or loses, and the
  member who left it was rated when they left.

A turn counts as played by a member when every action of its seat in it was theirs; an
action of the bot (a timeout played by the AI or skipped, an AI holding the seat) makes
the turn the bot's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, get_args

from bot.store.ai_anchors import anchor
from bot.store.ratings import NEWCOMER, Change, Entrant, Skill, updated

Reason = Literal["left", "kicked", "timeout", "replaced", "aborted", "unknown"]
REASONS: Final[tuple[Reason, ...]] = get_args(Reason)
Played = Literal["result", "helped", "absent"]


@dataclass(frozen=True, slots=True)
class Holder:
    """Who held a seat at a moment: a member (``user_id``) or an AI level."""

    seat: int
    user_id: int | None = None
    ai_level: str | None = None


@dataclass(frozen=True, slots=True)
class Departure:
    """A member out of a game in play, and why (``unknown``: in a game that finished
    before the bot recorded departures), and the other seats as they were then."""

    user_id: int
    seat: int
    reason: Reason
    others: tuple[Holder, ...]
    name: str = ""

    @property
    def players(self) -> int:
        return len(self.others) + 1


@dataclass(frozen=True, slots=True)
class SeatPlay:
    """A seat of a finished game as its end rates it: its place, who held it at the end
    (a member, or an AI level with ``user_id`` the member who left it), and who played
    its ``turns``: ``own_turns`` by ``user_id``, ``bot_turns`` by the bot, the rest by
    other members."""

    seat: int
    place: int
    user_id: int | None = None
    ai_level: str | None = None
    turns: int = 0
    own_turns: int = 0
    bot_turns: int = 0


def played(p: SeatPlay) -> Played | None:
    """How the seat's end rates the member holding it (None: not at all; see the module
    docstring). An AI seat rates nobody."""
    if p.user_id is None or p.ai_level is not None:
        return None
    others = p.turns - p.own_turns - p.bot_turns
    if 2 * p.own_turns < p.turns:
        return "absent" if others == 0 else None
    return "result" if p.own_turns == p.turns else "helped"


def turns_by_seat(
    actions: Iterable[tuple[int, int | None, Sequence[Any]]],
) -> dict[int, Counter[int | None]]:
    """Per seat, who played its turns (a member's id, or None for the bot), from the logged
    actions in order: (actor, the member who acted or None, the events it logged)."""
    out: dict[int, Counter[int | None]] = {}
    current: int | None = None
    players: set[int | None] = set()

    def close() -> None:
        if current is not None and players:
            members = {p for p in players if p is not None}
            who = None if None in players or len(members) != 1 else next(iter(members))
            out.setdefault(current, Counter())[who] += 1

    for actor, user_id, events in actions:
        if current is not None and actor == current:
            players.add(user_id)
        for e in events:
            if isinstance(e, Mapping) and e.get("key") == "turn_started":
                close()
                seat = e.get("player")
                current = seat if isinstance(seat, int) else None
                players = set()
    close()
    return out


def strength(holder: Holder, players: int, current: Mapping[int, Skill]) -> Skill | None:
    """A seat's rating for the others: its member's (a newcomer's if they have none), or
    its AI level's anchor for the game's seat count (None for a level with none)."""
    if holder.user_id is not None and holder.ai_level is None:
        return current.get(holder.user_id, NEWCOMER)
    found = anchor(str(holder.ai_level), players)
    return None if found is None else Skill(*found)


def last_of(before: Skill, others: Sequence[Skill]) -> tuple[float, float] | None:
    """A member's new rating as last behind ``others``, taken strongest first: of every
    order they could have finished in ahead of the member, the one that costs the member
    most, so that leaving is never better than finishing last."""
    if not others:
        return None
    ahead = sorted(others, key=lambda s: -s.mu)
    table = [Entrant(s.mu, s.sigma, place) for place, s in enumerate(ahead, start=1)]
    table.append(Entrant(before.mu, before.sigma, len(table) + 1))
    return updated(table, len(table) - 1)


def departure_changes(d: Departure, current: Mapping[int, Skill]) -> list[Change]:
    """The leaver's change: last among the seats still in (theirs alone moves)."""
    before = current.get(d.user_id, NEWCOMER)
    others = [
        s
        for h in d.others
        if h.user_id != d.user_id or h.ai_level is not None
        if (s := strength(h, d.players, current)) is not None
    ]
    new = last_of(before, others)
    if new is None:
        return []
    after = Skill(new[0], new[1], before.games + 1)
    return [Change(d.user_id, d.seat, len(others) + 1, before, after, d.reason)]


def end_changes(
    seats: Sequence[SeatPlay], departed: Collection[int], current: Mapping[int, Skill]
) -> list[Change]:
    """The changes a game's end makes: every seat at its place, each member rated as
    ``played`` says (members who left earlier in the game are not rated again; a member
    holding two seats counts at the first)."""
    players = len(seats)
    table: list[tuple[SeatPlay, Skill]] = []
    seen: set[int] = set()
    for p in sorted(seats, key=lambda s: s.seat):
        if p.ai_level is None and p.user_id is not None:
            if p.user_id in seen:
                continue
            seen.add(p.user_id)
        skill = strength(Holder(p.seat, p.user_id, p.ai_level), players, current)
        if skill is not None:
            table.append((p, skill))
    if len(table) < 2:
        return []
    entrants = [Entrant(s.mu, s.sigma, p.place) for p, s in table]
    changes = []
    for i, (p, before) in enumerate(table):
        how = played(p)
        if how is None or p.user_id is None or p.user_id in departed:
            continue
        if how == "absent":
            new = last_of(before, [s for j, (_, s) in enumerate(table) if j != i])
            place = len(table)
        else:
            new = updated(entrants, i)
            place = p.place
        if new is None:
            continue
        mu, sigma = new
        if how == "helped" and mu > before.mu:
            mu, sigma = before.mu, before.sigma  # the bot's moves never raise a rating
        after = Skill(mu, sigma, before.games + 1)
        changes.append(Change(p.user_id, p.seat, place, before, after, how))
    return changes


__all__ = [
    "REASONS",
    "Departure",
    "Holder",
    "Played",
    "Reason",
    "SeatPlay",
    "departure_changes",
    "end_changes",
    "last_of",
    "played",
    "strength",
    "turns_by_seat",
]

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
- **A seat counts as who played it.** For the others, a seat is as strong as the players
  of its turns, weighted by their turns (``played_by``): the AI levels that held it (by
  their anchors), the members who played it (by their ratings). Handing a seat the easy
  AI played all game to the hard AI for its last turn does not make beating it a win
  over the hard AI, nor losing to a hard seat handed to the easy AI a loss to the easy one.
- A member handed a seat (``/af replace``) or removed from it (``/af kick``) before they
  made a move in it is not rated by it (``bot.play.seat_service``): nobody can be rated for a
  seat someone else put them in and took them out of.

A turn counts as played by a member when every action of its seat in it was theirs; an
action of the bot (a timeout played by the AI or skipped, an AI holding the seat) makes
the turn the bot's.
"""

from __future__ import annotations

import json
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


# Who played a seat's turns: (member's user_id or None, AI level or None, turns), each
# player once. A bot turn of a member's seat (timed out) counts as that member's.
PlayedBy = tuple[tuple[int | None, str | None, int], ...]


def played_json(played: PlayedBy) -> str:
    return json.dumps([list(p) for p in played], separators=(",", ":")) if played else ""


def played_from_json(raw: str | None) -> PlayedBy:
    """``played_json``'s text read back (() for '' or a broken value)."""
    if not raw:
        return ()
    try:
        return tuple(
            (None if u is None else int(u), None if lv is None else str(lv), int(n))
            for u, lv, n in json.loads(raw)
        )
    except (ValueError, TypeError):
        return ()


@dataclass(frozen=True, slots=True)
class Handover:
    """A seat's holder before a change in play: the member (``user_id``) or AI level that
    held it until the log's action ``until`` (the first action after the change), and
    when the change was (``at``)."""

    until: int
    user_id: int | None
    ai_level: str | None
    at: float


def holders_json(holders: Sequence[Handover]) -> str:
    return json.dumps(
        [[h.until, h.user_id, h.ai_level, h.at] for h in holders], separators=(",", ":")
    )


def holders_from_json(raw: str | None) -> list[Handover]:
    if not raw:
        return []
    try:
        return [
            Handover(int(n), None if u is None else int(u), lv, float(t))
            for n, u, lv, t in json.loads(raw)
        ]
    except (ValueError, TypeError):
        return []


def turn_starts(
    actions: Iterable[tuple[int, int, int | None, Sequence[Any]]],
) -> list[tuple[int, int, int | None]]:
    """Each turn of the log as (seat, the seq of the action that started it, who played it:
    a member's id, or None for the bot), from the logged actions in order: (seq, actor,
    the member who acted or None, the events it logged). See ``turns_by_seat``."""
    out: list[tuple[int, int, int | None]] = []
    current: int | None = None
    start = 0
    players: set[int | None] = set()

    def close() -> None:
        if current is not None and players:
            members = {p for p in players if p is not None}
            who = None if None in players or len(members) != 1 else next(iter(members))
            out.append((current, start, who))

    for seq, actor, user_id, events in actions:
        if current is not None and actor == current:
            players.add(user_id)
        for e in events:
            if isinstance(e, Mapping) and e.get("key") == "turn_started":
                close()
                seat = e.get("player")
                current = seat if isinstance(seat, int) else None
                start = seq
                players = set()
    close()
    return out


def played_by(
    turns: Iterable[tuple[int, int, int | None]],
    holders: Mapping[int, Sequence[Handover]],
    now: Mapping[int, tuple[int | None, str | None]],
) -> dict[int, PlayedBy]:
    """Per seat, who played its turns: a member's turn is theirs; a bot's turn is the
    holder's when it started (``holders``: each seat's earlier holders; ``now``: its
    holder at the end), an AI level's or, for a member's timed-out turn, the member's."""
    counts: dict[int, Counter[tuple[int | None, str | None]]] = {}
    for seat, start, who in turns:
        if who is not None:
            key: tuple[int | None, str | None] = (who, None)
        else:
            held = next((h for h in holders.get(seat, ()) if h.until > start), None)
            key = (held.user_id, held.ai_level) if held is not None else now.get(seat, (None, None))
        counts.setdefault(seat, Counter())[key] += 1
    return {
        seat: tuple((u, lv, n) for (u, lv), n in sorted(c.items(), key=lambda kv: -kv[1]))
        for seat, c in counts.items()
    }


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
    played_by: PlayedBy = ()


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
    for seat, _, who in turn_starts((0, actor, user, events) for actor, user, events in actions):
        out.setdefault(seat, Counter())[who] += 1
    return out


def strength(holder: Holder, players: int, current: Mapping[int, Skill]) -> Skill | None:
    """A seat's rating for the others: its member's (a newcomer's if they have none), or
    its AI level's anchor for the game's seat count (None for a level with none)."""
    if holder.user_id is not None and holder.ai_level is None:
        return current.get(holder.user_id, NEWCOMER)
    found = anchor(str(holder.ai_level), players)
    return None if found is None else Skill(*found)


def seat_strength(p: SeatPlay, players: int, current: Mapping[int, Skill]) -> Skill | None:
    """A finished seat's rating for the others: the players of its turns, weighted by
    their turns (``played_by``; as held at the end when not recorded)."""
    weighted = [
        (s, n)
        for u, lv, n in p.played_by
        if n > 0 and (s := strength(Holder(p.seat, u, lv), players, current)) is not None
    ]
    total = sum(n for _, n in weighted)
    if not total:
        return strength(Holder(p.seat, p.user_id, p.ai_level), players, current)
    mu = sum(s.mu * n for s, n in weighted) / total
    sigma = sum(s.sigma * n for s, n in weighted) / total
    return Skill(mu, sigma)


def ai_played(p: SeatPlay) -> bool:
    """Whether the AI held the seat at the end, or its levels played most of its turns."""
    if p.ai_level is not None:
        return True
    ai = sum(n for u, lv, n in p.played_by if lv is not None)
    return 2 * ai > sum(n for _, _, n in p.played_by)


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
        skill = seat_strength(p, players, current)
        if skill is not None:
            table.append((p, skill))
    if len(table) < 2:
        return []
    entrants = [Entrant(s.mu, s.sigma, p.place, ai_played(p)) for p, s in table]
    changes = []
    for i, (p, _) in enumerate(table):
        how = played(p)
        if how is None or p.user_id is None or p.user_id in departed:
            continue
        before = current.get(p.user_id, NEWCOMER)  # their own rating, whoever helped
        mine = [*entrants[:i], Entrant(before.mu, before.sigma, p.place), *entrants[i + 1 :]]
        if how == "absent":
            new = last_of(before, [s for j, (_, s) in enumerate(table) if j != i])
            place = len(table)
        else:
            new = updated(mine, i)
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
    "Handover",
    "Holder",
    "Played",
    "PlayedBy",
    "Reason",
    "SeatPlay",
    "ai_played",
    "departure_changes",
    "end_changes",
    "holders_from_json",
    "holders_json",
    "last_of",
    "played",
    "played_by",
    "played_from_json",
    "played_json",
    "seat_strength",
    "strength",
    "turn_starts",
    "turns_by_seat",
]

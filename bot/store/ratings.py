"""Members' ratings: what a finished game does to them, and how a rating is shown.

A rating is openskill's Weng–Lin Plackett–Luce estimate of a member's skill: ``mu`` (the
estimate) and ``sigma`` (how unsure it is). Every finished game of a server (at least
one member seated; never an aborted game, never a guided game) updates its members'
ratings of the server's current season, in the transaction that records its results
(``bot.store.rating_store``). Players are ranked by their place at the end — VP, then the
rules' tie-breaks (``engine.scoring.places``); players equal on all of them tie.

AI seats play with fixed ratings per level (``bot.store.ai_anchors``, measured from AI-vs-AI
games): they take part in the update like anyone else, but their own new rating is
thrown away, so an AI never gains or loses and beating the hard AI is worth more than
beating the easy one, on a server of three members as on one of three hundred.

Shown to players as one number, ``BASE + SCALE × (mu − 3·sigma)``: a conservative
estimate (the skill the member has with 99.7 % certainty at least) that starts at
``BASE`` for everyone and rises as games make the bot surer of them. A member with fewer
than ``PROVISIONAL_GAMES`` rated games has a provisional rating.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from openskill.models import PlackettLuce

from bot.store.ai_anchors import AI_ANCHORS

MODEL: Final = PlackettLuce()
BASE: Final = 1000
SCALE: Final = 40
PROVISIONAL_GAMES: Final = 5


@dataclass(frozen=True, slots=True)
class Skill:
    """A member's rating in one season: openskill's estimate and their rated games."""

    mu: float
    sigma: float
    games: int = 0

    @property
    def shown(self) -> int:
        return shown(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


NEWCOMER: Final = Skill(MODEL.mu, MODEL.sigma, 0)


def shown(mu: float, sigma: float) -> int:
    """The rating players see: a scaled ``mu − 3·sigma`` (openskill's ordinal)."""
    return round(BASE + SCALE * (mu - 3 * sigma))


@dataclass(frozen=True, slots=True)
class RatedSeat:
    """A seat of a finished game as the update sees it: a member (``user_id``) or an AI
    (``ai_level``), and its place (1 = won)."""

    seat: int
    place: int
    user_id: int | None = None
    ai_level: str | None = None


@dataclass(frozen=True, slots=True)
class Change:
    """What one game did to one member's rating."""

    user_id: int
    seat: int
    place: int
    before: Skill
    after: Skill

    @property
    def delta(self) -> int:
        """The change of the shown rating."""
        return self.after.shown - self.before.shown


def rated_seats(seats: Sequence[RatedSeat]) -> list[RatedSeat]:
    """The seats a game's update takes: every AI seat and each member's first seat (a
    member seated twice counts once, at their first seat)."""
    seen: set[int] = set()
    out = []
    for s in sorted(seats, key=lambda s: s.seat):
        if s.user_id is not None:
            if s.user_id in seen:
                continue
            seen.add(s.user_id)
        elif s.ai_level not in AI_ANCHORS:
            continue
        out.append(s)
    return out


def rate(seats: Sequence[RatedSeat], current: Mapping[int, Skill]) -> list[Change]:
    """The members' rating changes of one finished game, given their ratings before it
    (``current``: a member missing is a newcomer). No change when no member is seated
    or fewer than two seats take part."""
    taken = rated_seats(seats)
    members = [s for s in taken if s.user_id is not None]
    if not members or len(taken) < 2:
        return []
    before: dict[int, Skill] = {
        s.user_id: current.get(s.user_id, NEWCOMER) for s in members if s.user_id is not None
    }
    teams = []
    for s in taken:
        if s.user_id is not None:
            skill = before[s.user_id]
            teams.append([MODEL.rating(mu=skill.mu, sigma=skill.sigma)])
        else:
            mu, sigma = AI_ANCHORS[str(s.ai_level)]
            teams.append([MODEL.rating(mu=mu, sigma=sigma)])
    new = MODEL.rate(teams, ranks=[float(s.place) for s in taken])
    changes = []
    for s, team in zip(taken, new, strict=True):
        if s.user_id is None:
            continue  # an AI's anchor never moves
        old = before[s.user_id]
        after = Skill(float(team[0].mu), float(team[0].sigma), old.games + 1)
        changes.append(Change(s.user_id, s.seat, s.place, old, after))
    return changes


__all__ = [
    "BASE",
    "MODEL",
    "NEWCOMER",
    "PROVISIONAL_GAMES",
    "SCALE",
    "Change",
    "RatedSeat",
    "Skill",
    "rate",
    "rated_seats",
    "shown",
]

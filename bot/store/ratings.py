"""Members' ratings: the arithmetic of one rated moment, and how a rating is shown.

A rating is openskill's Weng–Lin Plackett–Luce estimate of a member's skill: ``mu`` (the
estimate) and ``sigma`` (how unsure it is). Who is rated when, and against whom (a
finished game, a member leaving one), is ``bot.store.rating_rules``'s; this module rates
one table of entrants, each with a rating and a place (1 = first), for one of them.

AI seats play with fixed ratings per level and seat count (``bot.store.ai_anchors``,
measured from AI-vs-AI games): they take part in the update like anyone else, but their
own new rating is never computed, so an AI never gains or loses.

Two corrections to openskill's own update, each for a flaw a player can use:

- **Ties.** openskill's Plackett–Luce shares a tied place by weighting the tied players'
  terms, which can leave two co-winners below the third (its issue #155: Ann and Bob tie
  for first, Cid is third, and Cid gains more). Here a table with ties is rated as the
  average of the strict orders its ties allow, each order of the tied players as likely:
  a player tied for a place gets the mean of the updates of the places they share, never
  less than the place below them.
- **No gain from a seat below.** The model's logistic curve says a much stronger
  player still loses now and then, so every win over a much weaker seat adds a little,
  for ever; in this game the normal AI beats the easy one in every two-player game, and
  a hundred such wins would lift a member as strong as the normal AI above the hard AI.
  So a member's update is never more than what it would be with the weaker seats left
  out: a member's seat rated more than ``MARGIN`` below them, and an AI seat rated below
  them at all. Beating such a seat gives nothing, while losing to it (or tying with it)
  costs what it costs. (The smaller of the two updates, each a plain one over a fixed
  table, so a better place still never gives less.) Why any AI seat below: an AI's
  rating is a fixed anchor measured from AI-vs-AI tables, and at three and four seats
  those tables put the easy AI only a little below the normal one, while the normal AI
  beats three easy AIs in nearly every game; farming the easy AI at four seats lifted a
  member as strong as the normal AI to 1418 (above the hard AI's 1026). Beating an AI
  weaker than you proves nothing about you, so your rating can rise from AI seats only
  up to the strongest AI level you beat.

Shown to players as one number, ``BASE + SCALE × (mu − 25)``: the estimate itself, 1000
for a newcomer and for the normal AI, up when ``mu`` goes up and down when it goes down
(a conservative ``mu − 3·sigma`` would rise with the number of games alone and could rise
after a loss). A member with fewer than ``PROVISIONAL_GAMES`` rated games has a
provisional rating: it still moves a lot, and the leaderboard lists it apart.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import permutations, product
from typing import Final

from openskill.models import PlackettLuce

MODEL: Final = PlackettLuce()
BASE: Final = 1000
SCALE: Final = 40
PROVISIONAL_GAMES: Final = 10
# A seat this far below a member (on mu: 3 × beta, 500 shown points) that finished behind
# them is left out of their update. The two-player easy AI sits 17.6 below a newcomer.
MARGIN: Final = 3 * MODEL.beta


@dataclass(frozen=True, slots=True)
class Skill:
    """A member's rating in one season: openskill's estimate and their rated games."""

    mu: float
    sigma: float
    games: int = 0

    @property
    def shown(self) -> int:
        return shown(self.mu)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


NEWCOMER: Final = Skill(MODEL.mu, MODEL.sigma, 0)


def shown(mu: float) -> int:
    """The rating players see: ``mu`` on a scale where a newcomer has 1000."""
    return round(BASE + SCALE * (mu - MODEL.mu))


@dataclass(frozen=True, slots=True)
class Entrant:
    """A seat of a rated table: its rating (a member's, or an AI level's anchor) and its
    place (1 = first; equal places are a tie)."""

    mu: float
    sigma: float
    place: int
    ai: bool = False  # an AI seat (a fixed anchor): no gain from it when it is below


@dataclass(frozen=True, slots=True)
class Change:
    """What one rated moment did to one member's rating: ``how`` they were rated (see
    ``bot.store.rating_rules``), the seat and the place it counted as."""

    user_id: int
    seat: int
    place: int
    before: Skill
    after: Skill
    how: str = "result"

    @property
    def delta(self) -> int:
        """The change of the shown rating."""
        return self.after.shown - self.before.shown


def strict_orders(places: Sequence[int]) -> Iterator[list[int]]:
    """Every strict order (ranks 1..n, per entrant) the places allow: the entrants of a
    shared place in each of their orders (at most 4! of them)."""
    groups: dict[int, list[int]] = {}
    for i, place in enumerate(places):
        groups.setdefault(place, []).append(i)
    ordered = [groups[p] for p in sorted(groups)]
    for combo in product(*(permutations(g) for g in ordered)):
        ranks = [0] * len(places)
        rank = 0
        for group in combo:
            for i in group:
                rank += 1
                ranks[i] = rank
        yield ranks


def updated(entrants: Sequence[Entrant], who: int) -> tuple[float, float]:
    """The new ``(mu, sigma)`` of entrant ``who`` after the table: openskill's
    Plackett–Luce update, averaged over the strict orders its ties allow; and never more
    than the same update leaves them with the weaker seats left out: a member's rated more
    than ``MARGIN`` below them, an AI's rated below them at all (a win over such a seat
    gives nothing, a loss or a tie to it costs)."""
    me = entrants[who]
    full = _averaged(entrants, who)
    near = [
        i
        for i, e in enumerate(entrants)
        if i == who or (e.mu >= me.mu if e.ai else me.mu - e.mu <= MARGIN)
    ]
    if len(near) == len(entrants):
        return full
    without = _averaged([entrants[i] for i in near], near.index(who))
    return min(full, without)


def _averaged(entrants: Sequence[Entrant], who: int) -> tuple[float, float]:
    """openskill's Plackett–Luce update of ``who``, averaged over the strict orders the
    table's ties allow (a table of one: no change)."""
    me = entrants[who]
    if len(entrants) < 2:
        return me.mu, me.sigma
    teams = [[MODEL.rating(mu=e.mu, sigma=e.sigma)] for e in entrants]
    mu = sigma = 0.0
    count = 0
    for ranks in strict_orders([e.place for e in entrants]):
        new = MODEL.rate(teams, ranks=[float(r) for r in ranks])
        mu += float(new[who][0].mu)
        sigma += float(new[who][0].sigma)
        count += 1
    return mu / count, sigma / count


__all__ = [
    "BASE",
    "MARGIN",
    "MODEL",
    "NEWCOMER",
    "PROVISIONAL_GAMES",
    "SCALE",
    "Change",
    "Entrant",
    "Skill",
    "shown",
    "strict_orders",
    "updated",
]

"""A hand-written evaluation of a state from one seat's point of view.

Units are victory points (VP). A seat's worth adds its VP, a soft view of territory
control, colony progress (hub track, a colony waiting to be placed), resources, ships,
alien tech cards and territory bonuses (worth more early, when they have time to pay
off), minus what an open Raiders' Outpost threatens to take before its next turn.
The score of a state is the seat's worth minus its strongest opponents' worth.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import chain
from typing import Final

from engine.ai.threats import raid_exposure
from engine.scoring import outcome
from engine.state import GameState, PlaceColonyDecision, PlayerState
from engine.tables import (
    ARTIFACT_CLAIM_TOTAL,
    CARDS,
    HAND_LIMIT,
    HUB_TRACK_LENGTH,
    SHIPS_PER_COLOUR,
    CardId,
    TerritoryId,
)
from engine.tech.card import card_vp

WIN: Final = 100.0  # the score of a won game; a shared win counts half

# Per seat: the worth of its colonies and control, its territory bonuses, colonies placed.
Parts = tuple[list[float], list[float], list[int]]
KEPT: Final = 4096  # territory parts of the worth kept by an evaluator (then forgotten)
_chain: Final = chain.from_iterable

# Worth of each territory's bonus to its controller, in VP, early in the game.
DEFAULT_BONUS: Final[dict[TerritoryId, float]] = {
    "asimov": 0.25,
    "bradbury": 0.35,
    "burroughs": 0.3,
    "heinlein": 0.3,
    "herbert": 0.3,
    "lem": 0.4,
    "pohl": 0.1,
    "vanvogt": 0.35,
}
DEFAULT_CARD: Final[dict[CardId, float]] = {
    "booster": 0.2,
    "crystal": 0.3,
    "gravity": 0.25,
    "decoy": 0.2,
    "teleporter": 0.4,
    "plasma": 0.25,
    "polarity": 0.35,
    "cache": 0.3,
    "stasis": 0.25,
    "warper": 0.2,
    "city": 0.0,
    "monument": 0.0,
    "helm": 0.25,
}


@dataclass(frozen=True, slots=True)
class Weights:
    """The evaluation's weights (VP per unit)."""

    # Marginal worth of each fuel / ore held: the first units pay for launches and
    # terraforming, later ones are less useful (and only 8 may be kept).
    fuel: tuple[float, ...] = (0.2, 0.2, 0.16, 0.14, 0.1, 0.08, 0.06, 0.05)
    ore: tuple[float, ...] = (0.45, 0.42, 0.39, 0.28, 0.21, 0.14, 0.11, 0.08)
    ship: tuple[float, ...] = (3.2, 3.2, 3.2)  # the 4th, 5th, 6th colour ship, early
    relic: float = 0.9
    used_up: float = 0.0  # share of a ship's worth kept while it is used up (terraforming)
    hub_step: float = 0.11
    hub_ready: float = 0.03
    fragile: float = 0.3  # controlled by a lead of one colony
    contest: float = 0.4  # tied for the most colonies: one colony from control
    repulsor_lock: float = 0.25
    undocked_die: float = 0.18  # the current player's ships still to dock, mid-turn
    artifact_step: float = 0.035
    raid: float = 0.9  # multiplier of the expected raid loss
    opp_max: float = 0.6  # with 3+ players: weight of the best opponent vs the mean
    late_floor: float = 0.25  # worth kept by future-oriented terms at the very end
    colony: float = 0.0  # worth of a placed colony beyond its VP, early (it pays off over time)
    race: float = 0.0  # how much more a lead counts at the end than at the start
    # Share of an opponent's ship a held Plasma Cannon is worth while its discard can send
    # one to the stock (the opponent has a 4th ship); 0: its plain card worth only.
    plasma_hit: float = 0.0
    bonus: dict[TerritoryId, float] = field(default_factory=lambda: dict(DEFAULT_BONUS))
    card: dict[CardId, float] = field(default_factory=lambda: dict(DEFAULT_CARD))


DEFAULT_WEIGHTS: Final = Weights()


def _held(marginal: tuple[float, ...], top: int) -> list[float]:
    """Worth of holding 0..top - 1 units, each past the table's end worth its last entry."""
    out = [0.0]
    for n in range(1, top):
        out.append(out[-1] + marginal[min(n, len(marginal)) - 1])
    return out


def _resource_table(w: Weights, top: int) -> list[list[float]]:
    """Worth of the resources held, by fuel and ore; above the limit of 8 only the best
    8 count."""
    fuel, ore = _held(w.fuel, top), _held(w.ore, top)
    table = []
    for f in range(top):
        row = []
        for o in range(top):
            if f + o <= HAND_LIMIT:
                row.append(fuel[f] + ore[o])
            else:
                lo, hi = max(0, HAND_LIMIT - o), min(f, HAND_LIMIT)
                row.append(max(fuel[k] + ore[HAND_LIMIT - k] for k in range(lo, hi + 1)))
        table.append(row)
    return table


def _resource_worth(pl: PlayerState) -> float:
    """Worth of one resource taken in a raid: more when the victim holds ore."""
    return 0.25 if pl.ore >= 2 else 0.15


class Evaluator:
    """Scores states for one seat with a set of weights.

    Search scores every state it generates (``_worth`` took near a third of a hard
    decision's time), so the loops read their weights from locals and tables built here;
    every sum is taken in the same order as the plain formula, so the scores are the
    same to the last bit."""

    def __init__(self, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.w = weights
        top = 40
        self._res = _resource_table(weights, top)
        self._ships = [sum(weights.ship[:k]) for k in range(len(weights.ship) + 1)]
        self._top = top - 1
        self._vp = {card: card_vp(card) for card in CARDS}
        self._kept: dict[tuple[object, ...], Parts] = {}
        # The maps the last territory parts came from (held, so their ids stay theirs).
        self._last: tuple[object, object, object, bool, Parts] | None = None

    def worth(self, s: GameState) -> list[float]:
        """Every seat's worth in VP."""
        return self._worth(s)[0]

    def _worth(self, s: GameState) -> tuple[list[float], float]:
        """Every seat's worth in VP, and the game's progress: the share of its colonies the
        leader has placed (or is placing)."""
        w = self.w
        players = s.players
        n = len(players)
        per = s.config.colonies_per_player
        controller = s.controller
        vals, bonus, placed = self._territories(s, n)
        for d in s.pending:
            if type(d) is PlaceColonyDecision:
                placed[d.player] += 1  # about to be placed: count it already
        min_left = per - max(placed)
        future = w.late_floor + (1.0 - w.late_floor) * max(0, min_left) / per
        res_factor = 0.5 + 0.5 * future
        colony_factor = 1.0 + w.colony * future
        wcard = w.card
        vps = self._vp
        ship_table = self._ships
        last_ship = len(ship_table) - 1
        res = self._res
        top = self._top
        hub_step = w.hub_step
        relic_owner = None if s.relic_on_desert else controller["burroughs"]
        terra = s.docks["terraform"][0]
        used_up = terra.owner if terra is not None and not terra.relic else -2
        plasma_hit = w.plasma_hit
        if plasma_hit:
            # Ships beyond the 3rd of each colour at the start of its owner's next turn.
            extra = [
                SHIPS_PER_COLOUR - pl.stock - 3 - (p == used_up) for p, pl in enumerate(players)
            ]
        for p, pl in enumerate(players):
            v = colony_factor * placed[p]
            fut = bonus[p]
            for card in pl.cards:
                vp = vps[card]
                if vp:
                    v += vp
                elif card == "plasma" and plasma_hit:
                    hit = any(extra[q] > 0 for q in range(n) if q != p)
                    fut += max(wcard[card], plasma_hit * w.ship[-1]) if hit else wcard[card]
                else:
                    fut += wcard[card]
            ships = SHIPS_PER_COLOUR - pl.stock - 3
            if ships > 0:
                fut += ship_table[min(ships, last_ship)]
                if p == used_up:  # the ship on the Terraforming Station goes to the stock
                    fut -= (1.0 - w.used_up) * w.ship[min(ships, len(w.ship)) - 1]
            if relic_owner == p:
                fut += w.relic
            v += future * fut
            fuel = pl.fuel
            ore = pl.ore
            v += res_factor * res[fuel if fuel < top else top][ore if ore < top else top]
            if pl.hub:
                v += hub_step * pl.hub + (w.hub_ready if pl.hub == HUB_TRACK_LENGTH else 0.0)
            vals[p] += v
        raid = w.raid
        loss, gain = raid_exposure(s, _resource_worth)
        for p in range(n):
            vals[p] += raid * (0.5 * gain[p] - loss[p])
        if s.undocked:
            self._turn_potential(s, vals)
        return vals, 1.0 - max(0, min_left) / per

    def _territories(self, s: GameState, n: int) -> Parts:
        """Per seat: the worth of its colonies and control, its territory bonuses, and its
        colonies placed. These change only when a colony or a field generator moves (a
        few times a turn, while a search scores thousands of states), so they are kept
        by what they are computed from, and the last ones by the maps themselves."""
        colonies = s.colonies
        controller = s.controller
        fields = s.fields
        last = self._last
        if (
            last is not None
            and last[0] is colonies  # (the planet's maps are shared by a state's copies
            and last[1] is controller  # and replaced whenever they change)
            and last[2] is fields
            and last[3] == s.relic_on_desert
        ):
            parts = last[4]
            return parts[0][:], parts[1], parts[2][:]
        iso = fields["isolation"]
        repulsor = fields["repulsor"]
        positron = fields["positron"]
        key = (
            n,
            tuple(colonies),
            tuple(_chain(colonies.values())),
            tuple(controller.values()),
            iso,
            repulsor,
            positron,
            s.relic_on_desert,
        )
        kept = self._kept.get(key)
        if kept is None:
            w = self.w
            wbonus = w.bonus
            placed = [0] * n
            vals = [0.0] * n
            bonus = [0.0] * n
            for t, counts in colonies.items():
                best = 0
                second = 0
                for p, c in enumerate(counts):
                    if c:
                        placed[p] += c
                        if c > best:
                            best, second = c, best
                        elif c > second:
                            second = c
                ctrl = controller[t]
                if ctrl is not None:
                    vals[ctrl] += 2.0 if positron == t else 1.0
                    if repulsor == t:
                        vals[ctrl] += w.repulsor_lock
                    elif best - second == 1:
                        vals[ctrl] -= w.fragile
                    if iso != t:
                        b = wbonus[t]
                        if t == "burroughs" and not s.relic_on_desert:
                            b *= 0.3
                        bonus[ctrl] += b
                elif best > 0 and repulsor != t:
                    for p in range(n):
                        if counts[p] == best:
                            vals[p] += w.contest
            if len(self._kept) >= KEPT:
                self._kept.clear()
            kept = self._kept[key] = (vals, bonus, placed)
        self._last = (colonies, controller, fields, s.relic_on_desert, kept)
        return kept[0][:], kept[1], kept[2][:]

    def _turn_potential(self, s: GameState, vals: list[float]) -> None:
        """Mid-turn: what the current player's undocked ships and open deals still promise."""
        if not s.undocked:
            return
        w = self.w
        p = s.current
        v = w.undocked_die * len(s.undocked)
        v += 0.02 * sum([x.value for x in s.undocked])
        total = s.turn.artifact_total
        if 0 < total < ARTIFACT_CLAIM_TOTAL:
            v += w.artifact_step * total
        vals[p] += v

    def score(self, s: GameState, me: int) -> float:
        """The seat's worth minus its opponents' (the best one's, with three or more)."""
        if s.over:
            res = outcome(s)
            assert res is not None
            share = 1.0 / len(res.winners) if me in res.winners else 0.0
            base = WIN * (2.0 * share - 1.0)
            diff = res.scores[me] - max(v for i, v in enumerate(res.scores) if i != me)
            return base + 0.5 * diff
        vals, progress = self._worth(s)
        mine = vals[me]
        if len(vals) == 2:
            lead = mine - vals[1 - me]
        else:
            others = [v for i, v in enumerate(vals) if i != me]
            best = max(others)
            mean = sum(others) / len(others)
            lead = mine - (self.w.opp_max * best + (1 - self.w.opp_max) * mean)
        return lead * (1.0 + self.w.race * progress)

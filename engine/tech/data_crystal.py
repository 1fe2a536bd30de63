"""Data Crystal (R-TECH-CRYSTAL): pay fuel equal to the colonies on a territory to use its
bonus this turn. Not an empty or isolated territory, never Burroughs Desert.
Its discard power (the Positron Field) is in engine.fields.
"""

from __future__ import annotations

from engine.actions import Crystal
from engine.board import Refusal, log, refuse
from engine.state import GameState
from engine.tables import TERRITORIES, TerritoryId
from engine.tech.common import fuel_cost, power_refusal, use_power
from engine.territories import colony_total, has_bonus


def crystal_cost(s: GameState, p: int, t: TerritoryId) -> int:
    return fuel_cost(s, p, colony_total(s, t))


def crystal_refusal(s: GameState, p: int, action: Crystal) -> Refusal | None:
    t = action.territory
    r = power_refusal(s, p, "crystal", crystal_cost(s, p, t))
    if r:
        return r
    if t == "burroughs":
        return refuse("crystal.burroughs")
    if colony_total(s, t) == 0:
        return refuse("crystal.empty", territory=t)
    if s.fields["isolation"] == t:
        return refuse("crystal.isolated", territory=t)
    if has_bonus(s, p, t):
        return refuse("crystal.already", territory=t)
    return None


def crystal(s: GameState, p: int, action: Crystal) -> None:
    use_power(s, p, "crystal", crystal_cost(s, p, action.territory))
    s.turn.borrowed.append(action.territory)
    log(s, "bonus_borrowed", p, territory=action.territory)


def options(s: GameState, p: int) -> list[Crystal]:
    if "crystal" not in s.players[p].cards or "crystal" in s.turn.used:
        return []
    acts = [Crystal(t) for t in TERRITORIES]
    return [a for a in acts if crystal_refusal(s, p, a) is None]

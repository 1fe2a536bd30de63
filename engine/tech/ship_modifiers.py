"""The cards whose fuel power changes an undocked ship's value (R-TECH-3: stays within 1..6).

Booster Pod (+1), Stasis Beam (-1), Polarity Device (7 - value), Gravity
Manipulator (-1 on one and +1 on another). Their discard powers live in
``fields`` (generators) and ``colony_movers`` (Polarity's swap).
"""

from __future__ import annotations

from engine.actions import Boost, Gravity, Polarize, Stasis
from engine.board import Refusal, log, refuse
from engine.state import GameState
from engine.tables import CardId
from engine.tech.common import (
    distinct_undocked,
    power_cost,
    power_refusal,
    set_undocked_value,
    undocked_index,
    use_power,
)

SingleShipAction = Boost | Stasis | Polarize
_CARD: dict[type, CardId] = {Boost: "booster", Stasis: "stasis", Polarize: "polarity"}


def new_value(action: SingleShipAction) -> int:
    if isinstance(action, Boost):
        return action.die.value + 1
    if isinstance(action, Stasis):
        return action.die.value - 1
    return 7 - action.die.value


def single_refusal(s: GameState, p: int, action: SingleShipAction) -> Refusal | None:
    card = _CARD[type(action)]
    r = power_refusal(s, p, card, power_cost(s, p, card))
    if r:
        return r
    if undocked_index(s, action.die) is None:
        return refuse("ship.not_undocked", value=str(action.die))
    if not 1 <= new_value(action) <= 6:
        return refuse("ship.value_range")
    return None


def apply_single(s: GameState, p: int, action: SingleShipAction) -> None:
    card = _CARD[type(action)]
    use_power(s, p, card, power_cost(s, p, card))
    set_undocked_value(s, action.die, new_value(action))


def gravity_refusal(s: GameState, p: int, action: Gravity) -> Refusal | None:
    r = power_refusal(s, p, "gravity", power_cost(s, p, "gravity"))
    if r:
        return r
    i = undocked_index(s, action.down)
    if i is None:
        return refuse("ship.not_undocked", value=str(action.down))
    rest = s.undocked[:i] + s.undocked[i + 1 :]
    if not any(x.value == action.up.value and x.relic == action.up.relic for x in rest):
        return refuse("gravity.two_ships")
    if action.down.value == 1 or action.up.value == 6:
        return refuse("ship.value_range")
    return None


def apply_gravity(s: GameState, p: int, action: Gravity) -> None:
    use_power(s, p, "gravity", power_cost(s, p, "gravity"))
    down = undocked_index(s, action.down)
    assert down is not None
    up = next(
        j
        for j, x in enumerate(s.undocked)
        if j != down and x.value == action.up.value and x.relic == action.up.relic
    )
    s.undocked[down] = s.undocked[down].with_value(action.down.value - 1)
    s.undocked[up] = s.undocked[up].with_value(action.up.value + 1)
    log(s, "ship_changed", p, old=action.down.value, new=action.down.value - 1)
    log(s, "ship_changed", p, old=action.up.value, new=action.up.value + 1)


def options(s: GameState, p: int) -> list[SingleShipAction | Gravity]:
    cards = s.players[p].cards
    if not s.undocked:
        return []
    dice = distinct_undocked(s)
    out: list[SingleShipAction | Gravity] = []
    candidates: list[SingleShipAction] = []
    if "booster" in cards:
        candidates += [Boost(d) for d in dice]
    if "stasis" in cards:
        candidates += [Stasis(d) for d in dice]
    if "polarity" in cards:
        candidates += [Polarize(d) for d in dice]
    out += [a for a in candidates if single_refusal(s, p, a) is None]
    if "gravity" in cards:
        grav = [Gravity(d, u) for d in dice for u in dice]
        out += [a for a in grav if gravity_refusal(s, p, a) is None]
    return out


__all__ = ["apply_gravity", "apply_single", "gravity_refusal", "options", "single_refusal"]

"""Gravity Manipulator (R-TECH-GRAV): 2 fuel, -1 on one undocked ship and +1 on another.
Discard: place or move the Repulsor Field (R-FIELD-REP: no colony comes or goes).
"""

from __future__ import annotations

from engine.actions import Gravity
from engine.board import Refusal, find_die, log, refuse
from engine.fields import FieldDiscard
from engine.state import GameState
from engine.tables import DIE_FACES
from engine.tech.card import Card
from engine.tech.common import FuelPower, distinct_undocked
from engine.tokens import Tokens


class GravityUse(FuelPower[Gravity]):
    tunes_ships = True

    def candidates(self, s: GameState, p: int) -> list[Gravity]:
        dice = distinct_undocked(s)
        return [Gravity(d, u) for d in dice for u in dice]

    def use_refusal(self, s: GameState, p: int, a: Gravity) -> Refusal | None:
        i = find_die(s.undocked, a.down)
        if i is None:
            return refuse("ship.not_undocked", value=str(a.down))
        if find_die(s.undocked[:i] + s.undocked[i + 1 :], a.up) is None:
            return refuse("gravity.two_ships")
        if a.down.value == 1 or a.up.value == DIE_FACES:
            return refuse("ship.value_range")
        return None

    def use(self, s: GameState, p: int, a: Gravity) -> None:
        down = find_die(s.undocked, a.down)
        assert down is not None
        up = next(
            j
            for j, x in enumerate(s.undocked)
            if j != down and x.value == a.up.value and x.relic == a.up.relic
        )
        s.undocked[down] = s.undocked[down].with_value(a.down.value - 1)
        s.undocked[up] = s.undocked[up].with_value(a.up.value + 1)
        log(s, "ship_changed", p, old=a.down.value, new=a.down.value - 1)
        log(s, "ship_changed", p, old=a.up.value, new=a.up.value + 1)

    def parse(self, t: Tokens) -> Gravity:
        if t.optional("down", "-"):
            down = t.die()
            t.word("up", "+")
            return Gravity(down, t.die())
        down = t.die()
        return Gravity(down, t.die())


USE = GravityUse("gravity", fuel=2)
DISCARD = FieldDiscard("gravity")
CARD = Card("gravity", ("gravity manipulator", "manipulator"), use=USE, discard=DISCARD)

"""Being raided: the lesson of the turn after the AI raided the learner (the script has it
dock a run at the Raiders' Outpost and take the learner's resources, ``bot.play.learn.script``).

What the AI took is read from the game's recent events; the lesson marks the learner's
run that pushes the AI's ships off the outpost (a higher sum, R-RAID-1), so the learner
raids back. No raid in the AI's last turn: the lesson does not apply (the script tries
again next turn).
"""

from __future__ import annotations

from bot.play.learn import finders
from bot.play.learn.finders import LEARNER, OPPONENT
from bot.play.learn.lesson import Params, Seen
from engine import Action, Dock, GameState


def taken(s: GameState) -> tuple[int, int, str | None]:
    """What the opponent took from the learner in its last turn: fuel, ore, a card."""
    fuel = ore = 0
    card: str | None = None
    for e in reversed(s.events):
        if e.key == "turn_started" and e.player == OPPONENT:
            break
        if e.player != OPPONENT or e.params.get("victim") != LEARNER:
            continue
        if e.key == "stole_resource":
            fuel += e.params.get("resource") == "fuel"
            ore += e.params.get("resource") == "ore"
        elif e.key in ("stole_card", "stole_card_discarded"):
            card = str(e.params.get("card"))
    return fuel, ore, card


def was_raided(s: GameState) -> bool:
    fuel, ore, card = taken(s)
    there = any(x is not None and x.owner == OPPONENT for x in s.docks["raiders"])
    return there and (fuel + ore > 0 or card is not None)


def raided(seen: Seen) -> Action | None:
    """The learner's run that takes the outpost back, the turn after a raid on them."""
    s = seen.state
    if s.pending or not was_raided(s):
        return None
    return finders.dock(s, "raiders", finders.runs(s)[::-1])


def raided_params(seen: Seen, a: Action) -> Params:
    """The sum of the AI's ships at the outpost and the learner's run that beats it."""
    held = sum(x.value for x in seen.state.docks["raiders"] if x is not None)
    values = " ".join(str(d) for d in a.dice) if isinstance(a, Dock) else ""
    return {"sum": held, "values": values}

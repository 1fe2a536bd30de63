"""The one line answering a pick other than the marked one: what the move did, read
from the game itself (resources gained, the colony's space, the card taken...), and
whether the lesson it passed by comes back later (``learn.then.*``) or was done all
the same (``learn.did.*``: another die at the same facility teaches the same).
"""

from __future__ import annotations

from typing import NamedTuple

from bot.play.learn.guide import Guidance, Progress, followed
from bot.play.learn.picks import LEARNER
from engine import Action, GameState
from engine.actions import (
    BuyRelic,
    Claim,
    Cycle,
    Dock,
    EndTurn,
    Launch,
    Place,
    StealCard,
    StealResource,
    Trade,
)
from engine.rulebook import RULEBOOK


class Line(NamedTuple):
    """A text to show: ``bot.text.strings.text(key, locale, params, seat_names)``."""

    key: str
    params: dict[str, object]


def consequence(
    progress: Progress,
    before: GameState,
    action: Action,
    after: GameState,
    guidance: Guidance | None,
) -> Line | None:
    """The line for the learner's ``action`` (taking ``before`` to ``after``) when it is
    not the pick ``guidance`` marked; None when it is, or when there was no guidance."""
    if guidance is None or action == guidance.action:
        return None
    kind, params = what_it_did(before, action, after)
    family = "then" if guidance.lesson is not None and not followed(guidance, action) else "did"
    return Line(f"learn.{family}.{kind}", params)


def what_it_did(
    before: GameState, action: Action, after: GameState
) -> tuple[str, dict[str, object]]:
    """The kind of move (the suffix of its ``learn.did.*`` and ``learn.then.*`` texts) and
    its figures: what the learner gained, where the colony went, which card."""
    me0, me1 = before.players[LEARNER], after.players[LEARNER]
    fuel, ore = me1.fuel - me0.fuel, me1.ore - me0.ore
    if isinstance(action, Dock):
        if action.facility == "solar":
            return "fuel", {"facility": "solar", "fuel": fuel}
        if action.facility == "mine":
            return "ore", {"facility": "mine", "ore": ore}
        if action.facility == "hub":
            return "hub", {"space": me1.hub}
        if action.facility == "yard":
            return "ship", {}
        values = " ".join(str(d) for d in action.dice)
        return "dock", {"values": values, "facility": action.facility}
    if isinstance(action, Trade):
        return "trade", {"fuel": -fuel}
    if isinstance(action, Place):
        return "colony", {"territory": action.territory}
    if isinstance(action, (Claim, StealCard)):
        return "card", {"card": action.card}
    if isinstance(action, StealResource):
        return f"steal.{action.resource}", {"victim": action.victim}
    if isinstance(action, Launch):
        return "launch", {}
    if isinstance(action, BuyRelic):
        return "relic", {}
    if isinstance(action, Cycle):
        return "cycle", {}
    if isinstance(action, EndTurn):
        return "end", {}
    rule = RULEBOOK.rule_of(action)
    if rule is not None and rule.card is not None:
        return ("discard" if rule.power == "discard" else "use"), {"card": rule.card}
    return "other", {}

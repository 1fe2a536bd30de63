"""The one line answering a pick other than the marked one: what the move did, read
from the game itself (resources gained, the colony's space, the card taken...), and,
when it passed a lesson by, whether that lesson comes back — said only when it will
(``bot.play.learn.guide.comes_back``: at the next decision, or in a later turn), else
that its turns end with this one.
"""

from __future__ import annotations

from typing import NamedTuple

from bot.play.learn.guide import Guidance, Progress, advance, comes_back, followed
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
    """A text to show: ``bot.text.strings.text(key, locale, params, seat_names)``, then the
    ``tail`` sentence (a key without parameters), if any."""

    key: str
    params: dict[str, object]
    tail: str | None = None


def consequence(
    progress: Progress,
    before: GameState,
    action: Action,
    after: GameState,
    guidance: Guidance | None,
) -> Line | None:
    """The line for the learner's ``action`` (taking ``before`` to ``after``) when it is
    not the pick ``guidance`` marked; None when it is, or when there was no guidance.
    ``progress`` is the progress before the action."""
    if guidance is None or action == guidance.action:
        return None
    kind, params = what_it_did(before, action, after)
    tail = None
    if guidance.lesson is not None and not followed(guidance, action):
        later = advance(progress, before, action, after)
        back = comes_back(progress, guidance.lesson, after, later)
        tail = "learn.back" if back else "learn.back.last"
    return Line(f"learn.did.{kind}", params, tail)


def what_it_did(
    before: GameState, action: Action, after: GameState
) -> tuple[str, dict[str, object]]:
    """The kind of move (the suffix of its ``learn.did.*`` text) and its figures: what the
    learner gained, where the colony went, which card."""
    me0, me1 = before.players[LEARNER], after.players[LEARNER]
    fuel, ore = me1.fuel - me0.fuel, me1.ore - me0.ore
    if isinstance(action, Dock):
        values = " ".join(str(d) for d in action.dice)
        if action.facility == "solar":
            return "fuel", {"facility": "solar", "fuel": fuel, "values": values}
        if action.facility == "mine":
            return "ore", {"facility": "mine", "ore": ore, "values": values}
        if action.facility == "hub":
            return "hub", {"space": me1.hub, "values": values}
        if action.facility == "yard":
            return "ship", {"values": values}
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

"""The doors: ``check`` says whether an action may be applied now (and why not), the
checked ``apply`` refuses illegal actions with a reason and leaves the state untouched,
and ``apply_in_place`` is the unchecked fast path for replay and search. All three are
generic over the rulebook: each action type's rule says why not and what it does.
"""

from __future__ import annotations

from typing import Any

from engine.actions import Action
from engine.board import Refusal, refuse
from engine.errors import IllegalActionError
from engine.rule import AnyRule
from engine.rulebook import RULEBOOK
from engine.state import CHANCE, GameState

_SOLE = RULEBOOK.sole  # context -> action type -> its only rule there (kept up to date)
_NONE: dict[type[Action], AnyRule] = {}


def _rule(s: GameState, a: Action) -> tuple[AnyRule | None, Any]:
    """The rule that would apply ``a`` now and its context (the seat or the decision)."""
    if s.pending:
        d = s.pending[0]
        context = type(d)
        return _SOLE.get(context, _NONE).get(type(a)) or RULEBOOK.rule_of(a, context), d
    return _SOLE[None].get(type(a)) or RULEBOOK.rule_of(a), s.current


def refusal(s: GameState, a: Action, player: int | None = None) -> Refusal | None:
    """Why ``a`` may not be applied now (by ``player``, if given), or None if it may.

    None exactly when ``a`` is one of ``legal_actions(s)`` (or, for a chance decision,
    an outcome its refusal accepts): the rule's refusal found nothing and the action is
    one of its options (``action.not_legal`` covers a form the options do not use).
    """
    if s.over:
        return refuse("game.over")
    actor = s.to_act()
    if player is not None and player != actor:
        return refuse("turn.chance" if actor == CHANCE else "turn.not_yours", player=actor)
    rule, context = _rule(s, a)
    if rule is None:
        if s.pending:
            return refuse(f"decision.{s.pending[0].kind}")
        return refuse("decision.none" if RULEBOOK.answers(type(a)) else "action.unknown")
    if not rule.claims(a):
        return rule.unclaimed(s, context, a)
    why = rule.refusal(s, context, a)
    if why is None and not rule.listed(s, context, a):
        why = refuse("action.not_legal", action=str(a))
    return why


def check(s: GameState, a: Action, player: int | None = None) -> None:
    """The checked door: IllegalActionError saying why ``a`` may not be applied now."""
    why = refusal(s, a, player)
    if why is not None:
        raise IllegalActionError(why[0], **why[1])


def apply(s: GameState, a: Action, player: int | None = None) -> GameState:
    """Checked door: a new state with ``a`` applied, or IllegalActionError saying why."""
    check(s, a, player)
    new = s.copy()
    apply_in_place(new, a)
    return new


def apply_in_place(s: GameState, a: Action) -> None:
    """Unchecked door: apply a legal action to ``s`` itself (replay, search, self-play)."""
    # _rule, inlined: this is the hot path of replay and search.
    if s.pending:
        context: Any = s.pending[0]
        rule = _SOLE.get(type(context), _NONE).get(type(a)) or RULEBOOK.rule_of(a, type(context))
    else:
        context = s.current
        rule = _SOLE[None].get(type(a)) or RULEBOOK.rule_of(a)
    if rule is None:
        raise IllegalActionError(f"decision.{s.pending[0].kind}" if s.pending else "action.unknown")
    s.version += 1
    if s.turn.hub_overflow and not rule.keeps_hub_steps:
        s.turn.hub_overflow = 0  # R-HUB-3: only an immediate launch keeps the steps
    rule.apply(s, context, a)

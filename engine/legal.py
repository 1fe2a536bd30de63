"""``legal_actions``: the single source of truth for what may be done now.

Generic over the rulebook: the options of every rule of the current context, in the
rulebook's order. Each rule's options are the candidates its own refusal lets through,
the same refusal the checked door gives as the reason an action is not allowed.
"""

from __future__ import annotations

from engine.actions import Action
from engine.rulebook import RULEBOOK
from engine.state import GameState


def legal_actions(s: GameState) -> list[Action]:
    """Every legal action for whoever must act now (a chance decision lists its outcomes)."""
    if s.over:
        return []
    out: list[Action] = []
    if s.pending:
        d = s.pending[0]
        for rule, reads in RULEBOOK.listers(type(d)):
            out += rule.options_after(s, d, out) if reads else rule.options(s, d)
        return out
    p = s.current
    # Only the rules that may list anything with the cards p holds and has not used.
    hand = (tuple(s.players[p].cards), tuple(s.turn.used), s.turn.discarded)
    for rule, reads in RULEBOOK.turn_listers(hand):
        out += rule.options_after(s, p, out) if reads else rule.options(s, p)
    return out

"""The text notation of actions (docs/notation.md): ``parse(text)`` and ``str(action)``.

Parsing is forgiving (see engine.tokens): any case, extra spaces, commas, aliases of
names. The verb (a word or two) picks the rule in the rulebook that reads the rest;
``use <card> ...`` and ``discard <card> ...`` go to that card's power.
``parse(str(a)) == a`` for every action.
"""

from __future__ import annotations

from engine.actions import Action
from engine.errors import InvalidNotationError
from engine.rule import POWER_VERBS, AnyRule
from engine.rulebook import RULEBOOK
from engine.tokens import Tokens


def parse(text: str) -> Action:
    """Parse the notation into an action; InvalidNotationError says what was expected.

    Anything that is not a string (a number or None from a malformed request) is
    refused the same way, never with a TypeError or AttributeError.
    """
    if not isinstance(text, str):
        raise InvalidNotationError("notation.not_text")
    t = Tokens(text)
    if not t.more():
        raise InvalidNotationError("notation.empty")
    action: Action = _rule_for_verb(t).parse(t)
    if t.more():
        raise InvalidNotationError(
            "notation.trailing", got=" ".join(t.words[t.i :]), text=text.strip()
        )
    return action


def _rule_for_verb(t: Tokens) -> AnyRule:
    verbs = RULEBOOK.verbs()
    word = t.take()
    if t.more() and (phrase := f"{word} {t.peek()}") in verbs:  # "steal card", "buy relic"
        t.take()
        return verbs[phrase]
    if word in verbs:
        return verbs[word]
    powers = RULEBOOK.powers()
    for power, verb in POWER_VERBS.items():
        if word == verb:
            card = t.card()
            rule = powers.get((power, card))
            if rule is None:
                raise t.fail(f"a card with a {power} power")
            return rule
    raise InvalidNotationError(
        "notation.unknown_verb", word=word, expected=", ".join(shown_verbs())
    )


def shown_verbs() -> list[str]:
    """The verbs to suggest: each rule's first, and ``use`` and ``discard`` for the cards."""
    out: list[str] = []
    for rule in RULEBOOK.rules():
        verb = POWER_VERBS[rule.power] if rule.power is not None else rule.verbs[0]
        if verb.split()[0] not in out:
            out.append(verb)
    return out

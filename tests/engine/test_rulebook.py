"""The rulebook: every action type's rule declared once, and the generic doors over it.

What is allowed (``legal_actions``) and why not (``refusal``) come from the same rules;
these tests hold the two to agreeing, rule by rule, on states from random games.
"""

from __future__ import annotations

import random

import pytest

from engine import IllegalActionError, check, legal_actions, refusal
from engine.actions import Action
from engine.config import GameConfig
from engine.rule import ChanceRule
from engine.rulebook import RULEBOOK
from engine.state import GameState
from tests.engine.scenario import game_states
from tests.engine.test_legal_and_refusals import random_action_anything

CONFIGS = [
    GameConfig(players=2, mind_control_helm=True),
    GameConfig(players=3, finite_supply=True),
    GameConfig(players=4, mind_control_helm=True, long_game=True),
]


def states(config: GameConfig, seed: int, every: int) -> list[GameState]:
    return game_states(config, seed, every, chance=True)


def context(s: GameState) -> object:
    return s.pending[0] if s.pending else s.current


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.players}p")
def test_each_rules_options_are_the_candidates_its_refusal_lets_through(
    config: GameConfig,
) -> None:
    compared = 0
    for seed in range(3):
        for s in states(config, seed, every=5):
            if s.over:
                continue
            rules = RULEBOOK.listing(type(s.pending[0]) if s.pending else None)
            c = context(s)
            listed: list[Action] = []
            for rule in rules:
                options = rule.options(s, c)
                if not isinstance(rule, ChanceRule):
                    through = [a for a in rule.candidates(s, c) if rule.refusal(s, c, a) is None]
                    assert options == through, rule
                    compared += 1
                listed += options
            # legal_actions skips a card's powers the player cannot use: nothing is lost.
            assert listed == legal_actions(s)
    assert compared > 2000


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.players}p")
def test_refusal_finds_nothing_exactly_for_the_legal_actions(config: GameConfig) -> None:
    rng = random.Random(config.players)
    tried = 0
    for s in states(config, 40 + config.players, every=4):
        legal = legal_actions(s)
        chance = bool(s.pending) and RULEBOOK.chance(type(s.pending[0])) is not None
        for a in legal:
            assert refusal(s, a) is None, (a, refusal(s, a))
            check(s, a)
        for _ in range(25):
            a = random_action_anything(rng)
            why = refusal(s, a)
            if chance:
                continue  # any outcome its refusal accepts may be recorded
            assert (why is None) == (a in legal), (str(a), why)
            if why is not None:
                with pytest.raises(IllegalActionError) as err:
                    check(s, a)
                assert err.value.key == why[0]
            tried += 1
    assert tried > 1000


def test_each_action_finds_the_rule_that_lists_it() -> None:
    seen = set()
    for config in CONFIGS:
        for s in states(config, 7, every=3):
            if s.over:
                continue
            ctx = type(s.pending[0]) if s.pending else None
            for rule in RULEBOOK.listing(ctx):
                for a in rule.options(s, context(s)):
                    assert RULEBOOK.rule_of(a, ctx) is rule
                    seen.add(rule.kind)
    assert len(seen) > 25


def test_kinds_name_card_powers_and_are_stable() -> None:
    kinds = {r.kind for r in RULEBOOK.rules()}
    assert {"dock", "trade", "launch", "buy_relic", "cycle", "claim", "end"} <= kinds
    assert {"use_booster", "discard_stasis", "discard_crystal", "use_helm", "hit"} <= kinds
    for rule in RULEBOOK.rules():
        if rule.card is not None:
            assert rule.kind == f"{'use' if rule.power == 'fuel' else 'discard'}_{rule.card}"


def test_the_decisions_and_the_free_turn_each_list_their_rules() -> None:
    contexts = {r.answers for r in RULEBOOK.rules()}
    assert None in contexts
    kinds = {c.kind for c in contexts if c is not None}
    assert kinds == {"reveal", "first_player", "roll", "place", "raid", "plasma", "return"}

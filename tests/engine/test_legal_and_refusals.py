"""Every action legal_actions lists is accepted by the checked apply; random malformed
and illegal actions are refused with an IllegalActionError and change nothing."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from engine import IllegalActionError, apply, legal_actions
from engine.actions import (
    Action,
    Boost,
    BuyRelic,
    Claim,
    Crystal,
    Cycle,
    Die,
    DiscardBooster,
    DiscardField,
    DiscardPlasma,
    DiscardPolarity,
    DiscardTeleporter,
    DiscardWarper,
    Dock,
    Done,
    EndTurn,
    Gravity,
    Helm,
    Hit,
    Launch,
    Place,
    Plasma,
    Polarize,
    ReturnExcess,
    Roll,
    Stasis,
    StealCard,
    StealResource,
    Teleport,
    Trade,
    Warp,
)
from engine.config import GameConfig
from engine.rules import apply_in_place, refusal
from engine.selfplay import random_action
from engine.setup import new_game
from engine.state import CHANCE, Ship
from engine.tables import CARDS, FACILITY_ORDER, FIELDS, TERRITORIES
from tests.engine.scenario import game_states


def _random_die(rng: random.Random) -> Die:
    return Die(rng.randint(0, 7), rng.random() < 0.1)


def _random_ship(rng: random.Random) -> Ship:
    return Ship(rng.randint(-1, 4), rng.randint(0, 7), rng.random() < 0.1)


def random_action_anything(rng: random.Random) -> Action:
    """Any action at all, legal or (mostly) not, including malformed values."""
    f = rng.choice(FACILITY_ORDER)
    t = rng.choice(TERRITORIES)
    c = rng.choice(CARDS)
    dice = tuple(_random_die(rng) for _ in range(rng.randint(0, 4)))
    seat = rng.randint(-1, 4)
    makers: list[Callable[[], Action]] = [
        lambda: Dock(f, dice),
        lambda: Trade(),
        lambda: Launch(),
        lambda: BuyRelic(),
        lambda: Cycle(),
        lambda: Claim(c),
        lambda: EndTurn(),
        lambda: Boost(_random_die(rng)),
        lambda: Stasis(_random_die(rng)),
        lambda: Polarize(_random_die(rng)),
        lambda: Gravity(_random_die(rng), _random_die(rng)),
        lambda: Warp(dice),
        lambda: Crystal(t),
        lambda: Teleport(f, _random_die(rng), rng.choice(FACILITY_ORDER), dice),
        lambda: Helm(f, _random_ship(rng), rng.choice(FACILITY_ORDER), dice),
        lambda: Plasma(f, _random_ship(rng)),
        lambda: DiscardField(c, t),
        lambda: DiscardBooster(rng.choice(FIELDS)),
        lambda: DiscardTeleporter(seat, t, rng.choice(TERRITORIES)),
        lambda: DiscardPolarity(seat, t, rng.randint(-1, 4), rng.choice(TERRITORIES)),
        lambda: DiscardPlasma(f, _random_ship(rng)),
        lambda: DiscardWarper(c),
        lambda: Place(t),
        lambda: StealResource(rng.choice(["fuel", "ore"]), seat),
        lambda: StealCard(c, seat),
        lambda: Hit(_random_ship(rng)),
        lambda: Done(),
        lambda: ReturnExcess(rng.randint(-1, 5), rng.randint(-1, 5)),
        lambda: Roll(dice),
    ]
    return rng.choice(makers)()


CONFIGS = [
    GameConfig(players=2, mind_control_helm=True),
    GameConfig(players=3, finite_supply=True),
    GameConfig(players=4, mind_control_helm=True),
]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.players}p")
def test_every_listed_action_is_accepted_by_apply(config: GameConfig) -> None:
    for seed in range(6):
        for s in game_states(config, seed, every=7):
            before = s.copy()
            for a in legal_actions(s):
                assert refusal(s, a) is None, f"{a} listed but refused: {refusal(s, a)}"
                after = apply(s, a)
                assert after.version == s.version + 1
            assert s == before, "the checked apply changed the state it was given"


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.players}p")
def test_random_illegal_actions_are_refused_and_change_nothing(config: GameConfig) -> None:
    rng = random.Random(7)
    refused = 0
    for seed in range(4):
        for s in game_states(config, 100 + seed, every=3):
            legal = legal_actions(s)
            before = s.copy()
            for _ in range(30):
                a = random_action_anything(rng)
                if a in legal:
                    continue
                with pytest.raises(IllegalActionError) as err:
                    apply(s, a)
                assert str(err.value) and err.value.key
                refused += 1
            assert s == before
    assert refused > 1000


def test_acting_for_the_wrong_seat_is_refused() -> None:
    rng = random.Random(1)
    s = new_game(GameConfig(players=3))
    while s.to_act() == CHANCE:
        apply_in_place(s, random_action(s, rng))
    other = (s.current + 1) % 3
    a = legal_actions(s)[0]
    with pytest.raises(IllegalActionError, match="not your turn"):
        apply(s, a, player=other)
    apply(s, a, player=s.current)

"""Adding an alien tech card takes one module: a toy card, declared here as a card's module
would be (its action types, both its powers, the card), is registered and then dealt,
listed, read from the notation, refused with reasons, used, discarded, replayed and saved
by the engine's generic machinery, with no other engine file touched. Its name is the
one catalogue text it brings (engine.messages.NAMES_EN)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import cast

import pytest

from engine import IllegalActionError, parse
from engine.actions import Action, Die, Resource
from engine.board import Refusal, find_die, gain, log, refuse
from engine.config import GameConfig
from engine.messages import NAMES_EN
from engine.rulebook import RULEBOOK, register_card, unregister_card
from engine.scoring import victory_points
from engine.selfplay import play_random_game
from engine.state import GameState
from engine.tables import CARD_INDEX, CARDS, CardId
from engine.tech.card import Card, deck_counts
from engine.tech.common import DiscardPower, FuelPower
from engine.tokens import Tokens
from tests.engine.scenario import act, legal, refused, scenario

# ---- the toy card's module ----------------------------------------------------------------

TOY = cast(CardId, "toy")  # a real card would add its id to engine.tables.CardId


@dataclass(frozen=True, slots=True)
class Overdrive(Action):
    """Toy Beacon: 1 fuel, an undocked ship shows 6."""

    die: Die

    def __str__(self) -> str:
        return f"use toy {self.die}"


@dataclass(frozen=True, slots=True)
class Salvage(Action):
    """Discard Toy Beacon: gain 2 of one resource."""

    resource: Resource

    def __str__(self) -> str:
        return f"discard toy {self.resource}"


class ToyUse(FuelPower[Overdrive]):
    tunes_ships = True

    def candidates(self, s: GameState, p: int) -> list[Overdrive]:
        return [Overdrive(d) for d in sorted({Die(x.value, x.relic) for x in s.undocked})]

    def use_refusal(self, s: GameState, p: int, a: Overdrive) -> Refusal | None:
        if find_die(s.undocked, a.die) is None:
            return refuse("ship.not_undocked", value=str(a.die))
        if a.die.value == 6:
            return refuse("ship.value_range")
        return None

    def use(self, s: GameState, p: int, a: Overdrive) -> None:
        i = find_die(s.undocked, a.die)
        assert i is not None
        s.undocked[i] = s.undocked[i].with_value(6)
        log(s, "ship_changed", p, old=a.die.value, new=6)

    def parse(self, t: Tokens) -> Overdrive:
        return Overdrive(t.die())


class ToyDiscard(DiscardPower[Salvage]):
    def candidates(self, s: GameState, p: int) -> list[Salvage]:
        return [Salvage("fuel"), Salvage("ore")]

    def use(self, s: GameState, p: int, a: Salvage) -> None:
        gain(s, p, **{a.resource: 2})

    def parse(self, t: Tokens) -> Salvage:
        return Salvage("fuel" if t.word("fuel", "ore") == "fuel" else "ore")


TOY_CARD = Card(TOY, use=ToyUse(TOY, fuel=1), discard=ToyDiscard(TOY), copies=2, vp=0)

# ---- the tests ------------------------------------------------------------------------------


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[Card]:
    monkeypatch.setitem(NAMES_EN, "toy", "Toy Beacon")  # its catalogue text
    register_card(TOY_CARD)
    try:
        yield TOY_CARD
    finally:
        unregister_card(TOY_CARD)


def test_a_registered_card_joins_the_deck_the_rulebook_and_the_notation(toy: Card) -> None:
    assert CARDS[-1] == TOY and CARD_INDEX[TOY] == len(CARDS) - 1
    assert deck_counts(GameConfig())[-1] == 2
    kinds = [r.kind for r in RULEBOOK.listing(None)]
    assert kinds.index("use_toy") < kinds.index("discard_toy") < kinds.index("end")
    assert parse("use toy 3") == Overdrive(Die(3))
    assert parse("discard toy ore") == Salvage("ore")


def test_its_powers_are_listed_used_and_refused(toy: Card) -> None:
    s = scenario(undocked="3 6", cards={0: [TOY]}, fuel=1, display=("city", "decoy", "plasma"))
    assert {"use toy 3", "discard toy fuel", "discard toy ore"} <= legal(s)
    refused(s, "use toy 6", "a ship's value must stay between 1 and 6")
    after = act(s, "use toy 3")
    assert sorted(x.value for x in after.undocked) == [6, 6]
    assert after.players[0].fuel == 0 and after.turn.used == [TOY]
    refused(after, "use toy 6", "you already used Toy Beacon this turn")
    refused(after, "discard toy ore", "you already used Toy Beacon this turn")
    kept = act(s, "discard toy ore")
    assert kept.players[0].ore == 2 and TOY not in kept.players[0].cards
    assert kept.discard[CARD_INDEX[TOY]] == 1
    refused(kept, "use toy 3", "you do not have Toy Beacon")
    refused(scenario(undocked="3", cards={1: [TOY]}), "use toy 3", "you do not have Toy Beacon")
    assert victory_points(s, 0) == 0


def test_games_with_the_card_in_the_deck_keep_every_invariant(toy: Card) -> None:
    used = 0
    for seed in range(6):
        result = play_random_game(GameConfig(players=3), seed, check=True)
        used += sum(isinstance(a, (Overdrive, Salvage)) for a in result.log)
    assert used > 0


def test_unregistering_restores_the_game() -> None:
    before = (list(CARDS), [r.kind for r in RULEBOOK.rules()])
    register_card(TOY_CARD)
    unregister_card(TOY_CARD)
    assert (list(CARDS), [r.kind for r in RULEBOOK.rules()]) == before
    with pytest.raises(IllegalActionError, match="not an action of this game"):
        act(scenario(undocked="3", cards={0: ["booster"]}), Overdrive(Die(3)))

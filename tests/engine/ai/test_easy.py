"""Easy's light sense: it never wastes a six the Terraforming Station could use."""

from __future__ import annotations

from engine import GameState, legal_actions
from engine.actions import Action, Dock
from engine.ai import RandomAI, make_ai
from tests.engine.ai.conftest import play_game


def terraform_usable(s: GameState) -> bool:
    return any(isinstance(a, Dock) and a.facility == "terraform" for a in legal_actions(s))


def test_easy_never_docks_a_six_on_the_solar_converter_when_terraforming_is_usable() -> None:
    checked = 0

    def check(s: GameState, a: Action) -> None:
        nonlocal checked
        if s.to_act() in easy_seats and terraform_usable(s):
            checked += 1
            assert not (
                isinstance(a, Dock) and a.facility == "solar" and any(d.value == 6 for d in a.dice)
            ), f"wasted a six: {a}"
            assert isinstance(a, Dock) and a.facility == "terraform", a

    for seed in range(12):
        easy_seats = {0, 2} if seed % 2 == 0 else {1, 3}
        players = [
            make_ai("easy", seed * 4 + p) if p in easy_seats else RandomAI(seed * 4 + p)
            for p in range(4)
        ]
        play_game(players, seed, check)
    assert checked >= 10

"""The text notation: parse and str round-trip; forgiving input; helpful errors."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import InvalidNotationError, parse
from engine.actions import Die, Dock, Gravity, Helm, Teleport
from engine.config import GameConfig
from engine.legal import legal_actions
from engine.rules import apply_in_place
from engine.selfplay import random_action
from engine.setup import new_game
from engine.state import CHANCE, Ship


def test_every_action_seen_in_random_games_round_trips() -> None:
    seen = 0
    for players, helm in ((2, True), (3, False), (4, True)):
        rng = random.Random(players)
        s = new_game(GameConfig(players=players, mind_control_helm=helm))
        while not s.over:
            actions = legal_actions(s)
            if s.to_act() != CHANCE:
                for a in actions:
                    assert parse(str(a)) == a, str(a)
                    seen += 1
            a = random_action(s, rng)
            assert parse(str(a)) == a
            apply_in_place(s, a)
    assert seen > 5_000


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("dock mine 4", Dock("mine", (Die(4),))),
        ("DOCK  Lunar   Mine 4", Dock("mine", (Die(4),))),
        ("dock lunar 4", Dock("mine", (Die(4),))),
        ("dock yard 3r 3", Dock("yard", (Die(3), Die(3, True)))),
        ("dock shipyard 3, 3", Dock("yard", (Die(3), Die(3)))),
        ("dock raiders' outpost 4 2 3", Dock("raiders", (Die(2), Die(3), Die(4)))),
        (
            "use orbital teleporter lunar mine 6 artifact 2",
            Teleport("mine", Die(6), "artifact", (Die(2),)),
        ),
        ("use helm solar p2:3 to yard 3", Helm("solar", Ship(1, 3), "yard", (Die(3),))),
        ("use gravity 2 5", Gravity(Die(2), Die(5))),
    ],
)
def test_parsing_is_forgiving(text: str, expected: object) -> None:
    assert parse(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "type an action"),
        ("fly to the moon", "unknown action `fly`"),
        ("dock", "expected a facility"),
        ("dock mine", "expected ship values"),
        ("dock mine four", "got `four`"),
        ("place atlantis", "expected a territory"),
        ("claim nothing", "expected a card"),
        ("end now", "unexpected `now`"),
        ("steal gold p2", "expected `fuel` or `ore`"),
        ("hit 4", "like `p2:4`"),
    ],
)
def test_errors_say_what_was_expected(text: str, message: str) -> None:
    with pytest.raises(InvalidNotationError, match=message):
        parse(text)


def test_notation_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        parse("nonsense")


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("dockmineuslar 0123456789:prhf'-,")), max_size=30))
def test_parse_never_fails_with_anything_but_a_notation_error(text: str) -> None:
    try:
        a = parse(text)
    except InvalidNotationError as e:
        assert str(e)
    else:
        assert parse(str(a)) == a


@pytest.mark.parametrize("value", [5, 4.0, None, True, ["dock", "solar", "3"], b"end"])
def test_anything_but_text_is_a_notation_error(value: object) -> None:
    # A malformed request can carry a number or null where the move text should be.
    with pytest.raises(InvalidNotationError, match="an action is text"):
        parse(value)  # type: ignore[arg-type]

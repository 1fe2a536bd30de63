"""Pohl Foothills (R-COL-4): each use of an alien tech card's fuel power costs 1 fuel less,
never below 0; a Plasma Cannon use costs one less in all (3 ships for 2). The bonus is void
under the Isolation Field (R-FIELD-ISO) and may be borrowed with the Data Crystal."""

from __future__ import annotations

from typing import Any

import pytest

from engine import IllegalActionError
from engine.state import GameState
from engine.tables import CardId, FieldId, TerritoryId
from tests.engine.scenario import act, legal, scenario

# card -> (scenario keywords, moves of one use, base fuel cost)
USES: dict[CardId, tuple[dict[str, Any], tuple[str, ...], int]] = {
    "booster": ({"undocked": "3"}, ("use booster 3",), 1),
    "stasis": ({"undocked": "3"}, ("use stasis 3",), 1),
    "polarity": ({"undocked": "3"}, ("use polarity 3",), 1),
    "warper": ({"undocked": "3"}, ("use warper 3",), 1),
    "gravity": ({"undocked": "3 4"}, ("use gravity down 3 up 4",), 2),
    "teleporter": ({"docks": {"solar": "3"}}, ("use teleporter solar 3 to artifact",), 2),
    "helm": (
        {"docks": {"solar": "p2:3"}, "mind_control_helm": True},
        ("use helm solar p2:3 to artifact",),
        3,
    ),
    "crystal": ({"undocked": "3", "colonies": {"lem": [0, 1, 1, 0]}}, ("use crystal lem",), 2),
    "plasma": (
        {"undocked": "1", "docks": {"mine": "p2:2 p3:3 p4:4"}},
        ("use plasma mine p2:2", "hit p3:3", "hit p4:4"),
        3,
    ),
}


def setup(card: CardId, pohl: str, fuel: int) -> tuple[GameState, tuple[str, ...], int]:
    kw, moves, base = USES[card]
    kw = dict(kw)
    colonies: dict[TerritoryId, list[int]] = dict(kw.pop("colonies", {}))
    if pohl != "none":
        colonies["pohl"] = [1, 0, 0, 0]
    fields: dict[FieldId, TerritoryId] = {"isolation": "pohl"} if pohl == "isolated" else {}
    s = scenario(cards={0: [card]}, colonies=colonies, fields=fields, fuel=fuel, **kw)
    return s, moves, base


@pytest.mark.parametrize("card", list(USES))
@pytest.mark.parametrize(("pohl", "discount"), [("none", 0), ("controlled", 1), ("isolated", 0)])
def test_R_COL_4_pohl_foothills_each_fuel_power_costs_one_less(
    card: CardId, pohl: str, discount: int
) -> None:
    s, moves, base = setup(card, pohl, fuel=5)
    assert s.controller["pohl"] == (None if pohl == "none" else 0)
    s = act(s, *moves)
    assert s.players[0].fuel == 5 - (base - discount)
    assert card in s.turn.used


@pytest.mark.parametrize("card", list(USES))
def test_R_COL_4_pohl_foothills_makes_the_use_affordable_with_one_fuel_less(
    card: CardId,
) -> None:
    _, moves, base = USES[card]
    s, _, _ = setup(card, "controlled", fuel=base - 1)
    assert moves[0] in legal(s)
    s = act(s, *moves)
    assert s.players[0].fuel == 0
    s, _, _ = setup(card, "none", fuel=base - 1)
    with pytest.raises(IllegalActionError):
        act(s, *moves)


def test_R_COL_4_pohl_foothills_never_below_zero() -> None:
    s = scenario(undocked="3", colonies={"pohl": [1, 0, 0, 0]}, cards={0: ["booster"]}, fuel=0)
    s = act(s, "use booster 3")
    assert s.players[0].fuel == 0
    assert [x.value for x in s.undocked] == [4]


def test_R_COL_4_pohl_foothills_plasma_first_ship_free_then_one_each() -> None:
    s = scenario(
        undocked="1",
        docks={"mine": "p2:2 p3:3"},
        colonies={"pohl": [1, 0, 0, 0]},
        cards={0: ["plasma"]},
        fuel=0,
    )
    s = act(s, "use plasma mine p2:2")
    assert s.players[0].fuel == 0
    assert s.pending == []  # the second ship would cost 1 fuel


def test_R_COL_4_pohl_foothills_crystal_on_one_colony_is_free() -> None:
    s = scenario(
        undocked="3",
        colonies={"pohl": [1, 0, 0, 0], "lem": [0, 1, 0, 0]},
        cards={0: ["crystal"]},
        fuel=0,
    )
    s = act(s, "use crystal lem", "dock solar 3")
    assert s.players[0].fuel == 2 + 1


def test_R_COL_4_pohl_foothills_borrowed_with_the_data_crystal() -> None:
    s = scenario(
        undocked="3",
        colonies={"pohl": [0, 1, 1, 0]},
        cards={0: ["crystal", "booster", "gravity"]},
        fuel=4,
    )
    s = act(s, "use crystal pohl")  # full price: the bonus is not borrowed yet
    assert s.players[0].fuel == 2
    s = act(s, "use booster 3")
    assert s.players[0].fuel == 2

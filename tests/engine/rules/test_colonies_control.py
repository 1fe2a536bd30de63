"""Colonies, territory control and bonuses (R-COL-1..4), with the relic ship of Burroughs
Desert: buying it, using it, and its return when control is lost."""

from __future__ import annotations

from typing import Any

import pytest

from engine.invariants import problems
from engine.scoring import victory_points
from engine.state import GameState, RollDecision, Ship
from tests.engine.scenario import act, legal, refused, scenario, with_relic


def relic_anywhere(s: GameState) -> list[Ship]:
    ships = [*s.undocked, *(x for pl in s.players for x in pl.bay)]
    ships += [x for slots in s.docks.values() for x in slots if x is not None]
    ships += [x for track in s.hub_docks for x in track]
    return [x for x in ships if x.relic]


def terraform(current: int = 0, **kw: Any) -> GameState:
    """``current`` about to use the Terraforming Station (a 6, 1 fuel, 1 ore, a 4th ship)."""
    return scenario(current=current, undocked="6", fuel=1, ore=1, stock={current: 2}, **kw)


# ---- R-COL-1 ----------------------------------------------------------------------------


def test_R_COL_1_a_placed_colony_scores_1_vp_at_once() -> None:
    s = terraform(colonies={"lem": [0, 2, 0, 0]})
    assert victory_points(s, 0) == 0
    s = act(s, "dock terraform 6")
    assert victory_points(s, 0) == 0  # not before it is placed
    s = act(s, "place lem")
    assert victory_points(s, 0) == 1 and victory_points(s, 1) == 3


# ---- R-COL-2 ----------------------------------------------------------------------------


def test_R_COL_2_strictly_more_colonies_than_every_other_player_controls() -> None:
    s = act(terraform(colonies={"lem": [1, 1, 1, 0]}), "dock terraform 6", "place lem")
    assert s.controller["lem"] == 0
    assert victory_points(s, 0) == 2 + 1


def test_R_COL_2_a_tie_for_most_means_nobody_controls() -> None:
    s = act(terraform(colonies={"lem": [1, 2, 0, 0]}), "dock terraform 6", "place lem")
    assert s.controller["lem"] is None
    assert victory_points(s, 0) == 2 and victory_points(s, 1) == 2


def test_R_COL_2_only_the_controller_uses_the_bonus() -> None:
    s = scenario(undocked="6 6", colonies={"lem": [2, 2, 1, 0]})
    assert act(s, "dock solar 6").players[0].fuel == 3
    s = scenario(undocked="6 6", colonies={"lem": [2, 1, 1, 0]})
    assert act(s, "dock solar 6").players[0].fuel == 4


# ---- R-COL-3 ----------------------------------------------------------------------------


def test_R_COL_3_losing_the_lead_loses_the_token_the_vp_and_the_bonus_at_once() -> None:
    s = terraform(current=1, colonies={"lem": [2, 1, 0, 0]})
    assert s.controller["lem"] == 0 and victory_points(s, 0) == 3
    s = act(s, "dock terraform 6", "place lem")
    assert s.controller["lem"] is None
    assert victory_points(s, 0) == 2 and victory_points(s, 1) == 2


def test_R_COL_3_control_passes_straight_to_a_new_leader() -> None:
    s = terraform(current=1, colonies={"herbert": [1, 1, 0, 0]})
    assert s.controller["herbert"] is None
    s = act(s, "dock terraform 6", "place herbert")
    assert s.controller["herbert"] == 1 and victory_points(s, 1) == 3


def test_R_COL_3_control_is_rechecked_when_a_colony_moves() -> None:
    s = scenario(
        undocked="3",
        cards={0: ["teleporter"]},
        colonies={"lem": [1, 1, 0, 0], "vanvogt": [1, 2, 0, 0]},
    )
    assert (s.controller["lem"], s.controller["vanvogt"]) == (None, 1)
    s = act(s, "discard teleporter p1 vanvogt to lem")
    assert (s.controller["lem"], s.controller["vanvogt"]) == (0, 1)
    assert victory_points(s, 0) == 3


# ---- R-COL-4 ----------------------------------------------------------------------------


def test_R_COL_4_the_isolation_field_voids_the_bonus() -> None:
    s = scenario(undocked="6", colonies={"lem": [1, 0, 0, 0]}, fields={"isolation": "lem"})
    assert act(s, "dock solar 6").players[0].fuel == 3
    assert s.controller["lem"] == 0 and victory_points(s, 0) == 2  # control and VP stay


def test_R_COL_4_pohl_foothills_fuel_powers_cost_1_less() -> None:
    s = scenario(undocked="3 4", cards={0: ["booster"]}, colonies={"pohl": [1, 0, 0, 0]})
    s = act(s, "use booster 3")
    assert s.players[0].fuel == 0 and sorted(x.value for x in s.undocked) == [4, 4]
    s = scenario(undocked="3 4", cards={0: ["booster"]}, colonies={"pohl": [0, 1, 0, 0]})
    refused(s, "use booster 3", "Booster Pod costs 1 fuel; you have 0")


def test_R_COL_4_burroughs_buy_the_relic_ship_for_1_fuel_and_1_ore() -> None:
    s = scenario(undocked="3", fuel=1, ore=1, colonies={"burroughs": [1, 0, 0, 0]})
    assert s.relic_on_desert and "buy relic" in legal(s)
    s = act(s, "buy relic")
    assert (s.players[0].fuel, s.players[0].ore) == (0, 0)
    assert s.players[0].bay[-1] == Ship(0, 1, relic=True) and not s.relic_on_desert
    refused(s, "buy relic", "the relic ship is not on Burroughs Desert")
    s = act(s, "dock solar 3", "end")
    for _ in range(3):
        s = act(s, "roll 1 1 1", "dock hub 1 1 1", "end")
    assert s.current == 0 and s.pending == [RollDecision(3, True)]  # it joins the fleet
    s = act(s, "roll 1 2 6 6r", "dock mine 6r")
    assert s.docks["mine"][0] == Ship(0, 6, relic=True) and s.players[0].ore == 1


def test_R_COL_4_burroughs_only_its_controller_with_the_payment() -> None:
    s = scenario(undocked="3", fuel=1, ore=1, colonies={"burroughs": [1, 1, 0, 0]})
    refused(s, "buy relic", "you must control Burroughs Desert to buy the relic ship")
    s = scenario(undocked="3", fuel=1, ore=0, colonies={"burroughs": [1, 0, 0, 0]})
    refused(s, "buy relic", "the relic ship costs 1 fuel and 1 ore")
    s = scenario(
        undocked="3",
        fuel=1,
        ore=1,
        colonies={"burroughs": [1, 0, 0, 0]},
        fields={"isolation": "burroughs"},
    )
    refused(s, "buy relic", "the Isolation Field on Burroughs Desert voids its bonus")


def test_R_COL_4_burroughs_data_crystal_cannot_borrow_it() -> None:
    s = scenario(
        undocked="3", fuel=5, ore=1, cards={0: ["crystal"]}, colonies={"burroughs": [0, 1, 0, 0]}
    )
    refused(s, "use crystal burroughs", "the Data Crystal cannot borrow Burroughs Desert's bonus")
    assert "buy relic" not in legal(s)


@pytest.mark.parametrize("where", ["mine", "bay", "hub", "market"])
def test_R_COL_4_burroughs_the_relic_returns_at_once_when_control_is_lost(where: str) -> None:
    s = terraform(current=1, colonies={"burroughs": [1, 0, 0, 0]}, hub={0: 2})
    s = with_relic(s, 0, where)
    s = act(s, "dock terraform 6", "place burroughs")
    assert s.controller["burroughs"] is None
    assert s.relic_on_desert and relic_anywhere(s) == []
    assert not problems(s)


def test_R_COL_4_burroughs_the_relic_returns_when_control_passes_to_another() -> None:
    s = scenario(
        current=2,
        undocked="3",
        cards={2: ["polarity"]},
        colonies={"burroughs": [1, 0, 0, 0], "lem": [0, 1, 0, 0]},
    )
    s = with_relic(s, 0, "mine")
    s = act(s, "discard polarity p1 burroughs p2 lem")
    assert s.controller["burroughs"] == 1
    assert s.relic_on_desert and relic_anywhere(s) == []


def test_R_COL_4_burroughs_the_relic_never_goes_to_a_ship_stock() -> None:
    s = scenario(undocked="3", cards={0: ["plasma"]}, colonies={"burroughs": [0, 1, 0, 0]})
    s = with_relic(s, 1, "mine", value=5)
    stock = s.players[1].stock
    s = act(s, "discard plasma mine p2:5r")
    assert s.relic_on_desert and relic_anywhere(s) == []
    assert s.players[1].stock == stock

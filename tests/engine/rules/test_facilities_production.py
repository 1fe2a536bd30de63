"""Solar Converter (R-SOLAR), Lunar Mine (R-MINE), Orbital Market (R-MARKET) and Shipyard
(R-YARD), with the territory bonuses that change them: Lem Badlands, Van Vogt Mountains,
Heinlein Plains and Herbert Valley (R-COL-4)."""

from __future__ import annotations

import pytest

from engine.game import Game
from engine.invariants import problems
from engine.state import GameState, RollDecision, Ship
from tests.engine.scenario import act, legal, refused, scenario

FULL_SOLAR = "p2:1 p2:1 p2:1 p2:1 p2:1 p2:1 p3:1 p3:1"


def fuel_ore(s: GameState, p: int = 0) -> tuple[int, int]:
    return s.players[p].fuel, s.players[p].ore


# ---- R-SOLAR ----------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "fuel"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_R_SOLAR_half_the_value_rounded_up(value: int, fuel: int) -> None:
    s = act(scenario(undocked=str(value)), f"dock solar {value}")
    assert fuel_ore(s) == (fuel, 0)
    assert s.docks["solar"][0] == Ship(0, value)


def test_R_SOLAR_one_ship_per_dock_action_eight_docks() -> None:
    s = scenario(undocked="3 4")
    refused(s, "dock solar 3 4", "dock one ship at a time at the Solar Converter")
    s = scenario(undocked="4", docks={"solar": FULL_SOLAR})
    refused(s, "dock solar 4", "the Solar Converter has no free docks for them")
    s = scenario(undocked="4", docks={"solar": FULL_SOLAR.rsplit(" ", 1)[0]})
    assert fuel_ore(act(s, "dock solar 4")) == (2, 0)


def test_R_SOLAR_lem_badlands_one_more_fuel_per_ship_for_its_controller_only() -> None:
    s = scenario(undocked="1 6", colonies={"lem": [2, 1, 0, 0]})
    assert fuel_ore(act(s, "dock solar 1", "dock solar 6")) == (2 + 4, 0)
    s = scenario(undocked="1 6", colonies={"lem": [1, 2, 0, 0]})
    assert fuel_ore(act(s, "dock solar 1", "dock solar 6")) == (4, 0)


# ---- R-MINE -----------------------------------------------------------------------------


def test_R_MINE_at_least_the_highest_docked_own_ships_included() -> None:
    s = scenario(undocked="3 5 5")
    s = act(s, "dock mine 5")
    assert fuel_ore(s) == (0, 1)
    refused(s, "dock mine 3", "the Lunar Mine needs a ship of 5 or more; your ships are 3, 5")
    s = act(s, "dock mine 5")  # equal is enough
    assert fuel_ore(s) == (0, 2)


def test_R_MINE_five_docks_one_ship_at_a_time() -> None:
    s = scenario(undocked="6 6")
    refused(s, "dock mine 6 6", "dock one ship at a time at the Lunar Mine")
    s = scenario(undocked="6", docks={"mine": "p2:1 p2:2 p2:3 p3:4 p3:5"})
    refused(s, "dock mine 6", "the Lunar Mine has no free docks for them")


def test_R_MINE_van_vogt_first_ship_of_the_turn_may_be_any_value() -> None:
    s = scenario(undocked="1 2 4", docks={"mine": "p2:5"}, colonies={"vanvogt": [1, 0, 0, 0]})
    s = act(s, "dock mine 1")
    assert fuel_ore(s) == (0, 1)
    refused(s, "dock mine 2", "the Lunar Mine needs a ship of 5 or more; your ships are 2, 4")


def test_R_MINE_van_vogt_only_the_first_ship_even_if_it_met_the_rule() -> None:
    s = scenario(undocked="6 2", colonies={"vanvogt": [1, 0, 0, 0]})
    s = act(s, "dock mine 6")
    refused(s, "dock mine 2", "the Lunar Mine needs a ship of 6 or more")


def test_R_MINE_van_vogt_only_for_its_controller_and_not_under_isolation() -> None:
    s = scenario(undocked="1", docks={"mine": "p2:5"}, colonies={"vanvogt": [0, 1, 0, 0]})
    refused(s, "dock mine 1", "the Lunar Mine needs a ship of 5 or more")
    s = scenario(
        undocked="1",
        docks={"mine": "p2:5"},
        colonies={"vanvogt": [1, 0, 0, 0]},
        fields={"isolation": "vanvogt"},
    )
    refused(s, "dock mine 1", "the Lunar Mine needs a ship of 5 or more")


def test_R_MINE_undo_gives_the_ore_back() -> None:
    s = scenario(undocked="4 6", fuel=1)
    g = Game(s.config)
    g.state = s
    g.apply("dock mine 6")
    assert "dock mine 4" not in legal(g.state)
    g.undo()
    assert g.state == s and "dock mine 4" in legal(g.state)


# ---- R-MARKET ---------------------------------------------------------------------------


def test_R_MARKET_trade_fuel_at_the_pairs_value_any_number_of_times() -> None:
    s = scenario(undocked="3 3", fuel=7)
    refused(s, "trade", "you have no pair docked at the Orbital Market this turn")
    s = act(s, "dock market 3 3")
    assert fuel_ore(s) == (7, 0)  # docking alone trades nothing
    s = act(s, "trade", "trade")
    assert fuel_ore(s) == (1, 2)
    refused(s, "trade", "trading costs 3 fuel per ore; you have 1")
    assert "end" in legal(s)


def test_R_MARKET_needs_a_pair_in_a_free_set_of_docks() -> None:
    s = scenario(undocked="3 4")
    refused(s, "dock market 3 4", "the Orbital Market needs a pair of equal values")
    s = scenario(undocked="2 2", docks={"market": "p2:5 - p3:2 p3:2"})
    refused(s, "dock market 2 2", "the Orbital Market has no free docks for them")


def test_R_MARKET_an_opponents_pair_gives_you_no_trade() -> None:
    s = scenario(undocked="5", docks={"market": "p2:1 p2:1"}, fuel=4)
    refused(s, "trade", "you have no pair docked at the Orbital Market this turn")


def test_R_MARKET_with_two_pairs_the_better_rate() -> None:
    s = scenario(undocked="2 2 5 5", fuel=4)
    s = act(s, "dock market 5 5", "dock market 2 2", "trade", "trade")
    assert fuel_ore(s) == (0, 2)


def test_R_MARKET_heinlein_plains_one_fuel_per_ore() -> None:
    s = scenario(undocked="6 6", fuel=3, colonies={"heinlein": [1, 0, 0, 0]})
    s = act(s, "dock market 6 6", "trade", "trade", "trade")
    assert fuel_ore(s) == (0, 3)
    s = scenario(undocked="6 6", fuel=3, colonies={"heinlein": [0, 1, 0, 0]})
    s = act(s, "dock market 6 6")
    refused(s, "trade", "trading costs 6 fuel per ore; you have 3")


# ---- R-YARD -----------------------------------------------------------------------------


def test_R_YARD_the_4th_ship_costs_1_fuel_and_1_ore() -> None:
    s = scenario(undocked="1 1 5", fuel=2, ore=2)
    assert s.players[0].stock == 3 and s.players[0].bay == []
    s = act(s, "dock yard 1 1")
    assert fuel_ore(s) == (1, 1) and s.players[0].stock == 2
    assert s.players[0].bay == [Ship(0, 1)]  # it joins the fleet next turn


def test_R_YARD_each_pair_builds_one_ship_the_5th_then_the_6th() -> None:
    s = scenario(undocked="2 2 3 3", fuel=5, ore=6)
    assert s.players[0].stock == 2
    s = act(s, "dock yard 2 2")
    assert fuel_ore(s) == (3, 4) and s.players[0].stock == 1
    s = act(s, "dock yard 3 3")
    assert fuel_ore(s) == (0, 1) and s.players[0].stock == 0
    assert s.players[0].bay == [Ship(0, 1)] * 2


def test_R_YARD_the_relic_ship_is_not_counted_for_the_cost() -> None:
    s = scenario(undocked="2 2 3", fuel=1, ore=1, colonies={"burroughs": [1, 0, 0, 0]})
    s.undocked.append(Ship(0, 5, relic=True))  # the relic ship, bought on an earlier turn
    s.relic_on_desert = False
    assert not problems(s)
    s = act(s, "dock yard 2 2")  # still the 4th ship of P1's colour
    assert fuel_ore(s) == (0, 0) and s.players[0].stock == 2


def test_R_YARD_pay_at_once_or_not_at_all() -> None:
    s = scenario(undocked="4 4 5", fuel=0, ore=1)
    refused(s, "dock yard 4 4", "your next ship costs 1 fuel and 1 ore")
    refused(s, "dock yard 4 5", "the Shipyard needs a pair of equal values")


def test_R_YARD_not_with_an_empty_stock() -> None:
    s = scenario(undocked="2 2 3 4 5 6", fuel=9, ore=9)
    assert s.players[0].stock == 0
    refused(s, "dock yard 2 2", "your ship stock is empty")


def test_R_YARD_herbert_valley_one_fuel_and_one_ore_less() -> None:
    s = scenario(undocked="1 1 5", colonies={"herbert": [1, 0, 0, 0]})
    s = act(s, "dock yard 1 1")
    assert fuel_ore(s) == (0, 0) and s.players[0].stock == 2  # the 4th ship is free
    s = scenario(undocked="2 2 3 3", fuel=3, ore=3, colonies={"herbert": [1, 0, 0, 0]})
    s = act(s, "dock yard 2 2", "dock yard 3 3")  # 1 + 1, then 2 + 2
    assert fuel_ore(s) == (0, 0) and s.players[0].stock == 0


def test_R_YARD_a_lost_ship_can_be_built_again() -> None:
    s = scenario(current=3, docks={"terraform": "p1:6"}, stock={0: 0}, fuel=3, ore=3)
    s = act(s, "end")
    assert s.players[0].stock == 1 and s.pending == [RollDecision(5, False)]
    s = act(s, "roll 2 2 3 4 5", "dock yard 2 2")
    assert fuel_ore(s) == (0, 0) and s.players[0].stock == 0  # the 6th ship, again

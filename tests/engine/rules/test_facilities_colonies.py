"""The facilities that place colonies: Colony Constructor (R-CONSTR, Bradbury Plateau),
Colony Hub (R-HUB, R-HUB-1..6, Asimov Crater) and Terraforming Station (R-TERR,
R-TERR-MIN, R-TERR-BURR, R-TERR-LOCK)."""

from __future__ import annotations

from engine.game import Game
from engine.scoring import victory_points
from engine.state import GameState, PlaceColonyDecision, RollDecision, Ship
from engine.tables import TERRITORIES, TerritoryId
from tests.engine.scenario import act, legal, refused, scenario, with_relic

PLACES = {f"place {t}" for t in TERRITORIES}


def fuel_ore(s: GameState, p: int = 0) -> tuple[int, int]:
    return s.players[p].fuel, s.players[p].ore


# ---- R-CONSTR ---------------------------------------------------------------------------


def test_R_CONSTR_three_equal_values_and_3_ore_place_a_colony() -> None:
    s = scenario(undocked="4 4 4", ore=4)
    s = act(s, "dock constructor 4 4 4")
    assert fuel_ore(s) == (0, 1)
    assert s.pending == [PlaceColonyDecision(0, "constructor")]
    assert legal(s) == PLACES
    refused(s, "trade", "first choose the territory for your colony (`place <territory>`)")
    s = act(s, "place herbert")
    assert s.colonies["herbert"][0] == 1 and s.players[0].colonies == 5
    assert victory_points(s, 0) == 2  # the colony and control of Herbert Valley


def test_R_CONSTR_needs_a_triple_and_the_ore() -> None:
    s = scenario(undocked="4 4 5", ore=3)
    refused(s, "dock constructor 4 4 5", "the Colony Constructor needs three equal values")
    s = scenario(undocked="4 4 4", ore=2)
    refused(s, "dock constructor 4 4 4", "the Colony Constructor costs 3 ore")


def test_R_CONSTR_two_triples_in_one_turn() -> None:
    s = scenario(undocked="2 2 2 6 6 6", ore=6)
    s = act(s, "dock constructor 2 2 2", "place lem", "dock constructor 6 6 6", "place lem")
    assert s.colonies["lem"][0] == 2 and fuel_ore(s) == (0, 0)


def test_R_CONSTR_bradbury_plateau_costs_2_ore() -> None:
    s = scenario(undocked="5 5 5", ore=2, colonies={"bradbury": [1, 0, 0, 0]})
    s = act(s, "dock constructor 5 5 5", "place pohl")
    assert fuel_ore(s) == (0, 0)
    s = scenario(undocked="5 5 5", ore=2, colonies={"bradbury": [1, 1, 0, 0]})
    refused(s, "dock constructor 5 5 5", "the Colony Constructor costs 3 ore")


# ---- R-HUB ------------------------------------------------------------------------------


def test_R_HUB_one_track_per_player_with_three_docks() -> None:
    s = scenario(undocked="1 2 3 4", docks={"hub": "p2:5 p2:5 p2:5"}, hub={1: 3})
    refused(s, "dock hub 1 2 3 4", "dock one to three ships at the Colony Hub")
    s = act(s, "dock hub 1 2 3")  # P2's full track is no matter
    assert s.hub_docks[0] == [Ship(0, 1), Ship(0, 2), Ship(0, 3)]
    refused(s, "dock hub 4", "your Colony Hub track has 0 free docks")


def test_R_HUB_1_first_ship_puts_a_colony_on_space_1_each_other_moves_it() -> None:
    s = scenario(undocked="6 1 3")
    s = act(s, "dock hub 6")
    assert (s.players[0].hub, s.players[0].colonies) == (1, 5)
    s = act(s, "dock hub 1 3")
    assert (s.players[0].hub, s.players[0].colonies) == (3, 5)


def test_R_HUB_1_several_ships_at_once_and_a_colony_from_an_earlier_turn() -> None:
    s = act(scenario(undocked="2 5 5"), "dock hub 2 5 5")
    assert s.players[0].hub == 3
    s = act(scenario(undocked="2 5", hub={0: 4}), "dock hub 2 5")
    assert (s.players[0].hub, s.players[0].colonies) == (6, 5)


def test_R_HUB_2_launch_from_space_7_for_1_fuel_and_1_ore() -> None:
    s = scenario(undocked="3", hub={0: 5}, fuel=1, ore=1)
    refused(s, "launch", "your colony must be on space 7 to launch (it is on 5)")
    s = scenario(undocked="3", hub={0: 7}, fuel=1, ore=0)
    refused(s, "launch", "launching costs 1 fuel and 1 ore")
    s = scenario(undocked="3", hub={0: 7}, fuel=1, ore=1)  # reached space 7 on an earlier turn
    assert "launch" in legal(s)
    s = act(s, "launch")
    assert fuel_ore(s) == (0, 0) and s.players[0].hub == 0
    assert s.pending == [PlaceColonyDecision(0, "launch")]
    s = act(s, "place asimov")
    assert s.colonies["asimov"][0] == 1 and s.players[0].colonies == 5
    s = act(s, "dock hub 3")  # then a new colony may start
    assert (s.players[0].hub, s.players[0].colonies) == (1, 4)


def test_R_HUB_2_launch_and_place_can_be_taken_back() -> None:
    s = scenario(undocked="3", hub={0: 7}, fuel=1, ore=1)
    g = Game(s.config)
    g.state = s
    g.apply("launch")
    g.apply("place asimov")
    assert g.state.colonies["asimov"][0] == 1
    assert [str(g.undo()), str(g.undo())] == ["place asimov", "launch"]
    assert g.state == s


def test_R_HUB_3_steps_past_space_7_start_the_next_colony_on_an_immediate_launch() -> None:
    s = scenario(undocked="2 3", hub={0: 6}, fuel=1, ore=1)
    s = act(s, "dock hub 2 3")
    assert s.players[0].hub == 7
    s = act(s, "launch", "place lem")
    assert (s.players[0].hub, s.players[0].colonies) == (1, 4)  # one step left: space 1


def test_R_HUB_3_steps_past_space_7_are_lost_unless_the_launch_is_next() -> None:
    s = scenario(undocked="2 3 5", hub={0: 6}, fuel=1, ore=1)
    s = act(s, "dock hub 2 3", "dock solar 5", "launch", "place lem")
    assert (s.players[0].hub, s.players[0].colonies) == (0, 5)


def test_R_HUB_3_with_asimov_crater() -> None:
    s = scenario(undocked="1 2 3", hub={0: 5}, fuel=1, ore=1, colonies={"asimov": [1, 0, 0, 0]})
    s = act(s, "dock hub 1 2 3")  # 5 + 3 + 1 = 9: two steps past space 7
    s = act(s, "launch", "place asimov")
    assert (s.players[0].hub, s.players[0].colonies) == (2, 3)


def test_R_HUB_4_last_colony_leaves_the_track_for_the_terraforming_station() -> None:
    s = scenario(
        undocked="6", fuel=1, ore=1, colonies={"lem": [5, 0, 0, 0]}, hub={0: 3}, stock={0: 2}
    )
    assert s.players[0].colonies == 0
    s = act(s, "dock terraform 6")
    assert s.players[0].hub == 0
    s = act(s, "place lem")
    assert s.colonies["lem"][0] == 6 and s.over  # the last colony ends the game (R-END-2)


def test_R_HUB_4_last_colony_leaves_the_track_for_the_colony_constructor() -> None:
    s = scenario(undocked="2 2 2", ore=3, colonies={"pohl": [5, 0, 0, 0]}, hub={0: 6})
    s = act(s, "dock constructor 2 2 2", "place pohl")
    assert s.players[0].hub == 0 and s.over


def test_R_HUB_4_not_bound_only_for_the_last_colony() -> None:
    s = scenario(undocked="2 2 2", ore=3, colonies={"pohl": [4, 0, 0, 0]}, hub={0: 6})
    assert s.players[0].colonies == 1
    s = act(s, "dock constructor 2 2 2", "place pohl")
    assert (s.players[0].hub, s.players[0].colonies) == (6, 0) and not s.over


def test_R_HUB_5_asimov_crater_two_ships_three_spaces_three_ships_four() -> None:
    asimov: dict[TerritoryId, list[int]] = {"asimov": [1, 0, 0, 0]}
    s = act(scenario(undocked="2 5", hub={0: 1}, colonies=asimov), "dock hub 2 5")
    assert s.players[0].hub == 4
    s = act(scenario(undocked="2 5 6", hub={0: 1}, colonies=asimov), "dock hub 2 5 6")
    assert s.players[0].hub == 5
    s = act(scenario(undocked="2", hub={0: 1}, colonies=asimov), "dock hub 2")
    assert s.players[0].hub == 2  # one ship: no extra space


def test_R_HUB_5_asimov_once_per_turn_counting_every_ship_docked_this_turn() -> None:
    s = scenario(undocked="2 3 4", hub={0: 1}, colonies={"asimov": [1, 0, 0, 0]})
    s = act(s, "dock hub 2")
    assert s.players[0].hub == 2
    s = act(s, "dock hub 3")  # the second ship this turn
    assert s.players[0].hub == 4
    s = act(s, "dock hub 4")  # only once per turn
    assert s.players[0].hub == 5


def test_R_HUB_5_asimov_only_for_its_controller_and_not_under_isolation() -> None:
    s = scenario(undocked="2 5", hub={0: 1}, colonies={"asimov": [0, 1, 0, 0]})
    assert act(s, "dock hub 2 5").players[0].hub == 3
    s = scenario(
        undocked="2 5",
        hub={0: 1},
        colonies={"asimov": [1, 0, 0, 0]},
        fields={"isolation": "asimov"},
    )
    assert act(s, "dock hub 2 5").players[0].hub == 3


def test_R_HUB_6_no_docking_while_the_colony_waits_on_space_7() -> None:
    s = scenario(undocked="4", hub={0: 7}, fuel=1, ore=1)
    refused(s, "dock hub 4", "your colony is on space 7: launch it before docking here again")
    s = act(s, "launch", "place bradbury", "dock hub 4")
    assert s.players[0].hub == 1


def test_R_HUB_6_no_docking_without_a_colony_to_put_on_the_track() -> None:
    s = scenario(undocked="4", colonies={"lem": [6, 0, 0, 0]})  # every colony on the planet
    refused(s, "dock hub 4", "you have no colony left to place")


# ---- R-TERR -----------------------------------------------------------------------------


def test_R_TERR_a_6_and_1_fuel_1_ore_place_a_colony_and_use_the_ship_up() -> None:
    s = scenario(undocked="6 2 2 3", fuel=1, ore=1, stock={0: 2})
    s = act(s, "dock terraform 6")
    assert fuel_ore(s) == (0, 0)
    assert s.pending == [PlaceColonyDecision(0, "terraform")]
    s = act(s, "place burroughs")
    assert s.colonies["burroughs"][0] == 1 and s.controller["burroughs"] == 0
    s = act(s, "dock solar 2", "dock solar 2", "dock solar 3", "end")
    for _ in range(3):  # P2, P3, P4 play
        s = act(s, "roll 1 1 1", "dock hub 1 1 1", "end")
    assert s.current == 0 and s.pending == [RollDecision(3, False)]
    assert s.players[0].stock == 3 and s.docks["terraform"] == (None,)


def test_R_TERR_needs_a_6_a_free_dock_and_the_payment() -> None:
    s = scenario(undocked="5 6", fuel=1, ore=1, stock={0: 2})
    refused(s, "dock terraform 5", "the Terraforming Station needs a 6, not a 5")
    s = scenario(undocked="6", fuel=1, ore=0, stock={0: 2})
    refused(s, "dock terraform 6", "the Terraforming Station costs 1 fuel and 1 ore")
    s = scenario(undocked="6", fuel=1, ore=1, stock={0: 2}, docks={"terraform": "p3:6"})
    refused(s, "dock terraform 6", "the Terraforming Station has no free docks for them")


def test_R_TERR_the_used_ship_cannot_be_rebuilt_before_it_reaches_the_stock() -> None:
    s = scenario(undocked="6 2 2 3 4 5", fuel=5, ore=5)
    assert s.players[0].stock == 0
    s = act(s, "dock terraform 6", "place pohl")
    refused(s, "dock yard 2 2", "your ship stock is empty")


def test_R_TERR_MIN_not_below_three_ships_of_your_colour() -> None:
    s = scenario(undocked="6 2 3", fuel=1, ore=1)
    refused(s, "dock terraform 6", "that would leave you fewer than 3 ships of your colour")
    s = scenario(undocked="6 2 3", bay={0: "1"}, fuel=1, ore=1)  # a 4th ship in the bay
    assert "dock terraform 6" in legal(s)


def test_R_TERR_MIN_the_relic_ship_does_not_count() -> None:
    s = scenario(undocked="2 3 4", fuel=1, ore=1, colonies={"burroughs": [1, 0, 0, 0]})
    s = with_relic(s, 0, "undocked", value=6)
    assert s.players[0].stock == 3
    s = act(s, "dock terraform 6r", "place lem")
    assert s.docks["terraform"] == (Ship(0, 6, relic=True),)


def test_R_TERR_BURR_relic_goes_back_to_burroughs_and_may_be_bought_again() -> None:
    s = scenario(current=3, fuel=2, ore=2, colonies={"burroughs": [1, 0, 0, 0]})
    s = with_relic(s, 0, "terraform", value=6)
    s = act(s, "end")
    assert s.relic_on_desert and s.players[0].stock == 3
    assert s.pending == [RollDecision(3, False)]
    s = act(s, "roll 1 2 3")
    assert "buy relic" in legal(s)
    s = act(s, "buy relic")
    assert s.players[0].bay == [Ship(0, 1, relic=True)] and not s.relic_on_desert


def test_R_TERR_LOCK_the_teleporter_cannot_move_a_ship_off_the_station() -> None:
    s = scenario(undocked="6 3", fuel=5, ore=1, stock={0: 2}, cards={0: ["teleporter"]})
    s = act(s, "dock terraform 6", "place lem")
    assert not any(a.startswith("use teleporter terraform") for a in legal(s))
    refused(s, "use teleporter terraform 6 to solar", "a ship on the Terraforming Station")


def test_R_TERR_LOCK_plasma_sends_a_ship_on_the_station_to_the_stock() -> None:
    s = scenario(
        undocked="2", docks={"terraform": "p2:6"}, stock={1: 2}, cards={0: ["plasma"]}, fuel=1
    )
    s = act(s, "use plasma terraform p2:6")
    assert s.docks["terraform"] == (None,)
    assert s.players[1].stock == 3 and s.players[1].bay == [Ship(1, 1)] * 3  # not the bay


def test_R_TERR_LOCK_plasma_sends_the_relic_on_the_station_to_burroughs() -> None:
    s = scenario(undocked="2", cards={0: ["plasma"]}, fuel=1, colonies={"burroughs": [0, 1, 0, 0]})
    s = with_relic(s, 1, "terraform", value=6)
    s = act(s, "use plasma terraform p2:6r")
    assert s.relic_on_desert and s.docks["terraform"] == (None,)
    assert s.players[1].stock == 3 and Ship(1, 6, relic=True) not in s.players[1].bay

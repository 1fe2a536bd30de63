"""Alien tech cards that move or remove docked ships: Orbital Teleporter (R-TECH-TELE),
Plasma Cannon (R-TECH-PLASMA), Mind Control Helm (R-TECH-HELM), and the Terraforming
Station lock (R-TERR-LOCK)."""

from __future__ import annotations

from typing import Any

import pytest

from engine import victory_points
from engine.game import Game
from engine.state import GameState, PlaceColonyDecision, PlasmaDecision, RollDecision, Ship
from engine.tables import CARD_INDEX, FacilityId
from tests.engine.scenario import act, legal, refused, scenario, with_relic


def uses(s: GameState, card: str) -> set[str]:
    return {a for a in legal(s) if a.startswith(f"use {card} ")}


def docked(s: GameState, facility: FacilityId) -> list[str]:
    return [f"p{x.owner + 1}:{x.value}{'r' if x.relic else ''}" for x in s.docks[facility] if x]


# ---- R-TECH-TELE --------------------------------------------------------------------------


def test_R_TECH_TELE_moves_a_docked_ship_that_docks_anew_keeping_both_benefits() -> None:
    s = scenario(undocked="6", cards={0: ["teleporter"]}, fuel=0)
    s = act(s, "dock solar 6")
    assert s.players[0].fuel == 3
    assert "use teleporter solar 6 to mine" in uses(s, "teleporter")
    s = act(s, "use teleporter solar 6 to mine")
    assert docked(s, "solar") == []
    assert docked(s, "mine") == ["p1:6"]  # its value does not change
    assert (s.players[0].fuel, s.players[0].ore) == (3 - 2, 1)


def test_R_TECH_TELE_the_moved_ship_may_combine_with_undocked_ships() -> None:
    s = scenario(undocked="5 5 1", docks={"solar": "5"}, cards={0: ["teleporter"]}, fuel=2, ore=3)
    assert "use teleporter solar 5 to constructor 5 5" in uses(s, "teleporter")
    s = act(s, "use teleporter solar 5 to constructor 5 5")
    assert docked(s, "constructor") == ["p1:5", "p1:5", "p1:5"]
    assert [x.value for x in s.undocked] == [1]
    assert s.pending == [PlaceColonyDecision(0, "constructor")]
    assert (s.players[0].fuel, s.players[0].ore) == (0, 0)


def test_R_TECH_TELE_the_new_facility_rules_apply() -> None:
    s = scenario(docks={"solar": "3", "mine": "p2:5"}, cards={0: ["teleporter"]}, fuel=2)
    refused(s, "use teleporter solar 3 to mine", "the Lunar Mine needs a ship of 5 or more")
    refused(s, "use teleporter solar 3 to yard", "the Shipyard needs a pair of equal values")


def test_R_TECH_TELE_not_back_to_the_same_facility() -> None:
    s = scenario(undocked="2", docks={"solar": "4"}, cards={0: ["teleporter"]}, fuel=2)
    refused(s, "use teleporter solar 4 to solar", "the ship must go to another facility")
    assert not [a for a in uses(s, "teleporter") if " to solar" in a]


def test_R_TECH_TELE_moves_only_your_own_docked_ships() -> None:
    s = scenario(docks={"solar": "p2:4"}, bay={0: "3"}, cards={0: ["teleporter"]}, fuel=2)
    refused(s, "use teleporter solar 4 to mine", "there is no such ship at the Solar Converter")
    # A ship in the Maintenance Bay is not docked: nothing can be moved.
    assert uses(s, "teleporter") == set()
    with pytest.raises(ValueError):
        act(s, "use teleporter bay 3 to solar")


def test_R_TECH_TELE_costs_two_fuel_paid_before_docking_anew() -> None:
    # Project decision: the card is paid first, so the new facility's cost must be payable
    # with what is left.
    kw: dict[str, Any] = {
        "docks": {"solar": "6"},
        "cards": {0: ["teleporter"]},
        "ore": 1,
        "stock": {0: 2},
    }
    s = scenario(fuel=1, **kw)
    refused(s, "use teleporter solar 6 to mine", "Orbital Teleporter costs 2 fuel; you have 1")
    s = scenario(fuel=2, **kw)
    refused(
        s, "use teleporter solar 6 to terraform", "the Terraforming Station costs 1 fuel and 1 ore"
    )
    s = scenario(fuel=3, **kw)
    s = act(s, "use teleporter solar 6 to terraform")
    assert (s.players[0].fuel, s.players[0].ore) == (0, 0)
    assert s.pending == [PlaceColonyDecision(0, "terraform")]


def test_R_TECH_TELE_can_be_undone() -> None:
    s = scenario(undocked="2", docks={"solar": "4"}, cards={0: ["teleporter"]}, fuel=2)
    g = Game(s.config)
    g.state = s
    g.apply("use teleporter solar 4 to mine")
    assert g.state.players[0].ore == 1
    g.undo()
    assert g.state == s


def test_R_TECH_TELE_discard_moves_any_players_colony() -> None:
    s = scenario(colonies={"lem": [1, 1, 0, 0], "asimov": [0, 0, 1, 0]}, cards={0: ["teleporter"]})
    moves = {a for a in legal(s) if a.startswith("discard teleporter")}
    assert "discard teleporter p3 asimov to lem" in moves
    assert "discard teleporter p1 lem to asimov" in moves
    assert len(moves) == 3 * 7  # three colonies, seven other territories each
    s = act(s, "discard teleporter p3 asimov to lem")
    assert s.colonies["lem"] == (1, 1, 1, 0)
    assert s.colonies["asimov"] == (0, 0, 0, 0)
    assert s.controller["asimov"] is None
    assert s.players[0].cards == []
    assert s.discard[CARD_INDEX["teleporter"]] == 1


def test_R_TECH_TELE_discard_refusals() -> None:
    s = scenario(colonies={"lem": [1, 0, 0, 0]}, cards={0: ["teleporter"]})
    refused(s, "discard teleporter p1 lem to lem", "choose two different territories")
    refused(s, "discard teleporter p2 lem to pohl", "P2 has no colony on Lem Badlands")


def test_R_TECH_TELE_discard_moving_the_relic_holders_colony_returns_the_relic() -> None:
    s = scenario(colonies={"burroughs": [0, 1, 0, 0]}, cards={0: ["teleporter"]})
    s = with_relic(s, 1, "mine", 4)
    s = act(s, "discard teleporter p2 burroughs to lem")
    assert s.controller["burroughs"] is None
    assert s.relic_on_desert
    assert docked(s, "mine") == []


# ---- R-TECH-PLASMA ------------------------------------------------------------------------


def test_R_TECH_PLASMA_fires_at_one_facility_one_fuel_per_ship() -> None:
    s = scenario(
        undocked="1",
        docks={"mine": "p2:2 p3:3 p4:4 p2:5", "solar": "p3:6"},
        cards={0: ["plasma"]},
        fuel=3,
    )
    assert {a for a in uses(s, "plasma") if " mine " in a} == {
        "use plasma mine p2:2",
        "use plasma mine p2:5",
        "use plasma mine p3:3",
        "use plasma mine p4:4",
    }
    s = act(s, "use plasma mine p3:3")
    assert s.players[0].fuel == 2
    assert s.pending == [PlasmaDecision(0, "mine", 1)]
    assert legal(s) == {"hit p2:2", "hit p2:5", "hit p4:4", "done"}
    refused(s, "hit p3:6", "there is no such opponent's ship at the Lunar Mine")
    refused(s, "dock solar 1", "first choose another ship to hit")
    s = act(s, "hit p2:5", "hit p4:4")
    # Out of fuel: the cannon stops by itself.
    assert s.pending == []
    assert s.players[0].fuel == 0
    assert docked(s, "mine") == ["p2:2"]
    assert [x.value for x in s.players[1].bay if x.value == 5] == [5]
    assert Ship(2, 3) in s.players[2].bay and Ship(3, 4) in s.players[3].bay
    assert docked(s, "solar") == ["p3:6"]


def test_R_TECH_PLASMA_at_the_colony_hub_hits_ships_on_any_track() -> None:
    # Project decision D9: the Colony Hub is one facility for the cannon.
    s = scenario(
        undocked="1",
        docks={"hub": "2 p2:3 p3:4"},
        hub={0: 1, 1: 1, 2: 1},
        cards={0: ["plasma"]},
        fuel=2,
    )
    assert uses(s, "plasma") == {"use plasma hub p2:3", "use plasma hub p3:4"}
    s = act(s, "use plasma hub p2:3", "hit p3:4")
    assert s.hub_docks[:3] == [[Ship(0, 2)], [], []]
    assert Ship(1, 3) in s.players[1].bay and Ship(2, 4) in s.players[2].bay
    assert (s.players[1].hub, s.players[2].hub) == (1, 1)  # colonies stay where they are


def test_R_TECH_PLASMA_done_stops_firing() -> None:
    s = scenario(undocked="1", docks={"mine": "p2:2 p3:3"}, cards={0: ["plasma"]}, fuel=5)
    s = act(s, "use plasma mine p2:2", "done")
    assert s.pending == []
    assert s.players[0].fuel == 4
    assert docked(s, "mine") == ["p3:3"]


def test_R_TECH_PLASMA_never_fires_at_your_own_or_neutral_ships() -> None:
    s = scenario(players=3, undocked="1", docks={"solar": "3 p2:4"}, cards={0: ["plasma"]}, fuel=5)
    refused(s, "use plasma solar p1:3", "there is no such opponent's ship at the Solar Converter")
    assert uses(s, "plasma") == {"use plasma solar p2:4"}  # not the blocked dock's neutral 1
    s = act(s, "use plasma solar p2:4")
    assert s.pending == []  # no other target: no decision
    assert docked(s, "solar") == ["p1:3", "p0:1"]  # the neutral blocker stays


def test_R_TECH_PLASMA_a_ship_on_the_terraforming_station_goes_to_the_stock() -> None:
    s = scenario(
        undocked="1", docks={"terraform": "p2:6"}, cards={0: ["plasma"]}, fuel=1, stock={1: 2}
    )
    s = act(s, "use plasma terraform p2:6")
    assert s.players[1].stock == 3
    assert Ship(1, 6) not in s.players[1].bay
    assert docked(s, "terraform") == []


def test_R_TECH_PLASMA_the_relic_ship_goes_to_its_holders_bay() -> None:
    # Project decision: from a normal facility the relic ship goes to its holder's bay.
    s = scenario(undocked="1", colonies={"burroughs": [0, 1, 0, 0]}, cards={0: ["plasma"]}, fuel=1)
    s = with_relic(s, 1, "mine", 4)
    s = act(s, "use plasma mine p2:4r")
    assert Ship(1, 4, relic=True) in s.players[1].bay
    assert not s.relic_on_desert


def test_R_TECH_PLASMA_the_relic_ship_on_the_terraforming_station_goes_to_the_desert() -> None:
    s = scenario(undocked="1", colonies={"burroughs": [0, 1, 0, 0]}, cards={0: ["plasma"]}, fuel=1)
    s = with_relic(s, 1, "terraform", 6)
    stock = s.players[1].stock
    s = act(s, "use plasma terraform p2:6r")
    assert s.relic_on_desert
    assert not any(x.relic for x in s.players[1].bay)
    assert s.players[1].stock == stock


def test_R_TECH_PLASMA_use_can_be_undone() -> None:
    s = scenario(undocked="1", docks={"mine": "p2:2 p3:3"}, cards={0: ["plasma"]}, fuel=5)
    g = Game(s.config)
    g.state = s
    g.apply("use plasma mine p2:2")
    g.apply("hit p3:3")
    g.undo()
    g.undo()
    assert g.state == s


def test_R_TECH_PLASMA_discard_sends_a_ship_to_its_stock() -> None:
    s = scenario(undocked="1", docks={"solar": "p2:4"}, cards={0: ["plasma"]}, stock={1: 2})
    assert "discard plasma solar p2:4" in legal(s)
    s = act(s, "discard plasma solar p2:4")
    assert s.players[1].stock == 3
    assert Ship(1, 4) not in s.players[1].bay
    assert s.discard[CARD_INDEX["plasma"]] == 1


def test_R_TECH_PLASMA_discard_leaves_the_owner_at_least_three_ships() -> None:
    s = scenario(undocked="1", docks={"solar": "p2:4"}, cards={0: ["plasma"]})
    refused(s, "discard plasma solar p2:4", "P2 would have fewer than 3 ships of their colour")


def test_R_TECH_PLASMA_discard_the_relic_ship_is_not_counted_and_goes_to_the_desert() -> None:
    s = scenario(undocked="1", colonies={"burroughs": [0, 1, 0, 0]}, cards={0: ["plasma"]})
    s = with_relic(s, 1, "mine", 4)
    assert s.players[1].stock == 3  # P2 has only 3 ships of their colour, plus the relic
    s = act(s, "discard plasma mine p2:4r")
    assert s.relic_on_desert
    assert s.players[1].stock == 3


def test_R_TECH_PLASMA_discard_may_take_the_ship_on_the_terraforming_station() -> None:
    # 4 ships: the one on the station is gone next turn anyway, so 3 remain either way.
    s = scenario(
        undocked="1",
        docks={"terraform": "p2:6", "mine": "p2:3"},
        cards={0: ["plasma"]},
        stock={1: 2},
    )
    assert {a for a in legal(s) if a.startswith("discard plasma")} == {
        "discard plasma terraform p2:6"
    }
    s = act(s, "discard plasma terraform p2:6")
    assert s.players[1].stock == 3


# ---- R-TECH-HELM (2nd-edition option) -----------------------------------------------------


def helm(**kw: Any) -> GameState:
    return scenario(mind_control_helm=True, **kw)


def test_R_TECH_HELM_cards_only_with_the_option() -> None:
    assert scenario().deck[CARD_INDEX["helm"]] == 0
    assert helm().deck[CARD_INDEX["helm"]] == 2


def test_R_TECH_HELM_moves_an_opponents_ship_and_uses_it_as_yours() -> None:
    s = helm(docks={"solar": "p3:5"}, cards={0: ["helm"]}, fuel=3)
    assert uses(s, "helm") == {
        "use helm solar p3:5 to mine",
        "use helm solar p3:5 to hub",
        "use helm solar p3:5 to artifact",
    }
    s = act(s, "use helm solar p3:5 to mine")
    assert docked(s, "mine") == ["p3:5"]
    assert (s.players[0].fuel, s.players[0].ore) == (0, 1)
    assert s.players[2].ore == 0


def test_R_TECH_HELM_a_ship_moved_to_your_hub_track_is_gathered_by_its_owner() -> None:
    s = helm(players=2, undocked="2", docks={"solar": "p2:3"}, cards={0: ["helm"]}, fuel=3)
    s = act(s, "use helm solar p2:3 to hub 2")
    assert s.hub_docks[0] == [Ship(1, 3), Ship(0, 2)]
    assert s.players[0].hub == 2  # both ships moved your colony
    s = act(s, "end")
    assert s.hub_docks[0] == [Ship(0, 2)]
    assert s.pending[0] == RollDecision(3, False)  # P2 rolls the 3 with the others


def test_R_TECH_HELM_refusals() -> None:
    s = helm(
        undocked="6",
        docks={"solar": "6 p3:3", "terraform": "p2:6"},
        cards={0: ["helm"]},
        fuel=9,
        ore=9,
    )
    refused(
        s, "use helm terraform p2:6 to solar", "a ship on the Terraforming Station cannot be moved"
    )
    refused(
        s,
        "use helm solar p3:3 to terraform",
        "the Mind Control Helm cannot move a ship to the Terraforming Station",
    )
    refused(s, "use helm solar p3:3 to solar", "the ship must go to another facility")
    refused(s, "use helm solar p1:6 to mine", "the Mind Control Helm moves an opponent's ship")
    assert {a.split(" to ")[0] for a in uses(s, "helm")} == {"use helm solar p3:3"}


def test_R_TECH_HELM_not_from_the_maintenance_bay() -> None:
    s = helm(undocked="3", bay={1: "3"}, cards={0: ["helm"]}, fuel=9)
    assert uses(s, "helm") == set()


def test_R_TECH_HELM_costs_three_fuel_paid_before_docking_anew() -> None:
    s = helm(undocked="3", docks={"solar": "p3:3"}, cards={0: ["helm"]}, fuel=2, ore=1)
    refused(s, "use helm solar p3:3 to mine", "Mind Control Helm costs 3 fuel; you have 2")
    s = helm(undocked="3", docks={"solar": "p3:3"}, cards={0: ["helm"]}, fuel=3, ore=1)
    refused(s, "use helm solar p3:3 to yard 3", "your next ship costs 1 fuel and 1 ore")


def test_R_TECH_HELM_cannot_be_discarded() -> None:
    s = helm(undocked="3", cards={0: ["helm"]}, fuel=9)
    assert not [a for a in legal(s) if a.startswith("discard")]
    with pytest.raises(ValueError):
        act(s, "discard helm")


# ---- R-TERR-LOCK --------------------------------------------------------------------------


def test_R_TERR_LOCK_teleporter_cannot_move_a_ship_off_the_terraforming_station() -> None:
    s = scenario(
        undocked="2",
        docks={"terraform": "6"},
        cards={0: ["teleporter"]},
        fuel=9,
        ore=9,
        stock={0: 2},
    )
    refused(
        s,
        "use teleporter terraform 6 to solar",
        "a ship on the Terraforming Station cannot be moved",
    )
    assert uses(s, "teleporter") == set()


def test_R_TERR_LOCK_helm_cannot_move_a_ship_off_the_terraforming_station() -> None:
    s = helm(undocked="2", docks={"terraform": "p2:6"}, cards={0: ["helm"]}, fuel=9, stock={1: 2})
    refused(
        s, "use helm terraform p2:6 to solar", "a ship on the Terraforming Station cannot be moved"
    )
    assert uses(s, "helm") == set()


def test_R_TERR_LOCK_plasma_sends_it_to_the_stock_and_its_colony_stays() -> None:
    s = scenario(
        undocked="1",
        docks={"terraform": "p2:6"},
        colonies={"lem": [0, 1, 0, 0]},
        cards={0: ["plasma"]},
        fuel=1,
        stock={1: 2},
    )
    vp = victory_points(s, 1)
    s = act(s, "use plasma terraform p2:6")
    assert s.players[1].stock == 3
    assert s.colonies["lem"] == (0, 1, 0, 0)
    assert victory_points(s, 1) == vp


def test_R_TECH_HELM_the_event_names_the_moved_ships_owner() -> None:
    s = helm(players=2, undocked="2", docks={"solar": "p2:3"}, cards={0: ["helm"]}, fuel=3)
    s = act(s, "use helm solar p2:3 to hub 2")
    moved = next(e for e in s.events if e.params.get("source") == "solar")
    assert (moved.player, moved.params["owner"]) == (0, 1)

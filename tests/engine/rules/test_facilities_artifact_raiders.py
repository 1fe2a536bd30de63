"""Alien Artifact (R-ART, R-ART-1..3) and Raiders' Outpost (R-RAID, R-RAID-1..4)."""

from __future__ import annotations

from engine.game import Game
from engine.state import GameState, RaidDecision, RevealDecision, Ship
from engine.tables import CARD_INDEX
from tests.engine.scenario import act, legal, refused, scenario


def claims(s: GameState) -> set[str]:
    return {a for a in legal(s) if a.startswith("claim")}


# ---- R-ART ------------------------------------------------------------------------------


def test_R_ART_any_value_one_ship_per_dock_four_docks() -> None:
    s = scenario(undocked="1 6")
    refused(s, "dock artifact 1 6", "dock one ship at a time at the Alien Artifact")
    s = act(s, "dock artifact 1", "dock artifact 6")
    assert s.docks["artifact"] == (Ship(0, 1), Ship(0, 6), None, None)
    s = scenario(undocked="5", docks={"artifact": "p2:1 p2:2 p2:3 p3:4"})
    refused(s, "dock artifact 5", "the Alien Artifact has no free docks for them")


def test_R_ART_1_each_ship_earns_one_optional_cycle_of_the_display() -> None:
    s = scenario(undocked="1 2 4", display=("city", "monument", "decoy"))
    refused(s, "cycle", "dock a ship at the Alien Artifact to cycle the cards")
    s = act(s, "dock artifact 1", "dock artifact 2")
    s = act(s, "cycle")
    assert s.display == [] and s.pending == [RevealDecision(3)]
    assert s.discard[CARD_INDEX["city"]] == 1 and s.discard[CARD_INDEX["decoy"]] == 1
    s = act(s, "reveal plasma", "reveal booster", "reveal stasis")
    assert s.display == ["plasma", "booster", "stasis"]
    s = act(s, "dock solar 4", "cycle")  # a cycle earned earlier may be used later in the turn
    s = act(s, "reveal warper", "reveal crystal", "reveal gravity")
    refused(s, "cycle", "dock a ship at the Alien Artifact to cycle the cards")
    assert "end" in legal(s)


def test_R_ART_1_a_cycle_cannot_be_taken_back() -> None:
    s = scenario(undocked="3 5")
    g = Game(s.config)
    g.state = s
    g.apply("dock artifact 3")
    assert g.can_undo()
    g.apply("cycle")
    assert not g.can_undo()  # the deck must decide: cards are about to be seen
    g.apply("reveal plasma")
    g.apply("reveal booster")
    g.apply("reveal stasis")
    assert not g.can_undo()


def test_R_ART_2_a_total_of_8_claims_a_card_and_resets_the_total() -> None:
    s = scenario(undocked="2 6 5 3", display=("polarity", "plasma", "decoy"))
    s = act(s, "dock artifact 2")
    refused(s, "claim polarity", "your ships at the Alien Artifact total 2 since your last claim")
    s = act(s, "dock artifact 6")
    assert claims(s) == {"claim polarity", "claim plasma", "claim decoy"}
    s = act(s, "claim polarity")
    assert s.players[0].cards == ["polarity"] and s.pending == [RevealDecision(1)]
    s = act(s, "reveal city")
    assert s.display == ["plasma", "decoy", "city"]
    s = act(s, "dock artifact 5")
    refused(s, "claim plasma", "total 5 since your last claim; you need 8")
    s = act(s, "dock artifact 3")  # 5 + 3: a second card this turn
    s = act(s, "claim plasma", "reveal booster")
    assert s.players[0].cards == ["polarity", "plasma"]


def test_R_ART_2_seven_is_not_enough_and_only_your_own_ships_count() -> None:
    s = scenario(undocked="3 4", docks={"artifact": "p2:6 p2:6"})
    s = act(s, "dock artifact 3", "dock artifact 4")
    assert claims(s) == set()
    refused(s, "claim city", "your ships at the Alien Artifact total 7 since your last claim")


def test_R_ART_2_only_a_displayed_card() -> None:
    s = act(scenario(undocked="4 4"), "dock artifact 4", "dock artifact 4")
    refused(s, "claim plasma", "Plasma Cannon is not on display")


def test_R_ART_3_not_a_card_you_already_own() -> None:
    s = scenario(undocked="4 4", cards={0: ["decoy"]}, display=("city", "decoy", "plasma"))
    s = act(s, "dock artifact 4", "dock artifact 4")
    assert claims(s) == {"claim city", "claim plasma"}
    refused(s, "claim decoy", "you already own Holographic Decoy")


# ---- R-RAID -----------------------------------------------------------------------------


def test_R_RAID_three_consecutive_values_then_a_raid() -> None:
    s = scenario(undocked="2 3 5 4")
    refused(s, "dock raiders 2 3 5", "the Raiders' Outpost needs three consecutive values")
    s = act(s, "dock raiders 4 2 3")  # in any order
    assert s.docks["raiders"] == (Ship(0, 2), Ship(0, 3), Ship(0, 4))
    assert s.pending == [RaidDecision(0)]
    assert legal(s) == {"done"}  # nobody has anything to steal
    refused(s, "dock solar 5", "first choose what to steal")


def test_R_RAID_1_a_run_with_a_greater_sum_displaces_the_ships_there() -> None:
    s = scenario(undocked="2 3 4", docks={"raiders": "p2:1 p2:2 p2:3"})
    s = act(s, "dock raiders 2 3 4", "done")
    assert s.docks["raiders"] == (Ship(0, 2), Ship(0, 3), Ship(0, 4))
    assert sorted(x.value for x in s.players[1].bay) == [1, 2, 3]


def test_R_RAID_1_a_smaller_sum_cannot() -> None:
    s = scenario(undocked="3 4 5", docks={"raiders": "p2:4 p2:5 p2:6"})
    refused(s, "dock raiders 3 4 5", "held by ships totalling 15; you need a run totalling more")


def test_R_RAID_1_the_sum_of_what_is_left_there_counts() -> None:
    s = scenario(undocked="1 2 3 4", docks={"raiders": "p2:3 p2:4 -"})
    refused(s, "dock raiders 1 2 3", "held by ships totalling 7")
    s = act(s, "dock raiders 2 3 4", "done")
    assert sorted(x.value for x in s.players[1].bay) == [1, 3, 4]


def test_R_RAID_1_your_own_ships_can_be_displaced_too() -> None:
    s = scenario(undocked="1 2 3 4 5 6", fuel=(0, 3, 0, 0))
    s = act(s, "dock raiders 1 2 3", "steal fuel p2", "done", "dock raiders 4 5 6")
    assert sorted(x.value for x in s.players[0].bay) == [1, 2, 3]
    assert s.pending == [RaidDecision(0)]  # a second raid


def test_R_RAID_2_up_to_4_resources_in_any_mix_from_several_opponents() -> None:
    s = scenario(
        undocked="4 5 6", fuel=(0, 2, 3, 0), ore=(0, 1, 0, 0), finite_supply=True, supply=(25, 19)
    )
    s = act(s, "dock raiders 4 5 6")
    assert legal(s) == {
        "steal fuel p2",
        "steal ore p2",
        "steal fuel p3",
        "done",
    }
    refused(s, "steal fuel p1", "steal from an opponent")
    refused(s, "steal ore p3", "P3 has no ore")
    s = act(s, "steal ore p2", "steal fuel p2", "steal fuel p3", "steal fuel p3")
    assert s.pending == []  # the fourth ends the raid
    assert [(pl.fuel, pl.ore) for pl in s.players] == [(3, 1), (1, 0), (1, 0), (0, 0)]
    assert s.supply == [25, 19]  # stolen from players, not from the supply


def test_R_RAID_2_or_one_card_from_one_opponent_never_both() -> None:
    s = scenario(undocked="1 2 3", fuel=(0, 2, 0, 0), cards={1: ["plasma"], 2: ["booster"]})
    s = act(s, "dock raiders 1 2 3")
    assert {"steal card plasma p2", "steal card booster p3"} <= legal(s)
    s1 = act(s, "steal card plasma p2")
    assert s1.pending == [] and s1.players[0].cards == ["plasma"] and s1.players[1].cards == []
    s2 = act(s, "steal fuel p2")
    assert not any(a.startswith("steal card") for a in legal(s2))
    refused(s2, "steal card booster p3", "you already chose to steal resources")
    s2 = act(s2, "done")
    assert s2.players[0].fuel == 1 and s2.pending == []


def test_R_RAID_3_holographic_decoy_protects_resources_and_other_cards() -> None:
    s = scenario(
        undocked="3 4 5", fuel=(0, 4, 1, 0), ore=(0, 4, 0, 0), cards={1: ["decoy", "plasma"]}
    )
    s = act(s, "dock raiders 3 4 5")
    assert legal(s) == {"steal fuel p3", "steal card decoy p2", "done"}
    refused(s, "steal ore p2", "P2's Holographic Decoy protects their resources")
    refused(s, "steal card plasma p2", "P2 has a Holographic Decoy: you may only take the Decoy")
    s = act(s, "steal card decoy p2")
    assert s.players[0].cards == ["decoy"] and s.players[1].cards == ["plasma"]


def test_R_RAID_4_a_stolen_card_you_already_own_is_discarded() -> None:
    s = scenario(undocked="3 4 5", cards={0: ["plasma"], 1: ["plasma"]})
    s = act(s, "dock raiders 3 4 5", "steal card plasma p2")
    assert s.players[0].cards == ["plasma"] and s.players[1].cards == []
    assert s.discard[CARD_INDEX["plasma"]] == 1
    assert s.pending == [] and s.turn.discarded is False  # no discard power for the raider

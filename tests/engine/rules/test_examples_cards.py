"""The rulebooks' worked examples about alien tech cards, field generators and the Pohl
Foothills discount, and the relic-ship example that involves a card.

Books: 000 = 1st edition (Russian, /work/shared/rules/seeds/000_880131a7713e2a42.txt),
001 = 2nd edition (Russian, 001_0c3ccaaa75398bf2.txt), 002 = 2nd edition (Polish OCR,
002_b794dfb5ab3c535c.txt). Where the books tell the same example, one test names the 2nd
edition (001) and cites the other lines. Seat 0 is the player who acts: "you" (blue) unless
the example names another colour; red, green and yellow are seats 1, 2 and 3.
"""

from __future__ import annotations

from engine import victory_points
from engine.board import set_dock
from engine.invariants import problems
from engine.state import GameState, RollDecision, Ship
from engine.tables import CARD_INDEX, FacilityId, TerritoryId
from tests.engine.scenario import act, legal, refused, scenario


def values(s: GameState) -> list[int]:
    return sorted(x.value for x in s.undocked)


def docked(s: GameState, facility: FacilityId) -> list[str]:
    return [f"p{x.owner + 1}:{x.value}{'r' if x.relic else ''}" for x in s.docks[facility] if x]


# ---- Pohl Foothills (R-COL-4) -------------------------------------------------------------


def test_R_COL_4_example_001_1_pohl_foothills_makes_the_booster_pod_free() -> None:
    # 001:503 (000:527, 002:630): Booster Pod costs 1 fuel; with Pohl Foothills it is free.
    s = scenario(undocked="3", colonies={"pohl": [1, 0, 0, 0]}, cards={0: ["booster"]}, fuel=0)
    s = act(s, "use booster 3")
    assert values(s) == [4]
    assert s.players[0].fuel == 0


def test_R_COL_4_example_001_2_pohl_foothills_three_plasma_shots_cost_two() -> None:
    # 001:505 (000:531, 002:635): removing 3 ships from the Lunar Mine costs only 2 fuel.
    s = scenario(
        undocked="1",
        docks={"mine": "p2:2 p3:4 p4:5"},
        colonies={"pohl": [1, 0, 0, 0]},
        cards={0: ["plasma"]},
        fuel=2,
    )
    s = act(s, "use plasma mine p2:2", "hit p3:4", "hit p4:5")
    assert docked(s, "mine") == []
    assert s.players[0].fuel == 0


# ---- field generators -------------------------------------------------------------------


def test_R_FIELD_ISO_example_001_isolation_on_pohl_voids_the_discount_and_the_crystal() -> None:
    # 001:525 (000:555, 002:669): the controller of an isolated Pohl Foothills pays full price,
    # and nobody can borrow its bonus with the Data Crystal.
    s = scenario(
        undocked="3",
        colonies={"pohl": [1, 0, 0, 0]},
        fields={"isolation": "pohl"},
        cards={0: ["booster"], 1: ["crystal"]},
        fuel=1,
    )
    s = act(s, "use booster 3")
    assert s.players[0].fuel == 0
    other = scenario(
        undocked="3",
        colonies={"pohl": [1, 0, 0, 0]},
        fields={"isolation": "pohl"},
        cards={1: ["crystal"]},
        fuel=9,
        current=1,
    )
    refused(other, "use crystal pohl", "Pohl Foothills is under the Isolation Field")


def test_R_FIELD_POS_example_001_positron_on_herbert_valley_one_more_point() -> None:
    # 001:533 (000:563 and 002:682 say the green player controls it).
    s = scenario(colonies={"herbert": [0, 0, 1, 0]})
    assert victory_points(s, 2) == 2
    s = scenario(colonies={"herbert": [0, 0, 1, 0]}, fields={"positron": "herbert"})
    assert victory_points(s, 2) == 3


def test_R_FIELD_REP_example_001_repulsor_on_asimov_crater() -> None:
    # 001:541 (000:571, 002:702): no new colony on Asimov Crater, and its colonies cannot be
    # moved away or swapped with the Polarity Device or the Orbital Teleporter.
    message = "the Repulsor Field on Asimov Crater lets no colony come or go"
    colonies: dict[TerritoryId, list[int]] = {"asimov": [1, 0, 0, 0], "lem": [0, 1, 0, 0]}
    s = scenario(undocked="5 5 5", ore=3, colonies=colonies, fields={"repulsor": "asimov"})
    s = act(s, "dock constructor 5 5 5")
    refused(s, "place asimov", message)
    s = scenario(
        colonies=colonies, fields={"repulsor": "asimov"}, cards={0: ["teleporter", "polarity"]}
    )
    refused(s, "discard teleporter p1 asimov to lem", message)
    refused(s, "discard teleporter p2 lem to asimov", message)
    refused(s, "discard polarity p1 asimov p2 lem", message)
    assert not [a for a in legal(s) if "asimov" in a]


def test_R_FIELD_ISO_example_001_burroughs_2_isolation_returns_the_relic_ship() -> None:
    # 001:477 (000:483, 002:578): your relic ship is docked at the Lunar Mine; another player
    # discards the Stasis Beam to put the Isolation Field on Burroughs Desert. The relic ship
    # returns at once, and you cannot buy it again until the field leaves the desert.
    s = scenario(
        players=2,
        colonies={"burroughs": [0, 1]},
        cards={0: ["stasis"], 1: ["stasis"]},
        fuel=[0, 2],
        ore=[0, 2],
    )
    s.relic_on_desert = False
    set_dock(s, "mine", 0, Ship(1, 4, relic=True))
    assert not problems(s)
    s = act(s, "discard stasis burroughs")
    assert s.relic_on_desert
    assert docked(s, "mine") == ["p0:1", "p0:1"]  # only the neutral blockers
    s = act(s, "end", "roll 1 1 1")  # your turn: 3 ships, no relic ship
    refused(s, "buy relic", "the Isolation Field on Burroughs Desert voids its bonus")
    s = act(s, "discard stasis lem")  # the field moves to another territory
    s = act(s, "buy relic")
    assert Ship(1, 1, relic=True) in s.players[1].bay
    assert (s.players[1].fuel, s.players[1].ore) == (1, 1)


# ---- the cards ------------------------------------------------------------------------------


def test_R_TECH_DECOY_example_001_raider_takes_the_decoy_instead() -> None:
    # 001:561 (000:651 and 002:732 say ore): red docks a run at the Raiders' Outpost and wants
    # your 4 fuel, but the Holographic Decoy protects them; red takes the Decoy instead.
    s = scenario(
        undocked="3 4 5",
        cards={1: ["decoy"]},
        fuel=[0, 4, 0, 0],
        ore=[0, 4, 0, 0],
        display=("city", "monument", "booster"),
    )
    s = act(s, "dock raiders 3 4 5")
    refused(s, "steal fuel p2", "P2's Holographic Decoy protects their resources")
    refused(s, "steal ore p2", "P2's Holographic Decoy protects their resources")
    assert legal(s) == {"steal card decoy p2", "done"}
    s = act(s, "steal card decoy p2")
    assert s.players[0].cards == ["decoy"]
    assert s.players[1].cards == []
    assert (s.players[1].fuel, s.players[1].ore) == (4, 4)


def test_R_TECH_GRAV_example_001_one_two_five_becomes_one_one_six() -> None:
    # 001:567 (000:611, 002:816).
    s = scenario(undocked="1 2 5", cards={0: ["gravity"]}, fuel=2)
    s = act(s, "use gravity down 2 up 5")
    assert values(s) == [1, 1, 6]
    assert s.players[0].fuel == 0


def test_R_TECH_CRYSTAL_example_001_borrow_heinlein_plains_for_the_sixes() -> None:
    # 001:579 (000:603, 002:800): you rolled 1, 6, 6; Heinlein Plains has one green and one
    # red colony; 2 fuel borrow its bonus, and the pair of 6s trades 1 fuel per ore.
    s = scenario(
        undocked="1 6 6", colonies={"heinlein": [0, 1, 1, 0]}, cards={0: ["crystal"]}, fuel=8
    )
    without = act(s, "dock market 6 6")
    assert without.turn.market_rates == {0: 6}
    s = act(s, "use crystal heinlein")
    assert s.players[0].fuel == 6
    s = act(s, "dock market 6 6", "trade", "trade", "trade")
    assert (s.players[0].fuel, s.players[0].ore) == (3, 3)


def test_R_TECH_WARP_example_001_1_reroll_the_one_and_the_two() -> None:
    # 001:585 (000:725, 002:931): you rolled 1, 2, 5 and reroll the 1 and the 2.
    s = scenario(undocked="1 2 5", cards={0: ["warper"]}, fuel=1)
    s = act(s, "use warper 1 2")
    assert s.pending == [RollDecision(2, False, reroll=True)]
    assert values(s) == [5]
    s = act(s, "roll 3 6")
    assert values(s) == [3, 5, 6]
    assert s.players[0].fuel == 0


def test_R_TECH_WARP_example_001_2_take_the_alien_city_from_the_discard_pile() -> None:
    # 001:587 (000:729, 002:935).
    s = scenario(cards={0: ["warper"]}, display=("booster", "monument", "decoy"))
    s.discard[CARD_INDEX["city"]] += 1
    s.deck[CARD_INDEX["city"]] -= 1
    assert victory_points(s, 0) == 0
    s = act(s, "discard warper city")
    assert s.players[0].cards == ["city"]
    assert victory_points(s, 0) == 1
    assert s.discard[CARD_INDEX["warper"]] == 1
    assert s.discard[CARD_INDEX["city"]] == 0


def test_R_TECH_STASIS_example_001_two_to_one_for_a_cheap_market() -> None:
    # 001:593 (000:717): you rolled 1, 2, 5; 1 fuel lowers the 2 to 1; the pair of 1s trades
    # at the best rate on the Orbital Market.
    s = scenario(undocked="1 2 5", cards={0: ["stasis"]}, fuel=2)
    s = act(s, "use stasis 2")
    assert values(s) == [1, 1, 5]
    s = act(s, "dock market 1 1", "trade")
    assert (s.players[0].fuel, s.players[0].ore) == (0, 1)


def test_R_TECH_STASIS_example_002_two_to_one_for_the_shipyard() -> None:
    # 002:918: the Polish book uses the pair of 1s at the Shipyard.
    s = scenario(undocked="1 2 5", cards={0: ["stasis"]}, fuel=2, ore=1)
    s = act(s, "use stasis 2", "dock yard 1 1")
    assert s.players[0].stock == 2
    assert (s.players[0].fuel, s.players[0].ore) == (0, 0)


def test_R_TECH_TELE_example_001_1_from_the_mine_to_the_artifact() -> None:
    # 001:599 (000:659, 002:772): you rolled 2, 5, 6; dock the 6 at the Lunar Mine (1 ore),
    # teleport it to the Alien Artifact, dock the 2 there: total 8, claim a card.
    s = scenario(
        undocked="2 5 6", cards={0: ["teleporter"]}, fuel=2, display=("plasma", "city", "monument")
    )
    s = act(s, "dock mine 6")
    assert s.players[0].ore == 1
    s = act(s, "use teleporter mine 6 to artifact", "dock artifact 2")
    assert docked(s, "artifact") == ["p1:6", "p1:2"]
    assert docked(s, "mine") == []
    assert s.players[0].ore == 1  # the ore stays
    s = act(s, "claim plasma")
    assert s.players[0].cards == ["teleporter", "plasma"]
    assert s.players[0].fuel == 0


def test_R_TECH_TELE_example_001_2_move_your_colony_to_take_lem_badlands() -> None:
    # 001:601 (000:663, 002:779): blue and red have one colony each on Lem Badlands; blue has
    # one on Van Vogt Mountains where green has two. Blue discards the Orbital Teleporter and
    # moves that colony to Lem Badlands: blue controls it and scores one more point.
    s = scenario(colonies={"lem": [1, 1, 0, 0], "vanvogt": [1, 0, 2, 0]}, cards={0: ["teleporter"]})
    assert s.controller["lem"] is None and s.controller["vanvogt"] == 2
    assert victory_points(s, 0) == 2
    s = act(s, "discard teleporter p1 vanvogt to lem")
    assert s.controller["lem"] == 0
    assert victory_points(s, 0) == 3


def test_R_TECH_PLASMA_example_001_1_clear_the_shipyard_for_your_pair() -> None:
    # 001:609 (000:671, 002:837): blue rolled 2, 2, 4; the Shipyard is full; 2 fuel send two
    # red ships to the Maintenance Bay, then blue docks the pair of 2s there.
    s = scenario(
        undocked="2 2 4",
        docks={"yard": "p2:3 p2:3 p3:5 p3:5 p4:6 p4:6"},
        cards={0: ["plasma"]},
        fuel=3,
        ore=1,
    )
    refused(s, "dock yard 2 2", "the Shipyard has no free docks for them")
    s = act(s, "use plasma yard p2:3", "hit p2:3", "done")
    assert s.players[1].bay.count(Ship(1, 3)) == 2
    s = act(s, "dock yard 2 2")
    assert docked(s, "yard") == ["p1:2", "p1:2", "p3:5", "p3:5", "p4:6", "p4:6"]
    assert s.players[0].stock == 2
    assert (s.players[0].fuel, s.players[0].ore) == (0, 0)


def test_R_TECH_PLASMA_example_001_2_the_terraforming_ship_goes_to_the_stock() -> None:
    # 001:611 (000:675, 002:843): a red ship on the Terraforming Station goes to red's ship
    # stock, not to the Maintenance Bay.
    s = scenario(
        undocked="1", docks={"terraform": "p2:6"}, cards={0: ["plasma"]}, fuel=1, stock={1: 2}
    )
    bay = list(s.players[1].bay)
    s = act(s, "use plasma terraform p2:6")
    assert s.players[1].stock == 3
    assert s.players[1].bay == bay
    assert s.players[0].fuel == 0


def test_R_TECH_PLASMA_example_001_3_discard_against_a_player_with_six_ships() -> None:
    # 001:613 (000:679, 002:853): yellow has 6 ships on the board; blue discards the Plasma
    # Cannon to send yellow's 6 from the Lunar Mine to the ship stock.
    s = scenario(
        undocked="1",
        docks={"mine": "p4:6", "solar": "p4:1 p4:2 p4:3 p4:4 p4:5"},
        cards={0: ["plasma"]},
        stock={3: 0},
    )
    s = act(s, "discard plasma mine p4:6")
    assert s.players[3].stock == 1
    assert docked(s, "mine") == []
    assert Ship(3, 6) not in s.players[3].bay
    assert s.discard[CARD_INDEX["plasma"]] == 1


def test_R_TECH_PLASMA_example_001_4_the_terraforming_ship_counts_as_gone() -> None:
    # 001:615 (002:857): red has 4 ships: one on the Lunar Mine, two on the Alien Artifact,
    # one on the Terraforming Station. Discarding the Plasma Cannon at the mine is not allowed:
    # red would start the next turn with 2 ships.
    s = scenario(
        undocked="1",
        docks={"mine": "p2:3", "artifact": "p2:1 p2:2", "terraform": "p2:6"},
        cards={0: ["plasma"]},
        stock={1: 2},
    )
    refused(s, "discard plasma mine p2:3", "P2 would have fewer than 3 ships of their colour")
    refused(s, "discard plasma artifact p2:1", "P2 would have fewer than 3 ships of their colour")


def test_R_TECH_PLASMA_example_001_raiders_2_shoot_the_five_then_take_the_outpost() -> None:
    # 001:408 (002:416), Raiders' Outpost example 2: 3-4-5 is docked there; the Plasma Cannon
    # sends the 5 to the Maintenance Bay; 3 and 4 remain (sum 7): 1-2-3 (sum 6) cannot dock,
    # 2-3-4, 3-4-5 and 4-5-6 can.
    s = scenario(
        undocked="1 2 3 4 5 6",
        docks={"raiders": "p2:3 p2:4 p2:5"},
        cards={0: ["plasma"]},
        fuel=1,
    )
    s = act(s, "use plasma raiders p2:5")
    assert docked(s, "raiders") == ["p2:3", "p2:4"]
    assert Ship(1, 5) in s.players[1].bay
    raids = {a for a in legal(s) if a.startswith("dock raiders")}
    assert raids == {"dock raiders 2 3 4", "dock raiders 3 4 5", "dock raiders 4 5 6"}
    refused(s, "dock raiders 1 2 3", "the Raiders' Outpost is held by ships totalling 7")
    s = act(s, "dock raiders 2 3 4")
    assert docked(s, "raiders") == ["p1:2", "p1:3", "p1:4"]
    assert {Ship(1, 3), Ship(1, 4), Ship(1, 5)} <= set(s.players[1].bay)


def test_R_TECH_POLAR_example_001_1_turn_the_one_into_a_six() -> None:
    # 001:621 (000:687, 002:877).
    s = scenario(undocked="1 2 5", cards={0: ["polarity"]}, fuel=1)
    s = act(s, "use polarity 1")
    assert values(s) == [2, 5, 6]
    assert s.players[0].fuel == 0


def test_R_TECH_POLAR_example_001_2_swap_and_both_lose_control() -> None:
    # 001:623 (000:691, 002:881): two yellow colonies on Herbert Valley, two red on Lem
    # Badlands; the swap leaves one of each on both, and both players lose control.
    s = scenario(colonies={"herbert": [0, 0, 0, 2], "lem": [0, 2, 0, 0]}, cards={0: ["polarity"]})
    assert (victory_points(s, 1), victory_points(s, 3)) == (3, 3)
    assert {a for a in legal(s) if a.startswith("discard polarity")} == {
        "discard polarity p4 herbert p2 lem"
    }
    s = act(s, "discard polarity p4 herbert p2 lem")
    assert s.colonies["herbert"] == (0, 1, 0, 1)
    assert s.colonies["lem"] == (0, 1, 0, 1)
    assert s.controller["herbert"] is None and s.controller["lem"] is None
    assert (victory_points(s, 1), victory_points(s, 3)) == (2, 2)


def test_R_TECH_CACHE_example_001_no_payment_until_your_next_roll() -> None:
    # 001:637 (000:707, 002:906): you dock 3 and 6 at the Alien Artifact and claim the
    # Resource Cache; it pays nothing before your next roll.
    s = scenario(players=2, undocked="3 6", display=("cache", "city", "monument"))
    s = act(s, "dock artifact 3", "dock artifact 6", "claim cache", "reveal booster")
    assert (s.players[0].fuel, s.players[0].ore) == (0, 0)
    s = act(s, "end", "roll 1 1 1", "dock hub 1 1 1", "end")
    assert (s.players[0].fuel, s.players[0].ore) == (0, 0)
    s = act(s, "roll 1 3 6")  # more odd ships: 1 ore
    assert (s.players[0].fuel, s.players[0].ore) == (0, 1)


def test_R_TECH_BOOST_example_001_three_to_four_for_the_shipyard() -> None:
    # 001:643 (000:595, 002:754): you rolled 1, 3, 4; 1 fuel raises the 3 to 4; the pair of
    # 4s builds a ship at the Shipyard.
    s = scenario(undocked="1 3 4", cards={0: ["booster"]}, fuel=2, ore=1)
    s = act(s, "use booster 3")
    assert values(s) == [1, 4, 4]
    s = act(s, "dock yard 4 4")
    assert s.players[0].stock == 2
    assert (s.players[0].fuel, s.players[0].ore) == (0, 0)


def test_R_TECH_HELM_example_001_green_three_makes_reds_pair() -> None:
    # 001:649: red spends 3 fuel to move green's 3 from the Solar Converter to the Shipyard and
    # docks red's 3 with it; on green's turn green takes the 3 back, red's ship stays.
    s = scenario(
        undocked="3",
        docks={"solar": "p3:3"},
        cards={0: ["helm"]},
        fuel=4,
        ore=1,
        mind_control_helm=True,
    )
    s = act(s, "use helm solar p3:3 to yard 3")
    assert docked(s, "yard") == ["p3:3", "p1:3"]
    assert docked(s, "solar") == []
    assert s.players[0].stock == 2  # red built a ship
    assert (s.players[0].fuel, s.players[0].ore) == (0, 0)
    s = act(s, "end", "roll 1 1 1", "dock solar 1", "dock solar 1", "dock solar 1", "end")
    assert s.current == 2
    assert s.pending == [RollDecision(3, False)]
    assert docked(s, "yard") == ["p1:3"]

"""The rulebooks' worked examples about facilities, territories, control and the turn.

Books (``/work/shared/rules/seeds/``): 000 = 1st edition, Russian translation
(``000_880131a7713e2a42.txt``); 001 = 2nd edition, Russian (``001_0c3ccaaa75398bf2.txt``);
002 = 2nd edition, Polish (``002_b794dfb5ab3c535c.txt``). Most examples appear in all three;
each test is named after one book and its comment cites every place the example appears.
Seats follow the engine's colours: P1 red, P2 blue, P3 green, P4 yellow.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.scoring import victory_points
from engine.state import GameState, RevealDecision, RollDecision, Ship
from engine.tables import TerritoryId
from tests.engine.scenario import act, legal, refused, scenario, with_relic


def others_play(s: GameState, turns: int = 3) -> GameState:
    """The next seats each roll 1 1 1, dock it at their Colony Hub track and end."""
    for _ in range(turns):
        s = act(s, "roll 1 1 1", "dock hub 1 1 1", "end")
    return s


def docks_at(s: GameState, facility: str) -> set[str]:
    return {a for a in legal(s) if a.startswith(f"dock {facility} ")}


# ---- turn -------------------------------------------------------------------------------


def test_R_TURN_5_example_000_1_terraforming_needs_a_6_a_free_dock_and_the_payment() -> None:
    # 000:253 (also 002:258): the Terraforming Station needs a 6 and 1 fuel + 1 ore; you
    # cannot use it without a 6, with its only dock taken, or without the fuel and ore.
    kw: dict[str, Any] = {"fuel": 1, "ore": 1, "stock": {0: 2}}
    assert "dock terraform 6" in legal(scenario(undocked="6 5", **kw))
    refused(scenario(undocked="5 5", **kw), "dock terraform 5", "needs a 6, not a 5")
    s = scenario(undocked="6 5", docks={"terraform": "p2:6"}, **kw)
    refused(s, "dock terraform 6", "the Terraforming Station has no free docks for them")
    s = scenario(undocked="6 5", fuel=1, ore=0, stock={0: 2})
    refused(s, "dock terraform 6", "the Terraforming Station costs 1 fuel and 1 ore")


# ---- Alien Artifact ---------------------------------------------------------------------


def test_R_ART_2_example_001_1_dock_2_and_6_and_claim_the_polarity_device() -> None:
    # 001:352 (also 000:304, 002:320).
    s = scenario(undocked="2 6 3", display=("polarity", "city", "decoy"))
    s = act(s, "dock artifact 2", "dock artifact 6", "claim polarity")
    assert s.players[0].cards == ["polarity"] and s.pending == [RevealDecision(1)]


def test_R_ART_2_example_001_2_cycle_three_times_then_claim_the_plasma_cannon() -> None:
    # 001:354 (also 000:308, 002:324): dock 3, cycle; dock 2, cycle; dock 4, cycle; the
    # Plasma Cannon shows and 3 + 2 + 4 = 9 claims it.
    s = scenario(undocked="3 2 4 5", display=("city", "monument", "decoy"))
    s = act(s, "dock artifact 3")
    assert "claim city" not in legal(s)
    s = act(s, "cycle", "reveal booster", "reveal stasis", "reveal warper")
    s = act(s, "dock artifact 2", "cycle", "reveal crystal", "reveal gravity", "reveal cache")
    s = act(s, "dock artifact 4", "cycle", "reveal teleporter", "reveal plasma", "reveal polarity")
    assert s.display == ["teleporter", "plasma", "polarity"]
    s = act(s, "claim plasma", "reveal booster")
    assert s.players[0].cards == ["plasma"]
    assert s.display == ["teleporter", "polarity", "booster"]


def test_R_ART_2_example_001_3_a_fourth_ship_may_cycle_but_not_claim_again() -> None:
    # 001:356 (also 000:312, 002:332): after example 2 one dock is left; a 4th ship may cycle
    # once more but cannot claim a second card, the total having been reset by the claim.
    s = scenario(undocked="3 2 4 5", display=("city", "monument", "plasma"))
    s = act(s, "dock artifact 3", "dock artifact 2", "dock artifact 4", "claim plasma")
    s = act(s, "reveal booster", "dock artifact 5")
    assert s.docks["artifact"][3] == Ship(0, 5)
    assert not any(a.startswith("claim") for a in legal(s))
    refused(s, "claim city", "total 5 since your last claim; you need 8")
    s = act(s, "cycle")
    assert s.pending == [RevealDecision(3)]


# ---- Lunar Mine -------------------------------------------------------------------------


def test_R_MINE_example_001_1_mine_holds_1_and_4_you_rolled_3_4_6() -> None:
    # 001:383 (also 000:356, 002:444): the 3 cannot dock, the 4 and the 6 can (2 ore); the
    # one dock left needs a 6 from the next player.
    s = scenario(undocked="3 4 6", docks={"mine": "p4:1 p4:4"})
    assert docks_at(s, "mine") == {"dock mine 4", "dock mine 6"}
    refused(s, "dock mine 3", "the Lunar Mine needs a ship of 4 or more; your ships are 3, 4, 6")
    s = act(s, "dock mine 4", "dock mine 6")
    assert s.players[0].ore == 2
    s = act(s, "dock solar 3", "end", "roll 1 5 6")
    assert docks_at(s, "mine") == {"dock mine 6"}
    refused(s, "dock mine 5", "the Lunar Mine needs a ship of 6 or more")


# ---- Orbital Market ---------------------------------------------------------------------


def test_R_MARKET_example_001_1_a_pair_of_3s_trades_3_fuel_per_ore() -> None:
    # 001:395 (also 000:376, 002:353): with 6 fuel you trade twice; 3 more fuel gained during
    # the turn trades once more.
    s = scenario(undocked="3 3 5", fuel=6)
    s = act(s, "dock market 3 3", "trade", "trade")
    assert (s.players[0].fuel, s.players[0].ore) == (0, 2)
    refused(s, "trade", "trading costs 3 fuel per ore; you have 0")
    s = act(s, "dock solar 5", "trade")
    assert (s.players[0].fuel, s.players[0].ore) == (0, 3)


# ---- Raiders' Outpost -------------------------------------------------------------------


def test_R_RAID_1_example_001_1_2_3_4_displaces_1_2_3_then_3_4_5_or_4_5_6_displace_it() -> None:
    # 001:406 (also 000:388, 002:409).
    s = scenario(current=2, undocked="2 3 4", docks={"raiders": "p2:1 p2:2 p2:3"})
    s = act(s, "dock raiders 2 3 4", "done", "end")
    assert sorted(x.value for x in s.players[1].bay) == [1, 2, 3]
    for run in ("3 4 5", "4 5 6"):
        t = act(s, f"roll {run}", f"dock raiders {run}", "done")
        assert sorted(x.value for x in t.players[2].bay) == [2, 3, 4]
        assert [x.owner for x in t.docks["raiders"] if x is not None] == [3, 3, 3]


def test_R_RAID_1_example_001_2_with_3_and_4_left_1_2_3_cannot_displace_them() -> None:
    # 001:408 (also 002:416; the 1st edition has no such example): 3-4-5 is docked, the
    # Plasma Cannon sends the 5 to the bay; 3 + 4 = 7 beats 1-2-3 (6) but not 2-3-4 (9),
    # 3-4-5 (12) or 4-5-6 (15).
    s = scenario(
        undocked="1 2 3 4 5 6",
        docks={"raiders": "p2:3 p2:4 p2:5"},
        cards={0: ["plasma"]},
        fuel=1,
    )
    s = act(s, "use plasma raiders p2:5")
    assert s.players[1].bay == [Ship(1, 5)] and s.pending == []
    assert docks_at(s, "raiders") == {
        "dock raiders 2 3 4",
        "dock raiders 3 4 5",
        "dock raiders 4 5 6",
    }
    refused(s, "dock raiders 1 2 3", "held by ships totalling 7; you need a run totalling more")


# ---- Solar Converter --------------------------------------------------------------------


def test_R_SOLAR_example_001_1_a_3_and_a_4_give_2_fuel_each() -> None:
    # 001:431 (also 000:411, 002:479).
    s = act(scenario(undocked="3 4"), "dock solar 3")
    assert s.players[0].fuel == 2
    assert act(s, "dock solar 4").players[0].fuel == 4


# ---- control ----------------------------------------------------------------------------


def test_R_COL_2_example_001_1_red_with_two_colonies_on_lem_controls_it() -> None:
    # 001:451 (also 000:441, 002:521): red has two colonies on Lem Badlands, every other
    # player one: red controls it.
    s = scenario(undocked="6", fuel=1, ore=1, stock={0: 2}, colonies={"lem": [1, 1, 1, 1]})
    assert s.controller["lem"] is None
    s = act(s, "dock terraform 6", "place lem")
    assert s.controller["lem"] == 0 and victory_points(s, 0) == 3


def test_R_COL_2_example_001_2_red_and_yellow_two_each_nobody_controls_lem() -> None:
    # 001:455 (also 000:447, 002:532): red and yellow two each, green and blue one each.
    s = scenario(
        current=3, undocked="6", fuel=1, ore=1, stock={3: 2}, colonies={"lem": [2, 1, 1, 1]}
    )
    assert s.controller["lem"] == 0
    s = act(s, "dock terraform 6", "place lem")
    assert s.controller["lem"] is None
    assert victory_points(s, 0) == 2 and victory_points(s, 3) == 2


# ---- territory bonuses ------------------------------------------------------------------


def test_R_HUB_5_example_001_1_asimov_two_ships_three_spaces_three_ships_four() -> None:
    # 001:461 (also 000:457, 002:543); the 1st edition adds "if you dock a third ship".
    asimov: dict[TerritoryId, list[int]] = {"asimov": [1, 0, 0, 0]}
    s = act(scenario(undocked="2 5 6", hub={0: 1}, colonies=asimov), "dock hub 2 5")
    assert s.players[0].hub == 1 + 3
    assert act(s, "dock hub 6").players[0].hub == 1 + 4
    s = act(scenario(undocked="2 5 6", hub={0: 1}, colonies=asimov), "dock hub 2 5 6")
    assert s.players[0].hub == 1 + 4
    s = act(scenario(undocked="2 5", hub={0: 1}), "dock hub 2 5")
    assert s.players[0].hub == 1 + 2  # without Asimov Crater


def test_R_CONSTR_example_001_1_bradbury_three_5s_for_2_ore() -> None:
    # 001:467 (also 000:467, 002:551).
    s = scenario(undocked="5 5 5", ore=2, colonies={"bradbury": [1, 0, 0, 0]})
    s = act(s, "dock constructor 5 5 5", "place lem")
    assert s.players[0].ore == 0 and s.colonies["lem"][0] == 1
    s = scenario(undocked="5 5 5", ore=2)
    refused(s, "dock constructor 5 5 5", "the Colony Constructor costs 3 ore")


def test_R_COL_4_example_001_1_a_tie_on_burroughs_sends_token_and_relic_back() -> None:
    # 001:475 (also 000:479, 002:570): you control Burroughs Desert with one colony and use
    # the relic ship; the next player places a colony there: nobody controls it, and the
    # token and the relic ship go back at once.
    s = scenario(
        current=1, undocked="6", fuel=1, ore=1, stock={1: 2}, colonies={"burroughs": [1, 0, 0, 0]}
    )
    s = with_relic(s, 0, "solar", value=3)
    assert victory_points(s, 0) == 2
    s = act(s, "dock terraform 6", "place burroughs")
    assert s.controller["burroughs"] is None and victory_points(s, 0) == 1
    assert s.relic_on_desert and s.docks["solar"][0] is None


def test_R_COL_4_example_001_2_isolation_on_burroughs_returns_the_relic_until_removed() -> None:
    # 001:477 (also 000:483, 002:578): your relic ship is at the Lunar Mine; another player
    # discards the Stasis Beam to put the Isolation Field on Burroughs Desert: the relic ship
    # goes back at once and cannot be bought while the field is there.
    s = scenario(
        current=1,
        cards={1: ["stasis"], 0: ["booster"]},
        fuel=(1, 0, 0, 0),
        ore=(1, 0, 0, 0),
        colonies={"burroughs": [1, 0, 0, 0]},
    )
    s = with_relic(s, 0, "mine", value=5)
    s = act(s, "discard stasis burroughs")
    assert s.relic_on_desert and s.docks["mine"][0] is None
    assert s.controller["burroughs"] == 0  # control stays; only the bonus is void
    s = others_play(act(s, "end"), turns=2)
    assert s.current == 0 and s.pending == [RollDecision(3, False)]
    s = act(s, "roll 1 2 3")
    refused(s, "buy relic", "the Isolation Field on Burroughs Desert voids its bonus")
    s = act(s, "discard booster isolation", "buy relic")
    assert Ship(0, 1, relic=True) in s.players[0].bay


def test_R_TERR_BURR_example_001_3_relic_used_up_returns_to_burroughs_and_is_bought_again() -> None:
    # 001:479 (also 000:487, 002:583): the relic ship shows a 6 and builds a colony at the
    # Terraforming Station; at the start of your next turn it goes back to Burroughs Desert,
    # not to a ship stock, and you may buy it again that turn (while you control the desert).
    s = scenario(undocked="2 3", fuel=2, ore=2, colonies={"burroughs": [1, 0, 0, 0]})
    s = with_relic(s, 0, "undocked", value=6)
    s = act(s, "dock terraform 6r", "place lem", "dock solar 2", "dock solar 3", "end")
    assert not s.relic_on_desert and s.docks["terraform"] == (Ship(0, 6, relic=True),)
    s = others_play(s)
    assert s.relic_on_desert and s.players[0].stock == 3
    assert s.pending == [RollDecision(3, False)]
    s = act(s, "roll 1 1 2", "buy relic")
    assert Ship(0, 1, relic=True) in s.players[0].bay


def test_R_MARKET_example_001_1_heinlein_a_pair_of_3s_trades_1_for_1() -> None:
    # 001:485 (also 000:497, 002:593).
    s = scenario(undocked="3 3", fuel=3, colonies={"heinlein": [1, 0, 0, 0]})
    s = act(s, "dock market 3 3", "trade", "trade", "trade")
    assert (s.players[0].fuel, s.players[0].ore) == (0, 3)


def test_R_YARD_example_001_1_herbert_5th_ship_for_1_and_1_the_4th_free() -> None:
    # 001:491 (also 000:507, 002:608).
    herbert: dict[TerritoryId, list[int]] = {"herbert": [1, 0, 0, 0]}
    s = act(scenario(undocked="2 2 3 4", fuel=1, ore=1, colonies=herbert), "dock yard 2 2")
    assert (s.players[0].fuel, s.players[0].ore, s.players[0].stock) == (0, 0, 1)
    s = act(scenario(undocked="2 2 3", colonies=herbert), "dock yard 2 2")
    assert (s.players[0].fuel, s.players[0].ore, s.players[0].stock) == (0, 0, 2)


def test_R_SOLAR_example_001_1_lem_a_3_and_a_4_give_4_fuel_plus_2() -> None:
    # 001:497 (also 000:517, 002:620).
    s = scenario(undocked="3 4", colonies={"lem": [1, 0, 0, 0]})
    assert act(s, "dock solar 3", "dock solar 4").players[0].fuel == 4 + 2


def test_R_COL_4_example_001_1_pohl_the_booster_pod_is_free() -> None:
    # 001:503 (also 000:527, 002:630).
    s = scenario(undocked="3 5", cards={0: ["booster"]}, colonies={"pohl": [1, 0, 0, 0]})
    s = act(s, "use booster 3")
    assert s.players[0].fuel == 0 and [x.value for x in s.undocked] == [4, 5]


def test_R_COL_4_example_001_2_pohl_plasma_on_three_ships_costs_2_fuel() -> None:
    # 001:505 (also 000:531, 002:635): three ships removed from the Lunar Mine for 2 fuel.
    s = scenario(
        undocked="1",
        docks={"mine": "p2:2 p3:3 p4:4"},
        cards={0: ["plasma"]},
        fuel=2,
        colonies={"pohl": [1, 0, 0, 0]},
    )
    s = act(s, "use plasma mine p2:2", "hit p3:3", "hit p4:4")
    assert s.players[0].fuel == 0 and s.pending == []
    assert [x for x in s.docks["mine"] if x is not None] == []
    assert [s.players[p].bay[-1] for p in (1, 2, 3)] == [Ship(1, 2), Ship(2, 3), Ship(3, 4)]


@pytest.mark.parametrize("first", [1, 2, 4])
def test_R_MINE_example_001_1_van_vogt_first_ship_1_2_or_4_then_the_5(first: int) -> None:
    # 001:511 (also 000:541, 002:646): rolled 1, 2, 4, 5 with a 5 the highest at the mine.
    s = scenario(undocked="1 2 4 5", docks={"mine": "p2:5"}, colonies={"vanvogt": [1, 0, 0, 0]})
    assert docks_at(s, "mine") == {"dock mine 1", "dock mine 2", "dock mine 4", "dock mine 5"}
    s = act(s, f"dock mine {first}")
    assert docks_at(s, "mine") == {"dock mine 5"}
    assert act(s, "dock mine 5").players[0].ore == 2

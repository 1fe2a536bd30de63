"""Every rule a lesson of the guided game states (``learn.lesson.*``, ``learn.goal``) is held
to the engine: what the text says a move does, the engine does; what it says cannot be
done, the engine refuses. One test per lesson (or group), named after its rule ids; the
English text is quoted where the claim is made, so a change to it shows here.
"""

from __future__ import annotations

import pytest

from bot.play.learn import LESSONS
from bot.text.strings import SOURCES, english
from engine import GameConfig, GameState, apply, legal_actions, parse, victory_points
from engine.actions import Die, Roll
from engine.chance import chance_outcomes
from engine.facilities.orbital_market import market_rate
from engine.tables import HUB_TRACK_LENGTH, SHIPS_PER_COLOUR, CardId, FacilityId, TerritoryId
from tests.engine.scenario import act, scenario

PER = GameConfig(players=2).colonies_per_player
QUIET: tuple[CardId, ...] = ("decoy", "booster", "stasis")  # a display without the cards handed out


def said(key: str) -> str:
    return english(key)


def can(s: GameState, move: str) -> bool:
    return parse(move) in legal_actions(s)


def test_learn_goal_colonies_score_control_and_the_last_colony_ends_R_COL_1_R_COL_2_R_END_2() -> (
    None
):
    assert "1 VP each" in said("learn.goal") and "last colony" in said("learn.goal")
    s = scenario(players=2, undocked="6", fuel=[1, 0], ore=[1, 0], stock={0: 2})
    s = act(s, "dock terraform 6", "place lem")
    assert victory_points(s, 0) == 2  # the colony and the control it brings
    last = scenario(
        players=2,
        undocked="6",
        fuel=[1, 0],
        ore=[1, 0],
        stock={0: 2},
        colonies={"pohl": [PER - 1, 0]},
    )
    assert act(last, "dock terraform 6", "place lem").over


def test_learn_solar_fuel_by_value_R_SOLAR() -> None:
    assert "1 for a 1-2, 2 for a 3-4, 3 for a 5-6" in said("learn.lesson.solar")
    for value, fuel in ((1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)):
        s = scenario(players=2, undocked=str(value))
        assert act(s, f"dock solar {value}").players[0].fuel == fuel


def test_learn_mine_at_least_the_highest_docked_R_MINE() -> None:
    s = scenario(players=2, undocked="3 4", docks={"mine": "p2:4"})
    assert not can(s, "dock mine 3") and can(s, "dock mine 4")
    assert act(s, "dock mine 4").players[0].ore == 1


def test_learn_hub_each_ship_one_space_launch_at_7_R_HUB_1_R_HUB_2() -> None:
    s = act(scenario(players=2, undocked="1 5"), "dock hub 1")
    assert s.players[0].hub == 1
    assert act(s, "dock hub 5").players[0].hub == 2
    ready = scenario(players=2, undocked="4", fuel=[1, 0], ore=[1, 0], hub={0: HUB_TRACK_LENGTH})
    assert can(ready, "launch")


def test_learn_end_turn_every_ship_that_can_dock_the_rest_to_the_bay_R_TURN_4_R_TURN_7() -> None:
    text = said("learn.lesson.end_turn")
    assert "every ship that can dock" in text and "Maintenance Bay" in text
    s = scenario(players=2, undocked="3")
    assert not can(s, "end")  # the 3 can still dock
    # The Raiders' Outpost takes no lone ship: a 6 with the solar converter, mine, hub and
    # artifact full can dock nowhere; the turn may end and it goes to the bay.
    over = scenario(players=2, undocked="", fuel=[9, 0], ore=[1, 0])
    over = act(over, "end")
    assert over.pending and type(over.pending[0]).__name__ == "ReturnExcessDecision"


def test_learn_use_once_a_turn_on_undocked_ships_only_R_TECH_2_R_TECH_STASIS() -> None:
    text = said("learn.lesson.use")
    assert "once a turn" in text and "undocked" in text and "1 fuel" in text
    s = scenario(players=2, undocked="3 2", cards={0: ["stasis"]}, fuel=[3, 0])
    after = act(s, "use stasis 3")
    assert sorted(x.value for x in after.undocked) == [2, 2] and after.players[0].fuel == 2
    assert not can(after, "use stasis 2")  # once a turn
    docked = act(s, "dock solar 3")
    assert not any(str(a).startswith("use stasis 3") for a in legal_actions(docked))


def test_learn_yard_costs_the_6th_ship_and_an_empty_stock_R_YARD() -> None:
    text = said("learn.lesson.yard")
    assert "6th 3 + 3" in text and "stock is empty" in text
    fifth = scenario(players=2, undocked="2 2", fuel=[3, 0], ore=[3, 0], stock={0: 1})
    after = act(fifth, "dock yard 2 2")
    assert (after.players[0].fuel, after.players[0].ore) == (0, 0)  # the 6th: 3 + 3
    empty = scenario(players=2, undocked="2 2", fuel=[9, 0], ore=[9, 0], stock={0: 0})
    assert not can(empty, "dock yard 2 2")
    assert SHIPS_PER_COLOUR == 6


def test_learn_market_rate_is_the_pair_and_heinlein_one_R_MARKET() -> None:
    s = act(scenario(players=2, undocked="3 3", fuel=[6, 0]), "dock market 3 3")
    assert market_rate(s, 0) == 3 and act(s, "trade").players[0].ore == 1
    h = scenario(players=2, undocked="3 3", fuel=[6, 0], colonies={"heinlein": [1, 0]})
    assert market_rate(act(h, "dock market 3 3"), 0) == 1


def test_learn_artifact_total_of_8_claims_and_starts_again_R_ART_2_R_ART_3() -> None:
    assert "starts again from 0" in said("learn.lesson.artifact")
    s = scenario(players=2, undocked="6 2 5", display=("city", "monument", "decoy"))
    s = act(s, "dock artifact 6")
    assert not can(s, "claim city")
    s = act(s, "dock artifact 2")
    assert can(s, "claim city")
    s = apply(s, parse("claim city"))
    assert s.turn.artifact_total == 0


def test_learn_claim_usable_at_once_except_the_resource_cache_R_TECH_2_R_TECH_CACHE() -> None:
    text = said("learn.lesson.claim")
    assert (
        "usable the turn you get them" in text and "Resource Cache pays from your next roll" in text
    )
    s = scenario(players=2, undocked="6 2 3", fuel=[2, 0], display=("booster", "cache", "decoy"))
    s = act(s, "dock artifact 6", "dock artifact 2")
    booster = apply(s, parse("claim booster"))
    cache = scenario(players=2, undocked="6 2 3", display=("cache", "booster", "decoy"))
    cache = act(cache, "dock artifact 6", "dock artifact 2")
    from engine.chance import chance_outcomes

    def settled(s: GameState) -> GameState:
        while not s.over and s.to_act() < 0:
            s = apply(s, chance_outcomes(s)[0][0])
        return s

    booster = settled(booster)
    assert can(booster, "use booster 3")  # the turn it was claimed
    cache = settled(apply(cache, parse("claim cache")))
    before = (cache.players[0].fuel, cache.players[0].ore)
    cache = act(cache, "dock solar 3")
    assert (cache.players[0].fuel - 2, cache.players[0].ore) == before  # nothing this turn
    cache = settled(apply(cache, parse("end")))
    while cache.current != 0:  # the AI's turn passes; the learner rolls: it pays then
        cache = settled(apply(cache, legal_actions(cache)[-1]))
    assert any(e.key == "cache_paid" for e in cache.events)


def test_learn_raid_a_higher_sum_pushes_out_the_ships_there_R_RAID_1_R_RAID_2() -> None:
    assert "higher sum pushes out" in said("learn.lesson.raiders")
    s = scenario(players=2, undocked="2 3 4 1", docks={"raiders": "p2:1 p2:2 p2:3"})
    assert can(s, "dock raiders 2 3 4")
    after = act(s, "dock raiders 2 3 4")
    assert len(after.players[1].bay) == 3  # the AI's 1-2-3 went to its bay
    same = scenario(players=2, undocked="1 2 3", docks={"raiders": "p2:1 p2:2 p2:3"})
    assert not can(same, "dock raiders 1 2 3")


def test_learn_steal_a_card_is_1_vp_to_whoever_holds_it_R_TECH_VP() -> None:
    s = scenario(players=2, undocked="1 2 3", cards={1: ["city"]}, display=QUIET)
    before = victory_points(s, 0)
    s = act(s, "dock raiders 1 2 3", "steal card city p2")
    assert victory_points(s, 0) == before + 1 and "city" not in s.players[1].cards


def test_learn_colony_ties_and_losing_control_R_COL_2_R_COL_3() -> None:
    text = said("learn.lesson.colony")
    assert "a tie, nobody" in text and "lose the lead, lose both" in text
    s = scenario(players=2, colonies={"lem": [1, 0]})
    assert s.controller["lem"] == 0
    tie = scenario(players=2, colonies={"lem": [1, 1]})
    assert tie.controller["lem"] is None
    led = scenario(
        players=2,
        current=1,
        undocked="6",
        fuel=[0, 2],
        ore=[0, 2],
        stock={1: 2},
        colonies={"lem": [1, 1], "pohl": [0, 0]},
    )
    led = act(led, "dock terraform 6", "place lem")
    assert led.controller["lem"] == 1


def test_learn_terraform_needs_4_ships_and_uses_one_up_R_TERR_R_TERR_MIN() -> None:
    assert "you need 4 ships of your colour" in said("learn.lesson.terraform")
    three = scenario(players=2, undocked="6", fuel=[1, 0], ore=[1, 0], stock={0: 3})
    assert not can(three, "dock terraform 6")
    four = scenario(players=2, undocked="6", fuel=[1, 0], ore=[1, 0], stock={0: 2})
    assert can(four, "dock terraform 6")
    relic = scenario(
        players=2,
        undocked="6 3r",
        fuel=[1, 0],
        ore=[1, 0],
        stock={0: 3},
        colonies={"burroughs": [1, 0]},
    )
    assert not can(relic, "dock terraform 6")  # the relic ship is no ship of your colour


def test_learn_asimov_counts_the_ships_of_the_whole_turn_R_HUB_5() -> None:
    """Issue 41: the lesson said "dock 2 ships at the Colony Hub at once"; the rule counts
    the turn: two single ships in two picks get the extra space too."""
    text = said("learn.lesson.asimov")
    assert "this turn" in text and "at once" not in text
    s = scenario(players=2, undocked="1 3", colonies={"asimov": [1, 0]})
    s = act(s, "dock hub 1", "dock hub 3")
    assert s.players[0].hub == 3  # 1, 2, and the extra space


def test_learn_launch_steps_past_7_start_the_next_colony_R_HUB_3() -> None:
    assert "Steps past 7 start your next colony" in said("learn.lesson.launch")
    s = scenario(
        players=2,
        undocked="1 2 3",
        hub={0: 5},
        fuel=[1, 0],
        ore=[1, 0],
        colonies={"asimov": [1, 0]},
    )
    s = act(s, "dock hub 1 2 3", "launch", "place lem")
    assert s.players[0].hub == 2


def test_learn_positron_discard_only_a_card_not_used_this_turn_R_TECH_2_R_FIELD_POS() -> None:
    text = said("learn.lesson.positron")
    assert "one a turn" in text and "not used this turn" in text
    s = scenario(
        players=2,
        undocked="3",
        cards={0: ["crystal", "stasis"]},
        fuel=[5, 0],
        colonies={"lem": [1, 0]},
    )
    before = victory_points(s, 0)
    after = act(s, "discard crystal lem")
    assert victory_points(after, 0) == before + 1
    assert not any(str(a).startswith("discard stasis") for a in legal_actions(after))  # one a turn
    used = act(
        scenario(players=2, undocked="3", cards={0: ["stasis"]}, fuel=[2, 0]), "use stasis 3"
    )
    assert not any(str(a).startswith("discard stasis") for a in legal_actions(used))


def test_learn_relic_rolls_from_next_turn_and_goes_back_with_the_desert_R_COL_4_R_TERR_BURR() -> (
    None
):
    s = scenario(players=2, undocked="3", fuel=[1, 0], ore=[1, 0], colonies={"burroughs": [1, 0]})
    s = act(s, "buy relic")
    assert not s.relic_on_desert and any(x.relic for x in s.players[0].bay)


def test_learn_gravity_once_for_2_fuel_R_TECH_GRAV() -> None:
    s = scenario(players=2, undocked="4 2", cards={0: ["gravity"]}, fuel=[4, 0])
    after = act(s, "use gravity down 4 up 2")
    assert sorted(x.value for x in after.undocked) == [3, 3] and after.players[0].fuel == 2
    assert not any(str(a).startswith("use gravity") for a in legal_actions(after))


def test_learn_fields_isolation_and_repulsor_R_FIELD_ISO_R_FIELD_REP() -> None:
    iso = act(
        scenario(players=2, undocked="3", cards={0: ["stasis"]}, colonies={"lem": [0, 1]}),
        "discard stasis lem",
    )
    assert iso.fields["isolation"] == "lem"
    rep = act(
        scenario(players=2, undocked="3", cards={0: ["gravity"]}, colonies={"lem": [1, 0]}),
        "discard gravity lem",
    )
    assert rep.fields["repulsor"] == "lem"


def test_learn_raided_a_higher_sum_takes_the_outpost_back_R_RAID_1() -> None:
    assert "pushed out by a run with a higher sum" in said("learn.lesson.raided")
    s = scenario(players=2, undocked="2 3 4", docks={"raiders": "p2:1 p2:2 p2:3"})
    assert can(s, "dock raiders 2 3 4")


def test_learn_decoy_keeps_resources_and_is_the_only_card_a_raid_takes_R_RAID_3() -> None:
    """An expert found R-RAID-3's second half never said: a raider taking a card from the
    Decoy's owner may take only the Decoy."""
    text = said("learn.lesson.decoy")
    assert "none of its owner's resources" in text and "only the Decoy" in text
    s = scenario(
        players=2,
        current=1,
        undocked="1 2 3",
        fuel=[3, 0],
        ore=[3, 0],
        cards={0: ["decoy", "crystal"]},
        display=QUIET,
    )
    s = act(s, "dock raiders 1 2 3")
    steals = {str(a) for a in legal_actions(s) if str(a).startswith("steal")}
    assert steals == {"steal card decoy p1"}, steals


def test_learn_steal_a_card_the_raider_holds_is_discarded_R_RAID_4() -> None:
    assert "A card you hold already would only be discarded" in said("learn.lesson.steal")
    s = scenario(players=2, undocked="1 2 3", cards={0: ["crystal"], 1: ["crystal"]}, display=QUIET)
    s = act(s, "dock raiders 1 2 3", "steal card crystal p2")
    assert s.players[0].cards.count("crystal") == 1 and "crystal" not in s.players[1].cards


def test_learn_closed_docks_with_2_players_one_set_each_R_SETUP_6() -> None:
    """An expert found the neutral ships never explained: with 2 players they close two
    docks of the Orbital Market, four of the Shipyard, three of the Colony Constructor."""
    text = said("learn.lesson.closed")
    assert "neutral ships showing 1" in text and "one set each" in text
    s = scenario(players=2, undocked="2 2 2 2 3 3", fuel=[9, 0], ore=[9, 0], stock={0: 0})
    sets: tuple[tuple[FacilityId, int], ...] = (("market", 2), ("yard", 2), ("constructor", 3))
    for facility, size in sets:
        free = [x for x in s.docks[facility] if x is None]
        neutral = [x for x in s.docks[facility] if x is not None]
        assert len(free) == size, facility  # one set
        assert neutral and all(x.owner < 0 and x.value == 1 for x in neutral)
    market = act(s, "dock market 2 2")
    assert not can(market, "dock market 3 3")  # the one pair there is taken


def test_learn_crystal_borrows_a_bonus_for_a_fuel_a_colony_R_TECH_CRYSTAL() -> None:
    """An expert found Data Crystal's fuel power taught to nobody, followers included."""
    text = said("learn.lesson.crystal")
    assert "1 fuel per colony" in text and "never Burroughs Desert" in text
    s = scenario(
        players=2,
        undocked="3",
        cards={0: ["crystal"]},
        fuel=[3, 0],
        colonies={"lem": [0, 2], "burroughs": [0, 1]},
    )
    assert can(s, "use crystal lem") and not can(s, "use crystal burroughs")
    after = act(s, "use crystal lem", "dock solar 3")
    assert after.players[0].fuel == 3 - 2 + 2 + 1  # 2 paid (2 colonies), +1 Lem's bonus


def test_learn_positron_field_scores_for_its_territorys_controller_R_FIELD_POS() -> None:
    assert "+1 VP to its controller" in said("learn.lesson.positron")
    assert "1 more for controlling the Positron Field's" in said("learn.lesson.monument.gone")
    s = scenario(players=2, undocked="3", cards={0: ["crystal"]}, colonies={"lem": [0, 1]})
    after = act(s, "discard crystal lem")
    assert victory_points(after, 1) == victory_points(s, 1) + 1  # its controller's
    assert victory_points(after, 0) == victory_points(s, 0)


def test_learn_relic_used_at_the_terraforming_station_goes_back_R_TERR_BURR() -> None:
    assert "use it at the Terraforming Station" in said("learn.lesson.relic")
    s = scenario(
        players=2,
        undocked="6r 2",
        fuel=[1, 0],
        ore=[1, 0],
        stock={0: 2},
        colonies={"burroughs": [1, 0]},
    )
    s = act(s, "dock terraform 6r", "place lem", "dock solar 2", "end")
    while s.current != 0 or s.to_act() != 0:
        s = apply(s, legal_actions(s)[-1] if s.to_act() >= 0 else chance_outcomes(s)[0][0])
    assert s.relic_on_desert  # back on Burroughs Desert, not in the stock


def test_learn_a_ship_on_the_terraforming_station_is_locked_R_TERR_LOCK() -> None:
    text = said("learn.lesson.lock")
    assert "cannot be moved by the Orbital Teleporter" in text and "to its owner's stock" in text
    s = scenario(
        players=2,
        undocked="3",
        fuel=[5, 0],
        cards={0: ["teleporter", "plasma"]},
        docks={"terraform": "6", "solar": "p2:2"},
    )
    assert not any(str(a).startswith("use teleporter terraform") for a in legal_actions(s))
    shot = scenario(
        players=2, undocked="3", fuel=[5, 0], cards={0: ["plasma"]}, docks={"terraform": "p2:6"}
    )
    stock = shot.players[1].stock
    shot = act(shot, "use plasma terraform p2:6")
    assert shot.players[1].stock == stock + 1 and list(shot.docks["terraform"]) == [None]


def test_learn_plasma_discard_keeps_3_ships_R_TECH_PLASMA() -> None:
    assert "Discard: one to its stock (3 kept)" in said("learn.lesson.plasma")
    three = scenario(players=2, undocked="3", cards={0: ["plasma"]}, docks={"mine": "p2:2"})
    assert not can(three, "discard plasma mine p2:2")  # the AI would keep 2
    four = scenario(
        players=2, undocked="3", cards={0: ["plasma"]}, docks={"mine": "p2:2"}, stock={1: 2}
    )
    assert can(four, "discard plasma mine p2:2")


def test_learn_the_last_colony_is_not_bound_to_the_hub_R_HUB_4() -> None:
    """An expert found R-HUB-4 never said."""
    text = said("learn.lesson.last_colony")
    assert "not bound to the Colony Hub" in text and "Terraforming Station" in text
    s = scenario(
        players=2,
        undocked="6",
        fuel=[1, 0],
        ore=[1, 0],
        stock={0: 2},
        hub={0: 3},
        colonies={"pohl": [PER - 1, 0]},
    )
    assert s.players[0].colonies == 0 and s.players[0].hub == 3  # the last one, on the track
    assert act(s, "dock terraform 6", "place lem").over


def test_learn_asimov_setup_and_place_state_its_bonus_R_HUB_5() -> None:
    for key in ("learn.lesson.asimov.setup", "learn.lesson.asimov.place"):
        assert "1 more space" in said(key) or "1 extra space" in said(key), key
        assert "Colony Hub in a turn" in said(key), key


def test_learn_cache_gone_says_the_card_goes_on_a_tie_R_TECH_CACHE() -> None:
    assert "a tie gives both and the card goes" in said("learn.lesson.cache.gone")


def test_learn_plasma_1_fuel_a_ship_to_the_bay_R_TECH_PLASMA() -> None:
    s = scenario(
        players=2, undocked="3", cards={0: ["plasma"]}, fuel=[2, 0], docks={"mine": "p2:2"}
    )
    after = act(s, "use plasma mine p2:2")
    assert after.players[0].fuel == 1
    assert len(after.players[1].bay) == len(s.players[1].bay) + 1


def test_learn_teleporter_polarity_warper_booster_powers_R_TECH_TELE_R_TECH_POLAR() -> None:
    t = scenario(
        players=2, undocked="3", cards={0: ["teleporter"]}, fuel=[2, 0], docks={"solar": "p1:6"}
    )
    moved = act(t, "use teleporter solar 6 to mine")
    assert moved.players[0].fuel == 0 and moved.players[0].ore == 1
    p = act(
        scenario(players=2, undocked="1", cards={0: ["polarity"]}, fuel=[1, 0]), "use polarity 1"
    )
    assert [x.value for x in p.undocked] == [6]
    b = act(scenario(players=2, undocked="4", cards={0: ["booster"]}, fuel=[1, 0]), "use booster 4")
    assert [x.value for x in b.undocked] == [5]
    w = act(
        scenario(players=2, undocked="1 2", cards={0: ["warper"]}, fuel=[1, 0]), "use warper 1 2"
    )
    assert w.pending and type(w.pending[0]).__name__ == "RollDecision"
    w = apply(w, Roll((Die(5), Die(6))))
    assert sorted(x.value for x in w.undocked) == [5, 6]


def test_learn_monument_and_what_scores_R_END_1_R_TECH_VP() -> None:
    assert "Alien Monument" in said("learn.lesson.monument.gone")
    s = scenario(players=2, cards={0: ["monument"]}, display=QUIET)
    assert victory_points(s, 0) == 1


def test_learn_end_game_ties_go_to_cards_then_ore_then_fuel_R_END_3() -> None:
    from engine.scoring import outcome

    assert "most cards, then ore, then fuel" in said("learn.lesson.end_game")
    tied: dict[TerritoryId, list[int]] = {"lem": [1, 0], "pohl": [0, 1]}  # 2 VP each
    cards = scenario(players=2, colonies=tied, cards={0: ["polarity"]}, display=QUIET)
    ore = scenario(players=2, colonies=tied, ore=[0, 2], fuel=[5, 0])
    fuel = scenario(players=2, colonies=tied, fuel=[0, 1])
    for s, winner, why in ((cards, 0, "cards"), (ore, 1, "ore"), (fuel, 1, "fuel")):
        s.over = True
        result = outcome(s)
        assert result is not None and result.winners == (winner,) and result.tiebreak == why


@pytest.mark.parametrize("lesson", [x.id for x in LESSONS])
def test_learn_every_lesson_text_is_in_the_catalogue(lesson: str) -> None:
    assert f"learn.lesson.{lesson}" in SOURCES

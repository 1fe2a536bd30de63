"""Alien tech cards (section 8): the common rules R-TECH-1..4 and the cards that change ship
values, borrow bonuses or pay out: R-TECH-VP, -BOOST, -CRYSTAL, -GRAV, -DECOY, -POLAR,
-CACHE, -STASIS, -WARP. Cards that move or remove docked ships are in test_tech_ships.py,
field generators in test_fields.py, the Pohl Foothills discount in test_tech_pohl.py."""

from __future__ import annotations

import pytest

from engine import (
    GameConfig,
    IllegalActionError,
    InvalidNotationError,
    chance_outcomes,
    new_game,
    parse,
    victory_points,
)
from engine.actions import DiscardField
from engine.game import Game
from engine.state import GameState, RevealDecision, RollDecision
from engine.tables import CARD_INDEX, CARDS, TERRITORIES
from engine.views import view
from tests.engine.scenario import act, legal, refused, scenario


def uses(s: GameState, card: str) -> set[str]:
    """The legal fuel uses of one card."""
    return {a for a in legal(s) if a.startswith(f"use {card} ")}


def discards(s: GameState) -> set[str]:
    return {a for a in legal(s) if a.startswith("discard ")}


def ship_values(s: GameState) -> list[int]:
    return sorted(x.value for x in s.undocked)


def all_into_discard(s: GameState) -> None:
    """Move every card left in the deck to the discard pile (the deck has run out)."""
    for i, n in enumerate(s.deck):
        s.discard[i] += n
        s.deck[i] = 0


def opponent_turn(s: GameState, *then: str) -> GameState:
    """P1 ends the turn; P2 (two players, three ships) docks three 1s on the hub and ends;
    then the moves in ``then`` (usually P1's roll)."""
    return act(s, "end", "roll 1 1 1", "dock hub 1 1 1", "end", *then)


# ---- R-TECH-1: public cards, one copy of each ---------------------------------------------


def test_R_TECH_1_cards_and_the_discard_pile_are_public() -> None:
    s = scenario(
        cards={0: ["booster"], 1: ["plasma", "decoy"]}, display=("city", "monument", "gravity")
    )
    s.discard[CARD_INDEX["warper"]] += 1
    s.deck[CARD_INDEX["warper"]] -= 1
    v = view(s)
    assert v.players[1].cards == ("plasma", "decoy")
    assert v.players[0].cards == ("booster",)
    assert v.discard == {"warper": 1}


def test_R_TECH_1_cannot_claim_a_card_already_owned() -> None:
    s = scenario(undocked="4 4", cards={0: ["booster"]}, display=("booster", "city", "cache"))
    s = act(s, "dock artifact 4", "dock artifact 4")
    assert {a for a in legal(s) if a.startswith("claim")} == {"claim city", "claim cache"}
    refused(s, "claim booster", "you already own Booster Pod")


def test_R_TECH_1_a_stolen_copy_of_a_card_already_owned_is_discarded() -> None:
    s = scenario(
        undocked="2 3 4",
        cards={0: ["plasma"], 1: ["plasma"]},
        display=("city", "monument", "booster"),
    )
    s = act(s, "dock raiders 2 3 4", "steal card plasma p2")
    assert s.players[0].cards == ["plasma"]
    assert s.players[1].cards == []
    assert s.discard[CARD_INDEX["plasma"]] == 1


# ---- R-TECH-2: once per turn, one discard per turn, usable at once ---------------------------


def test_R_TECH_2_a_fuel_power_is_used_once_per_turn_per_card() -> None:
    s = scenario(undocked="1 3 4", cards={0: ["booster", "stasis"]}, fuel=5)
    s = act(s, "use booster 3")
    assert s.players[0].fuel == 4
    assert s.turn.used == ["booster"]
    refused(s, "use booster 4", "you already used Booster Pod this turn")
    assert not uses(s, "booster")
    # Another card is still available.
    assert uses(s, "stasis") == {"use stasis 4"}
    s = act(s, "use stasis 4")
    assert ship_values(s) == [1, 3, 4]


def test_R_TECH_2_plasma_hits_belong_to_one_use_and_it_cannot_fire_again() -> None:
    s = scenario(
        undocked="1",
        docks={"solar": "p2:1 p3:2", "mine": "p4:3"},
        cards={0: ["plasma"]},
        fuel=5,
    )
    s = act(s, "use plasma solar p2:1", "done")
    refused(s, "use plasma mine p4:3", "you already used Plasma Cannon this turn")


def test_R_TECH_2_only_one_discard_per_turn() -> None:
    s = scenario(undocked="1", cards={0: ["stasis", "crystal", "booster"]})
    assert {"discard stasis pohl", "discard crystal lem"} <= discards(s)
    s = act(s, "discard stasis pohl")
    assert s.turn.discarded
    assert s.fields["isolation"] == "pohl"
    refused(s, "discard crystal lem", "you may discard only one card per turn")
    refused(s, "discard booster isolation", "you may discard only one card per turn")
    assert not discards(s)


def test_R_TECH_2_a_card_used_this_turn_cannot_be_discarded() -> None:
    s = scenario(undocked="2", cards={0: ["stasis", "crystal"]}, fuel=1)
    s = act(s, "use stasis 2")
    refused(s, "discard stasis pohl", "you already used Stasis Beam this turn")
    # An unused card may still be discarded.
    assert discards(s) == {f"discard crystal {t}" for t in TERRITORIES}
    assert not s.turn.discarded


def test_R_TECH_2_a_discarded_card_is_gone_for_the_rest_of_the_turn() -> None:
    s = scenario(undocked="2", cards={0: ["stasis"]}, fuel=1)
    s = act(s, "discard stasis lem")
    assert s.players[0].cards == []
    assert s.discard[CARD_INDEX["stasis"]] == 1
    refused(s, "use stasis 2", "you do not have Stasis Beam")


def test_R_TECH_2_a_claimed_card_is_usable_the_same_turn() -> None:
    s = scenario(undocked="3 5 2", display=("booster", "city", "cache"), fuel=1)
    s = act(s, "dock artifact 3", "dock artifact 5", "claim booster", "reveal plasma")
    assert uses(s, "booster") == {"use booster 2"}
    s = act(s, "use booster 2")
    assert ship_values(s) == [3]
    assert s.players[0].fuel == 0


def test_R_TECH_2_a_stolen_card_is_usable_the_same_turn() -> None:
    s = scenario(undocked="2 3 4 5", cards={1: ["booster"]}, fuel=1, stock={0: 2})
    s = act(s, "dock raiders 2 3 4", "steal card booster p2", "use booster 5")
    assert ship_values(s) == [6]
    assert s.players[0].cards == ["booster"]


def test_R_TECH_2_a_card_used_last_turn_is_usable_again() -> None:
    s = scenario(players=2, undocked="3", cards={0: ["booster"]}, fuel=2)
    s = act(s, "use booster 3", "dock solar 4")
    s = opponent_turn(s, "roll 2 5 6")
    assert s.current == 0
    assert s.turn.used == []
    s = act(s, "use booster 2")
    assert ship_values(s) == [3, 5, 6]


def test_R_TECH_2_a_new_copy_gained_after_discarding_the_old_one_is_unused() -> None:
    # R-TECH-2: each card's fuel power once per turn. The copy claimed after discarding the
    # first one has not been used this turn. Reported: the engine tracks use by card name.
    s = scenario(
        undocked="3 5 2",
        cards={0: ["crystal"]},
        colonies={"lem": [0, 1, 0, 0]},
        display=("crystal", "city", "cache"),
        fuel=3,
    )
    s = act(s, "discard crystal herbert", "dock artifact 3", "dock artifact 5", "claim crystal")
    s = act(s, "reveal plasma")
    assert s.players[0].cards == ["crystal"]
    assert "use crystal lem" in legal(s)
    s = act(s, "use crystal lem", "dock solar 2")
    assert s.players[0].fuel == 3 - 1 + 1 + 1  # Lem Badlands: +1 fuel at the Solar Converter


def test_R_TECH_2_cards_without_a_discard_power_cannot_be_discarded() -> None:
    s = scenario(
        undocked="3",
        cards={0: ["decoy", "city", "monument", "cache", "helm"]},
        display=("booster", "plasma", "stasis"),
        fuel=9,
        mind_control_helm=True,
    )
    assert not [a for a in legal(s) if a.startswith(("use", "discard"))]
    for card in ("decoy", "city", "monument", "cache", "helm"):
        with pytest.raises(InvalidNotationError, match="expected a card with a discard power"):
            parse(f"discard {card} lem")
    with pytest.raises(IllegalActionError, match="Mind Control Helm has no discard power"):
        act(s, DiscardField("helm", "lem"))


# ---- R-TECH-3: values stay within 1..6 --------------------------------------------------------


def test_R_TECH_3_booster_cannot_lift_a_six() -> None:
    s = scenario(undocked="6 2", cards={0: ["booster"]}, fuel=1)
    refused(s, "use booster 6", "a ship's value must stay between 1 and 6")
    assert uses(s, "booster") == {"use booster 2"}


def test_R_TECH_3_stasis_cannot_lower_a_one() -> None:
    s = scenario(undocked="1 2", cards={0: ["stasis"]}, fuel=1)
    refused(s, "use stasis 1", "a ship's value must stay between 1 and 6")
    assert uses(s, "stasis") == {"use stasis 2"}


def test_R_TECH_3_gravity_cannot_push_past_one_or_six() -> None:
    s = scenario(undocked="1 6 3", cards={0: ["gravity"]}, fuel=2)
    refused(s, "use gravity down 1 up 3", "a ship's value must stay between 1 and 6")
    refused(s, "use gravity down 3 up 6", "a ship's value must stay between 1 and 6")
    assert uses(s, "gravity") == {
        "use gravity down 3 up 1",
        "use gravity down 6 up 1",
        "use gravity down 6 up 3",
    }


def test_R_TECH_3_polarity_always_lands_on_a_face() -> None:
    s = scenario(undocked="1 6", cards={0: ["polarity"]}, fuel=1)
    assert uses(s, "polarity") == {"use polarity 1", "use polarity 6"}
    assert ship_values(act(s, "use polarity 6")) == [1, 1]


# ---- R-TECH-4: the discard pile becomes the deck ---------------------------------------------


def test_R_TECH_4_an_empty_deck_draws_from_the_shuffled_discard_pile() -> None:
    s = scenario(undocked="3", display=("booster", "city", "cache"))
    all_into_discard(s)
    s = act(s, "dock artifact 3", "cycle")
    assert s.pending == [RevealDecision(3)]
    pile = list(s.discard)
    total = sum(pile)
    assert total == 22  # every card but none in hands: the cycled display went there too
    outcomes = {str(a): p for a, p in chance_outcomes(s)}
    expected = {f"reveal {c}": n / total for c, n in zip(CARDS, pile, strict=True) if n}
    assert outcomes == pytest.approx(expected)
    s = act(s, "reveal city")
    assert sum(s.discard) == 0
    assert s.deck == [n - (c == "city") for c, n in zip(CARDS, pile, strict=True)]
    assert s.display == ["city"]


def test_R_TECH_4_the_deck_runs_out_in_the_middle_of_a_layout() -> None:
    s = scenario(undocked="3", display=("booster", "city", "cache"))
    all_into_discard(s)
    s.discard[CARD_INDEX["plasma"]] -= 1
    s.deck[CARD_INDEX["plasma"]] += 1  # one card left in the deck
    s = act(s, "dock artifact 3", "cycle")
    refused(s, "reveal city", "no Alien City is left in the deck")
    s = act(s, "reveal plasma")
    assert sum(s.deck) == 0
    # The next card comes from the reshuffled discard pile, the cycled cards included.
    assert {str(a) for a, _ in chance_outcomes(s)} >= {"reveal city", "reveal booster"}
    s = act(s, "reveal city", "reveal booster")
    assert s.display == ["plasma", "city", "booster"]
    assert sum(s.discard) == 0
    assert sum(s.deck) == 22 - 3


# ---- R-TECH-VP: Alien City and Alien Monument ------------------------------------------------


def test_R_TECH_VP_city_and_monument_score_one_each_and_one_player_may_hold_both() -> None:
    s = scenario(cards={0: ["city", "monument"]}, display=("decoy", "booster", "cache"))
    assert victory_points(s, 0) == 2
    assert victory_points(s, 1) == 0
    s2 = scenario(cards={1: ["monument"]}, display=("decoy", "booster", "cache"))
    assert victory_points(s2, 1) == 1


def test_R_TECH_VP_the_point_follows_the_card() -> None:
    s = scenario(undocked="2 3 4", cards={1: ["city"]}, display=("decoy", "booster", "cache"))
    assert (victory_points(s, 0), victory_points(s, 1)) == (0, 1)
    s = act(s, "dock raiders 2 3 4", "steal card city p2")
    assert (victory_points(s, 0), victory_points(s, 1)) == (1, 0)


# ---- R-TECH-BOOST -------------------------------------------------------------------------


def test_R_TECH_BOOST_one_fuel_adds_one_to_an_undocked_ship() -> None:
    s = scenario(undocked="2 5", docks={"solar": "4"}, cards={0: ["booster"]}, fuel=1)
    assert uses(s, "booster") == {"use booster 2", "use booster 5"}
    refused(s, "use booster 4", "you have no undocked ship 4")
    s = act(s, "use booster 5")
    assert ship_values(s) == [2, 6]
    assert s.players[0].fuel == 0


def test_R_TECH_BOOST_needs_the_fuel() -> None:
    s = scenario(undocked="2", cards={0: ["booster"]}, fuel=0)
    refused(s, "use booster 2", "Booster Pod costs 1 fuel; you have 0")


def test_R_TECH_BOOST_use_can_be_undone() -> None:
    s = scenario(undocked="2", cards={0: ["booster"]}, fuel=1)
    g = Game(s.config)
    g.state = s
    g.apply("use booster 2")
    assert ship_values(g.state) == [3]
    assert str(g.undo()) == "use booster 2"
    assert g.state == s


# ---- R-TECH-CRYSTAL -----------------------------------------------------------------------


def test_R_TECH_CRYSTAL_costs_one_fuel_per_colony_of_any_colour() -> None:
    s = scenario(undocked="3", colonies={"lem": [0, 2, 1, 0]}, cards={0: ["crystal"]}, fuel=3)
    s = act(s, "use crystal lem")
    assert s.players[0].fuel == 0
    assert s.turn.borrowed == ["lem"]
    s = act(s, "dock solar 3")
    assert s.players[0].fuel == 2 + 1  # Lem Badlands as if controlled


def test_R_TECH_CRYSTAL_not_enough_fuel() -> None:
    s = scenario(undocked="3", colonies={"lem": [0, 2, 1, 0]}, cards={0: ["crystal"]}, fuel=2)
    refused(s, "use crystal lem", "Data Crystal costs 3 fuel; you have 2")


def test_R_TECH_CRYSTAL_not_empty_not_isolated_never_burroughs_not_a_bonus_you_have() -> None:
    s = scenario(
        undocked="3",
        colonies={
            "heinlein": [1, 0, 0, 0],
            "burroughs": [0, 1, 0, 0],
            "lem": [0, 1, 1, 0],
            "bradbury": [1, 1, 0, 0],
        },
        fields={"isolation": "lem"},
        cards={0: ["crystal"]},
        fuel=9,
    )
    refused(s, "use crystal asimov", "Asimov Crater has no colonies")
    refused(s, "use crystal lem", "Lem Badlands is under the Isolation Field")
    refused(s, "use crystal burroughs", "the Data Crystal cannot borrow Burroughs Desert's bonus")
    refused(s, "use crystal heinlein", "you already have the bonus of Heinlein Plains")
    assert uses(s, "crystal") == {"use crystal bradbury"}


def test_R_TECH_CRYSTAL_the_bonus_lasts_only_this_turn() -> None:
    s = scenario(players=2, undocked="3", colonies={"lem": [0, 1]}, cards={0: ["crystal"]}, fuel=1)
    s = act(s, "use crystal lem", "dock solar 3")
    assert s.players[0].fuel == 0 + 2 + 1
    s = opponent_turn(s, "roll 3 4 5")
    assert s.turn.borrowed == []
    fuel = s.players[0].fuel
    s = act(s, "dock solar 3")
    assert s.players[0].fuel == fuel + 2


def test_R_TECH_CRYSTAL_discard_places_then_moves_the_positron_field() -> None:
    s = scenario(undocked="3", cards={0: ["crystal"]})
    assert {f"discard crystal {t}" for t in TERRITORIES} <= discards(s)
    s = act(s, "discard crystal vanvogt")
    assert s.fields["positron"] == "vanvogt"
    assert s.discard[CARD_INDEX["crystal"]] == 1
    s2 = scenario(undocked="3", cards={1: ["crystal"]}, fields={"positron": "vanvogt"}, current=1)
    refused(s2, "discard crystal vanvogt", "the Positron Field is already on Van Vogt Mountains")
    assert act(s2, "discard crystal asimov").fields["positron"] == "asimov"


# ---- R-TECH-GRAV --------------------------------------------------------------------------


def test_R_TECH_GRAV_two_fuel_lowers_one_ship_and_raises_another() -> None:
    s = scenario(undocked="3 3", cards={0: ["gravity"]}, fuel=2)
    assert uses(s, "gravity") == {"use gravity down 3 up 3"}
    s = act(s, "use gravity down 3 up 3")
    assert ship_values(s) == [2, 4]
    assert s.players[0].fuel == 0


def test_R_TECH_GRAV_needs_two_different_ships_and_two_fuel() -> None:
    s = scenario(undocked="3", docks={"solar": "4"}, cards={0: ["gravity"]}, fuel=2)
    refused(
        s, "use gravity down 3 up 3", "the Gravity Manipulator needs two different undocked ships"
    )
    refused(
        s, "use gravity down 3 up 4", "the Gravity Manipulator needs two different undocked ships"
    )
    s = scenario(undocked="3 4", cards={0: ["gravity"]}, fuel=1)
    refused(s, "use gravity down 3 up 4", "Gravity Manipulator costs 2 fuel; you have 1")


def test_R_TECH_GRAV_discard_places_the_repulsor_field() -> None:
    s = scenario(cards={0: ["gravity"]})
    s = act(s, "discard gravity herbert")
    assert s.fields["repulsor"] == "herbert"
    assert s.players[0].cards == []


# ---- R-TECH-DECOY -------------------------------------------------------------------------


def test_R_TECH_DECOY_protects_resources_and_only_the_decoy_may_be_stolen() -> None:
    s = scenario(
        undocked="2 3 4",
        cards={1: ["decoy", "booster"], 2: ["stasis"]},
        fuel=[0, 3, 0, 0],
        ore=[0, 4, 1, 0],
        display=("city", "monument", "cache"),
    )
    s = act(s, "dock raiders 2 3 4")
    assert legal(s) == {"steal card decoy p2", "steal card stasis p3", "steal ore p3", "done"}
    refused(s, "steal ore p2", "P2's Holographic Decoy protects their resources")
    refused(s, "steal fuel p2", "P2's Holographic Decoy protects their resources")
    refused(s, "steal card booster p2", "P2 has a Holographic Decoy: you may only take the Decoy")
    s = act(s, "steal card decoy p2")
    assert s.players[0].cards == ["decoy"]
    assert s.players[1].cards == ["booster"]
    assert (s.players[1].fuel, s.players[1].ore) == (3, 4)


def test_R_TECH_DECOY_has_no_powers() -> None:
    s = scenario(undocked="3", cards={0: ["decoy"]}, fuel=9)
    assert not [a for a in legal(s) if "decoy" in a]


# ---- R-TECH-POLAR -------------------------------------------------------------------------


def test_R_TECH_POLAR_one_fuel_turns_a_ship_to_its_opposite_face() -> None:
    s = scenario(undocked="2 3 5", cards={0: ["polarity"]}, fuel=1)
    assert uses(s, "polarity") == {"use polarity 2", "use polarity 3", "use polarity 5"}
    s = act(s, "use polarity 2")
    assert ship_values(s) == [3, 5, 5]
    assert s.players[0].fuel == 0
    refused(s, "use polarity 3", "you already used Polarity Device this turn")


def test_R_TECH_POLAR_discard_swaps_two_colonies_of_different_players() -> None:
    s = scenario(colonies={"asimov": [2, 1, 0, 0], "lem": [0, 2, 0, 0]}, cards={0: ["polarity"]})
    assert (s.controller["asimov"], s.controller["lem"]) == (0, 1)
    s = act(s, "discard polarity p1 asimov p2 lem")
    assert s.colonies["asimov"] == (1, 2, 0, 0)
    assert s.colonies["lem"] == (1, 1, 0, 0)
    assert (s.controller["asimov"], s.controller["lem"]) == (1, None)
    assert (victory_points(s, 0), victory_points(s, 1)) == (2, 4)


def test_R_TECH_POLAR_swap_of_one_colour_is_not_offered() -> None:
    s = scenario(
        colonies={"asimov": [1, 0, 0, 0], "lem": [1, 0, 0, 0]}, cards={1: ["polarity"]}, current=1
    )
    assert not [a for a in legal(s) if a.startswith("discard polarity")]
    refused(s, "discard polarity p1 asimov p1 lem", "swap colonies of two different players")


def test_R_TECH_POLAR_each_swap_is_offered_once() -> None:
    # Project decision: one action per unordered pair, territories in board order.
    s = scenario(
        colonies={"asimov": [1, 0, 0, 0], "lem": [0, 1, 0, 0], "pohl": [0, 0, 1, 0]},
        cards={3: ["polarity"]},
        current=3,
    )
    assert {a for a in legal(s) if a.startswith("discard polarity")} == {
        "discard polarity p1 asimov p2 lem",
        "discard polarity p1 asimov p3 pohl",
        "discard polarity p2 lem p3 pohl",
    }


def test_R_TECH_POLAR_swap_needs_a_colony_on_each_side() -> None:
    s = scenario(colonies={"asimov": [1, 0, 0, 0], "lem": [0, 1, 0, 0]}, cards={0: ["polarity"]})
    refused(s, "discard polarity p1 asimov p3 lem", "P3 has no colony on Lem Badlands")
    refused(s, "discard polarity p1 asimov p2 asimov", "choose two different territories")


# ---- R-TECH-CACHE -------------------------------------------------------------------------


def _cache_roll(roll: str, ships: int = 3) -> GameState:
    """P1 ends the turn; P2, who holds the Resource Cache (and a Stasis Beam), rolls."""
    s = scenario(players=2, cards={1: ["cache", "stasis"]}, stock={1: 6 - ships})
    s = act(s, "end")
    assert s.pending == [RollDecision(ships, False)]
    return act(s, roll)


def test_R_TECH_CACHE_more_odd_ships_pay_one_ore() -> None:
    s = _cache_roll("roll 1 3 4")
    assert (s.players[1].fuel, s.players[1].ore) == (0, 1)
    assert "cache" in s.players[1].cards


def test_R_TECH_CACHE_more_even_ships_pay_one_fuel() -> None:
    s = _cache_roll("roll 2 4 5")
    assert (s.players[1].fuel, s.players[1].ore) == (1, 0)
    assert "cache" in s.players[1].cards


def test_R_TECH_CACHE_equal_pays_both_and_discards_the_card() -> None:
    s = _cache_roll("roll 1 2 3 4", ships=4)
    assert (s.players[1].fuel, s.players[1].ore) == (1, 1)
    assert s.players[1].cards == ["stasis"]
    assert s.discard[CARD_INDEX["cache"]] == 1


def test_R_TECH_CACHE_its_own_discard_does_not_use_up_the_turns_discard() -> None:
    # Ambiguity (reported): the forced discard of the Cache is not "discarding a card" for its
    # power, so the player may still discard one card this turn.
    s = _cache_roll("roll 1 2 3 4", ships=4)
    assert not s.turn.discarded
    assert "discard stasis lem" in legal(s)


def test_R_TECH_CACHE_is_paid_before_any_card_can_be_used() -> None:
    s = scenario(players=2, cards={1: ["cache", "booster"]})
    s = act(s, "end")
    refused(s, "use booster 2", "the ships must be rolled first")
    s = act(s, "roll 2 2 4")
    assert s.players[1].fuel == 1
    s = act(s, "use booster 4")  # paid with the Cache's fuel
    assert ship_values(s) == [2, 2, 5]


def test_R_TECH_CACHE_pays_nothing_on_the_turn_it_is_gained() -> None:
    s = scenario(players=2, undocked="3 6", display=("cache", "city", "booster"))
    s = act(s, "dock artifact 3", "dock artifact 6", "claim cache", "reveal plasma")
    assert (s.players[0].fuel, s.players[0].ore) == (0, 0)
    s = opponent_turn(s, "roll 2 4 6")
    assert (s.players[0].fuel, s.players[0].ore) == (1, 0)


def test_R_TECH_CACHE_dealt_at_setup_pays_on_the_first_turn() -> None:
    # Project decision D15: only a card gained during a turn waits for the next roll.
    s = new_game(GameConfig(players=2))
    for card in ("city", "monument", "decoy", "cache", "booster"):
        s = act(s, f"reveal {card}")
    s = act(s, "first p1")
    assert s.players[0].cards == ["cache"]
    s = act(s, "roll 1 3 6")
    assert (s.players[0].fuel, s.players[0].ore) == (0, 1)


def test_R_TECH_CACHE_is_not_paid_again_after_a_reroll() -> None:
    s = scenario(players=2, cards={1: ["cache", "warper"]})
    s = act(s, "end", "roll 2 4 5")
    assert (s.players[1].fuel, s.players[1].ore) == (1, 0)
    s = act(s, "use warper 2 4", "roll 1 3")
    assert (s.players[1].fuel, s.players[1].ore) == (0, 0)
    assert "cache" in s.players[1].cards


# ---- R-TECH-STASIS ------------------------------------------------------------------------


def test_R_TECH_STASIS_one_fuel_lowers_an_undocked_ship() -> None:
    s = scenario(undocked="4 6", cards={0: ["stasis"]}, fuel=1)
    assert uses(s, "stasis") == {"use stasis 4", "use stasis 6"}
    s = act(s, "use stasis 6")
    assert ship_values(s) == [4, 5]
    assert s.players[0].fuel == 0


def test_R_TECH_STASIS_discard_places_then_moves_the_isolation_field() -> None:
    s = scenario(cards={0: ["stasis"]})
    assert act(s, "discard stasis asimov").fields["isolation"] == "asimov"
    s = scenario(cards={0: ["stasis"]}, fields={"isolation": "asimov"})
    refused(s, "discard stasis asimov", "the Isolation Field is already on Asimov Crater")
    assert act(s, "discard stasis bradbury").fields["isolation"] == "bradbury"


# ---- R-TECH-WARP --------------------------------------------------------------------------


def test_R_TECH_WARP_rerolls_the_chosen_undocked_ships() -> None:
    s = scenario(undocked="1 2 5", docks={"solar": "3"}, cards={0: ["warper"]}, fuel=1)
    assert "use warper 1 2" in legal(s) and "use warper 1 2 5" in legal(s)
    refused(s, "use warper 3", "you have no undocked ship 3")
    s = act(s, "use warper 1 2")
    assert s.players[0].fuel == 0
    assert s.pending == [RollDecision(2, False, reroll=True)]
    assert ship_values(s) == [5]
    refused(s, "dock solar 5", "the ships must be rolled first")
    refused(s, "roll 4 4 4", "the roll must have 2 coloured dice and 0 relic die")
    s = act(s, "roll 4 6")
    assert ship_values(s) == [4, 5, 6]
    assert not s.pending
    refused(s, "use warper 4", "you already used Temporal Warper this turn")


def test_R_TECH_WARP_rerolls_the_relic_ship_as_the_relic_ship() -> None:
    s = scenario(undocked="2 3r", cards={0: ["warper"]}, fuel=1)
    s = act(s, "use warper 2 3r")
    assert s.pending == [RollDecision(1, True, reroll=True)]
    s = act(s, "roll 5 6r")
    assert sorted((x.value, x.relic) for x in s.undocked) == [(5, False), (6, True)]


def test_R_TECH_WARP_reroll_cannot_be_taken_back() -> None:
    s = scenario(undocked="1 2", cards={0: ["warper"]}, fuel=1)
    g = Game(s.config)
    g.state = s
    g.apply("use warper 1")
    assert not g.can_undo()
    g.apply("roll 6")
    assert not g.can_undo()
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        g.undo()


def test_R_TECH_WARP_discard_takes_a_card_from_the_discard_pile() -> None:
    s = scenario(undocked="3", cards={0: ["warper", "booster"]}, fuel=1)
    for card in ("city", "booster", "plasma"):
        s.discard[CARD_INDEX[card]] += 1
        s.deck[CARD_INDEX[card]] -= 1
    takes = {a for a in discards(s) if a.startswith("discard warper")}
    assert takes == {"discard warper city", "discard warper plasma"}
    refused(s, "discard warper booster", "you already own Booster Pod")
    refused(s, "discard warper monument", "Alien Monument is not in the discard pile")
    s = act(s, "discard warper plasma")
    assert sorted(s.players[0].cards) == ["booster", "plasma"]
    assert s.discard[CARD_INDEX["plasma"]] == 0
    assert s.discard[CARD_INDEX["warper"]] == 1
    assert not discards(s)  # the turn's discard is spent


def test_R_TECH_WARP_card_taken_from_the_discard_pile_is_usable_the_same_turn() -> None:
    s = scenario(undocked="3", cards={0: ["warper"]}, fuel=1)
    s.discard[CARD_INDEX["stasis"]] += 1
    s.deck[CARD_INDEX["stasis"]] -= 1
    s = act(s, "discard warper stasis", "use stasis 3")
    assert ship_values(s) == [2]

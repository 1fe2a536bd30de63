"""Setup (R-SETUP-1..6), the turn (R-TURN-1..7), resources (R-RES-1..4), the Maintenance
Bay (R-BAY) and the end of the game (R-END-1..3)."""

from __future__ import annotations

from typing import Any

import pytest

from engine import (
    GameConfig,
    IllegalActionError,
    InvalidNotationError,
    apply,
    chance_outcomes,
    outcome,
    parse,
)
from engine.actions import FirstPlayer, Reveal
from engine.game import Game
from engine.scoring import victory_points
from engine.setup import new_game
from engine.state import NEUTRAL, GameState, ReturnExcessDecision, RollDecision, Ship
from engine.tables import TERRITORIES, CardId, FacilityId
from engine.views import view
from tests.engine.scenario import act, legal, refused, scenario, with_relic

SETUP_CARDS: tuple[CardId, ...] = (
    "city",
    "monument",
    "decoy",
    "plasma",
    "booster",
    "crystal",
    "stasis",
)


def set_up(players: int, first: int, **config: Any) -> GameState:
    """A new game with its setup's chance decisions applied: the first player is to roll."""
    s = new_game(GameConfig(players=players, **config))
    for card in SETUP_CARDS[: 3 + players]:
        s = apply(s, Reveal(card))
    return apply(s, FirstPlayer(first))


def crowded(**kw: Any) -> GameState:
    """P1 to act; every single-ship facility is full and P1's colony waits on space 7."""
    docks = {
        "solar": "p2:1 p2:1 p2:1 p2:1 p2:1 p2:1 p3:1 p3:1",
        "mine": "p3:6 p3:6 p3:6 p3:6 p4:6",
        "artifact": "p4:1 p4:1 p4:1 p4:1",
        **kw.pop("docks", {}),
    }
    return scenario(docks=docks, hub={0: 7}, **kw)


# ---- R-SETUP ----------------------------------------------------------------------------


def test_R_SETUP_1_relic_on_burroughs_tokens_on_territories_fields_off_board() -> None:
    for players in (2, 3, 4):
        s = new_game(GameConfig(players=players))
        assert s.relic_on_desert
        assert all(s.controller[t] is None for t in TERRITORIES)
        assert all(sum(s.colonies[t]) == 0 for t in TERRITORIES)
        assert s.fields == {"isolation": None, "positron": None, "repulsor": None}
        assert view(s).territories[TERRITORIES.index("burroughs")].relic_here


def test_R_SETUP_2_three_display_cards_then_one_card_dealt_to_each_player() -> None:
    s = new_game(GameConfig(players=3))
    assert sum(s.deck) == 22
    s = act(s, "reveal city", "reveal monument", "reveal decoy")
    assert s.display == ["city", "monument", "decoy"]
    assert all(pl.cards == [] for pl in s.players)
    s = act(s, "reveal plasma", "reveal plasma", "reveal booster")
    assert [pl.cards for pl in s.players] == [["plasma"], ["plasma"], ["booster"]]
    assert sum(s.deck) == 22 - 3 - 3
    assert [type(d).__name__ for d in s.pending] == ["FirstPlayerDecision"]


def test_R_SETUP_2_a_card_must_come_from_the_deck() -> None:
    s = new_game(GameConfig(players=2))
    s = apply(s, Reveal("city"))
    with pytest.raises(IllegalActionError, match="no Alien City is left in the deck"):
        apply(s, Reveal("city"))
    outcomes = {str(a): p for a, p in chance_outcomes(s)}
    assert "reveal city" not in outcomes
    assert outcomes["reveal plasma"] == pytest.approx(2 / 21)


def test_R_SETUP_2_mind_control_helm_option_makes_a_24_card_deck() -> None:
    assert sum(new_game(GameConfig(players=4)).deck) == 22
    assert sum(new_game(GameConfig(players=4, mind_control_helm=True)).deck) == 24


@pytest.mark.parametrize(
    ("players", "long_game", "colonies"),
    [(4, False, 6), (3, False, 7), (2, False, 8), (4, True, 8), (3, True, 8), (2, True, 8)],
)
def test_R_SETUP_3_colonies_per_player(players: int, long_game: bool, colonies: int) -> None:
    s = new_game(GameConfig(players=players, long_game=long_game))
    assert [pl.colonies for pl in s.players] == [colonies] * players
    assert all(pl.hub == 0 for pl in s.players)


def test_R_SETUP_3_two_to_four_players_only() -> None:
    with pytest.raises(ValueError, match="players must be 2, 3 or 4"):
        GameConfig(players=5)


def test_R_SETUP_4_three_ships_in_the_bay_three_in_the_stock() -> None:
    s = new_game(GameConfig(players=4))
    for p, pl in enumerate(s.players):
        assert pl.bay == [Ship(p, 1)] * 3
        assert pl.stock == 3
    s = set_up(4, first=1)
    assert s.pending == [RollDecision(3, False)]
    s = act(s, "roll 2 4 6")
    assert s.undocked == [Ship(1, 2), Ship(1, 4), Ship(1, 6)]
    assert s.players[1].bay == []


@pytest.mark.parametrize(
    ("players", "first", "expected"),
    [
        (4, 0, [(0, 0), (1, 0), (0, 1), (1, 1)]),
        (4, 2, [(0, 1), (1, 1), (0, 0), (1, 0)]),
        (3, 1, [(0, 1), (0, 0), (1, 0)]),
        (2, 1, [(1, 0), (0, 0)]),
    ],
)
def test_R_SETUP_5_starting_compensation_follows_the_first_player(
    players: int, first: int, expected: list[tuple[int, int]]
) -> None:
    s = set_up(players, first)
    assert [(pl.fuel, pl.ore) for pl in s.players] == expected
    assert s.current == first and s.first_player == first


def test_R_SETUP_5_first_player_is_random_and_play_goes_in_seat_order() -> None:
    s = new_game(GameConfig(players=3))
    for card in SETUP_CARDS[:6]:
        s = apply(s, Reveal(card))
    outcomes = chance_outcomes(s)
    assert [a for a, _ in outcomes] == [FirstPlayer(0), FirstPlayer(1), FirstPlayer(2)]
    assert [p for _, p in outcomes] == pytest.approx([1 / 3] * 3)
    s = apply(s, FirstPlayer(1))
    seats = []
    for _ in range(4):
        seats.append(s.current)
        s = act(s, "roll 1 2 3", "dock hub 1 2 3", "end")
    assert seats == [1, 2, 0, 1]
    assert [(pl.fuel, pl.ore) for pl in s.players] == [(0, 1), (0, 0), (1, 0)]  # only once
    assert s.players[1].hub == 6  # the same colony moved again on P2's second turn


@pytest.mark.parametrize(
    ("players", "blocked"),
    [
        (4, {}),
        (3, {"solar": 1, "mine": 1, "market": 2, "yard": 2}),
        (2, {"solar": 1, "mine": 2, "market": 2, "constructor": 3, "yard": 4}),
    ],
)
def test_R_SETUP_6_blocked_docks(players: int, blocked: dict[str, int]) -> None:
    s = new_game(GameConfig(players=players))
    for facility, slots in s.docks.items():
        neutral = [x for x in slots if x is not None]
        assert neutral == [Ship(NEUTRAL, 1)] * blocked.get(facility, 0), facility


def test_R_SETUP_6_two_players_one_market_pair_one_constructor_triple_one_yard_pair() -> None:
    s = scenario(players=2, undocked="2 2 4 4", fuel=5, ore=5)
    s = act(s, "dock market 2 2")
    refused(s, "dock market 4 4", "the Orbital Market has no free docks for them")
    s = act(s, "dock yard 4 4")
    s = scenario(players=2, undocked="3 3 3 5 5 5", ore=6)
    s = act(s, "dock constructor 3 3 3", "place lem")
    refused(s, "dock constructor 5 5 5", "the Colony Constructor has no free docks for them")


def test_R_SETUP_6_blockers_never_move_and_a_1_at_the_mine_blocks_nothing() -> None:
    s = scenario(players=2, undocked="1 1 1")
    s = act(s, "dock mine 1", "dock mine 1", "dock mine 1")  # the mine's neutral 1s allow a 1
    assert s.players[0].ore == 3
    s = act(s, "end", "roll 3 4 5", "dock solar 3", "dock solar 4", "dock solar 5", "end")
    assert s.current == 0
    blocked: dict[FacilityId, int] = {
        "solar": 1,
        "mine": 2,
        "market": 2,
        "constructor": 3,
        "yard": 4,
    }
    for facility, count in blocked.items():
        assert s.docks[facility].count(Ship(NEUTRAL, 1)) == count  # not gathered by anyone
    assert s.pending == [RollDecision(3, False)]


def test_R_SETUP_6_neutral_ships_are_no_target_for_the_plasma_cannon() -> None:
    s = scenario(players=3, undocked="2", docks={"solar": "p2:3"}, cards={0: ["plasma"]}, fuel=3)
    shots = {a for a in legal(s) if a.startswith(("use plasma", "discard plasma"))}
    assert shots == {"use plasma solar p2:3"}
    with pytest.raises(IllegalActionError, match="no such opponent's ship at the Lunar Mine"):
        act(s, "use plasma mine p0:1")


# ---- R-TURN -----------------------------------------------------------------------------


def test_R_TURN_1_gather_every_ship_and_roll_them() -> None:
    s = scenario(
        current=3,
        docks={"solar": "p1:3 p2:5", "mine": "p1:5", "hub": "p1:2 p1:4", "terraform": "p1:6"},
        bay={0: "4"},
        hub={0: 2},
    )
    assert s.players[0].stock == 0
    s = act(s, "end")
    assert s.current == 0
    assert s.pending == [RollDecision(5, False)]  # 6 ships less the one used up
    assert s.players[0].stock == 1  # the Terraforming Station's ship went to the stock
    assert s.docks["solar"][:2] == (None, Ship(1, 5))  # opponents' ships stay
    assert s.docks["mine"][0] is None and s.docks["terraform"] == (None,)
    assert s.hub_docks[0] == [] and s.players[0].hub == 2  # the colony stays on its space
    assert s.players[0].bay == []
    s = act(s, "roll 1 2 3 4 6")
    assert [x.value for x in s.undocked] == [1, 2, 3, 4, 6]


def test_R_TURN_1_the_roll_must_match_the_gathered_ships() -> None:
    s = with_relic(scenario(current=3, colonies={"burroughs": [1, 0, 0, 0]}), 0, "bay")
    s = act(s, "end")
    assert s.pending == [RollDecision(3, True)]
    with pytest.raises(IllegalActionError, match="3 coloured dice and 1 relic die"):
        act(s, "roll 1 2 3")
    s = act(s, "roll 1 2 3 5r")
    assert Ship(0, 5, relic=True) in s.undocked


def test_R_TURN_1_relic_used_up_at_the_terraforming_station_returns_to_burroughs() -> None:
    s = scenario(current=3, colonies={"burroughs": [1, 0, 0, 0]})
    s = with_relic(s, 0, "terraform", value=6)
    s = act(s, "end")
    assert s.relic_on_desert and s.pending == [RollDecision(3, False)]
    assert s.players[0].stock == 3


def test_R_TURN_1_a_ship_moved_by_the_mind_control_helm_is_gathered_by_its_owner() -> None:
    s = scenario(
        current=1, docks={"solar": "p1:3"}, cards={1: ["helm"]}, fuel=3, mind_control_helm=True
    )
    s = act(s, "use helm solar p1:3 to hub")
    assert s.hub_docks[1] == [Ship(0, 3)] and s.players[1].hub == 1
    s = act(s, "end", "roll 1 1 1", "dock hub 1 1 1", "end", "roll 2 2 2", "dock hub 2 2 2", "end")
    assert s.current == 0 and s.pending == [RollDecision(3, False)]
    assert s.hub_docks[1] == [] and s.players[1].hub == 1  # P2's colony stays on its space


def test_R_TURN_2_resource_cache_pays_right_after_the_roll() -> None:
    s = scenario(current=3, cards={0: ["cache"]})
    s = act(s, "end", "roll 2 4 5")
    assert (s.players[0].fuel, s.players[0].ore) == (1, 0)  # more even ships: 1 fuel
    assert s.pending == []


def test_R_TURN_3_dock_trade_and_launch_in_any_order() -> None:
    s = scenario(undocked="3 3 6 2", fuel=3, ore=1, hub={0: 7})
    s = act(s, "dock market 3 3", "trade")
    assert (s.players[0].fuel, s.players[0].ore) == (0, 2)
    s = act(s, "dock solar 6", "trade")  # 3 fuel more, traded at once
    assert (s.players[0].fuel, s.players[0].ore) == (0, 3)
    refused(s, "launch", "launching costs 1 fuel and 1 ore")
    s = act(s, "dock solar 2", "launch", "place pohl")
    assert s.colonies["pohl"][0] == 1 and s.players[0].hub == 0


def test_R_TURN_3_only_the_current_player_acts_and_only_with_their_own_ships() -> None:
    s = scenario(undocked="3 4")
    with pytest.raises(IllegalActionError, match="it is not your turn: P1 must act"):
        apply(s, parse("dock solar 3"), player=1)
    refused(s, "dock solar 5", "you have no undocked ships 5; your undocked ships are 3, 4")
    refused(s, "roll 1 2 3", "there is no decision to answer now")
    s = act(s, "dock solar 3", "dock solar 4", "end")
    with pytest.raises(IllegalActionError, match="the dice or the deck must decide first"):
        apply(s, parse("end"), player=1)


def test_R_TURN_4_cannot_end_while_a_ship_can_dock() -> None:
    s = scenario(undocked="3 5")
    assert "end" not in legal(s)
    refused(s, "end", "you must dock your ships while you can (for example `dock solar 3`)")


def test_R_TURN_4_ships_that_cannot_dock_go_to_the_maintenance_bay() -> None:
    s = crowded(undocked="1 3")
    assert legal(s) == {"end"}
    assert s.players[0].bay == [Ship(0, 1)]  # the third ship was already there
    s = act(s, "end")
    assert s.players[0].bay == [Ship(0, 1), Ship(0, 1), Ship(0, 3)]
    assert s.undocked == [] and s.current == 1


def test_R_TURN_4_only_with_the_resources_you_have_now() -> None:
    s = crowded(undocked="6", fuel=1, ore=1, stock={0: 2})
    assert legal(s) == {"dock terraform 6", "launch"}
    refused(s, "end", "you must dock your ships while you can (for example `dock terraform 6`)")
    s = crowded(undocked="6", fuel=1, ore=0, stock={0: 2})
    assert legal(s) == {"end"}


def test_R_TURN_5_facility_needs_free_docks_values_and_immediate_payment() -> None:
    s = scenario(undocked="5 5 4 4", fuel=1, ore=1)
    refused(s, "dock yard 5 5", "your next ship costs 2 fuel and 2 ore")  # the 5th ship
    s = scenario(undocked="5 5 4 4", fuel=2, ore=2, docks={"yard": "p2:3 p2:3 p2:2 p2:2 p3:1 p3:1"})
    refused(s, "dock yard 5 5", "the Shipyard has no free docks for them")
    refused(s, "dock yard 4 5", "the Shipyard needs a pair of equal values")


def test_R_TURN_6_benefits_at_once_and_payments_go_to_the_supply() -> None:
    s = scenario(undocked="4 4 5", fuel=(1, 0, 0, 0), ore=(1, 0, 0, 0), finite_supply=True)
    assert s.supply == [29, 19]
    s = act(s, "dock yard 4 4")
    assert s.supply == [30, 20] and (s.players[0].fuel, s.players[0].ore) == (0, 0)
    assert s.players[0].bay == [Ship(0, 1)] and s.players[0].stock == 2
    s = act(s, "dock solar 5")
    assert s.players[0].fuel == 3 and s.supply == [27, 20]


def test_R_TURN_6_a_bonus_gained_mid_turn_works_at_once() -> None:
    s = scenario(undocked="6 6 6", fuel=9, ore=1, stock={0: 2})
    s = act(s, "dock market 6 6", "trade")
    assert (s.players[0].fuel, s.players[0].ore) == (3, 2)
    s = act(s, "dock terraform 6", "place heinlein")  # now P1 controls Heinlein Plains
    s = act(s, "trade", "trade")
    assert (s.players[0].fuel, s.players[0].ore) == (0, 3)
    s = scenario(undocked="5 6 6", fuel=1, ore=1, stock={0: 2})
    s = act(s, "dock solar 5", "dock terraform 6", "place lem", "dock solar 6")
    assert s.players[0].fuel == 1 + 3 - 1 + 3 + 1  # Lem Badlands from the very next ship


def test_R_TURN_7_return_the_excess_over_8_choosing_which() -> None:
    s = scenario(docks={"mine": "p1:4"}, fuel=7, ore=3)
    s = act(s, "end")
    assert s.pending == [ReturnExcessDecision(0, 2)]
    assert legal(s) == {"return 2 fuel 0 ore", "return 1 fuel 1 ore", "return 0 fuel 2 ore"}
    refused(s, "return 3 fuel 0 ore", "return exactly 2 resources")
    refused(s, "dock solar 3", "first choose what to return to the supply")
    s = act(s, "return 1 fuel 1 ore")
    assert (s.players[0].fuel, s.players[0].ore) == (6, 2)
    assert s.current == 1 and s.pending == [RollDecision(3, False)]
    assert s.docks["mine"][0] == Ship(0, 4)  # docked ships stay until P1's next turn


def test_R_TURN_7_cannot_return_what_you_do_not_hold() -> None:
    s = act(scenario(fuel=9, ore=0), "end")
    assert legal(s) == {"return 1 fuel 0 ore"}
    refused(s, "return 0 fuel 1 ore", "you have 9 fuel and 0 ore")


def test_R_TURN_7_eight_or_fewer_keeps_everything() -> None:
    s = act(scenario(fuel=5, ore=3), "end")
    assert (s.players[0].fuel, s.players[0].ore) == (5, 3)
    assert s.current == 1


def test_R_TURN_undo_within_the_turn_but_not_across_the_roll_or_its_end() -> None:
    s = scenario(current=3, fuel=2)
    g = Game(s.config)
    g.state = act(s, "end")
    g.apply("roll 2 2 5")
    assert not g.can_undo()
    before = g.state
    g.apply("dock market 2 2")
    g.apply("dock solar 5")
    assert str(g.undo()) == "dock solar 5"
    assert str(g.undo()) == "dock market 2 2"
    assert g.state == before
    g.apply("dock solar 2")
    g.apply("dock solar 2")
    g.apply("dock solar 5")
    g.apply("end")
    assert not g.can_undo()
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        g.undo()


# ---- R-RES ------------------------------------------------------------------------------


def test_R_RES_1_every_players_resources_are_public() -> None:
    s = scenario(fuel=(1, 2, 3, 4), ore=(5, 6, 7, 0))
    v = view(s)
    assert [(p.fuel, p.ore) for p in v.players] == [(1, 5), (2, 6), (3, 7), (4, 0)]


def test_R_RES_2_gains_come_from_the_supply_costs_go_back() -> None:
    s = set_up(4, first=0, finite_supply=True)
    assert s.supply == [28, 18]  # the starting compensation came from the supply
    s = act(s, "roll 3 3 6", "dock mine 3", "dock mine 3", "dock mine 6")
    assert s.supply == [28, 15] and s.players[0].ore == 3
    s = scenario(
        undocked="6", fuel=(1, 0, 0, 0), ore=(1, 0, 0, 0), stock={0: 2}, finite_supply=True
    )
    s = act(s, "dock terraform 6")
    assert s.supply == [30, 20]


def test_R_RES_3_more_than_8_is_fine_during_the_turn() -> None:
    s = scenario(undocked="6 6 5", fuel=8, ore=0)
    s = act(s, "dock solar 6", "dock solar 6", "dock solar 5")
    assert s.players[0].fuel == 17 and s.pending == []
    s = act(s, "end")
    assert s.pending == [ReturnExcessDecision(0, 9)]


def test_R_RES_4_supply_is_unlimited_by_default() -> None:
    s = scenario(undocked="6 6", fuel=(29, 0, 0, 0), ore=(20, 0, 0, 0))
    assert s.supply is None
    s = act(s, "dock solar 6", "dock mine 6")
    assert (s.players[0].fuel, s.players[0].ore) == (32, 21)


def test_R_RES_4_finite_supply_gives_only_what_is_left() -> None:
    s = scenario(
        undocked="6 4 4", fuel=(29, 0, 0, 0), ore=(0, 20, 0, 0), finite_supply=True, supply=(1, 0)
    )
    s = act(s, "dock solar 6")
    assert s.players[0].fuel == 30 and s.supply == [0, 0]
    s = act(s, "dock market 4 4")
    refused(s, "trade", "the supply has no ore left")
    s = act(s, "end", "return 22 fuel 0 ore")
    assert s.supply == [22, 0]  # what is returned goes back to the supply


def test_R_RES_4_finite_supply_is_the_box_30_fuel_20_ore() -> None:
    assert new_game(GameConfig(finite_supply=True)).supply == [30, 20]
    assert new_game(GameConfig()).supply is None


# ---- R-BAY ------------------------------------------------------------------------------


def test_R_BAY_holds_built_ships_and_displaced_ships_until_the_next_turn() -> None:
    s = scenario(undocked="3 3 4 5 6", docks={"raiders": "p2:1 p2:2 p2:3"}, fuel=3, ore=3)
    s = act(s, "dock yard 3 3", "dock raiders 4 5 6", "done")
    assert s.players[0].bay == [Ship(0, 1)]
    assert sorted(x.value for x in s.players[1].bay) == [1, 2, 3]
    s = act(s, "end")
    assert s.pending == [RollDecision(3, False)]  # P2 gathers the three displaced ships


def test_R_BAY_no_alien_tech_takes_a_ship_out_of_the_bay() -> None:
    s = scenario(
        undocked="3",
        docks={"solar": "p1:4 p3:2"},
        bay={1: "6 6 6"},
        cards={0: ["plasma", "teleporter"]},
        fuel=5,
    )
    moves = [a for a in legal(s) if a.startswith(("use plasma", "discard plasma", "use tele"))]
    assert "use plasma solar p3:2" in moves and "use teleporter solar 4 to mine" in moves
    assert not any("p2:" in a for a in moves)
    with pytest.raises(InvalidNotationError, match="expected a facility"):
        act(s, "use plasma bay p2:6")


# ---- R-END ------------------------------------------------------------------------------


def test_R_END_1_victory_points_are_a_live_snapshot() -> None:
    s = scenario(
        undocked="6",
        fuel=1,
        ore=1,
        colonies={"lem": [1, 1, 0, 0], "herbert": [1, 0, 0, 0]},
        stock={0: 2},
        cards={0: ["city", "monument"]},
        fields={"positron": "lem"},
        display=("decoy", "plasma", "booster"),
    )
    assert victory_points(s, 0) == 2 + 1 + 2  # colonies, Herbert, the two cards
    s = act(s, "dock terraform 6", "place lem")
    assert victory_points(s, 0) == 3 + 2 + 2 + 1  # ... and Lem with the Positron Field
    assert victory_points(s, 1) == 1
    assert view(s).players[0].vp == 8


def test_R_END_2_the_game_ends_at_once_with_the_last_colony() -> None:
    s = scenario(undocked="6 3 3", fuel=1, ore=1, colonies={"lem": [5, 0, 0, 0]}, stock={0: 2})
    s = act(s, "dock terraform 6")
    assert not s.over
    s = act(s, "place vanvogt")
    assert s.over and s.pending == [] and legal(s) == set()
    assert [x.value for x in s.undocked] == [3, 3]  # the rest of the turn is not played
    with pytest.raises(IllegalActionError, match="the game is over"):
        act(s, "dock solar 3")
    result = outcome(s)
    assert result is not None and result.winners == (0,)


def test_R_END_2_a_colony_left_on_the_hub_keeps_the_game_going() -> None:
    s = scenario(
        undocked="6", fuel=1, ore=1, colonies={"lem": [4, 0, 0, 0]}, hub={0: 2}, stock={0: 2}
    )
    s = act(s, "dock terraform 6", "place lem")
    assert not s.over and s.players[0].colonies == 0 and s.players[0].hub == 2


def _finished(**kw: Any) -> GameState:
    s = scenario(**kw)
    s.over = True
    return s


def test_R_END_3_most_victory_points_win() -> None:
    s = _finished(colonies={"lem": [2, 1, 0, 0]}, cards={1: ["plasma", "booster"]})
    result = outcome(s)
    assert result is not None
    assert result.winners == (0,) and result.scores == (3, 1, 0, 0) and result.tiebreak is None


@pytest.mark.parametrize(
    ("kw", "winners", "tiebreak"),
    [
        ({"cards": {1: ["plasma"]}, "ore": (5, 0, 0, 0)}, (1,), "cards"),
        ({"cards": {0: ["plasma"], 1: ["booster"]}, "ore": (1, 2, 0, 0)}, (1,), "ore"),
        ({"ore": (2, 2, 9, 0), "fuel": (3, 1, 0, 0)}, (0,), "fuel"),
        ({"ore": (2, 2, 0, 0), "fuel": (1, 1, 5, 5)}, (0, 1), "shared"),
    ],
)
def test_R_END_3_ties_break_on_cards_then_ore_then_fuel(
    kw: dict[str, Any], winners: tuple[int, ...], tiebreak: str
) -> None:
    s = _finished(colonies={"lem": [1, 0, 0, 0], "pohl": [0, 1, 0, 0]}, **kw)
    result = outcome(s)
    assert result is not None
    assert result.scores[:2] == (2, 2)
    assert result.winners == winners and result.tiebreak == tiebreak


def test_R_END_3_no_outcome_while_the_game_goes_on() -> None:
    assert outcome(scenario()) is None

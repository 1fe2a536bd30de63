"""Field generators (section 7): Isolation (R-FIELD-ISO), Positron (R-FIELD-POS) and
Repulsor (R-FIELD-REP), placed and moved by discarding Stasis Beam, Data Crystal and Gravity
Manipulator, removed by discarding Booster Pod (R-TECH-BOOST)."""

from __future__ import annotations

from typing import Any

import pytest

from engine import victory_points
from engine.game import Game
from engine.invariants import problems
from engine.state import GameState, Ship
from engine.tables import TERRITORIES, CardId, FieldId, TerritoryId
from tests.engine.scenario import act, legal, refused, scenario, with_relic


def opponent_turn(s: GameState, roll: str) -> GameState:
    """Two players: the current player ends; the other rolls ``roll``."""
    return act(s, "end", roll)


# ---- placing, moving and removing generators ------------------------------------------------


@pytest.mark.parametrize(
    ("card", "field"), [("stasis", "isolation"), ("crystal", "positron"), ("gravity", "repulsor")]
)
def test_R_FIELD_first_discard_places_the_generator_anywhere_later_ones_move_it(
    card: CardId, field: FieldId
) -> None:
    s = scenario(cards={0: [card]})
    assert {a for a in legal(s) if a.startswith("discard")} == {
        f"discard {card} {t}" for t in TERRITORIES
    }
    assert act(s, f"discard {card} heinlein").fields[field] == "heinlein"
    s = scenario(cards={0: [card]}, fields={field: "heinlein"})
    assert f"discard {card} heinlein" not in legal(s)
    name = {"isolation": "Isolation", "positron": "Positron", "repulsor": "Repulsor"}[field]
    refused(s, f"discard {card} heinlein", f"the {name} Field is already on Heinlein Plains")
    s = act(s, f"discard {card} herbert")
    assert s.fields[field] == "herbert"


def test_R_TECH_BOOST_discard_removes_one_field_generator() -> None:
    s = scenario(cards={0: ["booster"]}, fields={"isolation": "lem", "repulsor": "pohl"})
    assert {a for a in legal(s) if a.startswith("discard")} == {
        "discard booster isolation",
        "discard booster repulsor",
    }
    refused(s, "discard booster positron", "the Positron Field is not on the board")
    s = act(s, "discard booster repulsor")
    assert s.fields == {"isolation": "lem", "positron": None, "repulsor": None}


def test_R_TECH_BOOST_nothing_to_remove_no_discard() -> None:
    s = scenario(cards={0: ["booster"]})
    assert not [a for a in legal(s) if a.startswith("discard")]


def test_R_TECH_BOOST_a_removed_generator_can_be_placed_again_later() -> None:
    s = scenario(players=2, cards={0: ["booster"], 1: ["stasis"]}, fields={"isolation": "lem"})
    s = act(s, "discard booster isolation")
    assert s.fields["isolation"] is None
    s = opponent_turn(s, "roll 1 1 1")
    assert "discard stasis lem" in legal(s)
    s = act(s, "discard stasis lem")
    assert s.fields["isolation"] == "lem"


def test_R_FIELD_discard_can_be_undone() -> None:
    s = scenario(cards={0: ["stasis"]}, fields={"isolation": "lem"})
    g = Game(s.config)
    g.state = s
    g.apply("discard stasis pohl")
    assert g.state.fields["isolation"] == "pohl"
    g.undo()
    assert g.state == s


# ---- R-FIELD-ISO --------------------------------------------------------------------------


def test_R_FIELD_ISO_voids_the_controllers_bonus_but_not_control() -> None:
    kw: dict[str, Any] = {"undocked": "3", "colonies": {"lem": [1, 0, 0, 0]}}
    s = act(scenario(**kw), "dock solar 3")
    assert s.players[0].fuel == 2 + 1
    s = scenario(fields={"isolation": "lem"}, **kw)
    assert s.controller["lem"] == 0
    assert victory_points(s, 0) == 2
    s = act(s, "dock solar 3")
    assert s.players[0].fuel == 2


def test_R_FIELD_ISO_voids_the_market_rate_of_heinlein_plains() -> None:
    s = scenario(
        undocked="3 3",
        colonies={"heinlein": [1, 0, 0, 0]},
        fields={"isolation": "heinlein"},
        fuel=3,
    )
    s = act(s, "dock market 3 3", "trade")
    assert (s.players[0].fuel, s.players[0].ore) == (0, 1)


def test_R_FIELD_ISO_placed_mid_turn_voids_a_bonus_borrowed_with_the_data_crystal() -> None:
    s = scenario(
        undocked="3 3",
        colonies={"lem": [0, 1, 0, 0]},
        cards={0: ["crystal", "stasis"]},
        fuel=1,
    )
    s = act(s, "use crystal lem", "dock solar 3")
    assert s.players[0].fuel == 0 + 2 + 1
    s = act(s, "discard stasis lem", "dock solar 3")
    assert s.players[0].fuel == 3 + 2


def test_R_FIELD_ISO_data_crystal_cannot_borrow_an_isolated_bonus() -> None:
    s = scenario(
        undocked="3",
        colonies={"lem": [0, 1, 0, 0]},
        fields={"isolation": "lem"},
        cards={0: ["crystal"]},
        fuel=9,
    )
    refused(s, "use crystal lem", "Lem Badlands is under the Isolation Field")


def test_R_FIELD_ISO_on_burroughs_returns_the_relic_ship_at_once() -> None:
    s = scenario(players=2, colonies={"burroughs": [0, 1]}, cards={0: ["stasis"]})
    s = with_relic(s, 1, "mine", 4)
    s = act(s, "discard stasis burroughs")
    assert s.relic_on_desert
    assert Ship(1, 4, relic=True) not in s.docks["mine"]
    assert s.controller["burroughs"] == 1  # control stays; only the bonus is void
    assert not problems(s)


def test_R_FIELD_ISO_on_burroughs_the_relic_cannot_be_bought_until_it_leaves() -> None:
    s = scenario(
        players=2,
        colonies={"burroughs": [0, 1]},
        fields={"isolation": "burroughs"},
        cards={1: ["booster"]},
        fuel=[0, 2],
        ore=[0, 2],
    )
    s = opponent_turn(s, "roll 1 1 1")
    assert s.current == 1
    refused(s, "buy relic", "the Isolation Field on Burroughs Desert voids its bonus")
    s = act(s, "discard booster isolation")
    assert "buy relic" in legal(s)
    s = act(s, "buy relic")
    assert Ship(1, 1, relic=True) in s.players[1].bay


def test_R_FIELD_ISO_elsewhere_leaves_the_relic_ship_alone() -> None:
    s = scenario(colonies={"burroughs": [0, 1, 0, 0]}, cards={0: ["stasis"]})
    s = with_relic(s, 1, "mine", 4)
    s = act(s, "discard stasis lem")
    assert not s.relic_on_desert
    assert Ship(1, 4, relic=True) in s.docks["mine"]


# ---- R-FIELD-POS --------------------------------------------------------------------------


def test_R_FIELD_POS_the_controller_scores_one_more() -> None:
    s = scenario(colonies={"herbert": [0, 2, 1, 0]})
    assert victory_points(s, 1) == 3
    s = scenario(colonies={"herbert": [0, 2, 1, 0]}, fields={"positron": "herbert"})
    assert [victory_points(s, p) for p in range(4)] == [0, 4, 1, 0]


def test_R_FIELD_POS_nobody_scores_it_on_a_tied_territory() -> None:
    s = scenario(colonies={"herbert": [0, 1, 1, 0]}, fields={"positron": "herbert"})
    assert [victory_points(s, p) for p in range(4)] == [0, 1, 1, 0]


def test_R_FIELD_POS_the_point_moves_with_the_field_and_with_control() -> None:
    s = scenario(
        colonies={"herbert": [0, 1, 0, 0], "lem": [1, 0, 0, 0]},
        fields={"positron": "herbert"},
        cards={0: ["crystal"]},
    )
    assert (victory_points(s, 0), victory_points(s, 1)) == (2, 3)
    moved = act(s, "discard crystal lem")
    assert (victory_points(moved, 0), victory_points(moved, 1)) == (3, 2)
    s = scenario(
        colonies={"herbert": [0, 1, 0, 0], "lem": [1, 0, 0, 0]},
        fields={"positron": "herbert"},
        cards={0: ["teleporter"]},
    )
    s = act(s, "discard teleporter p1 lem to herbert")  # P1 ties P2: nobody controls it
    assert (victory_points(s, 0), victory_points(s, 1)) == (1, 1)


def test_R_FIELD_POS_removed_by_the_booster_pod() -> None:
    s = scenario(
        colonies={"herbert": [1, 0, 0, 0]}, fields={"positron": "herbert"}, cards={0: ["booster"]}
    )
    assert victory_points(s, 0) == 3
    s = act(s, "discard booster positron")
    assert victory_points(s, 0) == 2


# ---- R-FIELD-REP --------------------------------------------------------------------------


def test_R_FIELD_REP_no_colony_may_be_placed_there() -> None:
    s = scenario(undocked="5 5 5", ore=3, fields={"repulsor": "lem"})
    s = act(s, "dock constructor 5 5 5")
    assert legal(s) == {f"place {t}" for t in TERRITORIES if t != "lem"}
    refused(s, "place lem", "the Repulsor Field on Lem Badlands lets no colony come or go")
    s = act(s, "place pohl")
    assert s.colonies["pohl"] == (1, 0, 0, 0)


def test_R_FIELD_REP_no_colony_may_be_teleported_in_or_out() -> None:
    s = scenario(
        colonies={"lem": [1, 1, 0, 0], "pohl": [0, 1, 0, 0]},
        fields={"repulsor": "lem"},
        cards={0: ["teleporter"]},
    )
    message = "the Repulsor Field on Lem Badlands lets no colony come or go"
    refused(s, "discard teleporter p2 lem to pohl", message)
    refused(s, "discard teleporter p2 pohl to lem", message)
    moves = {a for a in legal(s) if a.startswith("discard teleporter")}
    assert moves == {
        f"discard teleporter p2 pohl to {t}" for t in TERRITORIES if t not in ("lem", "pohl")
    }


def test_R_FIELD_REP_no_colony_may_be_swapped_in_or_out() -> None:
    s = scenario(
        colonies={"lem": [2, 0, 0, 0], "pohl": [0, 2, 0, 0], "asimov": [0, 0, 1, 0]},
        fields={"repulsor": "lem"},
        cards={3: ["polarity"]},
        current=3,
    )
    refused(
        s,
        "discard polarity p1 lem p2 pohl",
        "the Repulsor Field on Lem Badlands lets no colony come or go",
    )
    assert {a for a in legal(s) if a.startswith("discard polarity")} == {
        "discard polarity p3 asimov p2 pohl"
    }


def test_R_FIELD_REP_does_not_stop_generators_moving_or_leaving() -> None:
    fields: dict[FieldId, TerritoryId] = {"repulsor": "lem", "isolation": "lem"}
    s = scenario(cards={0: ["gravity", "booster", "stasis", "crystal"]}, fields=fields)
    assert act(s, "discard gravity asimov").fields["repulsor"] == "asimov"
    assert act(s, "discard booster repulsor").fields["repulsor"] is None
    assert act(s, "discard stasis pohl").fields["isolation"] == "pohl"
    assert act(s, "discard crystal lem").fields == {
        "isolation": "lem",
        "positron": "lem",
        "repulsor": "lem",
    }

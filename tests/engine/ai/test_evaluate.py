"""The evaluation's terms that push a game towards its end (a colony's tempo, a lead
that counts more as the game nears its end) and the Plasma Cannon's worth."""

from __future__ import annotations

import dataclasses

import pytest

from engine import GameConfig, GameState, new_game
from engine.ai.evaluate import Evaluator, Weights
from engine.board import set_dock
from engine.state import Ship
from engine.tables import TERRITORIES, TerritoryId
from engine.territories import count_colony, update_control


def board(placed: list[int]) -> GameState:
    """A 2-player game whose seats have placed these many colonies, one per territory
    from each end of the list (so no territory is shared and control follows)."""
    s = new_game(GameConfig(players=2))
    order: list[list[TerritoryId]] = [list(TERRITORIES), list(reversed(TERRITORIES))]
    for p, n in enumerate(placed):
        for t in order[p][:n]:
            count_colony(s, p, t, 1)
            s.players[p].colonies -= 1
    for t in TERRITORIES:
        update_control(s, t)
    return s


def test_a_lead_counts_more_near_the_end_with_race() -> None:
    plain = Evaluator(Weights())
    racing = Evaluator(dataclasses.replace(Weights(), race=1.0))
    early, late = board([2, 1]), board([7, 6])
    # without the race term a one-colony lead is worth the same early and late
    assert abs(plain.score(early, 0) - plain.score(late, 0)) < 0.5
    assert racing.score(late, 0) > racing.score(early, 0) + 0.5
    # and a deficit weighs more near the end
    assert racing.score(late, 1) < racing.score(early, 1) - 0.5


def test_colony_tempo_is_worth_more_early() -> None:
    w = dataclasses.replace(Weights(), colony=1.0)
    ev, plain = Evaluator(w), Evaluator(Weights())
    early_gain = ev.worth(board([1, 0]))[0] - ev.worth(board([0, 0]))[0]
    late_gain = ev.worth(board([7, 5]))[0] - ev.worth(board([6, 5]))[0]
    plain_gain = plain.worth(board([1, 0]))[0] - plain.worth(board([0, 0]))[0]
    assert early_gain > plain_gain + 0.5
    assert early_gain > late_gain


def test_a_plasma_cannon_is_worth_a_share_of_a_ship_while_it_can_send_one_to_stock() -> None:
    w = dataclasses.replace(Weights(), plasma_hit=0.6)
    ev, plain = Evaluator(w), Evaluator(Weights())
    s = board([0, 0])
    s.players[0].cards.append("plasma")
    # the opponent has 3 ships: the discard cannot be used, the card keeps its plain worth
    assert ev.worth(s)[0] == plain.worth(s)[0]
    s.players[1].stock -= 1  # the opponent builds its 4th ship
    held = ev.worth(s)[0] - plain.worth(s)[0]
    assert held == pytest.approx(0.6 * w.ship[-1] - w.card["plasma"])
    # a ship used up on the Terraforming Station will not be there to hit
    set_dock(s, "terraform", 0, Ship(1, 6))
    assert ev.worth(s)[0] == plain.worth(s)[0]


def test_the_kept_territory_parts_give_the_scores_of_a_fresh_evaluator(
    decision_states: dict[str, list[GameState]],
) -> None:
    """An evaluator keeps the territory part of the worth by what it is computed from;
    scoring many states with one evaluator must give, to the last bit, what an evaluator
    that has kept nothing gives."""
    weights = dataclasses.replace(Weights(), colony=0.2, race=0.3, plasma_hit=0.5)
    kept = Evaluator(weights)
    states = [s for found in decision_states.values() for s in found]
    for _ in range(2):  # the second pass reads what the first one kept
        for s in states:
            for me in range(s.num_players):
                assert kept.score(s, me) == Evaluator(weights).score(s, me)

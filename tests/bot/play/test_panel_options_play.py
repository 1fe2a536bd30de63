"""Every option the panel offers plays: over seeded random games (2 to 4 players, the Mind
Control Helm on), each pick of every menu (``bot.play.choices``), applied move after move
as the panel applies it, is legal at each move. A committed-looking option the engine
refuses ("⛔ there is no decision to answer now") is the worst kind of panel bug: an expert
met "Plasma Cannon: fire at …, and stop there" refused 24 times in three guided games when
the first hit left nothing more to decide.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from bot.play.choice_tree import Branch, Choices, Leaf
from bot.play.choices import choices
from engine import CHANCE, GameConfig, GameState, apply, legal_actions, parse, sample_chance
from engine.game import Game
from tests.engine.scenario import scenario

GAMES = 6  # seeded games, about a second and a half in all


def leaves(c: Choices) -> Iterator[Leaf]:
    """Every pick under every menu of the panel."""

    def walk(node: Branch) -> Iterator[Leaf]:
        for kid in node.children:
            if isinstance(kid, Leaf):
                yield kid
            else:
                yield from walk(kid)

    for key in ("d", "c", "p", "o"):
        root = c.root(key)
        if root is not None:
            yield from walk(root)


def refused(state: GameState, leaf: Leaf) -> str | None:
    """Why the pick would be refused (the first move that is not legal where it is played),
    or None: it plays."""
    s = state
    for move in leaf.moves:
        action = parse(move)
        if action not in legal_actions(s):
            return f"{leaf.label!r}: {move} is not legal after {leaf.moves}"
        s = apply(s, action)
    return None


def test_a_plasma_cannon_shot_that_leaves_nothing_to_decide_offers_no_stop_R_TECH_PLASMA() -> None:
    """One ship of the opponent at the Solar Converter: the shot ends the firing at once,
    so "…, and stop there" would answer a decision that never comes."""
    s = scenario(
        players=2, undocked="3", fuel=[5, 0], cards={0: ["plasma"]}, docks={"solar": "p2:4"}
    )
    picks = [leaf for leaf in leaves(choices(s)) if leaf.moves[0].startswith("use plasma")]
    assert picks, "the cannon is offered"
    assert [refused(s, leaf) for leaf in picks] == [None] * len(picks)
    # Two ships there: the first hit leaves the choice, and stopping after it is offered.
    two = scenario(
        players=2, undocked="3", fuel=[5, 0], cards={0: ["plasma"]}, docks={"solar": "p2:4 p2:2"}
    )
    picks = [leaf for leaf in leaves(choices(two)) if leaf.moves[0].startswith("use plasma")]
    assert any(leaf.moves[-1] == "done" for leaf in picks)
    assert [refused(two, leaf) for leaf in picks] == [None] * len(picks)


@pytest.mark.parametrize("seed", range(GAMES))
def test_every_panel_option_offered_plays_without_refusal(seed: int) -> None:
    rng = random.Random(seed)
    players = 2 + seed % 3
    game = Game(GameConfig(players=players, mind_control_helm=True))
    state = game.state
    checked = 0
    while not state.over and state.turn_number < 40:
        if state.to_act() == CHANCE:
            state = apply(state, sample_chance(state, rng))
            continue
        for leaf in leaves(choices(state)):
            assert refused(state, leaf) is None, (seed, state.version, refused(state, leaf))
            checked += 1
        state = apply(state, rng.choice(legal_actions(state)))
    assert checked > 500


def test_the_star_marks_a_pick_shown_in_a_menu_and_not_also_its_more_step() -> None:
    """An expert saw ⭐ on a pick and on its own "…: more…" step in the same menu: the
    step that leads to a pick is marked only when the pick itself is not shown there."""
    from bot.discord.panel import Marker
    from bot.play.choices import menu

    picks = tuple(Leaf(f"Ship {i}", f"Ship {i}", (f"pick {i}",)) for i in range(30))
    solar = Branch("Solar Converter", "Solar Converter", "Which ships?", picks)
    root = Branch("Dock", "Dock", "Dock", (solar,))
    c = Choices(
        dock=root, powers=Branch("Cards", "Cards", "Cards", ()), pending=root, can_end=False
    )
    entries = menu(root, "p", inner=True)
    assert entries[-1].value.startswith("@")  # the rest of the Solar Converter's picks
    marked = Marker(c, "pick 0").entries(entries)
    stars = [e for e in marked if e.label.endswith(Marker.SIGN)]
    assert [e.value for e in stars] == ["pick 0"]
    hidden = Marker(c, "pick 0").entries([entries[1], entries[-1]])  # the pick not shown
    assert [e.value for e in hidden if e.label.endswith(Marker.SIGN)] == [entries[-1].value]

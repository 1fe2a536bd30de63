"""What a panel option says it does (its description, Discord's 100 characters under its
label), for everyone: never without what it does to an opponent, marked where something
was left out, and the facts one decides on — the Alien Artifact's count toward a card,
resources over the limit, what a card taken does, what a Plasma Cannon pick leaves to do.
(The expert's "Terraforming Station: 6, then place the colony on Bradbury Plateau" said
the player's own fuel and ore, and not that AI 1 lost control and 1 VP.)"""

from __future__ import annotations

import pytest

from bot.play.choice_tree import Choices
from bot.play.choices import choices, menu
from bot.text.gains import DESCRIPTION_LIMIT
from bot.text.strings import text
from engine import GameState
from tests.engine.scenario import scenario

NAMES = ["member", "AI 1 (normal)", "AI 2 (normal)"]
LONG = ["Aleksandra Wiśniewska-Kowalczyk1", "Владимир Александрович Петров-Ив", "AI 2 (normal)"]


def board() -> GameState:
    """The member with a 6 and two 4s: AI 1 holds Bradbury Plateau and Lem Badlands with
    one colony more than the member could tie; ships of both AIs at the Lunar Mine; the
    member holds the Plasma Cannon."""
    return scenario(
        3,
        undocked="6 4 4",
        colonies={"bradbury": [1, 2, 0], "lem": [0, 1, 0]},
        fuel=[3, 2, 1],
        ore=[2, 3, 1],
        cards={0: ["plasma"]},
        docks={"mine": "p2:5 p3:6", "artifact": "p1:3"},  # the member's fourth ship
    )


def options(c: Choices, locale: str) -> dict[str, str]:
    """Every pick of the panel (all steps opened): label -> description ("" for none)."""
    out: dict[str, str] = {}

    def walk(path: str) -> None:
        node = c.node(path)
        assert node is not None
        for e in menu(node, path, locale, spill=True):
            if e.value.startswith("@"):
                walk(e.value[1:])
            else:
                out[e.label] = c.yields(e.value) or ""

    for root in ("d", "c", "p", "o"):
        branch = c.root(root)
        if branch is not None and branch.children:
            walk(root)
    return out


@pytest.mark.parametrize("locale", ["en", "ru", "pl"])
@pytest.mark.parametrize("names", [NAMES, LONG], ids=["names", "long-names"])
def test_an_option_never_leaves_out_what_it_does_to_an_opponent(
    locale: str, names: list[str]
) -> None:
    said = options(choices(board(), names, locale), locale)
    lem = text("choice.colony_to", locale, {"territory": "lem"})
    placing = [(label, d) for label, d in said.items() if label.endswith(lem)]
    assert placing, list(said)
    for label, description in said.items():
        assert len(description) <= DESCRIPTION_LIMIT, (label, description)
    for label, description in placing:  # AI 1 loses control of Lem Badlands: 1 VP
        vp = text("gains.vp", locale, {"delta": "−1", "now": 4})
        assert f"{names[1]}: {vp}" in description, (label, description)


def test_what_is_left_out_is_marked() -> None:
    said = options(choices(board(), LONG, "en"), "en")
    (lem,) = [d for label, d in said.items() if label.endswith("on Lem Badlands")]
    # Own fuel and ore shortened, then left out: never the opponent's loss.
    assert lem == f"a colony on Lem Badlands; +1 VP, now 2; −1 fuel; {LONG[1]}: −1 VP, now 4…"
    assert lem.endswith("…") and "ore" not in lem, lem


def test_a_description_keeps_the_others_and_marks_a_cut() -> None:
    from bot.text.gains import Phrase, fitted

    assert fitted([Phrase("a" * 60, "a" * 60), Phrase("b" * 60, "b" * 60)], 100) == "a" * 60 + "…"
    others = Phrase("c" * 60, "c" * 60, others=True)
    assert fitted([Phrase("a" * 30, "a" * 30), Phrase("b" * 40, "b" * 40), others], 100) == (
        "a" * 30 + "; " + "c" * 60 + "…"
    )


def test_the_alien_artifact_says_how_far_toward_a_card_and_a_card_what_it_does() -> None:
    said = options(choices(board(), NAMES, "en"), "en")
    assert said["Alien Artifact: 6"] == "6 of 8 toward a card"
    assert said["Alien Artifact: 4"] == "4 of 8 toward a card"
    assert said["Alien Artifact: 4 + 4"] == "8 toward a card: enough to claim one"
    claim = said["Alien Artifact: 4 + 4, then claim Holographic Decoy"]
    assert claim == "you take Holographic Decoy: raiders cannot take your resources"
    assert said["Alien Artifact: 4 + 4, then claim Alien City"] == (
        "+1 VP, now 2; you take Alien City: 1 VP"
    )


def test_a_pick_over_the_resource_limit_says_what_will_be_returned() -> None:
    said = options(choices(board(), NAMES, "en"), "en")  # 3 fuel and 2 ore now
    assert said["Solar Converter: 4"] == "+2 fuel, now 5"  # 7 in all: within 8
    assert said["Solar Converter: 4 + 6"] == (
        "+5 fuel, now 8; 2 over the limit of 8, to return at the turn's end"
    )


def test_the_plasma_cannon_options_say_what_each_does_differently() -> None:
    said = options(choices(board(), NAMES, "en"), "en")
    hit = "Plasma Cannon: fire at the Lunar Mine, hitting AI 1 (normal)'s 5"
    assert said[hit] == (
        "−1 fuel, now 2; AI 1 (normal): 1 ship to the Maintenance Bay; "
        "then hit another ship there, or stop"
    )
    assert said[f"{hit}, and stop there"] == (
        "−1 fuel, now 2; AI 1 (normal): 1 ship to the Maintenance Bay"
    )


def test_after_a_pick_the_dice_are_said_once() -> None:
    """The expert heard "ships to dock: 3 3 6. Left to dock: 3 3 6." after a card."""
    from bot.text.gains import confirmation
    from engine import apply, parse

    s = scenario(2, undocked="3 3 5", fuel=[2, 0], cards={0: ["booster"]})
    line = confirmation("Booster Pod: +1 on a 5", s, apply(s, parse("use booster 5")), 0, NAMES)
    assert line == "Done: Booster Pod: +1 on a 5. −1 fuel, now 1. Left to dock: 3 3 6."


def last_colony_board(on_planet: int) -> GameState:
    """The member (of 3 players: 7 colonies each) with ``on_planet`` colonies on Lem
    Badlands, none on the Colony Hub track, a 6 for the Terraforming Station, 1 fuel and
    1 ore to pay for it, and two 3s."""
    return scenario(
        3, undocked="6 3 3", fuel=1, ore=1, colonies={"lem": [on_planet, 0, 0]}, stock={0: 2}
    )


@pytest.mark.parametrize("locale", ["en", "ru", "pl"])
def test_R_END_2_a_pick_that_places_the_last_colony_says_the_game_ends(locale: str) -> None:
    """Placing one's last colony ends the game at once (R-END-2): every option that
    places it says so, first (never the part left out), and the Terraforming Station's
    own step, after "then choose the territory"; with a colony still to place after it,
    no option says it."""
    ends = text("gains.ends_game", locale)
    dock = text("choice.dock", locale, {"facility": "terraform", "dice": "6"})
    then = text("gains.then.place", locale)
    said = options(choices(last_colony_board(6), NAMES, locale), locale)
    placing = {label: d for label, d in said.items() if label.startswith(f"{dock}, ")}
    assert len(placing) >= 6, list(said)  # any territory
    for label, description in placing.items():
        assert description.startswith(f"{ends}; "), (label, description)
    assert said[dock].endswith(f"{then}; {ends}"), said[dock]
    assert {label for label, d in said.items() if ends in d} == {dock, *placing}

    said = options(choices(last_colony_board(5), NAMES, locale), locale)
    assert any(label.startswith(f"{dock}, ") for label in said), list(said)
    assert not [(label, d) for label, d in said.items() if ends in d]

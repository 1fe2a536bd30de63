"""Why a facility is not offered now, said to a member in screen-reader mode in the
engine's words (the expert could not find out why Terraforming, a Lunar Mine held by a
higher ship or a full Alien Artifact were missing from the menu: only ``/play`` said)."""

from __future__ import annotations

import pytest

from bot.text.strings import text
from bot.text.why_not import closed, closed_line, closed_territories
from engine import GameState, legal_actions
from tests.engine.scenario import act, scenario

NAMES = ["member", "AI 1", "AI 2"]


def said(s: GameState, locale: str = "en") -> str | None:
    return closed_line(s, legal_actions(s), NAMES, locale)


def test_a_facility_missing_from_the_menu_says_why() -> None:
    three_ships = scenario(3, undocked="6 2 3", fuel=[3, 0, 0], ore=[3, 0, 0])
    assert said(three_ships) == (
        "Closed now: Terraforming Station: that would leave you fewer than 3 ships of your colour."
    )
    higher = scenario(3, undocked="2 3 4", docks={"mine": "p2:5 - - -"})
    assert said(higher) == (  # the facility named once
        "Closed now: The Lunar Mine needs a ship of 5 or more; your ships are 2, 3, 4."
    )
    full = scenario(3, undocked="2 3 4", docks={"artifact": "p2:5 p3:6 p2:1 p3:2"})
    assert said(full) == "Closed now: The Alien Artifact has no free docks for them."


def test_what_the_dice_alone_rule_out_is_not_said() -> None:
    """No pair for the Shipyard, no 6 for the Terraforming Station, no run for the
    Raiders' Outpost: the member knows their roll."""
    s = scenario(3, undocked="1 3 5", fuel=[5, 0, 0], ore=[5, 0, 0])
    assert closed(s, legal_actions(s)) == []
    assert said(s) is None
    s.undocked.clear()  # every ship docked: nothing to say
    assert said(s) is None
    # The Terraforming Station is taken, but without a 6 it would not do anyway.
    taken = scenario(3, undocked="1 3 5", docks={"terraform": "p2:6"}, fuel=[5, 0, 0], ore=5)
    assert said(taken) is None


@pytest.mark.parametrize("locale", ["ru", "pl"])
def test_why_in_the_members_language(locale: str) -> None:
    higher = scenario(3, undocked="2 3 4", docks={"mine": "p2:5 - - -"})
    line = said(higher, locale)
    assert line is not None
    assert line.startswith(text("why_not.header", locale, {"facilities": ""}))
    reason = text("mine.too_low", locale, {"minimum": 5, "ships": "2, 3, 4"})
    assert reason[1:] in line


@pytest.mark.parametrize("locale", ["ru", "pl"])
def test_a_closed_territory_in_the_members_language_R_FIELD_REP(locale: str) -> None:
    """At the Colony Constructor's choice of territory, the one under the Repulsor Field is
    said closed with the engine's reason, in the member's language."""
    s = act(
        scenario(3, undocked="3 3 3", ore=3, fields={"repulsor": "lem"}), "dock constructor 3 3 3"
    )
    assert [t for t, _, _ in closed_territories(s, legal_actions(s))] == ["lem"]
    line = said(s, locale)
    assert line is not None
    assert line.startswith(text("why_not.header", locale, {"facilities": ""}))
    assert text("colony.repulsor", locale, {"territory": "lem"})[1:] in line

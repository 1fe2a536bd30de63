"""The game log's sentences (``bot.text.describe.event_line``) say who did what to whom, in
every language."""

from __future__ import annotations

import pytest

from bot.text.describe import event_line
from tests.engine.scenario import act, scenario

NAMES = ["Ann", "Bob"]


@pytest.mark.parametrize("locale", ["en", "ru", "pl"])
def test_the_helm_line_says_whose_ship_was_moved_R_TECH_HELM(locale: str) -> None:
    """An expert read «AI 1 перемещает корабль 3 из комплекса …» after a Helm move: whose
    ship? The opponent's ship is named as theirs; a ship of one's own is not."""
    s = scenario(
        players=2,
        undocked="2",
        docks={"solar": "p2:3"},
        cards={0: ["helm"]},
        fuel=3,
        mind_control_helm=True,
    )
    s = act(s, "use helm solar p2:3 to hub 2")
    line = event_line(next(e for e in s.events if e.params.get("source") == "solar"), locale, NAMES)
    assert "Ann" in line and "Bob" in line, line
    own = scenario(players=2, undocked="2", docks={"solar": "3"}, cards={0: ["teleporter"]}, fuel=3)
    own = act(own, "use teleporter solar 3 to hub 2")
    line = event_line(
        next(e for e in own.events if e.params.get("source") == "solar"), locale, NAMES
    )
    assert "Ann" in line and "Bob" not in line, line

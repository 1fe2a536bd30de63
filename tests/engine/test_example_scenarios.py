"""Two examples of the scenario style (the full rule tests live in tests/engine/rules/)."""

from __future__ import annotations

import pytest

from engine import IllegalActionError
from tests.engine.scenario import act, legal, scenario


def test_R_MINE_rulebook_example_mine_holds_1_and_4() -> None:
    s = scenario(undocked="3 4 6", docks={"mine": "p2:1 p2:4"})
    assert "dock mine 3" not in legal(s)
    with pytest.raises(
        IllegalActionError, match="needs a ship of 4 or more; your ships are 3, 4, 6"
    ):
        act(s, "dock mine 3")
    s = act(s, "dock mine 4", "dock mine 6")
    assert s.players[0].ore == 2
    assert legal(s) >= {"dock solar 3"} and not any(a.startswith("dock mine") for a in legal(s))

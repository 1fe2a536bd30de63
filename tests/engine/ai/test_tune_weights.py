"""The tuner's weight changes (``match --set``) and its VP margin's standard error."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path
from types import ModuleType

import pytest

from engine.ai.evaluate import Weights


def _tuner() -> ModuleType:
    path = Path(__file__).resolve().parents[3] / "tools" / "tune_weights.py"
    spec = importlib.util.spec_from_file_location("tune_weights", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


tuner = _tuner()


def test_set_changes_a_weight_a_table_and_an_entry() -> None:
    base = Weights()
    w = tuner.with_changes(base, ["late_floor=0", "ship*=0.5", "card.plasma=2", "raid*=2"])
    assert w.late_floor == 0.0
    assert w.ship == tuple(x * 0.5 for x in base.ship)
    assert w.card["plasma"] == 2.0 and w.card["booster"] == base.card["booster"]
    assert w.raid == pytest.approx(2 * base.raid)
    assert tuner.with_changes(base, ["bonus=0.5"]).bonus == dict.fromkeys(base.bonus, 0.5)
    assert tuner.with_changes(base, ["bonus.lem*=2"]).bonus["lem"] == 2 * base.bonus["lem"]
    assert base == Weights()  # the weights given are not changed


@pytest.mark.parametrize("change", ["late_floor", "nothing=1", "card.nothing=1", "ship.x=1"])
def test_set_refuses_what_it_cannot_apply(change: str) -> None:
    with pytest.raises(ValueError):
        tuner.with_changes(Weights(), [change])


def test_margin_error_counts_a_twin_as_one_sample() -> None:
    # Twins (+3, -1) and (+5, +1): means 1 and 3, standard deviation sqrt(2), over 2 twins.
    assert tuner.margin_error([3.0, -1.0, 5.0, 1.0]) == pytest.approx(1.0)
    assert tuner.margin_error([4.0, -4.0, 2.0, -2.0]) == 0.0  # the dice cancel out
    assert tuner.margin_error([1.0, 2.0]) == math.inf

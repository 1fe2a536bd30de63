"""Every rule id of the rules spec has a test named after it, and every test that
docs/rules-decisions.md cites exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT.parent / "shared" / "rules" / "alien-frontiers.md"


def _test_names() -> set[str]:
    names: set[str] = set()
    for path in (ROOT / "tests").rglob("test_*.py"):
        names.update(re.findall(r"def (test_\w+)", path.read_text()))
    return names


@pytest.mark.skipif(not RULES.exists(), reason="../shared/rules is not beside the project")
def test_every_rule_id_has_a_test() -> None:
    ids = set(re.findall(r"\b(R-[A-Z]+(?:-[A-Z0-9]+)*)\b", RULES.read_text()))
    assert len(ids) > 50
    names = _test_names()
    missing = sorted(
        i for i in ids if not any(n.startswith("test_" + i.replace("-", "_") + "_") for n in names)
    )
    assert not missing, f"rule ids without a test: {missing}"


def test_decisions_cite_existing_tests() -> None:
    doc = (ROOT / "docs" / "rules-decisions.md").read_text()
    names = _test_names()
    cited = re.findall(r"`(test_[A-Za-z0-9_]+)\*?`", doc)
    assert cited
    for prefix in cited:
        assert any(n.startswith(prefix.rstrip("_")) for n in names), f"no test {prefix}*"
    for path in re.findall(r"`(tests/[\w/]+\.py)`", doc):
        assert (ROOT / path).exists(), path

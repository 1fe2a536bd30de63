"""The lock (``requirements.lock``, written by ``tools/lock.py``): every dependency that
pyproject.toml names is pinned there at a version its range allows, every line is an exact
pin, and the tests run on the locked versions."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]


def _lock_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("lock_tool", ROOT / "tools" / "lock.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


lock_tool = _lock_tool()
PINS = lock_tool.read_lock(ROOT / "requirements.lock")


def _requirements() -> list[tuple[str, Requirement]]:
    """(where, requirement) for every dependency of pyproject.toml, runtime and extras."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    found = [("dependencies", Requirement(r)) for r in project["dependencies"]]
    for extra, requirements in project["optional-dependencies"].items():
        found += [(f"[{extra}]", Requirement(r)) for r in requirements]
    return found


def _applies(marker: str | None) -> bool:
    return marker is None or Marker(marker).evaluate()


@pytest.mark.parametrize(("where", "requirement"), _requirements(), ids=lambda r: str(r))
def test_every_dependency_of_pyproject_is_locked_within_its_range(
    where: str, requirement: Requirement
) -> None:
    pins = PINS.get(lock_tool.normalise(requirement.name))
    assert pins, f"{requirement} ({where}) is not in requirements.lock: run tools/lock.py sync"
    for pin in pins:
        assert requirement.specifier.contains(pin.version, prereleases=True), (
            f"requirements.lock pins {pin.name}=={pin.version}, outside {requirement} ({where})"
        )


def test_the_lock_holds_only_exact_pins(tmp_path: Path) -> None:
    assert len(PINS) >= 30  # the direct dependencies and what they pull in
    loose = tmp_path / "loose.lock"
    loose.write_text("babel==2.19.0\n    # via x\npillow>=10\n")
    with pytest.raises(ValueError, match=r"loose\.lock:3: not an exact pin"):
        lock_tool.read_lock(loose)
    marked = tmp_path / "marked.lock"
    marked.write_text("colorama==0.4.6 ; sys_platform == 'win32'\nBabel==2.19.0\n")
    assert lock_tool.read_lock(marked) == {
        "colorama": [lock_tool.Pin("colorama", "0.4.6", "sys_platform == 'win32'")],
        "babel": [lock_tool.Pin("babel", "2.19.0")],
    }


def test_the_tests_run_on_the_locked_versions() -> None:
    """What is installed here is what the lock says (install with ``-c requirements.lock``,
    as the README's commands do). Packages of the lock that this platform does not need,
    and the optional resolver (``[lock]``), may be missing."""
    wrong = []
    for name, pins in PINS.items():
        wanted = [p.version for p in pins if _applies(p.marker)]
        try:
            installed = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            continue
        if wanted and installed not in wanted:
            wrong.append(f"{name} {installed} (locked: {', '.join(wanted)})")
    assert not wrong, "not the locked versions; run pip install -c requirements.lock: " + str(wrong)


def test_changes_lists_each_package_whose_pin_moved() -> None:
    pin = lock_tool.Pin
    old = {"babel": [pin("babel", "2.18.0")], "six": [pin("six", "1.16.0")]}
    new = {"babel": [pin("babel", "2.19.0")], "idna": [pin("idna", "3.20")]}
    assert lock_tool.changes(old, new) == [
        "babel 2.18.0 -> 2.19.0",
        "idna - -> 3.20",
        "six 1.16.0 -> -",
    ]


def test_the_readme_ci_and_dockerfile_install_from_the_lock() -> None:
    """The README's test command is what .ci/run runs, and every install goes through the
    lock."""
    readme = (ROOT / "README.md").read_text()
    commands = [line for line in readme.splitlines() if line.startswith("python3 -m venv")]
    assert len(commands) == 2, commands  # one runs the bot, one runs the tests
    assert all("pip install -c requirements.lock " in c for c in commands), commands
    ci = (ROOT / ".ci" / "run").read_text()
    tests = next(c for c in commands if "pytest" in c)
    assert tests.replace("pip install ", "pip install --quiet ") in ci.splitlines()
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "pip install --no-compile -c requirements.lock " in dockerfile
    assert "COPY pyproject.toml requirements.lock ./" in dockerfile

"""The lock: every dependency, direct and transitive, at the exact version the tests ran with.

``pyproject.toml`` says which versions work (ranges); ``requirements.lock`` says which ones
are installed and tested (exact pins, for every platform and Python the project supports,
written by uv's resolver). The README's commands, ``.ci/run`` and the Dockerfile install
with ``pip install -c requirements.lock ...``: the same programs everywhere, whatever was
released since.

Commands (run with the project's venv, ``.venv/bin/python tools/lock.py ...``)::

    upgrade [--package NAME ...]   refresh the lock to the newest versions pyproject allows
                                   (or only those packages), install them, run the tests
    sync                           after a change to pyproject.toml: add what it asks for,
                                   keep every other pin, install, run the tests
    diff OLD NEW                   the pins that differ between two lock files

``upgrade`` and ``sync`` print the pins that changed and exit with the tests' status: an
upgrade is one command and one review of ``git diff requirements.lock``.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "requirements.lock"
EXTRAS = ("test", "lock")  # locked along with the runtime dependencies
PYTHON = "3.11"  # the oldest Python pyproject allows; --universal adds the markers of others
COMMAND = "python tools/lock.py"
_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;]+)\s*(?:;\s*(.+))?$")


@dataclass(frozen=True, slots=True)
class Pin:
    """One line of the lock: a package at one version, for the platforms its marker admits."""

    name: str  # normalised (PEP 503): lower case, runs of -_. as one -
    version: str
    marker: str | None = None


def normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def read_lock(path: Path = LOCK) -> dict[str, list[Pin]]:
    """The pins of a lock file by package (several when versions differ by platform).

    Raises ``ValueError`` for a line that is not an exact pin, so a hand-edited range
    cannot slip in."""
    pins: dict[str, list[Pin]] = {}
    for number, raw in enumerate(path.read_text().splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        found = _PIN.match(line)
        if found is None:
            raise ValueError(f"{path.name}:{number}: not an exact pin: {raw!r}")
        name, version, marker = found.groups()
        pins.setdefault(normalise(name), []).append(Pin(normalise(name), version, marker))
    return pins


def compile_lock(out: Path, *, upgrade: bool, packages: list[str]) -> None:
    """Resolve pyproject.toml's dependencies with uv into ``out`` (starting from the
    current lock's pins, unless upgrading)."""
    command = [
        sys.executable,
        "-m",
        "uv",
        "pip",
        "compile",
        str(ROOT / "pyproject.toml"),
        *(f"--extra={extra}" for extra in EXTRAS),
        "--universal",
        f"--python-version={PYTHON}",
        f"--custom-compile-command={COMMAND} upgrade",
        "--quiet",
        f"--output-file={out}",
    ]
    if upgrade and not packages:
        command.append("--upgrade")
    command += [f"--upgrade-package={p}" for p in packages]
    subprocess.run(command, cwd=ROOT, check=True)


def changes(old: dict[str, list[Pin]], new: dict[str, list[Pin]]) -> list[str]:
    """One line per package whose pins differ: ``name old -> new`` (``-`` for none)."""
    out = []
    for name in sorted(old.keys() | new.keys()):
        before = ", ".join(p.version for p in old.get(name, [])) or "-"
        after = ", ".join(p.version for p in new.get(name, [])) or "-"
        if before != after:
            out.append(f"{name} {before} -> {after}")
    return out


def pip(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", *args], cwd=ROOT, check=True)


def relock(*, upgrade: bool, packages: list[str], test: bool) -> int:
    """Write the new lock, install it into this venv, then run the test suite."""
    pip("-c", str(LOCK), "uv")  # the resolver, at its locked version
    old = read_lock()
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp) / LOCK.name
        shutil.copy(LOCK, fresh)  # uv keeps the pins of the file it writes to
        compile_lock(fresh, upgrade=upgrade, packages=packages)
        shutil.copy(fresh, LOCK)
    changed = changes(old, read_lock())
    print("\n".join(changed) if changed else "no pin changed")
    pip("-c", str(LOCK), "-e", f".[{','.join(EXTRAS)}]")
    if not test:
        return 0
    return subprocess.run([sys.executable, "-m", "pytest"], cwd=ROOT).returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    up = commands.add_parser("upgrade", help="newest versions allowed, installed and tested")
    up.add_argument("--package", action="append", default=[], help="only this package")
    up.add_argument("--no-test", action="store_true", help="do not run the tests after")
    sync = commands.add_parser("sync", help="lock what pyproject.toml added, keep the rest")
    sync.add_argument("--no-test", action="store_true", help="do not run the tests after")
    diff = commands.add_parser("diff", help="the pins that differ between two locks")
    diff.add_argument("old", type=Path)
    diff.add_argument("new", type=Path)
    args = parser.parse_args(argv)
    if args.command == "diff":
        print("\n".join(changes(read_lock(args.old), read_lock(args.new))))
        return 0
    packages = args.package if args.command == "upgrade" else []
    return relock(upgrade=args.command == "upgrade", packages=packages, test=not args.no_test)


if __name__ == "__main__":
    raise SystemExit(main())

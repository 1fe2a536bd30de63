"""The layers contract (pyproject's ``[tool.importlinter]``): the engine knows nothing of the
bot; each of the bot's layers (discord, play, render, text, store) imports only the ones
below it; the game service imports no discord.py; words and data nothing that talks to
Discord; the bot imports the engine only through its public faces (``engine`` and
``engine.ai``), never a module inside them. Checked by import-linter on the code, and shown
to fail on a copy of the code with one bad import planted against each contract."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONTRACTS = (
    "The engine knows nothing of the bot",
    "The bot's layers: each imports only the layers below it",
    "The game service imports no discord.py",
    "Words and data import nothing that talks to Discord",
    "The bot imports the engine through its faces",
)
# A bad import for each contract: (file, the import added at its end).
PLANTED = (
    ("engine/state.py", "import bot.play.games"),
    ("bot/store/storage.py", "import bot.play.service"),
    ("bot/play/games.py", "import discord"),
    ("bot/text/strings.py", "import bot.discord.panel"),
    ("bot/render/theme.py", "from engine.tables import CARDS"),
    ("bot/play/tutor.py", "from engine.ai.reasons import Pick"),
)
# The imports the faces contract names as broken, one inside each face.
PAST_THE_FACE = ("bot.render.theme -> engine.tables", "bot.play.tutor -> engine.ai.reasons")


def lint_imports(where: Path) -> subprocess.CompletedProcess[str]:
    """import-linter's command on the code in ``where`` (its pyproject.toml, its packages
    first on the path)."""
    command = Path(sys.executable).with_name("lint-imports")
    env = {**os.environ, "PYTHONPATH": str(where), "NO_COLOR": "1"}
    return subprocess.run(
        [str(command), "--no-cache"],
        cwd=where,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_layers_contract_holds() -> None:
    done = lint_imports(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    for name in CONTRACTS:
        assert f"{name} KEPT" in done.stdout, done.stdout


def test_each_contract_fails_on_a_bad_import(tmp_path: Path) -> None:
    for package in ("bot", "engine"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("*.pyc"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    for file, line in PLANTED:
        path = tmp_path / file
        path.write_text(path.read_text() + f"\n{line}  # planted by the test\n")
    done = lint_imports(tmp_path)
    assert done.returncode != 0
    for name in CONTRACTS:
        assert f"{name} BROKEN" in done.stdout, done.stdout
    for imported in PAST_THE_FACE:
        assert imported in done.stdout, done.stdout

"""The layers contract (pyproject's ``[tool.importlinter]``): the engine knows nothing of the
bot; each of the bot's layers (discord, play, render, text, store) imports only the ones
below it; the game service imports no discord.py; words and data nothing that talks to
Discord; Discord's side imports nothing of the store that reaches the database; the bot
imports the engine only through its public faces (``engine`` and ``engine.ai``), never a
module inside them. Checked by import-linter on the code, and shown to fail on a copy of
the code with one bad import planted against each contract.

Discord's side (``bot/discord``) asks the game service, never the store: no import can
show a ``service.store.game(...)`` (an attribute, not an import), so ``store_reached``
reads the code of bot/discord for any attribute named ``store``; shown to fail on a copy
with one such call planted."""

from __future__ import annotations

import ast
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
    "Discord's side talks to the game service, never the database",
    "The bot imports the engine through its faces",
)
# A bad import for each contract: (file, the import added at its end).
PLANTED = (
    ("engine/state.py", "import bot.play.games"),
    ("bot/store/storage.py", "import bot.play.service"),
    ("bot/play/games.py", "import discord"),
    ("bot/text/strings.py", "import bot.discord.panel"),
    ("bot/discord/notify.py", "from bot.store.storage import Storage"),
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


def store_reached(where: Path) -> list[str]:
    """Where the code of bot/discord under ``where`` uses an attribute named ``store`` (the
    game service's database, or a store kept by a part): ``file:line``."""
    found = []
    for path in sorted((where / "bot" / "discord").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            named = isinstance(node, ast.Attribute) and node.attr == "store"
            got = (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "getattr"
                and len(node.args) > 1
                and isinstance(node.args[1], ast.Constant)
                and node.args[1].value == "store"
            )
            if named or got:
                found.append(f"{path.relative_to(where)}:{getattr(node, 'lineno', 0)}")
    return found


def test_discords_side_asks_the_game_service_never_the_store(tmp_path: Path) -> None:
    assert store_reached(ROOT) == []
    shutil.copytree(ROOT / "bot" / "discord", tmp_path / "bot" / "discord")
    planted = tmp_path / "bot" / "discord" / "cogs" / "info.py"
    planted.write_text(
        planted.read_text() + "\n\nasync def planted(service):\n"
        "    return await service.store.game(1)  # planted by the test\n"
    )
    assert store_reached(tmp_path) == [
        f"bot/discord/cogs/info.py:{len(planted.read_text().splitlines())}"
    ]


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

"""The layers contract (pyproject's ``[tool.importlinter]``): the engine knows nothing of the
bot; each of the bot's layers (discord, play, render, text, store) imports only the ones
below it; the game service imports no discord.py; words and data nothing that talks to
Discord; Discord's side imports nothing of the store that reaches the database; the bot
imports the engine only through its public faces (``engine`` and ``engine.ai``), never a
module inside them. Checked by import-linter on the code, and shown to fail on a copy of
the code with one bad import planted against each contract.

Discord's side (``bot/discord``) asks the game service, never the store: no import can
show a ``service.store.game_rows.game(...)`` (an attribute, not an import), so ``store_reached``
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
    ("bot/store/storage.py", "import bot.play.jobs"),
    ("bot/play/games.py", "import discord"),
    ("bot/text/strings.py", "import bot.discord.panel"),
    ("bot/discord/notify.py", "from bot.store.storage import Storage"),
    ("bot/discord/cogs/records.py", "from bot.store import rating_store"),
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


# What holds the database, or the games in memory behind the service's back: no code of
# bot/discord names them, as an attribute or as a string (getattr, attrgetter, __dict__).
DATABASE_NAMES = frozenset({"store", "storage", "_store", "db", "_db", "_games"})


def store_reached(where: Path) -> list[str]:
    """Where the code of bot/discord under ``where`` names what holds the database (an
    attribute ``.store``, ``.storage``, ``.db``..., or that name as a string: ``getattr``,
    ``operator.attrgetter``, ``vars(x)[...]``): ``file:line``."""
    found: list[tuple[str, int]] = []
    for path in sorted((where / "bot" / "discord").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            named = isinstance(node, ast.Attribute) and node.attr in DATABASE_NAMES
            said = isinstance(node, ast.Constant) and node.value in DATABASE_NAMES
            if named or said:
                found.append((str(path.relative_to(where)), getattr(node, "lineno", 0)))
    return [f"{file}:{line}" for file, line in sorted(found)]


def test_discords_side_asks_the_game_service_never_the_store(tmp_path: Path) -> None:
    assert store_reached(ROOT) == []
    shutil.copytree(ROOT / "bot" / "discord", tmp_path / "bot" / "discord")
    planted = tmp_path / "bot" / "discord" / "cogs" / "info.py"
    calls = (
        "service.store.game_rows.game(1)",
        "bot.heartbeat.storage.game_rows.game(1)",
        'getattr(service, "store").game(1)',
        'vars(service)["_games"]',
        'operator.attrgetter("db")(service.outbox)',
    )
    lines = planted.read_text().splitlines()
    planted.write_text(
        "\n".join([*lines, "", "", "async def planted(service, bot):"])
        + "".join(f"\n    {call}  # planted by the test" for call in calls)
        + "\n"
    )
    first = len(lines) + 4
    assert store_reached(tmp_path) == [
        f"bot/discord/cogs/info.py:{line}" for line in range(first, first + len(calls))
    ]


# Read off the client (``bot.x``, ``client.x``, ``self.bot.x``, ``interaction.client.x``)
# by no code of bot/discord: the parts, the record of every job, a job, the storage. A part
# is handed what it uses; the client holds its parts for itself.
OFF_THE_CLIENT = frozenset(
    {"parts", "jobs", "database", "store", "storage", "service", "games", "orphans", "readers"}
    | {"digests", "command_digests", "announcer", "boards", "deliveries", "owners", "cogs"}
    | {"background", "heartbeat", "lobby", "seats", "seating", "moves", "channel_settings"}
    | {"turn_clock", "messages", "records", "look", "members", "story", "turns", "final_results"}
    | {"outbox", "coach", "gate", "af_group"}
)
# What may be read off the client, and why: ``file (under bot/): {name: why}``. Only the
# factory, which wires the parts: the client makes these two before it calls the factory.
ALLOWED_OFF_THE_CLIENT: dict[str, dict[str, str]] = {
    "factory.py": {
        "gate": "the gate the client's stop closes, handed to each cog for its buttons",
        "af_group": "/af, which the client adds to its tree, handed to each cog for its commands",
    },
}


def read_off_the_client(where: Path) -> list[str]:
    """Where the code of bot/discord (and the factory) under ``where`` reads one of
    ``OFF_THE_CLIENT`` off the client (an attribute of a name or an attribute ``bot`` or
    ``client``), but what ``ALLOWED_OFF_THE_CLIENT`` allows: ``file:line name``, the file
    under bot/."""
    found = []
    paths = sorted((where / "bot" / "discord").rglob("*.py"))
    for path in [*paths, where / "bot" / "factory.py"]:
        if not path.exists():
            continue
        name = str(path.relative_to(where / "bot"))
        allowed = ALLOWED_OFF_THE_CLIENT.get(name, {})
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Attribute) or node.attr not in OFF_THE_CLIENT:
                continue
            owner = node.value
            held_by = getattr(owner, "id", None) or getattr(owner, "attr", None)
            if held_by in ("bot", "client") and node.attr not in allowed:
                found.append(f"{name}:{node.lineno} {node.attr}")
    return found


def test_no_part_of_discords_side_reads_a_part_off_the_client(tmp_path: Path) -> None:
    assert read_off_the_client(ROOT) == []
    shutil.copytree(ROOT / "bot" / "discord", tmp_path / "bot" / "discord")
    shutil.copy(ROOT / "bot" / "factory.py", tmp_path / "bot" / "factory.py")
    planted = {  # the reviewer's plants, and their kin
        "discord/cogs/records.py": "await cog.bot.parts.jobs.seating.give_to_ai(game)",
        "discord/notify.py": "await notifier.client.jobs.lobby.abort(1)",
        "discord/delivery.py": "interaction.client.parts.games.held(1)",
        "discord/cogs/play.py": "self.bot.deliveries.wake()",
        "factory.py": "await self.client.background.stop_ai()",  # the allowed: two names
    }
    expected = []
    for file, call in planted.items():
        path = tmp_path / "bot" / file
        lines = path.read_text().splitlines()
        path.write_text(
            "\n".join(
                [
                    *lines,
                    "",
                    "",
                    "async def planted(cog, notifier, game, interaction, self):",
                    f"    {call}  # planted by the test",
                    "",
                ]
            )
        )
        attr = call.split(".")[2].split("(")[0]
        expected.append(f"{file}:{len(lines) + 4} {attr}")
    assert sorted(read_off_the_client(tmp_path)) == sorted(expected)


def private_imports(where: Path) -> list[str]:
    """Where a module of bot/discord under ``where`` imports a ``_private`` name of another
    module: ``file:line name``."""
    found = []
    for path in sorted((where / "bot" / "discord").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("bot"):
                found += [
                    f"{path.relative_to(where)}:{node.lineno} {a.name}"
                    for a in node.names
                    if a.name.startswith("_")
                ]
    return found


def test_no_private_name_crosses_the_modules_of_discords_side(tmp_path: Path) -> None:
    assert private_imports(ROOT) == []
    shutil.copytree(ROOT / "bot" / "discord", tmp_path / "bot" / "discord")
    planted = tmp_path / "bot" / "discord" / "game_couriers.py"
    lines = planted.read_text().splitlines()
    planted.write_text("\n".join([*lines, "from bot.discord.messenger import _posted_after", ""]))
    assert private_imports(tmp_path) == [
        f"bot/discord/game_couriers.py:{len(lines) + 1} _posted_after"
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


# What is private to an object (a job's store areas, the storage GameDatabase holds) is
# reached by no other code of the bot: ruff's SLF001, selected in pyproject.toml (tests and
# tools may look inside). Each reach below goes around a job to the rows it keeps.
PRIVATE_REACHES = (
    ("bot/discord/cogs/records.py", "await cog.records._results.leaderboard(1, 10)"),
    ("bot/discord/messenger.py", "messenger.orphans._game_rows.set_channel(1, None)"),
    ("bot/discord/health.py", "beat.database._storage.game_rows.game(1)"),
    ("bot/discord/delivery.py", "worker.outbox._deliveries.forget_deliveries(1)"),
)


def ruff_check(where: Path) -> subprocess.CompletedProcess[str]:
    """ruff's check with the project's own settings (``where``'s pyproject.toml)."""
    return subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise", "."],
        cwd=where,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_ruff_flags_a_reach_into_another_objects_private_names(tmp_path: Path) -> None:
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    expected = []
    for file, call in PRIVATE_REACHES:
        path = tmp_path / file
        path.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / file, path)
        lines = path.read_text().splitlines()
        path.write_text(
            "\n".join([*lines, "", "", "async def planted(cog, messenger, beat, worker):"])
            + f"\n    {call}  # planted by the test\n"
        )
        attr = call.split("._")[1].split(".")[0].split("(")[0]
        expected.append(f"{file}:{len(lines) + 4}: SLF001 Private member accessed: `_{attr}`")
    done = ruff_check(tmp_path)
    flagged = []
    for line in done.stdout.splitlines():  # file:line:column: code message
        file, number, _column, said = line.split(":", 3) if "SLF001" in line else ("",) * 4
        if file:
            flagged.append(f"{file}:{number}:{said}")
    # (the code itself is ruff's check's: tests/test_lint_and_types.py)
    assert set(expected) <= set(flagged), done.stdout + done.stderr


# Where a reach into another object's private names is allowed (a noqa comment for SLF001), and how
# many times: discord.py's internals it has no public way to (deferral.py: the interaction's
# response, its JSON; unclaimed.py: the view store), the guarded response's own state from
# its module's functions (deferral.py), a copy of a game setting its own field (engine).
# A new one is a decision: it is added here, with its reason, not slipped in.
SLF001_ALLOWED = {
    "bot/discord/deferral.py": 8,
    "bot/discord/unclaimed.py": 1,
    "engine/game.py": 1,
}


def test_reaches_into_private_names_are_only_those_allowed() -> None:
    found = {
        str(path.relative_to(ROOT)): count
        for folder in ("bot", "engine")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if (count := path.read_text().count("noqa: SLF001"))
    }
    assert found == SLF001_ALLOWED

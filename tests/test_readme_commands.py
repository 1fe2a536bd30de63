"""The shell commands of the README and of the guides in docs/ work as written: each one
that needs no Discord token, Docker, network or minutes of CPU is run here; every other
one is listed with why not, so a new command in them is either run or explained."""

from __future__ import annotations

import asyncio
import re
import shutil
import subprocess
import sys
from pathlib import Path

from bot.store.storage import Storage

ROOT = Path(__file__).resolve().parents[1]
BACKUP_EXAMPLE = "backups/alienfrontiers-2026-11-26-180000.db"

# Commands not run by the tests, by a pattern, and why.
NOT_RUN: dict[str, str] = {
    r"^python3 -m venv ": "the set-up itself: .ci/run runs it on a clean clone",
    r"^docker ": "needs a Docker engine (none on the test machines)",
    r"tools/lock\.py ": "reaches PyPI and reinstalls the environment (an upgrade)",
    r"^git pull": "fetches the project's next version (the README's update)",
    r"^\.venv/bin/pip install ": "reinstalls the environment (the README's update)",
    r"^git diff ": "a review step of an upgrade",
    r"copy-db .*postgresql://af@localhost": (
        "needs that PostgreSQL server: tests/bot/store/test_copy_db.py runs copy-db against a "
        "throwaway one"
    ),
    r"^read ": "asks for a password at the keyboard (the Docker copy-db recipe)",
    r"-m bot\.text\.catalogues (update|init)": "rewrites the catalogues of the checkout",
    r"-m bot\.text\.catalogues missing de|--locale de": (
        "the recipe for a new language, after `init de`"
    ),
    r"^\S+ -m engine selfplay ": "a benchmark: minutes of CPU",
    r"tests/benchmarks/|tools/tune_weights\.py": "benchmarks: minutes to hours of CPU",
    r"-m pytest": "the suite itself (the slow part of it, for -m slow)",
    r"-m tests\.transcripts": (
        "rewrites docs/transcripts/: tests/test_transcripts.py makes short ones"
    ),
}


# The README and the guides it links to, in the order a reader meets them (a backup in
# hosting.md comes before its restore).
DOCUMENTS = (
    "README.md",
    *(f"docs/{name}.md" for name in ("hosting", "development", "ai", "architecture", "playing")),
)


def readme_commands() -> list[str]:
    """Each command of the ``sh`` blocks of the README and the guides: continuation lines
    joined, comments and empty lines left out."""
    text = "\n".join((ROOT / name).read_text() for name in DOCUMENTS)
    commands: list[str] = []
    for block in re.findall(r"```(?:sh|bash|shell)\n(.*?)```", text, re.S):
        pending = ""
        for line in block.splitlines():
            pending = f"{pending} {line.strip()}".strip()
            if pending.endswith("\\"):
                pending = pending[:-1].rstrip()
                continue
            command = re.sub(r"\s+#.*$", "", pending).strip()
            pending = ""
            if command and not command.startswith("#"):
                commands.append(command)
    return commands


def why_not(command: str) -> str | None:
    return next((why for pattern, why in NOT_RUN.items() if re.search(pattern, command)), None)


def run(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``command`` with this interpreter in place of ``python`` and ``.venv/bin/python``."""
    argv = command.split()
    if argv[0] in ("python", "python3", ".venv/bin/python"):
        argv[0] = sys.executable
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=120)


def test_every_readme_command_is_run_or_says_why_not(tmp_path: Path) -> None:
    commands = readme_commands()
    assert len(commands) > 20
    runnable = [c for c in commands if why_not(c) is None]
    # The bot's own database in a folder of its own, as a server admin's.
    (tmp_path / "data").mkdir()
    shutil.copy(ROOT / ".env.example", tmp_path / ".env.example")
    store = asyncio.run(Storage.open(tmp_path / "data" / "alienfrontiers.db"))
    asyncio.run(store.close())
    ran = []
    for command in runnable:
        if command.startswith("python -m bot restore "):
            # The README's example names the file a backup made at that minute.
            made = sorted((tmp_path / "backups").glob("alienfrontiers-*.db"))
            assert made, "the README's backup comes before its restore"
            made[-1].rename(tmp_path / BACKUP_EXAMPLE)
        cwd = ROOT if "bot.text.catalogues" in command else tmp_path
        done = run(command, cwd)
        assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"
        ran.append(command)
    assert (tmp_path / ".env").exists()
    assert (tmp_path / BACKUP_EXAMPLE).exists()
    assert set(ran) >= {
        "python -m bot backup backups/",
        f"python -m bot restore {BACKUP_EXAMPLE} --yes",
        "cp .env.example .env",
    }


# A password inside a PostgreSQL URL: postgresql://user:secret@host (not user@host).
PASSWORD_IN_URL = re.compile(r"postgres(?:ql)?://[^\s/@:]+:[^\s@]*@")


def test_the_docs_never_put_a_password_inside_a_database_url() -> None:
    """The README, the guides, compose.yaml and .env.example agree: the PostgreSQL password
    goes in PGPASSWORD, where any character works, not inside DATABASE_URL (where @, /, ?
    and # cut the URL in the wrong place)."""
    for name in (*DOCUMENTS, "compose.yaml", ".env.example"):
        found = PASSWORD_IN_URL.findall((ROOT / name).read_text())
        assert not found, (name, found)

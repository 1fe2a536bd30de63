"""The cogs are built by the factory, each handed the parts it uses and only its job of the
game service (issue 43): a ``Protocol`` of ``bot.play.jobs``, never the whole
``GameService``; none takes a part from the client by name."""

from __future__ import annotations

import ast
import typing
from pathlib import Path

from discord.ext import commands

from bot.discord.cogs.base import AfCog, TableCog
from bot.play import jobs
from tests.bot.table import make_bot

COGS = Path(__file__).resolve().parents[3] / "bot" / "discord" / "cogs"
PARTS = ("service", "notifier", "announcer", "deliveries", "owners", "background", "parts")


def test_no_cog_imports_the_whole_game_service_or_reads_a_part_off_the_client() -> None:
    found = []
    for path in sorted(COGS.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "bot.play.service":
                found.append(f"{path.name}:{node.lineno} imports bot.play.service")
            if (
                isinstance(node, ast.Attribute)
                and node.attr in PARTS
                and isinstance(node.value, (ast.Name, ast.Attribute))
                and (getattr(node.value, "id", None) or getattr(node.value, "attr", None))
                in ("bot", "client")
            ):
                found.append(f"{path.name}:{node.lineno} reads {node.attr} off the client")
    assert found == []


def test_each_cog_is_built_by_the_factory_with_a_job_of_the_service(tmp_path: Path) -> None:
    bot = make_bot(tmp_path / "af.db")
    cogs = bot.parts.cogs
    assert [type(c).__name__ for c in cogs] == [
        "Lobby",
        "Seats",
        "ChannelSettings",
        "Notifications",
        "Play",
        "Info",
        "Records",
        "Learn",
    ]
    protocols = {
        getattr(jobs, name) for name in jobs.__all__ if isinstance(getattr(jobs, name), type)
    }
    for cog in cogs:
        assert isinstance(cog, AfCog) and isinstance(cog, commands.Cog)
        assert cog.owners is bot.parts.owners
        named = type(cog).__init__.__annotations__.get("service")  # a name (postponed)
        job = getattr(jobs, str(named), None)
        if isinstance(cog, TableCog):  # Lobby, Seats: TableCog[LobbyJob], TableCog[SeatsJob]
            bases = typing.cast(tuple[object, ...], getattr(type(cog), "__orig_bases__", ()))
            (base,) = [b for b in bases if typing.get_origin(b) is TableCog]
            (job,) = typing.get_args(base)
        assert job in protocols, (type(cog).__name__, job)

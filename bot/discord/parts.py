"""The bot's parts, as the Discord client holds them: the game service's jobs (the record
the factory built: the client asks the games in memory, the orphans and the settings
among them, and the tests and the demo reach every job through it), the parts that talk
to Discord, and the cogs (added to the client when it logs in). Built once, each handed
its ports and only the jobs it uses, by ``bot.factory``.
"""

from __future__ import annotations

from dataclasses import dataclass

from discord.ext import commands

from bot.discord.announce import Announcer
from bot.discord.background import Background
from bot.discord.board_edits import BoardEdits
from bot.discord.delivery import Deliveries
from bot.discord.health import Heartbeat
from bot.discord.owners import InteractionOwners
from bot.play.jobs import GameJobs


@dataclass(frozen=True, slots=True)
class Parts:
    """Everything the bot runs on; see the module docstring."""

    jobs: GameJobs
    announcer: Announcer
    boards: BoardEdits  # the live board's edits (flushed when the bot stops)
    deliveries: Deliveries
    owners: InteractionOwners
    background: Background
    heartbeat: Heartbeat | None
    cogs: tuple[commands.Cog, ...]


__all__ = ["Parts"]

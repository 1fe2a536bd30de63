"""The bot's parts, as the Discord client holds them: the jobs of the game service the
client itself asks (the database, which it opens and closes; the games in memory; the
orphans, for a channel or a server gone; the slash commands' digest; the screen readers'
modes, for the command tree), the parts that talk to Discord, and the cogs (added to the
client when it logs in). Built once, each handed its ports and only the jobs it uses, by
``bot.factory.build_parts``. The record of every job (``bot.play.jobs.GameJobs``) is not
among them: it stays with the factory (``bot.factory.Built``), and no part of Discord's
side can reach it, nor the storage.
"""

from __future__ import annotations

from dataclasses import dataclass

from discord.ext import commands

from bot.discord.announce import Announcer
from bot.discord.background import Background
from bot.discord.board_edits import BoardEdits
from bot.discord.delivery import DeliveryWorker
from bot.discord.health import Heartbeat
from bot.discord.owners import InteractionOwners
from bot.play.command_digests import CommandDigests
from bot.play.database import GameDatabase
from bot.play.held_games import HeldGames
from bot.play.orphan_service import OrphanService
from bot.play.readers import Readers


@dataclass(frozen=True, slots=True)
class Parts:
    """Everything the bot runs on; see the module docstring."""

    database: GameDatabase  # the database: opened when the bot logs in, closed when it stops
    games: HeldGames  # the games in memory: loaded, held, their locks
    orphans: OrphanService  # a channel deleted, the bot removed from a server, added back
    command_digests: CommandDigests  # the slash commands' digest: synced only when changed
    readers: Readers  # the screen readers' modes: the command tree's refusals
    announcer: Announcer
    boards: BoardEdits  # the live board's edits (flushed when the bot stops)
    deliveries: DeliveryWorker
    owners: InteractionOwners
    background: Background
    heartbeat: Heartbeat | None
    cogs: tuple[commands.Cog, ...]


__all__ = ["Parts"]

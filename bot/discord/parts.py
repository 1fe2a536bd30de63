"""The bot's parts, as the Discord client holds them: the storage, the game service, and
the parts that talk to Discord. Built once, each handed its ports, by ``bot.factory``.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.discord.announce import Announcer
from bot.discord.background import Background
from bot.discord.delivery import Deliveries
from bot.discord.notify import Notifier
from bot.discord.owners import InteractionOwners
from bot.health import Heartbeat
from bot.play.service import GameService
from bot.play.turns import Moves


@dataclass(frozen=True, slots=True)
class Parts:
    """Everything the bot runs on; see the module docstring."""

    service: GameService
    notifier: Notifier
    announcer: Announcer
    deliveries: Deliveries
    owners: InteractionOwners
    background: Background
    moves: Moves
    heartbeat: Heartbeat | None


__all__ = ["Parts"]

"""Discord bot for Alien Frontiers (discord.py): commands, panels, storage, board image.

``create_bot(settings)`` builds the bot without connecting; ``python -m bot`` runs
it and ``python -m bot --demo DIR`` plays a game between AI seats offline.
Importing this package runs nothing and does not import discord.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.discord.client import AlienFrontiersBot


def create_bot(*args: Any, **kwargs: Any) -> AlienFrontiersBot:
    """Build the bot without connecting; see ``bot.factory.create_bot`` for the arguments."""
    from bot.factory import create_bot as build

    return build(*args, **kwargs)


__all__ = ["create_bot"]

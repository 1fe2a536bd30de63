"""Local fake of Discord's HTTP API plus gateway-event injection for discord.py tests.

Typical use::

    async with FakeDiscord() as fake, BotHarness(fake, make_bot()) as h:
        result = await h.interact(h.slash("demo ping"))
        assert result.message["content"] == "pong"

A bot in its own process (``python -m tests.discord_fake.launch``) connects to
``fake.gateway`` instead; see ``tests/bot/test_sigterm.py``.
"""

from . import payloads
from .gateway import FakeGateway
from .harness import BotHarness, InteractionResult, StartBot
from .payloads import TestGuild, build_test_guild, find_component
from .server import (
    ApiError,
    FakeDiscord,
    FakeDiscordTimeout,
    FakeResponse,
    InteractionState,
    RecordedFile,
    RecordedRequest,
)

__all__ = [
    "ApiError",
    "BotHarness",
    "FakeDiscord",
    "FakeDiscordTimeout",
    "FakeGateway",
    "FakeResponse",
    "InteractionResult",
    "InteractionState",
    "RecordedFile",
    "RecordedRequest",
    "StartBot",
    "TestGuild",
    "build_test_guild",
    "find_component",
    "payloads",
]

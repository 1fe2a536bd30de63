"""pytest fixtures for the fake Discord.

Enable with ``pytest_plugins = ["tests.discord_fake.fixtures"]`` in
``tests/conftest.py``.  Fixtures are function scoped: every test gets a
fresh server and world.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest_asyncio

from .harness import BotHarness, StartBot
from .server import FakeDiscord


@pytest_asyncio.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A running :class:`FakeDiscord` with the default test guild."""
    async with FakeDiscord() as fake:
        yield fake


@pytest_asyncio.fixture
async def start_bot(fake_discord: FakeDiscord) -> AsyncIterator[StartBot]:
    """Factory ``await start_bot(bot, **harness_kwargs) -> BotHarness``.

    Every harness started through it is closed at teardown (newest first),
    before the fake server stops; uncollected discord.py errors fail the test.
    """
    harnesses: list[BotHarness] = []

    async def start(bot: discord.Client, **kwargs: Any) -> BotHarness:
        harness = BotHarness(fake_discord, bot, **kwargs)
        harnesses.append(harness)
        return await harness.start()

    yield start
    failures: list[AssertionError] = []
    for harness in reversed(harnesses):
        try:
            await harness.close()
        except AssertionError as exc:
            failures.append(exc)
    if failures:
        raise failures[0]

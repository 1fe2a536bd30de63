"""Test only: run ``python -m bot`` against a fake Discord, in its own process.

``python -m tests.discord_fake.launch [bot arguments]`` with ``AF_FAKE_DISCORD`` set
to the fake's base URL (``http://127.0.0.1:PORT``): discord.py's REST calls go to
the fake's API and its gateway connection to the fake's websocket, then the bot's
own ``main`` runs as ``python -m bot`` would. The bot itself has no such hook.
"""

from __future__ import annotations

import os
import sys

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from .gateway import PATH as GATEWAY_PATH
from .server import API_PREFIX

ENV = "AF_FAKE_DISCORD"


def point_at_fake(base_url: str) -> None:
    """Send discord.py's REST requests and gateway connection to the fake at ``base_url``."""
    Route.BASE = base_url + API_PREFIX
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(
        base_url.replace("http://", "ws://", 1) + GATEWAY_PATH
    )


def main(argv: list[str]) -> int:
    point_at_fake(os.environ[ENV])
    from bot.__main__ import main as bot_main

    return bot_main(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""A minimal Discord gateway (websocket) for the fake, for a bot running in its own process.

In-process tests feed events straight to discord.py's parsers (``BotHarness``); a real
``python -m bot`` process needs a websocket. This one speaks just enough of the
gateway protocol for discord.py: HELLO on connect, READY (built from the fake's
world) after IDENTIFY, an ACK for every heartbeat, RESUMED after a RESUME, and
events the test sends with :meth:`FakeGateway.dispatch` (``INTERACTION_CREATE``).
Sharding as Discord does it: an IDENTIFY with ``shard: [id, count]`` gets the servers
of that shard (``(guild_id >> 22) % count``) in its READY, and a server's events go to
the connection of its shard only, so several bot processes can share the fake.
Frames are plain JSON text; the ``compress`` query parameter is ignored (discord.py
reads text frames as they are).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from . import payloads as p

if TYPE_CHECKING:
    from .server import FakeDiscord

PATH = "/gateway-ws"
DISPATCH, HEARTBEAT, IDENTIFY, RESUME = 0, 1, 2, 6
RECONNECT, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 7, 9, 10, 11
HEARTBEAT_INTERVAL_MS = 41_250


class FakeGateway:
    """The gateway websocket of a :class:`~.server.FakeDiscord` (at :data:`PATH`)."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.sessions: list[web.WebSocketResponse] = []
        self.shard_of_session: dict[web.WebSocketResponse, tuple[int, int]] = {}
        self.identified = asyncio.Event()  # a bot identified and was sent READY
        self._changed = asyncio.Condition()
        self.disconnected = asyncio.Event()  # the last identified bot went away
        self.received: list[dict[str, Any]] = []  # every frame the bots sent
        self.sequence = 0

    @property
    def url(self) -> str:
        return self.fake.base_url.replace("http://", "ws://", 1) + PATH

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        await ws.send_json({"op": HELLO, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}})
        try:
            async for message in ws:
                if message.type is not WSMsgType.TEXT:
                    continue
                frame = json.loads(message.data)
                self.received.append(frame)
                await self._answer(ws, frame)
        finally:
            if ws in self.sessions:
                self.sessions.remove(ws)
                if not self.sessions:
                    self.disconnected.set()
            self.shard_of_session.pop(ws, None)
        return ws

    @staticmethod
    def shard_of(guild_id: int, count: int) -> int:
        """Discord's shard of a server."""
        return (guild_id >> 22) % count

    def connected_shards(self) -> set[int]:
        return {shard for shard, _ in self.shard_of_session.values()}

    async def wait_shard(self, shard_id: int) -> None:
        """Wait until a bot identified as ``shard_id`` (is sent READY) is connected."""
        async with self._changed:
            await self._changed.wait_for(lambda: shard_id in self.connected_shards())

    async def wait_gone(self, shard_id: int) -> None:
        """Wait until no connection of ``shard_id`` is left (its bot stopped or died)."""
        while shard_id in self.connected_shards():
            await asyncio.sleep(0.02)

    async def _answer(self, ws: web.WebSocketResponse, frame: Mapping[str, Any]) -> None:
        op = frame.get("op")
        if op == HEARTBEAT:
            await ws.send_json({"op": HEARTBEAT_ACK})
        elif op == IDENTIFY:
            shard, count = (frame.get("d") or {}).get("shard") or (0, 1)
            guilds = [
                self.fake.guild_payload(gid)
                for gid in self.fake.guilds
                if self.shard_of(gid, count) == shard and self.fake.bot_in(gid)
            ]
            ready = p.ready(
                self.fake.bot_user, application_id=self.fake.application_id, guilds=guilds
            )
            ready["resume_gateway_url"] = self.url
            ready["shard"] = [shard, count]
            self.sessions.append(ws)
            self.disconnected.clear()
            await self._send(ws, "READY", ready)
            async with self._changed:
                self.shard_of_session[ws] = (int(shard), int(count))
                self._changed.notify_all()
            self.identified.set()
        elif op == RESUME:
            self.sessions.append(ws)
            await self._send(ws, "RESUMED", {})

    async def _send(self, ws: web.WebSocketResponse, event: str, data: Mapping[str, Any]) -> None:
        self.sequence += 1
        await ws.send_json({"op": DISPATCH, "t": event, "s": self.sequence, "d": dict(data)})

    async def dispatch(self, event: str, data: Mapping[str, Any]) -> None:
        """Send an event (e.g. ``INTERACTION_CREATE``) to the bot of its server's shard (to
        every identified bot if it has no server)."""
        targets = list(self.sessions)
        guild = data.get("guild_id")
        if guild is not None:
            targets = [
                ws
                for ws in targets
                if (shard := self.shard_of_session.get(ws)) is not None
                and self.shard_of(int(guild), shard[1]) == shard[0]
            ]
        if not targets:
            raise RuntimeError(f"no bot is connected to the fake gateway to receive {event}")
        for ws in targets:
            await self._send(ws, event, data)

    async def forward(self, event: str, data: Mapping[str, Any]) -> None:
        """An event of the fake's world (a channel deleted, the bot removed from a server...)
        to the bots it concerns, if any is connected."""
        routed = dict(data)
        if event.startswith("GUILD_"):
            routed.setdefault("guild_id", data.get("id"))
        with contextlib.suppress(RuntimeError):  # no bot of that server's shard is connected
            await self.dispatch(event, routed)

    async def close(self) -> None:
        for ws in list(self.sessions):
            await ws.close()


__all__ = ["PATH", "FakeGateway"]

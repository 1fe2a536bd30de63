"""Real ``python -m bot`` processes against the fake Discord (REST and gateway), for the
tests that stop or kill a process and for the scale benchmark.

``BotProcess`` starts the bot through ``tests.discord_fake.launch`` with the given
environment (a database URL, shards) and reads its log; ``guild_on_shard`` adds a
server that Discord would send to a given shard; ``slash_in`` builds a slash command
in any server and channel of the fake; ``Mover`` sends ``/play`` through the gateway
and waits for the bot's answer (direct, or deferred then followed up).
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tests.discord_fake import FakeDiscord
from tests.discord_fake import payloads as p
from tests.discord_fake.harness import CALLBACK_ROUTE, FOLLOWUP_ROUTE, _split_command
from tests.discord_fake.launch import ENV

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "A" * 24 + ".BBBBBB." + "C" * 27
# Bounds for awaiting only (a slow, busy machine); nothing here measures time.
START = 60.0
WAIT = 30.0


class Output:
    """A process's log (stderr), line by line, with a way to wait for a line."""

    def __init__(self, stream: asyncio.StreamReader) -> None:
        self.lines: list[str] = []
        self._changed = asyncio.Condition()
        self.task = asyncio.create_task(self._read(stream))

    async def _read(self, stream: asyncio.StreamReader) -> None:
        async for raw in stream:
            async with self._changed:
                self.lines.append(raw.decode(errors="replace").rstrip())
                self._changed.notify_all()

    async def wait_for(self, text: str, timeout: float = WAIT) -> None:
        async with self._changed:
            await asyncio.wait_for(
                self._changed.wait_for(lambda: any(text in line for line in self.lines)), timeout
            )

    def __str__(self) -> str:
        return "\n".join(self.lines)


class BotProcess:
    """``python -m bot`` in its own process, pointed at ``fake`` (see the module docstring)."""

    def __init__(self, fake: FakeDiscord, env: Mapping[str, str], workdir: Path) -> None:
        self.fake = fake
        self.env = {
            **os.environ,
            ENV: fake.base_url,
            "DISCORD_TOKEN": TOKEN,
            "SYNC_COMMANDS": "false",
            "AI_PAUSE_SECONDS": "0",
            "LOG_LEVEL": "INFO",
            **env,
        }
        self.workdir = workdir
        self.proc: asyncio.subprocess.Process | None = None
        self.log: Output | None = None

    async def start(self) -> BotProcess:
        empty = self.workdir / "no.env"  # not the checkout's .env: the settings are env's
        empty.touch()
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.discord_fake.launch",
            "--env-file",
            str(self.workdir / "no.env"),
            cwd=ROOT,
            env=self.env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        assert self.proc.stderr is not None
        self.log = Output(self.proc.stderr)
        return self

    async def ready(self, timeout: float = START) -> None:
        """Wait until the bot logged that it is ready (connected, games resumed)."""
        assert self.log is not None
        try:
            await self.log.wait_for("ready as", timeout)
        except TimeoutError:
            raise AssertionError(f"the bot did not become ready:\n{self.log}") from None

    def kill(self) -> None:
        """SIGKILL: no clean-up of any kind, as a crash or ``kill -9``."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)

    async def wait(self, timeout: float = WAIT) -> int:
        assert self.proc is not None
        code = await asyncio.wait_for(self.proc.wait(), timeout)
        if self.log is not None:
            await self.log.task
        return code

    async def stop(self) -> None:
        """SIGTERM and wait (SIGKILL if it hangs); safe to call on a dead process."""
        if self.proc is None:
            return
        if self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.proc.wait(), WAIT)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()
        if self.log is not None:
            await self.log.task


def guild_on_shard(fake: FakeDiscord, shard: int, count: int, name: str) -> p.TestGuild:
    """A new server (owner, manager, member, #general) that Discord sends to ``shard``."""
    while True:
        guild = p.build_test_guild(fake.bot_user, name=name)
        if (guild.id >> 22) % count == shard:
            fake.add_guild(guild.payload)
            return guild
        time.sleep(0.001)  # ids carry the time in milliseconds: the next one may fit


def slash_in(
    fake: FakeDiscord,
    guild: p.TestGuild,
    user_id: int,
    name: str,
    options: Mapping[str, Any] | None = None,
    *,
    channel_id: int | None = None,
) -> dict[str, Any]:
    """A slash command (``"af new"``) by ``user_id`` in a channel of ``guild`` (default
    ``#general``)."""
    channel = fake.get_channel(channel_id if channel_id is not None else guild.channel_id)
    top, group, sub = _split_command(name)
    payload = p.slash_command(
        top,
        application_id=fake.application_id,
        channel=channel,
        options=options,
        group=group,
        subcommand=sub,
        guild_payload=fake.guilds[guild.id],
        member_payload=fake.get_member(guild.id, user_id),
        bot_member=fake.get_member(guild.id, int(fake.bot_user["id"])),
    )
    fake.register_interaction(payload)
    return payload


async def answer(fake: FakeDiscord, payload: Mapping[str, Any], timeout: float = WAIT) -> str:
    """The content of the bot's answer to an interaction sent through the gateway: the
    callback's message, or the follow-up after a deferral."""
    interaction = int(payload["id"])
    callback = await fake.wait_for(
        route=CALLBACK_ROUTE, interaction_id=interaction, timeout=timeout
    )
    if callback.callback_type == 4:
        return str(callback.json["data"].get("content", ""))
    follow = await fake.wait_for(
        method="POST", route=FOLLOWUP_ROUTE, interaction_id=interaction, timeout=timeout
    )
    return str(follow.json.get("content", ""))


async def command(
    fake: FakeDiscord,
    guild: p.TestGuild,
    user_id: int,
    name: str,
    options: Mapping[str, Any] | None = None,
    *,
    channel_id: int | None = None,
) -> str:
    """Send a slash command through the gateway and return the bot's answer."""
    payload = slash_in(fake, guild, user_id, name, options, channel_id=channel_id)
    await fake.gateway.dispatch("INTERACTION_CREATE", payload)
    return await answer(fake, payload)


def user_id(member: Mapping[str, Any]) -> int:
    return int(member["user"]["id"])


__all__ = [
    "ROOT",
    "TOKEN",
    "BotProcess",
    "Output",
    "answer",
    "command",
    "guild_on_shard",
    "slash_in",
    "user_id",
]

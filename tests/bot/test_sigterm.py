"""SIGTERM (``docker stop``) or SIGINT (Ctrl-C) mid-move, on a real ``python -m bot`` process.

The bot runs in its own process against the fake Discord (REST and gateway, through
``tests.discord_fake.launch``). A member's ``/play`` is held while the bot answers
it; the signal arrives; a new interaction is then refused; the held answer goes
through. The process must exit 0 with the move applied once and answered, the
refused interaction changing nothing, and the database intact.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sqlite3
import sys
from pathlib import Path

import pytest

from bot.factory import build_service
from bot.store.storage import Storage
from engine import legal_actions
from tests.bot.processes import ROOT, START, TOKEN, Output, slash_in
from tests.bot.table import game_between
from tests.discord_fake import FakeDiscord
from tests.discord_fake.extra import HeldCallback
from tests.discord_fake.harness import CALLBACK_ROUTE
from tests.discord_fake.launch import ENV

WAIT = 20.0


async def game_in_play(
    db: Path, guild: int, channel: int, users: list[int]
) -> tuple[int, str, int]:
    """A game in play between two members, stored as the bot stores it (not yet shown).

    Returns the game id, a legal move for the member to act and that member's id.
    """
    store = await Storage.open(db)
    try:
        jobs = build_service(store, new_seed=lambda: 1234)
        game = await game_between(
            jobs,
            guild=guild,
            channel=channel,
            users=(users[0], users[1]),
            names=("owner", "member"),
        )
        moves = [str(a) for a in legal_actions(game.state) if str(a).startswith("dock")]
        user = game.user_to_act()
        assert user is not None and moves
        return game.id, random.Random(7).choice(moves), user
    finally:
        await store.close()


def member_moves(db: Path, game_id: int) -> int:
    with sqlite3.connect(db) as conn:
        (count,) = conn.execute(
            "SELECT COUNT(*) FROM actions WHERE game_id = ? AND user_id IS NOT NULL", (game_id,)
        ).fetchone()
    return int(count)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
async def test_stop_signal_mid_move_finishes_it_and_exits_cleanly(
    tmp_path: Path, signum: signal.Signals
) -> None:
    db = tmp_path / "af.db"
    async with FakeDiscord() as fake:
        assert fake.guild is not None
        users = [int(fake.guild.owner["user"]["id"]), int(fake.guild.member["user"]["id"])]
        guild = int(fake.guild.payload["id"])
        game_id, move, user = await game_in_play(db, guild, fake.guild.channel_id, users)
        before = member_moves(db, game_id)

        env = {
            **os.environ,
            ENV: fake.base_url,
            "DISCORD_TOKEN": TOKEN,
            "DATABASE_URL": f"sqlite:///{db}",
            "SYNC_COMMANDS": "false",
            "AI_PAUSE_SECONDS": "0",
            "LOG_LEVEL": "INFO",
            "TURN_REMINDER_HOURS": "0",
        }
        (tmp_path / "no.env").touch()  # not the checkout's .env: the settings are env's
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.discord_fake.launch",
            "--env-file",
            str(tmp_path / "no.env"),
            cwd=ROOT,
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        assert proc.stderr is not None
        log = Output(proc.stderr)
        try:
            await asyncio.wait_for(fake.gateway.identified.wait(), START)
            # The bot resumed the game: its turn message is posted.
            await fake.wait_for(
                method="POST", route="/channels/{channel_id}/messages", timeout=WAIT
            )

            play = slash_in(fake, fake.guild, user, "play", {"move": move})
            held = HeldCallback(fake, int(play["id"]))
            await fake.gateway.dispatch("INTERACTION_CREATE", play)
            await asyncio.wait_for(held.arrived.wait(), WAIT)  # committed, being answered

            proc.send_signal(signum)
            await log.wait_for("stop signal received")
            late = slash_in(fake, fake.guild, user, "play", {"move": "end"})
            await fake.gateway.dispatch("INTERACTION_CREATE", late)
            refused = await fake.wait_for(
                route=CALLBACK_ROUTE, interaction_id=int(late["id"]), timeout=WAIT
            )
            assert proc.returncode is None  # still finishing the move in flight

            held.release.set()
            code = await asyncio.wait_for(proc.wait(), WAIT)
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
            await log.task
        output = "\n".join(log.lines)
        assert code == 0, output

        # The move: applied exactly once, answered, and shown.
        (answer,) = fake.find(route=CALLBACK_ROUTE, interaction_id=int(play["id"]))
        assert answer.status == 200 and answer.json["data"]["content"].startswith("✅"), output
        shown = [r for r in fake.requests[answer.index :] if r.route.startswith("/channels/")]
        assert shown and all(r.status < 300 for r in shown)
        assert member_moves(db, game_id) == before + 1
        # The interaction that came after the signal: refused privately, nothing done.
        assert refused.status == 200 and refused.json["data"]["flags"] & 64
        assert "restarting" in refused.json["data"]["content"]
        assert fake.gateway.disconnected.is_set()
        assert "database closed" in output
        assert "Traceback" not in output and " ERROR " not in output, output
        with sqlite3.connect(db) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)

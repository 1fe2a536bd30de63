"""A delivery made but not recorded (the database refused the write) is recorded before a
later one takes its place: the message it posted stays the one its turn's close edits."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.bot.discord.test_deliveries_e2e import assert_told_once, opened, recover
from tests.bot.discord.test_play_e2e import finish_turn
from tests.bot.table import jobs_of
from tests.discord_fake import StartBot


async def test_a_turn_message_posted_but_not_recorded_is_not_posted_again_when_its_turn_closes(
    tmp_path: Path, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A turn's message is posted while the database refuses writes: its id is not recorded
    (kept in memory), its lane waits its backoff. The member, pinged by it, plays the turn
    to its end once the database takes writes again, before the backoff is over: the turn
    deliveries queued meanwhile must not drop the unrecorded one (its message's id lost),
    else the closed turn is posted anew beside that message — two messages for one turn
    (found by the chaos benchmark, seed 2)."""
    t, clock = await opened(tmp_path / "af.db", start_bot)
    last = await finish_turn(t)
    store = jobs_of(t.bot).store
    refused = sqlite3.OperationalError("attempt to write a readonly database")

    async def read_only(*args: Any, **kwargs: Any) -> Any:
        raise refused

    monkeypatch.setattr(store.deliveries, "delivered", read_only)
    await t.play(last)  # the next turn's message posted, its id not recorded
    monkeypatch.undo()
    turn = t.state.turn_number
    last = await finish_turn(t)  # its moves committed while the lane waits its backoff
    await t.play(last)
    await recover(t, clock)
    shown = [m for m in t.channel_messages() if str(m["content"]).startswith("🎲")]
    assert t.state.turn_number == turn + 1
    assert len(shown) == turn + 1, [str(m["content"]).split("\n")[0] for m in shown]
    await assert_told_once(t)

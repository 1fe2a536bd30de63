"""A message made but not recorded before a restart (the process died, or stopped while
the database refused writes), or by an attempt whose answer was lost: its id is not known.
If what it was made for moves on before it is delivered again, the delivery that shows it
now (a turn's close, the lobby as it is) finds that message and edits it, never posting a
second one. (The game over is posted once and never changes: found by its text.)"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.bot.discord.test_deliveries_e2e import (
    MESSAGES,
    arm,
    assert_told_once,
    opened,
    recover,
    table,
    turn_messages,
)
from tests.bot.discord.test_delivery_owners_e2e import next_turn_posted_answer_lost
from tests.bot.discord.test_play_e2e import finish_turn
from tests.bot.table import Table, jobs_of, make_bot
from tests.discord_fake import StartBot


async def test_a_turn_message_posted_unrecorded_before_a_restart_is_closed_not_posted_again(
    tmp_path: Path, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The next turn's message is posted while the database refuses writes (its id kept in
    memory only), and the bot stops then, unable even to let its lanes go. The new process
    waits out the old lease; meanwhile the member, pinged by that message, plays the turn
    to its end: the turn's deliveries collapse into the last, and the turn's close must
    find the turn's message among the channel's latest and edit it — not post the closed
    turn beside it (two messages for one turn)."""
    db = tmp_path / "af.db"
    t, clock = await opened(db, start_bot)
    last = await finish_turn(t)
    store = jobs_of(t.bot).store
    refused = sqlite3.OperationalError("attempt to write a readonly database")

    async def read_only(*args: Any, **kwargs: Any) -> Any:
        raise refused

    monkeypatch.setattr(store.deliveries, "delivered", read_only)
    monkeypatch.setattr(store.deliveries, "release_lanes", read_only)
    await t.play(last)  # the next turn's message posted, its id not recorded
    game_id = t.game().id
    turn = t.state.turn_number
    assert turn_messages(t, game_id)[turn] == 1
    await t.h.close()  # stops while writes are refused: its lanes stay held a while
    monkeypatch.undo()
    again = Table(await start_bot(make_bot(db, clock=clock)))
    again.members = dict(t.members)
    last = await finish_turn(again)  # committed; its lane still the old process's
    await again.play(last)
    assert again.state.turn_number == turn + 1
    await recover(again, clock)
    shown = [m for m in again.channel_messages() if str(m["content"]).startswith("🎲")]
    assert len(shown) == turn + 1, [str(m["content"]).split("\n")[0] for m in shown]
    await assert_told_once(again)


@pytest.mark.parametrize("form", ["board", "text"])
async def test_a_turn_message_whose_post_may_have_failed_is_closed_not_posted_again(
    tmp_path: Path, start_bot: StartBot, form: str
) -> None:
    """The next turn's message reaches Discord but its answer is lost (posted or not: the
    bot cannot tell), and its lane waits its backoff while the member, pinged by it, plays
    the turn to its end: the turn's deliveries collapse into the next turn's, and the
    turn's close must find the turn's message and edit it, not post the closed turn beside
    it (the nonce of the turn's message does not cover its close). ``text``: Discord
    rejected the message with its board, so it went as text (found by its first line)."""
    t, clock = await opened(tmp_path / "af.db", start_bot)
    last = await finish_turn(t)
    if form == "text":
        t.fake.fail_next("POST", MESSAGES, status=400, code=50035, message="Invalid Form Body")
    arm(t, "POST", MESSAGES, "reset_after")
    await t.play(last)  # posted, its answer lost: the lane waits
    turn = t.state.turn_number
    headers = [str(m["content"]).split("\n")[0] for m in t.channel_messages()]
    assert len([h for h in headers if h.startswith("🎲")]) == turn
    last = await finish_turn(t)
    await t.play(last)
    assert t.state.turn_number == turn + 1
    await recover(t, clock)
    shown = [m for m in t.channel_messages() if str(m["content"]).startswith("🎲")]
    assert len(shown) == turn + 1, [str(m["content"]).split("\n")[0] for m in shown]
    if form == "board":
        await assert_told_once(t)


async def test_a_turn_message_posted_unrecorded_is_found_by_its_close_an_hour_later(
    tmp_path: Path, start_bot: StartBot
) -> None:
    """The bot is killed right after its post of the next turn's message reaches Discord;
    the new process cannot read the channel's history for a while (Discord failing), and
    the member, pinged by the message, plays the turn over an hour: the close, queued an
    hour after the turn's message was, looks for it since the turn's first delivery was
    queued — the message is closed, not posted anew."""
    db = tmp_path / "af.db"
    t, clock, _, turn = await next_turn_posted_answer_lost(db, start_bot)
    arm(t, "GET", MESSAGES, "503", times=10**6)  # the history: it cannot be looked for
    await t.h.close()
    again = Table(await start_bot(make_bot(db, clock=clock)))
    again.members = dict(t.members)
    last = await finish_turn(again)
    clock.advance(1)
    await again.play(last)
    assert again.state.turn_number == turn + 1
    again.fake.clear_failures()
    await recover(again, clock)
    shown = [m for m in again.channel_messages() if str(m["content"]).startswith("🎲")]
    assert len(shown) == turn + 1, [str(m["content"]).split("\n")[0] for m in shown]
    await assert_told_once(again)


async def test_a_lobby_message_posted_unrecorded_before_a_restart_is_edited_not_posted_again(
    tmp_path: Path, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lobby's message is posted (the answer to ``/af new``) while the database refuses
    writes, and the bot stops then, unable to let its lanes go. A member joins before the
    new process may deliver the lane: the lobby, shown as it is now (two seats), is not the
    text that was posted (one seat) — its message is found by its first line and edited,
    not posted a second time."""
    db = tmp_path / "af.db"
    t, clock = await table(db, start_bot)
    store = jobs_of(t.bot).store
    refused = sqlite3.OperationalError("attempt to write a readonly database")

    async def read_only(*args: Any, **kwargs: Any) -> Any:
        raise refused

    monkeypatch.setattr(store.deliveries, "delivered", read_only)
    monkeypatch.setattr(store.deliveries, "release_lanes", read_only)
    await t.cmd("af new", {"players": 2}, "owner")  # posted, its id not recorded
    await t.h.close()
    monkeypatch.undo()
    again = Table(await start_bot(make_bot(db, clock=clock)))
    again.members = dict(t.members)
    await again.cmd("af join", member="member")  # committed; its lane the old process's
    await recover(again, clock)
    lobbies = [m for m in again.channel_messages() if str(m["content"]).startswith("🪐")]
    assert len(lobbies) == 1, [str(m["content"]).split("\n")[0] for m in lobbies]
    assert "2/2 seats" in str(lobbies[0]["content"])
    row = await jobs_of(again.bot).store.game_rows.game(again.game().id)
    assert row is not None and row.lobby_message_id == int(lobbies[0]["id"])

"""A deferral Discord took whose reply was lost, through discord.py and the fake Discord.

A command or click still unanswered after ``defer_after_seconds`` is deferred
(``bot.discord.deferral``). When the connection drops after Discord took the deferral,
the bot cannot know it landed; the handler's answer, sent as an interaction callback, is
then refused (40060: acknowledged already). That deferral was this process's own, so the
answer goes as its follow-up: the member gets exactly one answer, never "thinking…" for
ever, and never two.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from tests.bot.discord.test_committed_moves_e2e import docks, logged
from tests.bot.discord.test_database_busy_e2e import (
    DEFERRED,
    DEFERRED_UPDATE,
    panel_payload,
    table,
)
from tests.bot.table import jobs_of
from tests.discord_fake import StartBot
from tests.discord_fake.harness import CALLBACK_ROUTE, FOLLOWUP_ROUTE, WEBHOOK_MESSAGE_ROUTE
from tests.discord_fake.server import Fault

ALREADY_ACKNOWLEDGED = 40060
MESSAGE = 4  # a callback answering with a message
UPDATE = 7  # a click's callback editing its message


@pytest.mark.parametrize("fault", ["reset_after", "reset"])
@pytest.mark.parametrize("how", ["command", "click"])
async def test_an_answer_after_a_deferral_whose_reply_was_lost_follows_the_deferral(
    tmp_path: Path, start_bot: StartBot, how: str, fault: str
) -> None:
    """A move's commit is slow, the deferral falls due, and the connection drops after
    Discord took it (``reset_after``): the move is committed once, and its answer (a
    command's private answer, a click's edit of the turn message) follows the deferral —
    the "thinking…" message becomes the answer, with no second message. Dropped before
    Discord took it (``reset``), the answer is the interaction's one callback."""
    t, _ = await table(tmp_path / "af.db", start_bot, defer_after_seconds=0.05)
    fake = t.fake
    await t.open(humans=("owner", "member"))
    member = t.member_to_act()
    move = docks(t)[0]
    before = await logged(t)
    if how == "command":
        payload = t.h.slash("play", {"move": move}, member=member)
    else:
        payload = await panel_payload(t, move, member)
    store = jobs_of(t.bot).store
    commit = store.action_log.commit_actions
    deferral_tried = asyncio.Event()

    async def slow(*args: Any, **kwargs: Any) -> Any:
        await deferral_tried.wait()  # the commit outlasts the deferral's attempt
        return await commit(*args, **kwargs)

    store.action_log.commit_actions = slow  # type: ignore[method-assign]

    def drop_the_first_callback(method: str, route: str, path: str) -> Fault | None:
        if method != "POST" or route != CALLBACK_ROUTE or deferral_tried.is_set():
            return None
        deferral_tried.set()  # the first callback: the deferral (the commit waits)
        return Fault(mode=fault)

    fake.fault_hook = drop_the_first_callback
    t.members[t.user_id(member)] = member
    result = await t.h.interact(payload, expect_response=False)
    await result.done(timeout=10.0)
    await t.settle(result)
    store.action_log.commit_actions = commit  # type: ignore[method-assign]
    assert await logged(t) == [*before, move]  # applied once
    state = fake.interactions[result.id]
    if fault == "reset":  # the deferral never reached Discord: the answer is the callback
        assert state.response_type == (MESSAGE if how == "command" else UPDATE)
        assert [r for r in result.requests if r.route != CALLBACK_ROUTE] == []
        assert [r.status for r in result.requests] == [200]  # (a dropped one is not kept)
        return
    deferral = DEFERRED if how == "command" else DEFERRED_UPDATE
    assert [r.callback_type for r in result.requests if r.route == CALLBACK_ROUTE] == [
        deferral,  # taken, its reply lost
        MESSAGE if how == "command" else UPDATE,  # the answer, refused: 40060
    ]
    assert state.response_type == deferral  # the deferral landed
    if how == "command":
        answer = result.message
        assert answer is not None and not state.deferred_loading  # "thinking…" no more
        assert move in str(answer.get("content"))
        assert state.followup_ids == []  # one answer: the deferral's message, edited
        # Sent once, through the token: the "thinking…" edited (bot.discord.deferral)
        sent = fake.find(route=FOLLOWUP_ROUTE, interaction_id=result.id) + [
            r
            for r in fake.find(route=WEBHOOK_MESSAGE_ROUTE, interaction_id=result.id)
            if r.method == "PATCH"
        ]
        assert len(sent) == 1
    else:
        shown = t.turn_message()
        versions = {
            int(str(c["custom_id"]).split(":")[3])
            for row in shown["components"]
            for c in row.get("components", [])
            if str(c.get("custom_id", "")).startswith("af:")
        }
        assert versions == {t.game().state.version}  # the board edited after the move
        assert state.followup_ids == []  # no private message beside the click's edit
    refused = [
        r
        for r in result.requests
        if r.status >= 400
        and not (isinstance(r.response, dict) and r.response.get("code") == ALREADY_ACKNOWLEDGED)
    ]
    assert refused == [], refused

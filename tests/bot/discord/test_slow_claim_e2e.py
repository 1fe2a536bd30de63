"""A slow claim does not lose an interaction's answer (two processes over one PostgreSQL).

Both processes of a rolling restart are given every command and click, and only the one
that claims it acts (``bot.discord.owners``). Discord takes a first answer within 3 s of
the interaction, or never (10062: "The application did not respond"). When the claim's
write takes longer than that, each process defers the interaction before it knows whether
it owns it; Discord takes the first deferral and refuses the others (40060); the owner's
answer follows the deferral whoever made it, and the other process sends nothing more.
The member gets one answer, the move is applied once, and no "thinking…" is left.

Time is scaled down: Discord's 3 s are the fake's ``interaction_deadline`` of 1 s, the
bots defer after 0.1 s (the first process) or 0.3 s (the second), and a slow claim takes
1.2 s or 1.4 s, past the deadline.

The two bots run in one Python process, and so share what discord.py keeps per process:
its webhook adapter, whose lock serialises the requests made with one interaction's token
(callbacks, follow-ups, edits of ``@original``). Two real processes do not share it: their
requests for the same interaction may cross, which these tests do not show.
"""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.discord.client import AlienFrontiersBot
from engine import legal_actions
from tests.bot.discord.test_deliveries_e2e import APOLOGY, table
from tests.bot.table import Table, jobs_of, make_bot
from tests.discord_fake import BotHarness, StartBot
from tests.discord_fake.payloads import STRING_SELECT, iter_components
from tests.discord_fake.server import FLAG_LOADING

DEADLINE = 1.0  # Discord's 3 s, scaled
FIRST_DEFERS, SECOND_DEFERS = 0.1, 0.3  # each process's ``defer_after_seconds``
DEFERRED, DEFERRED_UPDATE = 5, 6

Claim = Callable[..., Awaitable[bool | None]]

# Each process's claim: seconds before its statement (the database slow to take it) and
# after it (slow to answer); and how many deferrals Discord refused (40060), each from the
# process that then lost the claim. The first process's deferral is due first.
CASES = {
    # Both claims slow; the process that deferred first owns the interaction; the other's
    # deferral is refused.
    "the owner deferred": ((1.2, 0.0), (1.4, 0.0), 1),
    # Both claims slow; the other process's deferral landed: the owner's own is refused,
    # which tells it a deferral landed, and its answer follows that one.
    "the other deferred": ((1.4, 0.0), (1.2, 0.0), 1),
    # The claim is written at once but its answer is slow to come back to the owner; the
    # other process learns at once that it lost, and stands down before its deferral is
    # due: it sends nothing at all.
    "the owner hears late": ((0.0, 1.2), (0.05, 0.0), 0),
    # The owner's claim is quick, the other's slow: its deferral comes after the answer.
    "the other is slow": ((0.0, 0.0), (1.2, 0.0), 1),
}


def slowed(bot: AlienFrontiersBot, before: float, after: float) -> None:
    """The bot's claims take ``before`` seconds to be written, ``after`` to be answered."""
    owners = bot.parts.owners
    claim: Claim = owners.claim

    async def slow(interaction: Any, stopping: bool = False) -> bool | None:
        await asyncio.sleep(before)
        mine = await claim(interaction, stopping)
        await asyncio.sleep(after)
        return mine

    owners.claim = slow  # type: ignore[method-assign]


async def two_processes(pg_url: str, start_bot: StartBot) -> tuple[Table, BotHarness]:
    t, clock = await table(pg_url, start_bot, timeout=15.0, defer_after_seconds=FIRST_DEFERS)
    other = await start_bot(
        make_bot(pg_url, clock=clock, defer_after_seconds=SECOND_DEFERS), timeout=15.0
    )
    return t, other


async def both(t: Table, other: BotHarness, payload: dict[str, Any]) -> int:
    """Give ``payload`` to both processes at once, as Discord does; wait for both; the index
    of the fake's first request after it."""
    start = len(t.fake.requests)
    first = await t.h.interact(payload, expect_response=False)
    second = await other.interact(copy.deepcopy(payload), expect_response=False)
    await first.done(timeout=10.0)
    await second.done(timeout=10.0)
    await t.settle()
    await Table(other).settle()
    return start


def panel_pick(t: Table) -> tuple[dict[str, Any], str, str]:
    """The turn message, and a select menu of its panel with an option that plays one move
    (a dock) at once: the menu's custom id and the move."""
    message = t.turn_message()
    legal = {str(a) for a in legal_actions(t.state)}
    for c in iter_components(message.get("components", [])):
        if c["type"] != STRING_SELECT or c.get("disabled"):
            continue
        for option in c["options"]:
            if option["value"] in legal:
                return message, str(c["custom_id"]), str(option["value"])
    raise LookupError(f"no move at once on the panel: {message.get('components')}")


@pytest.mark.parametrize("how", ["command", "click"])
@pytest.mark.parametrize("case", list(CASES))
async def test_a_slow_claim_still_answers_the_member_once(
    pg_url: str, start_bot: StartBot, case: str, how: str
) -> None:
    """A ``/play`` or a panel click given to two processes whose claims are slow (past
    Discord's 3 s, scaled): exactly one first answer is taken (a deferral, when the claim is
    slow), nothing answered too late (no 10062), the move applied once, the member answered
    once (the command privately, through its "thinking…", which does not stay; the click by
    its message's edit), and the process that did not claim it sends nothing but a
    deferral Discord refused."""
    t, other = await two_processes(pg_url, start_bot)
    h = t.h
    await t.open()  # by the first process alone (the second one's claims are not slow yet)
    store = jobs_of(t.bot).store
    game_id = t.game().id
    before = len(await store.action_log.actions(game_id))
    member = t.member_to_act()
    if how == "command":
        move = next(str(a) for a in legal_actions(t.state) if str(a).startswith("dock"))
        payload = h.slash("play", {"move": move}, member=member)
    else:
        message, custom_id, move = panel_pick(t)
        payload = h.select(message, custom_id, [move], member=member)
    (first_before, first_after), (second_before, second_after), refusals = CASES[case]
    slowed(t.bot, first_before, first_after)
    slowed(other.bot, second_before, second_after)  # type: ignore[arg-type]
    t.fake.interaction_deadline = DEADLINE
    start = await both(t, other, payload)

    iid = int(payload["id"])
    mine = [r for r in t.fake.requests[start:] if r.interaction_id == iid]
    callbacks = [r for r in mine if "callback" in r.path]
    taken = [r for r in callbacks if r.status < 300]
    assert len(taken) == 1, [(r.status, r.json) for r in callbacks]
    refused = [r for r in mine if r.status >= 300]
    # The only refusals: first answers after a deferral Discord took (40060), none too late.
    assert all(r in callbacks and r.response["code"] == 40060 for r in refused), [
        (r.method, r.path, r.status, r.response) for r in refused
    ]
    assert len(refused) == refusals, [(r.callback_type, r.json) for r in refused]

    made = [a.notation for a in await store.action_log.actions(game_id)]
    assert len(made) == before + 1 and made[-1] == move  # applied once

    state = t.fake.interactions[iid]
    assert not state.deferred_loading  # no "thinking…" left
    answers = [
        r for r in mine if r.status < 300 and r.method in ("POST", "PATCH") and "webhooks" in r.path
    ]
    if how == "command":
        # One private answer: the callback itself, or the follow-up that replaced the
        # "thinking…" of the deferral Discord took.
        said = [
            str((r.json or {}).get("data", r.json or {}).get("content") or "")
            for r in [*taken, *answers]
        ]
        said = [s for s in said if s]
        assert len(said) == 1 and said[0].startswith("✅"), said
        assert APOLOGY not in said[0]
        original = t.fake.messages[state.original_message_id]
        assert not int(original.get("flags") or 0) & FLAG_LOADING
        assert state.ephemeral
    else:
        # The click's answer is its message, edited to the next step of the turn: by the
        # callback, or after a deferral (which shows nothing), by an edit through the
        # interaction's token or in the channel (by the process that holds the channel's
        # deliveries); no private message.
        assert taken[0].callback_type in (DEFERRED_UPDATE, 7), taken[0].json
        clicked = int(payload["message"]["id"])
        shown = t.fake.messages[clicked]
        assert shown["components"] != payload["message"]["components"]
        assert not [r for r in answers if r.method == "POST"], "a private message to a click"


async def test_a_public_answer_after_a_slow_claim_leaves_no_thinking(
    pg_url: str, start_bot: StartBot
) -> None:
    """``/af join``, whose answer is public, given to two processes whose claims are slow;
    the deferral Discord took is the other process's ("thinking…", private). The owner's
    answer cannot follow a private deferral publicly: it is posted in the channel, once,
    and the "thinking…" becomes a private "done"; the member joined once."""
    t, other = await two_processes(pg_url, start_bot)
    await t.cmd("af new", {"players": 3})
    before = len(t.said("joins the game"))
    slowed(t.bot, 1.4, 0.0)  # the first process defers first, and loses the claim
    slowed(other.bot, 1.2, 0.0)  # type: ignore[arg-type]
    t.fake.interaction_deadline = DEADLINE
    payload = t.h.slash("af join", None, member="member")
    start = await both(t, other, payload)

    iid = int(payload["id"])
    mine = [r for r in t.fake.requests[start:] if r.interaction_id == iid]
    taken = [r for r in mine if "callback" in r.path and r.status < 300]
    assert [r.callback_type for r in taken] == [DEFERRED], [r.describe() for r in mine]
    assert [r.response["code"] for r in mine if r.status >= 300] == [40060]
    assert len(t.said("joins the game")) == before + 1, [m["content"] for m in t.channel_messages()]
    state = t.fake.interactions[iid]
    original = t.fake.messages[state.original_message_id]
    assert not state.deferred_loading and not int(original.get("flags") or 0) & FLAG_LOADING
    assert original["content"] == "✅ Done.", original["content"]
    seats = await jobs_of(t.bot).store.seat_rows.seats(t.game().id)
    assert {s.user_id for s in seats} == {t.user_id("owner"), t.user_id("member")}
    assert len(seats) == 2

"""An interaction's claim on a bad day: two processes over one PostgreSQL (a rolling
restart), the old one stopped while its claim is in flight, the database refusing a claim,
Discord failing the deferral or the answer, an interaction given twice to one process.

In each, the member gets one answer that says what happened (the move applied, or nothing
changed), the move is applied at most once, and no "thinking…" stays. Time is scaled by
1/3: Discord's 3 s are the fake's ``interaction_deadline`` of 1 s, and both processes
defer after 2/3 s, as they defer after 2 s in production.
"""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.discord.client import AlienFrontiersBot
from engine import legal_actions
from tests.bot.discord.test_deliveries_e2e import table
from tests.bot.discord.test_notifications_e2e import (
    finish_with_member_seat_to_ai,
    numbered_board,
)
from tests.bot.discord.test_slow_claim_e2e import slowed
from tests.bot.table import Table, jobs_of, make_bot
from tests.discord_fake import BotHarness, StartBot
from tests.discord_fake.harness import CALLBACK_ROUTE
from tests.discord_fake.server import FLAG_LOADING

DEADLINE = 1.0  # Discord's 3 s, scaled
DEFERS = 2 / 3  # each process's ``defer_after_seconds`` (2 s, scaled)
SLOW = 2.9 / 3  # a claim known at 2.9 s (scaled): after the deferral, before 3 s
BUSY = "The database is busy or unavailable right now. Nothing was changed"
RESTARTING = "The bot is restarting"
WAIT = 10.0  # a bound for awaiting, never measured


async def two(db: str, start_bot: StartBot, defers: float = DEFERS) -> tuple[Table, BotHarness]:
    t, clock = await table(db, start_bot, timeout=15.0, defer_after_seconds=defers)
    other = await start_bot(make_bot(db, clock=clock, defer_after_seconds=defers), timeout=15.0)
    return t, other


async def until_waiting(locker: asyncpg.Connection, claims: int) -> None:
    """Until ``claims`` claims wait on the lock of the claims' table."""
    for _ in range(200):
        # (a statement not prepared yet waits in its preparation, shown as the previous one)
        waiting = await locker.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
        )
        if waiting >= claims:
            return
        await asyncio.sleep(0.01)
    rows = await locker.fetch("SELECT state, wait_event_type, query FROM pg_stat_activity")
    raise AssertionError(f"{claims} claim(s) never waited on the lock: {rows}")


async def both(t: Table, other: BotHarness, payload: dict[str, Any]) -> int:
    """Give ``payload`` to both processes, as Discord does; wait for both; the index of the
    fake's first request after it."""
    start = len(t.fake.requests)
    first = await t.h.interact(payload, expect_response=False)
    second = await other.interact(copy.deepcopy(payload), expect_response=False)
    await first.done(timeout=WAIT)
    await second.done(timeout=WAIT)
    await t.settle()
    await Table(other).settle()
    return start


def refusing(bot: AlienFrontiersBot, times: int | None) -> None:
    """The database refuses the bot's next ``times`` claims (None: all of them), as a
    connection reset does."""
    claims = bot.parts.owners.claims
    claim: Callable[..., Awaitable[bool]] = claims.claim_interaction
    left = [times]

    async def refused(*args: Any, **kwargs: Any) -> bool:
        if left[0] is None or left[0] > 0:
            left[0] = None if left[0] is None else left[0] - 1
            await asyncio.sleep(0.05)
            raise ConnectionResetError("connection reset by peer")
        return await claim(*args, **kwargs)

    claims.claim_interaction = refused  # type: ignore[method-assign]


def said(t: Table, iid: int, start: int) -> list[str]:
    """What the member was shown through the interaction: each answer's text."""
    out = []
    for r in t.fake.requests[start:]:
        if r.interaction_id != iid or r.status >= 300 or r.method not in ("POST", "PATCH"):
            continue
        body = r.json or {}
        content = (body.get("data") or body).get("content") if isinstance(body, dict) else None
        if content:
            out.append(str(content))
    return out


def no_thinking_left(t: Table, iid: int) -> None:
    state = t.fake.interactions[iid]
    assert state.response_type is not None  # answered
    assert not state.deferred_loading
    if state.original_message_id is not None:
        original = t.fake.messages[state.original_message_id]
        assert not int(original.get("flags") or 0) & FLAG_LOADING


async def a_play(t: Table) -> tuple[dict[str, Any], str, int]:
    await t.open()
    move = next(str(a) for a in legal_actions(t.state) if str(a).startswith("dock"))
    payload = t.h.slash("play", {"move": move}, member=t.member_to_act())
    store = jobs_of(t.bot).store
    return payload, move, len(await store.action_log.actions(t.game().id))


async def moves(t: Table) -> list[str]:
    return [a.notation for a in await jobs_of(t.bot).store.action_log.actions(t.game().id)]


async def test_a_stopping_process_finishes_the_move_whose_claim_was_in_flight(
    pg_url: str, start_bot: StartBot
) -> None:
    """The old process of a rolling restart is stopped (what SIGTERM runs) while the claim
    of a ``/play`` it was given waits on the database (a lock held, as a migration or a
    failover would); its claim is written first. It waits for that claim, applies the move
    and answers it before it closes its connection: the move is applied once, the member
    sees it applied, no "thinking…" stays; the new process stands down. (Discord's own
    3 s here, and the deferral at 2 s, as in production.)"""
    t, other = await two(pg_url, start_bot, defers=2.0)
    payload, move, before = await a_play(t)
    locker = await asyncpg.connect(pg_url)
    try:
        held = locker.transaction()
        await held.start()
        await locker.execute("LOCK TABLE interaction_owners IN ACCESS EXCLUSIVE MODE")
        start = len(t.fake.requests)
        first = await t.h.interact(payload, expect_response=False)
        await until_waiting(locker, 1)  # the old process's claim waits on the lock
        closing = asyncio.create_task(t.bot.close())
        await asyncio.sleep(0.3)
        await held.rollback()
    finally:
        await locker.close()
    # The new process is given it too, once the old one's claim is written (given both at
    # once, which claim the database takes first depends on the machine's load: a busy
    # machine lets the old one's bounded claim run out and ask again).
    second = await other.interact(copy.deepcopy(payload), expect_response=False)
    await asyncio.wait_for(closing, WAIT)
    await first.done(timeout=WAIT)
    await second.done(timeout=WAIT)
    await Table(other).settle()

    iid = int(payload["id"])
    assert isinstance(other.bot, AlienFrontiersBot)
    owner = await jobs_of(other.bot).store.db.fetch(
        "SELECT owner FROM interaction_owners WHERE interaction_id = ?", (iid,)
    )
    assert [r["owner"] for r in owner] == [t.bot.parts.owners.owner]
    made = [a.notation for a in await jobs_of(other.bot).store.action_log.actions(t.game().id)]
    assert len(made) == before + 1 and made[-1] == move
    shown = said(t, iid, start)
    assert len(shown) == 1 and shown[0].startswith("✅"), shown
    no_thinking_left(t, iid)


async def test_a_deferral_refused_by_a_5xx_is_tried_again_before_the_3_seconds(
    pg_url: str, start_bot: StartBot
) -> None:
    """The owner's claim is written at once but its answer is slow (2.9 s); the other
    process stands down at once; the owner's deferral at 2 s gets a 503. It is tried again
    at once (discord.py would wait a second, past Discord's 3 s: 10062, and the member
    would see "did not respond" though the move is applied): the member sees the move
    applied, through the deferral, once."""
    t, other = await two(pg_url, start_bot)
    payload, move, before = await a_play(t)
    slowed(t.bot, 0.0, SLOW)
    slowed(other.bot, 0.05, 0.0)  # type: ignore[arg-type]
    t.fake.interaction_deadline = DEADLINE
    t.fake.fail_next("POST", CALLBACK_ROUTE, status=503, code=0, message="Service Unavailable")
    start = await both(t, other, payload)

    iid = int(payload["id"])
    calls = [r for r in t.fake.requests[start:] if r.interaction_id == iid]
    assert not [r for r in calls if r.status == 404], [r.describe() for r in calls]
    assert (await moves(t))[before:] == [move]
    shown = said(t, iid, start)
    assert len(shown) == 1 and shown[0].startswith("✅"), shown
    no_thinking_left(t, iid)


@pytest.mark.parametrize("how", ["play", "join"])
async def test_an_answer_through_a_deferral_whose_connection_dropped_is_sent_again(
    pg_url: str, start_bot: StartBot, how: str
) -> None:
    """Both claims slow (2.9 s): a deferral lands, and the owner's answer through it — the
    ``/play``'s private answer, the ``/af join``'s private "done" after its public post —
    loses its connection before Discord takes it. It is the "thinking…" edited, which may
    be sent again: it is, and no "thinking…" stays after an applied move."""
    t, other = await two(pg_url, start_bot)
    if how == "play":
        payload, move, before = await a_play(t)
    else:
        await t.cmd("af new", {"players": 3})
        payload = t.h.slash("af join", None, member="member")
    slowed(t.bot, SLOW, 0.0)
    slowed(other.bot, SLOW + 0.05, 0.0)  # type: ignore[arg-type]
    t.fake.interaction_deadline = DEADLINE
    for method, route in (
        ("POST", "/webhooks/{application_id}/{token}"),
        ("PATCH", "/webhooks/{application_id}/{token}/messages/{message_id}"),
    ):
        t.fake.fail_next(method, route, mode="reset")
    joined = len(t.said("joins the game"))
    start = await both(t, other, payload)

    iid = int(payload["id"])
    no_thinking_left(t, iid)
    shown = said(t, iid, start)
    if how == "play":
        assert (await moves(t))[before:] == [move]
        assert len(shown) == 1 and shown[0].startswith("✅"), shown
    else:
        assert len(t.said("joins the game")) == joined + 1
        assert shown == ["✅ Done."], shown


async def test_a_claim_the_database_refuses_at_first_is_asked_again(
    pg_url: str, start_bot: StartBot
) -> None:
    """The database refuses the new process's claim three times (a reset connection)
    while the old one writes its own, a little later: the refused claim is asked again,
    finds the other owner, and stands down — it does not act "as a lone process" (both
    acting, the member answered by both)."""
    t, other = await two(pg_url, start_bot)
    payload, move, before = await a_play(t)
    slowed(t.bot, 0.2, 0.0)
    refusing(other.bot, 3)  # type: ignore[arg-type]
    t.fake.interaction_deadline = DEADLINE
    start = await both(t, other, payload)

    iid = int(payload["id"])
    assert (await moves(t))[before:] == [move]
    shown = said(t, iid, start)
    assert len(shown) == 1 and shown[0].startswith("✅"), shown
    no_thinking_left(t, iid)


async def test_a_claim_the_database_never_takes_changes_nothing_and_says_so(
    pg_url: str, start_bot: StartBot
) -> None:
    """The database refuses every claim of both processes: neither acts (either could
    have been the owner), and the member is told once, privately, that the database is
    busy and nothing changed."""
    t, other = await two(pg_url, start_bot)
    payload, _move, before = await a_play(t)
    refusing(t.bot, None)
    refusing(other.bot, None)  # type: ignore[arg-type]
    t.fake.interaction_deadline = DEADLINE
    start = await both(t, other, payload)

    iid = int(payload["id"])
    assert len(await moves(t)) == before
    shown = said(t, iid, start)
    assert len(shown) == 1 and BUSY in shown[0], shown
    assert t.fake.interactions[iid].ephemeral
    no_thinking_left(t, iid)


async def test_a_replay_after_a_private_deferral_is_still_public(
    pg_url: str, start_bot: StartBot
) -> None:
    """``/af replay`` given to two processes whose claims are slow (2.9 s): a private
    deferral lands before the owner knows it owns the command. The replay is public: it is
    posted in the channel, and the "thinking…" becomes a private "done"."""
    t, other = await two(pg_url, start_bot)
    game_id = await finish_with_member_seat_to_ai(t, 41)
    t.bot.parts.boards.pictures.renderer = numbered_board
    other.bot.parts.boards.pictures.renderer = numbered_board  # type: ignore[attr-defined]
    slowed(t.bot, SLOW, 0.0)
    slowed(other.bot, SLOW + 0.05, 0.0)  # type: ignore[arg-type]
    t.fake.interaction_deadline = DEADLINE
    payload = t.h.slash("af replay", {"game": game_id}, member="member")
    posted = len(t.channel_messages())
    start = await both(t, other, payload)

    iid = int(payload["id"])
    new = t.channel_messages()[posted:]
    gifs = [m for m in new if any(a["filename"].endswith(".gif") for a in m.get("attachments", []))]
    assert len(gifs) == 1 and not int(gifs[0].get("flags") or 0) & 64, new
    assert said(t, iid, start) == ["✅ Done."]
    no_thinking_left(t, iid)


@pytest.mark.parametrize("database", ["postgresql", "sqlite"])
@pytest.mark.parametrize("gap", [0.0, 0.3])
async def test_an_interaction_given_twice_to_one_process_is_acted_on_once(
    pg_url: str, tmp_path: Path, start_bot: StartBot, database: str, gap: float
) -> None:
    """The same ``/play`` delivered twice to one process (a replayed gateway event), at
    once or a little later: the move is applied once and answered once."""
    db = pg_url if database == "postgresql" else str(tmp_path / "af.db")
    t, _clock = await table(db, start_bot, timeout=15.0, defer_after_seconds=DEFERS)
    payload, move, before = await a_play(t)
    t.fake.interaction_deadline = DEADLINE
    start = len(t.fake.requests)
    first = await t.h.interact(payload, expect_response=False)
    await asyncio.sleep(gap)
    second = await t.h.interact(copy.deepcopy(payload), expect_response=False)
    await first.done(timeout=WAIT)
    await second.done(timeout=WAIT)
    await t.settle()

    iid = int(payload["id"])
    assert (await moves(t))[before:] == [move]
    shown = said(t, iid, start)
    assert len(shown) == 1 and shown[0].startswith("✅"), shown
    no_thinking_left(t, iid)

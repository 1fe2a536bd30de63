"""The turn clock of two bot processes over one database (a rolling restart's overlap, or
two processes given the same shards by mistake), through discord.py and the fake API, on
SQLite and on PostgreSQL: each process's clock ticks at the same moments, and each step —
the reminder, the final warning, the timeout with its "⌛ Time is up" — is taken by one of
them only: told once, the seat's count of timeouts one, the turn played once by the AI.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter

import pytest

from bot.store.clock_settings import ClockStep
from tests.bot.discord.test_deliveries_e2e import MESSAGES, turn_messages
from tests.bot.discord.test_turn_clock_e2e import H, open_table
from tests.bot.table import Clock, Table, jobs_of, make_bot
from tests.discord_fake import StartBot

# What each step of the clock posts (in the channel, or by DM), by the start of its text.
TOLD: dict[ClockStep, str] = {"remind": "⏰", "warn": "⚠️", "timeout": "⌛ Time is up"}


def told(t: Table, start: int) -> Counter[str]:
    """How many posts (in any channel or DM) since request ``start`` began as each step's."""
    found: Counter[str] = Counter()
    for r in t.fake.requests[start:]:
        if r.method != "POST" or r.route != MESSAGES:
            continue
        content = str((r.json or {}).get("content", ""))
        found.update(step for step, head in TOLD.items() if content.startswith(head))
    return found


async def both_tick(tables: tuple[Table, Table]) -> Counter[str]:
    """Both processes' clocks tick at once; then both settle (AI turns, deliveries). The
    steps taken, summed over both."""
    done = await asyncio.gather(*(t.bot.background.tick() for t in tables))
    for _ in range(2):  # one's AI turn or deliveries may follow the other's
        await asyncio.gather(*(t.settle() for t in tables))
    return sum(done, Counter())


async def test_two_processes_over_one_database_take_each_step_of_the_turn_clock_once(
    db_url: str, start_bot: StartBot, caplog: pytest.LogCaptureFixture
) -> None:
    clock = Clock()
    first = await open_table(db_url, start_bot, clock)
    game = first.game()
    quiet, seat, turn = game.user_to_act(), game.to_act(), game.state.turn_number
    assert quiet is not None and seat is not None
    second = Table(await start_bot(make_bot(db_url, clock=clock)))
    second.members = dict(first.members)
    await second.settle()
    assert jobs_of(second.bot).games.held(game.id) is not None  # its clock looks at the game too
    tables = (first, second)
    start, requests = clock.now, len(first.fake.requests)

    with caplog.at_level(logging.INFO, logger="bot"):
        for hours, step in ((12, "remind"), (36, "warn"), (48.5, "timeout")):
            clock.now = start + hours * H
            assert await both_tick(tables) == {step: 1}, step
            assert told(first, requests)[step] == 1, step
        # The next member's clock: the first reminder of the next turn, once too.
        clock.now = start + 60.5 * H
        assert await both_tick(tables) == {"remind": 1}

    assert told(first, requests) == {"remind": 2, "warn": 1, "timeout": 1}
    store = jobs_of(first.bot).store
    seats = await store.seat_rows.seats(game.id)
    assert seats[seat].user_id == quiet and seats[seat].timeouts == 1
    assert first.game().state.turn_number == turn + 1  # the AI played the turn, once
    assert turn_messages(first, game.id)[turn + 1] == 1
    assert first.game().row.reminders_sent == second.game().row.reminders_sent == 1
    # Losing the race is no failure: no error (nor traceback) logged by either process.
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]

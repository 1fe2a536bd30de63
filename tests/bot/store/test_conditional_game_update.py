"""A change of a game's row made only if the stored row is still as the caller judged it
(``expected``: ``GameStore.update_game``, ``SeatStore.commit_seat_change``), on SQLite and
PostgreSQL: what two processes' turn clocks rely on to take a step once. Of two such
changes judged from the same row, at once, one is made; the other writes nothing, queues
nothing."""

from __future__ import annotations

import asyncio

import pytest

from bot.store.errors import GameChangedError
from bot.store.storage import Storage
from tests.bot.store.test_storage_contract import lobby, told


async def test_a_reminder_is_recorded_once_from_the_row_it_was_judged_from(
    store: Storage,
) -> None:
    game_id = await lobby(store)
    judged = {"clock_turn": None, "reminders_sent": 0}  # NULL: never set yet

    async def remind() -> object:
        return await store.game_rows.update_game(
            game_id,
            [told(game_id, "notice", key="clock.reminder")],
            expected=judged,
            reminders_sent=1,
            clock_turn=1,
        )

    outcomes = await asyncio.gather(remind(), remind(), return_exceptions=True)
    assert sorted(type(o).__name__ for o in outcomes) == ["GameChangedError", "GameRow"]
    row = await store.game_rows.game(game_id)
    assert row is not None and (row.clock_turn, row.reminders_sent) == (1, 1)
    assert (
        len(await store.deliveries.pending_deliveries()) == 1
    )  # the loser's reminder never queued
    with pytest.raises(GameChangedError):  # without deliveries: one statement, refused
        await store.game_rows.update_game(game_id, expected=judged, reminders_sent=2)
    assert await store.game_rows.update_game(
        game_id, expected={"reminders_sent": 1}, reminders_sent=2
    )


async def test_a_timeout_is_written_once_with_its_seat_and_notice(store: Storage) -> None:
    game_id = await lobby(store)
    judged = {"reminders_sent": 0, "timeout_turn": None}

    async def time_out() -> object:
        return await store.seat_rows.commit_seat_change(
            game_id,
            {0: {"timeouts": 1}},
            [told(game_id, "notice", key="clock.timeout.ai")],
            expected=judged,
            reminders_sent=3,
            timeout_turn=1,
        )

    outcomes = await asyncio.gather(time_out(), time_out(), return_exceptions=True)
    assert sorted(type(o).__name__ for o in outcomes) == ["GameChangedError", "GameRow"]
    with pytest.raises(GameChangedError):  # seats and deliveries rolled back with it
        await store.seat_rows.commit_seat_change(
            game_id, {0: {"timeouts": 5}}, [told(game_id, "notice")], expected=judged
        )
    assert [s.timeouts for s in await store.seat_rows.seats(game_id)] == [1]
    assert len(await store.deliveries.pending_deliveries()) == 1

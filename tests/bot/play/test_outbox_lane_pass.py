"""A lane's pass through the outbox (``Outbox.lane_pass``): the lane's waiting rows handed at
once, each outcome taken back and recorded before the worker goes on, an outcome the
database refuses handed back as an error (the pass goes on), an edit that landed left out
of the next pass until its row is removed."""

from __future__ import annotations

from typing import Any

from bot.play.outbox import Failed, Landed, Made, Outbox
from bot.store.rows import Delivery


class Rows:
    """The few store calls a lane's pass makes, over rows in memory; ``refuse``: the
    database refuses writes."""

    def __init__(self, rows: list[Delivery]) -> None:
        self.rows = rows
        self.calls: list[str] = []
        self.refuse = False

    @property
    def deliveries(self) -> Rows:
        """The storage's area the outbox asks (``store.deliveries``): this fake is that
        area alone."""
        return self

    async def pending_deliveries(
        self, shards: Any = None, *, channel_id: int | None = None
    ) -> list[Delivery]:
        self.calls.append("pending")
        return [d for d in self.rows if channel_id is None or d.channel_id == channel_id]

    async def delivered(
        self, delivery_id: int, game_id: int | None, then: Any, **fields: Any
    ) -> None:
        self.calls.append(f"delivered {delivery_id} {dict(fields)}")
        if self.refuse:
            raise RuntimeError("read-only")
        self.rows = [d for d in self.rows if d.id != delivery_id]

    async def delivery_failed(self, delivery_id: int, **how: Any) -> None:
        self.calls.append(f"failed {delivery_id} give_up={how['give_up']}")

    async def forget_deliveries(self, ids: list[int]) -> None:
        self.calls.append(f"forget {sorted(ids)}")
        self.rows = [d for d in self.rows if d.id not in ids]


def row(id: int, kind: str = "turn", lane: int = 7) -> Delivery:
    return Delivery(kind, 1, lane, 2, {}, created_at=0.0, due_at=0.0, id=id)


async def test_a_pass_is_handed_the_lane_at_once_and_records_each_outcome_as_it_comes() -> None:
    store = Rows([row(1, "close"), row(2), row(3, "notify"), row(9, lane=8)])
    outbox = Outbox(store.deliveries)  # type: ignore[arg-type]
    talk = outbox.lane_pass(7)
    work = await anext(talk)
    assert [d.id for d in work.rows] == [1, 2, 3] and store.calls == ["pending"]
    assert (await talk.asend(Landed(work.rows[0]))).error is None
    assert store.calls == ["pending"]  # an edit that landed: no write now
    assert (await talk.asend(Made(work.rows[1], fields={"message_id": 5}))).error is None
    assert store.calls[-1] == "delivered 2 {'message_id': 5}"  # before the next attempt
    store.refuse = True
    refused = await talk.asend(Made(work.rows[2]))
    assert isinstance(refused.error, RuntimeError)  # handed back; the pass goes on
    failed = Failed(work.rows[2], attempts=1, due_at=9.0, error="x", give_up=False, now=1.0)
    assert (await talk.asend(failed)).error is None
    assert store.calls[-1] == "failed 3 give_up=False"
    await talk.aclose()
    # The edit that landed is left out of the next pass until its row goes.
    assert [d.id for d in (await anext(outbox.lane_pass(7))).rows] == [3]
    assert [d.id for d in await outbox.due()] == [3, 9]
    await outbox.stop()
    assert "forget [1]" in store.calls
    assert [d.id for d in (await anext(outbox.lane_pass(7))).rows] == [3]


async def test_landed_rows_the_database_refused_to_remove_are_removed_once_it_takes_writes() -> (
    None
):
    """The timer that removes the rows of edits that landed is the task running when the
    database refuses: it tries again itself (waiting longer each time), so the rows do not
    wait for some later commit."""
    store = Rows([row(1), row(2)])
    refusals = 2

    async def forget(ids: list[int]) -> None:
        nonlocal refusals
        store.calls.append(f"forget {sorted(ids)}")
        if refusals:
            refusals -= 1
            raise RuntimeError("read-only")
        store.rows = [d for d in store.rows if d.id not in ids]

    store.deliveries.forget_deliveries = forget  # type: ignore[method-assign]
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    outbox = Outbox(store.deliveries, sleep=sleep)  # type: ignore[arg-type]
    talk = outbox.lane_pass(7)
    work = await anext(talk)
    await talk.asend(Landed(work.rows[0]))
    task = outbox._forget_task
    assert task is not None
    await task
    assert store.calls[1:] == ["forget [1]"] * 3
    assert [d.id for d in store.rows] == [2]  # removed at the third try, nothing left behind
    assert waits == [1.0, 2.0, 4.0] and outbox.take_landed() == []

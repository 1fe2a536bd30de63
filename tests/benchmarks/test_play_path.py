"""The /play path benchmark (tests/benchmarks/play_path.py) on one quick /play: its figures
are well formed and its tracer keeps to its definitions (the figures themselves are the
benchmark's to print, not this test's to hold)."""

from __future__ import annotations

import json
from typing import Any

from tests.benchmarks.play_path import (
    ROOT,
    Hop,
    Module,
    details,
    folded,
    is_leaf,
    is_store_api,
    line,
    module_of,
    one_play,
)


def test_modules_packages_leaves_and_layers() -> None:
    cog = module_of(str(ROOT / "bot/discord/cogs/play.py"))
    assert cog == Module("bot/discord/cogs/play.py", "bot/discord/cogs", False, 0)
    state = module_of(str(ROOT / "engine/state.py"))
    assert state is not None and state.leaf and state.package == "engine"
    assert module_of(str(ROOT / "tests/bot/table.py")) is None  # not the project's
    assert module_of(json.__file__) is None
    assert is_leaf("bot/text/strings.py") and not is_leaf("bot/textual.py")
    assert is_leaf("bot/play/choices.py", ("bot/play/choices.py",))
    service = module_of(str(ROOT / "bot/play/held_games.py"))
    delivery = module_of(str(ROOT / "bot/discord/delivery.py"))
    assert service is not None and delivery is not None and cog is not None
    assert Hop(service, delivery, "DeliveryWorker.queued", "t").against_layers  # a callback
    assert not Hop(cog, delivery, "DeliveryWorker.run", "t").against_layers
    assert not Hop(delivery, cog, "x", "t").against_layers  # the same layer
    assert Hop(cog, service, "x", "t").crosses and not Hop(None, cog, "x", "t").crosses
    rows = module_of(str(ROOT / "bot/store/rows.py"))
    games = module_of(str(ROOT / "bot/store/game_store.py"))
    assert rows is not None and games is not None
    assert is_store_api(games) and not is_store_api(rows)


def test_a_loop_is_folded_once_in_the_sequence() -> None:
    a = {"from": "a", "to": "b", "task": "t"}
    b = {"from": "b", "to": "c", "task": "t"}
    c = {"from": "a", "to": "c", "task": "t"}
    assert folded([c, a, b, a, b, a, b, c]) == [(1, [c]), (3, [a, b]), (1, [c])]


async def test_one_play_is_traced_from_the_interaction_to_its_deliveries() -> None:
    f = await one_play("dock", seed=1, real_renderer=False)
    assert f.hops > 0 and f.files > 0 and f.package_pairs > 0
    assert f.crossings >= f.package_pairs
    assert "bot/discord/cogs/play.py" in f.entries
    # The command's coroutine suspends and resumes many times: one entry, from outside.
    assert f.functions["bot/discord/cogs/play.py"].get("Play.play") == 1
    assert any(s["from"] == "(outside)" for s in f.sequence)
    # Nothing on the path starts inside a leaf.
    assert not any(is_leaf(s["from"]) for s in f.sequence if s["from"] != "(outside)")
    assert f.store_calls and f.sql_statements > 0 and f.transactions > 0
    assert any(k.startswith("POST /interactions/") for k in f.discord_requests)
    assert any(k.startswith("PATCH /channels/") for k in f.discord_requests)  # the turn message
    assert not f.unfinished
    assert json.loads(json.dumps(f.__dict__))["hops"] == f.hops
    assert "bot/discord/cogs/play.py" in "\n".join(details(f, sequence=True))
    assert line(f).startswith("seed 1: ")


async def test_a_play_goes_down_the_layers_only_and_crosses_eight_package_boundaries() -> None:
    """docs/architecture.md's claim about the path of a move (issue 43): no call from a layer
    into one above it (the commit calls nothing back in bot/discord), and the packages a
    /play crosses are these eight (a property read is a read, not a hop)."""
    for move in ("dock", "end"):
        f = await one_play(move, seed=1, real_renderer=False)
        assert f.against_layers == 0, [s for s in f.sequence if s["against_layers"]]
        assert set(f.pairs) <= {
            "bot/discord/cogs -> bot/discord",
            "bot/discord/cogs -> bot/play",
            "bot/discord -> bot/play",
            "bot/discord -> bot/text",
            "bot/discord -> bot/render",
            "bot/play -> engine",
            "bot/play -> bot/text",
            "bot/play -> bot/store",
        }, f.pairs


async def test_a_play_enters_each_module_of_the_bot_at_most_twice_from_another_package() -> None:
    """Issue 43's check, held for the bot's own layers (bot/discord, its cogs, bot/play): a
    /play asks each of their modules at most twice from another package — one view per
    delivery (bot/play/turn_view.py), one conversation per lane pass (Outbox.lane_pass) —
    not a question at a time. An entry is the benchmark's: one function's calls into one
    module are one entry (a lane pass's outcomes sent to the outbox too); the benchmark
    also prints the calls one by one. The store's areas are entered once per delivery,
    each delivery reading the game as committed: the benchmark prints them."""
    for move in ("dock", "end"):
        f = await one_play(move, seed=1, real_renderer=False)
        many = {
            name: n
            for name, n in f.entries_across.items()
            if name.startswith(("bot/discord/", "bot/play/")) and n > 2
        }
        assert many == {}, (move, many)


def test_a_generator_sent_a_value_is_called_again_a_coroutine_resumed_is_not() -> None:
    """The benchmark's calls one by one: each ``asend`` to a generator is a message to it;
    a coroutine resumed after an ``await`` is the same call going on."""
    import asyncio
    import sys
    from types import FrameType

    from tests.benchmarks.play_path import is_a_call

    seen: list[tuple[str, bool]] = []

    async def talk() -> Any:
        got = yield 1
        await asyncio.sleep(0)
        yield got

    async def helper() -> None:
        await asyncio.sleep(0)

    def tracer(frame: FrameType, event: str, arg: object) -> None:
        if event == "call" and frame.f_code in (talk.__code__, helper.__code__):
            seen.append((frame.f_code.co_name, is_a_call(frame)))

    async def main() -> None:
        chat = talk()
        sys.settrace(tracer)
        try:
            await chat.asend(None)
            await chat.asend("two")
            await helper()
        finally:
            sys.settrace(None)

    asyncio.run(main())
    assert seen == [
        ("talk", True),  # started
        ("talk", True),  # sent "two"
        ("talk", False),  # resumed after its await
        ("helper", True),
        ("helper", False),
    ]

"""The live board on the turn message: redrawn after a move, image edits coalesced to at
most one a second per channel, and the turn's last picture kept on its closed message
(not drawn again when the message shows it already)."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Mapping
from itertools import pairwise
from pathlib import Path
from typing import Any

from PIL import Image

from engine import GameState, legal_actions
from engine.serialize import loads
from tests.bot.table import Table, attachment_png, button, jobs_of, make_bot
from tests.discord_fake import StartBot
from tests.discord_fake.harness import CALLBACK_ROUTE
from tests.discord_fake.server import RecordedRequest

MESSAGE = "/channels/{channel_id}/messages/{message_id}"


class ManualClock:
    """Time for the board edits that moves only when the test says so: a sleep waits until
    ``advance`` has moved the clock past its end."""

    def __init__(self) -> None:
        self.now = 0.0
        self._sleeping: list[tuple[float, asyncio.Future[None]]] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._sleeping.append((self.now + seconds, future))
        await future

    def sleepers(self) -> int:
        return len(self._sleeping)

    def advance(self, seconds: float) -> None:
        self.now += seconds
        for entry in list(self._sleeping):
            if entry[0] <= self.now + 1e-9:
                self._sleeping.remove(entry)
                entry[1].set_result(None)


def version_renderer(
    state: GameState, names: list[str] | None, locale: str, detail: bool = False
) -> bytes:
    """A one-pixel picture of the state's version, so each picture tells what it shows."""
    out = io.BytesIO()
    Image.new("RGB", (1, 1), (state.version % 256, state.version // 256, 7)).save(out, "PNG")
    return out.getvalue()


def shown_version(png: bytes) -> int:
    with Image.open(io.BytesIO(png)) as image:
        r, g, _ = image.convert("RGB").getpixel((0, 0))  # type: ignore[misc]
        return int(r) + 256 * int(g)


def is_image_edit(r: RecordedRequest) -> bool:
    """A request that put a new picture on a channel message: an edit of the message, or
    the answer to a click on it (a move's edit of the turn message, its picture with it)."""
    edit = r.method == "PATCH" and r.route == MESSAGE
    answer = r.method == "POST" and r.route == CALLBACK_ROUTE
    return (edit or answer) and bool(r.files)


def image_edits(t: Table, after: int = 0) -> list[RecordedRequest]:
    return [r for r in t.fake.requests[after:] if is_image_edit(r)]


def edited_message(t: Table, r: RecordedRequest) -> str:
    """The id of the message whose picture ``r`` edited."""
    if r.route == MESSAGE:
        return str(r.params["message_id"])
    assert r.interaction_id is not None
    return str(t.fake.interactions[r.interaction_id].message_id)


async def edited(t: Table, after: int) -> RecordedRequest:
    """Wait for the next image edit after request ``after``."""
    request: RecordedRequest = await t.fake.wait_for(is_image_edit, after=after)
    return request


def picture_of(t: Table, message: Mapping[str, Any]) -> int:
    return shown_version(attachment_png(t.fake, message))


def dock_of(state: GameState) -> str:
    return next(str(a) for a in legal_actions(state) if str(a).startswith("dock"))


async def end_turn(t: Table) -> None:
    """Click the turn message's End turn button."""
    message = t.turn_message()
    end = button(message, "af:a:")
    await t._send(t.h.click(message, end["custom_id"], member=t.member_to_act()))


async def test_the_turn_messages_picture_follows_the_moves_once_a_second_at_most(
    tmp_path: Path, start_bot: StartBot
) -> None:
    clock = ManualClock()
    bot = make_bot(tmp_path / "af.db")
    bot.parts.boards.pictures.renderer = version_renderer
    boards = bot.parts.boards
    boards.interval, boards.clock, boards.sleep = 1.0, clock, clock.sleep
    h = await start_bot(bot)
    h.fake.clock = clock
    t = Table(h, seed=3)
    await t.open(humans=("owner", "member"))
    game = t.game()
    message = t.turn_message()
    assert picture_of(t, message) == game.state.version  # posted with the turn's picture

    # A dock: the picture on the turn message is redrawn (no edit for a second before).
    mark = len(t.fake.requests)
    dock = next(str(a) for a in legal_actions(game.state) if str(a).startswith("dock"))
    await t.click_move(dock)
    first = await edited(t, mark)
    assert first.route == CALLBACK_ROUTE  # with the move's edit of the message: one request
    assert edited_message(t, first) == message["id"]
    assert picture_of(t, t.turn_message()) == game.state.version

    # Two quick moves within the second: nothing yet, then one edit with the latest board.
    mark = len(t.fake.requests)
    for _ in range(2):
        docks = [str(a) for a in legal_actions(game.state) if str(a).startswith("dock")]
        if not docks:
            break
        await t.click_move(docks[0])
    await asyncio.sleep(0.05)
    assert not image_edits(t, mark) and clock.sleepers() == 1
    clock.advance(1.0)
    await edited(t, mark)
    await asyncio.sleep(0.05)
    assert len(image_edits(t, mark)) == 1
    assert picture_of(t, t.turn_message()) == game.state.version

    # The end of the turn: the closed message keeps the turn's last board (before the next
    # player gathers their ships); the next turn's message comes with its own. The closed
    # message shows that board already (its last edit): it is not drawn or sent again.
    while any(str(a).startswith("dock") for a in legal_actions(game.state)):
        await t.click_move(
            next(str(a) for a in legal_actions(game.state) if str(a).startswith("dock"))
        )
    clock.advance(1.0)
    await asyncio.sleep(0.05)
    closed = t.turn_message()
    before_end = game.state.version
    assert picture_of(t, closed) == before_end
    mark = len(t.fake.requests)
    await end_turn(t)
    assert t.turn_message()["id"] != closed["id"]
    assert picture_of(t, t.turn_message()) == game.state.version  # the new turn's own
    clock.advance(1.0)
    await asyncio.sleep(0.05)
    assert not image_edits(t, mark)
    assert picture_of(t, t.fake.get_message(int(closed["id"]))) == before_end

    # A turn that ends while its last move's picture waits for its second: the closed
    # message gets that picture, once.
    await t.click_move(dock_of(game.state))  # shown at once (a second since the last edit)
    await asyncio.sleep(0.05)
    mark = len(t.fake.requests)
    assert any(str(a).startswith("dock") for a in legal_actions(game.state))
    while any(str(a).startswith("dock") for a in legal_actions(game.state)):
        await t.click_move(dock_of(game.state))  # their pictures wait for the second
    closed = t.turn_message()
    before_end = game.state.version
    await end_turn(t)
    clock.advance(1.0)
    last = await edited(t, mark)
    assert edited_message(t, last) == closed["id"]
    assert picture_of(t, t.fake.get_message(int(closed["id"]))) == before_end
    await asyncio.sleep(0.05)
    assert len(image_edits(t, mark)) == 1

    # Never two image edits of one channel less than a second apart.
    edits = image_edits(t)
    assert len(edits) >= 3
    by_channel: dict[str, list[float]] = {}
    for r in edits:
        channel = t.fake.get_message(int(edited_message(t, r)))["channel_id"]
        by_channel.setdefault(channel, []).append(r.at)
    for times in by_channel.values():
        assert all(b - a >= 1.0 - 1e-9 for a, b in pairwise(times)), times


async def test_the_last_turns_message_shows_the_final_board(
    tmp_path: Path, start_bot: StartBot
) -> None:
    """The game is forgotten once over: the last turn's message kept the picture of the
    move before the last ("owner to act… VP 7" after the game ended at 9). It shows the
    final board, and its words are the final ranking."""
    bot = make_bot(tmp_path / "af.db")
    bot.parts.boards.pictures.renderer = version_renderer
    t = Table(await start_bot(bot), seed=41)
    await t.cmd("af new", {"players": 2, "watch": True}, "owner")
    await t.cmd("af join", member="member")
    await t.cmd("af bot", {"level": "easy"}, "owner")
    await t.cmd("af settings", {"takeover": "easy"}, "owner")
    await t.cmd("af start", member="owner")
    game = t.game()
    await t.cmd("af kick", {"player": "member"}, "owner")  # the AI plays to the end
    await t.settle()
    await bot.parts.boards.flush()
    assert game.row.status == "over"
    final = await jobs_of(bot).store.action_log.snapshot(game.id)
    assert final is not None
    over = t.channel_messages()[-1]
    last_turn = t.channel_messages()[-2]
    assert "🏁" in over["content"] and last_turn["content"].startswith("🤖")
    (picture,) = last_turn["attachments"]
    assert shown_version(t.fake.attachment_bytes(picture)) == loads(final[1]).version
    assert picture["description"].startswith("Alien Frontiers board: the game is over")

"""Looking at a game: ``/af board``, ``status``, ``log``, ``rules``; turn reminders."""

from __future__ import annotations

import random
from pathlib import Path

from bot.cogs.info import RULE_TOPICS
from bot.strings import BOT_EN
from tests.bot.table import Table, attachment_png, make_bot
from tests.discord_fake import StartBot


class Clock:
    """A settable clock for the bot (seconds)."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def test_board_status_and_log_for_players_and_spectators(
    tmp_path: Path, start_bot: StartBot
) -> None:
    t = Table(await start_bot(make_bot(tmp_path / "af.db")))
    none = await t.cmd("af board", member="manager")
    assert "no game in this channel" in (none.message or {}).get("content", "")

    await t.open(humans=("owner", "member"))
    rng = random.Random(3)
    for _ in range(4):
        await t.play(t.seeded_move(rng))

    board = await t.cmd("af board", member="manager")
    assert board.callback_type == 5 and board.ephemeral
    followup = await board.followup()
    assert followup.message is not None
    attachment_png(t.fake, followup.message)

    status = await t.cmd("af status", member="manager")
    assert status.ephemeral
    for name in ("owner", "member"):
        assert f"**{name}**" in status.data["content"]
    assert "VP" in status.data["content"] and "to act" in status.data["content"]

    log = await t.cmd("af log", {"count": 3}, "manager")
    assert log.ephemeral
    lines = [line for line in log.data["content"].splitlines() if line.startswith("#")]
    assert len(lines) == 3
    actions = await t.bot.service.store.actions(t.game().id)
    assert lines[-1].endswith(actions[-1].notation)
    (attached,) = log.files
    assert attached.data.decode().count("\n") == len(actions) - 1


async def test_rules_topics_autocomplete_and_text(tmp_path: Path, start_bot: StartBot) -> None:
    t = Table(await start_bot(make_bot(tmp_path / "af.db")))
    for topic in RULE_TOPICS:
        assert f"rules.{topic}" in BOT_EN, topic
    choices = await t.h.interact(t.h.autocomplete("af rules", "topic", {"topic": "van"}))
    assert [c["value"] for c in choices.choices] == ["vanvogt"]
    every = await t.h.interact(t.h.autocomplete("af rules", "topic", {"topic": ""}))
    assert len(every.choices) == 25
    mine = await t.cmd("af rules", {"topic": "mine"}, "manager")
    assert mine.ephemeral and mine.data["content"].startswith("**Lunar Mine**")
    by_name = await t.cmd("af rules", {"topic": "Plasma"}, "manager")
    assert by_name.data["content"].startswith("**Plasma Cannon**")
    unknown = await t.cmd("af rules", {"topic": "warp drive"}, "manager")
    assert unknown.ephemeral and "no rules topic" in unknown.data["content"]


async def test_turn_reminder_after_idle_time_survives_restart(
    tmp_path: Path, start_bot: StartBot
) -> None:
    db = tmp_path / "af.db"
    clock = Clock()
    bot = make_bot(db, turn_reminder_hours=12.0)
    bot.clock = clock
    t = Table(await start_bot(bot))
    await t.open(humans=("owner", "member"))
    game = t.game()
    user = game.user_to_act()
    assert await bot.reminders.check(clock.now + 11 * 3600) == 0

    await t.h.close()  # restart: the idle time is counted from the database
    second = make_bot(db, turn_reminder_hours=12.0)
    second.clock = clock
    h2 = await start_bot(second)
    assert await second.reminders.check(clock.now + 12 * 3600 + 1) == 1
    ping = h2.last_message(include_ephemeral=False)
    assert ping["content"].startswith(f"⏰ <@{user}>")
    assert str(game.row.turn_message_id) in ping["content"]
    request = t.fake.find(method="POST", route="/channels/{channel_id}/messages")[-1]
    assert [int(u) for u in request.json["allowed_mentions"]["users"]] == [user]
    # Once per quiet period: not again right away, again 12 hours later.
    assert await second.reminders.check(clock.now + 13 * 3600) == 0
    assert await second.reminders.check(clock.now + 24 * 3600 + 2) == 1

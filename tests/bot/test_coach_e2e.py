"""The coach in real games (``/af coach``), through discord.py and the fake Discord API: a
coached member's private answers explain, once a game, each thing new to them they can
use now; what they use is remembered; a member without the coach hears nothing of it."""

from __future__ import annotations

import random
from pathlib import Path

from bot.play.coach import ORDER, thing_key
from bot.text.strings import text
from engine import legal_actions
from tests.bot.table import Table, make_bot
from tests.discord_fake import StartBot

LINES = {text(thing_key(t)): t for t in ORDER}


async def test_the_coach_explains_each_new_thing_once_a_game(
    tmp_path: Path, start_bot: StartBot
) -> None:
    t = Table(await start_bot(make_bot(tmp_path / "af.db")))
    off = await t.cmd("af coach", member="member")
    assert off.ephemeral and off.data["content"].startswith("The coach is off.")
    on = await t.cmd("af coach", {"mode": "on"}, "member")
    assert on.data["content"].startswith("🎓 The coach is on")
    await t.open(("member", "owner"))
    store = t.bot.service.store
    member = t.user_id("member")
    said: list[str] = []
    rng = random.Random(3)
    for _ in range(40):
        game = t.game()
        if game.state.over:
            break
        who = t.member_to_act()
        moves = [str(a) for a in legal_actions(game.state)]
        docks = [m for m in moves if m.startswith("dock")]
        answer = await t.play(rng.choice(docks or moves), who)
        content = answer.data["content"]
        coached = [line for line in content.splitlines() if line in LINES]
        if who == "owner":
            assert not coached, content  # the owner has no coach
        else:
            assert len(coached) <= 1
            said += coached
    assert said, "the coached member was told of nothing new"
    assert len(said) == len(set(said))  # each thing once a game
    used = await store.used_things(member)
    assert any(u.startswith("facility:") for u in used)
    await t.cmd("af coach", {"mode": "off"}, "member")
    assert not (await store.prefs([member]))[member].coach

"""The coach in real games (``/af coach``), through discord.py and the fake Discord API: the
turn message of a coached member explains, once a game and before they pick, each thing
new to them they can use now; what they use is remembered; a member without the coach
hears nothing of it."""

from __future__ import annotations

import random
from pathlib import Path

from bot.play.coach_things import ORDER, thing_key, used_things
from bot.text.strings import text
from engine import legal_actions, parse
from tests.bot.table import Table, jobs_of, make_bot
from tests.discord_fake import StartBot

LINES = {text(thing_key(t)): t for t in ORDER}


async def test_the_coach_explains_each_new_thing_once_a_game_before_the_pick(
    tmp_path: Path, start_bot: StartBot
) -> None:
    """Issue 41: the line came in the answer to a move, so a thing first used by that move
    had none. Now the turn message carries it while the coached member is to pick."""
    t = Table(await start_bot(make_bot(tmp_path / "af.db")))
    off = await t.cmd("af coach", member="member")
    assert off.ephemeral and off.data["content"].startswith("The coach is off.")
    on = await t.cmd("af coach", {"mode": "on"}, "member")
    assert on.data["content"].startswith("🎓 The coach is on")
    await t.open(("member", "owner"))
    store = jobs_of(t.bot).store
    member = t.user_id("member")
    said: list[str] = []
    shown: set[str] = set()  # things whose line a turn message showed
    first_uses = covered = 0
    rng = random.Random(3)
    for _ in range(40):
        game = t.game()
        if game.state.over:
            break
        who = t.member_to_act()
        content = t.turn_message()["content"]
        coached = [line for line in content.splitlines() if line in LINES]
        if who == "owner":
            assert not coached, content  # the owner has no coach
        else:
            new = [line for line in coached if LINES[line] not in shown]
            said += new
            shown |= {LINES[line] for line in coached}
        moves = [str(a) for a in legal_actions(game.state)]
        docks = [m for m in moves if m.startswith("dock")]
        move = rng.choice(docks or moves)
        before = game.state
        used_before = await store.members.used_things(member)
        answer = await t.play(move, who)
        assert not [line for line in answer.data["content"].splitlines() if line in LINES]
        if who == "member":
            things = used_things(before, parse(move)) - used_before
            first_uses += len(things)
            covered += len(things & shown)
    assert said, "the coached member was told of nothing new"
    assert len(said) == len(set(said))  # each thing once a game
    assert first_uses and covered == first_uses  # every thing explained before its first use
    used = await store.members.used_things(member)
    assert any(u.startswith("facility:") for u in used)
    await t.cmd("af coach", {"mode": "off"}, "member")
    assert not (await store.members.prefs([member]))[member].coach

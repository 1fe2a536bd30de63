"""A whole game on the fake Discord: ``/af new`` to the final scores, two members playing.

The first turns are played entirely by clicking the panel; the rest by ``/play``
with moves picked from ``legal_actions`` by a seeded RNG. On SQLite the real board renderer
draws every turn.
"""

from __future__ import annotations

import random
import re

from bot.store.storage import Storage
from engine.scoring import outcome
from tests.bot.table import PNG_MAGIC, Table, jobs_of, make_bot
from tests.discord_fake import StartBot

CLICKED_TURNS = 4


async def test_full_game_from_new_to_final_scores(db_url: str, start_bot: StartBot) -> None:
    db = db_url  # on SQLite and on PostgreSQL
    # The board image does not depend on the database: drawn for real once (SQLite).
    h = await start_bot(make_bot(db, real_renderer=db.startswith("sqlite")))
    t = Table(h)
    await t.open(humans=("owner", "member"))
    game = t.game()
    rng = random.Random(2024)

    clicks = 0
    while game.state.turn_number <= CLICKED_TURNS:
        result = await t.click_move(t.seeded_move(rng))
        assert result.callback_type in (6, 7)
        clicks += 1
    assert clicks >= CLICKED_TURNS * 2

    moves = 0
    while not game.state.over:
        result = await t.play(t.seeded_move(rng))
        assert result.ephemeral and result.message is not None
        assert result.message["content"].startswith("✅"), result.message["content"]
        moves += 1
        assert moves < 2000, "the game does not end"

    final = game.state
    result_ = outcome(final)
    assert result_ is not None
    messages = t.channel_messages()

    # One turn message with the board image per turn, and the game-over message with the board.
    boards = [m for m in messages if m["attachments"]]
    turn_files = sorted(
        m["attachments"][0]["filename"] for m in boards if "turn" in m["attachments"][0]["filename"]
    )
    assert len(turn_files) == final.turn_number + 1  # every turn, plus the final board
    for m in boards[-3:]:
        assert h.fake.attachment_bytes(m["attachments"][0]).startswith(PNG_MAGIC)

    over = messages[-1]
    assert "Game over" in over["content"]
    # Members by their mention (no seat name can pass for one), AI seats by their names.
    shown = [f"<@{s.user_id}>" if s.user_id is not None else s.name for s in game.seats]
    for seat, name in enumerate(shown):
        assert re.search(rf"{re.escape(name)}: {result_.scores[seat]} VP", over["content"])
    winner = shown[result_.winners[0]]
    assert winner in over["content"].splitlines()[1]
    # The last turn message keeps its lines but no panel.
    assert game.row.turn_message_id is not None
    last_turn = h.fake.get_message(game.row.turn_message_id)
    assert last_turn["components"] == []
    assert "game is over" in last_turn["content"]

    # Storage: the game is over, and its log replays to the same final state.
    store = await Storage.open(db)
    try:
        row = await store.game_rows.game(game.id)
        assert row is not None and row.status == "over" and row.waiting_on_user is None
        actions = await store.action_log.actions(game.id)
        assert [a.notation for a in actions] == [str(a) for a in game.game.log]  # type: ignore[union-attr]
    finally:
        await store.close()
    rebuilt = await jobs_of(t.bot).games.rebuild(game.row, game.seats)
    assert rebuilt.state == final

"""A whole game in two languages through the fake Discord: the server speaks Russian, so
the game's public messages are Russian; a Polish member gets private replies in Polish.

Moves are typed with ``/play`` (docks by the Russian member with the Russian names of the
facilities), picked by a seeded RNG from the legal moves.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.store.errors import ServiceError
from bot.store.rows import SeatRow
from bot.store.storage import Storage
from bot.text.seat_names import ai_name, ai_name_in
from bot.text.strings import text, thing_name
from engine import GameState, legal_actions
from engine.actions import Dock
from tests.bot.table import Table, jobs_of, make_bot, stub_renderer
from tests.discord_fake import StartBot

CYRILLIC = re.compile(r"[а-яё]", re.IGNORECASE)
ENGLISH_WORDS = re.compile(r"\b(the|turn|round|docks|gains|ships?|colony|wins)\b", re.IGNORECASE)


class LocaleRecorder:
    """The stub renderer, remembering in which language each board was drawn."""

    def __init__(self) -> None:
        self.locales: list[str] = []

    def __call__(
        self, state: GameState, names: list[str] | None, locale: str, detail: bool = False
    ) -> bytes:
        self.locales.append(locale)
        return stub_renderer(state, names, locale)


def russian_move(t: Table, rng: random.Random) -> str:
    """A seeded legal move; a dock is written with the facility's Russian name."""
    move = t.seeded_move(rng)
    action = next(a for a in legal_actions(t.state) if str(a) == move)
    if isinstance(action, Dock):
        return move.replace(action.facility, thing_name(action.facility, "ru"), 1)
    return move


def public_texts(t: Table) -> list[str]:
    return [m["content"] for m in t.channel_messages() if m["content"]]


async def test_russian_game_with_a_polish_member(tmp_path: Path, start_bot: StartBot) -> None:
    boards = LocaleRecorder()
    bot = make_bot(tmp_path / "af.db", renderer=boards)
    h = await start_bot(bot)
    h.fake.guilds[h.guild.id]["preferred_locale"] = "ru"
    t = Table(h, seed=5)
    t.locales.update({"owner": "ru", "member": "pl"})
    await t.open(humans=("owner", "member"))  # /af new without language: the server's
    game = t.game()
    assert game.row.locale == "ru"
    lobby = public_texts(t)[0]
    assert "Чужие рубежи" in lobby and text("lobby.option.language", "ru") in lobby

    # Private replies follow the member's language.
    member_turn = game.seat_of(t.user_id("member"))
    not_yours = await t.play("end", member="member" if game.to_act() != member_turn else "owner")
    assert not_yours.ephemeral
    expected = "to nie twoja tura" if game.to_act() != member_turn else "сейчас не ваш ход"
    assert expected in not_yours.data["content"]
    status = await t.cmd("af status", member="member")
    assert status.ephemeral and "**Runda" in status.data["content"]
    rules = await t.cmd("af rules", {"topic": "Лунная шахта"}, "member")
    assert rules.data["content"].startswith("**Lunar Mine**\n5 pól dokowania")
    board = await t.cmd("af board", member="member")
    await board.followup()
    assert boards.locales[-1] == "pl"
    choices = await t.h.interact(
        t.h.autocomplete("play", "move", {"move": ""}, member="member", locale="pl")
    )
    if game.to_act() == member_turn:
        assert any("Dokuj" in c["name"] for c in choices.choices), choices.choices

    rng = random.Random(13)
    acks: dict[str, list[str]] = {"owner": [], "member": []}
    moves = 0
    while not game.state.over:
        member = t.member_to_act()
        move = russian_move(t, rng) if member == "owner" else t.seeded_move(rng)
        result = await t.play(move, member)
        content: Any = (result.message or {}).get("content", "")
        assert result.ephemeral and content.startswith("✅"), (move, content)
        acks[member].append(content)
        moves += 1
        assert moves < 2000, "the game does not end"

    # Public: the lobby, the turn messages, the game over, every board: Russian.
    public = public_texts(t)
    assert len(public) > 10
    for content in public:
        assert CYRILLIC.search(content), content
        assert not ENGLISH_WORDS.search(content), content
    assert text("over.header", "ru", {"mentions": ""}).strip() in public[-1]
    assert any("швартует" in c for c in public)
    assert set(boards.locales[:-1]) == {"ru"} or set(boards.locales) == {"ru", "pl"}
    assert boards.locales.count("pl") == 1  # only the member's /af board
    # Private: the Polish member's acknowledgements are Polish, the Russian member's Russian.
    member_lines = "\n".join(acks["member"])
    owner_lines = "\n".join(acks["owner"])
    assert "dokuje" in member_lines and not CYRILLIC.search(member_lines)
    assert "швартует" in owner_lines

    store = await Storage.open(tmp_path / "af.db")
    try:
        row = await store.game_rows.game(game.id)
        assert row is not None and row.status == "over" and row.locale == "ru"
        logged = [a.notation for a in await store.action_log.actions(game.id)]
        assert logged and all(not CYRILLIC.search(n) for n in logged)  # one notation
    finally:
        await store.close()


async def test_new_with_a_language_and_the_host_changes_it(
    tmp_path: Path, start_bot: StartBot
) -> None:
    h = await start_bot(make_bot(tmp_path / "af.db"))
    t = Table(h)
    await t.cmd("af new", {"players": 2, "language": "pl"})
    game = t.game()
    assert game.row.locale == "pl"
    assert "po polsku" in public_texts(t)[0]
    jobs = jobs_of(t.bot)
    with pytest.raises(ServiceError) as refused:
        await jobs.channel_settings.set_language(game, t.user_id("member"), "ru")
    assert refused.value.key == "seats.not_allowed"
    assert await jobs.channel_settings.set_language(game, t.user_id("owner"), "ru-RU") == "ru"
    assert game.row.locale == "ru"
    with pytest.raises(ServiceError) as unknown:
        await jobs.channel_settings.set_language(game, t.user_id("owner"), "de")
    assert unknown.value.key == "language.unknown"
    assert game.row.locale == "ru"
    # A server whose language has no catalogue gets English games.
    h.fake.guilds[h.guild.id]["preferred_locale"] = "de"
    await t.cmd("af abort")
    await t.cmd("af new", {"players": 2})
    assert t.game().row.locale == "en"


def test_ai_seat_names_are_said_in_each_language_and_fit() -> None:
    """Polish says the level of a (feminine) SI as "poziom"; a taken-over seat keeps the
    member's name, cut so that the AI's words stay whole within 32 characters."""
    assert ai_name("easy", 1, locale="pl") == "SI 1 (poziom łatwy)"
    assert ai_name("normal", 2, locale="ru") == "ИИ 2 (обычный)"
    long = ai_name("normal", 0, "Bartłomiej Wiśniewski-Kowalczyk", "pl")
    assert long.endswith(" (SI, poziom normalny)") and len(long) <= 32
    # Said again in another language: an AI's name of any language, not a member's name.
    seat = SeatRow(1, None, "normal", "AI 1 (normal)")
    assert ai_name_in(seat, "ru") == "ИИ 1 (обычный)"
    assert ai_name_in(replace(seat, name="ИИ 1 (обычный)"), "pl") == "SI 1 (poziom normalny)"
    taken = replace(seat, name=ai_name("normal", 0, "Zofia", "en"))
    assert ai_name_in(taken, "ru") == "Zofia (ИИ, обычный)"
    assert ai_name_in(replace(seat, name="Robo"), "ru") == "Robo"
    assert ai_name_in(SeatRow(0, 5, None, "AI 1 (normal)"), "ru") == "AI 1 (normal)"


async def test_the_ai_seats_take_the_games_new_language_up_to_the_chart(
    tmp_path: Path, start_bot: StartBot
) -> None:
    """An English game whose host switches it to Russian: the AI seats are named in
    Russian from then on, on the board and in the chart of VP by round (drawn from the
    seats as stored, as the game over draws it)."""
    h = await start_bot(make_bot(tmp_path / "af.db"))
    t = Table(h)
    await t.cmd("af new", {"players": 3, "language": "en"}, "owner")
    await t.cmd("af join", member="member")
    await t.cmd("af bot", {"level": "easy"}, "owner")
    game = t.game()
    await t.cmd("af start", member="owner")
    await t.cmd("af kick", {"player": "member"}, "owner")  # "member (AI normal)"
    assert [s.name for s in game.seats] == ["owner", "member (AI normal)", "AI 1 (easy)"]
    await t.cmd("af settings", {"language": "ru"}, "owner")
    assert game.row.locale == "ru"
    store = jobs_of(t.bot).store
    names = [s.name for s in await store.seat_rows.seats(game.id)]
    assert names == ["owner", "member (ИИ, обычный)", "ИИ 1 (лёгкий)"]
    notations = [a.notation for a in await store.action_log.actions(game.id)]
    chart = await t.bot.parts.boards.pictures.story_file(game.row, names, notations)
    assert chart is not None and chart.description is not None
    assert "ИИ 1 (лёгкий)" in chart.description and "AI" not in chart.description

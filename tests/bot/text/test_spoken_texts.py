"""Texts a screen reader said wrong in the expert's game: a double comma and no verb in
Russian, a ship's change without its direction, "Return 0 fuel and 1 ore", a hint cut
mid-word with no sign, an AI's level said at every mention of its name."""

from __future__ import annotations

from bot.text.describe import action_label, event_line, pick_line
from bot.text.spoken import named_once, plain
from bot.text.strings import text, thing_name
from engine import parse
from engine.ai.reasons import Pick, Reason
from engine.state import Event


def test_the_mode_line_in_russian_has_its_verb_and_no_double_comma() -> None:
    for locale in ("en", "ru", "pl"):
        said = plain(text("notify.reader.on", locale), locale)
        assert ",," not in said and ", ," not in said, said
    assert "участвуете, приходят без эмодзи" in plain(text("notify.reader.on", "ru"), "ru")
    assert plain("one, — two · three → four", "en") == "one, two, three, four"


def test_a_ships_change_says_which_way() -> None:
    changed = Event("ship_changed", 0, {"old": 2, "new": 5}, 0)
    for locale, words in (("en", "turns a 2 into a 5"), ("ru", "с 2 на 5"), ("pl", "z 2 na 5")):
        assert words in plain(event_line(changed, locale, ["Ann"]), locale)


def test_returning_one_resource_does_not_say_zero_of_the_other() -> None:
    one = parse("return 0 fuel 1 ore")
    assert action_label(one) == "Return 1 ore"
    assert action_label(parse("return 2 fuel 0 ore")) == "Return 2 fuel"
    assert action_label(parse("return 2 fuel 1 ore")) == "Return 2 fuel and 1 ore"
    assert text("choice.end_return", "en", {"fuel": 0, "ore": 2}) == (
        "End the turn, returning 2 ore"
    )
    for locale in ("ru", "pl"):
        assert "0" not in action_label(one, locale)
        assert "0" not in text("choice.end_return", locale, {"fuel": 0, "ore": 2})


def test_a_hint_for_a_screen_reader_keeps_every_word() -> None:
    """On a phone a pick is cut to three lines; heard, "(no , clears…" or «Солнечный
    преобразов» is another word, or none."""
    names = ["member", "Aleksandra Wiśniewska-Kowalczyk1"]
    pick = Pick(
        parse("dock constructor 3 3 3"),
        1,
        Reason("take", {"territory": "vanvogt", "player": 1}),
        None,
    )
    for locale in ("ru", "pl"):  # on a phone, «Конструктор ко…»
        assert "…" in pick_line(1, pick, names, locale)
    for locale in ("en", "ru", "pl"):
        whole = pick_line(1, pick, names, locale, whole=True)
        assert "…" not in whole and thing_name("constructor", locale).lower() in whole.lower()
        assert thing_name("vanvogt", locale) in whole


def test_an_ais_level_is_said_at_its_first_mention_only() -> None:
    names = ["Ann", "AI 1 (normal)", "AI 2 (hard)", "Anna (AI, easy)", "Anna"]
    said = named_once(
        "AI 1 (normal) docks. AI 2 (hard) steals from AI 1 (normal). AI 1 (normal).", names
    )
    assert said == "AI 1 (normal) docks. AI 2 (hard) steals from AI 1. AI 1."
    # "Anna" is another seat's name: "Anna (AI, easy)" stays whole, to tell them apart.
    assert named_once("Anna (AI, easy) and Anna (AI, easy)", names) == (
        "Anna (AI, easy) and Anna (AI, easy)"
    )

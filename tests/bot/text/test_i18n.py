"""The translations: gettext catalogues complete and in step with the English sources, CLDR
plural forms, the rulebooks' terms (docs/glossary.csv), fallbacks, Discord's limits."""

from __future__ import annotations

import csv
import random
import re
from gettext import c2py
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

import bot.text.strings
from bot.text import catalogues, i18n
from bot.text.describe import action_label, notation_of
from bot.text.rules_topics import RULE_TOPICS, find_topic
from bot.text.strings import (
    BOARD_EN,
    BOT_EN,
    CHART_EN,
    HINT_EN,
    LEARN_EN,
    LIVE_EN,
    RATING_EN,
    SOURCES,
    english,
    text,
    thing_name,
)
from engine import CHANCE, GameConfig, apply_in_place, legal_actions, new_game, sample_chance
from engine.messages import MESSAGES_EN, NAMES_EN, Plural
from engine.tables import CARDS, FACILITY_ORDER, FIELDS, TERRITORIES
from engine.views import view

GLOSSARY = Path(__file__).resolve().parents[3] / "docs" / "glossary.csv"
TRANSLATED = ("ru", "pl")


def test_the_languages_are_found_from_the_po_files() -> None:
    assert i18n.languages() == ("en", "pl", "ru")
    assert [i18n.language_of(x) for x in ("ru", "pl-PL", "en-GB", "pt-BR", None, "xx")] == [
        "ru",
        "pl",
        "en",
        "en",
        "en",
        "en",
    ]


def test_one_english_source_per_key() -> None:
    groups = [
        {f"name.{k}" for k in NAMES_EN},
        set(MESSAGES_EN),
        set(BOARD_EN),
        set(LIVE_EN),
        set(BOT_EN),
        set(CHART_EN),
        set(RATING_EN),
        set(HINT_EN),
        set(LEARN_EN),
    ]
    assert sum(len(g) for g in groups) == len(SOURCES)  # no key is defined twice


def test_the_template_is_made_from_the_current_sources() -> None:
    """Message by message, not byte for byte: another Babel release lays files out
    otherwise (its header, wrapping) and says the same."""
    with i18n.TEMPLATE.open("rb") as f:
        stored = i18n.entries(read_po(f))
    assert stored == i18n.entries(i18n.build_template(SOURCES)), (
        "run: python -m bot.text.catalogues update"
    )


def test_the_files_do_not_name_the_babel_that_wrote_them() -> None:
    made = i18n.render_po(i18n.build_template(SOURCES))
    assert b"Generated-By" not in made and b'msgctxt "name.solar"' in made
    for path in i18n.LOCALES_DIR.glob("*.po*"):
        assert b"Generated-By" not in path.read_bytes(), path


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_english_key_is_translated_with_the_same_placeholders(language: str) -> None:
    """Nothing missing, empty, fuzzy, stale or extra; every plural form has the English
    placeholders (``python -m bot.text.catalogues missing`` lists what fails here)."""
    assert list(i18n.problems(language, SOURCES)) == []
    catalog = i18n.catalogue(language)
    seen = {m.context for m in catalog if m.id}
    assert seen == set(SOURCES)
    for message in catalog:
        if not message.id:
            continue
        source = SOURCES[str(message.context)]
        raw = message.string
        forms = [str(f) for f in raw] if isinstance(raw, tuple | list) else [str(raw)]
        if isinstance(source, Plural):
            assert len(forms) == catalog.num_plurals, message.context
            fields = i18n.placeholders(source.one) | i18n.placeholders(source.other)
        else:
            fields = i18n.placeholders(source)
        for form in forms:
            assert i18n.placeholders(form) == fields, (language, message.context, form)


def test_the_missing_command_lists_new_changed_and_extra_keys(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert catalogues.main(["missing"]) == 0
    sources = dict(SOURCES)
    sources["lobby.new_thing"] = "A text added on main"
    sources["lobby.help"] = "Join with `/af join`, now with other words."
    del sources["lobby.closed"]
    monkeypatch.setattr(bot.text.strings, "SOURCES", sources)
    assert catalogues.main(["missing", "ru"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert sorted(line.split("\t")[1:3] for line in out) == [
        ["lobby.closed", "extra"],
        ["lobby.help", "changed"],
        ["lobby.new_thing", "missing"],
    ]


@pytest.mark.parametrize("language", TRANSLATED)
def test_plural_forms_are_cldr_rules_through_babel(language: str) -> None:
    """The .po's Plural-Forms is CLDR's rule (through Babel), compared by what it picks for
    n = 0...1000, not by its text (Babel releases spell the same rule differently)."""
    catalog = i18n.catalogue(language)
    babel_rule = get_plural(language)
    assert catalog.num_plurals == babel_rule.num_plurals
    from_babel = c2py(babel_rule.plural_expr)
    order = {"one": 0, "few": 1, "many": 2}
    cldr = Locale.parse(language)
    for n in range(0, 1001):
        picked = i18n.plural_index(language, n)
        assert picked == from_babel(n) == order[cldr.plural_form(n)], n


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "ru",
            {1: "1 корабль", 2: "2 корабля", 5: "5 кораблей", 11: "11 кораблей",
             21: "21 корабль", 22: "22 корабля", 25: "25 кораблей"},
        ),
        (
            "pl",
            {1: "1 statek", 2: "2 statki", 5: "5 statków", 11: "11 statków",
             21: "21 statków", 22: "22 statki", 25: "25 statków"},
        ),
        (
            "en",
            {1: "1 ship ", 2: "2 ships", 5: "5 ships", 11: "11 ships",
             21: "21 ships", 22: "22 ships", 25: "25 ships"},
        ),
    ],
)  # fmt: skip
def test_plural_words_for_1_2_5_11_21_22_25(language: str, words: dict[int, str]) -> None:
    for n, word in words.items():
        sentence = text("to_bay", language, {"player": 0, "count": n}, ["Ada"])
        assert word in sentence, (n, sentence)
    fuel = {
        re.sub(r"\d+", "#", text("gained_fuel", language, {"player": 0, "amount": n}))
        for n in (1, 3, 5)
    }
    assert len(fuel) == (3 if language != "en" else 1), fuel  # единицу/единицы/единиц


def test_unknown_locales_fall_back_to_english_never_to_a_key() -> None:
    for key in SOURCES:
        shown = text(key, "de", {"count": 2})
        assert shown == text(key, "en", {"count": 2})
        assert shown and (shown != key or key == "none")  # "none" is the English for none
    assert thing_name("mine", "xx") == "Lunar Mine"
    assert text("no.such.key", "ru") == "no.such.key"


@pytest.mark.parametrize("language", i18n.languages())
def test_every_text_formats_in_every_language(language: str) -> None:
    for key, source in SOURCES.items():
        english_text = source.other if isinstance(source, Plural) else source
        params = dict.fromkeys(i18n.placeholders(english_text), 7)
        shown = text(key, language, params)
        assert not re.search(r"\{[a-z_]+\}", shown), (language, key, shown)


def glossary() -> list[dict[str, str]]:
    with GLOSSARY.open(encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_the_glossary_names_every_thing_of_the_game_as_the_catalogues_do() -> None:
    rows = glossary()
    things = {r["id"]: r for r in rows if not r["id"].startswith("term.")}
    assert set(things) == set(NAMES_EN)
    for thing, row in things.items():
        assert row["en"] == NAMES_EN[thing]
        for language in TRANSLATED:
            assert thing_name(thing, language) == row[language], (language, thing)
    # The checks above can fail: the Russian names are the 2018 rulebook's, not English.
    assert thing_name("mine", "ru") == "Лунная шахта"
    assert thing_name("hub", "pl") == "Colonist Hub"


def test_the_glossary_terms_are_the_words_the_catalogues_use() -> None:
    """Each word of a term appears in the language's texts (in some grammatical form: its
    stem, all but the last two letters, at least four)."""
    terms = [r for r in glossary() if r["id"].startswith("term.")]
    assert len(terms) >= 20
    for language in TRANSLATED:
        catalog = i18n.catalogue(language)
        corpus = " ".join(
            " ".join(m.string) if isinstance(m.string, tuple) else str(m.string)
            for m in catalog
            if m.id
        ).casefold()
        for row in terms:
            for word in row[language].casefold().split():
                stem = word[: max(4, len(word) - 2)]
                assert stem in corpus, (language, row["id"], word)


def test_rules_topics_are_found_by_their_name_in_any_language() -> None:
    assert find_topic("Лунная шахта") == "mine"
    assert find_topic("лунная  ШАХТА", "pl") == "mine"
    assert find_topic("«Плазменная пушка»") == "plasma"
    assert find_topic("Colonist Hub") == "hub"
    assert find_topic("Colony Hub") == "hub"
    assert find_topic("ёлка") is None
    for topic in RULE_TOPICS:
        for language in i18n.languages():
            name = thing_name(topic, language) if topic in NAMES_EN else None
            if name is not None:
                assert find_topic(name, "en") == topic, (language, name)


def test_play_accepts_localised_facility_and_territory_names() -> None:
    assert notation_of("dock Лунная шахта 4") == "dock mine 4"
    assert notation_of("dock Lunar Mine 4") == "dock mine 4"
    assert notation_of("dock Станция терраформирования 6") == "dock terraform 6"
    assert notation_of("place Горы ван Вогта") == "place vanvogt"
    assert notation_of("discard stasis Пустоши Лема") == "discard stasis lem"
    assert notation_of("dock solar 3") == "dock solar 3"
    for thing in (*FACILITY_ORDER, *TERRITORIES):
        for language in i18n.languages():
            assert notation_of(f"x {thing_name(thing, language)} 1") == f"x {thing} 1"


def test_labels_and_texts_fit_discord_limits_in_every_language() -> None:
    """Select labels ≤ 100 characters, placeholders ≤ 150, buttons ≤ 80, not cut: the labels
    of every legal action met in seeded games."""
    rng = random.Random(4)
    names = [
        "Ада",
        "Zofia",
        "Chidi",
        "Борис",
    ]  # Discord names are often longer: labels are cut at 100
    for players in (2, 4):
        s = new_game(GameConfig(players=players, mind_control_helm=True))
        steps = 0
        while not s.over and steps < 500:
            if s.to_act() == CHANCE:
                apply_in_place(s, sample_chance(s, rng))
                continue
            actions = legal_actions(s)
            rate = view(s).market_rate
            for language in i18n.languages():
                for a in actions:
                    label = action_label(a, language, names, rate)
                    assert not label.endswith("…"), (language, label, len(label))
            apply_in_place(s, rng.choice(actions))
            steps += 1
    for language in i18n.languages():
        for key in ("panel.dock_prompt", "panel.powers_prompt", "panel.choice_idle"):
            assert len(text(key, language)) <= 150
        for key in ("panel.undo", "panel.previous", "panel.next", "panel.end", "panel.hint"):
            assert len(text(key, language)) <= 80


def test_every_card_field_and_territory_has_a_name_in_every_language() -> None:
    for thing in (*CARDS, *FIELDS, *TERRITORIES, *FACILITY_ORDER, "bay"):
        for language in TRANSLATED:
            assert thing_name(thing, language) != thing
    assert english("cmd.new.description") == BOT_EN["cmd.new.description"]
    with pytest.raises(TypeError):
        english("to_bay")

"""Russian and Polish that read as a native player writes (rules a reviewer checks by hand,
stated so a test can check them in every entry of the catalogues):

- no English word in a Russian or Polish text, except the names the rulebooks keep in
  English (the glossary's Polish column) and a few proper names;
- in Russian, a name of the game (a facility, territory, card...) stays in the
  nominative only after a noun naming its kind: never right after a preposition;
- a number right before the noun it counts takes that noun's plural form: such a text
  is a plural entry (in English and in the translation), else the number goes after the
  noun ("топливо: 3");
- no stale previous-msgid comment (``#|``) outside a fuzzy entry.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot.text import i18n
from bot.text.strings import SOURCES
from bot.text.strings import text as say
from engine.messages import NAME_PARAMS, Plural

ROOT = Path(__file__).resolve().parents[2]
LOCALES = ROOT / "bot" / "text" / "locales"

# Latin words a Russian or Polish text may hold besides the glossary's names.
PROPER = {"Discord", "Alien", "Frontiers", "Clever", "Mojo", "Games", "GIF", "PNG", "DM"}
# Polish words spelt like English ones (an English word in Polish is any other word of
# the English texts).
POLISH_HOMOGRAPHS = {"a", "i", "do", "to", "go", "same", "panel", "bot"}
RU_PREPOSITIONS = frozenset(
    [
        "в",
        "во",
        "на",
        "по",
        "из",
        "с",
        "со",
        "к",
        "ко",
        "у",
        "от",
        "для",
        "за",
        "под",
        "над",
        "о",
        "об",
        "при",
        "про",
        "через",
        "до",
        "без",
        "между",
    ]
)
# Numbers of things: the counting parameters of the plural texts, and resources.
COUNTS = {s.n for s in SOURCES.values() if isinstance(s, Plural)} | {"fuel", "ore"}


def entries(language: str) -> list[tuple[str, tuple[str, ...]]]:
    """(key, its translations) of every entry of a catalogue."""
    with (LOCALES / f"{language}.po").open("rb") as f:
        catalog = read_po(f)
    out = []
    for message in catalog:
        if not message.id or message.context is None:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        out.append((message.context, tuple(str(s) for s in strings if s)))
    return out


def glossary_words(column: str) -> set[str]:
    with (ROOT / "docs" / "glossary.csv").open(newline="") as f:
        rows = list(csv.DictReader(f))
    words: set[str] = set()
    for row in rows:
        words |= set(re.findall(r"[A-Za-z][A-Za-z'-]*", row.get(column) or ""))
        short = re.search(r"short form on the board: ([^;]+)", row.get("note") or "")
        if short:
            words |= set(re.findall(r"[A-Za-z][A-Za-z'-]*", short.group(1)))
    return words


def latin_words(text: str) -> list[str]:
    """The words of Latin letters only (two or more) of a text, leaving out placeholders,
    code, URLs, Discord markup and commands."""
    text = re.sub(r"\{[^}]*\}", " ", text)
    text = re.sub(r"`[^`]*`", " ", text)
    text = re.sub(r"https?://\S+", " ", text)
    text = re.sub(r"<[^>]*>", " ", text)
    text = re.sub(r"/\w+(?: \w+)?", " ", text)  # /af play
    return re.findall(r"(?<![^\W\d_])[A-Za-z][A-Za-z'-]+(?![^\W\d_])", text)


def english_vocabulary() -> set[str]:
    words: set[str] = set()
    for source in SOURCES.values():
        for text in (source.one, source.other) if isinstance(source, Plural) else (source,):
            words |= {w.lower() for w in latin_words(text)}
    return words


def test_no_english_word_in_russian_outside_the_glossarys_names() -> None:
    allowed = PROPER | glossary_words("ru")
    found = {
        key: words
        for key, strings in entries("ru")
        if (words := [w for s in strings for w in latin_words(s) if w not in allowed])
    }
    assert not found, found


def test_no_english_word_in_polish_outside_the_rulebooks_english_names() -> None:
    allowed = PROPER | glossary_words("pl")
    english = english_vocabulary() - POLISH_HOMOGRAPHS
    found = {
        key: words
        for key, strings in entries("pl")
        if (
            words := [
                w
                for s in strings
                for w in latin_words(s)
                if w not in allowed and w.lower() in english
            ]
        )
    }
    assert not found, found


def test_russian_names_after_a_preposition_follow_their_kind() -> None:
    names = "|".join(sorted(NAME_PARAMS))
    pattern = re.compile(
        rf"(?<![\w-])({'|'.join(sorted(RU_PREPOSITIONS))})\s+«?\{{({names})\}}", re.IGNORECASE
    )
    found = {
        key: [m.group(0) for m in pattern.finditer(s)]
        for key, strings in entries("ru")
        for s in strings
        if pattern.search(s)
    }
    assert not found, found


COUNTED = re.compile(rf"\{{(?:{'|'.join(sorted(COUNTS))})\}}\s+([^\W\d_]+)")
# The resources, counted in every language (their stems).
RESOURCES = {"en": (), "ru": ("топлив", "руд"), "pl": ("paliw", "rud")}


def counted_nouns(language: str) -> set[str]:
    """The nouns a number counts in the plural entries of a language (all their forms),
    but abbreviations, which do not change ("VP", "ПО")."""
    plural_keys = {key for key, source in SOURCES.items() if isinstance(source, Plural)}
    if language == "en":  # the words that change from the singular to the plural
        return {
            b.lower()
            for s in SOURCES.values()
            if isinstance(s, Plural)
            for a, b in zip(COUNTED.findall(s.one), COUNTED.findall(s.other), strict=False)
            if a != b
        }
    forms = [strings for key, strings in entries(language) if key in plural_keys]
    return {
        word.lower()
        for strings in forms
        for text in strings
        for word in COUNTED.findall(text)
        if not word.isupper() and len(word) > 2  # "из" in "{count} из {total}" counts nothing
    }


@pytest.mark.parametrize("language", ["en", "ru", "pl"])
def test_a_number_before_the_noun_it_counts_is_a_plural_text(language: str) -> None:
    """A number right before a noun it counts needs the noun's form for that number
    ("1 game", "2 игры", "5 gier"): only a plural entry gives it; any other text puts the
    number after the noun ("руда: 3")."""
    nouns = counted_nouns(language)
    plural_keys = {key for key, source in SOURCES.items() if isinstance(source, Plural)}
    if language == "en":
        texts: list[tuple[str, tuple[str, ...]]] = [
            (k, (s,)) for k, s in SOURCES.items() if not isinstance(s, Plural)
        ]
    else:
        texts = [(k, strings) for k, strings in entries(language) if k not in plural_keys]
    found = {
        key: hits
        for key, strings in texts
        if (
            hits := [
                w
                for s in strings
                for w in COUNTED.findall(s)
                if w.lower() in nouns or w.lower().startswith(RESOURCES[language])
            ]
        )
    }
    assert nouns, "no counted noun found: the test would check nothing"
    assert not found, found


@pytest.mark.parametrize("language", i18n.languages()[1:])
def test_no_stale_previous_msgid_comments(language: str) -> None:
    with (LOCALES / f"{language}.po").open("rb") as f:
        catalog = read_po(f)
    stale = [m.context for m in catalog if m.previous_id and not m.fuzzy]
    assert not stale, stale
    # Nor an old msgid kept as a translator's comment ("# |"), pointing who knows where.
    kept = [m.context for m in catalog if any(c.startswith("|") for c in m.user_comments)]
    assert not kept, kept


def test_fuel_and_ore_are_declined_in_the_sentences_about_one_of_them() -> None:
    """ "Steals 1 {resource}" cannot be said in Russian with the name in the nominative: a
    resource's texts have a variant per resource, picked by ``text``."""
    seats = ["Ann", "Bob"]
    said = {
        (language, resource): say(
            "stole_resource", language, {"player": 0, "victim": 1, "resource": resource}, seats
        )
        for language in ("en", "ru", "pl")
        for resource in ("fuel", "ore")
    }
    assert said["en", "fuel"] == "Ann steals 1 fuel from Bob"
    assert said["ru", "fuel"].endswith("1 единицу топлива")
    assert said["ru", "ore"].endswith("1 единицу руды")
    assert said["pl", "ore"].endswith("1 rudę")
    nothing = say("raid.nothing", "ru", {"victim": 1, "resource": "ore"}, seats)
    assert nothing == "у игрока Bob нет руды"

"""Russian and Polish that read as a native player writes: the rules a native reader
checks by hand, stated so a test checks them in every entry of the catalogues (so they
also hold every text added later). A failure names the key and the rule.

- no English word in a Russian text (but "Discord"), nor in a Polish one but the names the
  rulebooks keep in English (the glossary's Polish column) and a few proper names;
- the glossary's terms (``docs/glossary.csv``) in their one form: where the English speaks
  of a term (its ``when`` words, else its English name), the translation uses the
  rulebook's word (``<language>_forms``) and none of the wrong ones (``<language>_not``):
  the relic ship is «приобрести» / «wykupić», a colony is launched «запустить» /
  «umieścić na planecie», a facility takes the rulebook's preposition («на инопланетном
  артефакте», «в лунной шахте»);
- in Russian, the names of the game lower case mid-sentence, as the rulebook writes them
  («снова лунная шахта», «пара для верфи», «на плато Брэдбери»; in «» a name keeps its
  capital); «ход» is the turn, never a move or an action; a name filled in from a
  placeholder (nominative, capital) does not go on into a clause mid-sentence («…:
  {field} на территорию»), it stands in «» or after a noun of its kind; a player's name
  does not decline, so where the English has "{name}'s" it follows «игрока» («для
  рейтинга игрока {name}», never «для рейтинга {name}»);
- a name of the game after a preposition follows a noun of its kind: in Russian («по
  комплексу «{facility}»»), and in Polish, whose names stay English («na stacji
  Maintenance Bay», «z terytorium {source}»);
- a text that starts with a thing's name (a label, a rule) starts with its full name;
- a number right before the noun it counts takes that noun's plural form: such a text
  is a plural entry (in English and in the translation), else the number goes after the
  noun ("топливо: 3"); no amount of zero is listed ("топливо 0, руда 1"): a text about
  fuel and ore has a variant per resource;
- in Polish, no "−1 dla" calque ("zmniejsz o 1 wartość") nor "zmniejsza statek o 1" (its
  value changes), a player's name after a noun follows «gracza» («w rankingu gracza
  {name}»), and the player is addressed without a gender ("z których nie korzystasz",
  never "używałeś"); in Russian with «вы»;
- in Polish, a trade says both sides alike: tokens on both («2 znaczniki paliwa na 1
  znacznik rudy») or on neither («1 paliwo na 1 rudę»);
- sentence case: a capital after a full stop, a small letter after a semicolon;
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
from engine import CHANCE, GameConfig, apply_in_place, chance_outcomes, new_game
from engine.actions import FirstPlayer
from engine.messages import NAME_PARAMS, Plural
from engine.state import Event, FirstPlayerDecision
from tests.engine.scenario import act, scenario

ROOT = Path(__file__).resolve().parents[3]
LOCALES = ROOT / "bot" / "text" / "locales"

# Latin words a Russian or Polish text may hold besides the glossary's names.
PROPER = {"Discord", "Alien", "Frontiers", "Clever", "Mojo", "Games", "GIF", "PNG", "DM"}
PROPER_RU = {"Discord"}
# Polish words spelt like English ones (an English word in Polish is any other word of
# the English texts).
POLISH_HOMOGRAPHS = {"a", "i", "do", "to", "go", "same", "panel", "bot", "limit"}
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


def test_no_english_word_in_russian() -> None:
    """Russian names everything in Russian, the game too («Чужие рубежи», the glossary's
    term.game): only Discord keeps its name."""
    found = [
        f"{key}: English in Russian ({', '.join(words)}): {s}"
        for key, strings in entries("ru")
        for s in strings
        if (words := [w for w in latin_words(s) if w not in PROPER_RU])
    ]
    assert not found, "\n".join(found)


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


# ---- the glossary's terms in their one form ---------------------------------------------


def glossary() -> list[dict[str, str]]:
    with (ROOT / "docs" / "glossary.csv").open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def form_patterns(cell: str) -> list[re.Pattern[str]]:
    """A glossary cell of forms, "; "-separated, as patterns: a word ending in "-" is a
    stem (any ending), other words are whole ("приобре-", "в верфи", "used up")."""
    out = []
    for form in filter(None, (f.strip() for f in cell.split(";"))):
        words = [
            re.escape(w[:-1]) + r"\w*" if w.endswith("-") else re.escape(w) for w in form.split()
        ]
        out.append(re.compile(r"(?<!\w)" + r"\s+".join(words) + r"(?!\w)", re.IGNORECASE))
    return out


def plain(text: str) -> str:
    """A text without its placeholders, code and commands: the words a player reads."""
    text = re.sub(r"\{[^}]*\}", " ", text)
    text = re.sub(r"`[^`]*`", " ", text)
    return re.sub(r"(?<!\w)/af \w+", " ", text)


def source_text(key: str) -> str:
    source = SOURCES[key]
    return f"{source.one} {source.other}" if isinstance(source, Plural) else source


@pytest.mark.parametrize("language", ["ru", "pl"])
def test_the_glossarys_terms_have_their_one_form(language: str) -> None:
    """Where the English speaks of a glossary term (its ``when`` words, else its English
    name), the translation uses the rulebook's word and none of the wrong ones."""
    rows = [r for r in glossary() if r[f"{language}_forms"] or r[f"{language}_not"]]
    assert rows, "the glossary marks no forms: the test would check nothing"
    found = []
    for row in rows:
        when = form_patterns(row["when"] or row["en"])
        required = form_patterns(row[f"{language}_forms"])
        wrong = form_patterns(row[f"{language}_not"])
        for key, strings in entries(language):
            if not any(p.search(plain(source_text(key))) for p in when):
                continue
            for s in strings:
                said = plain(s)
                if required and not any(p.search(said) for p in required):
                    found.append(
                        f"{key}: {row['en']!r} without the glossary's «{row[language]}» "
                        f"({row[f'{language}_forms']}): {s}"
                    )
                found += [
                    f"{key}: «{m.group(0)}» where the glossary says «{row[language]}» "
                    f"({row['id']}): {s}"
                    for p in wrong
                    if (m := p.search(said))
                ]
    assert not found, "\n".join(found)


# ---- names -------------------------------------------------------------------------------


def names(language: str) -> dict[str, str]:
    """The names of the game's things (facilities, territories, cards, fields) in a
    language, by id."""
    return {r["id"]: r[language] for r in glossary() if not r["id"].startswith("term.")}


def stem(word: str) -> str:
    return word[:-2] if len(word) > 5 else word[:-1]


def capitalised_name(name: str) -> re.Pattern[str]:
    """A Russian name with its first letter capital, in any case: each common word by its
    stem, the proper names (capital in the glossary, after the first word) as they are
    ("Пустыне Берроуза", "Горы ван Вогта", "Верфи")."""
    first, *rest = name.split()
    words = [re.escape(stem(first)) + r"\w*"]
    words += [
        re.escape(w) if w[0].isupper() or w == "ван" else re.escape(stem(w)) + r"\w*" for w in rest
    ]
    return re.compile(r"(?<![\w«])" + r"\s+".join(words) + r"(?!\w)")


def starts_a_sentence(before: str) -> bool:
    """Whether what comes before a place in a text ends a sentence (or there is nothing:
    emoji and markup at most)."""
    return not re.search(r"[^\W_]", before) or bool(re.search(r"[.!?…]\W*$|\n\W*$", before))


def test_russian_names_are_lower_case_mid_sentence() -> None:
    """The rulebook writes the names of the game lower case in a sentence («в лунной
    шахте», «пока вы контролируете плато Брэдбери», «позитронное поле»): only at the start
    of a sentence or in «» (a title) does a name take a capital."""
    patterns = [capitalised_name(name) for name in names("ru").values() if name[0].isupper()]
    found = []
    for key, strings in entries("ru"):
        for s in strings:
            said = re.sub(r"`[^`]*`", lambda m: " " * len(m.group(0)), s)
            for pattern in patterns:
                for m in pattern.finditer(said):
                    before = said[: m.start()]
                    if before.count("«") > before.count("»") or starts_a_sentence(before):
                        continue
                    found.append(f"{key}: «{m.group(0)}» mid-sentence is lower case: {s}")
    assert not found, "\n".join(found)


NAME_IN_A_CLAUSE = re.compile(
    rf"(?<!«)\{{(?:{'|'.join(sorted(NAME_PARAMS))})\}}(?!»)\s+[а-яё]\w*", re.IGNORECASE
)


def names_in_a_clause(text: str) -> list[str]:
    """The name placeholders of a Russian text that go on into a clause mid-sentence
    («…: {field} на территорию»): a name is filled in the nominative with the capital
    of its title, so it stands in «» or after a noun of its kind, alone after a colon as
    a label's item («разместить колонию: {territory}»), or first in its sentence."""
    return [
        m.group(0)
        for m in NAME_IN_A_CLAUSE.finditer(text)
        if not starts_a_sentence(text[: m.start()])
    ]


def test_the_name_in_a_clause_rule_finds_the_slip_of_a_label() -> None:
    """The slip a native reader found in the field discard's label: «Сбросить карту «Луч
    стазиса»: Изоляционное поле на территорию …» (the rulebook's «изоляционное поле»)."""
    assert names_in_a_clause("Сбросить карту «{card}»: {field} на территорию «{territory}»")
    assert not names_in_a_clause("Сбросить «{card}»: «{field}» на территорию «{territory}»")
    assert not names_in_a_clause("новая колония: {territory}, теперь под вашим контролем")
    assert not names_in_a_clause("{field} — на территории «{territory}»")
    assert not names_in_a_clause("Готово. {territory} под вашим контролем")


def test_russian_names_from_placeholders_do_not_go_on_into_a_clause() -> None:
    found = [
        f"{key}: «{slip}»: a name mid-sentence stands in «» or after its kind "
        f"(«генератор «{{field}}»»): {s}"
        for key, strings in entries("ru")
        for s in strings
        for slip in names_in_a_clause(s)
    ]
    assert not found, "\n".join(found)


def english_of(key: str) -> tuple[str, ...]:
    source = SOURCES.get(key)
    if source is None:
        return ()
    return (source.one, source.other) if isinstance(source, Plural) else (source,)


# A noun in the genitive right before a player's name: «для рейтинга {name}».
GENITIVE_BEFORE = re.compile(r"(?<![^\W\d_])([а-яё]{2,}[аяыи])\s+\{(\w+)\}")


def undeclined_possessives(english: tuple[str, ...], russian: str) -> list[str]:
    """The player names that the English puts in the possessive ("{name}'s rating") and
    the Russian sets right after a noun in the genitive («для рейтинга {name}»): a
    member's name does not decline, so it follows «игрока» («для рейтинга игрока
    {name}»)."""
    possessive = {p for s in english for p in re.findall(r"\{(\w+)\}'s\b", s)}
    return [
        m.group(0)
        for m in GENITIVE_BEFORE.finditer(russian)
        if m.group(2) in possessive and m.group(1) not in {"игрока", "участника"}
    ]


def test_the_possessive_rule_finds_the_slip_of_a_rating_line() -> None:
    """The slip a native reader found in the notice of a player who stopped playing."""
    english = ("For {name}'s rating it counts as leaving, last place.",)
    assert undeclined_possessives(english, "Для рейтинга {name} это выход из игры.")
    assert not undeclined_possessives(english, "Для рейтинга игрока {name} это выход.")
    assert not undeclined_possessives(english, "{name} ({territory}) и {name} (…)")


def test_russian_player_names_in_the_possessive_follow_igroka() -> None:
    found = [
        f"{key}: «{slip}»: a player's name does not decline: «… игрока {{name}}»: {s}"
        for key, strings in entries("ru")
        for s in strings
        for slip in undeclined_possessives(english_of(key), s)
    ]
    assert not found, "\n".join(found)


PL_PREPOSITIONS = (
    "z",
    "ze",
    "na",
    "do",
    "od",
    "w",
    "we",
    "po",
    "przy",
    "dla",
    "u",
    "o",
    "nad",
    "pod",
    "przez",
    "za",
)


def test_polish_names_after_a_preposition_follow_their_kind() -> None:
    """Polish keeps the rulebook's English names, which do not decline: after a
    preposition comes a noun of its kind first («na stacji Maintenance Bay», «z terytorium
    {source}», «na kartę …»), never the bare name («na Maintenance Bay», «z {source}»)."""
    preps = "|".join(PL_PREPOSITIONS)
    kept = [n for n in names("pl").values() if n[0].isupper()]  # not fuel, ore: they decline
    literal = "|".join(re.escape(n) for n in sorted(kept, key=len, reverse=True))
    params = "|".join(sorted(NAME_PARAMS))
    pattern = re.compile(
        rf"(?<![\w-])({preps})\s+(\{{({params})\}}|({literal})(?!\w))", re.IGNORECASE
    )
    found = [
        f"{key}: «{m.group(0)}»: a name after a preposition needs its kind (stacji, "
        f"terytorium, karty, generatora): {s}"
        for key, strings in entries("pl")
        for s in strings
        for m in pattern.finditer(s)
    ]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("language", ["ru", "pl"])
def test_a_text_that_starts_with_a_name_starts_with_its_full_name(language: str) -> None:
    """A label or a rule that starts with a thing's name ("Mind Control Helm: …") starts
    with its full name in the translation too (not the board's short form, «Шлем:»)."""
    english = names("en")
    translated = names(language)
    found = []
    for key, strings in entries(language):
        source = re.sub(r"^\W+", "", source_text(key))
        thing = next(
            (t for t, n in english.items() if re.match(rf"{re.escape(n)}\s*[:—]", source)),
            None,
        )
        if thing is None:
            continue
        found += [
            f"{key}: starts with {english[thing]!r}: the translation starts with its full "
            f"name «{translated[thing]}»: {s}"
            for s in strings
            if not re.sub(r"^\W+", "", s).startswith(translated[thing])
        ]
    assert not found, "\n".join(found)


# ---- words ---------------------------------------------------------------------------------

HOD = re.compile(r"(?<!\w)ход(|а|у|ом|е|ы|ов|ам|ами|ах)(?!\w)", re.IGNORECASE)


def test_russian_hod_is_the_turn_never_a_move() -> None:
    """«Ход» is the turn (the glossary's term.turn); a move of the game is «действие»
    («Вы выбрали другое действие», not «другой ход»): where the English speaks of a move,
    the Russian says «ход» no more often than the English speaks of a turn, a round or
    playing."""
    found = []
    for key, strings in entries("ru"):
        english = plain(source_text(key))
        if not re.search(r"\bmoves?\b", english, re.IGNORECASE):
            continue
        turns = len(re.findall(r"\b(turns?|rounds?|play\w*)\b", english, re.IGNORECASE))
        found += [
            f"{key}: «ход» for a move (the turn only; a move is «действие»): {s}"
            for s in strings
            if len(HOD.findall(plain(s))) > turns
        ]
    assert not found, "\n".join(found)


def test_polish_says_how_a_value_changes_without_the_dla_calque() -> None:
    """ "−1 dla statku" is a calque of "−1 on a ship": Polish says «zmniejsz o 1 wartość
    statku», «zwiększ o 1 …»."""
    pattern = re.compile(r"[+−–-]\s?\d+\s+dla\b")
    found = [
        f"{key}: «{m.group(0)}» (say «zmniejsz/zwiększ o 1 wartość …»): {s}"
        for key, strings in entries("pl")
        for s in strings
        for m in pattern.finditer(s)
    ]
    assert not found, "\n".join(found)


# "zmniejsza statek o 1" makes the ship smaller: what changes is its value. A label
# naming the ship by its value ("zmniejsz statek {die} o 1", "statek 4") may say it short.
SHIP_CHANGED = re.compile(r"\b(?:zwiększ|zmniejsz)\w*\s+(?:statek|statki|statków)\s+o\s+\d")


def test_polish_changes_a_ships_value_not_the_ship() -> None:
    """ "zwiększa statek o 1" is a calque of "+1 on a ship": Polish says «zwiększa wartość
    statku o 1» (or names the ship by its value: «zmniejsz statek 4 o 1»)."""
    found = [
        f"{key}: «{m.group(0)}» (say «… wartość statku o 1»): {s}"
        for key, strings in entries("pl")
        for s in strings
        for m in SHIP_CHANGED.finditer(s)
    ]
    assert not found, "\n".join(found)


# A player's name (a placeholder, never declined) straight after a noun that should take it
# in the genitive: «w rankingu {name}», «kolonie {owner_a}» read as broken Polish; the noun
# «gracza» carries the case («w rankingu gracza {name}»), or the names stand in a list.
NAME_AFTER_NOUN = re.compile(
    r"\b(?:ranking\w*|koloni\w*|miejsc\w*|stat(?:ek|ki|ków|ku)|tur\w*|zasob\w*|kart\w*)"
    r"\s+\{(?:name|player|owner\w*|victim|old|new|by|mention)\}"
)


def test_polish_a_players_name_after_a_noun_follows_gracza() -> None:
    """A name filled in from a placeholder stays in the nominative: after a noun that
    governs the genitive it needs «gracza» («w rankingu gracza {name}», «kolonia gracza
    {owner}»), never «w rankingu {name}»."""
    found = [
        f"{key}: «{m.group(0)}» (say «… gracza {{…}}»): {s}"
        for key, strings in entries("pl")
        for s in strings
        for m in NAME_AFTER_NOUN.finditer(s)
    ]
    assert not found, "\n".join(found)


# A trade's fuel side: the word before it (a count of tokens or a bare number), and its ore
# side, tokens or not ("2 znaczniki paliwa na 1 znacznik rudy", "1 paliwo na 1 rudę").
TRADE = re.compile(r"(\S+)\s+paliw\w*\s+(?:na|za)\s+\S+\s+(znacznik\w*\s+)?rud", re.IGNORECASE)


def test_polish_says_both_sides_of_a_trade_alike() -> None:
    """ "Wymień 2 znaczniki paliwa na 1 rudę" counts tokens on one side and the resource on
    the other: a trade says both sides alike, «2 znaczniki paliwa na 1 znacznik rudy» (the
    rulebook's) or «1 paliwo na 1 rudę»."""
    found = [
        f"{key}: «{m.group(0)}» (tokens on one side only): {s}"
        for key, strings in entries("pl")
        for s in strings
        for m in TRADE.finditer(s)
        if m.group(1).lower().startswith("znacznik") != (m.group(2) is not None)
    ]
    assert not found, "\n".join(found)


GENDERED = {
    # Polish: the past tense of "you" shows a gender (używałeś / używałaś).
    "pl": re.compile(r"(?<!\w)\w+(łeś|łaś)(?!\w)", re.IGNORECASE),
    # Russian: the player is «вы», never «ты».
    "ru": re.compile(
        r"(?<!\w)(ты|тебя|тебе|тобой|твой|твоя|твоё|твои|твоего|твоей|твоих|твоим)(?!\w)",
        re.IGNORECASE,
    ),
}


@pytest.mark.parametrize("language", ["ru", "pl"])
def test_the_player_is_addressed_as_the_language_does(language: str) -> None:
    found = [
        f"{key}: «{m.group(0)}» (ru: «вы»; pl: no gender, «z których nie korzystasz»): {s}"
        for key, strings in entries(language)
        for s in strings
        for m in GENDERED[language].finditer(plain(s))
    ]
    assert not found, "\n".join(found)


# Words after which a full stop does not end a sentence.
ABBREVIATIONS = {"np", "nr", "itp", "wł", "wył", "вкл", "выкл", "исп", "т", "е", "преобр", "г"}


def sentence_case_slips(text: str, language: str) -> list[str]:
    """The places of ``text`` where a sentence starts in a small letter after a full stop,
    or goes on after a semicolon with a capital (but a name, an abbreviation, a
    placeholder). A number that starts its phrase is an ordinal in Polish before a full
    stop ("Lunar Mine: 1. statek", "{place}. miejsce"), never in Russian («1-й»)."""
    proper = {w for n in names(language).values() for w in n.split()} | PROPER
    said = re.sub(r"`[^`]*`", "`x`", text)
    slips = []
    for m in re.finditer(r"(\S+)\.\s+([^\W\d_]\w*)", said):
        word, after = m.group(1), m.group(2)
        before = said[: m.start(1)].rstrip()
        first = not before or before[-1] in ":•" or word[0] == "("  # it starts its phrase
        ordinal = language == "pl" and first and re.fullmatch(r"\(?(\d+|\{\w+\})", word)
        if word.lower().strip("(«") in ABBREVIATIONS or ordinal or word.endswith("}"):
            continue
        if after[0].islower():
            slips.append(f"«{m.group(0)}»: a capital after a full stop")
    for m in re.finditer(r";\s+([^\W\d_]\w*)", said):
        word = m.group(1)
        if word[0].isupper() and word not in proper and not word.isupper():
            slips.append(f"«{m.group(0)}»: a small letter after «;»")
    return slips


def test_the_sentence_case_rule_finds_the_slips_of_generated_text() -> None:
    """The rule below, on the slips a native reader found in the alt text (made of several
    entries: the board in words, ``bot.text.board_words``)."""
    assert sentence_case_slips("Раунд 1, ход 1; Ходит owner, осталось пришвартовать: 1", "ru")
    assert sentence_case_slips("корабли в игре: 3, в запасе: 3. пришвартованных нет.", "ru")
    assert sentence_case_slips("Runda 1, tura 1; Miejsce 1: Zofia", "pl")
    assert sentence_case_slips("Koniec gry po rundzie 9. teraz gra Zofia", "pl")
    assert not sentence_case_slips("Lunar Mine: 1. statek dowolny; Colonist Hub: pole 3", "pl")
    assert not sentence_case_slips("np. Zofia; вкл. или выкл.; {place}. miejsce", "pl")


@pytest.mark.parametrize("language", ["ru", "pl"])
def test_sentence_case_after_a_full_stop_and_a_semicolon(language: str) -> None:
    """A sentence starts with a capital, after a full stop too; after a semicolon the
    sentence goes on, in small letters."""
    found = [
        f"{key}: {slip}: {s}"
        for key, strings in entries(language)
        for s in strings
        for slip in sentence_case_slips(s, language)
    ]
    assert not found, "\n".join(found)


# ---- amounts ---------------------------------------------------------------------------------


def events_with_a_zero_amount() -> list[Event]:
    """Events the engine logs with an amount of 0 (of fuel or ore): the starting
    compensation of a 2-player game, a Resource Cache paying one resource, an excess
    returned in one resource."""
    start = new_game(GameConfig(players=2))
    while start.to_act() == CHANCE and not isinstance(start.pending[0], FirstPlayerDecision):
        apply_in_place(start, chance_outcomes(start)[0][0])
    apply_in_place(start, FirstPlayer(0))
    cache = act(scenario(current=3, cards={0: ["cache"]}), "end", "roll 2 4 5")
    returned = act(scenario(docks={"mine": "p1:4"}, fuel=7, ore=3), "end", "return 2 fuel 0 ore")
    return [
        e
        for s in (start, cache, returned)
        for e in s.events
        if any(e.params.get(r) == 0 for r in ("fuel", "ore"))
    ]


def test_no_amount_of_zero_is_listed() -> None:
    """ "member получает на старте: топливо 1, руда 0": a text about fuel and ore has a
    variant per resource (``<key>.fuel``, ``<key>.ore``), which ``text`` picks when the
    other amount is 0 (so also for the events of games saved before)."""
    events = events_with_a_zero_amount()
    assert {e.key for e in events} >= {"compensation", "cache_paid", "returned"}
    seats = ["Ann", "Bob", "Cy", "Di"]
    found = []
    for e in events:
        for language in ("en", "ru", "pl"):
            said = say(e.key, language, {**e.params, "player": e.player}, seats)
            if re.search(r"(?<![\d,.])0(?![\d,.])", said):
                found.append(f"{e.key} {dict(e.params)}: an amount of 0 in {language}: {said}")
    assert not found, "\n".join(found)

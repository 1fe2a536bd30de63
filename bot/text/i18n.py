"""Translations: gettext catalogues in ``bot/text/locales/``, read with Babel, CLDR plural rules.

The English source texts stay in Python, next to the code that uses them:
``engine.messages`` (names of things, refusals, events) and ``bot.text.strings`` (the bot,
the board image, the slash commands). ``bot.text.strings.SOURCES`` gathers them under
their keys. Each becomes one gettext message whose context (``msgctxt``) is the key
and whose ``msgid`` is the English text (``msgid_plural`` too, for a ``Plural``), so
translators' tools (Poedit, Weblate, Lokalize, msgfmt) show the English beside the
translation, and a changed English text marks its translations fuzzy instead of
silently keeping a stale one.

Files: ``bot/text/locales/messages.pot`` (the template, made from the sources) and one
``<language>.po`` per language (``ru.po``, ``pl.po``), each with the ``Plural-Forms``
of its language from Babel's CLDR data. At run time every ``.po`` is read with Babel,
compiled in memory and used through ``gettext`` (``pgettext``/``npgettext``): a text
that is missing, empty or fuzzy falls back to English, never to a key.

This module is the catalogues' machinery and knows no source module: every function
that needs the English sources is given them (``sources``). The commands that keep the
files up to date are ``python -m bot.text.catalogues`` (``bot.text.catalogues``).
"""

from __future__ import annotations

import datetime as _dt
import io
import re
import string
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from gettext import NullTranslations
from pathlib import Path
from typing import Final

from babel import Locale
from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po
from babel.support import Translations

from engine import Plural, Source

LOCALES_DIR: Final = Path(__file__).resolve().parent / "locales"
TEMPLATE: Final = LOCALES_DIR / "messages.pot"
SOURCE_LANGUAGE: Final = "en"
PROJECT: Final = "alien-frontiers-discord"
# A fixed date, and no generator header, keep the files the same whatever Babel writes them.
TEMPLATE_DATE: Final = _dt.datetime(2025, 1, 1, tzinfo=_dt.UTC)
FORMAT_FLAG: Final = "python-brace-format"
_ENGLISH: Final = NullTranslations()


# ---- reading the catalogues at run time ------------------------------------------------------


@cache
def languages() -> tuple[str, ...]:
    """English and every language with a ``.po`` file, e.g. ``("en", "pl", "ru")``."""
    return (SOURCE_LANGUAGE, *sorted(p.stem for p in LOCALES_DIR.glob("*.po")))


def endonym(language: str) -> str:
    """A language's name in itself, from CLDR: "English", "Русский", "Polski"."""
    name = Locale.parse(language).get_display_name(language) or language
    return name[:1].upper() + name[1:]


@lru_cache(maxsize=256)
def language_of(locale: str | None) -> str:
    """The catalogue language of a Discord or POSIX locale (``ru``, ``pl-PL``, ``en_US``),
    English for a language without a catalogue. (Cached: every text asks, dozens a move.)"""
    language = re.split(r"[-_]", str(locale or SOURCE_LANGUAGE))[0].lower()
    return language if language in languages() else SOURCE_LANGUAGE


@cache
def catalogue(language: str) -> Catalog:
    """The ``.po`` of ``language`` as Babel reads it."""
    with (LOCALES_DIR / f"{language}.po").open("rb") as f:
        return read_po(f, locale=language)


@cache
def translations(language: str) -> NullTranslations:
    """gettext translations of ``language`` (no-op ones for English or an unknown language).

    Fuzzy and untranslated messages are left out, so gettext falls back to the English.
    """
    if language == SOURCE_LANGUAGE or language not in languages():
        return _ENGLISH
    buffer = io.BytesIO()
    write_mo(buffer, catalogue(language), use_fuzzy=False)
    buffer.seek(0)
    return Translations(buffer, domain="messages")


def template_for(key: str, source: Source, language: str, params: Mapping[str, object]) -> str:
    """The text of ``key`` in ``language`` (its plural form for the count in ``params``)."""
    t = translations(language)
    if isinstance(source, Plural):
        value = params.get(source.n, 0)
        n = value if isinstance(value, int) else 0
        english = _ENGLISH.ngettext(source.one, source.other, n)
        return t.npgettext(key, source.one, source.other, n) or english
    return t.pgettext(key, source) or source


def translated(key: str, source: str, language: str) -> str | None:
    """The translation of a plain text, or None when ``language`` has none for it."""
    if language == SOURCE_LANGUAGE or language not in languages():
        return None
    text = translations(language).pgettext(key, source)
    return text if text and text != source else None


def plural_index(language: str, n: int) -> int:
    """Which plural form (0, 1, 2...) ``language``'s ``Plural-Forms`` picks for ``n``."""
    rule = getattr(translations(language), "plural", None)
    return int(rule(n)) if rule is not None else int(n != 1)


def placeholders(text: str) -> set[str]:
    """The ``{name}`` fields of a ``str.format`` template."""
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


# ---- the template and the .po files ------------------------------------------------------------


def build_template(sources: Mapping[str, Source]) -> Catalog:
    """The ``.pot`` catalogue of the English sources, in their order."""
    catalog = Catalog(
        project=PROJECT,
        version="1",
        copyright_holder="the Alien Frontiers for Discord authors",
        msgid_bugs_address="",
        creation_date=TEMPLATE_DATE,
        revision_date=TEMPLATE_DATE,
        charset="utf-8",
    )
    for key, source in sources.items():
        comments = []
        if isinstance(source, Plural):
            comments.append(f"plural: the number is {{{source.n}}}")
            msgid: str | tuple[str, str] = (source.one, source.other)
            fields = placeholders(source.one) | placeholders(source.other)
        else:
            msgid = source
            fields = placeholders(source)
        flags = [FORMAT_FLAG] if fields else []
        catalog.add(msgid, context=key, auto_comments=comments, flags=flags)
    return catalog


_GENERATOR: Final = re.compile(rb'^"Generated-By: [^"]*"\n', re.MULTILINE)


def render_po(catalog: Catalog) -> bytes:
    """A catalogue as a ``.po`` file, without the ``Generated-By`` header Babel adds (it
    names Babel's version, so an upgrade would otherwise rewrite every file)."""
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=100, ignore_obsolete=True, include_previous=True)
    return _GENERATOR.sub(b"", buffer.getvalue())


def entries(catalog: Catalog) -> list[tuple[object, ...]]:
    """What a catalogue says, message by message, in order: the same for two files that
    differ only in how a Babel version lays them out (wrapping, quoting, header)."""
    return [
        (m.context, m.id, _translation(m), sorted(m.flags), m.auto_comments, m.user_comments)
        for m in catalog
        if m.id
    ]


def _translation(message: Message) -> str | tuple[str, ...]:
    """A message's translation, "" for none (a new message has None, one read from a file
    "" or a tuple of "" per plural form)."""
    raw = message.string
    if isinstance(raw, tuple | list):
        forms = tuple(str(f or "") for f in raw)
        return forms if any(forms) else ""
    return str(raw or "")


def write_template(sources: Mapping[str, Source]) -> Path:
    TEMPLATE.parent.mkdir(parents=True, exist_ok=True)
    TEMPLATE.write_bytes(render_po(build_template(sources)))
    return TEMPLATE


def update_language(language: str, sources: Mapping[str, Source]) -> Path:
    """Merge the current sources into ``language``'s ``.po`` (created if missing)."""
    path = LOCALES_DIR / f"{language}.po"
    if path.exists():
        with path.open("rb") as f:
            catalog = read_po(f, locale=language)
    else:
        catalog = Catalog(locale=language, project=PROJECT, version="1", charset="utf-8")
        catalog.language_team = f"{Locale.parse(language).english_name} <>"
    catalog.update(build_template(sources), update_header_comment=False)
    path.write_bytes(render_po(catalog))
    languages.cache_clear()
    language_of.cache_clear()
    catalogue.cache_clear()
    translations.cache_clear()
    return path


@dataclass(frozen=True, slots=True)
class Problem:
    """A key a language lacks, and why."""

    language: str
    key: str
    why: str  # missing, empty, fuzzy, changed, extra, placeholders
    english: str

    def __str__(self) -> str:
        return f"{self.language}\t{self.key}\t{self.why}\t{self.english}"


def _english(source: Source) -> str:
    return source.other if isinstance(source, Plural) else source


def problems(language: str, sources: Mapping[str, Source]) -> Iterator[Problem]:
    """Every key of the English sources that ``language`` does not translate as it should."""
    path = LOCALES_DIR / f"{language}.po"
    if not path.exists():
        for key, source in sources.items():
            yield Problem(language, key, "missing", _english(source))
        return
    with path.open("rb") as f:
        catalog = read_po(f, locale=language)
    found: dict[str, Message] = {m.context: m for m in catalog if m.id and m.context}
    for key, source in sources.items():
        english = _english(source)
        message = found.get(key)
        if message is None:
            yield Problem(language, key, "missing", english)
            continue
        expected: str | tuple[str, str] = (
            (source.one, source.other) if isinstance(source, Plural) else source
        )
        raw = message.string
        forms: tuple[str, ...] = tuple(raw) if isinstance(raw, tuple | list) else (raw or "",)
        if message.id != expected:
            yield Problem(language, key, "changed", english)
        elif not all(forms):
            yield Problem(language, key, "empty", english)
        elif message.fuzzy:
            yield Problem(language, key, "fuzzy", english)
        elif any(placeholders(form) != placeholders(english) for form in forms):
            yield Problem(language, key, "placeholders", english)
    for key in sorted(found.keys() - sources.keys()):
        msgid = found[key].id
        yield Problem(language, key, "extra", msgid if isinstance(msgid, str) else msgid[-1])

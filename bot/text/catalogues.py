"""The translation files kept up to date with the English sources: the commands of
``python -m bot.text.catalogues ...``::

    extract          write messages.pot from the English sources
    update           merge messages.pot into every .po (new keys empty, changed ones fuzzy)
    missing [LANG]   list the keys a language lacks (missing, empty, fuzzy, changed, extra);
                     exit status 1 if there is any
    init LANG        start LANG.po (e.g. ``de``) from the template, with its plural rule

Here, not in ``bot.text.i18n``: this module joins the catalogues' machinery (``i18n``) to
the English sources (``bot.text.strings.SOURCES``), so neither of those knows the other's
module beyond that one direction (strings uses i18n).
"""

from __future__ import annotations

import argparse
import re
import sys

from babel import Locale, UnknownLocaleError

from bot.text import strings
from bot.text.i18n import (
    LOCALES_DIR,
    SOURCE_LANGUAGE,
    languages,
    problems,
    update_language,
    write_template,
)

DESCRIPTION = """Keep the translation files (bot/text/locales/*.po) in step with the
English sources (bot/text/strings.py, engine/messages.py), and start a new language."""


def _new_language(code: str) -> tuple[str | None, str]:
    """The catalogue name for a new language ``code``, or None and why it cannot be one."""
    language = code.strip().lower()
    if not re.fullmatch(r"[a-z]{2,3}", language):
        return None, (
            f"{code!r} is not a language code: give two or three letters, without a region "
            "(de, uk, pt: a member's Discord language pt-BR finds pt)"
        )
    try:
        Locale.parse(language)
    except (ValueError, UnknownLocaleError):
        return None, f"{code!r} is no language CLDR knows (e.g. de, uk, pt, es, fr)"
    if language == SOURCE_LANGUAGE:
        return None, "English is the source language: its texts are in bot/text/strings.py"
    if (LOCALES_DIR / f"{language}.po").exists():
        return None, f"{language}.po exists already: use `update`"
    return language, ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.text.catalogues",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("extract", help="write bot/text/locales/messages.pot")
    commands.add_parser("update", help="merge the template into every .po")
    missing = commands.add_parser(
        "missing", help="list the keys a language lacks (exit status 1 if any)"
    )
    missing.add_argument("language", nargs="*", help="default: every translated language")
    init = commands.add_parser("init", help="start a new language's .po (e.g. de)")
    init.add_argument("language")
    args = parser.parse_args(argv)
    sources = strings.SOURCES  # read now: a test may put other sources in its place
    if args.command == "extract":
        print(write_template(sources))
    elif args.command == "update":
        write_template(sources)
        for language in languages()[1:]:
            print(update_language(language, sources))
    elif args.command == "init":
        new, why = _new_language(args.language)
        if new is None:
            print(f"error: {why}", file=sys.stderr)
            return 2
        write_template(sources)
        print(update_language(new, sources))
    else:
        translated = languages()[1:]
        unknown = [lang for lang in args.language if lang not in translated]
        if unknown:
            why = (
                "English is the source language"
                if unknown[0] == SOURCE_LANGUAGE
                else f"there is no {unknown[0]}.po"
            )
            print(
                f"error: {unknown[0]!r}: {why}; the translated languages are "
                f"{', '.join(translated)} (start one with `init`)",
                file=sys.stderr,
            )
            return 2
        chosen = args.language or list(translated)
        found = [p for language in chosen for p in problems(language, sources)]
        for problem in found:
            print(problem)
        print(f"{len(found)} key{'' if len(found) == 1 else 's'} to translate", file=sys.stderr)
        return 1 if found else 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

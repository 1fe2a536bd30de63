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
import sys

from bot.text import strings
from bot.text.i18n import LOCALES_DIR, languages, problems, update_language, write_template


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.text.catalogues", description=__doc__.split("\n")[0]
    )
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("extract", help="write bot/text/locales/messages.pot")
    commands.add_parser("update", help="merge the template into every .po")
    missing = commands.add_parser("missing", help="list the keys a language lacks")
    missing.add_argument("language", nargs="*")
    init = commands.add_parser("init", help="start a new language's .po")
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
        language = args.language.replace("-", "_")
        if (LOCALES_DIR / f"{language}.po").exists():
            print(f"{language}.po exists already: use `update`", file=sys.stderr)
            return 2
        write_template(sources)
        print(update_language(language, sources))
    else:
        chosen = args.language or list(languages()[1:])
        found = [p for language in chosen for p in problems(language, sources)]
        for problem in found:
            print(problem)
        print(f"{len(found)} key{'' if len(found) == 1 else 's'} to translate", file=sys.stderr)
        return 1 if found else 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

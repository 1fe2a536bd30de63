"""Slash-command texts in the members' languages, through discord.py's localisation.

Command names stay English. Descriptions of commands and options and the names of
fixed choices are ``locale_str`` objects built by ``command_text``: their message is
the English text of ``BOT_EN`` and their ``key`` extra is its catalogue key. When the
tree is synced, discord.py asks ``CatalogTranslator`` for every Discord locale and
sends the gettext catalogue's translation (``bot.text.i18n``) as the ``*_localizations`` of
the commands; Discord shows the English text for the locales it gets nothing for.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.text import i18n
from bot.text.strings import english


def command_text(key: str) -> app_commands.locale_str:
    """The English text of ``key`` (a ``BOT_EN`` key) marked for translation by that key."""
    return app_commands.locale_str(english(key), key=key)


def catalog_language(locale: discord.Locale) -> str:
    """The catalogue language of a Discord locale: ``ru`` for ``Locale.russian``, ``pl`` for
    ``Locale.polish``, ``pt`` for ``Locale.brazil_portuguese``..."""
    return locale.value.split("-")[0].lower()


class CatalogTranslator(app_commands.Translator):
    """Looks the ``key`` of a ``locale_str`` up in the gettext catalogues (``bot.text.i18n``)."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """The catalogue's text, or None (Discord then shows the English text) for English,
        for a language without a catalogue, a key the catalogue lacks or a string with no key
        (such as the command names discord.py wraps itself)."""
        key = string.extras.get("key")
        language = catalog_language(locale)
        if not isinstance(key, str):
            return None
        return i18n.translated(key, string.message, language)


__all__ = ["CatalogTranslator", "catalog_language", "command_text"]

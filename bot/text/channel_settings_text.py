"""``/af settings``' answers in words: the channel's game's and the server's settings
(the turn clock's, the language new games start in), and what the server's admins changed.

Said from clock settings and language codes; a change to a game's settings is told to its
channel by the outbox (``bot.play.channel_settings_service``),
in ``bot.text.clock_text``'s words."""

from __future__ import annotations

from bot.store.clock_settings import ClockSettings
from bot.text import i18n
from bot.text.clock_text import settings_text
from bot.text.strings import text


def settings_shown(
    game: ClockSettings | None,
    server: ClockSettings,
    chosen_language: str | None,
    server_language: str,
    locale: str,
) -> str:
    """The settings as they are: the channel's game's clock (if it has a game), the
    server's default clock, and the language new games start in: the admins' choice
    (``chosen_language``), else the server's own language in Discord."""
    lines = []
    if game is not None:
        lines.append(text("settings.game", locale, {"settings": settings_text(game, locale)}))
    lines.append(text("settings.server", locale, {"settings": settings_text(server, locale)}))
    if chosen_language is not None:
        said = {"language": i18n.endonym(chosen_language)}
        lines.append(text("settings.server_language", locale, said))
    else:
        said = {"language": i18n.endonym(server_language)}
        lines.append(text("settings.server_language_auto", locale, said))
    return "\n".join(lines)


def server_settings_changed(clock: ClockSettings | None, language: str | None, locale: str) -> str:
    """What the server's admins changed: the default clock (now ``clock``), the language
    new games start in; None for what they left as it was."""
    said = []
    if clock is not None:
        said.append(
            text("settings.server_changed", locale, {"settings": settings_text(clock, locale)})
        )
    if language is not None:
        said.append(
            text("settings.server_language_changed", locale, {"language": i18n.endonym(language)})
        )
    return "\n".join(said)


__all__ = ["server_settings_changed", "settings_shown"]

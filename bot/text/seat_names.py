"""The names of the seats the AI plays, in a game's language: "AI 2 (hard)", or a
taken-over member's seat "Anna (AI easy)"; read back from a name written in any language
(a game's language can change after its AI seats were named)."""

from __future__ import annotations

from bot.store.rows import SeatRow
from bot.text import i18n
from bot.text.strings import text
from engine.ai import Level

NAME_LIMIT = 32  # characters of a seat's name


def ai_name(level: Level, number: int, replacing: str | None = None, locale: str = "en") -> str:
    """The seat name of an AI ("AI 2 (hard)") in the game's language; a taken-over seat
    keeps the member's name, cut so that the AI's words stay whole ("Anna (SI, poziom
    łatwy)")."""
    shown = text(f"ai.level.{level}", locale)
    if replacing:
        rest = len(text("ai.replaces", locale, {"name": "", "level": shown}))
        name = replacing[: max(8, min(20, NAME_LIMIT - rest))]
        return text("ai.replaces", locale, {"name": name, "level": shown})[:NAME_LIMIT]
    return text("ai.name", locale, {"number": number, "level": shown})[:NAME_LIMIT]


def _member_in(name: str, level: str, language: str) -> str | None:
    """The member's part of ``name`` when it is a taken-over seat's name in ``language``."""
    shown = text(f"ai.level.{level}", language)
    before, _, after = text("ai.replaces", language, {"name": "\0", "level": shown}).partition("\0")
    if name.startswith(before) and name.endswith(after) and len(name) > len(before + after):
        return name[len(before) : len(name) - len(after)]
    return None


def replaced_member(name: str, level: Level) -> str | None:
    """The member's part of a taken-over seat's name ("Anna" of "Anna (AI easy)", said in
    any language), or None when the name is not one."""
    for language in i18n.languages():
        member = _member_in(name, level, language)
        if member is not None:
            return member
    return None


def ai_name_in(seat: SeatRow, locale: str) -> str:
    """An AI seat's name said in ``locale`` ("AI 1 (normal)" -> "ИИ 1 (обычный)"), when it
    is an AI's name of any language: a game's language can change after its AI seats were
    named. Any other name (a member's, a name cut short) as it is."""
    level = seat.ai_level
    if level is None:
        return seat.name
    for language in i18n.languages():
        for number in range(1, 10):
            if seat.name == ai_name(level, number, locale=language):
                return ai_name(level, number, locale=locale)
        member = _member_in(seat.name, level, language)
        if member is not None:
            return ai_name(level, 0, member, locale)
    return seat.name


__all__ = ["NAME_LIMIT", "ai_name", "ai_name_in", "replaced_member"]

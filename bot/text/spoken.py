"""Texts for a screen reader: the same words without what a screen reader reads as noise.

A member in screen-reader mode (``/af notify screen_reader:on``) gets their private
answers this way, and so does the channel of a game they sit in: no emoji at the start of
a line ("game die", "red square"), no bullets ("bullet"), words instead of symbols
("3/7" is "3 of 7", "×2" is "2 times", "→", "·" and "—" a comma), no "…". The words of
each text stay the catalogue's; only its decoration changes, so a text added later is
read right too.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from bot.text.strings import text

# Pictographs, dingbats, arrows, shapes and their joiners and variation selectors.
_SYMBOL: Final = (
    "\U0001f000-\U0001faff"
    "\u2190-\u21ff"
    "\u2300-\u23ff"
    "\u25a0-\u25ff"
    "\u2600-\u27bf"
    "\u2b00-\u2bff"
    "\ufe0f\u200d"
)
_LEADING: Final = re.compile(rf"^(?:[•{_SYMBOL}]+\s*)+", re.MULTILINE)
_ANYWHERE: Final = re.compile(rf"[{_SYMBOL}]+")
_SEPARATOR: Final = re.compile(r",?\s+(?:[·—→]|->)\s+")
_FRACTION: Final = re.compile(r"(?<![\w/:.])(\d+)/(\d+)(?![\w/])")
_TIMES: Final = re.compile(r"\s?×(\d+)")
_ELLIPSIS: Final = re.compile(r"\s*…\s*")
_SPACES: Final = re.compile(r"[ \t]{2,}")


def plain(words: str, locale: str = "en") -> str:
    """``words`` as a screen reader should hear them (see the module docstring)."""
    out = _LEADING.sub("", words)
    out = _SEPARATOR.sub(", ", out)
    out = _FRACTION.sub(lambda m: text("spoken.of", locale, {"a": m[1], "b": m[2]}), out)
    out = _TIMES.sub(lambda m: " " + text("spoken.times", locale, {"count": int(m[1])}), out)
    out = _ANYWHERE.sub("", out)
    out = _ELLIPSIS.sub(" ", out)
    out = _SPACES.sub(" ", out)
    return "\n".join(line.strip() for line in out.splitlines())


def named_once(words: str, names: Sequence[str]) -> str:
    """``words`` with a name that carries its detail in brackets ("AI 1 (normal)", "Anna
    (AI, easy)") said whole at its first mention only, and short after it ("AI 1"): an AI's
    level heard a hundred times a game is noise. A short form that another name shares
    or starts with is left whole (it would not tell them apart)."""
    for name in names:
        short, bracket, _ = name.partition(" (")
        if not bracket or not short or not name.endswith(")"):
            continue
        if any(other != name and other.startswith(short) for other in names):
            continue
        first = words.find(name)
        if first < 0:
            continue
        end = first + len(name)
        words = words[:end] + words[end:].replace(name, short)
    return words


__all__ = ["named_once", "plain"]

"""The transcript tool (``python -m tests.transcripts``) shows a game as its members see it,
in their language: the channel, each member turn's panel, the private answers; no key and
no unfilled placeholder shows through."""

from __future__ import annotations

import re

import pytest

from bot.text.strings import SOURCES
from tests.transcripts import play

WORDS = {"en": "Round", "ru": "Раунд", "pl": "Runda"}


@pytest.mark.parametrize("language", ["en", "ru", "pl"])
async def test_a_transcript_shows_the_channel_and_the_panels_in_the_language(
    language: str,
) -> None:
    text = await play(language, seed=2, max_turns=2, echo=lambda _: None)
    assert text.count("## Turn ") == 2 and "**Channel:**" in text
    assert "- menu «" in text and re.search(r"^- \[", text, re.M)  # menus and buttons
    assert WORDS[language] in text
    # The private answers: a refused move, the hint, /af status and /af log, to each member.
    assert text.count("**Only owner sees:**") >= 4 and "**Only member sees:**" in text
    if language != "en":  # in the members' language, not English
        english = ("What the normal AI would do", "Round ", "Last ")
        assert not [
            line
            for line in text.splitlines()
            if line.startswith(("> ",)) and any(e in line for e in english)
        ]
    assert "{" not in text, re.findall(r".*\{.*", text)[:3]  # every placeholder filled
    keys = [key for key in SOURCES if re.search(rf"(?<![\w.]){re.escape(key)}(?![\w.])", text)]
    assert not [k for k in keys if "." in k], keys  # no key instead of a text


async def test_a_transcript_made_again_is_the_same_text() -> None:
    """Regenerating a transcript without a change changes nothing in docs/transcripts/: the
    members' mentions are their names, not ids, and the game's clock stands still."""
    first = await play("en", seed=3, max_turns=1, echo=lambda _: None)
    again = await play("en", seed=3, max_turns=1, echo=lambda _: None)
    assert first == again
    assert "@owner" in first and not re.search(r"<@!?\d+>", first)

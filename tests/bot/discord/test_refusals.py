"""bot.discord.refusals: every kind of refusal gets its private answer from one place."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from discord import app_commands

from bot.discord.refusals import refusal_text
from bot.discord.shutdown import ShuttingDown
from bot.store.errors import ServiceError, StalePanelError
from engine.errors import IllegalActionError, InvalidNotationError


def interaction() -> Any:
    return SimpleNamespace(
        locale=None, guild_locale=None, guild_id=1, channel_id=2, data={}, command=None
    )


@pytest.mark.parametrize(
    ("error", "start"),
    [
        (ServiceError("play.not_seated"), "⛔ "),
        (IllegalActionError("action.not_legal", action="end"), "⛔ "),
        (InvalidNotationError("notation.empty"), "⛔ "),
        (ShuttingDown(), ""),
        (app_commands.NoPrivateMessage(), ""),
    ],
)
def test_each_refusal_has_its_answer(error: Exception, start: str) -> None:
    content = refusal_text(interaction(), error)
    assert content is not None and content.startswith(start) and "{" not in content


def test_a_stale_panel_points_to_the_current_one_in_its_channel() -> None:
    content = refusal_text(interaction(), StalePanelError(3))
    assert content is not None and "https://discord.com/channels/1/2/3" in content
    gone = refusal_text(interaction(), StalePanelError(None))
    assert gone is not None and "https://" not in gone


def test_a_bug_is_no_refusal() -> None:
    assert refusal_text(interaction(), RuntimeError("boom")) is None

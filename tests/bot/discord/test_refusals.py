"""bot.discord.refusals: every kind of refusal gets its private answer from one place."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest
from discord import app_commands

from bot.discord.refusals import refusal_text, refuse
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


async def test_a_refusal_that_cannot_be_sent_is_logged_not_raised(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """An interaction that expired (10062) or was answered already: its refusal is one log
    line, never an exception out of the command's error handler (a traceback for nothing)."""

    class Expired:
        status, reason = 404, "Not Found"

    async def send_message(content: str, **kwargs: object) -> None:
        raise discord.NotFound(cast(Any, Expired()), {"code": 10062, "message": "Unknown"})

    asked = interaction()
    asked.type = discord.InteractionType.application_command
    asked.user = SimpleNamespace(id=5)
    asked.response = SimpleNamespace(is_done=lambda: False, send_message=send_message)
    with caplog.at_level(logging.INFO, logger="bot.discord.refusals"):
        await refuse(asked, ServiceError("play.not_seated"))
    assert any("its refusal not sent" in r.getMessage() for r in caplog.records)

"""Extras for bot tests on top of the fake's public API.

``click_snapshot`` / ``select_snapshot`` build a component interaction from a
*saved copy* of a message, as a Discord client still showing an older version of
the message would send it (``BotHarness.click`` always uses the newest version).
``HeldCallback`` keeps the bot waiting in the middle of answering an interaction.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

from . import payloads as p
from .harness import CALLBACK_ROUTE, BotHarness, MemberRef
from .server import FakeDiscord, FakeResponse


def _context(harness: BotHarness, message: Mapping[str, Any], member: MemberRef) -> Any:
    return harness._context(channel_id=int(message["channel_id"]), member=member, user=None)


def click_snapshot(
    harness: BotHarness, message: Mapping[str, Any], custom_id: str, *, member: MemberRef = None
) -> dict[str, Any]:
    """A button click on ``message`` exactly as given (it may be outdated)."""
    p.find_component(message, custom_id, type=p.BUTTON)
    channel, context = _context(harness, message, member)
    return p.button_click(
        custom_id,
        application_id=harness.fake.application_id,
        channel=channel,
        message=dict(message),
        **context,
    )


def select_snapshot(
    harness: BotHarness,
    message: Mapping[str, Any],
    custom_id: str,
    values: Sequence[str],
    *,
    member: MemberRef = None,
) -> dict[str, Any]:
    """A string-select choice on ``message`` exactly as given (it may be outdated)."""
    p.find_component(message, custom_id, type=p.STRING_SELECT)
    channel, context = _context(harness, message, member)
    return p.component_interaction(
        custom_id,
        application_id=harness.fake.application_id,
        channel=channel,
        message=dict(message),
        component_type=p.STRING_SELECT,
        values=values,
        **context,
    )


class HeldCallback:
    """Holds the fake's answer to one interaction's callback until ``release`` is set.

    ``arrived`` is set when the bot's callback request reached the fake: the bot is then
    in the middle of answering that interaction (e.g. a move committed, not yet shown).
    """

    def __init__(self, fake: FakeDiscord, interaction_id: int) -> None:
        self.interaction_id = interaction_id
        self.arrived = asyncio.Event()
        self.release = asyncio.Event()
        self._answer = fake._interaction_callback
        fake.set_handler("POST", CALLBACK_ROUTE, self._handle)

    async def _handle(self, call: Any) -> FakeResponse:
        if int(call.params["interaction_id"]) == self.interaction_id:
            self.arrived.set()
            await self.release.wait()
        return await self._answer(call)


__all__ = ["HeldCallback", "click_snapshot", "select_snapshot"]

"""Extras for bot tests on top of the fake's public API.

``click_snapshot`` / ``select_snapshot`` build a component interaction from a
*saved copy* of a message, as a Discord client still showing an older version of
the message would send it (``BotHarness.click`` always uses the newest version).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import payloads as p
from .harness import BotHarness, MemberRef


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


__all__ = ["click_snapshot", "select_snapshot"]

"""A member's choice of how to hear of their turn (``/af notify``: ``channel``, ``dm``,
``both``, ``off``) read with what is known of their DMs: whether they are pinged in the
channel, whether they are told by DM. Asked by the turn clock's reminders
(``bot.play.turn_clock_service``) and by the couriers that ping and DM them
(``bot.discord.turn_couriers``, ``member_couriers``).
"""

from __future__ import annotations

from bot.store.rows import MemberPrefs


def pings_in_channel(prefs: MemberPrefs) -> bool:
    """Whether the member is pinged in the channel (their choice, or closed DMs)."""
    return prefs.notify in ("channel", "both") or (prefs.notify == "dm" and prefs.dm_blocked)


def wants_dm(prefs: MemberPrefs) -> bool:
    """Whether the member is told by DM (their choice, and their DMs not found closed)."""
    return prefs.notify in ("dm", "both") and not prefs.dm_blocked


__all__ = ["pings_in_channel", "wants_dm"]

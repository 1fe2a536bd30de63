"""Telling a member it is their turn: in the channel, by DM, both, or not at all.

Each member chooses once for all their games (``/af notify``; stored in ``members``).
With ``dm`` the turn message in the channel shows their name without pinging them and
a direct message carries a jump link and what happened since their last turn; turn
reminders come by DM too. ``both`` does both; ``off`` pings nowhere (the turn clock
still runs).

When Discord refuses a DM (the member's DMs are closed: error 50007) the ping goes to
the channel instead — once, then the member counts as channel-only (``dm_blocked``)
until they choose again, so there is never a loop of failing DMs — and the next time
they play, they get a private hint on how to open their DMs. Each turn start is
notified once (``games.notified_turn``), whatever restarts or re-posts happen: the DMs
are deliveries of the outbox (``bot.discord.couriers``: ``notify`` and ``dm``).
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.discord.failures import DM_CLOSED
from bot.play.member_service import MemberService
from bot.store.rows import MemberPrefs
from bot.text.strings import text

log = logging.getLogger(__name__)


class Notifier:
    """Members' choices of how to hear of their turns, and direct messages to them."""

    def __init__(self, client: discord.Client, members: MemberService) -> None:
        self.client = client
        self.members = members

    async def prefs(self, user_id: int) -> MemberPrefs:
        return await self.members.prefs_of(user_id)

    async def send_dm(
        self,
        user_id: int,
        content: str,
        *,
        nonce: str | None = None,
        prefs: MemberPrefs | None = None,
    ) -> bool:
        """Send a DM; False when Discord refuses it because the member's DMs are closed
        (remembered: their pings go to the channel until they choose again). Any other
        failure is raised (a delivery tries again). ``prefs``: the member's, read already
        for the delivery (else read here)."""
        if prefs is None:
            prefs = await self.prefs(user_id)
        channel_id = prefs.dm_channel_id
        extra: dict[str, Any] = {"nonce": nonce} if nonce is not None else {}
        for _ in range(2):
            if channel_id is None:
                channel = await self.client.create_dm(discord.Object(user_id))
                channel_id = channel.id
                await self.members.dm_channel_opened(user_id, channel_id)
            try:
                await self.client.get_partial_messageable(channel_id).send(
                    content[:2000], allowed_mentions=discord.AllowedMentions.none(), **extra
                )
                return True
            except discord.Forbidden as e:
                if e.code != DM_CLOSED:
                    raise
                log.info("member %d does not accept DMs; pinging in the channel", user_id)
                await self.members.dms_closed(user_id)
                return False
            except discord.NotFound:
                channel_id = None  # the DM channel known is gone: open it again
        raise RuntimeError(f"no DM channel with member {user_id}")

    async def dm(self, user_id: int, content: str) -> bool:
        """Send a DM now (a member's own check of their DMs); False if it failed, for any
        reason (logged)."""
        try:
            return await self.send_dm(user_id, content)
        except (discord.HTTPException, RuntimeError) as e:
            log.warning("DM to member %d not sent: %s", user_id, e)
            return False

    async def hint_for(self, user_id: int, locale: str) -> str | None:
        """The private hint on opening DMs, once, after a DM was refused."""
        prefs = await self.prefs(user_id)
        if not prefs.dm_hint:
            return None
        await self.members.dm_hint_given(user_id)
        return text("notify.dm_hint", locale)


__all__ = ["DM_CLOSED", "Notifier"]

"""The game service's direct messages to members: how each chose to hear of their turn,
the DM channel opened with them, DMs found closed (their pings go to the channel until
they choose again) and the hint about it owed to them. Sent by ``bot.discord.notify``.
"""

from __future__ import annotations

from bot.play.service_base import ServiceBase
from bot.store.rows import MemberPrefs


class DMService(ServiceBase):
    """What the bot knows of its direct messages with each member."""

    async def prefs_of(self, user_id: int) -> MemberPrefs:
        """How the member chose to hear of their turn, and what is known of their DMs."""
        return (await self.store.prefs([user_id]))[user_id]

    async def dm_channel_opened(self, user_id: int, channel_id: int) -> None:
        """The DM channel with the member (opened once, then reused)."""
        await self.store.set_prefs(user_id, dm_channel_id=channel_id)

    async def dms_closed(self, user_id: int) -> None:
        """Discord refused a DM to the member: their pings go to the channel, and they are
        owed a hint (``dm_hint_given`` once told)."""
        await self.store.set_prefs(user_id, dm_blocked=True, dm_hint=True)

    async def dm_hint_given(self, user_id: int) -> None:
        """The member was told their DMs are closed (the hint is no longer owed)."""
        await self.store.set_prefs(user_id, dm_hint=False)

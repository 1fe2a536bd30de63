"""The game service's members between games: how a member hears that their turn began
(``/af notify``), what the bot knows of its DMs with them (the DM channel opened, DMs found
closed and the hint about it owed to them; sent by ``bot.discord.notify``), and every game
they sit in (``/af mygames``). Their coach and screen-reader modes are
``GameService.coach`` and ``GameService.readers``.
"""

from __future__ import annotations

from bot.play.service_base import ServiceBase
from bot.store.rows import GameRow, MemberPrefs


class MemberService(ServiceBase):
    """A member's way of being told of their turn, and their games."""

    async def set_turn_notice(self, user_id: int, mode: str, locale: str) -> None:
        """Where a member is told their turn began (``channel``, ``dm``, ``both``, ``off``),
        their DMs in ``locale``: their DMs are tried afresh (no longer taken as closed), and
        no hint about closed DMs is owed to them."""
        await self.store.set_prefs(
            user_id, notify=mode, dm_blocked=False, dm_hint=False, locale=locale
        )

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

    async def games_of(self, user_id: int) -> list[GameRow]:
        """Every game the member sits in, in its lobby or in play."""
        seats = dict(await self.store.seats_of_user(user_id))
        return await self.store.games_by_id(seats)

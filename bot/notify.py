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
notified once (``games.notified_turn``), whatever restarts or re-posts happen.
DMs and channel messages go through discord.py, which waits out Discord's rate limits.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Protocol

import discord

from bot.catchup import catch_up_text
from bot.games import ActiveGame
from bot.service import ServiceRef
from bot.storage import MemberPrefs, Storage
from bot.strings import text

log = logging.getLogger(__name__)
DM_CLOSED = 50007  # Discord: Cannot send messages to this user


def pings_in_channel(prefs: MemberPrefs) -> bool:
    """Whether the member is pinged in the channel (their choice, or closed DMs)."""
    return prefs.notify in ("channel", "both") or (prefs.notify == "dm" and prefs.dm_blocked)


def wants_dm(prefs: MemberPrefs) -> bool:
    return prefs.notify in ("dm", "both") and not prefs.dm_blocked


class Channel(Protocol):
    """Where a notice goes when it goes to the game's channel (the ``Announcer``)."""

    def panel_link(self, game: ActiveGame) -> str: ...

    async def notify(
        self, game: ActiveGame, content: str, users: Sequence[int] = ()
    ) -> discord.Message | None: ...


class Notifier:
    """Sends the turn-start notices and DMs, respecting each member's choice."""

    def __init__(self, client: discord.Client, service: ServiceRef) -> None:
        self.client = client
        self._service = service

    @property
    def store(self) -> Storage:
        return self._service().store

    async def prefs(self, user_id: int) -> MemberPrefs:
        return (await self.store.prefs([user_id]))[user_id]

    async def dm(self, user_id: int, content: str) -> bool:
        """Send a DM; False when it could not be delivered (closed DMs are remembered)."""
        prefs = await self.prefs(user_id)
        try:
            channel_id = prefs.dm_channel_id
            if channel_id is None:
                channel = await self.client.create_dm(discord.Object(user_id))
                channel_id = channel.id
                await self.store.set_prefs(user_id, dm_channel_id=channel_id)
            await self.client.get_partial_messageable(channel_id).send(
                content[:2000], allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.Forbidden as e:
            if e.code == DM_CLOSED:
                log.info("member %d does not accept DMs; pinging in the channel", user_id)
                await self.store.set_prefs(user_id, dm_blocked=True, dm_hint=True)
            else:
                log.warning("DM to member %d refused: %s", user_id, e)
            return False
        except discord.HTTPException as e:
            log.warning("DM to member %d not sent: %s", user_id, e)
            return False
        return True

    async def turn_started(self, game: ActiveGame, channel: Channel) -> None:
        """Notify the member to act that their turn began (once per turn; the turn
        message, which pings them in the channel if they want that, is already posted).
        Call with the game's lock held."""
        user = game.waiting_on()
        turn = game.state.turn_number
        if user is None or game.row.notified_turn == turn:
            return
        await self._service().mark_notified(game, turn)
        prefs = await self.prefs(user)
        if not wants_dm(prefs):
            return
        locale = prefs.locale or game.row.locale
        seat = game.to_act()
        assert seat is not None
        rows = await self.store.actions_since(game.id, seat)
        parts = [
            text(
                "notify.your_turn",
                locale,
                {"where": self.where(game), "link": channel.panel_link(game)},
            )
        ]
        catch_up = catch_up_text(rows, seat, game.chat_names, locale)
        if catch_up:
            parts.append(catch_up)
        if not await self.dm(user, "\n".join(parts)) and prefs.notify == "dm":
            await self.fallback(game, user, channel)

    async def fallback(self, game: ActiveGame, user: int, channel: Channel) -> None:
        """The DM was refused: ping the member in the channel this once."""
        content = text(
            "notify.dm_failed",
            game.row.locale,
            {"mention": f"<@{user}>", "link": channel.panel_link(game)},
        )
        await channel.notify(game, content, [user])

    async def remind(self, game: ActiveGame, user: int, content: str, channel: Channel) -> None:
        """A reminder or final warning: by DM and/or in the channel, as the member chose
        (with ``off``, in the channel without a ping)."""
        prefs = await self.prefs(user)
        sent = False
        if wants_dm(prefs):
            locale = prefs.locale or game.row.locale
            where = text("notify.in_game", locale, {"where": self.where(game)})
            sent = await self.dm(user, f"{content}\n{where}")
        if pings_in_channel(prefs) or (wants_dm(prefs) and not sent):
            await channel.notify(game, content, [user])
        elif prefs.notify == "off":
            await channel.notify(game, content, [])

    def where(self, game: ActiveGame) -> str:
        """The game's channel (a link that opens it) and, when known, its server's name."""
        guild = self.client.get_guild(game.row.guild_id) if game.row.guild_id else None
        channel = f"<#{game.row.channel_id}>"
        return f"{channel} ({guild.name})" if guild is not None else channel

    async def hint_for(self, user_id: int, locale: str) -> str | None:
        """The private hint on opening DMs, once, after a DM was refused."""
        prefs = await self.prefs(user_id)
        if not prefs.dm_hint:
            return None
        await self.store.set_prefs(user_id, dm_hint=False)
        return text("notify.dm_hint", locale)


__all__ = ["DM_CLOSED", "Notifier", "pings_in_channel", "wants_dm"]

"""The couriers that tell members: a turn's DM with what happened since (``notify``; a notice
in the channel instead when DMs are closed), a direct message about a game (``dm``), and
a line in the game's channel (``notice``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from bot.discord.announce import mentions
from bot.discord.messenger import Delivered, Messenger, Reply, nonce, same_text, spoken, turn_link
from bot.discord.notify import Notifier
from bot.play.member_service import MemberService
from bot.play.notify_modes import wants_dm
from bot.play.readers import Readers
from bot.play.story_service import StoryService
from bot.store.rows import Delivery, MemberPrefs
from bot.text.strings import text
from bot.text.turn_message import said, turn_dm


class MemberCourier:
    """Turns notified by DM (``notify``), DMs (``dm``), and notices in the channel
    (``notice``): handed the messenger, the members' job (a turn's notice, read once),
    the story (a game's row as committed, its seats), the screen readers' modes and the
    notifier (a member's DMs)."""

    def __init__(
        self,
        messenger: Messenger,
        *,
        members: MemberService,
        story: StoryService,
        readers: Readers,
        notifier: Notifier,
    ) -> None:
        self.messenger = messenger
        self.members = members
        self.story = story
        self.readers = readers
        self.notifier = notifier

    async def notify(self, d: Delivery, reply: Reply | None, check: bool) -> Delivered:
        """Tell the member to act by DM that their turn began (if they chose DMs), with what
        happened since their last turn; if their DMs are closed and they chose DMs only,
        ping them in the channel instead (a notice queued in its place). What it says is
        read once (``MemberService.turn_notice``)."""
        turn, user = int(d.payload["turn"]), int(d.payload["user"])
        told = await self.members.turn_notice(d.game_id, turn, user)
        if told is None:
            return Delivered()  # over, told already, or a later turn tells its own member
        notified = {"notified_turn": turn}
        prefs, row = told.prefs, told.row
        if not wants_dm(prefs):
            return Delivered(notified)
        locale = prefs.locale or row.locale
        where, link = self.messenger.where(row), turn_link(row)
        content = turn_dm(where, link, told.catch_up, told.seat, told.names, locale, told.spoken)
        if check and await self.in_dms(user, content, d.created_at, prefs):
            return Delivered(notified)
        sent = await self.notifier.send_dm(
            user, content, nonce=nonce(d, f"{d.game_id}n{turn}"), prefs=prefs
        )
        if sent:
            return Delivered(notified)
        if prefs.notify != "dm":
            return Delivered(notified)  # "both": the turn message pinged them already
        fallback = outbox_notice(
            d, "notify.dm_failed", {"mention": f"<@{user}>"}, users=[user], link=True
        )
        return Delivered(notified, [fallback])

    async def in_dms(
        self, user: int, content: str, since: float, prefs: MemberPrefs | None = None
    ) -> bool:
        """Whether the bot's DMs to ``user`` already hold this text (a DM made, not
        recorded); ``prefs``: theirs, read already."""
        if prefs is None:
            prefs = await self.notifier.prefs(user)
        if prefs.dm_channel_id is None:
            return False
        start = same_text(content)
        channel = self.messenger.messageable(prefs.dm_channel_id)
        found = await self.messenger.find(channel, lambda m: same_text(m.content) == start, since)
        return found is not None

    async def dm(self, d: Delivery, reply: Reply | None, check: bool) -> Delivered:
        """A direct message about a game (a reminder, a notice to its host), in the member's
        language; if their DMs are closed, its fallback notice in the channel instead."""
        p = d.payload
        user = int(p["user"])
        row = await self.story.committed_row(d.game_id)
        fallback = p.get("fallback")
        then = [replace(d, kind="notice", payload=fallback, id=0)] if fallback else []
        prefs = await self.notifier.prefs(user)
        if row is None or (not p.get("always") and not wants_dm(prefs)):
            return Delivered(then=then)
        locale = prefs.locale or row.locale
        content = self.messenger.render(p, locale, row)
        if not p.get("plain"):
            content = (
                f"{content}\n{text('notify.in_game', locale, {'where': self.messenger.where(row)})}"
            )
        if check and await self.in_dms(user, content, d.created_at, prefs):
            return Delivered()
        if await self.notifier.send_dm(user, content, nonce=nonce(d), prefs=prefs):
            return Delivered()
        return Delivered(then=then)

    async def notice(self, d: Delivery, reply: Reply | None, check: bool) -> Delivered:
        """A line in the game's channel (the answer to the member's command, if it can be);
        a server's announcement (no game) in its own language."""
        row = await self.story.committed_row(d.game_id)
        if row is None and d.game_id is not None:
            return Delivered()
        locale = str(d.payload.get("locale") or (row.locale if row is not None else "en"))
        content = self.messenger.render(d.payload, locale, row)
        if row is not None:
            content = said(content, locale, await spoken(self.story, self.readers, row.id))
        allowed = mentions([int(u) for u in d.payload.get("users", [])])
        channel = self.messenger.messageable(d.channel_id, d.guild_id)
        await self.messenger.say(d, channel, content[:2000], allowed, reply, check)
        return Delivered()


def outbox_notice(
    d: Delivery,
    key: str,
    params: Mapping[str, object],
    *,
    users: Sequence[int] = (),
    link: bool = False,
) -> Delivery:
    """A notice in the lane of delivery ``d`` (its game and channel), queued in its place."""
    payload: dict[str, Any] = {"key": key, "params": dict(params), "users": list(users)}
    if link:
        payload["link"] = True
    return Delivery(
        "notice",
        d.game_id,
        d.channel_id,
        d.guild_id,
        payload,
        created_at=d.created_at,
        due_at=d.due_at,
    )

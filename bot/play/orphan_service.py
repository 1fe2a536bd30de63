"""The game service's games that lost their channel (deleted, or the bot removed from the
server): orphaned, continued in another channel (``adopt``), back where they were when the
bot is added back to their server, or ended; and a game's host told once, by DM, of a
problem with its channel or its messages (the bot's permissions missing there, a message
Discord rejects), told again if it comes back after it was solved.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from bot.play import outbox
from bot.play.games import ActiveGame
from bot.play.held_games import HeldGames
from bot.store.errors import ChannelBusyError, ServiceError
from bot.store.game_store import GameStore
from bot.store.host_notice_store import HostNoticeStore
from bot.store.rows import Delivery, GameRow, OrphanedBy, ToHost

log = logging.getLogger(__name__)


class OrphanService:
    """Orphaned games: lost, adopted, back, or ended; a host told of a problem."""

    def __init__(
        self,
        games: HeldGames,
        *,
        clock: Callable[[], float],
        game_rows: GameStore,
        host_notices: HostNoticeStore,
    ) -> None:
        self._game_rows = game_rows
        self._host_notices = host_notices
        self.games = games
        self.clock = clock

    async def game_row(self, game_id: int) -> GameRow | None:
        """A game's row as committed (whatever its status): where its channel is, for what
        its host is told of a problem there (``bot.discord.delivery``)."""
        return await self._game_rows.game(game_id)

    async def tell_host(
        self, game_id: int, problem: str, key: str, params: Mapping[str, Any]
    ) -> bool:
        """Queue a DM telling the game's host of ``problem`` (the text ``key`` with
        ``params``), unless they were told of it already and it was not solved since
        (remembered in the database, so a restart does not tell them again): whether it was
        queued. Its lane is the host's own (the game's channel may be the one that fails);
        the delivery worker delivers it."""
        row = await self._game_rows.game(game_id)
        if row is None:
            return False
        now = self.clock()
        dm = Delivery(
            "dm",
            row.id,
            -row.host_id,
            row.guild_id,
            {"key": key, "params": dict(params), "user": row.host_id, "always": True},
            created_at=now,
            due_at=now,
        )
        return await self._host_notices.tell_host(row.id, problem, now, [dm])

    async def problem_solved(self, game_id: int, problem: str) -> None:
        """The problem went away: the host is told again if it comes back."""
        await self._host_notices.problem_solved(game_id, problem)

    async def orphan(self, game_id: int, why: OrphanedBy) -> GameRow | None:
        """A game's channel is gone (``why``: the channel or thread deleted, or the bot
        removed from the server): a game in play leaves ``playing`` for ``orphaned`` (a
        lobby is aborted), nothing more is sent to its channel, and its host is told once
        by DM what happened and what they can do. The row as it is now (None if the game
        was not in its lobby or in play)."""
        now = self.clock()

        # The DM to its host: the storage fills in who the host is, as its commit reads it.
        said = {"key": f"orphan.{why}", "params": {"game": game_id}}
        told = ToHost("dm", {**said, "always": True, "plain": True}, created_at=now)
        row = await self._game_rows.orphan_game(game_id, why, now, told)
        held = self.games.held(game_id)
        if held is not None:
            if row is not None:
                held.row = row
            self.games.forget(held)
        if row is not None:
            log.warning("game %d: its %s is gone; the game is %s", game_id, why, row.status)
            if row.status == "orphaned":
                self.games.take_committed(None, [told.to(row)], lane=-row.host_id)
        return row

    async def channel_gone(self, channel_id: int) -> list[GameRow]:
        """A channel (or thread) was deleted: its game is orphaned (its lobby aborted)."""
        rows = await self._game_rows.games_in(channel_id=channel_id)
        return [r for row in rows if (r := await self.orphan(row.id, "channel")) is not None]

    async def guild_gone(self, guild_id: int) -> list[GameRow]:
        """The bot was removed from a server: its games there are orphaned."""
        rows = await self._game_rows.games_in(guild_id=guild_id)
        return [r for row in rows if (r := await self.orphan(row.id, "guild")) is not None]

    async def orphaned(self, user_id: int) -> list[GameRow]:
        """The orphaned games ``user_id`` hosts."""
        return await self._game_rows.games_in(host_id=user_id, statuses=("orphaned",))

    async def _orphaned_game(self, game_id: int, user_id: int, can_manage: bool) -> GameRow:
        row = await self._game_rows.game(game_id) if 0 < game_id < 2**63 else None
        if row is None or row.status != "orphaned":
            raise ServiceError("orphan.unknown", game=game_id)
        if row.host_id != user_id and not can_manage:
            raise ServiceError("orphan.host_only", game=game_id)
        return row

    async def adopt(
        self,
        game_id: int,
        user_id: int,
        *,
        channel_id: int,
        guild_id: int | None,
        can_manage: bool = False,
        by: str = "",
    ) -> ActiveGame:
        """Continue an orphaned game in ``channel_id`` (its host, or Manage Server in its
        server): in play again there, its turn message and ping posted afresh, with a line
        saying where it comes from."""
        row = await self._orphaned_game(game_id, user_id, can_manage)
        said = outbox.text_of("orphan.continued", {"game": row.id, "name": by})
        return await self._back(row, channel_id, guild_id, {**said, "reply": True})

    async def servers_that_removed_the_bot(self) -> set[int]:
        """The servers with games orphaned when the bot was removed from them."""
        rows = await self._game_rows.games_in(statuses=("orphaned",))
        return {r.guild_id for r in rows if r.orphaned == "guild" and r.guild_id is not None}

    async def back_in(self, guild_id: int, channels: set[int]) -> list[ActiveGame]:
        """The bot was added back to a server: its games orphaned by the removal, whose
        channel is still there (``channels``), go on where they were."""
        back = []
        for row in await self._game_rows.games_in(guild_id=guild_id, statuses=("orphaned",)):
            if row.orphaned != "guild" or row.channel_id not in channels:
                continue
            try:
                back.append(await self._back(row, row.channel_id, guild_id, None))
            except ServiceError as e:
                log.warning("game %d stays orphaned: %s", row.id, e.key)
                continue
            log.info("game %d goes on: the bot is back in its server", row.id)
        return back

    async def _back(
        self, row: GameRow, channel_id: int, guild_id: int | None, said: dict[str, Any] | None
    ) -> ActiveGame:
        """An orphaned game in play again in ``channel_id``: in one transaction, with a line
        saying so (``said``; None: back in its own channel, whose turn message is shown as
        the game is, the member to act pinged by the line), its turn message and its ping."""
        now = self.clock()
        before = await self.games.load(row)  # not kept: it is not in play yet
        user = before.waiting_on()
        turn = before.state.turn_number if before.game is not None else None
        users: list[int] = []
        if said is None:
            key = "orphan.back_turn" if user is not None else "orphan.back"
            said = outbox.text_of(key, {"game": row.id, "mention": f"<@{user}>"})
            users = [user] if user is not None else []
            said["users"] = users

        told = [  # in the channel's lane
            Delivery("notice", row.id, channel_id, guild_id, said, created_at=now),
            Delivery("turn", row.id, channel_id, guild_id, {"turn": turn}, created_at=now),
        ]
        if user is not None:
            notify = {"turn": turn, "user": user}
            told.append(Delivery("notify", row.id, channel_id, guild_id, notify, created_at=now))
        try:
            new = await self._game_rows.adopt_game(
                row.id,
                channel_id=channel_id,
                guild_id=guild_id,
                now=now,
                deliveries=told,
                keep_messages=channel_id == row.channel_id,
                waiting_on_user=user,
            )
        except ChannelBusyError:
            raise ServiceError("lobby.busy") from None
        if new is None:
            raise ServiceError("orphan.unknown", game=row.id)
        self.games.take_committed(None, told, lane=channel_id)
        return await self.games.load(new)

    async def end_orphaned(self, game_id: int, user_id: int, can_manage: bool = False) -> GameRow:
        """End an orphaned game, unrated (its host, or Manage Server in its server)."""
        row = await self._orphaned_game(game_id, user_id, can_manage)
        ended = await self._game_rows.update_game(
            row.id, status="aborted", waiting_on_user=None, updated_at=self.clock()
        )
        assert ended is not None
        return ended

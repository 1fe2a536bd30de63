"""The bot: a ``commands.Bot`` subclass that holds the bot's parts and the turn flow.

Its parts are built once when it is built, by the factory it is given
(``bot.factory.build_parts``), each handed its ports; nothing connects then:
``setup_hook`` (run by ``login``) opens the database, installs the translator of the
slash commands' texts, adds the cogs (built by the factory, each handed the parts it uses;
each registers its persistent components wired to itself), syncs the slash
commands when they (or their translations) changed, resumes games in play and starts the
turn clock. Once ready, the invite link is logged for whoever started the bot.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands
from discord.state import AutoShardedConnectionState

from bot.discord.announce import Announcer
from bot.discord.background import Background
from bot.discord.command_checks import check_command
from bot.discord.deferral import watch
from bot.discord.delivery import DeliveryWorker
from bot.discord.failures import InvalidRequests
from bot.discord.health import Heartbeat
from bot.discord.owners import InteractionOwners, first_to_claim
from bot.discord.parts import Parts
from bot.discord.refusals import refuse
from bot.discord.shutdown import GRACE_SECONDS, Gate, ShuttingDown, hold_locks
from bot.discord.translator import CatalogTranslator, command_text
from bot.discord.unclaimed import UNCLAIMABLE, answer_unclaimed, claimed
from bot.play.readers import Readers
from bot.settings import Settings
from bot.store.shards import ALL

log = logging.getLogger(__name__)

# View Channel, Send Messages, Send Messages in Threads, Attach Files, Create Public
# Threads (/af learn opens one) and Read Message History (to find, after a restart, a
# message it posted without recording it); the README's table says why each.
INVITE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    attach_files=True,
    create_public_threads=True,
    read_message_history=True,
)
INVITE_SCOPES = ("bot", "applications.commands")


class CommandTree(app_commands.CommandTree["AlienFrontiersBot"]):
    """The slash-command tree with one check and one error handler for every command.
    discord.py builds it in the client's constructor (``tree_cls``, called with the
    client); the client hands it then what its check and its error handler ask: the gate,
    the interactions' owners and the screen readers' modes."""

    def __init__(
        self,
        client: AlienFrontiersBot,
        *,
        gate: Gate,
        owners: InteractionOwners,
        readers: Readers,
    ) -> None:
        super().__init__(client)
        self.gate, self.owners, self.readers = gate, owners, readers

    async def interaction_check(self, interaction: discord.Interaction[AlienFrontiersBot]) -> bool:
        """Nothing at all if another process over the database took the command (a rolling
        restart: bot.discord.owners); else count it as in flight, unless the bot is
        stopping; refuse it outside a server if it is guild-only, or if its options are not
        the command's (bot.discord.command_checks)."""
        if not await first_to_claim(interaction, self.owners, self.gate):
            return False  # discord.py drops it in silence
        if not self.gate.admit():
            raise ShuttingDown()
        watch(interaction)  # not answered in time (the database busy): deferred
        check_command(interaction)
        return True

    async def on_error(
        self,
        interaction: discord.Interaction[AlienFrontiersBot],
        error: app_commands.AppCommandError,
    ) -> None:
        """Refusals become private messages; anything else is logged and apologised for
        (bot.discord.refusals). A command Discord still shows in an older form (unknown, or with
        other options) is no bug: it is answered calmly and logged without a traceback."""
        original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        # A member in screen-reader mode: the refusal without its symbol.
        plainly = self.readers.known(interaction.user.id)
        await refuse(interaction, original, where="command", plainly=plainly)


class AlienFrontiersBot(commands.Bot):
    """Alien Frontiers on Discord. Build it with ``bot.factory.create_bot``; ``start``
    connects."""

    places_by_shard = False  # the places are checked at each READY (else each shard's)

    def __init__(
        self,
        settings: Settings,
        *,
        build: Callable[[AlienFrontiersBot], Parts],
        clock: Callable[[], float] = time.time,
        **options: Any,
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # also: channels and threads deleted, the bot removed, added back
        # Discord's count of invalid requests (401, 403, 429), seen on every answer.
        self.invalid_requests = InvalidRequests()
        options.setdefault("http_trace", self.invalid_requests.trace())
        # The bot has no voice: skip discord.py's warnings about missing voice libraries.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        self.settings = settings
        self.shard_set = settings.shards or ALL
        self.clock = clock
        # Server channels only, set on the group itself: Discord reads where a command may
        # be used from the top-level command (bot.discord.command_checks checks it again on
        # arrival).
        self.af_group = app_commands.Group(
            name="af",
            description=command_text("cmd.af.description"),
            guild_only=True,
            allowed_contexts=app_commands.AppCommandContext(guild=True),
        )
        self.gate = Gate()
        # Every part built once, each handed its ports (bot.factory.build_parts), before
        # discord.py's constructor, which builds the command tree: the tree is built handed
        # what its check and its error handler ask. Nothing connects yet: the database is
        # opened by setup_hook, when the bot logs in.
        self.parts = build(self)
        tree = partial(
            CommandTree, gate=self.gate, owners=self.parts.owners, readers=self.parts.readers
        )
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=tree,  # type: ignore[arg-type]  # called with the client, as the class
            allowed_mentions=discord.AllowedMentions.none(),
            **options,
        )
        self._invite_logged = False

    # The parts the client itself uses (and the tests look at), by name.

    @property
    def announcer(self) -> Announcer:
        return self.parts.announcer

    @property
    def deliveries(self) -> DeliveryWorker:
        return self.parts.deliveries

    @property
    def background(self) -> Background:
        return self.parts.background

    @property
    def heartbeat(self) -> Heartbeat | None:
        return self.parts.heartbeat

    async def setup_hook(self) -> None:
        await self.parts.database.open()
        await self.tree.set_translator(CatalogTranslator())
        self.tree.add_command(self.af_group)
        for cog in self.parts.cogs:
            await self.add_cog(cog)
        # Commands are the application's, not a shard's: the process with shard 0 syncs them.
        if self.settings.sync_commands and 0 in self.shard_set.ids:
            await self.sync_commands(force=self.settings.force_sync)
        games = await self.parts.games.load_active()
        self.deliveries.start()  # what was left pending, once the bot is ready
        await self.background.resume(games)
        self.background.start_clock()
        if self.heartbeat is not None:
            self.heartbeat.start()

    async def sync_commands(self, force: bool = False) -> bool:
        """Push the slash commands to Discord if they changed since the last sync."""
        guild = discord.Object(self.settings.dev_guild_id) if self.settings.dev_guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        # The digest covers what ``tree.sync`` sends: with a translator, the commands'
        # localisations too, so a new or changed translation is synced as well.
        listed = self.tree.get_commands(guild=guild)
        translator = self.tree.translator
        if translator is None:
            payload = [c.to_dict(self.tree) for c in listed]
        else:
            payload = [await c.get_translated_payload(self.tree, translator) for c in listed]
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
        key = f"commands:{self.application_id}:{guild.id if guild else 'global'}"
        if not force and await self.parts.command_digests.last_synced(key) == digest:
            return False
        await self.tree.sync(guild=guild)
        await self.parts.command_digests.remember(key, digest)
        log.info("slash commands synced (%s)", f"guild {guild.id}" if guild else "globally")
        return True

    async def close(self) -> None:
        """Stop cleanly: refuse new interactions, let those in flight (and an AI move being
        applied) finish within ``GRACE_SECONDS`` while still connected, then disconnect and
        close the database."""
        if not self.gate.closing:
            log.debug("closing: new interactions are refused")
            deadline = asyncio.get_running_loop().time() + GRACE_SECONDS
            still = await self.gate.close(GRACE_SECONDS)
            if still:
                log.warning("%d interaction(s) still running; stopping anyway", still)
            await self.background.stop_clock()
            if self.heartbeat is not None:
                await self.heartbeat.stop()
            left = max(0.0, deadline - asyncio.get_running_loop().time())
            await hold_locks([g.lock for g in self.parts.games.active_games()], left)
            await self.background.stop_ai()
            # DeliveryWorker under way and turn messages' last pictures, within what is left of
            # the grace time; what is not delivered stays queued for the next start.
            left = max(0.0, deadline - asyncio.get_running_loop().time())
            await self.deliveries.stop(timeout=left)
            left = max(0.0, deadline - asyncio.get_running_loop().time())
            await self.parts.boards.flush(timeout=left)
            await self.parts.boards.stop()
        await super().close()
        if self.parts.database.is_open:
            await self.parts.database.close()

    # ---- Discord's lifecycle: channels deleted, the bot removed from a server, added back

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self._channel_gone(channel.id)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self._channel_gone(payload.thread_id)

    async def _channel_gone(self, channel_id: int) -> None:
        """A channel or thread was deleted: its game is orphaned, its host told."""
        if not self.parts.database.is_open:  # not logged in
            return
        try:
            if await self.parts.orphans.channel_gone(channel_id):
                self.deliveries.wake()
        except Exception:
            log.exception("channel %d deleted: its game not orphaned yet", channel_id)

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot was removed from a server (not an outage: that is unavailable)."""
        if not self.parts.database.is_open:  # not logged in
            return
        try:
            if await self.parts.orphans.guild_gone(guild.id):
                self.deliveries.wake()
        except Exception:
            log.exception("removed from server %d: its games not orphaned yet", guild.id)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        """The bot was added to a server: its games orphaned there when it was removed go
        on, where their channel still is."""
        await self._back_in(guild)

    async def on_guild_available(self, guild: discord.Guild) -> None:
        """A server comes (back) in view — also one the bot was added back to while it was
        away: its games orphaned by a removal go on."""
        await self._back_in(guild)

    async def _back_in(self, guild: discord.Guild) -> None:
        if not self.parts.database.is_open:  # not logged in
            return
        channels = {c.id for c in guild.channels} | {t.id for t in guild.threads}
        try:
            back = await self.parts.orphans.back_in(guild.id, channels)
        except Exception as e:  # the database away: the turn clock's next check does it
            log.warning("server %d: its games resume at the next check: %s", guild.id, e)
            return
        for game in back:
            await self.deliveries.run(game.row.channel_id)
            self.background.schedule_ai(game)

    async def on_interaction(self, interaction: discord.Interaction[AlienFrontiersBot]) -> None:
        """Answer component clicks (and modals) that no item of the bot will handle."""
        if (
            interaction.type in UNCLAIMABLE
            and not claimed(interaction)
            and await first_to_claim(interaction, self.parts.owners, self.gate)
        ):
            await answer_unclaimed(interaction, self.gate, self.parts.games, self.announcer)

    async def on_ready(self) -> None:
        if self.settings.shards is not None:
            log.info(
                "ready as %s in %d servers (shards %s of %d)",
                self.user,
                len(self.guilds),
                ",".join(map(str, sorted(self.shard_set.ids))),
                self.shard_set.count,
            )
        else:
            log.info("ready as %s in %d servers", self.user, len(self.guilds))
        if self.parts.database.is_open and not self.places_by_shard:
            # At a start, and at every new session after a reconnect that could not resume:
            # Discord replays no CHANNEL_DELETE or GUILD_DELETE of what happened while the
            # bot was away (a game whose channel or server is gone would wait for good).
            await self.background.check_places()
        # on_ready fires again after a reconnect that could not resume: log the link once.
        if not self._invite_logged and self.application_id is not None:
            self._invite_logged = True
            log.info("add the bot to a server with: %s", invite_url(self.application_id))


class ShardedAlienFrontiersBot(AlienFrontiersBot, commands.AutoShardedBot):
    """The same bot over some of Discord's shards (``SHARD_COUNT``, ``SHARD_IDS``): one
    gateway connection per shard, in one process. Background work is done only for the
    games in the servers of these shards (``bot.store.shards``).

    Each shard has sessions of its own: one that cannot resume starts a new one (READY for
    that shard only), and discord.py then sends ``shard_ready``, not ``ready`` (unless
    every shard of the process did). So the places of a shard's games are checked at each
    READY of that shard (``on_shard_ready``), as the unsharded bot checks all of them at
    each of its own. And discord.py keeps in view, across a shard's new session, the
    servers that its READY no longer lists (the bot removed while away): a shard's READY
    here first drops that shard's servers from view, as the unsharded client drops all of
    them at its READY (``ShardSessions``), so such a server is asked about."""

    places_by_shard = True

    def _get_state(self, **options: Any) -> ShardSessions:
        return ShardSessions(
            dispatch=self.dispatch,
            handlers=self._handlers,
            hooks=self._hooks,
            http=self.http,
            **options,
        )

    async def on_shard_ready(self, shard_id: int) -> None:
        log.info("shard %d ready: %d servers in view", shard_id, self.shard_guilds(shard_id))
        if self.parts.database.is_open:
            await self.background.check_places(shard=shard_id)

    def shard_guilds(self, shard_id: int) -> int:
        """How many servers of ``shard_id`` are in view."""
        return sum(g.shard_id == shard_id for g in self.guilds)


class ShardSessions(AutoShardedConnectionState["ShardedAlienFrontiersBot"]):
    """discord.py's state of a sharded client, whose shard's READY starts that shard's view
    afresh (see ``ShardedAlienFrontiersBot``)."""

    def parse_ready(self, data: Any) -> None:
        shard_id = data["shard"][0]
        for guild in [g for g in self._guilds.values() if g.shard_id == shard_id]:
            self._remove_guild(guild)
        super().parse_ready(data)


def invite_url(application_id: int) -> str:
    """The OAuth2 link that adds the bot with the permissions it needs."""
    return discord.utils.oauth_url(
        application_id, permissions=INVITE_PERMISSIONS, scopes=list(INVITE_SCOPES)
    )


__all__ = [
    "INVITE_PERMISSIONS",
    "AlienFrontiersBot",
    "ShardedAlienFrontiersBot",
    "invite_url",
]

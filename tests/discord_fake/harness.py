"""Glue between a real discord.py client and :class:`~.server.FakeDiscord`.

:class:`BotHarness` logs a bot in against the fake (no gateway connection),
feeds it a ``READY`` built from the fake's world, and injects
``INTERACTION_CREATE`` events through discord.py's own parser, so commands,
views, modals and follow-ups run through the library's real code paths.

Determinism: discord.py's HTTP entry points are wrapped (class-level, while
at least one harness is active) so the harness knows when the *client* has
finished processing a response - e.g. after ``send_message(view=...)`` the
view is stored before :meth:`BotHarness.interact` returns, so clicking it
right away is race free.
"""

from __future__ import annotations

import asyncio
import copy
import logging
import urllib.parse
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Self

import discord
from discord.http import HTTPClient, Route
from discord.webhook.async_ import AsyncWebhookAdapter

from . import payloads as p
from .server import FakeDiscord, FakeDiscordTimeout, Predicate, RecordedRequest

JSON = dict[str, Any]
MemberRef = str | Mapping[str, Any] | None

CALLBACK_ROUTE = "/interactions/{interaction_id}/{token}/callback"
FOLLOWUP_ROUTE = "/webhooks/{application_id}/{token}"
WEBHOOK_MESSAGE_ROUTE = "/webhooks/{application_id}/{token}/messages/{message_id}"


class _ClientTracker:
    """Process-wide patching of ``Route.BASE`` and discord.py's request methods.

    Reference counted so several harnesses (e.g. a bot and its "restarted"
    successor) can be alive at once; everything is restored when the last
    one closes.
    """

    def __init__(self) -> None:
        self.fakes: list[FakeDiscord] = []
        self._saved_base: list[str] = []
        self._orig_http: Any = None
        self._orig_webhook: Any = None
        # Subclasses of the webhook adapter with a request of their own (a bot's adapter
        # making one attempt): wrapped too, and their originals kept.
        self._orig_subclasses: dict[type[AsyncWebhookAdapter], Any] = {}

    def install(self, fake: FakeDiscord) -> None:
        self._saved_base.append(Route.BASE)
        Route.BASE = fake.api_base
        self.fakes.append(fake)
        if self._orig_http is None:
            self._patch()

    def uninstall(self, fake: FakeDiscord) -> None:
        if fake in self.fakes:
            self.fakes.remove(fake)
        if self._saved_base:
            Route.BASE = self._saved_base.pop()
        if not self.fakes:
            self._unpatch()

    def notify(self, method: str, url: str) -> None:
        raw_path = urllib.parse.urlsplit(url).path
        for fake in self.fakes:
            if fake.port and url.startswith(fake.base_url):
                fake.mark_client_done(method, raw_path)

    def _patch(self) -> None:
        orig_http = HTTPClient.request
        orig_webhook = AsyncWebhookAdapter.request
        self._orig_http, self._orig_webhook = orig_http, orig_webhook
        tracker = self

        async def http_request(self: HTTPClient, route: Route, **kwargs: Any) -> Any:
            try:
                return await orig_http(self, route, **kwargs)
            finally:
                tracker.notify(route.method, route.url)

        async def webhook_request(
            self: AsyncWebhookAdapter, route: Route, *args: Any, **kwargs: Any
        ) -> Any:
            try:
                return await orig_webhook(self, route, *args, **kwargs)
            finally:
                tracker.notify(route.method, route.url)

        HTTPClient.request = http_request  # type: ignore[method-assign]
        AsyncWebhookAdapter.request = webhook_request  # type: ignore[method-assign]
        for cls in AsyncWebhookAdapter.__subclasses__():
            if "request" in vars(cls):
                self._orig_subclasses[cls] = own = vars(cls)["request"]
                cls.request = _tracked(own, tracker)  # type: ignore[method-assign]

    def _unpatch(self) -> None:
        if self._orig_http is not None:
            HTTPClient.request = self._orig_http  # type: ignore[method-assign]
            AsyncWebhookAdapter.request = self._orig_webhook  # type: ignore[method-assign]
            self._orig_http = self._orig_webhook = None
            for cls, own in self._orig_subclasses.items():
                cls.request = own  # type: ignore[method-assign]
            self._orig_subclasses.clear()


def _tracked(request: Any, tracker: _ClientTracker) -> Any:
    """``request`` of a webhook adapter, telling the tracker when discord.py is done."""

    async def tracked(self: AsyncWebhookAdapter, route: Route, *args: Any, **kwargs: Any) -> Any:
        try:
            return await request(self, route, *args, **kwargs)
        finally:
            tracker.notify(route.method, route.url)

    return tracked


_tracker = _ClientTracker()


class _ErrorCollector(logging.Handler):
    """Collects ERROR records logged by discord.py (swallowed handler exceptions)."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def _format_records(records: Sequence[logging.LogRecord]) -> str:
    formatter = logging.Formatter("%(name)s: %(message)s")
    return "\n".join(formatter.format(r) for r in records)


class InteractionResult:
    """What happened for one injected interaction.

    ``callback`` is the recorded ``POST .../callback`` (``None`` when the
    harness was told not to expect one).  Everything else is derived from
    the fake's live state, so ``message`` reflects later edits.
    """

    def __init__(
        self,
        harness: BotHarness,
        payload: JSON,
        tasks: set[asyncio.Task[Any]],
        start_index: int,
    ) -> None:
        self.harness = harness
        self.payload = payload
        self.id = int(payload["id"])
        self.token = str(payload["token"])
        self.tasks = tasks
        self.start_index = start_index
        self.callback: RecordedRequest | None = None

    def __repr__(self) -> str:
        return f"<InteractionResult id={self.id} callback_type={self.callback_type}>"

    @property
    def callback_type(self) -> int | None:
        """Callback type: 4 message, 5 defer, 6 deferred update, 7 update, 8 choices, 9 modal."""
        return self.callback.callback_type if self.callback else None

    @property
    def data(self) -> JSON:
        """The callback's ``data`` object as sent by the bot."""
        return self.callback.data if self.callback else {}

    @property
    def files(self) -> list[Any]:
        """Files uploaded with the callback (:class:`~.server.RecordedFile`)."""
        return self.callback.files if self.callback else []

    @property
    def ephemeral(self) -> bool:
        """Whether the response (or deferral) was ephemeral (flags 64)."""
        return bool(int(self.data.get("flags") or 0) & 64)

    @property
    def choices(self) -> list[JSON]:
        """Autocomplete choices returned by the bot."""
        return list(self.data.get("choices", [])) if self.callback_type == 8 else []

    @property
    def modal(self) -> JSON | None:
        """The modal the bot opened (callback type 9)."""
        return self.data if self.callback_type == 9 else None

    @property
    def message(self) -> JSON | None:
        """Current version of the response message (created, deferred or updated)."""
        state = self.harness.fake.interactions.get(self.id)
        if state is None or state.original_message_id is None:
            return None
        return self.harness.fake.messages.get(state.original_message_id)

    @property
    def requests(self) -> list[RecordedRequest]:
        """All recorded requests tied to this interaction so far."""
        return self.harness.fake.find(interaction_id=self.id)

    async def wait_for(
        self,
        predicate: Predicate | None = None,
        *,
        timeout: float | None = None,
        after: int | None = None,
        **match: Any,
    ) -> RecordedRequest:
        """Wait for a request belonging to this interaction (client-processed)."""
        return await self.harness.wait_for(
            predicate,
            timeout=timeout,
            after=self.start_index if after is None else after,
            interaction_id=self.id,
            **match,
        )

    async def followup(self, n: int = 0, *, timeout: float | None = None) -> RecordedRequest:
        """The ``n``-th follow-up (``POST /webhooks/{app}/{token}``), waiting if needed."""
        after = self.start_index
        found: RecordedRequest | None = None
        for _ in range(n + 1):
            found = await self.wait_for(
                method="POST", route=FOLLOWUP_ROUTE, timeout=timeout, after=after
            )
            after = found.index + 1
        assert found is not None
        return found

    async def original_edit(self, n: int = 0, *, timeout: float | None = None) -> RecordedRequest:
        """The ``n``-th ``PATCH .../messages/@original``, waiting if needed."""
        after = self.start_index
        found: RecordedRequest | None = None
        for _ in range(n + 1):
            found = await self.wait_for(
                lambda r: r.params.get("message_id") == "@original",
                method="PATCH",
                route=WEBHOOK_MESSAGE_ROUTE,
                timeout=timeout,
                after=after,
            )
            after = found.index + 1
        assert found is not None
        return found

    async def done(self, *, timeout: float | None = None) -> InteractionResult:
        """Wait until every task discord.py spawned for this interaction finished."""
        pending = {t for t in self.tasks if not t.done()}
        if pending:
            limit = self.harness.timeout if timeout is None else timeout
            _, still = await asyncio.wait(pending, timeout=limit)
            if still:
                names = sorted(t.get_name() for t in still)
                raise FakeDiscordTimeout(
                    f"interaction {self.id}: handler tasks still running after {limit}s: {names}\n"
                    f"{self.harness.fake.format_requests(self.start_index)}{self.harness.format_errors()}"
                )
        return self


class BotHarness:
    """Drive a real ``discord.Client``/``commands.Bot`` against a :class:`FakeDiscord`.

    ``async with BotHarness(fake, bot) as h:`` logs in (running
    ``setup_hook``), dispatches ``READY`` with the fake's guilds and waits
    for ``on_ready``.  With ``echo_events`` the fake's gateway events (new
    channels, messages, ...) are fed back into the bot's cache.  With
    ``fail_on_errors`` closing raises if discord.py logged swallowed
    exceptions (errors in commands, views, event handlers) that the test did
    not collect via :meth:`take_errors`.
    """

    def __init__(
        self,
        fake: FakeDiscord,
        bot: discord.Client,
        *,
        token: str = "fake-bot-token",
        timeout: float = 5.0,
        echo_events: bool = True,
        fail_on_errors: bool = True,
    ) -> None:
        self.fake = fake
        self.bot = bot
        self.token = token
        self.timeout = timeout
        self.echo_events = echo_events
        self.fail_on_errors = fail_on_errors
        self._errors = _ErrorCollector()
        self._installed = False
        self._started = False
        self._closed = False

    # ----------------------------------------------------------- lifecycle

    async def start(self) -> Self:
        """Log in against the fake, run ``setup_hook``, dispatch READY, wait for ready."""
        if self._started:
            return self
        self._started = True
        logging.getLogger("discord").addHandler(self._errors)
        logging.getLogger("tests.discord_fake").addHandler(self._errors)
        _tracker.install(self.fake)
        self._installed = True
        try:
            try:
                async with asyncio.timeout(self.timeout * 2):
                    await self.bot.login(self.token)
            except TimeoutError:
                raise FakeDiscordTimeout(
                    f"bot.login()/setup_hook did not finish within {self.timeout * 2}s\n"
                    f"{self.fake.format_requests()}{self.format_errors()}"
                ) from None
            if self.echo_events:
                self.fake.add_event_sink(self._sink)
            await self._ready()
        except BaseException:
            await self.close(check=False)
            raise
        return self

    async def _ready(self, shard: int | None = None) -> None:
        """A new session's READY, with the servers the bot is in; for a sharded bot
        (``discord.AutoShardedClient``), one READY per shard of the bot with that shard's
        servers (``(guild_id >> 22) % shard_count``), or only ``shard``'s: that shard's new
        session, after which discord.py sends ``shard_ready`` (not ``ready``, unless it is
        the bot's only shard)."""
        conn = self.bot._connection
        saved = conn.guild_ready_timeout
        conn.guild_ready_timeout = 0  # no GUILD_CREATEs follow: guilds are inside READY
        try:
            if not isinstance(self.bot, discord.AutoShardedClient):
                # Ready already (a new session): wait for this READY's own ``ready``, read
                # while its guilds' wait is still 0.
                again = self.bot.is_ready()
                ready = asyncio.ensure_future(
                    self.bot.wait_for("ready") if again else self.bot.wait_until_ready()
                )
                await asyncio.sleep(0)  # the waiter listens before READY is read
                conn.parsers["READY"](self._ready_payload(None, 1))
                await self._until(ready, "bot never became ready")
                return
            count = int(self.bot.shard_count or 1)
            ids = list(self.bot.shard_ids or range(count))
            sharded = self.bot._connection  # an AutoShardedConnectionState
            sharded.shard_count, sharded.shard_ids = count, ids  # as ``launch_shards`` does
            if shard is None:
                for one in ids:
                    conn.parsers["READY"](self._ready_payload(one, count))
                await self._until(self.bot.wait_until_ready(), "bot never became ready")
                return
            ready = asyncio.ensure_future(
                self.bot.wait_for("shard_ready", check=lambda one: one == shard)
            )
            await asyncio.sleep(0)  # the waiter listens before READY is read
            conn.parsers["READY"](self._ready_payload(shard, count))
            await self._until(ready, f"shard {shard} never ready")
        finally:
            conn.guild_ready_timeout = saved

    async def _until(self, ready: Awaitable[Any], what: str) -> None:
        try:
            async with asyncio.timeout(self.timeout):
                await ready
        except TimeoutError:
            raise FakeDiscordTimeout(f"{what}{self.format_errors()}") from None

    def _ready_payload(self, shard: int | None, count: int) -> JSON:
        """A READY with the servers the bot is in (of ``shard`` only, if given)."""
        guilds = [
            self.fake.guild_payload(gid)
            for gid in self.fake.guilds
            if self.fake.bot_in(gid) and (shard is None or (gid >> 22) % count == shard)
        ]
        payload = p.ready(
            self.fake.bot_user, application_id=self.fake.application_id, guilds=guilds
        )
        if shard is not None:
            payload["shard"] = [shard, count]
        return payload

    def _sink(self, name: str, data: JSON) -> None:
        if self._closed or self.bot.is_closed():
            return
        parser = self.bot._connection.parsers.get(name)
        if parser is not None:
            parser(data)

    async def close(self, *, check: bool = True) -> None:
        """Close the bot and undo patches; raise on uncollected discord.py errors."""
        if self._closed:
            return
        self._closed = True
        self.fake.remove_event_sink(self._sink)
        try:
            if not self.bot.is_closed():
                await self.bot.close()
        finally:
            if self._installed:
                _tracker.uninstall(self.fake)
                self._installed = False
            logging.getLogger("discord").removeHandler(self._errors)
            logging.getLogger("tests.discord_fake").removeHandler(self._errors)
        if check and self.fail_on_errors and (self._errors.records or self.fake.sink_errors):
            raise AssertionError(
                "discord.py logged errors during the test (call harness.take_errors() if expected):"
                f"{self.format_errors()}\n{self.fake.sink_errors}"
            )

    async def __aenter__(self) -> Self:
        return await self.start()

    async def __aexit__(self, exc_type: object, exc: object, tb: object) -> None:
        await self.close(check=exc_type is None)

    # -------------------------------------------------------------- errors

    @property
    def errors(self) -> list[logging.LogRecord]:
        """ERROR log records emitted by discord.py so far."""
        return list(self._errors.records)

    def take_errors(self) -> list[logging.LogRecord]:
        """Return and clear the collected error records (for tests expecting errors)."""
        records, self._errors.records = self._errors.records, []
        return records

    def format_errors(self) -> str:
        """Collected errors with tracebacks, for failure messages ('' if none)."""
        if not self._errors.records:
            return ""
        return "\nErrors logged by discord.py:\n" + _format_records(self._errors.records)

    # -------------------------------------------------------------- context

    @property
    def guild(self) -> p.TestGuild:
        """The fake's default :class:`~.payloads.TestGuild`."""
        if self.fake.guild is None:
            raise LookupError("FakeDiscord was created with default_guild=False")
        return self.fake.guild

    def _member(self, ref: MemberRef, guild_id: int) -> JSON:
        if ref is None:
            ref = "member"
        if isinstance(ref, str):
            ref = getattr(self.guild, ref)
        assert isinstance(ref, Mapping)
        uid = int(ref["user"]["id"]) if "user" in ref else int(ref["id"])
        try:
            return self.fake.get_member(guild_id, uid)
        except KeyError:
            raise LookupError(
                f"user {uid} is not a member of guild {guild_id} in the fake"
            ) from None

    def _context(
        self,
        *,
        channel_id: int | None,
        member: MemberRef,
        user: Mapping[str, Any] | None,
    ) -> tuple[JSON, dict[str, Any]]:
        """Resolve (channel payload, interaction context kwargs)."""
        if user is not None and channel_id is None:
            dm = next(
                (
                    c
                    for c in self.fake.channels.values()
                    if c["type"] == p.DM and c["recipients"][0]["id"] == user["id"]
                ),
                None,
            )
            if dm is None:
                self.fake.users.setdefault(int(user["id"]), dict(user))
                dm = self.fake.add_channel(p.dm_channel(user))
            return dm, {"user_payload": user}
        cid = channel_id if channel_id is not None else self.guild.channel_id
        channel = self.fake.get_channel(cid)
        if not channel.get("guild_id"):
            who = user or self.guild.member["user"]
            return channel, {"user_payload": who}
        gid = int(channel["guild_id"])
        perm_channel = channel
        if channel["type"] in (p.PUBLIC_THREAD, p.PRIVATE_THREAD):
            perm_channel = self.fake.channels.get(int(channel["parent_id"]), channel)
        guild_payload = self.fake.guilds[gid]
        member_payload = self._member(member, gid)
        context: dict[str, Any] = {
            "guild_payload": guild_payload,
            "member_payload": member_payload,
            "bot_member": self.fake.members[gid].get(int(self.fake.bot_user["id"])),
        }
        if perm_channel is not channel:
            context["member_permissions"] = p.compute_permissions(
                guild_payload, member_payload, perm_channel
            )
        return channel, context

    def _command_ids(self, name: str, guild_id: int | None) -> tuple[int | str | None, int | None]:
        synced = self.fake.find_command(name, guild_id)
        if synced is not None:
            return synced["id"], int(synced["guild_id"]) if synced.get("guild_id") else None
        tree = self.bot._connection._command_tree
        if (
            tree is not None
            and guild_id is not None
            and tree.get_command(name, guild=discord.Object(guild_id)) is not None
            and tree.get_command(name) is None
        ):
            return None, guild_id
        return None, None

    # ------------------------------------------------------ payload builders

    def slash(
        self,
        command: str,
        options: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None = None,
        *,
        member: MemberRef = None,
        user: Mapping[str, Any] | None = None,
        channel_id: int | None = None,
        locale: str = "en-US",
        **extra: Any,
    ) -> JSON:
        """Build a chat-input command interaction: ``h.slash("demo ping", {"text": "hi"})``.

        ``command`` is ``"name"``, ``"name sub"`` or ``"name group sub"``.
        ``member`` is ``"owner"``/``"manager"``/``"member"`` (default) of the
        default guild, or any member payload.  Pass ``user=`` without
        ``channel_id`` for a DM invocation.  Option values that are
        member/channel/role payloads are sent as resolved entities.
        """
        name, group, sub = _split_command(command)
        channel, context = self._context(channel_id=channel_id, member=member, user=user)
        gid = int(channel["guild_id"]) if channel.get("guild_id") else None
        command_id, command_guild_id = self._command_ids(name, gid)
        return p.slash_command(
            name,
            application_id=self.fake.application_id,
            channel=channel,
            options=options,
            group=group,
            subcommand=sub,
            command_id=command_id,
            command_guild_id=command_guild_id,
            locale=locale,
            **context,
            **extra,
        )

    def autocomplete(
        self,
        command: str,
        focused: str,
        options: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None = None,
        *,
        member: MemberRef = None,
        user: Mapping[str, Any] | None = None,
        channel_id: int | None = None,
        **extra: Any,
    ) -> JSON:
        """Build an autocomplete interaction; ``options`` holds the ``focused`` partial text."""
        name, group, sub = _split_command(command)
        channel, context = self._context(channel_id=channel_id, member=member, user=user)
        gid = int(channel["guild_id"]) if channel.get("guild_id") else None
        command_id, command_guild_id = self._command_ids(name, gid)
        return p.autocomplete(
            name,
            application_id=self.fake.application_id,
            channel=channel,
            focused=focused,
            options=options,
            group=group,
            subcommand=sub,
            command_id=command_id,
            command_guild_id=command_guild_id,
            **context,
            **extra,
        )

    def _message(self, message: Mapping[str, Any] | int) -> JSON:
        mid = int(message["id"]) if isinstance(message, Mapping) else int(message)
        stored = self.fake.messages.get(mid)
        if stored is not None:
            return copy.deepcopy(stored)
        if isinstance(message, Mapping):
            return copy.deepcopy(dict(message))
        raise LookupError(f"message {mid} is not known to the fake")

    def click(
        self,
        message: Mapping[str, Any] | int,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        member: MemberRef = None,
        user: Mapping[str, Any] | None = None,
        locale: str = "en-US",
    ) -> JSON:
        """Build a button click on (the current version of) ``message``.

        Find the button by ``custom_id`` and/or ``label``; raises
        ``LookupError`` listing available components otherwise, and
        ``ValueError`` for disabled buttons.
        """
        msg = self._message(message)
        comp = p.find_component(msg, custom_id, label=label, type=p.BUTTON)
        if comp.get("disabled"):
            raise ValueError(f"button {comp.get('custom_id')!r} is disabled")
        if "custom_id" not in comp:
            raise ValueError(
                f"button {comp.get('label')!r} is a link/premium button without custom_id"
            )
        channel, context = self._context(
            channel_id=int(msg["channel_id"]), member=member, user=user
        )
        return p.button_click(
            comp["custom_id"],
            application_id=self.fake.application_id,
            channel=channel,
            message=msg,
            locale=locale,
            **context,
        )

    def select(
        self,
        message: Mapping[str, Any] | int,
        custom_id: str,
        values: Sequence[str],
        *,
        member: MemberRef = None,
        user: Mapping[str, Any] | None = None,
        locale: str = "en-US",
    ) -> JSON:
        """Build a select-menu choice; string-select values are checked against the options."""
        msg = self._message(message)
        comp = p.find_component(msg, custom_id)
        if comp.get("disabled"):
            raise ValueError(f"select {custom_id!r} is disabled")
        ctype = int(comp["type"])
        if ctype == p.STRING_SELECT:
            allowed = {o["value"] for o in comp.get("options", [])}
            unknown = [v for v in values if v not in allowed]
            if unknown:
                raise ValueError(
                    f"values {unknown} are not options of select {custom_id!r}: {sorted(allowed)}"
                )
        lo, hi = int(comp.get("min_values", 1)), int(comp.get("max_values", 1))
        if not lo <= len(values) <= hi:
            raise ValueError(f"select {custom_id!r} accepts {lo}..{hi} values, got {len(values)}")
        channel, context = self._context(
            channel_id=int(msg["channel_id"]), member=member, user=user
        )
        return p.component_interaction(
            custom_id,
            application_id=self.fake.application_id,
            channel=channel,
            message=msg,
            component_type=ctype,
            values=values,
            locale=locale,
            **context,
        )

    def submit_modal(
        self,
        custom_id: str,
        fields: Mapping[str, str],
        *,
        channel_id: int | None = None,
        message: Mapping[str, Any] | int | None = None,
        member: MemberRef = None,
        user: Mapping[str, Any] | None = None,
    ) -> JSON:
        """Build a modal submission with text input values keyed by their custom_id."""
        msg = self._message(message) if message is not None else None
        if msg is not None and channel_id is None:
            channel_id = int(msg["channel_id"])
        channel, context = self._context(channel_id=channel_id, member=member, user=user)
        return p.modal_submit(
            custom_id,
            fields,
            application_id=self.fake.application_id,
            channel=channel,
            message=msg,
            **context,
        )

    # ------------------------------------------------------------- driving

    async def interact(
        self,
        payload: Mapping[str, Any],
        *,
        timeout: float | None = None,
        expect_response: bool = True,
        check: bool = True,
    ) -> InteractionResult:
        """Feed ``INTERACTION_CREATE`` and wait for the bot's callback.

        Returns once the callback was recorded *and* discord.py processed the
        answer.  ``check`` raises if the fake rejected the callback (4xx).
        With ``expect_response=False`` it returns right after dispatch (use
        :meth:`InteractionResult.done` to wait for the handlers).
        """
        if not self._started or self._closed:
            raise RuntimeError("harness is not running (use 'async with BotHarness(...)')")
        payload = dict(payload)
        self.fake.register_interaction(payload)
        start_index = len(self.fake.requests)
        before = asyncio.all_tasks()
        self.bot._connection.parsers["INTERACTION_CREATE"](copy.deepcopy(payload))
        spawned = asyncio.all_tasks() - before
        result = InteractionResult(self, payload, spawned, start_index)
        if not expect_response:
            return result
        limit = self.timeout if timeout is None else timeout
        try:
            result.callback = await self.fake.wait_for(
                route=CALLBACK_ROUTE,
                interaction_id=result.id,
                after=start_index,
                timeout=limit,
                client_done=True,
                description=f"the callback of interaction {result.id} ({_describe(payload)})",
            )
        except FakeDiscordTimeout as exc:
            raise FakeDiscordTimeout(f"{exc}{self.format_errors()}") from None
        if check and result.callback.status >= 400:
            raise AssertionError(
                f"the fake rejected the callback of {_describe(payload)}: "
                f"{result.callback.status} {result.callback.response}\nbody: {result.callback.json}"
            )
        return result

    async def wait_for(
        self,
        predicate: Predicate | None = None,
        *,
        timeout: float | None = None,
        after: int = 0,
        **match: Any,
    ) -> RecordedRequest:
        """Like :meth:`FakeDiscord.wait_for`, also waiting until discord.py processed the answer."""
        try:
            return await self.fake.wait_for(
                predicate,
                timeout=self.timeout if timeout is None else timeout,
                after=after,
                client_done=True,
                **match,
            )
        except FakeDiscordTimeout as exc:
            raise FakeDiscordTimeout(f"{exc}{self.format_errors()}") from None

    def dispatch(self, event: str, data: Mapping[str, Any]) -> None:
        """Feed any raw gateway event (e.g. ``GUILD_MEMBER_ADD``) to the bot's parser."""
        self.bot._connection.parsers[event](copy.deepcopy(dict(data)))

    # ------------------------------------------------------------ messages

    def messages(
        self, channel_id: int | None = None, *, include_ephemeral: bool = True
    ) -> list[JSON]:
        """Messages in a channel (default ``#general``), oldest first."""
        cid = channel_id if channel_id is not None else self.guild.channel_id
        return self.fake.messages_in(cid, include_ephemeral=include_ephemeral)

    def last_message(
        self, channel_id: int | None = None, *, include_ephemeral: bool = True
    ) -> JSON:
        """Newest message of a channel (default ``#general``), with its components."""
        cid = channel_id if channel_id is not None else self.guild.channel_id
        return self.fake.last_message(cid, include_ephemeral=include_ephemeral)


def _split_command(command: str) -> tuple[str, str | None, str | None]:
    parts = command.split()
    if not 1 <= len(parts) <= 3:
        raise ValueError(f"expected 'name [group] [subcommand]', got {command!r}")
    if len(parts) == 1:
        return parts[0], None, None
    if len(parts) == 2:
        return parts[0], None, parts[1]
    return parts[0], parts[1], parts[2]


def _describe(payload: Mapping[str, Any]) -> str:
    data = payload.get("data") or {}
    kind = {2: "command", 3: "component", 4: "autocomplete", 5: "modal"}.get(
        int(payload["type"]), "interaction"
    )
    if "custom_id" in data:
        return f"{kind} custom_id={data['custom_id']!r}"
    names = [data.get("name", "?")]
    opts = data.get("options") or []
    while opts and opts[0].get("type") in (1, 2):
        names.append(opts[0]["name"])
        opts = opts[0].get("options") or []
    return f"{kind} /{' '.join(names)}"


#: Type of the ``start_bot`` fixture: ``await start_bot(bot, **harness_kwargs)``.
StartBot = Callable[..., Awaitable[BotHarness]]

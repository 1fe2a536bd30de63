"""A local fake of Discord's REST API, good enough for discord.py's real code.

:class:`FakeDiscord` runs an aiohttp server on ``127.0.0.1`` (random port),
keeps a small in-memory world (guilds, channels, members, messages,
application commands, interactions) and RECORDS every request so tests can
assert on exactly what the bot sent.  Point discord.py at it by setting
``discord.http.Route.BASE`` to :attr:`FakeDiscord.api_base` (``harness.py``
does that for you).

Behaviour mirrors Discord where it matters for bots:

* JSON responses carry the exact ``Content-Type: application/json``
  (discord.py ignores bodies declared with ``; charset=...``).
* Interaction callbacks honour ``?with_response`` and return an
  ``InteractionCallbackResponse`` (``interaction`` + ``resource.message``).
* Messages created for interactions carry ``interaction_metadata``.
* A follow-up sent right after a deferred (type 5) response edits the
  "thinking" message instead of creating a new one (documented Discord
  behaviour).
* Common validation errors are reproduced (empty message, >2000 chars,
  >25 choices, double acknowledgement, unknown interaction, missing
  permissions) with Discord's error codes.
* Optionally, gateway events (``MESSAGE_CREATE``, ``CHANNEL_CREATE``, ...)
  caused by REST calls are pushed to registered sinks so the bot's cache
  stays in sync, like the real gateway would.
* A bot in another process connects to :attr:`FakeDiscord.gateway`, a small
  gateway websocket (``gateway.py``); ``launch.py`` points ``python -m bot`` here. Two
  processes may connect as the same shard (a rolling restart): each gets the events, as
  from Discord, and the first to answer an interaction wins (the other gets 40060).

As hard as Discord where Discord is hard (by the fake's :attr:`~FakeDiscord.clock`):

* an interaction's first answer (a reply, a deferral, a modal) is taken within
  :attr:`~FakeDiscord.interaction_deadline` (Discord's 3 s) of its creation, later refused
  (404, 10062 Unknown interaction); a second first answer, whoever sends it, is refused
  (400, 40060); once it is acknowledged, by anyone, its token takes follow-ups and edits
  of its messages for :attr:`~FakeDiscord.token_seconds` (15 minutes) of its creation,
  then refuses them (401, 50027 Invalid Webhook Token);
* a message nonce is remembered for :attr:`~FakeDiscord.nonce_seconds` (a few minutes),
  then a post with the same nonce makes a second message;
* invalid requests (answers 401, 403, 429) are counted over a sliding ten minutes; past
  :attr:`~FakeDiscord.ban_after` (Discord's 10,000) every request of every route is
  answered 403 (not JSON, as Cloudflare answers) for :attr:`~FakeDiscord.ban_seconds`;
* channels and threads are deleted (``delete_channel``: ``CHANNEL_DELETE`` /
  ``THREAD_DELETE``, then 10003 Unknown Channel), the bot is removed from a server
  (``remove_bot``: ``GUILD_DELETE``, then 50001 Missing Access on its routes) and added
  back (``add_bot``: ``GUILD_CREATE``); these events also reach bots on the gateway;
* a thread quiet for its ``auto_archive_duration`` is archived: an edit there is refused
  (400, 50083 Thread is archived) while a post, or unarchiving it, reopens it;
* a DM to a member who shares no server with the bot is refused (403, 50007).
"""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import mimetypes
import re
import time
import urllib.parse
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Self

from aiohttp import web

from . import payloads as p
from .gateway import PATH as GATEWAY_PATH
from .gateway import FakeGateway

JSON = dict[str, Any]
EventSink = Callable[[str, JSON], None]
Predicate = Callable[["RecordedRequest"], bool]

_log = logging.getLogger(__name__)

API_PREFIX = "/api/v10"

# Events Discord sends a bot with the guilds intent (the bot's only one): forwarded to the
# bots on the gateway too, not only to the in-process harnesses' caches.
GUILD_EVENTS = frozenset(
    {
        "GUILD_CREATE",
        "GUILD_UPDATE",
        "GUILD_DELETE",
        "GUILD_ROLE_CREATE",
        "GUILD_ROLE_UPDATE",
        "GUILD_ROLE_DELETE",
        "CHANNEL_CREATE",
        "CHANNEL_UPDATE",
        "CHANNEL_DELETE",
        "THREAD_CREATE",
        "THREAD_UPDATE",
        "THREAD_DELETE",
    }
)
INVALID_STATUSES = frozenset({401, 403, 429})
BAN_BODY = (
    "error code: 1015 — You are being blocked from accessing our API temporarily due to"
    " exceeding our rate limits frequently."
)

# Message flags.
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_COMPONENTS_V2 = 1 << 15

# Interaction callback types.
CB_PONG = 1
CB_CHANNEL_MESSAGE = 4
CB_DEFERRED_CHANNEL_MESSAGE = 5
CB_DEFERRED_UPDATE_MESSAGE = 6
CB_UPDATE_MESSAGE = 7
CB_AUTOCOMPLETE_RESULT = 8
CB_MODAL = 9

INTERACTION_DEADLINE = 3.0  # seconds Discord waits for an interaction's first answer
TOKEN_SECONDS = 15 * 60.0  # how long an interaction's token takes follow-ups and edits

_ALLOWED_CALLBACKS: dict[int, set[int]] = {
    p.PING: {CB_PONG},
    p.APPLICATION_COMMAND: {
        CB_CHANNEL_MESSAGE,
        CB_DEFERRED_CHANNEL_MESSAGE,
        CB_MODAL,
        12,
    },
    p.MESSAGE_COMPONENT: {
        CB_CHANNEL_MESSAGE,
        CB_DEFERRED_CHANNEL_MESSAGE,
        CB_DEFERRED_UPDATE_MESSAGE,
        CB_UPDATE_MESSAGE,
        CB_MODAL,
        12,
    },
    p.APPLICATION_COMMAND_AUTOCOMPLETE: {CB_AUTOCOMPLETE_RESULT},
    p.MODAL_SUBMIT: {
        CB_CHANNEL_MESSAGE,
        CB_DEFERRED_CHANNEL_MESSAGE,
        CB_DEFERRED_UPDATE_MESSAGE,
        CB_UPDATE_MESSAGE,
    },
}


class FakeDiscordTimeout(AssertionError):
    """Raised when an awaited request never arrives (bounded wait expired)."""


class ApiError(Exception):
    """Raise inside a handler to answer with a Discord-style JSON error."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        errors: JSON | None = None,
        *,
        extra: JSON | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.extra = extra or {}  # more fields of the body (a 429's retry_after)
        self.headers = headers or {}

    def body(self) -> JSON:
        """The JSON error body Discord would send."""
        body: JSON = {"message": self.message, "code": self.code, **self.extra}
        if self.errors:
            body["errors"] = self.errors
        return body


@dataclass
class RecordedFile:
    """One uploaded file of a multipart request."""

    field: str
    filename: str
    content_type: str | None
    data: bytes

    @property
    def text(self) -> str:
        """The file content decoded as UTF-8."""
        return self.data.decode()


@dataclass
class RecordedRequest:
    """A request the fake received, together with the answer it gave.

    ``path`` is relative to the API root (``/channels/1/messages``) and
    ``route`` is the matched template (``/channels/{channel_id}/messages``,
    empty when no handler matched).  ``json`` is the parsed JSON body, or the
    ``payload_json`` part of a multipart body.  ``interaction_id`` links
    callbacks, follow-ups and original-response edits to their interaction.
    """

    index: int
    method: str
    path: str
    raw_path: str
    route: str
    params: dict[str, str]
    query: dict[str, str]
    headers: dict[str, str]
    json: Any
    files: list[RecordedFile]
    status: int
    response: Any
    interaction_id: int | None = None
    handled: bool = True
    at: float = 0.0  # when it arrived, by the fake's ``clock``
    client_done: asyncio.Event = field(default_factory=asyncio.Event, repr=False)

    @property
    def reason(self) -> str | None:
        """Decoded ``X-Audit-Log-Reason`` header, if any."""
        value = self.headers.get("X-Audit-Log-Reason")
        return urllib.parse.unquote(value) if value is not None else None

    @property
    def data(self) -> JSON:
        """For interaction callbacks: the callback ``data`` object (else the body)."""
        body = self.json or {}
        if self.route.endswith("/callback"):
            return body.get("data") or {}
        return body

    @property
    def callback_type(self) -> int | None:
        """For interaction callbacks: the response type (4, 5, 6, 7, 8, 9)."""
        if self.route.endswith("/callback") and isinstance(self.json, dict):
            return self.json.get("type")
        return None

    @property
    def message(self) -> JSON | None:
        """The message object this request created/returned, if any."""
        resp = self.response
        if not isinstance(resp, dict):
            return None
        if "resource" in resp:
            message: JSON | None = resp["resource"].get("message")
            return message
        if "channel_id" in resp and "content" in resp:
            return resp
        return None

    def describe(self) -> str:
        """One-line summary used in failure messages."""
        extra = f" interaction={self.interaction_id}" if self.interaction_id else ""
        return f"#{self.index} {self.method} {self.path} -> {self.status}{extra}"


@dataclass
class _Call:
    method: str
    path: str
    raw_path: str
    params: dict[str, str]
    query: dict[str, str]
    headers: dict[str, str]
    json: Any
    files: list[RecordedFile]
    interaction_id: int | None = None


@dataclass
class FakeResponse:
    """What a handler returns; ``body=None`` means ``204 No Content``."""

    body: Any = None
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)


Handler = Callable[[_Call], Awaitable[FakeResponse]]


@dataclass
class InteractionState:
    """Server-side bookkeeping for one injected interaction."""

    id: int
    token: str
    application_id: int
    type: int
    channel_id: int
    guild_id: int | None
    user: JSON
    name: str | None
    message_id: int | None
    command_type: int = 1
    response_type: int | None = None
    original_message_id: int | None = None
    deferred_loading: bool = False
    ephemeral: bool = False
    followup_ids: list[int] = field(default_factory=list)
    autocomplete_choices: list[JSON] | None = None
    modal: JSON | None = None


@dataclass
class _Failure:
    method: str
    pattern: str
    status: int
    code: int
    message: str
    times: int
    # "error": answer status/code; "reset": drop the connection without handling the
    # request; "reset_after": handle it, then drop the connection before the answer (the
    # request took effect, the client never hears so).
    mode: str = "error"


@dataclass(frozen=True)
class Fault:
    """What a fault hook (``FakeDiscord.fault_hook``) makes of one request: an error
    answer (``status``/``code``), or a dropped connection (``mode`` reset/reset_after),
    and for a 429 how long to wait (``retry_after``)."""

    status: int = 503
    code: int = 0
    message: str = "Service Unavailable"
    mode: str = "error"
    retry_after: float | None = None


_BOUNDARY = re.compile(r'boundary="?([^";]+)"?')
_PARAM = re.compile(r';\s*([\w*-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)')


def _multipart(content_type: str, raw: bytes) -> tuple[Any, list[RecordedFile]]:
    """A ``multipart/form-data`` body as discord.py sends it: the message as
    ``payload_json``, each file as ``files[n]`` (split at the boundary in one pass: the
    fake serves benchmarks on the bots' machine, so it stays cheap)."""
    found = _BOUNDARY.search(content_type)
    if found is None:
        raise ValueError("a multipart body without a boundary")
    body_json: Any = None
    files: list[RecordedFile] = []
    for chunk in raw.split(b"--" + found.group(1).encode())[1:]:
        if chunk.startswith(b"--"):
            break  # the closing delimiter
        head, blank, data = chunk.removeprefix(b"\r\n").partition(b"\r\n\r\n")
        if not blank:
            raise ValueError("a multipart part without a header")
        headers = {}
        for line in head.decode("utf-8").split("\r\n"):
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        params = {
            k.lower(): v[1:-1].replace('\\"', '"') if v.startswith('"') else v.strip()
            for k, v in _PARAM.findall(headers.get("content-disposition", ""))
        }
        data = data.removesuffix(b"\r\n")
        field = params.get("name", "")
        if field == "payload_json":
            body_json = json.loads(data.decode())
        else:
            files.append(
                RecordedFile(
                    field=field,
                    filename=params.get("filename", ""),
                    content_type=headers.get("content-type"),
                    data=data,
                )
            )
    return body_json, files


def _field_error(name: str, expected: str) -> JSON:
    """Discord's ``errors`` of an Invalid Form Body for one field."""
    return {name: {"_errors": [{"code": "NUMBER_TYPE_INVALID", "message": expected}]}}


def _query_int(query: Mapping[str, str], name: str) -> int | None:
    """A whole number of a query string (a limit, a snowflake), as Discord reads it: not a
    non-negative whole number is refused (400 Invalid Form Body)."""
    raw = query.get(name)
    if raw is None:
        return None
    if not raw.isdigit():
        raise ApiError(400, 50035, "Invalid Form Body", _field_error(name, "a whole number"))
    return int(raw)


def _template_regex(template: str) -> re.Pattern[str]:
    parts = re.split(r"(\{[a-z_]+\})", template)
    out = []
    for part in parts:
        if part.startswith("{") and part.endswith("}"):
            out.append(f"(?P<{part[1:-1]}>[^/]+)")
        else:
            out.append(re.escape(part))
    return re.compile("^" + "".join(out) + "$")


class FakeDiscord:
    """In-process fake Discord REST API.  Use ``async with FakeDiscord() as fake``.

    The fake starts with one bot user, one application and (unless
    ``default_guild=False``) one :class:`~payloads.TestGuild` in
    :attr:`guild`.  Add more with :meth:`add_guild`.
    """

    def __init__(
        self,
        *,
        bot_name: str = "FakeBot",
        default_guild: bool = True,
        enforce_permissions: bool = True,
        token: str | None = None,
        record: bool = True,
    ) -> None:
        self.bot_user: JSON = p.user(bot_name, bot=True)
        self.application_id: int = int(self.bot_user["id"])
        self.owner_user: JSON = p.user("app-owner")
        self.enforce_permissions = enforce_permissions
        self.token = token
        # Every request is kept in ``requests`` (what tests look at and wait for) unless
        # ``record`` is False: a benchmark that only counts answers spares the copies.
        self.record = record
        self.requests: list[RecordedRequest] = []
        # When requests arrive (``RecordedRequest.at``): a test that paces the bot with a
        # clock of its own gives the fake the same one.
        self.clock: Callable[[], float] = time.monotonic
        self.event_sinks: list[EventSink] = []
        self.sink_errors: list[BaseException] = []

        self.guilds: dict[int, JSON] = {}  # guild meta (no channels/members)
        self.channels: dict[int, JSON] = {}
        self.members: dict[int, dict[int, JSON]] = {}
        self.users: dict[int, JSON] = {int(self.bot_user["id"]): self.bot_user}
        self.messages: dict[int, JSON] = {}
        self.channel_messages: dict[int, list[int]] = {}
        self.attachments: dict[int, bytes] = {}
        self.reactions: list[tuple[int, int, str]] = []
        self.global_commands: list[JSON] = []
        self.guild_commands: dict[int, list[JSON]] = {}
        self.interactions: dict[int, InteractionState] = {}
        self._by_token: dict[str, InteractionState] = {}
        self._failures: list[_Failure] = []
        self._overrides: list[tuple[str, re.Pattern[str], str, Handler]] = []
        # A hook asked about every request (method, route template, path) that may make it
        # fail (``Fault``): seeded chaos for the delivery tests and the chaos benchmark.
        self.fault_hook: Callable[[str, str, str], Fault | None] | None = None
        # Seconds an interaction may wait for its first answer (Discord's 3, by the fake's
        # ``clock``): later, the callback is refused with 10062 Unknown interaction. None: no
        # deadline.
        self.interaction_deadline: float | None = INTERACTION_DEADLINE
        # Seconds an interaction's token takes follow-ups and edits of its messages once it
        # was acknowledged (Discord's 15 minutes): later, 401 50027 Invalid Webhook Token.
        self.token_seconds: float | None = TOKEN_SECONDS
        self._interaction_born: dict[int, float] = {}
        # Discord remembers a message's nonce for a few minutes only.
        self.nonce_seconds: float = 300.0
        self._created: dict[int, float] = {}  # message id -> when it was made (``clock``)
        # Invalid requests (401, 403, 429) over ``ban_window`` seconds; past ``ban_after``,
        # a ban: 403 on every route for ``ban_seconds``.
        self.ban_after: int = 10_000
        self.ban_window: float = 600.0
        self.ban_seconds: float = 3600.0
        self.banned_until: float | None = None
        self._invalid: deque[float] = deque()
        # When each thread last saw a message (or was opened): it archives after its
        # auto_archive_duration (minutes) of quiet.
        self._thread_active: dict[int, float] = {}

        self.guild: p.TestGuild | None = None
        if default_guild:
            self.guild = p.build_test_guild(self.bot_user)
            self.add_guild(self.guild.payload)

        self.gateway = FakeGateway(self)
        self._forwarding: set[asyncio.Task[None]] = set()
        self._cond: asyncio.Condition | None = None
        self._runner: web.AppRunner | None = None
        self.port: int = 0
        self._routes: list[tuple[str, re.Pattern[str], str, Handler]] = []
        self._build_routes()

    # ------------------------------------------------------------------ life

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>``."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """Value for ``discord.http.Route.BASE``."""
        return self.base_url + API_PREFIX

    async def start(self) -> Self:
        """Start listening on a random free port of 127.0.0.1."""
        if self._runner is not None:
            return self
        self._cond = asyncio.Condition()
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get(GATEWAY_PATH, self.gateway.handle)
        app.router.add_route("*", "/{tail:.*}", self._dispatch)
        runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await runner.setup()
        try:
            # Port 0: the OS picks a free port atomically (no races between xdist workers).
            await web.TCPSite(runner, "127.0.0.1", 0).start()
            self.port = int(runner.addresses[0][1])
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        return self

    async def stop(self) -> None:
        """Stop the server (close bots first to avoid dangling connections)."""
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await self.gateway.close()
            await runner.cleanup()

    async def __aenter__(self) -> Self:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # -------------------------------------------------------------- recording

    def find(self, predicate: Predicate | None = None, **match: Any) -> list[RecordedRequest]:
        """All recorded requests matching ``predicate`` and :meth:`matches` kwargs."""
        return [r for r in self.requests if self.matches(r, predicate, **match)]

    @staticmethod
    def matches(
        request: RecordedRequest,
        predicate: Predicate | None = None,
        *,
        method: str | None = None,
        route: str | None = None,
        path: str | None = None,
        interaction_id: int | None = None,
    ) -> bool:
        """Whether ``request`` matches method/route/path/interaction and the predicate."""
        if method is not None and request.method != method.upper():
            return False
        if route is not None and request.route != route:
            return False
        if path is not None and request.path != path:
            return False
        if interaction_id is not None and request.interaction_id != int(interaction_id):
            return False
        return predicate is None or bool(predicate(request))

    async def wait_for(
        self,
        predicate: Predicate | None = None,
        *,
        timeout: float = 5.0,
        after: int = 0,
        client_done: bool = False,
        description: str | None = None,
        **match: Any,
    ) -> RecordedRequest:
        """Wait for the first request (index >= ``after``) matching the filters.

        ``match`` accepts ``method``, ``route``, ``path``, ``interaction_id``.
        With ``client_done=True`` also wait until discord.py finished
        processing the response (needs the harness' client instrumentation).
        Raises :class:`FakeDiscordTimeout` with the list of recorded requests.
        """
        assert self._cond is not None, "FakeDiscord.start() was not called"
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        found: RecordedRequest | None = None

        def check() -> bool:
            nonlocal found
            for req in self.requests[after:]:
                if self.matches(req, predicate, **match):
                    found = req
                    return True
            return False

        try:
            async with asyncio.timeout_at(deadline):
                async with self._cond:
                    await self._cond.wait_for(check)
                assert found is not None
                if client_done:
                    await found.client_done.wait()
        except TimeoutError:
            what = description or (
                "request " + (", ".join(f"{k}={v!r}" for k, v in match.items()) or "<predicate>")
            )
            if found is not None:
                what = f"discord.py to finish processing {found.describe()}"
            raise FakeDiscordTimeout(
                f"timed out after {timeout}s waiting for {what}.\n{self.format_requests(after)}"
            ) from None
        return found

    def format_requests(self, after: int = 0) -> str:
        """Human readable dump of the recorded requests (for failure messages)."""
        lines = [r.describe() for r in self.requests[after:]]
        return "Recorded requests:\n  " + ("\n  ".join(lines) if lines else "(none)")

    @property
    def unhandled_requests(self) -> list[RecordedRequest]:
        """Requests no route handled (answered 404) - usually a gap in the fake."""
        return [r for r in self.requests if not r.handled]

    def mark_client_done(self, method: str, raw_path: str) -> None:
        """Called by the harness when discord.py finished a request; sets ``client_done``."""
        for req in self.requests:
            if req.method == method and req.raw_path == raw_path and not req.client_done.is_set():
                req.client_done.set()
                return

    # ---------------------------------------------------------- configuration

    def fail_next(
        self,
        method: str,
        route_or_path: str,
        *,
        status: int = 403,
        code: int = 50013,
        message: str = "Missing Permissions",
        times: int = 1,
        mode: str = "error",
    ) -> None:
        """Make the next ``times`` matching requests fail with a Discord error, or (``mode``
        "reset", "reset_after") with a connection dropped before or after handling them.

        ``route_or_path`` is a template (``/guilds/{guild_id}/channels``) or a
        concrete API path.  Avoid 500, 502 and 504: discord.py retries those after
        sleeping (503 it does not).
        """
        self._failures.append(
            _Failure(method.upper(), route_or_path, status, code, message, times, mode)
        )

    def clear_failures(self) -> None:
        """Forget the failures asked for that have not happened yet."""
        self._failures.clear()

    def set_handler(
        self,
        method: str,
        template: str,
        handler: Callable[[_Call], Awaitable[FakeResponse]],
    ) -> None:
        """Override/add a route; ``handler(call)`` returns a :class:`FakeResponse`."""
        self._overrides.insert(0, (method.upper(), _template_regex(template), template, handler))

    def add_event_sink(self, sink: EventSink) -> None:
        """Receive gateway events (``name``, ``data``) caused by REST calls."""
        self.event_sinks.append(sink)

    def remove_event_sink(self, sink: EventSink) -> None:
        """Undo :meth:`add_event_sink`."""
        if sink in self.event_sinks:
            self.event_sinks.remove(sink)

    def _emit(self, name: str, data: JSON) -> None:
        for sink in list(self.event_sinks):
            try:
                sink(name, copy.deepcopy(data))
            except Exception as exc:
                _log.exception("event sink failed for %s", name)
                self.sink_errors.append(exc)
        if name in GUILD_EVENTS and self.gateway.sessions:
            task = asyncio.get_running_loop().create_task(self.gateway.forward(name, data))
            self._forwarding.add(task)
            task.add_done_callback(self._forwarding.discard)

    # ----------------------------------------------------- Discord's lifecycle

    def delete_channel(self, channel_id: int, *, event: bool = True) -> JSON:
        """Delete a channel or thread as a member of the server would (its threads too):
        ``CHANNEL_DELETE`` / ``THREAD_DELETE`` to the bots (unless ``event`` is False: a bot
        that was offline), then 10003 Unknown Channel on its routes."""
        channel = self.channels.pop(int(channel_id))
        gone = [channel]
        for other in list(self.channels.values()):
            if other.get("parent_id") == channel["id"] and "thread_metadata" in other:
                gone.append(self.channels.pop(int(other["id"])))
        if event:
            for c in gone:
                is_thread = c["type"] in (p.PUBLIC_THREAD, p.PRIVATE_THREAD)
                self._emit("THREAD_DELETE" if is_thread else "CHANNEL_DELETE", c)
        return channel

    def remove_bot(self, guild_id: int, *, event: bool = True) -> None:
        """A server removes the bot (kicked, or the server deleted): ``GUILD_DELETE`` with no
        ``unavailable`` (unless ``event`` is False), then 50001 Missing Access there."""
        gid = int(guild_id)
        self.members[gid].pop(int(self.bot_user["id"]), None)
        if event:
            self._emit("GUILD_DELETE", {"id": str(gid)})

    def add_bot(self, guild_id: int, *, event: bool = True) -> None:
        """The bot is added (back) to a server: ``GUILD_CREATE`` with the whole server
        (unless ``event`` is False: a test sends it later, ``guild_payload``)."""
        gid = int(guild_id)
        bot_id = int(self.bot_user["id"])
        if bot_id not in self.members[gid]:
            self.members[gid][bot_id] = p.member(self.bot_user)
            bot_role = next(
                (
                    r
                    for r in self.guilds[gid].get("roles", [])
                    if (r.get("tags") or {}).get("bot_id") == self.bot_user["id"]
                ),
                None,
            )
            if bot_role is not None:
                self.members[gid][bot_id]["roles"] = [bot_role["id"]]
        if not event:
            return
        joined = self.guild_payload(gid)
        joined.pop("unavailable", None)  # a server joined, not one back from an outage
        self._emit("GUILD_CREATE", joined)

    def bot_in(self, guild_id: int) -> bool:
        return int(self.bot_user["id"]) in self.members.get(int(guild_id), {})

    def _archive_if_quiet(self, channel: JSON) -> None:
        """A thread quiet for its auto-archive duration is archived (``THREAD_UPDATE``)."""
        meta = channel.get("thread_metadata")
        if meta is None or meta.get("archived"):
            return
        cid = int(channel["id"])
        active = self._thread_active.setdefault(cid, self.clock())
        if self.clock() - active >= float(meta.get("auto_archive_duration") or 1440) * 60:
            meta["archived"] = True
            meta["archive_timestamp"] = p.iso_now()
            self._emit("THREAD_UPDATE", channel)

    def _wake_thread(self, channel: JSON) -> None:
        """A post (or unarchiving) in a thread: it is open, and its quiet starts again."""
        meta = channel.get("thread_metadata")
        if meta is None:
            return
        self._thread_active[int(channel["id"])] = self.clock()
        if meta.get("archived"):
            meta["archived"] = False
            self._emit("THREAD_UPDATE", channel)

    def _refuse_in_archived(self, channel_id: int) -> None:
        channel = self.channels.get(int(channel_id))
        if channel is not None and (channel.get("thread_metadata") or {}).get("archived"):
            raise ApiError(400, 50083, "Thread is archived")

    # ----------------------------------------------------------------- world

    def add_guild(self, guild_payload: Mapping[str, Any]) -> int:
        """Add a full gateway guild payload (roles, channels, members)."""
        gid = int(guild_payload["id"])
        meta = {
            k: copy.deepcopy(v)
            for k, v in guild_payload.items()
            if k not in ("channels", "members", "threads")
        }
        self.guilds[gid] = meta
        self.members[gid] = {}
        for channel in guild_payload.get("channels", []):
            c = copy.deepcopy(dict(channel))
            c["guild_id"] = str(gid)
            self.channels[int(c["id"])] = c
        for m in guild_payload.get("members", []):
            self.add_member(gid, m)
        return gid

    def add_member(self, guild_id: int, member_payload: Mapping[str, Any]) -> JSON:
        """Add (or replace) a member of a guild."""
        m = copy.deepcopy(dict(member_payload))
        uid = int(m["user"]["id"])
        self.users.setdefault(uid, m["user"])
        self.members[int(guild_id)][uid] = m
        self._sync_member_count(int(guild_id))
        return m

    def add_channel(self, channel_payload: Mapping[str, Any]) -> JSON:
        """Add a channel (guild channels need ``guild_id``)."""
        c = copy.deepcopy(dict(channel_payload))
        self.channels[int(c["id"])] = c
        return c

    def set_role_permissions(self, guild_id: int, role_id: int, permissions: int) -> JSON:
        """Change a role's permissions (emits ``GUILD_ROLE_UPDATE`` to the bot)."""
        roles: list[JSON] = self.guilds[int(guild_id)].get("roles", [])
        for role in roles:
            if int(role["id"]) == int(role_id):
                role["permissions"] = str(int(permissions))
                self._emit("GUILD_ROLE_UPDATE", {"guild_id": str(guild_id), "role": role})
                return role
        raise KeyError(f"role {role_id} not in guild {guild_id}")

    def set_member_roles(self, guild_id: int, user_id: int, role_ids: Iterable[int | str]) -> JSON:
        """Replace a member's roles (emits ``GUILD_MEMBER_UPDATE`` to the bot)."""
        m = self.get_member(guild_id, user_id)
        m["roles"] = [str(r) for r in role_ids]
        self._emit_member(int(guild_id), m)
        return m

    def _sync_member_count(self, guild_id: int) -> None:
        self.guilds[guild_id]["member_count"] = len(self.members[guild_id])

    def guild_payload(self, guild_id: int) -> JSON:
        """Current full gateway payload of a guild (for READY / GUILD_CREATE)."""
        meta = copy.deepcopy(self.guilds[int(guild_id)])
        meta["channels"] = [
            copy.deepcopy(c)
            for c in self.channels.values()
            if c.get("guild_id") == str(guild_id)
            and c["type"] not in (p.PUBLIC_THREAD, p.PRIVATE_THREAD)
        ]
        meta["threads"] = [
            copy.deepcopy(c)
            for c in self.channels.values()
            if c.get("guild_id") == str(guild_id)
            and c["type"] in (p.PUBLIC_THREAD, p.PRIVATE_THREAD)
        ]
        meta["members"] = [copy.deepcopy(m) for m in self.members[int(guild_id)].values()]
        meta["member_count"] = len(meta["members"])
        return meta

    def get_member(self, guild_id: int, user_id: int) -> JSON:
        """Current member payload (raises ``KeyError`` if unknown)."""
        return self.members[int(guild_id)][int(user_id)]

    def get_channel(self, channel_id: int) -> JSON:
        """Current channel payload (raises ``KeyError`` if unknown)."""
        return self.channels[int(channel_id)]

    def channels_named(self, name: str, guild_id: int | None = None) -> list[JSON]:
        """Channels with the given name (optionally in one guild)."""
        return [
            c
            for c in self.channels.values()
            if c.get("name") == name and (guild_id is None or c.get("guild_id") == str(guild_id))
        ]

    def get_message(self, message_id: int) -> JSON:
        """Current version of a stored message (raises ``KeyError``)."""
        return self.messages[int(message_id)]

    def member_says(self, channel_id: int, user: JSON, content: str) -> JSON:
        """A member's message in a channel (chat the bot takes no part in), as Discord makes
        it: stored and sent to the gateway."""
        message = self._new_message(int(channel_id), {"content": content}, [], author=user)
        self._store_message(message)
        self._emit_message("MESSAGE_CREATE", message)
        return message

    def messages_in(self, channel_id: int, *, include_ephemeral: bool = True) -> list[JSON]:
        """Messages of a channel, oldest first."""
        msgs = [
            self.messages[mid]
            for mid in self.channel_messages.get(int(channel_id), [])
            if mid in self.messages
        ]
        if not include_ephemeral:
            msgs = [m for m in msgs if not m.get("flags", 0) & FLAG_EPHEMERAL]
        return msgs

    def last_message(self, channel_id: int, *, include_ephemeral: bool = True) -> JSON:
        """Newest message of a channel (raises ``LookupError`` if none)."""
        msgs = self.messages_in(channel_id, include_ephemeral=include_ephemeral)
        if not msgs:
            raise LookupError(f"no messages in channel {channel_id}.\n{self.format_requests()}")
        return msgs[-1]

    def attachment_bytes(self, attachment: Mapping[str, Any] | int) -> bytes:
        """Content of an uploaded attachment (by id or attachment object)."""
        aid = int(attachment["id"]) if isinstance(attachment, Mapping) else int(attachment)
        return self.attachments[aid]

    def bot_permissions(self, guild_id: int, channel_id: int | None = None) -> int:
        """The bot's effective permissions in a guild (and channel)."""
        gid = int(guild_id)
        guild_full = {**self.guilds[gid]}
        bot_member = self.members[gid].get(int(self.bot_user["id"]))
        if bot_member is None:
            return 0
        channel = self.channels.get(int(channel_id)) if channel_id is not None else None
        if channel is not None and channel["type"] in (
            p.PUBLIC_THREAD,
            p.PRIVATE_THREAD,
        ):
            channel = self.channels.get(int(channel["parent_id"]), channel)
        return p.compute_permissions(guild_full, bot_member, channel)

    def register_interaction(self, payload: Mapping[str, Any]) -> InteractionState:
        """Remember an injected interaction so its callback/webhooks are accepted. The same
        interaction given again (to another process of a rolling restart, or to the same
        one by a replayed gateway event) is the same one for Discord: its state (answered,
        deferred, its follow-ups, its 3 seconds) is kept, not reset."""
        iid = int(payload["id"])
        known = self.interactions.get(iid)
        if known is not None:
            return known
        user = payload["member"]["user"] if "member" in payload else payload["user"]
        message_id = None
        message = payload.get("message")
        if message is not None:
            message_id = int(message["id"])
            if message_id not in self.messages:
                self._store_message(copy.deepcopy(dict(message)))
        data = payload.get("data") or {}
        name = data.get("name")
        options = data.get("options") or []
        while (
            name
            and options
            and options[0].get("type") in (p.OPT_SUB_COMMAND, p.OPT_SUB_COMMAND_GROUP)
        ):
            name = f"{name} {options[0]['name']}"
            options = options[0].get("options") or []
        state = InteractionState(
            id=iid,
            token=str(payload["token"]),
            application_id=int(payload["application_id"]),
            type=int(payload["type"]),
            channel_id=int(payload["channel"]["id"])
            if "channel" in payload
            else int(payload["channel_id"]),
            guild_id=int(payload["guild_id"]) if payload.get("guild_id") else None,
            user=dict(user),
            name=name,
            message_id=message_id,
            command_type=int(data.get("type") or 1),
        )
        if state.channel_id not in self.channels and "channel" in payload:
            ch = {k: v for k, v in payload["channel"].items() if k != "permissions"}
            self.channels[state.channel_id] = copy.deepcopy(ch)
        self.interactions[iid] = state
        self._by_token[state.token] = state
        self._interaction_born[iid] = self.clock()
        return state

    def interaction_for_token(self, token: str) -> InteractionState | None:
        """Interaction registered with this token, if any."""
        return self._by_token.get(token)

    # ------------------------------------------------------------ dispatching

    def _build_routes(self) -> None:
        r = self._route
        # users / application
        r("GET", "/users/@me", self._get_me)
        r("PATCH", "/users/@me", self._patch_me)
        r("POST", "/users/@me/channels", self._create_dm)
        r("GET", "/users/{user_id}", self._get_user)
        r("GET", "/oauth2/applications/@me", self._get_application)
        r("GET", "/applications/@me", self._get_application)
        r("GET", "/gateway/bot", self._get_gateway)
        r("GET", "/gateway", self._get_gateway)
        # application commands
        r("GET", "/applications/{application_id}/commands", self._get_commands)
        r("PUT", "/applications/{application_id}/commands", self._put_commands)
        r("POST", "/applications/{application_id}/commands", self._post_command)
        r(
            "GET",
            "/applications/{application_id}/commands/{command_id}",
            self._get_command,
        )
        r(
            "PATCH",
            "/applications/{application_id}/commands/{command_id}",
            self._patch_command,
        )
        r(
            "DELETE",
            "/applications/{application_id}/commands/{command_id}",
            self._delete_command,
        )
        r(
            "GET",
            "/applications/{application_id}/guilds/{guild_id}/commands",
            self._get_commands,
        )
        r(
            "PUT",
            "/applications/{application_id}/guilds/{guild_id}/commands",
            self._put_commands,
        )
        r(
            "POST",
            "/applications/{application_id}/guilds/{guild_id}/commands",
            self._post_command,
        )
        r(
            "GET",
            "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}",
            self._get_command,
        )
        r(
            "PATCH",
            "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}",
            self._patch_command,
        )
        r(
            "DELETE",
            "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}",
            self._delete_command,
        )
        r("GET", "/applications/{application_id}/entitlements", self._empty_list)
        r("GET", "/applications/{application_id}/skus", self._empty_list)
        r("GET", "/applications/{application_id}/emojis", self._empty_items)
        # interactions
        r(
            "POST",
            "/interactions/{interaction_id}/{token}/callback",
            self._interaction_callback,
        )
        r("POST", "/webhooks/{application_id}/{token}", self._followup_create)
        r(
            "GET",
            "/webhooks/{application_id}/{token}/messages/{message_id}",
            self._webhook_message_get,
        )
        r(
            "PATCH",
            "/webhooks/{application_id}/{token}/messages/{message_id}",
            self._webhook_message_edit,
        )
        r(
            "DELETE",
            "/webhooks/{application_id}/{token}/messages/{message_id}",
            self._webhook_message_delete,
        )
        # channels and messages
        r("GET", "/channels/{channel_id}", self._get_channel)
        r("PATCH", "/channels/{channel_id}", self._edit_channel)
        r("DELETE", "/channels/{channel_id}", self._delete_channel)
        r("PUT", "/channels/{channel_id}/permissions/{target_id}", self._put_overwrite)
        r(
            "DELETE",
            "/channels/{channel_id}/permissions/{target_id}",
            self._delete_overwrite,
        )
        r("POST", "/channels/{channel_id}/typing", self._no_content)
        r("GET", "/channels/{channel_id}/messages", self._list_messages)
        r("POST", "/channels/{channel_id}/messages", self._create_message)
        r("POST", "/channels/{channel_id}/messages/bulk-delete", self._bulk_delete)
        r("GET", "/channels/{channel_id}/messages/pins", self._list_pins)
        r("PUT", "/channels/{channel_id}/messages/pins/{message_id}", self._no_content)
        r(
            "DELETE",
            "/channels/{channel_id}/messages/pins/{message_id}",
            self._no_content,
        )
        r("GET", "/channels/{channel_id}/messages/{message_id}", self._get_message)
        r("PATCH", "/channels/{channel_id}/messages/{message_id}", self._edit_message)
        r(
            "DELETE",
            "/channels/{channel_id}/messages/{message_id}",
            self._delete_message,
        )
        r(
            "PUT",
            "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me",
            self._add_reaction,
        )
        r(
            "DELETE",
            "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me",
            self._no_content,
        )
        r(
            "DELETE",
            "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/{user_id}",
            self._no_content,
        )
        r(
            "DELETE",
            "/channels/{channel_id}/messages/{message_id}/reactions",
            self._no_content,
        )
        r("POST", "/channels/{channel_id}/threads", self._create_thread)
        r(
            "POST",
            "/channels/{channel_id}/messages/{message_id}/threads",
            self._create_thread,
        )
        r("PUT", "/channels/{channel_id}/thread-members/@me", self._no_content)
        r("PUT", "/channels/{channel_id}/thread-members/{user_id}", self._no_content)
        r("DELETE", "/channels/{channel_id}/thread-members/{user_id}", self._no_content)
        # guilds
        r("GET", "/guilds/{guild_id}", self._get_guild)
        r("GET", "/guilds/{guild_id}/channels", self._list_guild_channels)
        r("POST", "/guilds/{guild_id}/channels", self._create_guild_channel)
        r("PATCH", "/guilds/{guild_id}/channels", self._move_channels)
        r("GET", "/guilds/{guild_id}/roles", self._list_roles)
        r("POST", "/guilds/{guild_id}/roles", self._create_role)
        r("GET", "/guilds/{guild_id}/members", self._list_members)
        r("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member)
        r("PATCH", "/guilds/{guild_id}/members/{user_id}", self._edit_member)
        r(
            "PUT",
            "/guilds/{guild_id}/members/{user_id}/roles/{role_id}",
            self._add_member_role,
        )
        r(
            "DELETE",
            "/guilds/{guild_id}/members/{user_id}/roles/{role_id}",
            self._remove_member_role,
        )

    def _route(self, method: str, template: str, handler: Handler) -> None:
        self._routes.append((method, _template_regex(template), template, handler))

    async def _dispatch(self, request: web.Request) -> web.StreamResponse:
        raw_path = request.raw_path.split("?", 1)[0]
        if request.path.startswith("/attachments/"):
            return await self._serve_attachment(request)
        path = request.path.removeprefix(API_PREFIX)
        parse_error: str | None = None
        try:
            body_json, files = await self._read_body(request)
        except (ValueError, UnicodeDecodeError) as exc:
            body_json, files, parse_error = None, [], f"{exc!r}"
        call = _Call(
            method=request.method,
            path=path,
            raw_path=raw_path,
            params={},
            query=dict(request.query),
            headers={
                k: v
                for k, v in request.headers.items()
                if k.lower() not in ("content-length", "host")
            },
            json=body_json,
            files=files,
        )
        template = ""
        handled = True
        if self.banned_until is not None and self.clock() < self.banned_until:
            result = FakeResponse(BAN_BODY, 403, {"Content-Type": "text/plain"})
            await self._record(call, path, raw_path, template, body_json, files, result, True)
            return web.Response(status=403, text=BAN_BODY)
        try:
            if parse_error is not None:
                raise ApiError(
                    400, 50109, f"The request body contains invalid JSON ({parse_error})"
                )
            handler, template = self._resolve(call)
            if handler is None:
                handled = False
                raise ApiError(
                    404,
                    0,
                    f"404: Not Found (fake Discord has no route for {call.method} {path})",
                )
            self._check_auth(call, template)
            drop = self._check_failure(call, template)
            if drop == "reset":
                return self._reset(request)
            result = await handler(call)
            if drop == "reset_after":
                await self._record(call, path, raw_path, template, body_json, files, result, True)
                return self._reset(request)
        except ApiError as err:
            result = FakeResponse(err.body(), err.status, err.headers)
        except Exception as exc:
            _log.exception("fake Discord handler crashed for %s %s", call.method, path)
            result = FakeResponse({"message": f"fake Discord crashed: {exc!r}", "code": 0}, 400)
        if result.status in INVALID_STATUSES and result.body is not None:
            self._count_invalid()
        await self._record(call, path, raw_path, template, body_json, files, result, handled)
        return self._response(result)

    def _count_invalid(self) -> None:
        """An invalid request (401, 403, 429): past ``ban_after`` in ``ban_window``, a ban."""
        now = self.clock()
        self._invalid.append(now)
        while self._invalid and self._invalid[0] < now - self.ban_window:
            self._invalid.popleft()
        if len(self._invalid) > self.ban_after:
            self.banned_until = now + self.ban_seconds
            _log.warning("fake Discord: %d invalid requests: banned", len(self._invalid))

    def invalid_requests(self) -> int:
        """Invalid requests (401, 403, 429) answered in the last ``ban_window`` seconds."""
        edge = self.clock() - self.ban_window
        return sum(1 for t in self._invalid if t >= edge)

    async def _record(
        self,
        call: _Call,
        path: str,
        raw_path: str,
        template: str,
        body_json: Any,
        files: list[RecordedFile],
        result: FakeResponse,
        handled: bool,
    ) -> None:
        if not self.record:
            return
        record = RecordedRequest(
            index=len(self.requests),
            method=call.method,
            path=path,
            raw_path=raw_path,
            route=template,
            params=call.params,
            query=call.query,
            headers=call.headers,
            json=body_json,
            files=files,
            status=result.status if result.body is not None else 204,
            response=copy.deepcopy(result.body),
            interaction_id=call.interaction_id,
            handled=handled,
            at=self.clock(),
        )
        self.requests.append(record)
        assert self._cond is not None
        async with self._cond:
            self._cond.notify_all()

    @staticmethod
    def _reset(request: web.Request) -> web.StreamResponse:
        """Drop the connection: the client gets no answer (a reset, as a proxy or a
        network fault does)."""
        transport = request.transport
        if transport is not None:
            transport.abort()
        return web.Response(status=503)

    @staticmethod
    def _response(result: FakeResponse) -> web.Response:
        if result.body is None:
            return web.Response(status=204)
        return web.Response(
            status=result.status,
            body=json.dumps(result.body).encode(),
            headers={"Content-Type": "application/json", **result.headers},
        )

    @staticmethod
    async def _read_body(request: web.Request) -> tuple[Any, list[RecordedFile]]:
        """Parse a JSON or multipart (``payload_json`` + ``files[n]``) body."""
        content_type = request.headers.get("Content-Type", "")
        if content_type.startswith("multipart/"):
            return _multipart(content_type, await request.read())
        if request.can_read_body:
            raw = await request.read()
            if raw:
                return json.loads(raw.decode()), []
        return None, []

    def _resolve(self, call: _Call) -> tuple[Handler | None, str]:
        for method, regex, template, handler in [*self._overrides, *self._routes]:
            if method != call.method:
                continue
            m = regex.match(call.path)
            if m:
                call.params = {k: urllib.parse.unquote(v) for k, v in m.groupdict().items()}
                self._tag_interaction(call)
                return handler, template
        return None, ""

    def _tag_interaction(self, call: _Call) -> None:
        """Link callback/webhook requests to their interaction (even if they fail)."""
        if "interaction_id" in call.params and call.params["interaction_id"].isdigit():
            call.interaction_id = int(call.params["interaction_id"])
        elif "token" in call.params:
            state = self._by_token.get(call.params["token"])
            if state is not None:
                call.interaction_id = state.id

    def _check_auth(self, call: _Call, template: str) -> None:
        if template.startswith(("/interactions/", "/webhooks/")):
            return
        auth = call.headers.get("Authorization")
        if not auth or not auth.startswith("Bot "):
            raise ApiError(401, 0, "401: Unauthorized")
        if self.token is not None and auth != f"Bot {self.token}":
            raise ApiError(401, 0, "401: Unauthorized")

    def _check_failure(self, call: _Call, template: str) -> str | None:
        """Raise the error a failure asked for (or the fault hook made); "reset" or
        "reset_after" when the connection is to be dropped; None to go on."""
        for failure in self._failures:
            if failure.method == call.method and failure.pattern in (
                template,
                call.path,
            ):
                failure.times -= 1
                if failure.times <= 0:
                    self._failures.remove(failure)
                if failure.mode != "error":
                    return failure.mode
                raise ApiError(failure.status, failure.code, failure.message)
        if self.fault_hook is not None:
            fault = self.fault_hook(call.method, template, call.path)
            if fault is not None:
                if fault.mode != "error":
                    return fault.mode
                error = ApiError(fault.status, fault.code, fault.message)
                if fault.status == 429:
                    after = fault.retry_after if fault.retry_after is not None else 0.2
                    error = ApiError(
                        429,
                        0,
                        "You are being rate limited.",
                        extra={"retry_after": after, "global": False},
                        headers={"Via": "1.1 google", "Retry-After": f"{after}"},
                    )
                raise error
        return None

    async def _serve_attachment(self, request: web.Request) -> web.StreamResponse:
        parts = request.path.split("/")
        try:
            data = self.attachments[int(parts[3])]
        except (IndexError, ValueError, KeyError):
            return web.Response(status=404)
        return web.Response(body=data, headers={"Content-Type": "application/octet-stream"})

    # ------------------------------------------------------------ validation

    def _require_channel(self, channel_id: str | int) -> JSON:
        channel = self.channels.get(int(channel_id))
        if channel is None:
            raise ApiError(404, 10003, "Unknown Channel")
        if channel.get("guild_id") and not self.bot_in(int(channel["guild_id"])):
            raise ApiError(403, 50001, "Missing Access")  # the bot is not in that server
        self._archive_if_quiet(channel)
        return channel

    def _require_guild(self, guild_id: str | int) -> int:
        gid = int(guild_id)
        if gid not in self.guilds:
            raise ApiError(404, 10004, "Unknown Guild")
        if not self.bot_in(gid):
            raise ApiError(403, 50001, "Missing Access")
        return gid

    def _require_perm(self, channel_or_guild: JSON | int, perm: int, what: str) -> None:
        if not self.enforce_permissions:
            return
        if isinstance(channel_or_guild, int):
            perms = self.bot_permissions(channel_or_guild)
        else:
            if not channel_or_guild.get("guild_id"):
                return
            perms = self.bot_permissions(
                int(channel_or_guild["guild_id"]), int(channel_or_guild["id"])
            )
        if perms & perm != perm:
            raise ApiError(403, 50013, f"Missing Permissions ({what})")

    @staticmethod
    def _validate_message(
        body: Mapping[str, Any], files: list[RecordedFile], *, creating: bool
    ) -> None:
        content = body.get("content")
        if content is not None and len(str(content)) > 2000:
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                {
                    "content": {
                        "_errors": [
                            {
                                "code": "BASE_TYPE_MAX_LENGTH",
                                "message": "Must be 2000 or fewer in length.",
                            }
                        ]
                    }
                },
            )
        embeds = body.get("embeds") or []
        if len(embeds) > 10:
            raise ApiError(400, 50035, "Invalid Form Body (embeds: max 10)")
        components = body.get("components") or []
        v2 = bool(int(body.get("flags") or 0) & FLAG_COMPONENTS_V2)
        if not v2:
            if len(components) > 5:
                raise ApiError(400, 50035, "Invalid Form Body (components: max 5 action rows)")
            for row in components:
                if len(row.get("components", [])) > 5:
                    raise ApiError(400, 50035, "Invalid Form Body (action row: max 5 components)")
        for comp in p.iter_components(components):
            cid = comp.get("custom_id")
            if cid is not None and len(cid) > 100:
                raise ApiError(
                    400,
                    50035,
                    f"Invalid Form Body (custom_id longer than 100: {cid!r})",
                )
            if comp.get("type") == p.STRING_SELECT and not 1 <= len(comp.get("options", [])) <= 25:
                raise ApiError(400, 50035, "Invalid Form Body (select options must be 1..25)")
        if creating and not (
            content or embeds or files or components or body.get("sticker_ids") or body.get("poll")
        ):
            raise ApiError(400, 50006, "Cannot send an empty message")

    # -------------------------------------------------------------- messages

    def _attachments_from(
        self,
        channel_id: int,
        body: Mapping[str, Any],
        files: list[RecordedFile],
        existing: list[JSON],
    ) -> list[JSON]:
        uploads: dict[int, RecordedFile] = {}
        for f in files:
            m = re.fullmatch(r"files\[(\d+)\]", f.field)
            uploads[int(m.group(1)) if m else len(uploads)] = f
        result: list[JSON] = []
        by_id = {str(a["id"]): a for a in existing}
        if "attachments" in body and body["attachments"] is not None:
            for spec in body["attachments"]:
                sid = str(spec.get("id"))
                if sid in by_id:
                    result.append(by_id[sid])
                elif sid.isdigit() and int(sid) in uploads:
                    result.append(self._make_attachment(channel_id, uploads.pop(int(sid)), spec))
            for leftover in uploads.values():
                result.append(self._make_attachment(channel_id, leftover, {}))
        else:
            result = list(existing) + [
                self._make_attachment(channel_id, f, {}) for f in uploads.values()
            ]
        return result

    def _make_attachment(
        self, channel_id: int, upload: RecordedFile, spec: Mapping[str, Any]
    ) -> JSON:
        aid = p.snowflake()
        filename = str(spec.get("filename") or upload.filename)
        self.attachments[aid] = upload.data
        url = f"{self.base_url}/attachments/{channel_id}/{aid}/{urllib.parse.quote(filename)}"
        att: JSON = {
            "id": str(aid),
            "filename": filename,
            "size": len(upload.data),
            "url": url,
            "proxy_url": url,
            "content_type": mimetypes.guess_type(filename)[0] or "application/octet-stream",
        }
        if spec.get("description"):
            att["description"] = spec["description"]
        return att

    def _new_message(
        self,
        channel_id: int,
        body: Mapping[str, Any],
        files: list[RecordedFile],
        *,
        author: JSON | None = None,
        msg_type: int = 0,
        flags: int | None = None,
        webhook_id: int | None = None,
        interaction: InteractionState | None = None,
        original_response_message_id: int | None = None,
    ) -> JSON:
        mid = p.snowflake()
        embeds = [dict(e, type=e.get("type", "rich")) for e in (body.get("embeds") or [])]
        message: JSON = {
            "id": str(mid),
            "channel_id": str(channel_id),
            "type": msg_type,
            "author": copy.deepcopy(author or self.bot_user),
            "content": body.get("content") or "",
            "timestamp": p.iso_from_snowflake(mid),
            "edited_timestamp": None,
            "tts": bool(body.get("tts", False)),
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "mention_channels": [],
            "attachments": self._attachments_from(channel_id, body, files, []),
            "embeds": embeds,
            "reactions": [],
            "pinned": False,
            "components": self._own(body.get("components") or []),
            "flags": int(body.get("flags") or 0) if flags is None else flags,
            "sticker_items": [],
        }
        if body.get("nonce") is not None:
            message["nonce"] = body["nonce"]
        if body.get("poll"):
            message["poll"] = copy.deepcopy(body["poll"])
        if webhook_id is not None:
            message["webhook_id"] = str(webhook_id)
            message["application_id"] = str(webhook_id)
        ref = body.get("message_reference")
        if ref:
            ref = dict(ref)
            ref.setdefault("channel_id", str(channel_id))
            message["message_reference"] = ref
            message["type"] = 19
            ref_id = ref.get("message_id")
            if ref_id is not None and int(ref_id) in self.messages:
                message["referenced_message"] = copy.deepcopy(self.messages[int(ref_id)])
        if interaction is not None:
            meta: JSON = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": copy.deepcopy(interaction.user),
                "authorizing_integration_owners": (
                    {"0": str(interaction.guild_id)}
                    if interaction.guild_id
                    else {"1": str(interaction.user["id"])}
                ),
            }
            if interaction.type == p.APPLICATION_COMMAND and interaction.name:
                message["interaction"] = {
                    "id": str(interaction.id),
                    "type": interaction.type,
                    "name": interaction.name,
                    "user": copy.deepcopy(interaction.user),
                }
            if interaction.message_id is not None:
                meta["interacted_message_id"] = str(interaction.message_id)
            if original_response_message_id is not None:
                meta["original_response_message_id"] = str(original_response_message_id)
            message["interaction_metadata"] = meta
        return message

    @staticmethod
    def _response_message_type(state: InteractionState) -> int:
        """Message type of an interaction response: 20 chat input, 23 context menu, else 0."""
        if state.type != p.APPLICATION_COMMAND:
            return 0
        return 20 if state.command_type == 1 else 23

    def _store_message(self, message: JSON) -> JSON:
        mid = int(message["id"])
        cid = int(message["channel_id"])
        self.messages[mid] = message
        self._created.setdefault(mid, self.clock())
        ids = self.channel_messages.setdefault(cid, [])
        if mid not in ids:
            ids.append(mid)
        channel = self.channels.get(cid)
        if channel is not None and not message.get("flags", 0) & FLAG_EPHEMERAL:
            channel["last_message_id"] = str(mid)
        return message

    def _apply_edit(
        self, message: JSON, body: Mapping[str, Any], files: list[RecordedFile]
    ) -> JSON:
        if "content" in body:
            message["content"] = body["content"] or ""
        if "embeds" in body:
            message["embeds"] = [
                dict(e, type=e.get("type", "rich")) for e in (body["embeds"] or [])
            ]
        if "components" in body:
            message["components"] = self._own(body["components"] or [])
        if "flags" in body and body["flags"] is not None:
            keep = message.get("flags", 0) & ~(FLAG_SUPPRESS_EMBEDS | FLAG_COMPONENTS_V2)
            message["flags"] = keep | (
                int(body["flags"]) & (FLAG_SUPPRESS_EMBEDS | FLAG_COMPONENTS_V2)
            )
        if files or "attachments" in body:
            message["attachments"] = self._attachments_from(
                int(message["channel_id"]), body, files, message.get("attachments", [])
            )
        message["edited_timestamp"] = p.iso_now()
        return message

    def _own(self, data: Any) -> Any:
        """Request data kept in the fake's world: a copy when requests are recorded (the
        record keeps the request as it came), else the data itself (nothing else has it)."""
        return copy.deepcopy(data) if self.record else data

    def _gateway_message(self, message: JSON) -> JSON:
        data = copy.deepcopy(message)
        channel = self.channels.get(int(message["channel_id"]))
        if channel is not None and channel.get("guild_id"):
            data["guild_id"] = channel["guild_id"]
            author_id = int(message["author"]["id"])
            m = self.members.get(int(channel["guild_id"]), {}).get(author_id)
            if m is not None:
                data["member"] = {k: v for k, v in m.items() if k != "user"}
        return data

    def _emit_message(self, name: str, message: JSON) -> None:
        if message.get("flags", 0) & FLAG_EPHEMERAL:
            return  # Discord never sends gateway events for ephemeral messages
        if not self.event_sinks:
            return  # nobody listens: spare building the event
        self._emit(name, self._gateway_message(message))

    def _emit_delete(self, message: JSON) -> None:
        if message.get("flags", 0) & FLAG_EPHEMERAL:
            return
        data: JSON = {"id": message["id"], "channel_id": message["channel_id"]}
        channel = self.channels.get(int(message["channel_id"]))
        if channel is not None and channel.get("guild_id"):
            data["guild_id"] = channel["guild_id"]
        self._emit("MESSAGE_DELETE", data)

    def _delete_stored_message(self, message: JSON) -> None:
        mid = int(message["id"])
        self.messages.pop(mid, None)
        ids = self.channel_messages.get(int(message["channel_id"]), [])
        if mid in ids:
            ids.remove(mid)
        self._emit_delete(message)

    # ----------------------------------------------------- users/application

    async def _get_me(self, call: _Call) -> FakeResponse:
        return FakeResponse(copy.deepcopy(self.bot_user))

    async def _patch_me(self, call: _Call) -> FakeResponse:
        body = call.json or {}
        if "username" in body:
            self.bot_user["username"] = body["username"]
        return FakeResponse(copy.deepcopy(self.bot_user))

    async def _get_user(self, call: _Call) -> FakeResponse:
        user = self.users.get(int(call.params["user_id"]))
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return FakeResponse(copy.deepcopy(user))

    async def _create_dm(self, call: _Call) -> FakeResponse:
        rid = int((call.json or {})["recipient_id"])
        user = self.users.get(rid)
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        for c in self.channels.values():
            if c["type"] == p.DM and int(c["recipients"][0]["id"]) == rid:
                return FakeResponse(copy.deepcopy(c))
        return FakeResponse(copy.deepcopy(self.add_channel(p.dm_channel(user))))

    async def _get_application(self, call: _Call) -> FakeResponse:
        return FakeResponse(
            {
                "id": str(self.application_id),
                "name": self.bot_user["username"],
                "icon": None,
                "description": "Fake application",
                "summary": "",
                "type": None,
                "hook": True,
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "owner": copy.deepcopy(self.owner_user),
                "team": None,
                "flags": 0,
                "bot": copy.deepcopy(self.bot_user),
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "tags": [],
                "approximate_guild_count": len(self.guilds),
            }
        )

    async def _get_gateway(self, call: _Call) -> FakeResponse:
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        return FakeResponse({"url": self.gateway.url, "shards": 1, "session_start_limit": limit})

    async def _empty_list(self, call: _Call) -> FakeResponse:
        return FakeResponse([])

    async def _empty_items(self, call: _Call) -> FakeResponse:
        return FakeResponse({"items": []})

    async def _no_content(self, call: _Call) -> FakeResponse:
        return FakeResponse(None)

    # ------------------------------------------------------------- commands

    def _check_app(self, call: _Call) -> None:
        if int(call.params["application_id"]) != self.application_id:
            raise ApiError(404, 10002, "Unknown Application")

    def _command_list(self, call: _Call) -> list[JSON]:
        self._check_app(call)
        if "guild_id" in call.params:
            gid = self._require_guild(call.params["guild_id"])
            return self.guild_commands.setdefault(gid, [])
        return self.global_commands

    def _normalize_command(
        self, spec: Mapping[str, Any], call: _Call, existing: JSON | None
    ) -> JSON:
        cmd: JSON = copy.deepcopy(dict(spec))
        cmd["id"] = existing["id"] if existing else str(p.snowflake())
        cmd["application_id"] = str(self.application_id)
        cmd["version"] = str(p.snowflake())
        cmd.setdefault("type", 1)
        cmd.setdefault("description", "")
        cmd.setdefault("options", [])
        cmd.setdefault("default_member_permissions", None)
        cmd.setdefault("nsfw", False)
        if "guild_id" in call.params:
            cmd["guild_id"] = call.params["guild_id"]
        if not re.fullmatch(r"[-_\w]{1,32}", str(cmd.get("name", ""))):
            raise ApiError(400, 50035, f"Invalid Form Body (command name {cmd.get('name')!r})")
        if cmd["type"] == 1 and not 1 <= len(cmd["description"]) <= 100:
            raise ApiError(
                400,
                50035,
                f"Invalid Form Body (description of {cmd['name']!r} must be 1..100)",
            )
        return cmd

    async def _get_commands(self, call: _Call) -> FakeResponse:
        return FakeResponse(copy.deepcopy(self._command_list(call)))

    async def _put_commands(self, call: _Call) -> FakeResponse:
        current = self._command_list(call)
        by_key = {(c["name"], c.get("type", 1)): c for c in current}
        new = [
            self._normalize_command(spec, call, by_key.get((spec["name"], spec.get("type", 1))))
            for spec in (call.json or [])
        ]
        current[:] = new
        return FakeResponse(copy.deepcopy(new))

    async def _post_command(self, call: _Call) -> FakeResponse:
        current = self._command_list(call)
        spec = call.json or {}
        existing = next((c for c in current if c["name"] == spec.get("name")), None)
        cmd = self._normalize_command(spec, call, existing)
        if existing is not None:
            current[current.index(existing)] = cmd
            return FakeResponse(copy.deepcopy(cmd))
        current.append(cmd)
        return FakeResponse(copy.deepcopy(cmd), 201)

    def _find_command(self, call: _Call) -> tuple[list[JSON], JSON]:
        current = self._command_list(call)
        for cmd in current:
            if cmd["id"] == call.params["command_id"]:
                return current, cmd
        raise ApiError(404, 10063, "Unknown application command")

    async def _get_command(self, call: _Call) -> FakeResponse:
        return FakeResponse(copy.deepcopy(self._find_command(call)[1]))

    async def _patch_command(self, call: _Call) -> FakeResponse:
        _, cmd = self._find_command(call)
        cmd.update(copy.deepcopy(call.json or {}))
        return FakeResponse(copy.deepcopy(cmd))

    async def _delete_command(self, call: _Call) -> FakeResponse:
        current, cmd = self._find_command(call)
        current.remove(cmd)
        return FakeResponse(None)

    def find_command(self, name: str, guild_id: int | None = None) -> JSON | None:
        """A synced command by name (guild commands first, then global)."""
        if guild_id is not None:
            for cmd in self.guild_commands.get(int(guild_id), []):
                if cmd["name"] == name:
                    return cmd
        for cmd in self.global_commands:
            if cmd["name"] == name:
                return cmd
        return None

    # ---------------------------------------------------------- interactions

    def _interaction_for_webhook(self, call: _Call) -> InteractionState:
        state = self._by_token.get(call.params["token"])
        if state is None or state.application_id != int(call.params["application_id"]):
            raise ApiError(404, 10015, "Unknown Webhook")
        call.interaction_id = state.id
        born = self._interaction_born.get(state.id)
        if (
            self.token_seconds is not None
            and born is not None
            and self.clock() - born > self.token_seconds
        ):
            raise ApiError(401, 50027, "Invalid Webhook Token")  # its 15 minutes are over
        return state

    async def _interaction_callback(self, call: _Call) -> FakeResponse:
        iid = int(call.params["interaction_id"])
        call.interaction_id = iid
        state = self.interactions.get(iid)
        if state is None or state.token != call.params["token"]:
            raise ApiError(404, 10062, "Unknown interaction")
        if state.response_type is not None:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        born = self._interaction_born.get(iid)
        if (
            self.interaction_deadline is not None
            and born is not None
            and self.clock() - born > self.interaction_deadline
        ):
            raise ApiError(404, 10062, "Unknown interaction")  # answered too late
        body = call.json or {}
        rtype = int(body.get("type", 0))
        if rtype not in _ALLOWED_CALLBACKS.get(state.type, set()):
            raise ApiError(
                400,
                50035,
                f"Invalid Form Body (callback type {rtype} not allowed "
                f"for interaction type {state.type})",
            )
        data: JSON = body.get("data") or {}
        message: JSON | None = None
        if rtype == CB_CHANNEL_MESSAGE:
            self._validate_message(data, call.files, creating=True)
            state.ephemeral = bool(int(data.get("flags") or 0) & FLAG_EPHEMERAL)
            message = self._new_message(
                state.channel_id,
                data,
                call.files,
                msg_type=self._response_message_type(state),
                webhook_id=state.application_id,
                interaction=state,
            )
            self._store_message(message)
            state.original_message_id = int(message["id"])
            self._emit_message("MESSAGE_CREATE", message)
        elif rtype == CB_DEFERRED_CHANNEL_MESSAGE:
            state.ephemeral = bool(int(data.get("flags") or 0) & FLAG_EPHEMERAL)
            flags = FLAG_LOADING | (FLAG_EPHEMERAL if state.ephemeral else 0)
            message = self._new_message(
                state.channel_id,
                {},
                [],
                msg_type=self._response_message_type(state),
                flags=flags,
                webhook_id=state.application_id,
                interaction=state,
            )
            self._store_message(message)
            state.original_message_id = int(message["id"])
            state.deferred_loading = True
            self._emit_message("MESSAGE_CREATE", message)
        elif rtype == CB_DEFERRED_UPDATE_MESSAGE:
            state.original_message_id = state.message_id
        elif rtype == CB_UPDATE_MESSAGE:
            if state.message_id is None or state.message_id not in self.messages:
                raise ApiError(404, 10008, "Unknown Message")
            self._refuse_in_archived(state.channel_id)
            self._validate_message(data, call.files, creating=False)
            message = self._apply_edit(self.messages[state.message_id], data, call.files)
            state.original_message_id = state.message_id
            self._emit_message("MESSAGE_UPDATE", message)
        elif rtype == CB_AUTOCOMPLETE_RESULT:
            choices = data.get("choices", [])
            if len(choices) > 25:
                raise ApiError(
                    400,
                    50035,
                    "Invalid Form Body (choices: must be 25 or fewer in length)",
                )
            for choice in choices:
                if not 1 <= len(str(choice.get("name", ""))) <= 100:
                    raise ApiError(
                        400,
                        50035,
                        f"Invalid Form Body (choice name length: {choice!r})",
                    )
            state.autocomplete_choices = copy.deepcopy(choices)
        elif rtype == CB_MODAL:
            if not data.get("custom_id") or not 1 <= len(str(data.get("title", ""))) <= 45:
                raise ApiError(
                    400,
                    50035,
                    "Invalid Form Body (modal needs custom_id and a 1..45 char title)",
                )
            state.modal = copy.deepcopy(data)
        state.response_type = rtype
        with_response = call.query.get("with_response", "").lower() in ("1", "true")
        if not with_response:
            return FakeResponse(None)
        info: JSON = {"id": str(state.id), "type": state.type}
        if state.original_message_id is not None and rtype in (
            CB_CHANNEL_MESSAGE,
            CB_DEFERRED_CHANNEL_MESSAGE,
            CB_UPDATE_MESSAGE,
        ):
            info["response_message_id"] = str(state.original_message_id)
            info["response_message_loading"] = rtype == CB_DEFERRED_CHANNEL_MESSAGE
            info["response_message_ephemeral"] = state.ephemeral
        result: JSON = {"interaction": info}
        if (
            rtype in (CB_CHANNEL_MESSAGE, CB_DEFERRED_CHANNEL_MESSAGE, CB_UPDATE_MESSAGE)
            and message is not None
        ):
            result["resource"] = {"type": rtype, "message": message}  # sent at once
        return FakeResponse(result)

    async def _followup_create(self, call: _Call) -> FakeResponse:
        state = self._interaction_for_webhook(call)
        if state.response_type is None:
            raise ApiError(404, 10015, "Unknown Webhook")
        body = call.json or {}
        self._validate_message(body, call.files, creating=True)
        if state.deferred_loading and state.original_message_id is not None:
            # Documented: the first follow-up after a type 5 defer edits the loading message.
            original = self.messages[state.original_message_id]
            self._apply_edit(original, {k: v for k, v in body.items() if k != "flags"}, call.files)
            original["flags"] = original.get("flags", 0) & ~FLAG_LOADING
            state.deferred_loading = False
            self._emit_message("MESSAGE_UPDATE", original)
            message = original
        else:
            message = self._new_message(
                state.channel_id,
                body,
                call.files,
                msg_type=0,
                webhook_id=state.application_id,
                interaction=state,
                original_response_message_id=state.original_message_id,
            )
            self._store_message(message)
            state.followup_ids.append(int(message["id"]))
            self._emit_message("MESSAGE_CREATE", message)
        if call.query.get("wait", "1").lower() in ("0", "false"):
            return FakeResponse(None)
        return FakeResponse(copy.deepcopy(message))

    def _webhook_target(self, call: _Call) -> tuple[InteractionState, JSON]:
        state = self._interaction_for_webhook(call)
        raw = call.params["message_id"]
        if raw == "@original":
            mid = state.original_message_id
        else:
            mid = int(raw)
            if mid != state.original_message_id and mid not in state.followup_ids:
                mid = None
        if mid is None or mid not in self.messages:
            raise ApiError(404, 10008, "Unknown Message")
        return state, self.messages[mid]

    async def _webhook_message_get(self, call: _Call) -> FakeResponse:
        return FakeResponse(copy.deepcopy(self._webhook_target(call)[1]))

    async def _webhook_message_edit(self, call: _Call) -> FakeResponse:
        state, message = self._webhook_target(call)
        self._refuse_in_archived(int(message["channel_id"]))
        body = call.json or {}
        self._validate_message(body, call.files, creating=False)
        self._apply_edit(message, body, call.files)
        if state.deferred_loading and int(message["id"]) == state.original_message_id:
            message["flags"] = message.get("flags", 0) & ~FLAG_LOADING
            state.deferred_loading = False
        self._emit_message("MESSAGE_UPDATE", message)
        return FakeResponse(copy.deepcopy(message))

    async def _webhook_message_delete(self, call: _Call) -> FakeResponse:
        _, message = self._webhook_target(call)
        self._delete_stored_message(message)
        return FakeResponse(None)

    # -------------------------------------------------------------- channels

    async def _get_channel(self, call: _Call) -> FakeResponse:
        return FakeResponse(copy.deepcopy(self._require_channel(call.params["channel_id"])))

    async def _edit_channel(self, call: _Call) -> FakeResponse:
        channel = self._require_channel(call.params["channel_id"])
        body = dict(call.json or {})
        meta = channel.get("thread_metadata")
        if meta is not None and body == {"archived": False}:
            # Unarchiving a thread that is not locked takes Send Messages in Threads only.
            if meta.get("locked"):
                self._require_perm(channel, p.MANAGE_THREADS, "Manage Threads")
            self._require_perm(channel, p.SEND_IN_THREADS, "Send Messages in Threads")
            self._wake_thread(channel)
            return FakeResponse(copy.deepcopy(channel))
        self._require_perm(channel, p.MANAGE_CHANNELS, "Manage Channels")
        if "permission_overwrites" in body:
            body["permission_overwrites"] = [
                self._norm_overwrite(o) for o in body["permission_overwrites"] or []
            ]
        for key in ("parent_id",):
            if key in body and body[key] is not None:
                body[key] = str(body[key])
        if channel["type"] in (p.PUBLIC_THREAD, p.PRIVATE_THREAD):
            meta = channel["thread_metadata"]
            for key in ("archived", "locked", "auto_archive_duration", "invitable"):
                if key in body:
                    meta[key] = body.pop(key)
        channel.update(body)
        self._emit(
            "THREAD_UPDATE" if "thread_metadata" in channel else "CHANNEL_UPDATE",
            channel,
        )
        return FakeResponse(copy.deepcopy(channel))

    async def _delete_channel(self, call: _Call) -> FakeResponse:
        channel = self._require_channel(call.params["channel_id"])
        is_thread = channel["type"] in (p.PUBLIC_THREAD, p.PRIVATE_THREAD)
        perm = p.MANAGE_THREADS if is_thread else p.MANAGE_CHANNELS
        self._require_perm(channel, perm, "Manage Channels")
        del self.channels[int(channel["id"])]
        self._emit("THREAD_DELETE" if is_thread else "CHANNEL_DELETE", channel)
        return FakeResponse(copy.deepcopy(channel))

    @staticmethod
    def _norm_overwrite(o: Mapping[str, Any]) -> JSON:
        return {
            "id": str(o["id"]),
            "type": int(o.get("type", 0)),
            "allow": str(o.get("allow", 0)),
            "deny": str(o.get("deny", 0)),
        }

    async def _put_overwrite(self, call: _Call) -> FakeResponse:
        channel = self._require_channel(call.params["channel_id"])
        self._require_perm(channel, p.MANAGE_ROLES, "Manage Roles")
        ow = self._norm_overwrite({"id": call.params["target_id"], **(call.json or {})})
        overwrites = [o for o in channel.get("permission_overwrites", []) if o["id"] != ow["id"]]
        overwrites.append(ow)
        channel["permission_overwrites"] = overwrites
        self._emit("CHANNEL_UPDATE", channel)
        return FakeResponse(None)

    async def _delete_overwrite(self, call: _Call) -> FakeResponse:
        channel = self._require_channel(call.params["channel_id"])
        self._require_perm(channel, p.MANAGE_ROLES, "Manage Roles")
        channel["permission_overwrites"] = [
            o
            for o in channel.get("permission_overwrites", [])
            if o["id"] != call.params["target_id"]
        ]
        self._emit("CHANNEL_UPDATE", channel)
        return FakeResponse(None)

    async def _list_messages(self, call: _Call) -> FakeResponse:
        """As Discord answers: at most 100 messages a page (a larger ``limit`` is refused),
        newest first; ``before``: the newest ones older than it; ``after``: the OLDEST ones
        newer than it (still newest first: the caller pages on from the first)."""
        channel = self._require_channel(call.params["channel_id"])
        self._require_perm(channel, p.READ_HISTORY, "Read Message History")
        msgs = self.messages_in(int(channel["id"]), include_ephemeral=False)
        limit = _query_int(call.query, "limit")
        limit = 50 if limit is None else limit
        if not 1 <= limit <= 100:
            raise ApiError(400, 50035, "Invalid Form Body", _field_error("limit", "1 to 100"))
        before = _query_int(call.query, "before")
        after = _query_int(call.query, "after")
        if before is not None:
            msgs = [m for m in msgs if int(m["id"]) < before]
        if after is not None:
            msgs = [m for m in msgs if int(m["id"]) > after][:limit]
        newest_first = list(reversed(msgs))[:limit]
        return FakeResponse(copy.deepcopy(newest_first))

    async def _create_message(self, call: _Call) -> FakeResponse:
        channel = self._require_channel(call.params["channel_id"])
        need = (
            p.SEND
            if channel["type"] not in (p.PUBLIC_THREAD, p.PRIVATE_THREAD)
            else p.SEND_IN_THREADS
        )
        self._require_perm(channel, need, "Send Messages")
        if channel["type"] == p.DM and not self._shares_a_server(channel):
            raise ApiError(403, 50007, "Cannot send messages to this user")
        body = call.json or {}
        self._validate_message(body, call.files, creating=True)
        nonce = body.get("nonce")
        if nonce is not None and body.get("enforce_nonce"):
            # Discord: a message of the same author with this nonce, made in the last few
            # minutes, is returned, and no new one is created; an older one is forgotten.
            edge = self.clock() - self.nonce_seconds
            for mid in self.channel_messages.get(int(channel["id"]), []):
                known = self.messages.get(mid)
                if (
                    known is not None
                    and known.get("nonce") == nonce
                    and self._created.get(mid, edge) >= edge
                ):
                    return FakeResponse(copy.deepcopy(known))
        self._wake_thread(channel)
        message = self._new_message(int(channel["id"]), body, call.files)
        self._store_message(message)
        self._emit_message("MESSAGE_CREATE", message)
        return FakeResponse(message)  # sent (and recorded) as it is now by _dispatch

    def _channel_message(self, call: _Call) -> JSON:
        self._require_channel(call.params["channel_id"])
        message = self.messages.get(int(call.params["message_id"]))
        if (
            message is None
            or message["channel_id"] != call.params["channel_id"]
            or message.get("flags", 0) & FLAG_EPHEMERAL
        ):
            raise ApiError(404, 10008, "Unknown Message")
        return message

    async def _get_message(self, call: _Call) -> FakeResponse:
        return FakeResponse(copy.deepcopy(self._channel_message(call)))

    def _shares_a_server(self, dm: JSON) -> bool:
        """Whether the bot shares a server with a DM's recipient (else Discord refuses)."""
        user = int(dm["recipients"][0]["id"])
        bot = int(self.bot_user["id"])
        return any(bot in members and user in members for members in self.members.values())

    async def _edit_message(self, call: _Call) -> FakeResponse:
        message = self._channel_message(call)
        self._refuse_in_archived(int(message["channel_id"]))
        if message["author"]["id"] != self.bot_user["id"]:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        body = call.json or {}
        self._validate_message(body, call.files, creating=False)
        self._apply_edit(message, body, call.files)
        self._emit_message("MESSAGE_UPDATE", message)
        return FakeResponse(message)  # sent (and recorded) as it is now by _dispatch

    async def _delete_message(self, call: _Call) -> FakeResponse:
        message = self._channel_message(call)
        if message["author"]["id"] != self.bot_user["id"]:
            channel = self.channels[int(message["channel_id"])]
            self._require_perm(channel, p.MANAGE_MESSAGES, "Manage Messages")
        self._delete_stored_message(message)
        return FakeResponse(None)

    async def _bulk_delete(self, call: _Call) -> FakeResponse:
        self._require_channel(call.params["channel_id"])
        for mid in (call.json or {}).get("messages", []):
            message = self.messages.get(int(mid))
            if message is not None:
                self._delete_stored_message(message)
        return FakeResponse(None)

    async def _list_pins(self, call: _Call) -> FakeResponse:
        self._require_channel(call.params["channel_id"])
        return FakeResponse({"items": [], "has_more": False})

    async def _add_reaction(self, call: _Call) -> FakeResponse:
        message = self._channel_message(call)
        self.reactions.append(
            (int(message["channel_id"]), int(message["id"]), call.params["emoji"])
        )
        return FakeResponse(None)

    async def _create_thread(self, call: _Call) -> FakeResponse:
        parent = self._require_channel(call.params["channel_id"])
        body = call.json or {}
        private = (
            int(body.get("type", p.PUBLIC_THREAD)) == p.PRIVATE_THREAD
            and "message_id" not in call.params
        )
        thread = p.thread_channel(
            parent["guild_id"],
            parent["id"],
            str(body.get("name", "thread")),
            owner_id=self.bot_user["id"],
            id=call.params.get("message_id"),
            private=private,
            auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
        )
        self.add_channel(thread)
        self._thread_active[int(thread["id"])] = self.clock()
        self._emit("THREAD_CREATE", {**thread, "newly_created": True})
        return FakeResponse(copy.deepcopy(thread), 201)

    # ---------------------------------------------------------------- guilds

    async def _get_guild(self, call: _Call) -> FakeResponse:
        gid = self._require_guild(call.params["guild_id"])
        meta = copy.deepcopy(self.guilds[gid])
        for key in ("members", "channels", "threads", "voice_states", "presences"):
            meta.pop(key, None)
        return FakeResponse(meta)

    def _guild_channels(self, gid: int) -> list[JSON]:
        return [
            c
            for c in self.channels.values()
            if c.get("guild_id") == str(gid)
            and c["type"] not in (p.PUBLIC_THREAD, p.PRIVATE_THREAD)
        ]

    async def _list_guild_channels(self, call: _Call) -> FakeResponse:
        gid = self._require_guild(call.params["guild_id"])
        return FakeResponse(copy.deepcopy(self._guild_channels(gid)))

    async def _create_guild_channel(self, call: _Call) -> FakeResponse:
        gid = self._require_guild(call.params["guild_id"])
        self._require_perm(gid, p.MANAGE_CHANNELS, "Manage Channels")
        body = dict(call.json or {})
        name = str(body.get("name", ""))
        if not 1 <= len(name) <= 100:
            raise ApiError(400, 50035, "Invalid Form Body (name must be 1..100 characters)")
        ctype = int(body.get("type", p.GUILD_TEXT))
        parent_id = body.get("parent_id")
        if parent_id is not None:
            parent = self.channels.get(int(parent_id))
            if parent is None or parent["type"] != p.GUILD_CATEGORY:
                raise ApiError(400, 50035, "Invalid Form Body (parent_id is not a category)")
        overwrites = [self._norm_overwrite(o) for o in body.get("permission_overwrites", []) or []]
        position = body.get("position")
        if position is None:
            position = len([c for c in self._guild_channels(gid) if c["type"] == ctype])
        if ctype == p.GUILD_CATEGORY:
            channel = p.category_channel(
                gid, name, position=position, permission_overwrites=overwrites
            )
        elif ctype == p.GUILD_VOICE:
            channel = p.voice_channel(
                gid,
                name,
                position=position,
                parent_id=parent_id,
                user_limit=int(body.get("user_limit") or 0),
                permission_overwrites=overwrites,
            )
        else:
            channel = p.text_channel(
                gid,
                name if ctype != p.GUILD_TEXT else name.lower().replace(" ", "-"),
                position=position,
                parent_id=parent_id,
                topic=body.get("topic"),
                permission_overwrites=overwrites,
            )
            channel["type"] = ctype
        for key in ("nsfw", "rate_limit_per_user", "bitrate", "rtc_region"):
            if key in body and body[key] is not None:
                channel[key] = body[key]
        self.add_channel(channel)
        self._emit("CHANNEL_CREATE", channel)
        return FakeResponse(copy.deepcopy(channel), 201)

    async def _move_channels(self, call: _Call) -> FakeResponse:
        gid = self._require_guild(call.params["guild_id"])
        self._require_perm(gid, p.MANAGE_CHANNELS, "Manage Channels")
        for item in call.json or []:
            channel = self.channels.get(int(item["id"]))
            if channel is None:
                continue
            for key in ("position", "parent_id", "lock_permissions"):
                if key in item and key != "lock_permissions":
                    channel[key] = (
                        str(item[key])
                        if key == "parent_id" and item[key] is not None
                        else item[key]
                    )
            self._emit("CHANNEL_UPDATE", channel)
        return FakeResponse(None)

    async def _list_roles(self, call: _Call) -> FakeResponse:
        gid = self._require_guild(call.params["guild_id"])
        return FakeResponse(copy.deepcopy(self.guilds[gid].get("roles", [])))

    async def _create_role(self, call: _Call) -> FakeResponse:
        gid = self._require_guild(call.params["guild_id"])
        self._require_perm(gid, p.MANAGE_ROLES, "Manage Roles")
        body = call.json or {}
        roles = self.guilds[gid].setdefault("roles", [])
        new = p.role(
            str(body.get("name", "new role")),
            permissions=int(body.get("permissions") or 0),
            position=len(roles),
        )
        roles.append(new)
        self._emit("GUILD_ROLE_CREATE", {"guild_id": str(gid), "role": new})
        return FakeResponse(copy.deepcopy(new))

    def _guild_member(self, call: _Call) -> tuple[int, JSON]:
        gid = self._require_guild(call.params["guild_id"])
        m = self.members[gid].get(int(call.params["user_id"]))
        if m is None:
            raise ApiError(404, 10007, "Unknown Member")
        return gid, m

    async def _list_members(self, call: _Call) -> FakeResponse:
        gid = self._require_guild(call.params["guild_id"])
        limit = int(call.query.get("limit", 1))
        after = int(call.query.get("after", 0))
        members = sorted(self.members[gid].values(), key=lambda m: int(m["user"]["id"]))
        members = [m for m in members if int(m["user"]["id"]) > after][:limit]
        return FakeResponse(copy.deepcopy(members))

    async def _get_member(self, call: _Call) -> FakeResponse:
        return FakeResponse(copy.deepcopy(self._guild_member(call)[1]))

    def _emit_member(self, gid: int, m: JSON) -> None:
        self._emit("GUILD_MEMBER_UPDATE", {"guild_id": str(gid), **m})

    async def _edit_member(self, call: _Call) -> FakeResponse:
        gid, m = self._guild_member(call)
        body = call.json or {}
        if "nick" in body:
            m["nick"] = body["nick"]
        if "roles" in body:
            m["roles"] = [str(r) for r in body["roles"]]
        self._emit_member(gid, m)
        return FakeResponse(copy.deepcopy(m))

    async def _add_member_role(self, call: _Call) -> FakeResponse:
        gid, m = self._guild_member(call)
        self._require_perm(gid, p.MANAGE_ROLES, "Manage Roles")
        rid = call.params["role_id"]
        if rid not in m["roles"]:
            m["roles"].append(rid)
        self._emit_member(gid, m)
        return FakeResponse(None)

    async def _remove_member_role(self, call: _Call) -> FakeResponse:
        gid, m = self._guild_member(call)
        self._require_perm(gid, p.MANAGE_ROLES, "Manage Roles")
        rid = call.params["role_id"]
        if rid in m["roles"]:
            m["roles"].remove(rid)
        self._emit_member(gid, m)
        return FakeResponse(None)


def iter_requests(requests: Iterable[RecordedRequest], **match: Any) -> list[RecordedRequest]:
    """Filter a list of recorded requests with :meth:`FakeDiscord.matches` kwargs."""
    return [r for r in requests if FakeDiscord.matches(r, **match)]

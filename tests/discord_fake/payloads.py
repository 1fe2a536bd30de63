"""Builders for raw Discord gateway / REST payloads used by the fake.

Everything here returns plain ``dict`` objects shaped exactly like the JSON
Discord sends, so discord.py's real parsing code consumes them unchanged.
The builders are pure: they never talk to the fake server.  ``harness.py``
wraps them with sensible defaults (current guild, channel, member, ...).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

JSON = dict[str, Any]

#: Attachment size limit Discord sends for unboosted guilds (10 MiB).
DEFAULT_ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024

# Interaction types.
PING = 1
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
APPLICATION_COMMAND_AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

# Component types.
ACTION_ROW = 1
BUTTON = 2
STRING_SELECT = 3
TEXT_INPUT = 4
USER_SELECT = 5
ROLE_SELECT = 6
MENTIONABLE_SELECT = 7
CHANNEL_SELECT = 8

# Application command option types.
OPT_SUB_COMMAND = 1
OPT_SUB_COMMAND_GROUP = 2
OPT_STRING = 3
OPT_INTEGER = 4
OPT_BOOLEAN = 5
OPT_USER = 6
OPT_CHANNEL = 7
OPT_ROLE = 8
OPT_NUMBER = 10

# Channel types.
GUILD_TEXT = 0
DM = 1
GUILD_VOICE = 2
GUILD_CATEGORY = 4
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12

ALL_PERMISSIONS: int = discord.Permissions.all().value
ADMINISTRATOR: int = discord.Permissions(administrator=True).value
MANAGE_CHANNELS: int = discord.Permissions(manage_channels=True).value
MANAGE_ROLES: int = discord.Permissions(manage_roles=True).value
MANAGE_THREADS: int = discord.Permissions(manage_threads=True).value
MANAGE_MESSAGES: int = discord.Permissions(manage_messages=True).value
SEND: int = discord.Permissions(view_channel=True, send_messages=True).value
SEND_IN_THREADS: int = discord.Permissions(view_channel=True, send_messages_in_threads=True).value
READ_HISTORY: int = discord.Permissions(view_channel=True, read_message_history=True).value

#: What ``@everyone`` can do in the default test guild.
EVERYONE_PERMISSIONS: int = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    add_reactions=True,
    use_external_emojis=True,
    use_application_commands=True,
    connect=True,
    speak=True,
).value

#: Realistic (non-administrator) permissions for the bot's managed role.
BOT_PERMISSIONS: int = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    create_private_threads=True,
    manage_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    add_reactions=True,
    use_external_emojis=True,
    manage_messages=True,
    manage_channels=True,
    manage_roles=True,
    move_members=True,
    connect=True,
).value

_last_snowflake = 0


def snowflake() -> int:
    """Return a new unique, monotonically increasing snowflake for *now*.

    Ids encode the current time (like real ones) so ``created_at`` and
    ``Interaction.is_expired()`` behave sensibly.
    """
    global _last_snowflake
    candidate = discord.utils.time_snowflake(discord.utils.utcnow())
    _last_snowflake = max(_last_snowflake + 1, candidate)
    return _last_snowflake


def iso_now() -> str:
    """Current UTC time as the ISO-8601 string Discord uses."""
    return discord.utils.utcnow().isoformat()


def iso_from_snowflake(value: int | str) -> str:
    """ISO timestamp encoded in a snowflake (Discord message timestamps)."""
    return discord.utils.snowflake_time(int(value)).isoformat()


def _sid(value: int | str | None) -> str:
    return str(value if value is not None else snowflake())


# --------------------------------------------------------------------------
# Users, roles, members
# --------------------------------------------------------------------------


def user(
    username: str = "user",
    *,
    id: int | str | None = None,
    bot: bool = False,
    global_name: str | None = None,
) -> JSON:
    """A user object (``/users/@me`` shape when ``bot=True``)."""
    payload: JSON = {
        "id": _sid(id),
        "username": username,
        "discriminator": "0",
        "global_name": global_name if global_name is not None else (None if bot else username),
        "avatar": None,
        "public_flags": 0,
        "flags": 0,
        "bot": bot,
    }
    if bot:
        payload.update({"verified": True, "mfa_enabled": False, "locale": "en-US"})
    return payload


def role(
    name: str,
    *,
    id: int | str | None = None,
    permissions: int | discord.Permissions = 0,
    position: int = 1,
    managed: bool = False,
    bot_id: int | str | None = None,
) -> JSON:
    """A guild role.  The ``@everyone`` role has the guild's id and position 0."""
    perms = permissions.value if isinstance(permissions, discord.Permissions) else permissions
    payload: JSON = {
        "id": _sid(id),
        "name": name,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "position": position,
        "permissions": str(perms),
        "managed": managed,
        "mentionable": False,
        "flags": 0,
    }
    if bot_id is not None:
        payload["tags"] = {"bot_id": str(bot_id)}
    return payload


def member(
    user_payload: Mapping[str, Any],
    *,
    roles: Iterable[int | str] = (),
    nick: str | None = None,
    joined_at: str | None = None,
) -> JSON:
    """A guild member (gateway ``GUILD_CREATE`` / REST shape, with ``user``)."""
    return {
        "user": dict(user_payload),
        "roles": [str(r) for r in roles],
        "nick": nick,
        "avatar": None,
        "banner": None,
        "joined_at": joined_at or iso_now(),
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,
        "communication_disabled_until": None,
    }


# --------------------------------------------------------------------------
# Channels
# --------------------------------------------------------------------------


def overwrite(target_id: int | str, *, type: int = 0, allow: int = 0, deny: int = 0) -> JSON:
    """A permission overwrite (``type`` 0 = role, 1 = member)."""
    return {"id": str(target_id), "type": type, "allow": str(allow), "deny": str(deny)}


def text_channel(
    guild_id: int | str,
    name: str = "general",
    *,
    id: int | str | None = None,
    position: int = 0,
    parent_id: int | str | None = None,
    topic: str | None = None,
    permission_overwrites: Sequence[Mapping[str, Any]] = (),
) -> JSON:
    """A guild text channel."""
    return {
        "id": _sid(id),
        "type": GUILD_TEXT,
        "guild_id": str(guild_id),
        "name": name,
        "position": position,
        "permission_overwrites": [dict(o) for o in permission_overwrites],
        "parent_id": str(parent_id) if parent_id is not None else None,
        "topic": topic,
        "nsfw": False,
        "rate_limit_per_user": 0,
        "last_message_id": None,
        "flags": 0,
    }


def category_channel(
    guild_id: int | str,
    name: str = "Category",
    *,
    id: int | str | None = None,
    position: int = 0,
    permission_overwrites: Sequence[Mapping[str, Any]] = (),
) -> JSON:
    """A guild category channel."""
    return {
        "id": _sid(id),
        "type": GUILD_CATEGORY,
        "guild_id": str(guild_id),
        "name": name,
        "position": position,
        "permission_overwrites": [dict(o) for o in permission_overwrites],
        "parent_id": None,
        "nsfw": False,
        "flags": 0,
    }


def voice_channel(
    guild_id: int | str,
    name: str = "Voice",
    *,
    id: int | str | None = None,
    position: int = 0,
    parent_id: int | str | None = None,
    user_limit: int = 0,
    permission_overwrites: Sequence[Mapping[str, Any]] = (),
) -> JSON:
    """A guild voice channel."""
    return {
        "id": _sid(id),
        "type": GUILD_VOICE,
        "guild_id": str(guild_id),
        "name": name,
        "position": position,
        "permission_overwrites": [dict(o) for o in permission_overwrites],
        "parent_id": str(parent_id) if parent_id is not None else None,
        "nsfw": False,
        "bitrate": 64000,
        "user_limit": user_limit,
        "rtc_region": None,
        "video_quality_mode": 1,
        "rate_limit_per_user": 0,
        "last_message_id": None,
        "flags": 0,
    }


def thread_channel(
    guild_id: int | str,
    parent_id: int | str,
    name: str,
    *,
    owner_id: int | str,
    id: int | str | None = None,
    private: bool = False,
    auto_archive_duration: int = 1440,
) -> JSON:
    """A public or private thread."""
    return {
        "id": _sid(id),
        "type": PRIVATE_THREAD if private else PUBLIC_THREAD,
        "guild_id": str(guild_id),
        "parent_id": str(parent_id),
        "owner_id": str(owner_id),
        "name": name,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "message_count": 0,
        "member_count": 1,
        "total_message_sent": 0,
        "flags": 0,
        "thread_metadata": {
            "archived": False,
            "auto_archive_duration": auto_archive_duration,
            "archive_timestamp": iso_now(),
            "locked": False,
            "invitable": True,
            "create_timestamp": iso_now(),
        },
    }


def dm_channel(recipient: Mapping[str, Any], *, id: int | str | None = None) -> JSON:
    """A DM channel with one recipient."""
    return {
        "id": _sid(id),
        "type": DM,
        "recipients": [dict(recipient)],
        "last_message_id": None,
        "flags": 0,
    }


# --------------------------------------------------------------------------
# Guilds and permissions
# --------------------------------------------------------------------------


def guild(
    name: str = "Test Guild",
    *,
    id: int | str | None = None,
    owner_id: int | str,
    roles: Sequence[Mapping[str, Any]] = (),
    channels: Sequence[Mapping[str, Any]] = (),
    members: Sequence[Mapping[str, Any]] = (),
    everyone_permissions: int = EVERYONE_PERMISSIONS,
) -> JSON:
    """A full gateway guild (``GUILD_CREATE``/``READY`` shape).

    An ``@everyone`` role (id == guild id) is added when missing, and
    ``member_count`` equals ``len(members)`` so discord.py treats the guild as
    fully chunked and never tries to request members over the (absent)
    gateway.
    """
    gid = _sid(id)
    role_list = [dict(r) for r in roles]
    if not any(r["id"] == gid for r in role_list):
        role_list.insert(0, role("@everyone", id=gid, permissions=everyone_permissions, position=0))
    channel_list = []
    for channel in channels:
        c = dict(channel)
        c["guild_id"] = gid
        channel_list.append(c)
    return {
        "id": gid,
        "name": name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": str(owner_id),
        "region": "us-west",
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": "en-US",
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "safety_alerts_channel_id": None,
        "vanity_url_code": None,
        "features": [],
        "roles": role_list,
        "emojis": [],
        "stickers": [],
        "channels": channel_list,
        "threads": [],
        "members": [dict(m) for m in members],
        "member_count": len(members),
        "voice_states": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
        "large": False,
        "unavailable": False,
        "joined_at": iso_now(),
        "lazy": True,
        "application_id": None,
        "premium_progress_bar_enabled": False,
        "incidents_data": None,
    }


def compute_permissions(
    guild_payload: Mapping[str, Any],
    member_payload: Mapping[str, Any],
    channel_payload: Mapping[str, Any] | None = None,
) -> int:
    """Discord's permission algorithm: base role permissions plus overwrites.

    Owner and Administrator get everything.  Threads inherit their parent's
    overwrites when the parent is supplied via ``channel_payload``.
    """
    gid = str(guild_payload["id"])
    uid = str(member_payload["user"]["id"])
    if str(guild_payload.get("owner_id")) == uid:
        return ALL_PERMISSIONS
    roles = {str(r["id"]): r for r in guild_payload.get("roles", [])}
    member_roles = [str(r) for r in member_payload.get("roles", [])]
    perms = int(roles[gid]["permissions"]) if gid in roles else 0
    for rid in member_roles:
        if rid in roles:
            perms |= int(roles[rid]["permissions"])
    if perms & ADMINISTRATOR:
        return ALL_PERMISSIONS
    if channel_payload is None:
        return perms
    overwrites = {str(o["id"]): o for o in channel_payload.get("permission_overwrites", []) or []}
    everyone = overwrites.get(gid)
    if everyone is not None:
        perms = (perms & ~int(everyone["deny"])) | int(everyone["allow"])
    allow = deny = 0
    for rid in member_roles:
        ow = overwrites.get(rid)
        if ow is not None and int(ow.get("type", 0)) == 0:
            allow |= int(ow["allow"])
            deny |= int(ow["deny"])
    perms = (perms & ~deny) | allow
    own = overwrites.get(uid)
    if own is not None and int(own.get("type", 1)) == 1:
        perms = (perms & ~int(own["deny"])) | int(own["allow"])
    return perms


@dataclass
class TestGuild:
    """A ready-made guild: owner, a manager (Manage Channels), a plain member.

    Attributes hold the raw payloads; ``payload`` is the full gateway guild.
    """

    __test__ = False  # not a pytest test class

    payload: JSON
    bot_member: JSON
    owner: JSON
    manager: JSON
    member: JSON
    everyone_role: JSON
    manager_role: JSON
    bot_role: JSON
    category: JSON
    text_channel: JSON
    voice_channel: JSON
    extra: dict[str, JSON] = field(default_factory=dict)

    @property
    def id(self) -> int:
        """Guild id."""
        return int(self.payload["id"])

    @property
    def channel_id(self) -> int:
        """Id of the default ``#general`` text channel."""
        return int(self.text_channel["id"])


def build_test_guild(
    bot_user: Mapping[str, Any],
    *,
    name: str = "Test Guild",
    bot_permissions: int = BOT_PERMISSIONS,
    everyone_permissions: int = EVERYONE_PERMISSIONS,
) -> TestGuild:
    """Build the default test guild containing the bot.

    * ``owner`` - guild owner (implicitly all permissions)
    * ``manager`` - has a "Manager" role with Manage Channels
    * ``member`` - plain member without Manage Channels
    * channels: a category, ``#general`` inside it, and a voice channel
    """
    gid = snowflake()
    owner_user = user("owner")
    manager_user = user("manager")
    member_user = user("member")
    everyone = role("@everyone", id=gid, permissions=everyone_permissions, position=0)
    manager_role = role("Manager", permissions=everyone_permissions | MANAGE_CHANNELS, position=1)
    bot_role = role(
        str(bot_user["username"]),
        permissions=bot_permissions,
        position=2,
        managed=True,
        bot_id=bot_user["id"],
    )
    bot_member = member(bot_user, roles=[bot_role["id"]])
    owner = member(owner_user)
    manager = member(manager_user, roles=[manager_role["id"]])
    plain = member(member_user)
    category = category_channel(gid, "Text Channels", position=0)
    text = text_channel(gid, "general", position=0, parent_id=category["id"])
    voice = voice_channel(gid, "Voice", position=1, parent_id=category["id"])
    payload = guild(
        name,
        id=gid,
        owner_id=owner_user["id"],
        roles=[everyone, manager_role, bot_role],
        channels=[category, text, voice],
        members=[bot_member, owner, manager, plain],
    )
    return TestGuild(
        payload=payload,
        bot_member=bot_member,
        owner=owner,
        manager=manager,
        member=plain,
        everyone_role=everyone,
        manager_role=manager_role,
        bot_role=bot_role,
        category=category,
        text_channel=text,
        voice_channel=voice,
    )


def ready(
    bot_user: Mapping[str, Any],
    *,
    application_id: int | str,
    guilds: Sequence[Mapping[str, Any]] = (),
) -> JSON:
    """A gateway ``READY`` payload embedding full guild objects."""
    return {
        "v": 10,
        "user": dict(bot_user),
        "guilds": [dict(g) for g in guilds],
        "session_id": "fake-session",
        "resume_gateway_url": "wss://127.0.0.1.invalid",
        "application": {"id": str(application_id), "flags": 0},
        "private_channels": [],
        "relationships": [],
        "user_settings": {},
    }


# --------------------------------------------------------------------------
# Interactions
# --------------------------------------------------------------------------

_token_counter = itertools.count(1)


def option(name: str, value: Any = None, *, type: int | None = None, focused: bool = False) -> JSON:
    """A chat-input option value.  ``type`` is inferred for str/int/float/bool."""
    if type is None:
        if isinstance(value, bool):
            type = OPT_BOOLEAN
        elif isinstance(value, int):
            type = OPT_INTEGER
        elif isinstance(value, float):
            type = OPT_NUMBER
        else:
            type = OPT_STRING
    payload: JSON = {"name": name, "type": type, "value": value}
    if focused:
        payload["focused"] = True
    return payload


def _classify_entity(value: Mapping[str, Any]) -> int | None:
    if "user" in value and "roles" in value:
        return OPT_USER  # member
    if "username" in value:
        return OPT_USER  # bare user
    if "type" in value and "name" in value and ("guild_id" in value or "recipients" in value):
        return OPT_CHANNEL
    if "permissions" in value and "name" in value and "position" in value:
        return OPT_ROLE
    return None


def build_options(
    options: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None,
    *,
    focused: str | None = None,
    guild_payload: Mapping[str, Any] | None = None,
    member_for_perms: Mapping[str, Any] | None = None,
) -> tuple[list[JSON], JSON]:
    """Turn ``{"name": value}`` into option dicts plus ``resolved`` data.

    Values that are member/user/channel/role payloads become snowflake
    options of the right type and are added to ``resolved``.  Pre-built option
    dicts (from :func:`option`) pass through.
    """
    resolved: JSON = {}
    result: list[JSON] = []
    if options is None:
        return result, resolved
    items: list[Mapping[str, Any]]
    if isinstance(options, Mapping):
        items = [{"__name": k, "__value": v} for k, v in options.items()]
    else:
        items = list(options)
    for item in items:
        if "__name" not in item:
            opt = dict(item)
            if focused is not None and opt.get("name") == focused:
                opt["focused"] = True
            result.append(opt)
            continue
        name, value = item["__name"], item["__value"]
        kind = _classify_entity(value) if isinstance(value, Mapping) else None
        if isinstance(value, Mapping) and kind is not None:
            if kind == OPT_USER:
                u = value.get("user", value)
                resolved.setdefault("users", {})[str(u["id"])] = dict(u)
                if "user" in value:
                    m = {k: v for k, v in value.items() if k != "user"}
                    if guild_payload is not None:
                        m["permissions"] = str(compute_permissions(guild_payload, value))
                    resolved.setdefault("members", {})[str(u["id"])] = m
                result.append(option(name, str(u["id"]), type=OPT_USER, focused=name == focused))
            elif kind == OPT_CHANNEL:
                ch = dict(value)
                perms = ALL_PERMISSIONS
                if guild_payload is not None and member_for_perms is not None:
                    perms = compute_permissions(guild_payload, member_for_perms, value)
                ch["permissions"] = str(perms)
                resolved.setdefault("channels", {})[str(value["id"])] = ch
                result.append(
                    option(
                        name,
                        str(value["id"]),
                        type=OPT_CHANNEL,
                        focused=name == focused,
                    )
                )
            else:
                resolved.setdefault("roles", {})[str(value["id"])] = dict(value)
                result.append(
                    option(name, str(value["id"]), type=OPT_ROLE, focused=name == focused)
                )
        else:
            result.append(option(name, value, focused=name == focused))
    return result, resolved


def command_data(
    name: str,
    *,
    options: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None = None,
    group: str | None = None,
    subcommand: str | None = None,
    command_id: int | str | None = None,
    command_guild_id: int | str | None = None,
    focused: str | None = None,
    guild_payload: Mapping[str, Any] | None = None,
    member_for_perms: Mapping[str, Any] | None = None,
) -> JSON:
    """``data`` of a chat-input command, nesting group/subcommand options."""
    leaf, resolved = build_options(
        options,
        focused=focused,
        guild_payload=guild_payload,
        member_for_perms=member_for_perms,
    )
    top: list[JSON] = leaf
    if subcommand is not None:
        top = [{"name": subcommand, "type": OPT_SUB_COMMAND, "options": leaf}]
    if group is not None:
        if subcommand is None:
            raise ValueError("a subcommand group needs a subcommand")
        top = [{"name": group, "type": OPT_SUB_COMMAND_GROUP, "options": top}]
    data: JSON = {"id": _sid(command_id), "name": name, "type": 1, "options": top}
    if resolved:
        data["resolved"] = resolved
    if command_guild_id is not None:
        data["guild_id"] = str(command_guild_id)
    return data


def interaction(
    type: int,
    *,
    application_id: int | str,
    channel: Mapping[str, Any],
    data: Mapping[str, Any] | None = None,
    guild_payload: Mapping[str, Any] | None = None,
    member_payload: Mapping[str, Any] | None = None,
    user_payload: Mapping[str, Any] | None = None,
    bot_member: Mapping[str, Any] | None = None,
    message: Mapping[str, Any] | None = None,
    locale: str = "en-US",
    app_permissions: int | None = None,
    member_permissions: int | None = None,
    id: int | str | None = None,
    token: str | None = None,
    attachment_size_limit: int = DEFAULT_ATTACHMENT_SIZE_LIMIT,
    entitlements: Sequence[Mapping[str, Any]] = (),
) -> JSON:
    """A raw ``INTERACTION_CREATE`` payload.

    In a guild pass ``guild_payload`` + ``member_payload``: ``member.permissions``,
    ``channel.permissions`` and ``app_permissions`` are computed from roles and
    overwrites unless given explicitly.  In a DM pass ``user_payload``.
    """
    iid = _sid(id)
    payload: JSON = {
        "id": iid,
        "application_id": str(application_id),
        "type": type,
        "token": token or f"fake-interaction-token-{iid}-{next(_token_counter)}",
        "version": 1,
        "locale": locale,
        "entitlements": [dict(e) for e in entitlements],
        "entitlement_sku_ids": [],
        "attachment_size_limit": attachment_size_limit,
    }
    if data is not None:
        payload["data"] = dict(data)
    ch = dict(channel)
    if guild_payload is not None:
        if member_payload is None:
            raise ValueError("guild interactions need member_payload")
        gid = str(guild_payload["id"])
        perms = member_permissions
        if perms is None:
            perms = compute_permissions(guild_payload, member_payload, channel)
        m = dict(member_payload)
        m["permissions"] = str(perms)
        if app_permissions is None:
            app_permissions = (
                compute_permissions(guild_payload, bot_member, channel)
                if bot_member is not None
                else ALL_PERMISSIONS
            )
        ch["permissions"] = str(perms)
        ch.setdefault("guild_id", gid)
        payload.update(
            {
                "guild_id": gid,
                "guild": {
                    "id": gid,
                    "locale": guild_payload.get("preferred_locale", "en-US"),
                    "features": list(guild_payload.get("features", [])),
                },
                "guild_locale": guild_payload.get("preferred_locale", "en-US"),
                "member": m,
                "app_permissions": str(app_permissions),
                "context": 0,
                "authorizing_integration_owners": {"0": gid},
            }
        )
    else:
        if user_payload is None:
            raise ValueError("DM interactions need user_payload")
        payload.update(
            {
                "user": dict(user_payload),
                "app_permissions": str(
                    app_permissions if app_permissions is not None else ALL_PERMISSIONS
                ),
                "context": 1,
                "authorizing_integration_owners": {"0": "0"},
            }
        )
    payload["channel"] = ch
    payload["channel_id"] = str(ch["id"])
    if message is not None:
        payload["message"] = dict(message)
    return payload


def slash_command(
    name: str,
    *,
    application_id: int | str,
    channel: Mapping[str, Any],
    options: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None = None,
    group: str | None = None,
    subcommand: str | None = None,
    command_id: int | str | None = None,
    command_guild_id: int | str | None = None,
    **context: Any,
) -> JSON:
    """``INTERACTION_CREATE`` for ``/name [group] [subcommand] options...``.

    Remaining keyword arguments go to :func:`interaction`.
    """
    data = command_data(
        name,
        options=options,
        group=group,
        subcommand=subcommand,
        command_id=command_id,
        command_guild_id=command_guild_id,
        guild_payload=context.get("guild_payload"),
        member_for_perms=context.get("member_payload"),
    )
    return interaction(
        APPLICATION_COMMAND,
        application_id=application_id,
        channel=channel,
        data=data,
        **context,
    )


def autocomplete(
    name: str,
    *,
    application_id: int | str,
    channel: Mapping[str, Any],
    focused: str,
    options: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None = None,
    group: str | None = None,
    subcommand: str | None = None,
    command_id: int | str | None = None,
    command_guild_id: int | str | None = None,
    **context: Any,
) -> JSON:
    """Autocomplete (type 4) interaction; ``focused`` names the option being typed.

    The focused option must be present in ``options`` (its partial value,
    usually a string).
    """
    data = command_data(
        name,
        options=options,
        group=group,
        subcommand=subcommand,
        command_id=command_id,
        command_guild_id=command_guild_id,
        focused=focused,
        guild_payload=context.get("guild_payload"),
        member_for_perms=context.get("member_payload"),
    )
    if not _has_focused(data.get("options", [])):
        raise ValueError(f"focused option {focused!r} is not among the options")
    return interaction(
        APPLICATION_COMMAND_AUTOCOMPLETE,
        application_id=application_id,
        channel=channel,
        data=data,
        **context,
    )


def _has_focused(options: Sequence[Mapping[str, Any]]) -> bool:
    for opt in options:
        if opt.get("focused"):
            return True
        if _has_focused(opt.get("options", [])):
            return True
    return False


def component_interaction(
    custom_id: str,
    *,
    application_id: int | str,
    channel: Mapping[str, Any],
    message: Mapping[str, Any],
    component_type: int = BUTTON,
    values: Sequence[str] | None = None,
    resolved: Mapping[str, Any] | None = None,
    **context: Any,
) -> JSON:
    """Component (type 3) interaction for a button or select on ``message``."""
    data: JSON = {"custom_id": custom_id, "component_type": component_type}
    if values is not None:
        data["values"] = list(values)
    if resolved is not None:
        data["resolved"] = dict(resolved)
    return interaction(
        MESSAGE_COMPONENT,
        application_id=application_id,
        channel=channel,
        data=data,
        message=message,
        **context,
    )


def button_click(custom_id: str, **kwargs: Any) -> JSON:
    """A button click; see :func:`component_interaction` for arguments."""
    return component_interaction(custom_id, component_type=BUTTON, **kwargs)


def string_select(custom_id: str, values: Sequence[str], **kwargs: Any) -> JSON:
    """A string select choice; see :func:`component_interaction` for arguments."""
    return component_interaction(custom_id, component_type=STRING_SELECT, values=values, **kwargs)


def modal_submit(
    custom_id: str,
    fields: Mapping[str, str],
    *,
    application_id: int | str,
    channel: Mapping[str, Any],
    message: Mapping[str, Any] | None = None,
    **context: Any,
) -> JSON:
    """Modal submit (type 5) with text input values keyed by custom_id."""
    components = [
        {
            "type": ACTION_ROW,
            "components": [{"type": TEXT_INPUT, "custom_id": cid, "value": value}],
        }
        for cid, value in fields.items()
    ]
    data = {"custom_id": custom_id, "components": components}
    return interaction(
        MODAL_SUBMIT,
        application_id=application_id,
        channel=channel,
        data=data,
        message=message,
        **context,
    )


# --------------------------------------------------------------------------
# Component lookup helpers
# --------------------------------------------------------------------------


def iter_components(
    components: Iterable[Mapping[str, Any]],
) -> Iterable[Mapping[str, Any]]:
    """Yield every component, descending into rows, containers and sections."""
    for comp in components:
        yield comp
        yield from iter_components(comp.get("components", []) or [])
        accessory = comp.get("accessory")
        if accessory:
            yield from iter_components([accessory])


def find_component(
    message: Mapping[str, Any],
    custom_id: str | None = None,
    *,
    label: str | None = None,
    type: int | None = None,
) -> JSON:
    """Find an interactive component in a message by custom_id and/or label."""
    if custom_id is None and label is None:
        raise ValueError("give custom_id or label")
    candidates = []
    for comp in iter_components(message.get("components", []) or []):
        if "custom_id" not in comp and comp.get("type") not in (BUTTON,):
            continue
        candidates.append(comp)
        if custom_id is not None and comp.get("custom_id") != custom_id:
            continue
        if label is not None and comp.get("label") != label:
            continue
        if type is not None and comp.get("type") != type:
            continue
        return dict(comp)
    available = [(c.get("type"), c.get("custom_id"), c.get("label")) for c in candidates]
    raise LookupError(
        f"no component custom_id={custom_id!r} label={label!r} type={type!r} in message "
        f"{message.get('id')}; available (type, custom_id, label): {available}"
    )

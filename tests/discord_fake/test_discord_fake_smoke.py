"""Smoke tests for the fake Discord harness, using a tiny demo bot.

They prove that discord.py's real code paths work end-to-end against the
fake: command sync, slash command groups, file uploads, deferral and
follow-ups, autocomplete, ephemeral replies, component ``edit_message``,
modals, and persistent views surviving a bot "restart"; and the gateway
websocket a bot in its own process connects to.
"""

from __future__ import annotations

import asyncio
import copy
import io
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands
from discord.http import Route

from tests.discord_fake import (
    BotHarness,
    FakeDiscord,
    FakeDiscordTimeout,
    StartBot,
    find_component,
    payloads,
)

pytest_plugins = ["tests.discord_fake.fixtures"]

FRUITS = ["Apple", "Banana", "Grape", "Papaya"]


class DemoPanel(discord.ui.View):
    """Persistent view: timeout=None and explicit custom_ids."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Confirm", custom_id="demo:confirm", style=discord.ButtonStyle.success)
    async def confirm(
        self, interaction: discord.Interaction, button: discord.ui.Button[DemoPanel]
    ) -> None:
        await interaction.response.send_message(
            f"confirmed by {interaction.user.name}", ephemeral=True
        )

    @discord.ui.select(
        custom_id="demo:colour",
        placeholder="Pick a colour",
        options=[discord.SelectOption(label=c.title(), value=c) for c in ("red", "green", "blue")],
    )
    async def colour(
        self, interaction: discord.Interaction, select: discord.ui.Select[DemoPanel]
    ) -> None:
        await interaction.response.edit_message(content=f"colour: {select.values[0]}")


class CounterView(discord.ui.View):
    """Non-persistent view bound to the message it was sent with."""

    def __init__(self) -> None:
        super().__init__(timeout=60)
        self.count = 0

    @discord.ui.button(label="+1", custom_id="counter:inc")
    async def inc(
        self, interaction: discord.Interaction, button: discord.ui.Button[CounterView]
    ) -> None:
        self.count += 1
        await interaction.response.edit_message(content=f"count: {self.count}", view=self)


class NameModal(discord.ui.Modal, title="Your name"):
    """Modal with one text input."""

    name: discord.ui.TextInput[NameModal] = discord.ui.TextInput(
        label="Name", custom_id="modal:name"
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"hello {self.name.value}")


def build_demo_group() -> app_commands.Group:
    """A fresh ``/demo`` command group (one per bot instance)."""
    demo = app_commands.Group(name="demo", description="Demo commands")
    config = app_commands.Group(name="config", description="Configuration", parent=demo)

    @demo.command(name="ping", description="Reply with a message and a file")
    async def ping(interaction: discord.Interaction, text: str = "pong") -> None:
        file = discord.File(io.BytesIO(b"hello file"), filename="hello.txt")
        await interaction.response.send_message(f"ping: {text}", file=file)

    @demo.command(name="slow", description="Defer, then follow up")
    async def slow(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send("done after defer")
        await interaction.followup.send("second follow-up")

    @demo.command(name="secret", description="Ephemeral reply")
    async def secret(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("only you can see this", ephemeral=True)

    @demo.command(name="edit", description="Reply, then edit the reply")
    async def edit(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("v1")
        await interaction.edit_original_response(content="v2")

    @demo.command(name="panel", description="Post the persistent panel")
    async def panel(interaction: discord.Interaction) -> None:
        assert isinstance(interaction.channel, discord.TextChannel)
        await interaction.channel.send("Panel", view=DemoPanel())
        await interaction.response.send_message("panel posted", ephemeral=True)

    @demo.command(name="counter", description="A counter button")
    async def counter(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("count: 0", view=CounterView())

    @demo.command(name="fruit", description="Pick a fruit")
    async def fruit(interaction: discord.Interaction, name: str) -> None:
        await interaction.response.send_message(f"you picked {name}")

    @fruit.autocomplete("name")
    async def fruit_autocomplete(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [
            app_commands.Choice(name=f, value=f) for f in FRUITS if current.lower() in f.lower()
        ]

    @demo.command(name="mkchannel", description="Create a text channel")
    @app_commands.checks.has_permissions(manage_channels=True)
    async def mkchannel(interaction: discord.Interaction, name: str) -> None:
        assert interaction.guild is not None
        channel = await interaction.guild.create_text_channel(name, reason="demo")
        cached = interaction.guild.get_channel(channel.id)
        await interaction.response.send_message(
            f"created {channel.mention} cached={cached is not None}"
        )

    @mkchannel.error
    async def mkchannel_error(
        interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        # Note: CommandTree.on_error does not log errors of commands that have
        # their own error handler, so re-raising here would be silent.
        if isinstance(error, app_commands.MissingPermissions):
            await interaction.response.send_message("You need Manage Channels", ephemeral=True)
        elif isinstance(error, app_commands.CommandInvokeError) and isinstance(
            error.original, discord.Forbidden
        ):
            await interaction.response.send_message("I lack permissions", ephemeral=True)

    @demo.command(name="name", description="Ask for a name in a modal")
    async def name(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal())

    @demo.command(name="boom", description="Raises")
    async def boom(interaction: discord.Interaction) -> None:
        raise RuntimeError("kaboom")

    @config.command(name="set", description="Set a key")
    async def config_set(interaction: discord.Interaction, key: str, value: str) -> None:
        await interaction.response.send_message(f"{key}={value}")

    return demo


class DemoBot(commands.Bot):
    """Tiny bot: registers ``/demo`` and optionally the persistent panel."""

    def __init__(self, *, persistent: bool = True) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())
        self.persistent = persistent
        self.tree.add_command(build_demo_group())

    async def setup_hook(self) -> None:
        if self.persistent:
            self.add_view(DemoPanel())
        await self.tree.sync()


@pytest.mark.asyncio
async def test_commands_are_synced_on_login(fake_discord: FakeDiscord, start_bot: StartBot) -> None:
    harness = await start_bot(DemoBot())
    assert harness.bot.user is not None
    assert harness.bot.user.id == int(fake_discord.bot_user["id"])
    assert harness.bot.application_id == fake_discord.application_id
    guild = harness.bot.get_guild(harness.guild.id)
    assert guild is not None and guild.get_channel(harness.guild.channel_id) is not None
    (demo,) = fake_discord.global_commands
    subs = {o["name"]: o["type"] for o in demo["options"]}
    assert subs["ping"] == 1 and subs["config"] == 2
    sync = await fake_discord.wait_for(
        method="PUT", route="/applications/{application_id}/commands"
    )
    assert sync.json[0]["name"] == "demo"


@pytest.mark.asyncio
async def test_slash_group_reply_with_file(fake_discord: FakeDiscord, start_bot: StartBot) -> None:
    h = await start_bot(DemoBot())
    result = await h.interact(h.slash("demo ping", {"text": "hi"}))

    assert result.callback_type == 4
    assert result.data["content"] == "ping: hi"
    (upload,) = result.files
    assert upload.filename == "hello.txt" and upload.data == b"hello file"
    message = result.message
    assert message is not None
    assert message["content"] == "ping: hi"
    assert message["interaction_metadata"]["id"] == str(result.id)
    (attachment,) = message["attachments"]
    assert attachment["filename"] == "hello.txt"
    assert fake_discord.attachment_bytes(attachment) == b"hello file"

    nested = await h.interact(h.slash("demo config set", {"key": "colour", "value": "blue"}))
    assert nested.data["content"] == "colour=blue"
    assert fake_discord.unhandled_requests == []


@pytest.mark.asyncio
async def test_deferred_reply_then_followups(start_bot: StartBot) -> None:
    h = await start_bot(DemoBot())
    result = await h.interact(h.slash("demo slow"))
    assert result.callback_type == 5

    first = await result.followup(0)
    second = await result.followup(1)
    await result.done()

    # The first follow-up after a defer edits the "thinking" message.
    assert first.message is not None and result.message is not None
    assert first.message["id"] == result.message["id"]
    assert result.message["content"] == "done after defer"
    assert not result.message["flags"] & 128
    assert second.message is not None
    assert second.message["content"] == "second follow-up"
    assert second.message["id"] != result.message["id"]
    assert (
        second.message["interaction_metadata"]["original_response_message_id"]
        == result.message["id"]
    )


@pytest.mark.asyncio
async def test_autocomplete_then_invoke(start_bot: StartBot) -> None:
    h = await start_bot(DemoBot())
    result = await h.interact(h.autocomplete("demo fruit", "name", {"name": "ap"}))
    assert result.callback_type == 8
    assert [c["name"] for c in result.choices] == ["Apple", "Grape", "Papaya"]

    picked = await h.interact(h.slash("demo fruit", {"name": result.choices[0]["value"]}))
    assert picked.data["content"] == "you picked Apple"


@pytest.mark.asyncio
async def test_ephemeral_reply(fake_discord: FakeDiscord, start_bot: StartBot) -> None:
    h = await start_bot(DemoBot())
    result = await h.interact(h.slash("demo secret"))
    assert result.callback_type == 4
    assert result.ephemeral
    assert result.message is not None and result.message["flags"] & 64
    public = h.messages(include_ephemeral=False)
    assert all(m["id"] != result.message["id"] for m in public)


@pytest.mark.asyncio
async def test_edit_original_response(start_bot: StartBot) -> None:
    h = await start_bot(DemoBot())
    result = await h.interact(h.slash("demo edit"))
    edit = await result.original_edit()
    assert edit.json["content"] == "v2"
    assert result.message is not None and result.message["content"] == "v2"


@pytest.mark.asyncio
async def test_component_edit_message_updates_message(start_bot: StartBot) -> None:
    h = await start_bot(DemoBot())
    sent = await h.interact(h.slash("demo counter"))
    assert sent.message is not None
    # Clicking immediately is race free: the view is stored before interact() returns.
    for expected in (1, 2):
        click = await h.interact(h.click(sent.message, "counter:inc"))
        assert click.callback_type == 7
        assert click.message is not None and click.message["id"] == sent.message["id"]
        assert click.message["content"] == f"count: {expected}"
    assert h.last_message()["content"] == "count: 2"


@pytest.mark.asyncio
async def test_persistent_view_survives_restart(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    first = await start_bot(DemoBot())
    posted = await first.interact(first.slash("demo panel"))
    assert posted.ephemeral and posted.data["content"] == "panel posted"
    panel = first.last_message(include_ephemeral=False)
    assert panel["content"] == "Panel"
    assert find_component(panel, "demo:colour")["type"] == 3
    await first.close()
    assert first.bot.is_closed()

    # A restarted bot without add_view() ignores the click ...
    forgetful = await start_bot(DemoBot(persistent=False))
    ignored = await forgetful.interact(
        forgetful.click(panel, "demo:confirm"), expect_response=False
    )
    await ignored.done()
    assert ignored.requests == []
    await forgetful.close()

    # ... while one that re-registers the persistent view handles it.
    second = await start_bot(DemoBot(persistent=True))
    confirm = await second.interact(second.click(panel, label="Confirm", member="manager"))
    assert confirm.callback_type == 4 and confirm.ephemeral
    assert confirm.data["content"] == "confirmed by manager"

    chosen = await second.interact(second.select(panel, "demo:colour", ["green"]))
    assert chosen.callback_type == 7
    assert fake_discord.get_message(int(panel["id"]))["content"] == "colour: green"


@pytest.mark.asyncio
async def test_manage_channels_permission(fake_discord: FakeDiscord, start_bot: StartBot) -> None:
    h = await start_bot(DemoBot())
    denied = await h.interact(h.slash("demo mkchannel", {"name": "nope"}, member="member"))
    assert denied.ephemeral and denied.data["content"] == "You need Manage Channels"
    assert fake_discord.channels_named("nope") == []

    created = await h.interact(h.slash("demo mkchannel", {"name": "made-by-bot"}, member="manager"))
    (channel,) = fake_discord.channels_named("made-by-bot")
    assert created.data["content"] == f"created <#{channel['id']}> cached=True"
    request = fake_discord.find(method="POST", route="/guilds/{guild_id}/channels")[0]
    assert request.reason == "demo"


@pytest.mark.asyncio
async def test_bot_permission_errors(fake_discord: FakeDiscord, start_bot: StartBot) -> None:
    h = await start_bot(DemoBot())
    guild = h.guild
    # The fake enforces the bot's own permissions ...
    fake_discord.set_role_permissions(guild.id, int(guild.bot_role["id"]), 0)
    bot_guild = h.bot.get_guild(guild.id)
    assert bot_guild is not None and not bot_guild.me.guild_permissions.manage_channels
    failed = await h.interact(h.slash("demo mkchannel", {"name": "x"}, member="owner"))
    assert failed.data["content"] == "I lack permissions"
    rejected = fake_discord.find(method="POST", route="/guilds/{guild_id}/channels")
    assert [(r.status, r.response["code"]) for r in rejected] == [(403, 50013)]

    # ... and any route can be made to fail once.
    fake_discord.set_role_permissions(guild.id, int(guild.bot_role["id"]), payloads.BOT_PERMISSIONS)
    fake_discord.fail_next(
        "POST",
        "/interactions/{interaction_id}/{token}/callback",
        status=404,
        code=10062,
        message="Unknown interaction",
    )
    expired = await h.interact(h.slash("demo secret"), check=False)
    assert expired.callback is not None and expired.callback.status == 404
    assert h.take_errors()


@pytest.mark.asyncio
async def test_history_pages_as_discord_does(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    """Messages after an id come a page of at most 100 at a time, the oldest ones first
    (each page newest first, as Discord sends it); a larger page is refused with a 400."""
    h = await start_bot(DemoBot())
    cid = h.guild.channel_id
    said = [fake_discord.member_says(cid, h.guild.member["user"], f"m{i}") for i in range(250)]
    channel = h.bot.get_partial_messageable(cid)
    after = discord.Object(id=int(said[9]["id"]))
    read = [m.content async for m in channel.history(limit=None, after=after, oldest_first=True)]
    assert read == [f"m{i}" for i in range(10, 250)]
    pages = fake_discord.find(method="GET", route="/channels/{channel_id}/messages")
    assert len(pages) == 3
    first = await h.bot.http.logs_from(cid, 5, after=after.id)
    assert [m["content"] for m in first] == [f"m{i}" for i in range(14, 9, -1)]
    with pytest.raises(discord.HTTPException) as refused:
        await h.bot.http.logs_from(cid, 101)
    assert refused.value.status == 400 and refused.value.code == 50035


@pytest.mark.asyncio
async def test_modal_roundtrip(start_bot: StartBot) -> None:
    h = await start_bot(DemoBot())
    opened = await h.interact(h.slash("demo name"))
    assert opened.callback_type == 9 and opened.modal is not None
    submitted = await h.interact(h.submit_modal(opened.modal["custom_id"], {"modal:name": "Ada"}))
    assert submitted.data["content"] == "hello Ada"


@pytest.mark.asyncio
async def test_handler_errors_are_collected(fake_discord: FakeDiscord) -> None:
    async with BotHarness(fake_discord, DemoBot()) as h:
        result = await h.interact(h.slash("demo boom"), expect_response=False)
        await result.done()
        assert result.callback is None
        errors = h.take_errors()
        assert any("kaboom" in repr(r.exc_info) for r in errors)
    assert Route.BASE == "https://discord.com/api/v10"


@pytest.mark.asyncio
async def test_wait_for_times_out_with_clear_message(fake_discord: FakeDiscord) -> None:
    with pytest.raises(
        FakeDiscordTimeout, match=r"timed out after 0\.01s waiting for request route='/nope'"
    ):
        await fake_discord.wait_for(route="/nope", timeout=0.01)


async def test_gateway_speaks_hello_identify_ready_heartbeat_and_dispatch(
    fake_discord: FakeDiscord,
) -> None:
    gateway = fake_discord.gateway
    async with aiohttp.ClientSession() as session, session.ws_connect(gateway.url) as ws:
        hello = await ws.receive_json(timeout=5)
        assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] > 0
        await ws.send_json({"op": 1, "d": None})
        assert (await ws.receive_json(timeout=5))["op"] == 11
        await ws.send_json({"op": 2, "d": {"token": "fake-bot-token", "intents": 1}})
        ready = await ws.receive_json(timeout=5)
        assert (ready["op"], ready["t"], ready["s"]) == (0, "READY", 1)
        assert [g["id"] for g in ready["d"]["guilds"]] == [str(g) for g in fake_discord.guilds]
        assert ready["d"]["resume_gateway_url"] == gateway.url and gateway.identified.is_set()
        await gateway.dispatch("INTERACTION_CREATE", {"id": "1"})
        event = await ws.receive_json(timeout=5)
        assert (event["t"], event["s"], event["d"]) == ("INTERACTION_CREATE", 2, {"id": "1"})
    async with asyncio.timeout(5):
        await gateway.disconnected.wait()
    with pytest.raises(RuntimeError, match="no bot is connected"):
        await gateway.dispatch("INTERACTION_CREATE", {})


async def test_an_interaction_is_answered_first_within_3_s_once_and_followed_for_15_minutes(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    """As Discord: a first answer later than 3 s after the interaction is refused (10062);
    a second first answer, whoever sends it, is refused (40060); once acknowledged, the
    token takes follow-ups from anyone (the first one replacing "thinking…") until 15
    minutes after the interaction (then 401, 50027)."""
    h = await start_bot(DemoBot())
    now = [1000.0]
    fake_discord.clock = lambda: now[0]
    app = fake_discord.application_id

    async def post(
        session: aiohttp.ClientSession, path: str, body: object
    ) -> tuple[int, dict[str, Any]]:
        async with session.post(fake_discord.api_base + path, json=body) as answer:
            data = await answer.json() if answer.content_length else {}
            return answer.status, data

    late, acked = h.slash("demo secret"), h.slash("demo secret")
    fake_discord.register_interaction(late)
    callback = "/interactions/{id}/{token}/callback"
    async with aiohttp.ClientSession() as session:
        now[0] += 3.5
        status, data = await post(session, callback.format(**late), {"type": 5})
        assert (status, data.get("code")) == (404, 10062)
        fake_discord.register_interaction(acked)  # made now, by the fake's clock
        now[0] += 2.9
        assert (await post(session, callback.format(**acked), {"type": 5}))[0] < 300
        status, data = await post(session, callback.format(**acked), {"type": 5})
        assert (status, data.get("code")) == (400, 40060)
        followup = f"/webhooks/{app}/{acked['token']}"
        now[0] += 14 * 60
        status, data = await post(session, followup, {"content": "answered"})
        assert status == 200 and not int(data["flags"]) & 128  # "thinking…" replaced
        now[0] += 60
        status, data = await post(session, followup, {"content": "too late"})
        assert (status, data.get("code")) == (401, 50027)


async def test_an_interaction_given_again_is_the_same_one(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    """An interaction delivered again (to another process, or replayed to the same one) is
    the same interaction for Discord: once answered, a first answer through it is refused
    (40060) however many times it was delivered, and its 3 seconds run from the first."""
    h = await start_bot(DemoBot())
    now = [1000.0]
    fake_discord.clock = lambda: now[0]
    payload = h.slash("demo secret")
    fake_discord.register_interaction(payload)
    callback = fake_discord.api_base + "/interactions/{id}/{token}/callback".format(**payload)
    async with aiohttp.ClientSession() as session:
        async with session.post(callback, json={"type": 5}) as answer:
            assert answer.status < 300
        fake_discord.register_interaction(copy.deepcopy(payload))  # delivered again
        async with session.post(callback, json={"type": 5}) as answer:
            assert (answer.status, (await answer.json()).get("code")) == (400, 40060)
    late = h.slash("demo secret")
    fake_discord.register_interaction(late)
    now[0] += 2.5
    fake_discord.register_interaction(copy.deepcopy(late))  # again, 2.5 s later
    now[0] += 1.0
    async with aiohttp.ClientSession() as session:
        path = fake_discord.api_base + "/interactions/{id}/{token}/callback".format(**late)
        async with session.post(path, json={"type": 5}) as answer:
            assert (answer.status, (await answer.json()).get("code")) == (404, 10062)

"""Hostile and odd interactions through the fake Discord: every one is answered in time,
privately, saying why, with nothing logged as an error and nothing changed in the database.

Categories: junk ``/play`` text and autocomplete, junk select values, spectators and
other games' players clicking, stale panels, double clicks, ``/af`` out of phase,
commands and clicks in a DM, outdated commands (unknown, other options), unknown
buttons, and payloads Discord would not send (numbers, null, out-of-range ids).
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.play.games import ActiveGame
from bot.store.db import open_database
from tests.bot.table import Table, button, jobs_of, make_bot
from tests.discord_fake import InteractionResult, StartBot
from tests.discord_fake import payloads as p
from tests.discord_fake.extra import click_snapshot, select_snapshot
from tests.discord_fake.harness import CALLBACK_ROUTE

JSON = dict[str, Any]
# Discord's deadline for the first answer; awaited as a timeout, never measured.
ANSWER_SECONDS = 3.0
CHANGED = "This command has changed"
GUILD_ONLY = "works in a server channel only"
OUTDATED = "from an older version of the bot"


async def db_rows(url: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of the bot's database (read through a second connection),
    but the interactions claimed (bot.discord.owners: every interaction is, refused or not)."""
    db = await open_database(url)
    try:
        return {
            t: sorted((tuple(r) for r in await db.fetch(f"SELECT * FROM {t}")), key=repr)
            for t in await db.tables()
            if t != "interaction_owners"
        }
    finally:
        await db.close()


def answer_text(result: InteractionResult) -> str:
    """What the member was told: the message, or the follow-up of a deferred answer."""
    if result.callback_type == 4:
        return str(result.data.get("content", ""))
    assert result.callback_type == 5, result.callback_type
    message = result.message or {}
    return str(message.get("content", ""))


class Hostile:
    """Sends one odd interaction at a time and checks the rules every refusal follows."""

    def __init__(self, table: Table, caplog: pytest.LogCaptureFixture) -> None:
        self.t = table
        self.caplog = caplog
        self.db = table.bot.settings.database_url

    async def send(self, payload: Mapping[str, Any]) -> InteractionResult:
        result = await self.t.h.interact(payload, timeout=ANSWER_SECONDS)
        await self.t.settle(result)
        callbacks = [r for r in result.requests if r.route == CALLBACK_ROUTE]
        assert len(callbacks) == 1, [r.describe() for r in callbacks]  # answered exactly once
        return result

    async def refused(self, payload: Mapping[str, Any], *why: str) -> str:
        """The interaction is answered privately with all of ``why``; nothing changes."""
        before = await db_rows(self.db)
        result = await self.send(payload)
        assert result.ephemeral, result.data
        said = answer_text(result)
        for phrase in why:
            assert phrase in said, (phrase, said)
        assert await db_rows(self.db) == before, f"the database changed on a refusal: {said}"
        self.no_errors()
        return said

    async def no_choices(self, payload: Mapping[str, Any]) -> None:
        """An autocomplete request is answered, with no choices, and nothing changes."""
        before = await db_rows(self.db)
        result = await self.send(payload)
        assert result.callback_type == 8 and result.choices == []
        assert await db_rows(self.db) == before
        self.no_errors()

    def no_errors(self) -> None:
        errors = [r for r in self.caplog.records if r.levelno >= logging.ERROR]
        assert not errors, [r.getMessage() for r in errors]


@pytest.fixture
def caplog_all(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    caplog.set_level(logging.INFO)
    yield caplog


async def playing(db: Path | str, start_bot: StartBot, caplog: pytest.LogCaptureFixture) -> Hostile:
    """A game in play between owner and member, and the hostile sender for it (``db``: a
    test's folder for a SQLite file, or a ``db_url``)."""
    t = Table(await start_bot(make_bot(db if isinstance(db, str) else db / "af.db")))
    await t.open(humans=("owner", "member"))
    return Hostile(t, caplog)


def other(t: Table) -> str:
    return "member" if t.member_to_act() == "owner" else "owner"


async def test_junk_moves_and_autocomplete(
    db_url: str, start_bot: StartBot, caplog_all: pytest.LogCaptureFixture
) -> None:
    h = await playing(db_url, start_bot, caplog_all)
    t, to_act = h.t, h.t.member_to_act()
    slash = t.h.slash
    for junk, why in [
        ("fly to the moon", "unknown action `fly`"),
        ("", "type an action"),
        ("   ", "type an action"),
        ("dock", "after `dock` expected"),
        ("dock shipyard 9 9 9 9 9 9", "⛔"),
        ("end end", "unexpected `end`"),
        ("🚀" * 500, "unknown action"),
        ("x" * 6000, "unknown action"),
        ("dock\x00mine 4", "⛔"),
        ("dock terraform 7", "⛔"),
    ]:
        await h.refused(slash("play", {"move": junk}, member=to_act), why)
    # Someone else, a spectator, and a typed move out of turn.
    await h.refused(slash("play", {"move": "end"}, member=other(t)), "it is not your turn")
    await h.refused(slash("play", {"move": "end"}, member="manager"), "not playing in this game")

    # Autocomplete answers (choices or none) whatever is typed, by whoever types it.
    for typed in ("", "zzz", "dock 99", "🚀" * 100, "x" * 200):
        for member in (to_act, other(t), "manager"):
            result = await h.send(t.h.autocomplete("play", "move", {"move": typed}, member=member))
            assert result.callback_type == 8
            assert member == to_act or result.choices == []
    h.no_errors()


async def test_payloads_discord_would_not_send(
    tmp_path: Path, start_bot: StartBot, caplog_all: pytest.LogCaptureFixture
) -> None:
    h = await playing(tmp_path, start_bot, caplog_all)
    t, to_act = h.t, h.t.member_to_act()
    opt = p.option
    slash = t.h.slash
    # /play whose move is a number or null (a command whose option type changed).
    for value in (5, 4.5, None, True):
        await h.refused(slash("play", [opt("move", value)], member=to_act), CHANGED)
    await h.refused(slash("play", [opt("move", 5, type=p.OPT_STRING)], member=to_act), CHANGED)
    await h.refused(slash("play", [opt("move", None, type=p.OPT_STRING)], member=to_act), CHANGED)
    # Options out of their choices or range, of another type, or unknown.
    await h.refused(
        slash("af bot", {"level": "godlike"}, member="owner"),
        "`level` takes one of: easy, normal, hard",
    )
    await h.refused(slash("af log", {"count": 0}, member="manager"), "from 1 to 50")
    await h.refused(slash("af log", {"count": 10**30}, member="manager"), "from 1 to 50")
    await h.refused(slash("af away", {"days": 30}, member="member"), "`days` takes a value from 0")
    await h.refused(slash("af log", {"count": "3"}, member="manager"), CHANGED)
    await h.refused(slash("af rules", {"topic": 7}, member="manager"), CHANGED)
    await h.refused(slash("play", {"move": "end", "speed": "fast"}, member=to_act), CHANGED)
    await h.refused(slash("play", [opt("move", "x", type=p.OPT_NUMBER)], member=to_act), CHANGED)
    # Autocomplete of a number or null being typed.
    await h.no_choices(t.h.autocomplete("play", "move", [opt("move", 5)], member=to_act))
    await h.no_choices(
        t.h.autocomplete("play", "move", [opt("move", None, type=p.OPT_STRING)], member=to_act)
    )

    # Panel ids with numbers too big for the database, and a junk value in a menu.
    message = t.turn_message()
    game, version = t.game().id, t.state.version
    for custom_id in (
        f"af:a:{2**63}:{version}:end",
        f"af:u:{game}:{2**64}",
        f"af:g:{'9' * 40}:{version}",
        f"af:n:{game}:{version}:docks:{'9' * 30}",
    ):
        forged = forge(message, custom_id, p.BUTTON)
        said = await h.refused(click_snapshot(t.h, forged, custom_id, member=to_act), OUTDATED)
        assert str(t.game().row.turn_message_id) in said  # the link to the current panel
    select = button(message, "af:s:")
    for junk in ("fly to the moon", "-", "x" * 200):
        await h.refused(
            select_snapshot(t.h, message, select["custom_id"], [junk], member=to_act), "⛔"
        )
    step_id = f"af:s:{game}:{version}:p:0"
    steps = ["@nowhere", "@d.99", "@c.1.2.3.4", "@x.1", "@d.-1"]
    forged = forge(message, step_id, p.STRING_SELECT, options=steps)
    for junk in steps:
        payload = select_snapshot(t.h, forged, step_id, [junk], member=to_act)
        await h.refused(payload, "not on this panel")
    # A macro that is not one: too many moves, or moves that are not legal one after another.
    for junk in (";".join(["trade"] * 9), "dock mine 6;dock mine 1", "end;end"):
        payload = select_snapshot(t.h, forged, step_id, [junk], member=to_act)
        await h.refused(payload, "⛔")
    page_id = f"af:n:{game}:{version}:nowhere:1"
    forged = forge(message, page_id, p.BUTTON)
    await h.refused(click_snapshot(t.h, forged, page_id, member=to_act), "not on this panel")


def forge(
    message: Mapping[str, Any], custom_id: str, kind: int, options: list[str] | None = None
) -> JSON:
    """A copy of ``message`` with one more component (as a faulty client might send)."""
    forged = dict(message)
    component: JSON = {"type": kind, "custom_id": custom_id}
    if kind == p.BUTTON:
        component.update(style=2, label="old")
    else:
        component["options"] = [{"label": o, "value": o} for o in options or ["x"]]
    forged["components"] = [
        *message.get("components", [])[:4],
        {"type": p.ACTION_ROW, "components": [component]},
    ]
    return forged


async def test_outdated_commands_and_unknown_buttons(
    tmp_path: Path, start_bot: StartBot, caplog_all: pytest.LogCaptureFixture
) -> None:
    t = Table(await start_bot(make_bot(tmp_path / "af.db")))
    h = Hostile(t, caplog_all)
    # No game yet: unknown commands and buttons are answered all the same.
    await h.refused(t.h.slash("afx", member="member"), CHANGED)
    await h.refused(t.h.slash("af teleport", member="member"), CHANGED)
    await h.refused(t.h.slash("af", member="member"), CHANGED)
    await h.no_choices(t.h.autocomplete("gone", "what", {"what": "x"}, member="member"))
    await h.no_choices(t.h.autocomplete("af gone", "what", {"what": "x"}, member="member"))
    await h.refused(t.h.slash("play", member="member"), CHANGED)  # its option is missing
    message = await posted_message(t)
    for custom_id in ("old:button:1", "af:x:1:2", "af:a:1", "persistent_view:join"):
        forged = forge(message, custom_id, p.BUTTON)
        await h.refused(click_snapshot(t.h, forged, custom_id), OUTDATED, "no game")

    await t.open(humans=("owner", "member"))
    current = str(t.game().row.turn_message_id)
    message = t.turn_message()
    for custom_id in ("old:button:1", "af:play:end", "af:a:x:y:end"):
        forged = forge(message, custom_id, p.BUTTON)
        said = await h.refused(click_snapshot(t.h, forged, custom_id), OUTDATED)
        assert current in said
    # The panel of a game that is over (the aborted lobby's id), and a select's id on a button.
    gone_id = "af:s:1:1:docks:0"
    forged = forge(message, gone_id, p.STRING_SELECT)
    await h.refused(select_snapshot(t.h, forged, gone_id, ["x"]), "no longer running")
    mismatched = button(message, "af:s:")["custom_id"] + "9"
    forged = forge(message, mismatched, p.BUTTON)
    await h.refused(click_snapshot(t.h, forged, mismatched), OUTDATED, current)
    # Modal submissions: the bot opens none, so any is from an older version.
    await h.refused(t.h.submit_modal("af:confirm:1", {"reason": "x"}), OUTDATED)
    assert "INFO" in {r.levelname for r in caplog_all.records if "outdated" in r.getMessage()}


async def posted_message(t: Table) -> JSON:
    """A message posted by the bot in #general (a lobby message)."""
    await t.cmd("af new", {"players": 2}, "owner")
    await t.cmd("af abort", member="owner")
    return t.h.last_message(include_ephemeral=False)


async def test_spectators_other_players_stale_panels_and_double_clicks(
    db_url: str, start_bot: StartBot, caplog_all: pytest.LogCaptureFixture
) -> None:
    h = await playing(db_url, start_bot, caplog_all)
    t = h.t
    game = t.game()
    to_act, not_to_act = t.member_to_act(), other(t)
    # Another game in another channel, whose player wanders into this one.
    second = t.fake.add_channel(p.text_channel(t.h.guild.payload["id"], "second"))
    in_second = int(second["id"])
    await h.send(t.h.slash("af new", {"players": 2}, member="manager", channel_id=in_second))

    message = panel(t, game)
    select = button(message, "af:s:")
    value = select["options"][0]["value"]
    for member, why in ((not_to_act, "not your turn"), ("manager", "not playing in this game")):
        payload = select_snapshot(t.h, message, select["custom_id"], [value], member=member)
        await h.refused(payload, why)

    # A double click: the first applies, the second (same pick, same panel) is the same
    # move: answered as played (acknowledged, no refusal), not played again.
    version = game.state.version
    first = await h.send(select_snapshot(t.h, message, select["custom_id"], [value], member=to_act))
    assert not first.ephemeral and game.state.version > version
    actions = len(await jobs_of(t.bot).store.action_log.actions(game.id))
    again = await h.send(select_snapshot(t.h, message, select["custom_id"], [value], member=to_act))
    assert again.callback_type == 6 and not again.data.get("content")
    assert len(await jobs_of(t.bot).store.action_log.actions(game.id)) == actions
    # Another pick of the same old panel is out of date.
    another = next(o["value"] for o in select["options"] if o["value"] != value)
    stale = select_snapshot(t.h, message, select["custom_id"], [another], member=to_act)
    await h.refused(stale, "out of date", str(game.row.turn_message_id))

    # Two clicks at once (both sent before either is handled): applied exactly once.
    message = panel(t, game)
    select = button(message, "af:s:")
    value = select["options"][0]["value"]
    moves = await member_moves(t, game.id)
    clicks = [
        await t.h.interact(
            select_snapshot(t.h, message, select["custom_id"], [value], member=to_act),
            expect_response=False,
        )
        for _ in range(2)
    ]
    for click in clicks:
        await click.done(timeout=ANSWER_SECONDS)
        assert len([r for r in click.requests if r.route == CALLBACK_ROUTE]) == 1
    await t.settle()
    assert await member_moves(t, game.id) == moves + 1
    h.no_errors()

    # /af out of phase: in a game in play, and in a lobby.
    await h.refused(t.h.slash("af start", member="owner"), "⛔")
    await h.refused(t.h.slash("af join", member="manager"), "⛔")
    await h.refused(t.h.slash("af bot", {"level": "easy"}, member="owner"), "⛔")
    await h.refused(t.h.slash("af new", member="manager"), "⛔")
    await h.refused(t.h.slash("af leave", member="manager"), "⛔")
    await h.refused(t.h.slash("af abort", member="member"), "⛔")
    await h.refused(t.h.slash("undo", member="manager"), "⛔")
    await h.refused(
        t.h.slash("play", {"move": "end"}, channel_id=in_second, member="manager"), "⛔"
    )
    await h.refused(t.h.slash("undo", channel_id=in_second, member="manager"), "⛔")
    await h.refused(t.h.slash("af start", channel_id=in_second, member="manager"), "⛔")
    await h.refused(t.h.slash("af join", channel_id=in_second, member="manager"), "⛔")
    h.no_errors()


def panel(t: Table, game: ActiveGame) -> JSON:
    """A copy of the game's turn message as it is now (a client showing it)."""
    assert game.row.turn_message_id is not None
    return copy.deepcopy(t.fake.get_message(game.row.turn_message_id))


async def member_moves(t: Table, game_id: int) -> int:
    return sum(
        1 for a in await jobs_of(t.bot).store.action_log.actions(game_id) if a.user_id is not None
    )


async def test_closed_lobbies_leave_no_game_to_look_at(
    tmp_path: Path, start_bot: StartBot, caplog_all: pytest.LogCaptureFixture
) -> None:
    t = Table(await start_bot(make_bot(tmp_path / "af.db")))
    h = Hostile(t, caplog_all)
    # The host alone leaves: the lobby closes, it was never played.
    await t.cmd("af new", {"players": 2}, "owner")
    await t.leave("owner")
    for look in ("af status", "af board", "af log"):
        await h.refused(t.h.slash(look, member="manager"), "no game in this channel")
    # An aborted lobby with two seats: no phantom "Round 1 (turn 0)".
    await t.cmd("af new", {"players": 2}, "owner")
    await t.cmd("af join", member="member")
    await t.cmd("af abort", member="owner")
    said = await h.refused(t.h.slash("af status", member="manager"), "no game in this channel")
    assert "Round" not in said

    # A game played, then a lobby aborted: the played game is still the one shown.
    await t.open(humans=("owner", "member"))
    played = t.game().id
    await t.cmd("af abort", member="owner")
    await t.cmd("af new", {"players": 2}, "member")
    lobby = await h.refused(t.h.slash("af status", member="manager"), "not started")
    assert "Round" not in lobby
    await t.leave("member")
    status = await t.cmd("af status", member="manager")
    assert status.ephemeral and "Round 1" in status.data["content"]
    log = await t.cmd("af log", member="manager")
    assert f"game-{played}-log.txt" in [f.filename for f in log.files]
    h.no_errors()


def _leaf_commands(tree: discord.app_commands.CommandTree[Any]) -> list[Any]:
    return [c for c in tree.walk_commands() if isinstance(c, discord.app_commands.Command)]


# A value for each required option, so that only the place is wrong.
REQUIRED: dict[str, Any] = {"move": "end", "topic": "shipyard", "player": "1", "days": 2}


async def test_every_command_is_refused_in_a_dm(
    tmp_path: Path, start_bot: StartBot, caplog_all: pytest.LogCaptureFixture
) -> None:
    h = await playing(tmp_path, start_bot, caplog_all)
    t = h.t
    dm_user = t.h.guild.member["user"] if t.member_to_act() == "member" else t.h.guild.owner["user"]
    leaves = _leaf_commands(t.bot.tree)
    names = {c.qualified_name for c in leaves}
    assert {"play", "af new", "af bot", "af abort", "af status", "af rules"} <= names
    assert {"af kick", "af replace", "af join", "af away", "af settings"} <= names
    for command in leaves:
        options = {
            p_.display_name: REQUIRED.get(p_.display_name, dm_user)
            for p_ in command.parameters
            if p_.required
        }
        await h.refused(t.h.slash(command.qualified_name, options, user=dm_user), GUILD_ONLY)
        for p_ in command.parameters:
            if p_.autocomplete:
                payload = t.h.autocomplete(
                    command.qualified_name, p_.display_name, {p_.display_name: ""}, user=dm_user
                )
                await h.no_choices(payload)
    # A panel click from a DM (a forged payload: the panel lives in the game's channel).
    message = t.turn_message()
    select = button(message, "af:s:")
    dm = t.h.slash("play", {"move": "end"}, user=dm_user)["channel"]
    in_dm = {**message, "channel_id": dm["id"]}
    payload = p.component_interaction(
        select["custom_id"],
        application_id=t.fake.application_id,
        channel=dm,
        message=in_dm,
        component_type=p.STRING_SELECT,
        values=[select["options"][0]["value"]],
        user_payload=dm_user,
    )
    await h.refused(payload, GUILD_ONLY)
    assert t.fake.messages_in(int(dm["id"]), include_ephemeral=False) == []


async def test_the_af_group_is_registered_for_servers_only(
    tmp_path: Path, start_bot: StartBot
) -> None:
    t = Table(await start_bot(make_bot(tmp_path / "af.db")))
    for name in ("af", "play"):
        synced = t.fake.find_command(name)
        assert synced is not None
        assert synced["contexts"] == [0]  # 0: servers only (no bot DM, no group DM)
        assert synced["dm_permission"] is False


async def test_a_view_of_the_bot_is_not_answered_twice(
    tmp_path: Path, start_bot: StartBot, caplog_all: pytest.LogCaptureFixture
) -> None:
    """A click on a (non-dynamic) view the bot is waiting on gets the view's answer only."""
    t = Table(await start_bot(make_bot(tmp_path / "af.db")))
    clicked: list[int] = []

    class Confirm(discord.ui.View):
        @discord.ui.button(label="yes", custom_id="test:confirm")
        async def yes(
            self, interaction: discord.Interaction[Any], item: discord.ui.Button[Any]
        ) -> None:
            clicked.append(interaction.user.id)
            await interaction.response.send_message("confirmed", ephemeral=True)

    channel = t.bot.get_partial_messageable(t.h.guild.channel_id)
    sent = await channel.send("confirm?", view=Confirm(timeout=60))
    result = await Hostile(t, caplog_all).send(t.h.click(sent.id, "test:confirm"))
    assert result.data["content"] == "confirmed" and len(clicked) == 1

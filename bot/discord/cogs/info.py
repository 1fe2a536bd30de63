"""For players and spectators: ``/af board``, ``status``, ``log`` and ``rules``.

Answers are private (ephemeral) so looking at a game never clutters its channel.
They work for the channel's current game and, once it ended, for the last one.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.discord.announce import Announcer
from bot.discord.cogs.base import AF, AfCog
from bot.discord.owners import InteractionOwners
from bot.discord.replies import locale_of
from bot.discord.translator import command_text
from bot.play.games import waiting
from bot.play.jobs import LookJob
from bot.play.readers import Readers
from bot.store.errors import ServiceError
from bot.store.rows import ActionRow
from bot.text import describe, i18n
from bot.text.board_words import alt_text, board_text, message_parts
from bot.text.clock_text import waiting_lines
from bot.text.describe import chat_name
from bot.text.durations import when
from bot.text.spoken import plain
from bot.text.strings import text, thing_name
from bot.text.strings import text as say
from engine import CARDS, FACILITY_ORDER, FIELDS, TERRITORIES, Event, view

if TYPE_CHECKING:
    from bot.discord.client import AlienFrontiersBot

Interaction = discord.Interaction[Any]
RULE_TOPICS: tuple[str, ...] = (
    *FACILITY_ORDER,
    "bay",
    *TERRITORIES,
    *CARDS,
    *FIELDS,
    "turn",
    "notation",
)


# Topics that gather others: with nothing typed, Discord lists 25 choices, fewer than the
# topics; a turn, the notation, each facility and these three groups are all of them.
RULE_GROUPS: dict[str, tuple[str, ...]] = {
    "territories": tuple(TERRITORIES),
    "cards": tuple(CARDS),
    "fields": tuple(FIELDS),
}
FIRST_LISTED: tuple[str, ...] = ("turn", "notation", *FACILITY_ORDER, "bay", *RULE_GROUPS)


def topic_name(topic: str, locale: str = "en") -> str:
    if topic in ("turn", "notation", *RULE_GROUPS):
        return text(f"rules.topic.{topic}", locale)
    return thing_name(topic, locale)


def topic_text(topic: str, locale: str = "en") -> str:
    """A rules topic's text; a group's is each of its topics' in full, or, where that is
    longer than a message, each one's name and power in one clause and how to ask for
    one of them."""
    group = RULE_GROUPS.get(topic)
    if group is None:
        return text(f"rules.{topic}", locale)
    whole = "\n".join("• " + text(f"rules.{t}", locale) for t in group)
    if len(whole) <= 1800:
        return whole
    lines = [
        "• " + text("a11y.power", locale, {"card": t, "power": text(f"a11y.brief.{t}", locale)})
        for t in group
    ]
    return "\n".join([*lines, text("rules.group_more", locale)])


def folded(words: str) -> str:
    """Text compared without case, extra spaces, quotes or the ё/е difference."""
    return " ".join(words.casefold().replace("ё", "е").strip("«»\"'“”„ ").split())


def find_topic(typed: str, locale: str = "en") -> str | None:
    """The rules topic named ``typed``: its id, or its name in any language ("Лунная шахта",
    "Lunar Mine"), or else the only topic whose name in the member's language (then in any
    language) contains it."""
    key = folded(typed)
    if not key:
        return None
    topics = (*RULE_TOPICS, *RULE_GROUPS)
    if key in topics:
        return key
    languages = (locale, *i18n.languages())
    for language in languages:
        for topic in topics:
            if folded(topic_name(topic, language)) == key:
                return topic
    for language in languages:
        found = [t for t in RULE_TOPICS if key in folded(topic_name(t, language))]
        if found:
            return found[0]
    return None


def who_acted(action: ActionRow, names: Sequence[str], locale: str) -> str:
    """The seat that acted, or the dice/deck for a chance outcome."""
    return (
        text("log.chance", locale) if action.actor < 0 else describe.seat_name(action.actor, names)
    )


def action_sentences(
    action: ActionRow, names: Sequence[str], locale: str, *, bullet: bool = True
) -> list[str]:
    """What one logged action did, in sentences of the reader's language (its events; a
    new turn as a heading)."""
    out = []
    for data in action.events:
        player = data.get("player")
        event = Event(
            str(data.get("key")),
            player if isinstance(player, int) else None,
            data.get("params") or {},
            0,
        )
        line = describe.event_line(event, locale, names)
        if event.key == "turn_started":
            out.append(f"**{line}**" if bullet else f"— {line} —")
        else:
            out.append(f"• {line}" if bullet else line)
    return out


def action_lines(action: ActionRow, names: Sequence[str], locale: str) -> list[str]:
    """One logged action as a line of ``/af log`` (its sentences joined: "the last 5
    actions" are five lines), a new turn as a heading where it starts: an end of turn's
    "ends the turn" above the next turn's heading, not under it."""
    out: list[str] = []
    said: list[str] = []
    for line in action_sentences(action, names, locale, bullet=False):
        if line.startswith("— "):
            if said:
                out.append("• " + "; ".join(said))
                said = []
            out.append(f"**{line.strip('— ')}**")
        else:
            said.append(line)
    if said:
        out.append("• " + "; ".join(said))
    return out


class Info(AfCog):
    """Read-only looks at a game; the board drawn by the announcer's renderer, as posted."""

    def __init__(
        self,
        bot: AlienFrontiersBot,
        *,
        owners: InteractionOwners,
        service: LookJob,
        readers: Readers,
        announcer: Announcer,
    ) -> None:
        super().__init__(bot, owners=owners)
        self.service = service
        self.readers = readers
        self.announcer = announcer

    async def _said(self, interaction: Interaction, content: str, locale: str) -> str:
        """A private answer, in plain words for a member in screen-reader mode."""
        if await self.readers.is_on(interaction.user.id):
            return plain(content, locale)
        return content

    @app_commands.command(
        name="board", description=command_text("cmd.board.description"), extras=AF
    )
    @app_commands.describe(
        detail=command_text("cmd.board.detail"), text=command_text("cmd.board.text")
    )
    @app_commands.guild_only()
    async def board(
        self, interaction: Interaction, detail: bool = False, text: bool = False
    ) -> None:
        """The live board, with ``detail`` the full one (log, deck, ships in stock...), with
        ``text`` the whole board in words (for a screen reader)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        played = await self.service.played_in(interaction.channel_id)
        row, names, game = played.row, played.names, played.game
        locale = locale_of(interaction)
        you = played.seat_of(interaction.user.id)  # said "(you)"
        if text:
            for part in message_parts(board_text(game.state, names, locale, you)):
                await interaction.followup.send(part, ephemeral=True)
            return
        png = await asyncio.to_thread(
            self.announcer.pictures.renderer, game.state, names, locale, detail
        )
        kind = "full" if detail else "live"
        about = alt_text(game.state, names, locale, you=you)
        file = discord.File(
            io.BytesIO(png), filename=f"board-{row.id}-{kind}.png", description=about
        )
        caption = "board.caption_detail" if detail else "board.caption"
        await interaction.followup.send(
            say(caption, locale, {"round": game.state.round}), file=file, ephemeral=True
        )

    @app_commands.command(
        name="status", description=command_text("cmd.status.description"), extras=AF
    )
    @app_commands.guild_only()
    async def status(self, interaction: Interaction) -> None:
        played = await self.service.played_in(interaction.channel_id)
        row, game = played.row, played.game
        locale = locale_of(interaction)
        chat = [chat_name(n) for n in played.names]
        content = describe.status_text(game.state, view(game.state), chat, locale)
        active = await self.service.by_id(row.id)
        if active is not None and active.game is not None:  # still in play: the clock
            members = [s.user_id for s in active.seats if s.user_id is not None]
            away = await self.service.away(members)
            clock = waiting_lines(active.seats, active.clock, waiting(active), away, chat, locale)
            content = "\n".join([content, *clock])
        if row.host_id == interaction.user.id or interaction.permissions.manage_channels:
            failed = await self.service.undelivered(row.id)
            if failed:  # the host sees what did not reach the channel
                last = failed[0]
                said = {
                    "count": len(failed),
                    "what": text(f"delivery.kind.{last.kind}", locale),
                    "when": when(last.failed_at or last.due_at),
                }
                content = f"{content}\n{text('status.failed', locale, said)}"
        content = await self._said(interaction, content, locale)
        await interaction.response.send_message(content[:2000], ephemeral=True)

    @app_commands.command(name="log", description=command_text("cmd.log.description"), extras=AF)
    @app_commands.describe(count=command_text("cmd.log.count"))
    @app_commands.guild_only()
    async def log(
        self, interaction: Interaction, count: app_commands.Range[int, 1, 50] = 15
    ) -> None:
        played = await self.service.played_in(interaction.channel_id)
        row, names = played.row, played.names
        locale = locale_of(interaction)
        chat = [chat_name(n) for n in names]
        actions = await self.service.game_log(row.id)
        recent = actions[-count:]
        shown = [line for a in recent for line in action_lines(a, chat, locale)]
        body = "\n".join(shown) or text("log.empty", locale)
        header = text("log.header", locale, {"count": len(recent), "total": len(actions)})
        while len(body) > 2000 - len(header) - 10 and "\n" in body:
            body = body.split("\n", 1)[1]  # keep the latest sentences
        full = "\n".join(
            line
            for a in actions
            for line in [
                text(
                    "log.line",
                    locale,
                    {"seq": a.seq + 1, "who": who_acted(a, names, locale), "move": a.notation},
                ),
                *("    " + s for s in action_sentences(a, names, locale, bullet=False)),
            ]
        )
        await interaction.response.send_message(
            await self._said(interaction, f"{header}\n{body}", locale),
            file=discord.File(io.BytesIO(full.encode()), filename=f"game-{row.id}-log.txt"),
            ephemeral=True,
        )

    @app_commands.command(
        name="rules", description=command_text("cmd.rules.description"), extras=AF
    )
    @app_commands.describe(topic=command_text("cmd.rules.topic"))
    async def rules(self, interaction: Interaction, topic: str) -> None:
        locale = locale_of(interaction)
        key = find_topic(topic, locale)
        if key is None:
            raise ServiceError("rules.unknown", topic=topic)
        content = f"**{topic_name(key, locale)}**\n{topic_text(key, locale)}"
        await interaction.response.send_message(content[:2000], ephemeral=True)

    @rules.autocomplete("topic")
    async def rules_topics(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        locale = locale_of(interaction)
        typed = folded(current)
        listed = (*RULE_TOPICS, *RULE_GROUPS) if typed else FIRST_LISTED  # every one reachable
        out = [
            app_commands.Choice(name=topic_name(t, locale), value=t)
            for t in listed
            if typed in t
            or any(typed in folded(topic_name(t, language)) for language in i18n.languages())
        ]
        return out[:25]


__all__ = ["RULE_GROUPS", "RULE_TOPICS", "Info", "find_topic", "topic_text"]

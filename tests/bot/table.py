"""Helpers for end-to-end bot tests: a ``Table`` drives one channel's game through the fake.

It builds the bot on a real database (a SQLite file, or PostgreSQL with ``db_url``),
sends slash commands and panel clicks as raw interactions (through discord.py's own
parser), and reads back what the bot posted from the fake Discord API.
"""

from __future__ import annotations

import io
import random
import weakref
from collections.abc import Iterable, Mapping
from dataclasses import fields
from pathlib import Path
from typing import Any

from PIL import Image

from bot.discord.client import AlienFrontiersBot
from bot.discord.pictures import Renderer
from bot.factory import build_bot
from bot.play.choices import path_to
from bot.play.games import ActiveGame
from bot.play.jobs import GameJobs
from bot.settings import Settings
from engine import GameState, legal_actions
from tests.discord_fake import BotHarness, InteractionResult, StartBot, find_component
from tests.discord_fake.payloads import BUTTON, STRING_SELECT, iter_components

JSON = dict[str, Any]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def tiny_png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (4, 4), (20, 30, 60)).save(out, format="PNG")
    return out.getvalue()


_TINY = tiny_png()


def stub_renderer(
    state: GameState, seat_names: list[str] | None, locale: str, detail: bool = False
) -> bytes:
    """A fast stand-in for the board renderer (tests that do not look at the picture)."""
    return _TINY


class Clock:
    """A settable clock for the bot (seconds); tests make days pass by moving it."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, hours: float) -> float:
        self.now += hours * 3600
        return self.now


def database_url(db: Path | str) -> str:
    """A ``DATABASE_URL``: ``db`` itself if it is one (the ``db_url`` fixture), else the
    SQLite file at that path."""
    return db if isinstance(db, str) and "://" in db else f"sqlite:///{db}"


def make_settings(db: Path | str, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "token": "fake-bot-token",
        "database_url": database_url(db),
        "ai_pause_seconds": 0.0,
        "ai_budget_ms": 20,
        "sync_commands": True,
    }
    values.update(overrides)
    return Settings(**values)


def make_bot(
    db: Path | str,
    *,
    real_renderer: bool = False,
    renderer: Renderer | None = None,
    clock: Clock | None = None,
    **overrides: Any,
) -> AlienFrontiersBot:
    """The bot over ``db``, its record of jobs kept (``jobs_of``); drawing with ``renderer``,
    the real renderer or a stand-in."""
    built = build_bot(
        make_settings(db, **overrides),
        renderer=renderer or (None if real_renderer else stub_renderer),
        clock=clock,
    )
    bot = built.client
    _JOBS[bot] = built.jobs
    # Turn messages' pictures are redrawn at once: the tests that look at the pacing of
    # image edits give the board edits a clock of their own.
    bot.parts.boards.interval = 0.0
    return bot


# The record of the game service's jobs each bot was built with, kept by the factory
# (``bot.factory.Built``): the client does not hold it.
_JOBS: weakref.WeakKeyDictionary[AlienFrontiersBot, GameJobs] = weakref.WeakKeyDictionary()


def jobs_of(bot: Any) -> GameJobs:
    """The jobs of the game service ``bot`` (a client ``make_bot`` built) was built with."""
    return _JOBS[bot]


class Table:
    """One channel's game as the tests see it: commands in, messages out."""

    def __init__(self, harness: BotHarness, seed: int = 0) -> None:
        self.h = harness
        self.bot: AlienFrontiersBot = harness.bot  # type: ignore[assignment]
        self.members: dict[int, str] = {}  # user id -> harness member name
        self.locales: dict[str, str] = {}  # harness member name -> Discord locale (en-US)
        self.renders: list[bool] = []  # for tests that record the boards drawn (detail?)
        seeds = random.Random(seed)
        jobs_of(self.bot).lobby.new_seed = lambda: seeds.randrange(2**62)  # reproducible games

    @property
    def fake(self) -> Any:
        return self.h.fake

    def set_clock(self, clock: Clock) -> None:
        """From now on the bot's time is ``clock``'s: the client's, each job's of the game
        service (and their seat changes'), the background work's and the delivery worker's
        (each was handed the clock it was built with)."""
        jobs = jobs_of(self.bot)
        ports = (jobs.store, jobs.outbox, jobs.coach, jobs.readers)  # their clocks kept
        for part in (*(getattr(jobs, f.name) for f in fields(jobs)), self.bot.background):
            if hasattr(part, "clock") and not any(part is p for p in ports):
                part.clock = clock
        self.bot.clock = self.bot.deliveries.clock = clock

    def user_id(self, member: str) -> int:
        return int(getattr(self.h.guild, member)["user"]["id"])

    async def cmd(
        self,
        command: str,
        options: Mapping[str, Any] | None = None,
        member: str = "owner",
        *,
        wait: bool = True,
    ) -> InteractionResult:
        """Run a slash command and wait until its handler (and AI turns) finished."""
        self.members[self.user_id(member)] = member
        locale = self.locales.get(member, "en-US")
        result = await self.h.interact(self.h.slash(command, options, member=member, locale=locale))
        if wait:
            await self.settle(result)
        return result

    def locale(self, member: str) -> str:
        return self.locales.get(member, "en-US")

    async def settle(self, result: InteractionResult | None = None) -> None:
        """Wait until the command's handler, AI turns and the deliveries due are done."""
        if result is not None:
            await result.done()
        await self.bot.background.wait_first_check()
        await self.bot.background.wait_idle()
        await self.bot.deliveries.settle()

    # ---- the game ------------------------------------------------------------------------

    async def open(
        self, humans: Iterable[str] = ("owner", "member"), bots: Iterable[str] = (), **options: Any
    ) -> None:
        """``/af new`` by the first member, the others join, AI seats are added, start."""
        humans = list(humans)
        bots = list(bots)
        await self.cmd("af new", {"players": len(humans) + len(bots), **options}, humans[0])
        for member in humans[1:]:
            await self.cmd("af join", member=member)
        for level in bots:
            await self.cmd("af bot", {"level": level}, humans[0])
        await self.cmd("af start", member=humans[0])

    def game(self) -> ActiveGame:
        games = list(jobs_of(self.bot).games._games.values())
        assert len(games) == 1, games
        return games[0]

    @property
    def state(self) -> GameState:
        return self.game().state

    def turn_message(self) -> JSON:
        message_id = self.game().row.turn_message_id
        assert message_id is not None
        return dict(self.fake.get_message(message_id))

    def member_to_act(self) -> str:
        user = self.game().user_to_act()
        assert user is not None, "no member is to act"
        return self.members[user]

    def channel_messages(self) -> list[JSON]:
        return list(self.h.messages(include_ephemeral=False))

    async def leave(self, member: str, *, confirm: bool = True) -> InteractionResult:
        """``/af leave`` by ``member``, then a click on Leave (or Stay) on the private question.

        Returns the command's result (its ``data["content"]`` is the question, or a refusal).
        """
        asked = await self.cmd("af leave", member=member)
        assert asked.ephemeral, asked.data
        if not asked.data.get("components"):
            return asked  # refused
        answer = "yes" if confirm else "no"
        message = asked.message
        assert message is not None
        custom_id = button(message, "af:leave:")["custom_id"].rsplit(":", 1)[0] + f":{answer}"
        await self._send(self.h.click(message, custom_id, member=member))
        return asked

    def last_public(self) -> str:
        """The content of the newest message in the channel that everyone sees."""
        return str(self.h.last_message(include_ephemeral=False)["content"])

    def said(self, fragment: str) -> list[str]:
        """Contents of the channel's public messages that contain ``fragment``."""
        return [m["content"] for m in self.channel_messages() if fragment in m["content"]]

    # ---- moves ---------------------------------------------------------------------------

    async def play(self, move: str, member: str | None = None) -> InteractionResult:
        """``/play move:`` by ``member`` (default: whoever is to act)."""
        return await self.cmd("play", {"move": move}, member or self.member_to_act())

    async def click_move(self, move: str, member: str | None = None) -> InteractionResult:
        """Play ``move`` through the turn message's panel, opening steps as needed."""
        return await self.click_pick([move], member)

    async def click_pick(
        self, moves: list[str], member: str | None = None, taps: list[str] | None = None
    ) -> InteractionResult:
        """Pick the panel's option that plays ``moves`` (one move, or a macro's several),
        opening the steps that lead to it like a player would; ``taps`` collects what was
        clicked."""
        member = member or self.member_to_act()
        locale = self.locale(member)
        value = ";".join(moves)
        for _ in range(6):
            message = self.turn_message()
            comps = list(iter_components(message.get("components", [])))
            for c in comps:
                cid = c.get("custom_id", "")
                if c["type"] == BUTTON and cid.startswith("af:a:") and cid.endswith(f":{value}"):
                    assert not c.get("disabled"), c
                    if taps is not None:
                        taps.append(value)
                    return await self._send(
                        self.h.click(message, cid, member=member, locale=locale)
                    )
            for c in comps:
                if c["type"] == STRING_SELECT and any(o["value"] == value for o in c["options"]):
                    assert not c.get("disabled"), c
                    if taps is not None:
                        taps.append(value)
                    payload = self.h.select(
                        message, c["custom_id"], [value], member=member, locale=locale
                    )
                    return await self._send(payload)
            path = path_to(self.bot.announcer.choices(self.game()), moves)
            if path is None:
                break
            opened = False
            for step in reversed(path):  # the deepest step that is on the panel now
                for c in comps:
                    if c["type"] == STRING_SELECT and any(
                        o["value"] == "@" + step for o in c["options"]
                    ):
                        if taps is not None:
                            taps.append("@" + step)
                        await self._send(
                            self.h.select(
                                message, c["custom_id"], ["@" + step], member=member, locale=locale
                            )
                        )
                        opened = True
                        break
                if opened:
                    break
            if not opened:
                break
        raise LookupError(
            f"pick {value!r} is not on the panel: {self.turn_message()['components']}"
        )

    async def _send(self, payload: JSON) -> InteractionResult:
        result = await self.h.interact(payload)
        await self.settle(result)
        return result

    async def play_turn(self, rng: random.Random) -> None:
        """The member to act plays their whole turn by ``/play`` (seeded moves)."""
        game = self.game()
        turn = game.state.turn_number
        member = self.member_to_act()
        while not game.state.over and game.state.turn_number == turn:
            await self.play(self.seeded_move(rng, prefer_end=True), member)

    def seeded_move(self, rng: random.Random, prefer_end: bool = False) -> str:
        """A legal move for the member to act, chosen by a seeded RNG (docks before ending)."""
        actions = legal_actions(self.state)
        docks = [a for a in actions if str(a).startswith(("dock", "place", "steal", "return"))]
        pool = docks or actions
        if prefer_end and any(str(a) == "end" for a in actions):
            return "end"
        return str(rng.choice(pool))


async def game_between(
    jobs: GameJobs,
    *,
    channel: int,
    guild: int | None = 1,
    users: tuple[int, int] = (100, 200),
    names: tuple[str, str] = ("Ann", "Bob"),
) -> ActiveGame:
    """A two-member game started in ``channel`` through the service (the first hosts)."""
    game = await jobs.lobby.create(
        guild_id=guild,
        channel_id=channel,
        host_id=users[0],
        host_name=names[0],
        max_players=2,
        locale="en",
    )
    await jobs.lobby.join(game, users[1], names[1])
    await jobs.lobby.start(game, users[0])
    return game


def button(message: Mapping[str, Any], prefix: str) -> JSON:
    """The first component whose custom id starts with ``prefix``."""
    for c in iter_components(message.get("components", [])):
        if str(c.get("custom_id", "")).startswith(prefix):
            return dict(c)
    raise LookupError(f"no component {prefix}* in {message.get('components')}")


def attachment_png(fake: Any, message: Mapping[str, Any]) -> bytes:
    (attachment,) = message["attachments"]
    data: bytes = fake.attachment_bytes(attachment)
    assert data.startswith(PNG_MAGIC)
    return data


__all__ = [
    "PNG_MAGIC",
    "Clock",
    "StartBot",
    "Table",
    "attachment_png",
    "button",
    "database_url",
    "find_component",
    "game_between",
    "make_bot",
    "make_settings",
    "stub_renderer",
]

"""``python -m tests.transcripts --language ru``: a whole game as its members see it, for
translators (``docs/transcripts/<language>.md``).

Two members and an easy AI play a seeded game in the language, through the bot and the
fake Discord API, the members' Discord clients set to the same language. The members
play by clicking their panel (the option the normal AI's plan would pick, opening steps
as a player does). The transcript shows, in order: every message the channel shows
(turn messages, notices, the game over, in their final form, with each picture's alt
text), the panel of each member
turn as it was offered (buttons and menus, with their options), and every private
answer a member got. Nothing is asserted here; ``tests/test_transcripts.py`` checks
a short one.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
import tempfile
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from bot.text import i18n
from tests.benchmarks.taps import Planner, best_pick
from tests.bot.table import Clock, Table, button, jobs_of, make_bot
from tests.discord_fake import BotHarness, FakeDiscord
from tests.discord_fake.harness import InteractionResult
from tests.discord_fake.payloads import BUTTON, STRING_SELECT, iter_components

CLIENT_LOCALES = {"en": "en-US", "ru": "ru", "pl": "pl"}
MEMBERS = ("owner", "member")
# The game's clock stands still at one moment (2027-01-15 08:00 UTC), so the turn clock's
# times (<t:…:R>) are the same at every run, as the members' mentions are (by name).
NOW = 1_800_000_000.0
MENTION = re.compile(r"<@!?(\d+)>")


def panel_lines(message: Mapping[str, Any]) -> Iterator[str]:
    """A panel as a member reads it: each button's label, each menu with its options."""
    for c in iter_components(message.get("components", [])):
        if c["type"] == BUTTON:
            emoji = (c.get("emoji") or {}).get("name", "")
            label = " ".join(x for x in (emoji, c.get("label", "")) if x)
            off = " (disabled)" if c.get("disabled") else ""
            yield f"- [{label}]{off}"
        elif c["type"] == STRING_SELECT:
            yield f"- menu «{c.get('placeholder', '')}»:"
            for o in c["options"]:
                about = f" — {o['description']}" if o.get("description") else ""
                yield f"    - {o['label']}{about}"


def quoted(text: str) -> list[str]:
    return [f"> {line}" if line else ">" for line in text.splitlines()] or [">"]


class Transcript:
    """The lines of the transcript, and what of the channel was written out already."""

    def __init__(self, t: Table) -> None:
        self.t = t
        self.lines: list[str] = []
        self.shown = 0
        self.seen: set[str] = set()

    def named(self, text: str) -> str:
        """A member's mention as Discord shows it, ``@owner``, not its id (which changes
        from run to run)."""
        return MENTION.sub(lambda m: f"@{self.t.members.get(int(m.group(1)), m.group(0))}", text)

    def channel(self) -> None:
        """The channel's messages posted since the last look (in their final form)."""
        messages = self.t.channel_messages()
        for m in messages[self.shown :]:
            self.lines += ["", "**Channel:**", *quoted(self.named(m.get("content", "")))]
            for a in m.get("attachments", []):
                self.lines.append(f"> 📎 {a.get('filename', '')}")
                if a.get("description"):  # the alt text, read aloud by screen readers
                    self.lines.append(f">    alt text: {a['description']}")
        self.shown = len(messages)

    def private(self, who: str, result: InteractionResult) -> None:
        """A member's private answer (a click that updates the turn message shows in the
        channel, with the message's final form)."""
        said = []
        if result.ephemeral and result.message is not None:
            said.append(str(result.message.get("content") or ""))
        for r in result.requests:  # follow-ups: private when flagged so
            body = r.json or {}
            if r.method == "POST" and "/webhooks/" in r.path and int(body.get("flags") or 0) & 64:
                said.append(str(body.get("content") or ""))
        for content in dict.fromkeys(filter(None, said)):  # once each
            self.lines += ["", f"**Only {who} sees:**", *quoted(self.named(content))]

    def panel(self, member: str, number: int, message: Mapping[str, Any]) -> None:
        """The panel offered, its lines not shown before (a panel repeats much)."""
        new = [line for line in panel_lines(message) if line not in self.seen]
        self.seen.update(new)
        self.lines += ["", f"## Turn {number}: {member}'s panel", ""]
        if new:
            self.lines += ["(what earlier panels showed is left out)", "", *new]
        else:
            self.lines.append("(nothing that an earlier panel did not show)")


async def tour(t: Table, out: Transcript, member: str) -> None:
    """A move the rules refuse, the hint button, ``/af status`` and ``/af log``: answered
    privately."""
    out.lines += ["", f"*{member} types* `/play move: dock terraform 1`"]
    out.private(member, await t.cmd("play", {"move": "dock terraform 1"}, member))
    message = t.turn_message()
    hint = button(message, "af:h:")
    out.lines += ["", f"*{member} clicks* 💡"]
    click = t.h.click(message, hint["custom_id"], member=member, locale=t.locale(member))
    out.private(member, await t._send(click))
    for command in ("af status", "af log"):
        out.lines += ["", f"*{member} types* `/{command}`"]
        out.private(member, await t.cmd(command, member=member))


async def play(language: str, seed: int, max_turns: int | None, echo: Callable[[str], None]) -> str:
    """The transcript of one game (or of its first ``max_turns`` member turns)."""
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord() as fake:
            bot = make_bot(Path(tmp) / "transcript.db", clock=Clock(NOW))
            async with BotHarness(fake, bot, timeout=120, fail_on_errors=False) as h:
                t = Table(h, seed=seed)
                for member in MEMBERS:
                    t.locales[member] = CLIENT_LOCALES[language]
                out = Transcript(t)
                out.lines += [
                    f"# A game in {i18n.endonym(language)}, as its members see it",
                    "",
                    f"Made by `python -m tests.transcripts --language {language}` (seed "
                    f"{seed}): two members ({', '.join(MEMBERS)}) and an easy AI.",
                ]
                await t.cmd("af new", {"players": 3, "language": language}, MEMBERS[0])
                await t.cmd("af join", member=MEMBERS[1])
                await t.cmd("af bot", {"level": "easy"}, MEMBERS[0])
                await t.cmd("af start", member=MEMBERS[0])
                out.channel()
                planners = {m: Planner(seed + n) for n, m in enumerate(MEMBERS)}
                turns = 0
                toured: set[str] = set()
                while jobs_of(t.bot).games.active_games() and not t.game().state.over:
                    game = t.game()
                    if game.user_to_act() is None:
                        await t.settle()
                        out.channel()
                        continue
                    if max_turns is not None and turns >= max_turns:
                        break
                    turns += 1
                    member = t.member_to_act()
                    seat = game.to_act()
                    number = game.state.turn_number
                    out.panel(member, number, t.turn_message())
                    if member not in toured:  # what a member sees privately, once each
                        toured.add(member)
                        await tour(t, out, member)
                    while (
                        not game.state.over
                        and game.state.turn_number == number
                        and game.to_act() == seat
                    ):
                        c = t.bot.announcer.choices(game)
                        pick, plan, keys = best_pick(game, c, planners[member], seat or 0)
                        clicks: list[str] = []
                        result = await t.click_pick(list(pick), member, taps=clicks)
                        planners[member].done(game.state, plan, keys)
                        out.lines += ["", f"*{member} picks* `{';'.join(pick)}`"]
                        out.private(member, result)
                    out.channel()
                    echo(f"turn {number}")
                await t.settle()
                out.channel()
                return "\n".join(out.lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.transcripts", description=__doc__)
    parser.add_argument("--language", choices=i18n.languages(), default="en")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--turns", type=int, help="stop after this many member turns")
    parser.add_argument("--out", type=Path, help="default: docs/transcripts/<language>.md")
    args = parser.parse_args(argv)
    out = args.out or Path(__file__).resolve().parents[1] / "docs" / "transcripts"
    if args.out is None:
        out = out / f"{args.language}.md"
    text = asyncio.run(
        play(args.language, args.seed, args.turns, lambda s: print(s, file=sys.stderr))
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text)
    print(f"{out}: {text.count(chr(10))} lines")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""How long a game takes to listen to with a screen reader: prints figures, asserts nothing.

    python tests/benchmarks/listen.py [--games 3] [--seed 1] [--players 4]

Plays seeded games on the fake Discord API: one member and AI seats (easy: they play
fast). The member plays what the normal AI would play, by clicking the panel (as
``tests/benchmarks/taps.py`` does). Each game is played twice, the same seed: with the
default texts, and with the member in screen-reader mode (``/af notify
screen_reader:on``). Then every message of the channel is read as a screen reader says
it, in its final form: its text and each picture's description (alt text), emoji and
symbols as their spoken names ("game die", "bullet", "right arrow", "3 slash 7"),
Discord's markdown unspoken, a mention as "at" and the name. The figure per game is
the words of the channel divided by its turns; at 300 words a minute (a screen reader's
brisk rate), a turn's seconds. The member's private lines in screen-reader mode (after
each pick) are counted apart: they are heard by that member only.

Prints, per game and mode, words per turn and the whole game's minutes, then the
medians over the games, last: ``listen: default W words/turn (S s), screen-reader W2
words/turn (S2 s), whole game M min`` (M: the whole game in screen-reader mode).
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import sys
import tempfile
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.benchmarks.taps import Planner, best_pick
from tests.bot.table import Table, make_bot
from tests.discord_fake import BotHarness, FakeDiscord

WORDS_PER_MINUTE = 300
MEMBER = "member"

# How a screen reader (NVDA, VoiceOver, JAWS at their default punctuation) says these;
# any other emoji by its Unicode name ("LARGE RED SQUARE": "red square").
SPOKEN: Mapping[str, str] = {
    "•": "bullet",
    "→": "right arrow",
    "←": "left arrow",
    "⇄": "right arrow over left arrow",
    "·": "middle dot",
    "…": "dot dot dot",
    "/": "slash",
    "+": "plus",
    "−": "minus",
    "×": "times",
    "⭐": "star",
    "★": "star",
    "◀": "left pointing triangle",
    "▶": "right pointing triangle",
}
SYMBOL = re.compile(
    "[\U0001f000-\U0001faff\u2190-\u21ff\u2300-\u23ff\u25a0-\u25ff\u2600-\u27bf\u2b00-\u2bff"
    "•·…/+−×]"
)
JOINERS = re.compile("[\ufe0f\u200d]")
MARKDOWN = re.compile(r"\*\*|__|(?<!\w)_|_(?!\w)|`")
MENTION = re.compile(r"<@!?\d+>")
TIMESTAMP = re.compile(r"<t:\d+(?::\w)?>")
LINK = re.compile(r"https?://\S+")


def symbol_name(char: str) -> str:
    if char in SPOKEN:
        return SPOKEN[char]
    name = unicodedata.name(char, "symbol").lower()
    return name.removeprefix("large ").removesuffix(" emoji")


def spoken(text: str) -> list[str]:
    """The words a screen reader says for ``text``."""
    text = JOINERS.sub("", text)
    text = MENTION.sub(" at member ", text)
    text = TIMESTAMP.sub(" in 2 hours ", text)
    text = LINK.sub(" link ", text)
    text = MARKDOWN.sub("", text)
    text = SYMBOL.sub(lambda m: f" {symbol_name(m[0])} ", text)
    return re.findall(r"[^\W_]+(?:['’-][^\W_]+)*", text)


def message_words(message: Mapping[str, Any]) -> int:
    """A channel message as heard: its text and its pictures' descriptions."""
    words = len(spoken(str(message.get("content") or "")))
    for a in message.get("attachments", []):
        words += len(spoken(str(a.get("description") or "")))
    return words


@dataclass
class Heard:
    turns: int
    words: int  # the channel's, in all
    private: int  # the member's private lines after picks (screen-reader mode)
    picks: int

    @property
    def per_turn(self) -> float:
        return self.words / max(1, self.turns)

    @property
    def minutes(self) -> float:
        return self.words / WORDS_PER_MINUTE


async def play(seed: int, players: int, reader: bool) -> Heard:
    """One seeded game with one member (in screen-reader mode or not) and easy AI seats."""
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord() as fake:
            bot = make_bot(Path(tmp) / "listen.db")
            async with BotHarness(fake, bot, timeout=300, fail_on_errors=False) as h:
                t = Table(h, seed=seed)
                if reader:
                    await t.cmd("af notify", {"screen_reader": "on"}, MEMBER)
                await t.cmd("af new", {"players": players}, MEMBER)
                for _ in range(players - 1):
                    await t.cmd("af bot", {"level": "easy"}, MEMBER)
                await t.cmd("af start", member=MEMBER)
                planner = Planner(seed)
                private = picks = 0
                game = t.game()
                while t.bot.service.active_games() and not game.state.over:
                    if game.user_to_act() is None:
                        await t.settle()
                        continue
                    seat = game.to_act()
                    number = game.state.turn_number
                    while (
                        not game.state.over
                        and game.state.turn_number == number
                        and game.to_act() == seat
                    ):
                        c = t.bot.announcer.choices(game)
                        pick, plan, keys = best_pick(game, c, planner, seat or 0)
                        result = await t.click_pick(list(pick), MEMBER)
                        planner.done(game.state, plan, keys)
                        picks += 1
                        for r in result.requests:
                            body = r.json or {}
                            if int(body.get("flags") or 0) & 64 and body.get("content"):
                                private += len(spoken(str(body["content"])))
                await t.settle()
                await t.bot.announcer.boards.flush()
                words = sum(message_words(m) for m in t.channel_messages())
                return Heard(game.state.turn_number, words, private, picks)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    args = parser.parse_args(argv)
    heard: dict[bool, list[Heard]] = {False: [], True: []}
    for n in range(args.games):
        seed = args.seed + n
        for reader in (False, True):
            h = asyncio.run(play(seed, args.players, reader))
            heard[reader].append(h)
            mode = "screen-reader" if reader else "default"
            extra = (
                f", the member's private lines {h.private / max(1, h.picks):.0f} words a pick"
                if reader
                else ""
            )
            print(
                f"seed {seed} {mode}: {h.turns} turns, {h.words} words, "
                f"{h.per_turn:.0f} words/turn ({h.per_turn * 60 / WORDS_PER_MINUTE:.1f} s), "
                f"whole game {h.minutes:.1f} min{extra}",
                flush=True,
            )
    default = statistics.median(h.per_turn for h in heard[False])
    spoken_turn = statistics.median(h.per_turn for h in heard[True])
    whole_default = statistics.median(h.minutes for h in heard[False])
    whole = statistics.median(h.minutes for h in heard[True])
    print(f"medians over {args.games} games: default whole game {whole_default:.0f} min")
    seconds = 60 / WORDS_PER_MINUTE
    print(
        f"listen: default {default:.0f} words/turn ({default * seconds:.0f} s), "
        f"screen-reader {spoken_turn:.0f} words/turn ({spoken_turn * seconds:.0f} s), "
        f"whole game {whole:.0f} min"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""How long a game takes to listen to with a screen reader: prints figures, asserts nothing.

    python tests/benchmarks/listen.py [--games 3] [--seed 1] [--players 4]

Plays seeded games on the fake Discord API: one member and AI seats (easy: they play
fast). The member plays what the normal AI would play, by clicking the panel (as
``tests/benchmarks/taps.py`` does). Each game is played twice, the same seed: with the
default texts, and with the member in screen-reader mode (``/af notify
screen_reader:on``). Text is counted as a screen reader says it: emoji and symbols as
their spoken names ("game die", "bullet", "right arrow", "3 slash 7"), Discord's markdown
unspoken, a mention as "at" and the name.

What the member hears is what is announced: a screen reader reads a new message as it
arrives (its text and its pictures' descriptions, as posted), and does not read an edit.
So the figures are:

- **heard**: the channel's new messages as posted, per turn: the words a member
  following the channel hears as the game goes (the main figure);
- **final**: every message of the channel in its final form (what a member reading the
  channel's history afterwards goes through), per turn;
- **private**: the member's own private answers after their picks (screen-reader mode:
  what the pick did and what is left), per pick and per round;
- **scores**: how many of the heard words are the "Scores: …" lines (screen-reader mode
  says everyone's VP once per turn message), per turn.

At 300 words a minute (a screen reader's brisk rate), a turn's seconds. Prints, per game
and mode, these figures, then the medians over the games, last: ``listen: default W
words/turn (S s), screen-reader W2 words/turn (S2 s), whole game M min`` (W, W2: heard in
the channel; M: the whole game heard in screen-reader mode, the member's private lines
included).
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

from bot.text.strings import text
from tests.benchmarks.taps import Planner, best_pick
from tests.bot.table import Table, jobs_of, make_bot
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
    rounds: int
    heard: int  # the channel's new messages, as posted
    final: int  # the channel's messages in their final form
    private: int  # the member's private answers after their picks
    scores: int  # of ``heard``: the "Scores: …" lines
    picks: int

    def per_turn(self, words: int) -> float:
        return words / max(1, self.turns)

    @property
    def minutes(self) -> float:
        return (self.heard + self.private) / WORDS_PER_MINUTE


MESSAGES = re.compile(r"/channels/\d+/messages")
CALLBACK = re.compile(r"/interactions/\d+/[^/]+/callback")
EPHEMERAL = 64
SCORES = text("a11y.alt.scores", "en", {"scores": ""}).removesuffix(".")  # "Scores: "


def announced(requests: list[Any]) -> tuple[int, int]:
    """The words of the channel's new messages as posted (the bot's posts, and answers to
    commands that everyone sees), and of their "Scores:" lines."""
    words = scores = 0
    for r in requests:
        body = r.json if isinstance(r.json, dict) else {}
        if r.method != "POST" or r.status >= 300:
            continue
        if MESSAGES.fullmatch(r.path):
            posted = body
        elif CALLBACK.fullmatch(r.path) and body.get("type") == 4:
            posted = body.get("data") or {}
            if int(posted.get("flags") or 0) & EPHEMERAL:
                continue
        else:
            continue
        words += message_words(posted)
        for line in str(posted.get("content") or "").splitlines():
            if line.startswith(SCORES):
                scores += len(spoken(line))
    return words, scores


async def play(seed: int, players: int, reader: bool) -> Heard:
    """One seeded game with one member (in screen-reader mode or not) and easy AI seats."""
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord() as fake:
            bot = make_bot(Path(tmp) / "listen.db")
            async with BotHarness(fake, bot, timeout=300, fail_on_errors=False) as h:
                t = Table(h, seed=seed)
                if reader:
                    await t.cmd("af notify", {"screen_reader": "on"}, MEMBER)
                start = len(fake.requests)  # the game from its lobby on
                await t.cmd("af new", {"players": players}, MEMBER)
                for _ in range(players - 1):
                    await t.cmd("af bot", {"level": "easy"}, MEMBER)
                await t.cmd("af start", member=MEMBER)
                planner = Planner(seed)
                private = picks = 0
                game = t.game()
                while jobs_of(t.bot).games.active_games() and not game.state.over:
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
                            data = body.get("data", body) if "type" in body else body
                            if int((data or {}).get("flags") or 0) & EPHEMERAL and data.get(
                                "content"
                            ):
                                private += len(spoken(str(data["content"])))
                await t.settle()
                await t.bot.parts.boards.flush()
                heard, scores = announced(fake.requests[start:])
                final = sum(message_words(m) for m in t.channel_messages())
                state = game.state
                return Heard(state.turn_number, state.round, heard, final, private, scores, picks)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    args = parser.parse_args(argv)
    heard: dict[bool, list[Heard]] = {False: [], True: []}
    seconds = 60 / WORDS_PER_MINUTE
    for n in range(args.games):
        seed = args.seed + n
        for reader in (False, True):
            h = asyncio.run(play(seed, args.players, reader))
            heard[reader].append(h)
            mode = "screen-reader" if reader else "default"
            print(
                f"seed {seed} {mode}: {h.turns} turns, {h.rounds} rounds; heard "
                f"{h.per_turn(h.heard):.0f} words/turn ({h.per_turn(h.heard) * seconds:.1f} s), "
                f"of which scores {h.per_turn(h.scores):.0f}; final form "
                f"{h.per_turn(h.final):.0f} words/turn; private {h.private / max(1, h.picks):.0f} "
                f"words/pick ({h.private / max(1, h.rounds):.0f} a round); "
                f"whole game {h.minutes:.1f} min",
                flush=True,
            )

    def median(reader: bool, figure: str) -> float:
        return statistics.median(
            {
                "heard": h.per_turn(h.heard),
                "final": h.per_turn(h.final),
                "scores": h.per_turn(h.scores),
                "pick": h.private / max(1, h.picks),
                "round": h.private / max(1, h.rounds),
                "minutes": h.minutes,
            }[figure]
            for h in heard[reader]
        )

    for reader, mode in ((False, "default"), (True, "screen-reader")):
        print(
            f"medians over {args.games} games, {mode}: heard {median(reader, 'heard'):.0f} "
            f"words/turn, final form {median(reader, 'final'):.0f}, scores "
            f"{median(reader, 'scores'):.0f}, private {median(reader, 'pick'):.0f} words/pick "
            f"({median(reader, 'round'):.0f} a round), whole game {median(reader, 'minutes'):.0f}"
            " min"
        )
    default, spoken_turn = median(False, "heard"), median(True, "heard")
    print(
        f"listen: default {default:.0f} words/turn ({default * seconds:.1f} s), "
        f"screen-reader {spoken_turn:.0f} words/turn ({spoken_turn * seconds:.1f} s), "
        f"whole game {median(True, 'minutes'):.0f} min"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

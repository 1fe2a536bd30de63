"""Taps per turn through the real panel: prints figures, asserts nothing.

    python tests/benchmarks/taps.py [--games 30] [--seed 1] [--players 2,3,4]

Plays seeded games on the fake Discord API: one member's seat, the others AI seats
(easy, they play fast). The member plays what the normal AI would play, by clicking:
before each click it asks the normal AI for its plan for the rest of the turn, and
picks on the panel the option that gets furthest along that plan (a macro can play
several of its moves), opening a step first when the option is behind one. Every
click, select and step opened is one interaction.

Prints interactions per member turn (median, p90, max), the same for the *simple
turn* (the AI's turn was three docks and the end), the worst turns with their moves,
and last: ``taps: simple S, median M, p90 P, max X over T turns`` (S is the most any
simple turn took).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.play.choice_tree import Choices, Leaf
from bot.play.choices import menu, path_to
from bot.play.games import ActiveGame
from engine import CHANCE, Action, GameState, apply, legal_actions, parse, sample_chance
from engine.actions import EndTurn
from engine.ai import NormalAI
from engine.ai.planner import state_key
from tests.benchmarks.progress import tqdm
from tests.bot.table import Table, jobs_of, make_bot
from tests.discord_fake import BotHarness, FakeDiscord


@dataclass
class Turn:
    taps: int = 0
    moves: list[str] = field(default_factory=list)  # the member's engine actions
    clicks: list[str] = field(default_factory=list)

    @property
    def simple(self) -> bool:
        """Three docks and the end of the turn, nothing else."""
        docks = [m for m in self.moves if m.startswith("dock ")]
        return len(self.moves) == 4 and len(docks) == 3 and self.moves[-1] == "end"


def settle_chance(s: GameState, seed: int) -> GameState:
    """Chance outcomes as the bot samples them (``MoveService.resolve_chance``)."""
    while not s.over and s.to_act() == CHANCE:
        s = apply(s, sample_chance(s, random.Random(f"{seed}:{s.version}")))
    return s


def play(s: GameState, moves: list[str] | tuple[str, ...], seed: int) -> GameState | None:
    """The state after ``moves`` (each legal where it is played), or None."""
    for m in moves:
        try:
            s = settle_chance(apply(s, parse(m)), seed)
        except ValueError:
            return None
    return s


def plan_keys(s: GameState, plan: list[Action], seed: int, seat: int) -> dict[object, int]:
    """The state keys along the plan: key -> how many of its moves lead there."""
    keys: dict[object, int] = {}
    for i, a in enumerate(plan, start=1):
        if s.over or s.current != seat:
            break
        try:
            s = settle_chance(apply(s, a), seed)
        except ValueError:
            break
        keys[state_key(s)] = i
    return keys


def visible(c: Choices, opened: str | None) -> set[str]:
    """Values on the panel's menus with ``opened`` open in the choice row."""
    values = {e.value for e in menu(c.dock, "d", spill=True)}
    values |= {e.value for e in menu(c.powers, "c", spill=True)}
    where, node = (opened, c.node(opened)) if opened else ("p", c.pending)
    if node is None and c.more is not None:
        where, node = "o", c.more
    if node is not None and where is not None:
        values |= {e.value for e in menu(node, where, inner=where != "o")}
    return values


def taps_to(c: Choices, moves: tuple[str, ...]) -> int:
    """Interactions to play ``moves`` from a fresh panel: steps to open, then the pick."""
    value = ";".join(moves)
    opened: str | None = None
    path = path_to(c, moves) or []
    taps = 1
    for _ in range(len(path) + 1):
        shown = visible(c, opened)
        if value in shown:
            return taps
        step = next((p for p in reversed(path) if "@" + p in shown), None)
        if step is None:
            break
        opened, taps = step, taps + 1
    return 99


def leaves(c: Choices) -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = []

    def walk(node: object) -> None:
        if isinstance(node, Leaf):
            out.append(node.moves)
        else:
            for kid in getattr(node, "children", ()):
                walk(kid)

    for root in (c.dock, c.powers, c.pending):  # "more" holds the same leaves again
        if root is not None:
            walk(root)
    if c.can_end:
        out.append(("end",))
    return out


class Planner:
    """The normal AI's plan for the member's turn, kept while the game follows it."""

    def __init__(self, seed: int) -> None:
        self.ai = NormalAI(seed)
        self.plan: list[Action] = []
        self.expect: object = None

    def rest(self, state: GameState, seat: int) -> list[Action]:
        kept = self.plan and self.expect == state_key(state)
        if not kept or self.plan[0] not in legal_actions(state):  # chance went otherwise
            self.plan = self.ai.make_plan(state, seat)
            if not self.plan or self.plan[0] not in legal_actions(state):
                self.plan = [self.ai.choose(state.copy())]
        return self.plan

    def done(self, state: GameState, plan: list[Action], keys: dict[object, int]) -> None:
        """The game moved to ``state``: keep the rest of the plan if it is on it."""
        got = keys.get(state_key(state))
        if got is None:
            self.plan = []
        else:
            self.plan, self.expect = plan[got:], state_key(state)


def best_pick(
    game: ActiveGame, c: Choices, planner: Planner, seat: int
) -> tuple[tuple[str, ...], list[Action], dict[object, int]]:
    """The pick that gets furthest along the normal AI's plan, with the fewest taps."""
    state = game.state
    plan = planner.rest(state, seat)
    keys = plan_keys(state, plan, game.row.seed, seat)
    planned = {" ".join(str(a).split()[:2]) for a in plan}  # a verb and what it acts on
    best: tuple[int, int, tuple[str, ...]] | None = None
    for moves in leaves(c):
        if " ".join(moves[0].split()[:2]) not in planned:
            continue
        after = play(state, moves, game.row.seed)
        if after is None:
            continue
        reach = keys.get(state_key(after), 0)
        if reach == 0:
            continue
        cost = 1 if moves == ("end",) else taps_to(c, moves)
        if best is None or (reach, -cost) > (best[0], -best[1]):
            best = (reach, cost, moves)
    if best is not None:
        return best[2], plan, keys
    return (str(plan[0]),), plan, keys


async def member_turn(t: Table, planner: Planner) -> Turn:
    game = t.game()
    assert game.game is not None
    seat = game.to_act()
    assert seat is not None
    turn_number = game.state.turn_number
    first = len(game.game.log)
    record = Turn()
    while not game.state.over and game.state.turn_number == turn_number and game.to_act() == seat:
        c = t.bot.announcer.choices(game)
        pick, plan, keys = best_pick(game, c, planner, seat)
        await t.click_pick(list(pick), "owner", taps=record.clicks)
        planner.done(game.state, plan, keys)
    assert game.game is not None
    log = game.game.log[first:]
    record.moves = [str(a) for a in log if not _chance(a)][: _turn_end(log)]
    record.taps = len(record.clicks)
    return record


def _chance(a: Action) -> bool:
    from engine.rulebook import RULEBOOK

    return RULEBOOK.is_chance(a)


def _turn_end(log: list[Action]) -> int:
    own = [a for a in log if not _chance(a)]
    for i, a in enumerate(own):
        if isinstance(a, EndTurn):
            return i + 1
    return len(own)


async def one_game(h: BotHarness, seed: int, players: int) -> list[Turn]:
    t = Table(h, seed=seed)
    await t.open(humans=("owner",), bots=["easy"] * (players - 1))
    planner = Planner(seed)
    turns: list[Turn] = []
    while jobs_of(t.bot).games.active_games():
        game = t.game()
        if game.state.over:
            break
        if game.user_to_act() is None:
            await t.settle()
            if game.user_to_act() is None and not game.state.over:
                raise RuntimeError("the game waits on nobody")
            continue
        turns.append(await member_turn(t, planner))
    return turns


def pct(values: list[int], q: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument("--dump", type=Path, help="write every turn's moves and clicks (JSON)")
    args = parser.parse_args()
    sizes = [int(x) for x in args.players.split(",")]
    rng = random.Random(args.seed)
    turns: list[Turn] = []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord() as fake:
            bot = make_bot(Path(tmp) / "taps.db")
            async with BotHarness(fake, bot, timeout=120, fail_on_errors=False) as h:
                games = tqdm(
                    range(args.games),
                    unit="game",
                    leave=False,
                    disable=not sys.stderr.isatty(),  # a bar on a terminal only
                )
                for g in games:
                    players = rng.choice(sizes)
                    played = await one_game(h, rng.randrange(2**31), players)
                    turns += played
                    taps = [x.taps for x in played]
                    games.write(
                        f"game {g + 1:2d} ({players} players): {len(played)} turns, "
                        f"median {statistics.median(taps)}, max {max(taps)}"
                    )
    if args.dump:
        rows = [{"taps": x.taps, "moves": x.moves, "clicks": x.clicks} for x in turns]
        args.dump.write_text(json.dumps(rows, indent=1))
    taps = [x.taps for x in turns]
    simple = [x.taps for x in turns if x.simple]
    print(f"{len(turns)} member turns in {time.perf_counter() - started:.0f} s")
    if simple:
        print(
            f"simple turns (3 docks + end): {len(simple)}, median {statistics.median(simple)}, "
            f"max {max(simple)}"
        )
    print("worst turns:")
    for x in sorted(turns, key=lambda x: -x.taps)[:3]:
        print(f"  {x.taps} taps for {len(x.moves)} moves: {' | '.join(x.moves)}")
        print(f"     clicks: {' | '.join(x.clicks)}")
    print(
        f"taps: simple {max(simple) if simple else '-'}, median {statistics.median(taps):g}, "
        f"p90 {pct(taps, 0.9)}, max {max(taps)} over {len(taps)} turns"
    )


if __name__ == "__main__":
    asyncio.run(main())

"""A guided game (``/af learn``) played as a learner plays it on the panel, without Discord:
at each of the learner's decisions the ⭐ pick is followed, or another pick of the panel
(``bot.play.choices``: one move, or a combined pick such as "Alien Artifact: 5 + 5, then
claim …") is chosen by a *straying style*, and a combined pick stops at a lesson's own
decision as the bot stops it (``bot.play.tutor.cut_pick``). What the guide showed is
recorded: each lesson's text, whether it stated the lesson's rule, the lines answering
another pick, the "comes back" promises.

The styles are those an expert played (``/tmp/lp/drive.py``): ``mixed`` (a quarter of the
strays a combined pick, a tenth "End turn", a third a card's pick), ``early`` (strays mostly
"End turn"), ``combo`` (mostly combined picks), ``cards`` (mostly cards' picks),
``alternate`` (every other pick strays) and ``random`` (any pick of the panel, the ⭐ as
likely as any other). Used by tests/bot/play/learn/test_learn_strays.py and
tests/benchmarks/learn_runs.py.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.play import learn
from bot.play.choice_tree import Branch, Choices, Leaf
from bot.play.choices import choices
from bot.text.strings import text
from engine import CHANCE, Action, GameConfig, GameState, apply, legal_actions, new_game, parse
from engine.ai import make_ai
from engine.chance import sample_chance

NAMES = ["Ada", "AI 2 (easy)"]
# (share of combined picks, + share of "End turn", + share of cards' picks) among strays.
STYLES: dict[str, tuple[float, float, float]] = {
    "mixed": (0.25, 0.35, 0.35),
    "combo": (0.7, 0.75, 0.75),
    "early": (0.1, 0.6, 0.6),
    "cards": (0.1, 0.15, 0.7),
    "alternate": (0.3, 0.4, 0.6),
    "random": (0.0, 0.0, 0.0),
}
CARD_VERBS = ("use", "discard", "claim", "cycle", "trade", "buy", "launch")


@dataclass
class Shown:
    """One decision of the learner: the guidance shown, its texts, what was picked."""

    turn: int  # GameState.turn_number
    lesson: str | None
    key: str
    states: bool  # the text states the lesson's rule
    kind: str  # own, setup, rule, step
    texts: list[str]
    mark: Action
    picked: tuple[Action, ...]
    line: str | None = None  # the answer to another pick
    tail: str | None = None
    state: GameState | None = None  # the position it was shown in
    guidance: learn.Guidance | None = None


@dataclass
class Run:
    """A guided game as the learner saw it."""

    seed: int
    style: str
    progress: learn.Progress
    state: GameState
    log: list[Action] = field(default_factory=list)
    shown: list[Shown] = field(default_factory=list)
    learner_turns: int = 0  # the learner's turns while the script ran

    @property
    def stated(self) -> set[str]:
        return {x.lesson for x in self.shown if x.lesson is not None and x.states}

    @property
    def picks(self) -> int:
        return len(self.shown)


def leaves(c: Choices) -> list[Leaf]:
    out: list[Leaf] = []

    def walk(node: Branch) -> None:
        for kid in node.children:
            if isinstance(kid, Leaf):
                out.append(kid)
            else:
                walk(kid)

    for key in ("d", "c", "p", "o"):
        root = c.root(key)
        if root is not None:
            walk(root)
    return out


def panel_picks(s: GameState) -> list[tuple[Action, ...]]:
    """Every pick of the panel now: its menus' picks and "End turn"."""
    c = choices(s, NAMES)
    picks = [tuple(parse(m) for m in leaf.moves) for leaf in leaves(c)]
    if c.can_end:
        picks.append((parse("end"),))
    return list(dict.fromkeys(picks))


def stray(
    rng: random.Random, style: str, picks: list[tuple[Action, ...]], mark: Action
) -> tuple[Action, ...]:
    """Another pick than the ⭐, as the style strays (the ⭐ when there is none)."""
    if style == "random":
        return rng.choice(picks)
    others = [p for p in picks if p != (mark,)]
    if not others:
        return (mark,)
    combos = [p for p in others if len(p) > 1]
    ends = [p for p in others if str(p[0]) == "end"]
    cards = [p for p in others if str(p[0]).split()[0] in CARD_VERBS]
    r = rng.random()
    pc, pe, pd = STYLES[style]
    if r < pc and combos:
        return rng.choice(combos)
    if r < pe and ends:
        return rng.choice(ends)
    if r < pd and cards:
        return rng.choice(cards)
    return rng.choice(others)


def cut(progress: learn.Progress, s: GameState, moves: Sequence[Action]) -> list[Action]:
    """The moves of a pick the bot plays: up to a lesson's own decision, or chance."""
    state = s
    for i, move in enumerate(moves):
        g = learn.guidance(progress, state)
        if i and g is not None and g.lesson is not None:
            return list(moves[:i])
        after = apply(state, move)
        if after.to_act() == CHANCE:
            return list(moves[: i + 1])
        progress = learn.advance(progress, state, move, after)
        state = after
    return list(moves)


def render(key: str, params: dict[str, object], language: str) -> str:
    return text(key, language, params, NAMES)


def play(seed: int, style: str = "mixed", follow: float = 0.5, language: str = "en") -> Run:
    """A guided game to its end: the learner (seat 0) follows the ⭐ with probability
    ``follow`` (``alternate``: every other pick) and strays as ``style`` says; the AI is
    the easy AI held back by the script; after the script, the easy AI plays the
    learner's seat too."""
    s = new_game(GameConfig(players=2))
    p = learn.start()
    ai = make_ai("easy", seed=seed)
    after_script = make_ai("easy", seed=seed + 1)
    rng = random.Random(seed)
    run = Run(seed, style, p, s)
    n = 0
    while not s.over:
        assert len(run.log) < 8000, "the game does not end"
        if s.to_act() == CHANCE:
            a = learn.scripted_outcome(p, s) or sample_chance(
                s, random.Random(f"{seed}:{s.version}")
            )
            moves = [a]
        elif s.to_act() == learn.LEARNER:
            g = learn.guidance(p, s)
            if g is None:
                moves = [after_script.choose(s)]
            else:
                n += 1
                follows = (n % 2 == 0) if style == "alternate" else rng.random() < follow
                pick = (g.action,) if follows else stray(rng, style, panel_picks(s), g.action)
                moves = cut(p, s, pick)
                texts = [render(x.key, x.params, language) for x in g.notes]
                texts.append(render(g.key, g.params, language))
                if g.then is not None:
                    texts.append(render(g.then.key, g.then.params, language))
                shown = Shown(
                    s.turn_number, g.lesson, g.key, g.states, g.kind, texts, g.action, tuple(moves)
                )
                shown.state, shown.guidance = s, g
                after = s
                for m in moves:
                    after = apply(after, m)
                line = learn.consequence(p, s, moves, after, g)
                if line is not None:
                    said = [render(x.key, x.params, language) for x in line.said]
                    shown.line = " ".join(said)
                    shown.tail = line.tail
                run.shown.append(shown)
        else:
            moves = [learn.opponent_move(p, s, ai.choose(s))]
        for a in moves:
            assert a in legal_actions(s), (a, s.version)
            after = apply(s, a)
            p = learn.advance(p, s, a, after)
            if not p.over and after.current == learn.LEARNER and after.turn_number != s.turn_number:
                run.learner_turns += 1
            run.log.append(a)
            s = after
    run.progress, run.state = p, s
    return run

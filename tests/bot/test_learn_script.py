"""The guided first game (/af learn, ``bot.play.learn``): a follower sees every lesson in the
planned order and the game ends; random picks never get stuck and always get a lesson
or a consequence line; every facility, territory bonus, field and alien tech power is
taught once; every text fits three lines of a phone, in every language.
"""

from __future__ import annotations

import random
import re
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.play.learn import (
    COVERAGE,
    LEARNER,
    LESSONS,
    REQUIRED,
    Progress,
    advance,
    consequence,
    guidance,
    scripted_outcome,
    start,
)
from bot.text import i18n
from bot.text.strings import LEARN_EN, SOURCES, text
from engine import CHANCE, Action, GameConfig, GameState, apply, legal_actions, new_game
from engine.ai import make_ai
from engine.chance import chance_outcomes, sample_chance
from engine.tables import CARDS, FACILITY_ORDER, TERRITORIES

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT.parent / "shared" / "rules" / "alien-frontiers.md"
NAMES = ["Ada", "AI 2 (easy)"]  # the learner's and the AI's seat names
PHONE = 60  # characters a line on a phone
LESSON_LINES = 3
LANGUAGES = ("en", "ru", "pl")


@dataclass
class Played:
    """What a guided game showed: lessons in the order first shown, every text rendered."""

    progress: Progress
    state: GameState
    log: list[Action]
    lessons: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    picks: int = 0  # learner picks made with guidance
    lines: int = 0  # consequence lines among them


def say(key: str, params: dict[str, object], language: str) -> str:
    shown = text(key, language, params, NAMES)
    assert key in SOURCES, key
    assert not re.search(r"\{[a-z_]+\}", shown), (language, key, shown)
    return shown


def play(seed: int, language: str, follow: bool) -> Played:
    """A guided game: the learner follows every mark (or picks at random), the AI seat is
    the easy AI, chance comes from the script (a seeded RNG when it gives none). After the
    script the easy AI plays the learner's seat too, to the end."""
    s = new_game(GameConfig(players=2))
    p = start()
    ai = make_ai("easy", seed=seed)
    after_script = make_ai("easy", seed=seed + 1)
    rng = random.Random(seed)
    out = Played(p, s, [])
    while not s.over:
        assert len(out.log) < 5000, "the game does not end"
        g = None
        if s.to_act() == CHANCE:
            a = scripted_outcome(p, s)
            if a is None:
                a = sample_chance(s, random.Random(f"{seed}:{s.version}"))
            else:
                assert a in [o for o, _ in chance_outcomes(s)], a
        elif s.to_act() == LEARNER:
            legal = legal_actions(s)
            assert legal, "the learner is stuck"
            g = guidance(p, s)
            assert (g is None) == p.over, "guidance throughout the script, none after it"
            if g is None:
                a = after_script.choose(s)
            else:
                assert g.action in legal
                out.texts.append(say(g.key, g.params, language))
                if g.lesson is not None and (not out.lessons or out.lessons[-1] != g.lesson):
                    out.lessons.append(g.lesson)
                a = g.action if follow else rng.choice(legal)
        else:
            assert scripted_outcome(p, s) is None  # only chance is scripted
            a = ai.choose(s)
        after = apply(s, a)
        if g is not None:
            line = consequence(p, s, a, after, g)
            out.picks += 1
            assert (line is None) == (a == g.action), (g, a, line)
            if line is not None:
                out.lines += 1
                out.texts.append(say(line.key, line.params, language))
        p = advance(p, s, a, after)
        out.log.append(a)
        s = after
    out.progress, out.state = p, s
    return out


def refold(log: list[Action]) -> Progress:
    """The progress rebuilt from the log alone, as the bot does after a restart."""
    s = new_game(GameConfig(players=2))
    p = start()
    for a in log:
        after = apply(s, a)
        p = advance(p, s, a, after)
        s = after
    return p


@pytest.mark.parametrize(("language", "seed"), [("en", 1), ("ru", 2), ("pl", 3)])
def test_learn_follower_sees_every_lesson_in_the_planned_order(language: str, seed: int) -> None:
    played = play(seed, language, follow=True)
    assert played.lessons == [lesson.id for lesson in LESSONS]
    assert played.progress.over
    assert played.progress.skipped == ()
    assert list(played.progress.taught) == [lesson.id for lesson in LESSONS]
    assert played.state.over
    assert played.lines == 0  # the follower never gets a consequence line
    assert refold(played.log) == played.progress


@pytest.mark.parametrize(("language", "seed"), [(lang, s) for lang in LANGUAGES for s in (5, 6)])
def test_learn_random_picks_never_get_stuck(language: str, seed: int) -> None:
    played = play(seed, language, follow=False)
    assert played.state.over
    assert played.progress.over
    assert played.picks > 30 and played.lines > 0
    # Each lesson was taught or noted as skipped, never both, never lost.
    taught, skipped = played.progress.taught, played.progress.skipped
    assert sorted([*taught, *skipped]) == sorted(lesson.id for lesson in LESSONS)
    assert refold(played.log) == played.progress


def test_learn_a_pick_other_than_the_mark_says_what_it_did() -> None:
    """The first lesson marks the Solar Converter; docking at the Lunar Mine instead is
    answered with the ore it gave, and the Solar Converter lesson comes back."""
    s = new_game(GameConfig(players=2))
    p = start()
    while s.to_act() == CHANCE:
        a = scripted_outcome(p, s)
        assert a is not None
        after = apply(s, a)
        p = advance(p, s, a, after)
        s = after
    g = guidance(p, s)
    assert g is not None and g.lesson == "solar"
    other = next(a for a in legal_actions(s) if str(a).startswith("dock mine"))
    after = apply(s, other)
    line = consequence(p, s, other, after, g)
    assert line is not None and line.key == "learn.then.ore"
    said = text(line.key, "en", line.params, NAMES)
    assert said == "You docked at the Lunar Mine instead: +1 ore. This lesson comes back later."
    p = advance(p, s, other, after)
    assert "solar" not in p.taught
    g2 = guidance(p, after)
    assert g2 is not None and g2.lesson == "solar"  # it comes back with the next ship


def test_learn_coverage_teaches_each_thing_once_and_names_real_rules() -> None:
    counts: dict[str, int] = {}
    for taught in COVERAGE.values():
        for thing in taught.things:
            counts[thing] = counts.get(thing, 0) + 1
    assert {t for t in REQUIRED if counts.get(t) != 1} == set()
    assert {f"facility:{f}" for f in FACILITY_ORDER} <= REQUIRED
    assert {f"territory:{t}" for t in TERRITORIES} <= REQUIRED
    assert {"field:isolation", "field:positron", "field:repulsor"} <= REQUIRED
    assert {"tech:use", "tech:discard"} <= REQUIRED
    assert all(n == 1 for n in counts.values()), counts
    assert set(COVERAGE) == {lesson.id for lesson in LESSONS}
    named = {rule for taught in COVERAGE.values() for rule in taught.rules}
    assert all(re.fullmatch(r"R-[A-Z]+(-[A-Z0-9]+)*", rule) for rule in named)
    if RULES.exists():  # ../shared/rules beside the project
        ids = set(re.findall(r"\b(R-[A-Z]+(?:-[A-Z0-9]+)*)\b", RULES.read_text()))
        assert named - ids == set()


def sample_params(key: str) -> list[dict[str, object]]:
    """Parameters a text meets in play, the longest names of each language included."""
    base: dict[str, object] = {
        "values": "6 5r",
        "old": 4,
        "new": 3,
        "rate": 6,
        "fuel": 3,
        "ore": 3,
        "space": 7,
        "victim": 1,
        "facility": "constructor",
        "card": "gravity",
        "territory": "vanvogt",
    }
    variants = [base]
    variants += [{**base, "territory": t} for t in TERRITORIES]
    variants += [{**base, "card": c} for c in CARDS]
    variants += [{**base, "facility": f} for f in FACILITY_ORDER]
    variants += [{**base, "rate": 1, "fuel": 1, "ore": 1}, {**base, "rate": 2, "fuel": 2}]
    return variants


@pytest.mark.parametrize("language", i18n.languages())
def test_learn_every_text_fits_three_phone_lines(language: str) -> None:
    """Lessons at most three lines of 60 characters; steps and consequence lines too (one
    sentence or two). Translations fall back to English until they are merged."""
    assert len(LEARN_EN) > 40
    for key in LEARN_EN:
        if not key.startswith("learn."):
            continue  # /af learn's own answers and descriptions (bot/discord/cogs/learn.py)
        for params in sample_params(key):
            shown = say(key, params, language)
            lines = textwrap.wrap(shown, PHONE)
            assert len(lines) <= LESSON_LINES, (language, key, lines)


def test_learn_every_lesson_has_its_text() -> None:
    keys = {lesson.key for lesson in LESSONS}
    assert keys <= set(LEARN_EN)
    texts = {k for k in LEARN_EN if k.startswith("learn.lesson.")}
    assert {k.split(".")[2] for k in texts} == {lesson.id for lesson in LESSONS}

"""The learner's progress through the lessons, as a pure fold over the game's actions,
and the guidance it gives at each of the learner's decisions.

``Progress`` holds only what the lessons' order needs (taught, skipped, the chapter of
this turn and how many turns it has had): the bot rebuilds it after a restart by
folding ``advance`` over the game's log, chance outcomes included.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final, NamedTuple

from bot.play.learn.lesson import Lesson
from bot.play.learn.lessons import BY_ID, LESSONS, seen_at
from bot.play.learn.picks import LEARNER
from bot.play.learn.steps import step
from engine import Action, GameState
from engine.rulebook import RULEBOOK

# Turns a chapter gets: its planned turn and two more when the learner picked other
# moves. Past them its lessons still untaught are skipped, so the script always ends.
TURNS_PER_CHAPTER: Final = 3


@dataclass(frozen=True, slots=True)
class Progress:
    """Where the learner is in the script. Immutable; made by ``start`` and ``advance``."""

    taught: tuple[str, ...] = ()  # lesson ids, in the order the learner did them
    skipped: tuple[str, ...] = ()  # lessons that could not be reached in their turns
    chapter: int = 0  # the chapter of the learner's current (or next) turn
    turns: int = 0  # learner turns this chapter has had
    over: bool = False  # the script is over: the game goes on without guidance

    @property
    def done(self) -> frozenset[str]:
        return frozenset(self.taught) | frozenset(self.skipped)

    def pending(self) -> list[Lesson]:
        """The lessons still to come, in the planned order."""
        done = self.done
        return [lesson for lesson in LESSONS if lesson.id not in done]


class Guidance(NamedTuple):
    """What the guide shows at a decision of the learner: a lesson (``lesson`` is its id)
    or a step (``lesson`` None), its text (``key``, ``params`` for ``bot.text.strings.text``)
    and the suggested pick, one of ``legal_actions(state)``."""

    lesson: str | None
    key: str
    params: dict[str, object]
    action: Action


def start() -> Progress:
    """The progress of a new guided game."""
    return Progress()


def guidance(progress: Progress, state: GameState) -> Guidance | None:
    """The lesson (or step) and suggested pick at a decision of the learner, or None: not
    the learner's decision, or the script is over."""
    if progress.over or state.over or state.to_act() != LEARNER:
        return None
    pending = progress.pending()
    seen = seen_at(state, frozenset(lesson.id for lesson in pending), progress.chapter)
    for lesson in pending:
        if lesson.chapter != progress.chapter:
            continue
        action = lesson.suggest(seen)
        if action is not None:
            key = lesson.key_for(action)
            return Guidance(lesson.id, key, lesson.params(seen, action), action)
    found = step(state, seen.need)
    return Guidance(None, found.key, found.params, found.action)


def followed(g: Guidance, action: Action) -> bool:
    """Whether the learner's move did the lesson of ``g`` (the suggestion, or a move that
    teaches the same: another die at the same facility)."""
    return g.lesson is not None and BY_ID[g.lesson].followed(action, g.action)


def advance(progress: Progress, before: GameState, action: Action, after: GameState) -> Progress:
    """The progress after ``action`` took ``before`` to ``after`` (any action of the log:
    the learner's, the AI's, or chance)."""
    if progress.over:
        return progress
    p = progress
    if not RULEBOOK.is_chance(action) and before.to_act() == LEARNER:
        g = guidance(p, before)
        if g is not None and g.lesson is not None and followed(g, action):
            p = replace(p, taught=(*p.taught, g.lesson))
    if after.over:
        return replace(p, skipped=(*p.skipped, *[x.id for x in p.pending()]), over=True)
    if after.current == LEARNER and after.turn_number != before.turn_number:
        p = new_turn(p, after)
    if not p.pending():
        p = replace(p, over=True)
    return p


def new_turn(p: Progress, s: GameState) -> Progress:
    """At the start of a learner's turn: the chapter this turn plays, skipping lessons that
    can no longer come and chapters that had their turns."""
    while True:
        pending = p.pending()
        if not pending:
            return replace(p, over=True)
        chapter = pending[0].chapter
        lessons = [x for x in pending if x.chapter == chapter]
        gone = [x.id for x in lessons if not x.possible(s)]
        if chapter == p.chapter and p.turns >= TURNS_PER_CHAPTER:
            gone = [x.id for x in lessons]
        if gone:
            p = replace(p, skipped=(*p.skipped, *gone))
            if len(gone) == len(lessons):
                p = replace(p, chapter=chapter + 1, turns=0)
            continue
        if chapter != p.chapter:
            p = replace(p, chapter=chapter, turns=0)
        return replace(p, turns=p.turns + 1)

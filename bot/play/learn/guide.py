"""The learner's progress through the lessons, as a pure fold over the game's actions,
and the guidance it gives at each of the learner's decisions.

A turn plays a *chapter*: its lessons, in order, each shown (📘) where it applies with
its pick marked (⭐). A lesson the learner passes by stays on offer: later in the turn if
it still applies, else in the next turns, set up again (its dice rolled again, the pick
that leads to it marked with its ``.setup`` text), for ``MAX_TRIES`` turns from the turn
it could first come; then it is let go (and the learner is told so, never promised it
comes back when it will not). The next chapter starts when every lesson of this one is
done or let go, so the order holds and the script always ends.

``Progress`` holds only what that needs: the bot rebuilds it after a restart by folding
``advance`` over the game's log, chance outcomes included.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final, NamedTuple

from bot.play.learn.lesson import Lesson, Seen
from bot.play.learn.lessons import BY_ID, LESSONS, NEEDS_CARD, seen_at
from bot.play.learn.picks import LEARNER
from bot.play.learn.steps import step
from engine import Action, GameState, legal_actions
from engine.actions import (
    DiscardBooster,
    DiscardField,
    DiscardPlasma,
    DiscardPolarity,
    DiscardTeleporter,
    DiscardWarper,
)
from engine.rulebook import RULEBOOK

# Turns a lesson is offered (set up again) from the turn it could first come; one only
# once the learner is down to ``HURRY_COLONIES`` colonies (they may end the game soon).
MAX_TRIES: Final = 2
HURRY_COLONIES: Final = 3
# The lesson on how the game ends: the last, or as soon as the learner may end the game.
LAST_LESSON: Final = "end_game"
DISCARDS: Final = (
    DiscardField,
    DiscardBooster,
    DiscardTeleporter,
    DiscardPolarity,
    DiscardPlasma,
    DiscardWarper,
)


@dataclass(frozen=True, slots=True)
class Progress:
    """Where the learner is in the script. Immutable; made by ``start`` and ``advance``."""

    taught: tuple[str, ...] = ()  # lesson ids, in the order the learner did them
    let_go: tuple[str, ...] = ()  # lessons offered ``MAX_TRIES`` turns and never done
    seen: tuple[str, ...] = ()  # lessons whose text was shown, in the order first shown
    tries: tuple[tuple[str, int], ...] = ()  # lesson -> turns it was on offer (ended)
    offered: tuple[str, ...] = ()  # lessons on offer in the learner's turn in play
    said: tuple[str, ...] = ()  # lessons shown in the learner's turn in play
    chapter: int = 0  # the chapter of the learner's current (or next) turn
    hurry: bool = False  # the learner may end the game soon: one turn a lesson
    over: bool = False  # the script is over: the game goes on without guidance
    over_turn: int = -1  # the turn (``GameState.turn_number``) in which it ended

    @property
    def done(self) -> frozenset[str]:
        return frozenset(self.taught) | frozenset(self.let_go)

    def pending(self) -> list[Lesson]:
        """The lessons still to come, in the planned order."""
        done = self.done
        return [lesson for lesson in LESSONS if lesson.id not in done]

    def tried(self, lesson: str) -> int:
        return dict(self.tries).get(lesson, 0)

    @property
    def max_tries(self) -> int:
        return 1 if self.hurry else MAX_TRIES

    def active(self) -> list[Lesson]:
        """The lessons on offer now: this chapter's, once the lesson whose pick leads to
        them (``after``) is done or let go; those that come back first (their next chance
        is now), then in the planned order."""
        pending = self.pending()
        ids = {x.id for x in pending}
        found = [x for x in pending if x.chapter == self.chapter and x.after not in ids]
        return sorted(found, key=lambda x: self.tried(x.id) == 0)


class Note(NamedTuple):
    """A line shown above the lesson: ``key`` and ``params`` for ``bot.text.strings.text``."""

    key: str
    params: dict[str, object]


class Guidance(NamedTuple):
    """What the guide shows at a decision of the learner: a lesson (``lesson`` is its id;
    ``setup``: the pick that leads to it) or a step (``lesson`` None), its text (``key``,
    ``params`` for ``bot.text.strings.text``), the suggested pick (one of
    ``legal_actions(state)``) and the lines above it (``notes``: the goal, a warning)."""

    lesson: str | None
    key: str
    params: dict[str, object]
    action: Action
    setup: bool = False
    notes: tuple[Note, ...] = ()


def start() -> Progress:
    """The progress of a new guided game."""
    return Progress()


def guidance(progress: Progress, state: GameState) -> Guidance | None:
    """The lesson (or step) and suggested pick at a decision of the learner, or None: not
    the learner's decision, or the script is over."""
    if progress.over or state.over or state.to_act() != LEARNER:
        return None
    found = _guide(progress, state)
    return found._replace(notes=notes(progress, state, found))


def _guide(progress: Progress, state: GameState) -> Guidance:
    pending = progress.pending()
    seen = seen_at(state, frozenset(x.id for x in pending), progress.chapter)
    active = progress.active()
    last = BY_ID[LAST_LESSON]
    if last in pending and colonies_left(state) <= 1:
        active = [last]  # the learner may place their last colony: how the game ends, now
    found = step(state, seen.need)
    # A lesson in its last turn and never said yet comes first: its pick, its setup, or
    # its rule with the step's pick; then the others' picks, then their setups.
    unsaid = [
        x
        for x in active
        if x.id not in progress.seen and progress.tried(x.id) >= progress.max_tries - 1
    ]
    for lesson in unsaid:
        return own(lesson, seen) or set_up(lesson, seen) or fallback(lesson, found.action)
    for lesson in active:
        g = own(lesson, seen)
        if g is not None:
            return g
    for lesson in active:
        g = set_up(lesson, seen)
        if g is not None:
            return g
    for lesson in active:  # its last turn, not said in it yet: its rule, with the step's pick
        if lesson.id not in progress.said and progress.tried(lesson.id) >= progress.max_tries - 1:
            return fallback(lesson, found.action)
    return Guidance(None, found.key, found.params, found.action)


def own(lesson: Lesson, seen: Seen) -> Guidance | None:
    """The lesson with its own pick, if it applies now."""
    action = lesson.suggest(seen)
    if action is None:
        return None
    return Guidance(lesson.id, lesson.key_for(action), lesson.params(seen, action), action)


def set_up(lesson: Lesson, seen: Seen) -> Guidance | None:
    """The lesson with the pick that leads to it, if it has one now."""
    action = lesson.setup(seen) if lesson.setup is not None else None
    if action is None:
        return None
    key = setup_key(lesson, action)
    return Guidance(lesson.id, key, lesson.setup_params(seen, action), action, True)


def fallback(lesson: Lesson, action: Action) -> Guidance:
    """The lesson's rule said without its pick (``action``: the step's)."""
    return Guidance(lesson.id, lesson.fallback or lesson.key, {}, action, True)


def setup_key(lesson: Lesson, action: Action) -> str:
    """The text of a lesson's setup: the card lessons share theirs (claim the card, or
    cycle the display for it, or dock at the Alien Artifact)."""
    if lesson.id in NEEDS_CARD:
        name = type(action).__name__.lower()
        return f"learn.setup.card.{name}" if name in ("claim", "cycle") else "learn.setup.card"
    return f"{lesson.key}.setup"


def notes(progress: Progress, state: GameState, g: Guidance) -> tuple[Note, ...]:
    """The lines above the lesson: the goal of the game, all through the first turn; a
    warning while a pick would give a card up (and the lesson is not about that)."""
    found: list[Note] = []
    if state.turn_number <= 1:
        found.append(Note("learn.goal", {}))
    if not isinstance(g.action, DISCARDS):
        discards = [a for a in legal_actions(state) if isinstance(a, DISCARDS)]
        if discards:
            held = state.players[LEARNER].cards
            later = [c for lesson in progress.pending() for c in NEEDS_CARD.get(lesson.id, ())]
            keep = next((c for c in later if c in held), None)
            if keep is not None:
                found.append(Note("learn.warn.discard.keep", {"card": keep}))
            else:
                found.append(Note("learn.warn.discard", {}))
    return tuple(found)


def followed(g: Guidance, action: Action) -> bool:
    """Whether the learner's move did the lesson of ``g`` (the suggestion, or a move that
    teaches the same: another die at the same facility); a setup's pick only leads there."""
    return g.lesson is not None and not g.setup and BY_ID[g.lesson].followed(action, g.action)


def advance(progress: Progress, before: GameState, action: Action, after: GameState) -> Progress:
    """The progress after ``action`` took ``before`` to ``after`` (any action of the log:
    the learner's, the AI's, or chance)."""
    if progress.over:
        return progress
    p = progress
    if not RULEBOOK.is_chance(action) and before.to_act() == LEARNER:
        g = guidance(p, before)
        offered = [x.id for x in p.active() if x.id not in p.offered]
        p = replace(p, offered=(*p.offered, *offered))
        if g is not None and g.lesson is not None:
            if g.lesson not in p.seen:
                p = replace(p, seen=(*p.seen, g.lesson))
            if g.lesson not in p.said:
                p = replace(p, said=(*p.said, g.lesson))
            if followed(g, action):
                p = replace(p, taught=(*p.taught, g.lesson))
    if after.over:
        gone = tuple(x.id for x in p.pending())
        return replace(p, let_go=(*p.let_go, *gone), over=True, over_turn=after.turn_number)
    if after.current == LEARNER and after.turn_number != before.turn_number:
        p = new_turn(p, after)
    if not p.pending():
        p = replace(p, over=True, over_turn=after.turn_number)
    return p


def new_turn(p: Progress, s: GameState) -> Progress:
    """At the start of a learner's turn (``s``): the turns the lessons offered in the last
    one have had, the ones let go, whether to hurry, and the chapter this turn plays."""
    hurry = colonies_left(s) <= HURRY_COLONIES
    limit = 1 if hurry else MAX_TRIES
    tries = dict(p.tries)
    pending = {x.id for x in p.pending()}
    for lesson in p.offered:
        if lesson in pending:
            tries[lesson] = tries.get(lesson, 0) + 1
    gone = tuple(
        x.id
        for x in p.pending()
        if tries.get(x.id, 0) >= (limit if x.id in p.seen else MAX_TRIES)  # said, then gone
    )
    p = replace(
        p,
        tries=tuple(sorted(tries.items())),
        let_go=(*p.let_go, *gone),
        offered=(),
        said=(),
        hurry=hurry,
    )
    left = p.pending()
    if not left:
        return p
    return replace(p, chapter=left[0].chapter)


def colonies_left(s: GameState) -> int:
    """The learner's colonies not on the planet (one on the Colony Hub's track included)."""
    me = s.players[LEARNER]
    return me.colonies + (1 if me.hub else 0)


def comes_back(progress: Progress, lesson: str, after: GameState, later: Progress) -> bool:
    """Whether a lesson the learner just passed by will be shown again: in a later turn
    (it has turns left), or at once (it is the guidance of the next decision)."""
    if lesson in later.done:
        return False
    # A later turn: it has one left, even if one more colony is placed before it.
    if progress.tried(lesson) + 1 < MAX_TRIES and colonies_left(after) > HURRY_COLONIES + 1:
        return True
    g = guidance(later, after)
    return g is not None and g.lesson == lesson

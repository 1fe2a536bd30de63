"""The learner's progress through the lessons, as a pure fold over the game's actions,
and the guidance it gives at each of the learner's decisions.

A turn plays a *chapter*: its lessons, in order, each shown (📘) where it applies with
its pick marked (⭐). A lesson the learner passes by stays on offer: later in the turn if
it still applies, else in the next turns, set up again (its dice rolled again, the pick
that leads to it marked with its ``.setup`` text). It is let go after ``MAX_TRIES`` turns
in which it was shown with its pick or its setup (``CARD_TRIES`` for a lesson on a card
the learner may have to claim again), or ``WAIT_LIMIT`` turns in which it was on: turns
spent elsewhere (the dice gone, a cost not met) do not count as tries.

Whatever the learner picks, every lesson's rule is *stated* once: by its own text with
its pick, by a setup text that says it, or, when neither comes, by its rule text (its
``fallback``, said with the step's pick and the step's line): in its last turn, and if it
is let go unstated, at the first free decision after (it is *owed*). The next chapter
starts when every lesson of this one is done or let go, so the order holds and the script
always ends.

``Progress`` holds only what that needs: the bot rebuilds it after a restart by folding
``advance`` over the game's log, chance outcomes included.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final, Literal, NamedTuple

from bot.play.learn.finders import LEARNER
from bot.play.learn.lesson import Lesson, Seen
from bot.play.learn.lessons import BY_ID, LESSONS, NEEDS_CARD, seen_at
from bot.play.learn.steps import Suggestion, step
from engine import (
    RULEBOOK,
    Action,
    DiscardBooster,
    DiscardField,
    DiscardPlasma,
    DiscardPolarity,
    DiscardTeleporter,
    DiscardWarper,
    GameState,
    Place,
    legal_actions,
)

# Turns a lesson is shown with its pick or its setup before it is let go (a card lesson:
# the card may have to be claimed again first); one only once the learner is down to
# ``HURRY_COLONIES`` colonies (they may end the game soon). Turns a lesson may be on
# without being shown (its dice gone, its cost not met) before it is let go.
MAX_TRIES: Final = 2
CARD_TRIES: Final = 2
WAIT_LIMIT: Final = 2
HURRY_COLONIES: Final = 3
# The lessons said as soon as the learner may end the game (their last colony): R-HUB-4
# and how the game ends.
LAST_LESSONS: Final = ("last_colony", "end_game")
DISCARDS: Final = (
    DiscardField,
    DiscardBooster,
    DiscardTeleporter,
    DiscardPolarity,
    DiscardPlasma,
    DiscardWarper,
)
Kind = Literal["own", "setup", "rule", "step"]


@dataclass(frozen=True, slots=True)
class Progress:
    """Where the learner is in the script. Immutable; made by ``start`` and ``advance``."""

    taught: tuple[str, ...] = ()  # lesson ids, in the order the learner did them
    let_go: tuple[str, ...] = ()  # lessons given up (their turns over)
    seen: tuple[str, ...] = ()  # lessons whose text was shown, in the order first shown
    stated: tuple[str, ...] = ()  # lessons whose rule was said (own text, or rule text)
    owed: tuple[str, ...] = ()  # lessons let go unstated: their rule is said next
    tries: tuple[tuple[str, int], ...] = ()  # lesson -> turns shown with its pick or setup
    waits: tuple[tuple[str, int], ...] = ()  # lesson -> turns it was on (ended)
    on: tuple[str, ...] = ()  # lessons on in the learner's turn in play
    offered: tuple[str, ...] = ()  # lessons shown with their pick or setup in it
    said: tuple[str, ...] = ()  # lessons shown in it (in any form)
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

    def waited(self, lesson: str) -> int:
        return dict(self.waits).get(lesson, 0)

    def limit(self, lesson: str) -> int:
        """The turns ``lesson`` is shown with its pick or setup before it is let go."""
        if self.hurry:
            return 1
        return CARD_TRIES if lesson in NEEDS_CARD else MAX_TRIES

    def last_chance(self, lesson: str) -> bool:
        """Whether this turn is the lesson's last (if it is shown, or on, in it)."""
        return self.tried(lesson) >= self.limit(lesson) - 1 or self.waited(lesson) >= WAIT_LIMIT - 1

    def overdue(self, lesson: str) -> bool:
        """Whether the lesson's turns are over though it was not said in its last one: it
        is said first in this one, then let go (so "comes back later" comes true)."""
        return self.tried(lesson) >= self.limit(lesson) or self.waited(lesson) >= WAIT_LIMIT

    def active(self) -> list[Lesson]:
        """The lessons on offer now: this chapter's, once the lesson whose pick leads to
        them (``after``) is done or let go; those that come back first (their next chance
        is now), then in the planned order."""
        pending = self.pending()
        ids = {x.id for x in pending}
        found = [x for x in pending if x.chapter <= self.chapter and x.after not in ids]
        return sorted(found, key=lambda x: self.tried(x.id) == 0)


class Note(NamedTuple):
    """A line shown with the lesson: ``key`` and ``params`` for ``bot.text.strings.text``."""

    key: str
    params: dict[str, object]


class Guidance(NamedTuple):
    """What the guide shows at a decision of the learner: a lesson (``lesson`` is its id)
    or a step (``lesson`` None), its text (``key``, ``params`` for
    ``bot.text.strings.text``), the suggested pick (one of ``legal_actions(state)``), the
    lines above it (``notes``: the goal, a warning) and the line after it (``then``: the
    step's, when the pick is the step's, not the lesson's own).

    ``kind``: ``own`` (the lesson's pick), ``setup`` (the pick that leads to it), ``rule``
    (its rule said with the step's pick) or ``step``; ``states``: whether the text states
    the lesson's rule."""

    lesson: str | None
    key: str
    params: dict[str, object]
    action: Action
    setup: bool = False  # the pick is not the lesson's own (a setup, or the step's)
    notes: tuple[Note, ...] = ()
    kind: Kind = "step"
    states: bool = False
    then: Note | None = None


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
    found = step(state, seen.need)
    stepping = Guidance(None, found.key, found.params, found.action)
    if colonies_left(state) <= 1:  # the learner may place their last colony now: the last
        # colony and how the game ends first, then every rule not said yet
        for lesson in pending:
            g = own(lesson, seen, found) if lesson.id in LAST_LESSONS else None
            if g is not None:
                return g
        unsaid = [*progress.owed, *(x.id for x in pending if x.id not in progress.stated)]
        for lesson_id in unsaid:
            return rule(BY_ID[lesson_id], stepping)
    # The lessons' own picks first (those in their last turn first: ``active``'s order);
    # then the rule of a lesson in its last turn not said in it (unstated: its rule, else
    # its setup or its rule again), the rules owed, the setups, the lessons that are a
    # rule only, the step. A rule said without its pick marks the pick that would come
    # next (a setup's, or the step's) and shows that pick's line after it.
    picks = [own(lesson, seen, found) for lesson in active]
    setups = [g for g in (set_up(lesson, seen) for lesson in active) if g is not None]
    base = setups[0] if setups else stepping
    for lesson, g in zip(active, picks, strict=True):  # overdue: said first, then let go
        if lesson.id not in progress.said and progress.overdue(lesson.id):
            mine = next((x for x in setups if x.lesson == lesson.id), None)
            return g or mine or rule(lesson, base)
    for g in picks:
        if g is not None and g.then is None:
            return g
    for lesson in active:
        if lesson.id in progress.said or not progress.last_chance(lesson.id):
            continue
        ruled = next((x for x in picks if x is not None and x.lesson == lesson.id), None)
        if ruled is not None:  # a rule only (or said without its card): said, and done
            return ruled
        g = next((x for x in setups if x.lesson == lesson.id), None)
        if lesson.id not in progress.stated and (g is None or not g.states):
            return rule(lesson, g or base)
        return g or rule(lesson, base)
    for owed in progress.owed:
        return rule(BY_ID[owed], base)
    if setups:
        return setups[0]
    ruled = next((g for g in picks if g is not None), None)
    if ruled is not None:
        return ruled
    # Nothing of a lesson's to pick now: the rule of one never said yet, with the step's
    # pick (the turn says every lesson it is on; it may come back with its pick later).
    for lesson in active:
        if lesson.id not in progress.stated and lesson.id not in progress.said:
            return rule(lesson, stepping)
    return stepping


def own(lesson: Lesson, seen: Seen, found: Suggestion) -> Guidance | None:
    """The lesson with its own pick, if it applies now (a lesson that is a rule only: with
    the step's pick, and the step's line after it)."""
    action = lesson.suggest(seen)
    if action is None:
        return None
    then = Note(found.key, found.params) if lesson.with_step(action) else None
    params = lesson.params(seen, action)
    key = lesson.key_for(seen, action)
    return Guidance(lesson.id, key, params, action, False, (), "own", True, then)


def set_up(lesson: Lesson, seen: Seen) -> Guidance | None:
    """The lesson with the pick that leads to it, if it has one now."""
    action = lesson.setup(seen) if lesson.setup is not None else None
    if action is None:
        return None
    key = setup_key(lesson, action, seen.state)
    params = lesson.setup_params(seen, action)
    return Guidance(lesson.id, key, params, action, True, (), "setup", lesson.setup_states)


def rule(lesson: Lesson, base: Guidance) -> Guidance:
    """The lesson's rule said without its pick: with the pick of ``base`` (a setup's, or
    the step's) and its line."""
    then = Note(base.key, base.params)
    key = lesson.fallback or lesson.key
    return Guidance(lesson.id, key, {}, base.action, True, (), "rule", True, then)


def setup_key(lesson: Lesson, action: Action, state: GameState) -> str:
    """The text of a lesson's setup: the card lessons share theirs (claim the card, or
    cycle the display for it, or dock at the Alien Artifact: the card on display, or
    still in the deck); a colony placed for a lesson has its ``.place`` text."""
    if lesson.id in NEEDS_CARD:
        name = type(action).__name__.lower()
        if name in ("claim", "cycle"):
            return f"learn.setup.card.{name}"
        shown = any(c in state.display for c in NEEDS_CARD[lesson.id])
        return "learn.setup.card" if shown else "learn.setup.card.deck"
    if isinstance(action, Place):
        return f"{lesson.key}.place"
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
    return g.lesson is not None and g.kind == "own" and BY_ID[g.lesson].followed(action, g.action)


def _add(items: tuple[str, ...], *more: str) -> tuple[str, ...]:
    return (*items, *[x for x in more if x not in items])


def advance(progress: Progress, before: GameState, action: Action, after: GameState) -> Progress:
    """The progress after ``action`` took ``before`` to ``after`` (any action of the log:
    the learner's, the AI's, or chance)."""
    if progress.over:
        return progress
    p = progress
    if not RULEBOOK.is_chance(action) and before.to_act() == LEARNER:
        g = guidance(p, before)
        p = replace(p, on=_add(p.on, *(x.id for x in p.active())))
        if g is not None and g.lesson is not None:
            p = replace(p, seen=_add(p.seen, g.lesson), said=_add(p.said, g.lesson))
            if g.states:
                owed = tuple(x for x in p.owed if x != g.lesson)
                p = replace(p, stated=_add(p.stated, g.lesson), owed=owed)
            if g.kind in ("own", "setup"):
                p = replace(p, offered=_add(p.offered, g.lesson))
            if followed(g, action) and g.lesson not in p.done:
                p = replace(p, taught=(*p.taught, g.lesson))
    if after.over:
        gone = tuple(x.id for x in p.pending())
        return replace(p, let_go=(*p.let_go, *gone), over=True, over_turn=after.turn_number)
    if after.current == LEARNER and after.turn_number != before.turn_number:
        p = new_turn(p, after)
    if not p.pending() and not p.owed:
        p = replace(p, over=True, over_turn=after.turn_number)
    return p


def new_turn(p: Progress, s: GameState) -> Progress:
    """At the start of a learner's turn (``s``): the turns the lessons had in the last one
    (shown, on), the ones let go (owed their rule if it was never said), whether to hurry,
    and the chapter this turn plays."""
    hurry = colonies_left(s) <= HURRY_COLONIES
    tries, waits = dict(p.tries), dict(p.waits)
    pending = {x.id for x in p.pending()}
    for lesson in p.offered:
        if lesson in pending:
            tries[lesson] = tries.get(lesson, 0) + 1
    for lesson in p.on:
        if lesson in pending:
            waits[lesson] = waits.get(lesson, 0) + 1
    p = replace(p, tries=tuple(sorted(tries.items())), waits=tuple(sorted(waits.items())))
    p = replace(p, hurry=hurry)
    # Let go: a lesson whose turns are over, once said in its last one (else it is said
    # first in this one: overdue), or a turn after that at the latest.
    gone = tuple(
        x.id
        for x in p.pending()
        if (tries.get(x.id, 0) >= p.limit(x.id) or waits.get(x.id, 0) >= WAIT_LIMIT)
        and (
            x.id in p.said or waits.get(x.id, 0) > WAIT_LIMIT or tries.get(x.id, 0) > p.limit(x.id)
        )
    )
    owed = _add(p.owed, *(x for x in gone if x not in p.stated))
    p = replace(p, let_go=(*p.let_go, *gone), owed=owed, on=(), offered=(), said=())
    left = p.pending()
    if not left:
        return p
    # The next chapter starts once every lesson of this one was said: those left come
    # along (a second chance), their dice after the new chapter's.
    unsaid = [x for x in left if x.id not in p.stated]
    return replace(p, chapter=(unsaid or left)[0].chapter)


def colonies_left(s: GameState) -> int:
    """The learner's colonies not on the planet (one on the Colony Hub's track included)."""
    me = s.players[LEARNER]
    return me.colonies + (1 if me.hub else 0)


Back = Literal["now", "later", "rule"]


def comes_back(progress: Progress, lesson: str, after: GameState, later: Progress) -> Back | None:
    """Whether a lesson the learner just passed by will be shown again: at once (it is the
    guidance of their next decision), in a later turn (it has turns left, even if one more
    colony is placed before it), or as a rule only (its turns are over and its rule was
    never said: it is owed); None: it was its last turn."""
    g = guidance(later, after)
    if g is not None and g.lesson == lesson:
        return "now"
    if lesson not in later.done:
        hurry = colonies_left(after) <= HURRY_COLONIES + 1
        limit = 1 if hurry else later.limit(lesson)
        tries = later.tried(lesson) + (lesson in later.offered)
        waits = later.waited(lesson) + 1
        if tries < limit and waits < WAIT_LIMIT:
            return "later"
    if lesson not in later.stated:
        return "rule"
    return None

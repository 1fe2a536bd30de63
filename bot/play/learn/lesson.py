"""What a lesson is: what it teaches, when it applies, what it marks and what it costs.

A lesson of the guided game is data (``bot.play.learn.lessons`` lists them): the rule ids of
``shared/rules/alien-frontiers.md`` and the things of the game it teaches, its text
(``learn.lesson.<id>``), ``suggest`` (the legal pick it marks now, or None when it does
not apply), the dice its turn's roll needs, what it will cost (the steps gather it
before), and whether a move other than the mark still counts as doing it.

A lesson that needs an earlier pick of the same turn (``after``: taking a card needs ships
at the Alien Artifact totalling 8) or a thing the learner may have lost (a card, a colony
to place) has a ``setup``: the pick that leads to it again when it did not come, shown
with its text's ``.setup`` variant (``setup_states``: that text states the rule too). Its
dice then come from ``setup_dice``: a missed lesson is set up again in the next turns. If
in its last turn neither comes, its rule is said all the same (``fallback``), with the
step's pick and line: never dropped unsaid. A lesson that is a rule only (the neutral
ships, how the game ends) marks the step's pick (``with_step``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass

from bot.play.learn.steps import NOTHING_NEEDED, Need
from engine import Action, DiscardField, Dock, GameState, Place


@dataclass(frozen=True, slots=True)
class Seen:
    """What a lesson looks at: the state, the lessons still to come, this turn's chapter
    and what the coming lessons need (``bot.play.learn.lessons.seen_at``)."""

    state: GameState
    pending: Collection[str]
    chapter: int = 0
    need: Need = NOTHING_NEEDED  # what the coming lessons cost and claim


Suggest = Callable[[Seen], Action | None]
Params = dict[str, object]
Cost = Callable[[GameState], tuple[int, int]]  # (fuel, ore)
Dice = Callable[[Seen], tuple[int, ...]]


def _no_dice(seen: Seen) -> tuple[int, ...]:
    return ()


def _no_params(seen: Seen, a: Action) -> Params:
    return {}


def _free(s: GameState) -> tuple[int, int]:
    return (0, 0)


def _no_variant(seen: Seen, a: Action) -> str | None:
    return None


def _never(a: Action) -> bool:
    return False


def always(a: Action) -> bool:
    """``with_step`` of a lesson that is a rule only: it marks the step's pick."""
    return True


def same_kind(taken: Action, suggested: Action) -> bool:
    """Whether the move taken does what the lesson is about: the suggested move, or the
    same kind of action at the same facility (another die there teaches the same), the
    same card discarded."""
    if taken == suggested:
        return True
    if type(taken) is not type(suggested):
        return False
    if isinstance(taken, Dock) and isinstance(suggested, Dock):
        return taken.facility == suggested.facility
    if isinstance(taken, DiscardField) and isinstance(suggested, DiscardField):
        return taken.card == suggested.card
    return not isinstance(taken, Place)  # a placement teaches its territory only


@dataclass(frozen=True, slots=True)
class Lesson:
    """One lesson: what it teaches, when it applies and what it marks."""

    id: str
    chapter: int
    rules: tuple[str, ...]  # the rule ids it teaches (R-...)
    teaches: tuple[str, ...]  # things covered once over the script: "facility:solar", ...
    suggest: Suggest
    dice: Dice = _no_dice  # values its turn's roll needs
    cost: Cost = _free
    params: Callable[[Seen, Action], Params] = _no_params
    # (taken, suggested) -> whether the learner's move counts as doing the lesson.
    followed: Callable[[Action, Action], bool] = same_kind
    # The variant of its text for a suggestion it words differently (None: the text).
    variant: Callable[[Seen, Action], str | None] = _no_variant
    after: str | None = None  # the lesson of this turn whose pick leads to this one
    setup: Suggest | None = None  # the pick that leads to it when it did not come
    setup_dice: Dice = _no_dice  # the dice its setup needs, the turns it is set up again
    setup_params: Callable[[Seen, Action], Params] = _no_params
    # Its text when neither its pick nor its setup comes in its last turn (it is said all
    # the same, with the step's pick): a key without parameters, None for its own text.
    fallback: str | None = None
    # Whether its setup's text states its rule (then it counts as said).
    setup_states: bool = False
    # Whether the pick it suggests is the step's (a rule said with whatever the step
    # marks): the step's line is shown after its text.
    with_step: Callable[[Action], bool] = _never

    @property
    def key(self) -> str:
        return f"learn.lesson.{self.id}"

    def key_for(self, seen: Seen, suggested: Action) -> str:
        """The text shown with ``suggested``: the lesson's, or one of its variants."""
        variant = self.variant(seen, suggested)
        return self.key if variant is None else f"{self.key}.{variant}"

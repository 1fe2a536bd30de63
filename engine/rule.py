"""What the rule of one type of action declares, side by side: which actions of that type
are legal now, why one is not, what it does, and how it is written.

A rule subclasses ``Rule`` in the module of the thing it belongs to (a facility, a card,
the turn) and is listed in ``engine.rulebook``; ``legal_actions``, the checked door and
``apply_in_place`` are generic over that list. A rule's *context* is what the action
answers: the acting seat (an ``int``) for a free action of the current player, or the
pending decision it answers (``answers`` names the decision type).

Refusal and options agree by construction: ``options`` are the ``candidates`` the
refusal lets through (a rule may compute them faster, as long as the result is the same:
``tests/engine/test_rulebook.py`` checks it), and the checked door accepts an action only
when the refusal finds nothing *and* the action is one of the options.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import fields
from typing import Any, ClassVar, Generic, Literal, TypeVar, get_args

from engine.actions import Action, Done
from engine.board import Refusal, log, refuse
from engine.state import Decision, GameState, PlayerDecision
from engine.tables import CardId
from engine.tokens import Tokens

C = TypeVar("C")  # the context: the acting seat, or the decision answered
A = TypeVar("A", bound=Action)
D = TypeVar("D", bound=Decision)
Power = Literal["fuel", "discard"]
POWER_VERBS: dict[Power, str] = {"fuel": "use", "discard": "discard"}


class Rule(Generic[C, A]):
    """The rule of one action type (in one context).

    A subclass names its action type, and for an answer its decision type, as the type
    parameters (``AnswerRule[RaidDecision, StealCard]``): ``action`` and ``answers``
    are read from them, so the types are declared once.
    """

    action: type[A]
    # A stable id of this kind of action: front ends group and label actions by it
    # (``group``). By default the first verb; card powers are ``use_<card>`` and
    # ``discard_<card>``.
    kind: str
    # The decision this rule answers; None for a free action of the current player.
    answers: type[Decision] | None = None
    # Notation: the verbs that start the action (the first is the one shown in help).
    # A card's power is written ``use <card> ...`` or ``discard <card> ...`` instead.
    verbs: ClassVar[tuple[str, ...]] = ()
    # The alien tech card whose power this is, and which power.
    card: CardId | None = None
    power: Power | None = None
    # R-HUB-3: steps past space 7 are kept only through these actions (an immediate launch).
    keeps_hub_steps: ClassVar[bool] = False
    # The action changes the value of undocked ships: what it is worth shows only once
    # they dock (the AI's planner looks one step further after it).
    tunes_ships: ClassVar[bool] = False
    # The candidates are built to pass the refusal (for a card's power: once the card
    # itself may be used), so listing them needs no refusal per candidate;
    # tests/engine/test_rulebook.py checks that they do.
    exact: ClassVar[bool] = False
    # For an action type without arguments: its one action (a value shared by all), and
    # whether the candidates are just that action.
    _only: ClassVar[tuple[Any, ...]] = ()
    _lone: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for base in getattr(cls, "__orig_bases__", ()):
            for arg in get_args(base):
                if isinstance(arg, type) and issubclass(arg, Action):
                    setattr(cls, "action", arg)  # noqa: B010 (the type parameter A)
                elif isinstance(arg, type) and issubclass(arg, Decision):
                    cls.answers = arg
        if "kind" not in cls.__dict__ and cls.verbs and "verbs" in cls.__dict__:
            cls.kind = cls.verbs[0].replace(" ", "_")
        action = getattr(cls, "action", None)
        if isinstance(action, type):
            cls._only = () if fields(action) else (action(),)
            cls._lone = bool(cls._only) and cls.candidates is Rule.candidates

    def candidates(self, s: GameState, c: C) -> Iterable[A]:
        """Every action of this type that could be legal now (more is fine, never fewer);
        by default the one action of a type without arguments."""
        return self._only

    def refusal(self, s: GameState, c: C, a: A) -> Refusal | None:
        """Why ``a`` may not be taken now, or None."""
        return None

    def options(self, s: GameState, c: C) -> list[A]:
        """The legal actions of this type now, in the order they are listed."""
        if self.exact:
            return list(self.candidates(s, c))
        if self._lone:
            return [] if self.refusal(s, c, self._only[0]) else list(self._only)
        return [a for a in self.candidates(s, c) if self.refusal(s, c, a) is None]

    def options_after(self, s: GameState, c: C, listed: list[Action]) -> list[A]:
        """The options, given what the rules listed before this one found (a rule whose
        refusal depends on other actions being legal may read it instead of looking
        again); the same as ``options``."""
        return self.options(s, c)

    def listed(self, s: GameState, c: C, a: A) -> bool:
        """Whether ``a``, which the refusal lets through, is one of the options (it may
        still be written in a form the options do not use, e.g. unsorted dice)."""
        return a in self.options(s, c)

    def apply(self, s: GameState, c: C, a: A) -> None:
        """Do it (unchecked: the caller made sure it is legal)."""
        raise NotImplementedError(f"{type(self).__name__} does not apply {self.action.__name__}")

    def parse(self, t: Tokens) -> A:
        """Read the arguments that follow the verb (default: an action without any)."""
        return self.action()

    def claims(self, a: A) -> bool:
        """Whether this rule is the one for ``a``, when several share its action type."""
        return True

    def unclaimed(self, s: GameState, c: C, a: A) -> Refusal:
        """Why ``a`` is refused when no rule of its type claims it (see ``claims``)."""
        return refuse("action.unknown")

    def group(self, a: A) -> str | None:
        """The group a front end shows ``a`` in: None for an action without arguments
        (a button), else the kind."""
        return None if self._only else self.kind

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.kind}>"


class TurnRule(Rule[int, A]):
    """A free action of the current player, when no decision is pending."""


class AnswerRule(Rule[D, A]):
    """An answer to a pending decision of type ``answers``."""


class ChanceRule(AnswerRule[D, A]):
    """The outcome of a chance decision, sampled by the driver (engine.chance)."""

    def outcomes(self, s: GameState, d: D) -> list[tuple[A, float]]:
        """Every outcome with its probability."""
        raise NotImplementedError

    def sample(self, s: GameState, d: D, rng: random.Random) -> A:
        """One outcome drawn with the driver's RNG."""
        raise NotImplementedError

    def candidates(self, s: GameState, c: D) -> Iterable[A]:
        return [a for a, _ in self.outcomes(s, c)]

    def options(self, s: GameState, c: D) -> list[A]:
        return [a for a, _ in self.outcomes(s, c)]

    def listed(self, s: GameState, c: D, a: A) -> bool:
        return True  # any outcome the refusal lets through may be recorded


class Stop(AnswerRule[PlayerDecision, Done]):
    """``done``: stop answering a decision that asks again (stealing, firing)."""

    verbs = ("done", "stop")

    def __init__(self, answers: type[PlayerDecision]) -> None:
        self.answers = answers

    def apply(self, s: GameState, d: PlayerDecision, a: Done) -> None:
        s.pending.pop(0)
        log(s, "stopped", d.player)


AnyRule = Rule[Any, Any]

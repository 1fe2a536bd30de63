"""A guided first game in the bot (``/af learn``): its progress kept up with its log.

The guide itself is ``bot.play.learn`` (pure: lessons, scripted dice and deck, the line for
another pick). Here a ``Tutor`` folds ``bot.play.learn.advance`` over the engine game's log as
it grows (and from the start again after an undo), so the service can take the script's
chance outcomes, the turn message can show the lesson and the panel mark its pick, and the
answer to another pick can say what it did differently — after a restart too, since the
progress is only ever read from the log.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.play import learn
from bot.play.ai import hint_plan
from bot.play.games import ActiveGame
from bot.text import describe
from bot.text.strings import text
from engine import CHANCE, Action, Game, GameConfig, GameState, apply, apply_in_place, new_game
from engine.ai import explain_plan

LESSON_MARK = "📘"
COACH_MARK = "🎓 "  # a coach's line said as a lesson (a rule said without its pick) loses it
# Turns (both players') after the script's end in which the learner's turn says it ended.
OVER_SAID_TURNS = 2


@dataclass
class Tutor:
    """The guide's progress after the first ``len(folded)`` actions of a game's log."""

    config: GameConfig
    progress: learn.Progress = field(default_factory=learn.start)
    state: GameState | None = None  # the state after the folded actions
    folded: list[Action] = field(default_factory=list)
    # The guidance at one state (the state object, and what the guide said there).
    _guide: tuple[GameState, learn.Guidance | None] | None = field(default=None, repr=False)

    def follow(self, game: Game) -> learn.Progress:
        """The progress after every action of ``game``'s log (checked when it was played:
        replayed here unchecked)."""
        log = game.log
        if len(log) < len(self.folded) or log[: len(self.folded)] != self.folded:
            self.progress, self.state, self.folded = learn.start(), None, []  # an undo
        state = self.state if self.state is not None else new_game(self.config)
        for action in log[len(self.folded) :]:
            after = state.copy()
            apply_in_place(after, action)
            self.progress = learn.advance(self.progress, state, action, after)
            self.folded.append(action)
            state = after
        self.state = state
        return self.progress

    def guide(self, game: Game) -> learn.Guidance | None:
        """The guidance at the game's state now, worked out once per state: the turn
        message, its panel and the answer to the next move all ask for it."""
        progress = self.follow(game)
        if self._guide is None or self._guide[0] is not game.state:
            self._guide = (game.state, learn.guidance(progress, game.state))
        return self._guide[1]


def tutor_of(game: ActiveGame) -> Tutor | None:
    """The tutor of a guided game in play (made on first use), None for any other game."""
    if not game.row.config.tutorial or game.game is None:
        return None
    if game.tutor is None:
        game.tutor = Tutor(game.game.config)
    assert isinstance(game.tutor, Tutor)
    return game.tutor


def scripted(game: ActiveGame) -> Action | None:
    """The chance outcome the script wants now (None: sample it as in any game)."""
    tutor = tutor_of(game)
    if tutor is None or game.game is None:
        return None
    return learn.scripted_outcome(tutor.follow(game.game), game.state)


def guidance(game: ActiveGame) -> learn.Guidance | None:
    """The lesson (or step) and the marked pick at the learner's decision now."""
    tutor = tutor_of(game)
    if tutor is None or game.game is None:
        return None
    return tutor.guide(game.game)


def lesson_lines(game: ActiveGame) -> list[str]:
    """The lines of the turn message in a guided game: the notes above the lesson (the
    goal, a warning), the lesson (📘), or, once the script is over, that it is (for the
    learner's turn it ended in and the next one)."""
    tutor = tutor_of(game)
    if tutor is None or game.game is None:
        return []
    locale, names = game.row.locale, game.chat_names
    guide = tutor.guide(game.game)
    if guide is None:
        progress = tutor.progress
        state = game.state
        ended = progress.over and state.turn_number <= progress.over_turn + OVER_SAID_TURNS
        if ended and not state.over and state.to_act() == learn.LEARNER:
            return [text("learn.over", locale)]
        return []
    return guidance_lines(guide, locale, names)


def guidance_lines(guide: learn.Guidance, locale: str, names: Sequence[str]) -> list[str]:
    """The lines of a guidance: the notes above it, the lesson or step (📘; a coach's line
    said as a lesson without its 🎓), and the line of the pick it marks when that is not
    the lesson's own."""
    lines = [text(note.key, locale, note.params, names) for note in guide.notes]
    said = text(guide.key, locale, guide.params, names).removeprefix(COACH_MARK)
    lines += [
        f"{LESSON_MARK} {line}" if i == 0 else line for i, line in enumerate(said.split("\n"))
    ]
    if guide.then is not None:  # the pick marked with a rule said without its own
        lines.append(text(guide.then.key, locale, guide.then.params, names))
    return lines


def marked_pick(game: ActiveGame) -> str | None:
    """The notation of the pick the panel marks (None outside a guided game's script)."""
    guide = guidance(game)
    return None if guide is None else str(guide.action)


@dataclass(frozen=True, slots=True)
class Before:
    """What the guide said at a learner's decision, kept until their move is committed."""

    progress: learn.Progress
    state: GameState
    guide: learn.Guidance | None


def before_move(game: ActiveGame) -> Before | None:
    """The guide's view before a move (None outside a guided game)."""
    tutor = tutor_of(game)
    if tutor is None or game.game is None:
        return None
    guide = tutor.guide(game.game)
    return Before(tutor.progress, game.state, guide)


def consequence_line(
    game: ActiveGame, before: Before | None, actions: Sequence[Action]
) -> str | None:
    """The line on what the learner's pick (every move of it) did differently from the
    marked one, and whether the lesson it passed by comes back."""
    if before is None or before.guide is None or not actions:
        return None
    after = before.state
    for action in actions:
        after = apply(after, action)
    line = learn.consequence(before.progress, before.state, actions, after, before.guide)
    if line is None:
        return None
    locale, names = game.row.locale, game.chat_names
    said = [text(x.key, locale, x.params, names) for x in line.said]
    if line.tail is not None:
        said.append(text(line.tail, locale))
    return " ".join(said)


def opponent_move(game: ActiveGame, move: Action) -> Action:
    """The AI's move in a guided game while its script runs (the AI waits: it spoils no
    lesson, and raids the learner once): ``move``, or the script's instead."""
    tutor = tutor_of(game)
    if tutor is None or game.game is None:
        return move
    return learn.opponent_move(tutor.follow(game.game), game.state, move)


def cut_pick(game: ActiveGame, moves: Sequence[Action]) -> list[Action]:
    """A pick of the panel played in a guided game while its script runs: its moves up to
    the decision a lesson is about, where the learner reads the lesson before choosing
    (a combined pick never skips a lesson's own decision, nor one where a lesson's rule is
    said: the guide counts a rule said once shown); the whole pick otherwise."""
    tutor = tutor_of(game)
    if tutor is None or game.game is None or len(moves) < 2:
        return list(moves)
    progress = tutor.follow(game.game)
    state = game.state
    for i, move in enumerate(moves):
        g = learn.guidance(progress, state)
        if i and g is not None and g.lesson is not None:
            return list(moves[:i])
        after = apply(state, move)
        if after.to_act() == CHANCE:  # what comes next is chance's: stop there
            return list(moves[: i + 1])
        progress = learn.advance(progress, state, move, after)
        state = after
    return list(moves)


def guide_progress(game: ActiveGame) -> learn.Progress | None:
    """The guide's progress while it marks a pick now (a guided game's script, the learner
    to act), else None: the Hint then follows the ⭐ picks."""
    tutor = tutor_of(game)
    if tutor is None or game.game is None or tutor.guide(game.game) is None:
        return None
    return tutor.progress


def guided_plan(progress: learn.Progress, state: GameState, limit: int = 12) -> list[Action]:
    """The ⭐ picks of the rest of the learner's turn, each as the guide marks it after the
    one before (the lessons' and the steps'), up to chance or the turn's end."""
    plan: list[Action] = []
    seat = state.to_act()
    while len(plan) < limit:
        g = learn.guidance(progress, state)
        if g is None:
            break
        after = apply(state, g.action)
        plan.append(g.action)
        progress = learn.advance(progress, state, g.action, after)
        state = after
        if state.over or state.to_act() != seat:
            break
    return plan


def guided_hint(
    progress: learn.Progress,
    state: GameState,
    seed: int,
    names: Sequence[str],
    locale: str,
    whole: bool = False,
) -> str:
    """The Hint in a guided game (blocking: run in a thread): the ⭐ picks of the rest of
    the turn with why (so what it says never goes against the lesson); and, when the
    normal AI would start otherwise, its pick and why, and what the ⭐ pick is for (the
    lesson's, or the plan the lessons follow); ``whole``: each pick in full, for a screen
    reader. Said by ``bot.text.describe.guided_hint_text``."""
    plan = guided_plan(progress, state)
    if not plan:
        return describe.hint_text(state, hint_plan(state, seed), names, locale, whole=whole)
    g = learn.guidance(progress, state)
    own = hint_plan(state, seed)
    first = explain_plan(state, own)[0] if own and own[0] != plan[0] else None
    # the ⭐ is the lesson's own pick (or its setup's), or the pick the plan goes on with
    lesson = g is not None and g.kind in ("own", "setup") and g.then is None
    return describe.guided_hint_text(state, plan, first, lesson, names, locale, whole)

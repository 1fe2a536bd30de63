"""A guided first game in the bot (``/af learn``): its progress kept up with its log.

The guide itself is ``bot.play.learn`` (pure: lessons, scripted dice and deck, the line for
another pick). Here a ``Tutor`` folds ``bot.play.learn.advance`` over the engine game's log as
it grows (and from the start again after an undo), so the service can take the script's
chance outcomes, the turn message can show the lesson and the panel mark its pick, and the
answer to another pick can say what it did differently — after a restart too, since the
progress is only ever read from the log.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.play import learn
from bot.play.games import ActiveGame
from bot.text.strings import text
from engine import Action, GameState, apply, apply_in_place
from engine.config import GameConfig
from engine.game import Game
from engine.setup import new_game

LESSON_MARK = "📘"


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
    """The lesson's lines for the turn message (none outside a guided game's script)."""
    guide = guidance(game)
    if guide is None:
        return []
    said = text(guide.key, game.row.locale, guide.params, game.chat_names)
    return [f"{LESSON_MARK} {line}" if i == 0 else line for i, line in enumerate(said.split("\n"))]


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


def consequence_line(game: ActiveGame, before: Before | None, action: Action) -> str | None:
    """The one line on what the learner's pick did differently from the marked one."""
    if before is None or before.guide is None:
        return None
    after = apply(before.state, action)
    line = learn.consequence(before.progress, before.state, action, after, before.guide)
    if line is None:
        return None
    return text(line.key, game.row.locale, line.params, game.chat_names)

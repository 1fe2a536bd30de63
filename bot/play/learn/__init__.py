"""``/af learn``: the pure logic of a guided first game, without Discord.

The learner (seat 0, who plays first) meets one easy AI (seat 1) in a two-player game
with the base rules. The dice and the deck are scripted so the lessons come in a planned
order (``bot.play.learn.lessons``); any other legal pick is allowed and answered with one
line, the lesson coming back (set up again) while it has turns left; the AI waits so the
game outlasts the script; after the script the game goes on.

For the bot, everything is a pure function of the game's log:

- ``start() -> Progress`` and ``advance(progress, before, action, after) -> Progress``:
  fold ``advance`` over every applied action of the log, chance outcomes included, to
  rebuild the progress (after a restart too: nothing else is stored).
- ``scripted_outcome(progress, state) -> Action | None`` at a chance decision: the outcome
  to apply instead of sampling one (one of ``engine.chance_outcomes(state)``), or None:
  sample it from the game's RNG as in any game (after the script, a learner's reroll).
- ``opponent_move(progress, state, move) -> Action``: the AI's move while the script runs
  (its own, unless it would spoil a lesson; the raid the script has it make once).
- ``guidance(progress, state) -> Guidance | None`` at a decision of the learner: the
  lesson or step to show (``key``, ``params`` for ``bot.text.strings.text``; at most three
  short lines), the lines above it (``notes``: the goal, a warning), the pick to mark
  (``action``, one of ``legal_actions(state)``) and, when that pick is not the lesson's
  own (its rule said with another pick), that pick's line (``then``); None when the
  learner is not to act or the script is over. Every lesson's rule is said to every
  learner (``Progress.stated``).
- ``consequence(progress, before, moves, after, guidance) -> Line | None``: after the
  learner's pick (``moves``: its moves, a combined pick's all), when it was not the marked
  pick (``guidance``: what ``guidance`` gave before it): what it did (``said``: a sentence
  per group of moves) and a ``tail``: whether the lesson it passed by comes back (at the
  next decision, later, or as its rule only). Call it with the progress *before* the pick.
- ``COVERAGE``: lesson id -> ``Taught(rules, things)``; ``REQUIRED``: the things taught
  exactly once over the script.

Texts are ``learn.*`` keys of ``bot.text.strings.LEARN_EN``; parameters naming things of the
game are ids, seats are ints (``victim``): render with ``text(key, locale, params, names)``.
"""

from bot.play.learn.consequence import Line, consequence
from bot.play.learn.coverage import COVERAGE, REQUIRED, Taught
from bot.play.learn.finders import LEARNER, OPPONENT
from bot.play.learn.guide import Guidance, Note, Progress, advance, guidance, start
from bot.play.learn.lesson import Lesson
from bot.play.learn.lessons import LESSONS
from bot.play.learn.script import opponent_move, scripted_outcome

__all__ = [
    "COVERAGE",
    "LEARNER",
    "LESSONS",
    "OPPONENT",
    "REQUIRED",
    "Guidance",
    "Lesson",
    "Line",
    "Note",
    "Progress",
    "Taught",
    "advance",
    "consequence",
    "guidance",
    "opponent_move",
    "scripted_outcome",
    "start",
]

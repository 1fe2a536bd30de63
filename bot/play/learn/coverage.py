"""What the script teaches, lesson by lesson: the rule ids and the things of the game.

Read from the lesson table, so it cannot drift from it. ``REQUIRED`` lists what the
guided game promises to teach exactly once: the goal and the end, every orbital
facility, every territory's bonus, every field generator, alien tech's two kinds of
power (use and discard), every card of the base game, control of a territory, being
raided and defending.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from bot.play.learn.lessons import LESSONS
from engine.tables import CARDS, FACILITY_ORDER, FIELDS, TERRITORIES


class Taught(NamedTuple):
    """What one lesson teaches."""

    rules: tuple[str, ...]
    things: tuple[str, ...]


COVERAGE: Final[dict[str, Taught]] = {
    lesson.id: Taught(lesson.rules, lesson.teaches) for lesson in LESSONS
}

REQUIRED: Final[frozenset[str]] = frozenset(
    [
        *(f"facility:{f}" for f in FACILITY_ORDER),
        *(f"territory:{t}" for t in TERRITORIES),
        *(f"field:{f}" for f in FIELDS),
        *(f"card:{c}" for c in CARDS if c != "helm"),  # (the Helm: a 2nd-edition option)
        "tech:use",
        "tech:discard",
        "colony:control",
        "raid:defence",
        "game:goal",
        "game:score",
        "game:end",
    ]
)

"""What the script teaches, lesson by lesson: the rule ids and the things of the game.

Read from the lesson table, so it cannot drift from it. ``REQUIRED`` lists what the
guided game promises to teach exactly once: the goal and the end, every orbital
facility, every territory's bonus, every field generator, alien tech's two kinds of
power (use and discard), every card of the base game and Data Crystal's fuel power,
control of a territory, being raided and defending, the docks closed with 2 players, a
ship locked on the Terraforming Station, the last colony free of the Colony Hub.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from bot.play.learn.lessons import LESSONS
from engine import CARDS, FACILITY_ORDER, FIELDS, TERRITORIES


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
        "game:closed",  # R-SETUP-6: the docks neutral ships close with 2 players
        "power:crystal",  # Data Crystal's fuel power (its discard: tech:discard)
        "terraform:lock",  # R-TERR-LOCK
        "hub:last",  # R-HUB-4
        "game:goal",
        "game:score",
        "game:end",
    ]
)

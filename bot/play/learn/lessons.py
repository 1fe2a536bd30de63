"""The lessons of the guided game, in the order they are planned, as data.

Lessons are grouped in *chapters*, one planned turn each: the script rolls a chapter's
dice at the start of the learner's turn (``bot.play.learn.script``) and the guide shows its
lessons in order as they apply (``bot.play.learn.guide``). What a lesson is:
``bot.play.learn.lesson``; when each applies: ``bot.play.learn.applies``.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Final

from bot.play.learn import picks
from bot.play.learn.applies import (
    anything,
    card,
    card_power,
    claim,
    claimed,
    colonies_left,
    colony,
    constructor,
    costs,
    cycle,
    cycled,
    discard,
    dock_highest,
    dock_lowest,
    dock_pair,
    dock_values,
    end,
    hub_many,
    launch,
    launch_dice,
    launched,
    mine,
    mine_die,
    ours,
    owns,
    place,
    placed,
    raid_dice,
    rate,
    relic,
    run,
    ship,
    stasis,
    stasis_params,
    steal,
    steal_params,
    steal_variant,
    stock_left,
    stole,
    territory,
    the_step,
    theirs,
    trade,
    triple,
    values,
    yard_dice,
)
from bot.play.learn.lesson import Lesson, Seen
from bot.play.learn.picks import LEARNER
from bot.play.learn.steps import Need
from engine import GameState
from engine.tables import CardId

# How far ahead the steps gather resources: this chapter's lessons and the next two's.
LOOK_AHEAD: Final = 3

# ---- the script -------------------------------------------------------------------------

LESSONS: Final[tuple[Lesson, ...]] = (
    # Turn 1: docking, fuel and ore, a colony on the Colony Hub, the end of a turn.
    Lesson(
        "solar",
        0,
        ("R-TURN-1", "R-TURN-3", "R-SOLAR"),
        ("facility:solar",),
        dock_highest("solar"),
        values(5),
    ),
    Lesson(
        "mine",
        0,
        ("R-MINE",),
        ("facility:mine",),
        mine,
        mine_die,
        params=dock_values,
    ),
    Lesson("hub", 0, ("R-HUB-1",), ("facility:hub",), dock_lowest("hub"), values(1)),
    Lesson("end_turn", 0, ("R-TURN-4", "R-TURN-7", "R-BAY"), ("turn:end",), end),
    # Turn 2: an alien tech card's fuel power makes a pair for a new ship.
    Lesson(
        "use",
        1,
        ("R-TECH-1", "R-TECH-2", "R-TECH-3", "R-TECH-STASIS"),
        ("tech:use",),
        stasis(picks.lowered_to_pair),
        values(2, 3),
        card_power,
        owns("stasis"),
        stasis_params,
    ),
    Lesson(
        "yard",
        1,
        ("R-YARD",),
        ("facility:yard",),
        dock_pair("yard"),
        yard_dice,
        ship,
        stock_left,
    ),
    Lesson("vanvogt", 1, ("R-MINE", "R-COL-4"), ("territory:vanvogt",), mine, mine_die),
    # Turn 3: trading.
    Lesson("market", 2, ("R-MARKET",), ("facility:market",), dock_pair("market"), values(2, 2)),
    Lesson(
        "heinlein",
        2,
        ("R-MARKET", "R-COL-4"),
        ("territory:heinlein",),
        trade,
        cost=costs(2, 0),
        params=rate,
    ),
    # Turn 4: the Alien Artifact.
    Lesson(
        "artifact",
        3,
        ("R-ART", "R-ART-2"),
        ("facility:artifact",),
        dock_highest("artifact"),
        values(6, 2),
    ),
    Lesson(
        "claim",
        3,
        ("R-ART-3", "R-TECH-1"),
        ("tech:claim",),
        claim,
        params=card,
        followed=claimed,
    ),
    # Turn 5: a raid, with a run made by the Stasis Beam.
    Lesson(
        "pohl",
        4,
        ("R-TECH-STASIS", "R-COL-4"),
        ("territory:pohl",),
        stasis(picks.lowered_to_run),
        values(1, 2, 4),
        card_power,
        owns("stasis"),
        stasis_params,
    ),
    Lesson("raiders", 4, ("R-RAID", "R-RAID-1"), ("facility:raiders",), run, raid_dice),
    Lesson(
        "steal",
        4,
        ("R-RAID-2", "R-TECH-VP"),
        ("raid:steal",),
        steal,
        params=steal_params,
        followed=stole,
        variant=steal_variant,
    ),
    # Turn 6: a colony from the Colony Constructor; control of a territory.
    Lesson(
        "constructor",
        5,
        ("R-CONSTR",),
        ("facility:constructor",),
        triple,
        values(4, 4, 4),
        constructor,
        colonies_left,
    ),
    Lesson(
        "colony",
        5,
        ("R-COL-1", "R-COL-2", "R-COL-3"),
        ("colony:control",),
        colony,
        params=territory,
        followed=placed,
    ),
    Lesson("lem", 5, ("R-SOLAR", "R-COL-4"), ("territory:lem",), dock_highest("solar"), values(5)),
    # Turn 7: the Terraforming Station; a discard power places a field; Asimov's bonus.
    Lesson(
        "terraform",
        6,
        ("R-TERR", "R-TERR-MIN"),
        ("facility:terraform",),
        dock_highest("terraform"),
        values(6),
        costs(1, 1),
        colonies_left,
    ),
    Lesson(
        "bradbury",
        6,
        ("R-CONSTR", "R-COL-4"),
        ("territory:bradbury",),
        place("bradbury"),
    ),
    Lesson(
        "positron",
        6,
        ("R-TECH-2", "R-TECH-CRYSTAL", "R-FIELD-POS"),
        ("tech:discard", "field:positron"),
        discard("crystal", ours),
        possible=owns("crystal"),
        params=territory,
    ),
    Lesson("asimov", 6, ("R-HUB-5",), ("territory:asimov",), hub_many, values(1, 3)),
    # Turn 8: the launch from the Colony Hub; Burroughs Desert and the relic ship.
    Lesson(
        "launch",
        7,
        ("R-HUB-2", "R-HUB-3"),
        ("hub:launch",),
        launch,
        launch_dice,
        costs(1, 1),
        colonies_left,
        followed=launched,
    ),
    Lesson("burroughs", 7, ("R-COL-4",), ("territory:burroughs",), place("burroughs")),
    Lesson("relic", 7, ("R-COL-4", "R-TERR-BURR"), ("relic:buy",), relic, cost=costs(1, 1)),
    # Turn 9: the Isolation Field; cycling the display.
    Lesson(
        "isolation",
        8,
        ("R-TECH-STASIS", "R-FIELD-ISO"),
        ("field:isolation",),
        discard("stasis", theirs),
        possible=owns("stasis"),
        params=territory,
    ),
    Lesson("cycle", 8, ("R-ART-1",), ("artifact:cycle",), cycle, values(5, 3), followed=cycled),
    # Turn 10: the Repulsor Field; a cheaper ship.
    Lesson(
        "repulsor",
        9,
        ("R-TECH-GRAV", "R-FIELD-REP"),
        ("field:repulsor",),
        discard("gravity", ours),
        possible=owns("gravity"),
        params=territory,
    ),
    Lesson(
        "herbert",
        9,
        ("R-YARD", "R-COL-4"),
        ("territory:herbert",),
        dock_pair("yard"),
        values(2, 2),
        ship,
        stock_left,
    ),
    # Turn 11: how the game ends, whatever became of the lessons before.
    Lesson(
        "end_game",
        10,
        ("R-END-1", "R-END-2", "R-END-3"),
        ("game:end",),
        the_step,
        followed=anything,
    ),
)

BY_ID: Final[dict[str, Lesson]] = {lesson.id: lesson for lesson in LESSONS}
# Dice a chapter's roll adds after its lessons' own: the steps dock them where the coming
# lessons' costs say (sixes fit the Lunar Mine whatever is docked there).
FILLER: Final[dict[int, tuple[int, ...]]] = {2: (6, 5), 3: (6, 6), 4: (6,), 6: (6,), 9: (6, 6)}
DEFAULT_FILLER: Final = (6, 5, 6, 4, 6, 5)


# The cards whose discard a lesson teaches, and the lesson at the Alien Artifact that
# claims each: the Data Crystal at the first claim, the Gravity Manipulator after a cycle.
CARD_OF_LESSON: Final[dict[str, tuple[CardId, str]]] = {
    "positron": ("crystal", "claim"),
    "repulsor": ("gravity", "cycle"),
}


def wanted_cards(s: GameState, pending: Collection[str], chapter: int) -> tuple[CardId, ...]:
    """The cards the coming lessons discard that the learner does not hold yet, from the
    chapter that claims them on (turned up earlier, the AI might take them)."""
    held = s.players[LEARNER].cards
    return tuple(
        card
        for lesson, (card, claim) in CARD_OF_LESSON.items()
        if lesson in pending and card not in held and chapter >= BY_ID[claim].chapter
    )


def seen_at(s: GameState, pending: Collection[str], chapter: int) -> Seen:
    """What the lessons look at now, with what the steps should gather: the costs of this
    chapter's lessons still to come and of the next chapters', the cards to claim, and
    whether this turn's lesson is the launch."""
    fuel = ore = 0
    for lesson in LESSONS:
        if lesson.id in pending and chapter <= lesson.chapter < chapter + LOOK_AHEAD:
            f, o = lesson.cost(s)
            fuel, ore = fuel + f, ore + o
    hub = "launch" in pending and BY_ID["launch"].chapter == chapter
    return Seen(s, pending, chapter, Need(fuel, ore, hub, wanted_cards(s, pending, chapter)))

"""The lessons of the guided game, in the order they are planned, as data.

Lessons are grouped in *chapters*, one planned turn each: the script rolls a chapter's
dice at the start of the learner's turn (``bot.play.learn.script``) and the guide shows its
lessons in order as they apply (``bot.play.learn.guide``). What a lesson is:
``bot.play.learn.lesson``; when each applies: ``bot.play.learn.applies``.

The order: the goal and docking first, alien tech's fuel power and a new ship, then a
colony and what control is, before any territory's bonus is told; trading, the Alien
Artifact, a raid, the Colony Constructor, a card's discard, the launch and the relic
ship, the fields; then being raided and the cards' other powers; how the game ends last.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace
from typing import Final

from bot.play.learn import finders
from bot.play.learn.applies import (
    anything,
    artifact_dice,
    asimov_dice,
    boost,
    card,
    card_params,
    card_power,
    claim,
    claim_card,
    claimed,
    claimed_or_mark,
    colony,
    colony_dice,
    constructor,
    costs,
    cycle,
    cycled,
    discard,
    dock_highest,
    dock_lowest,
    dock_pair,
    dock_values,
    dock_where,
    end,
    fuel,
    get_card,
    gravity,
    gravity_params,
    hub_many,
    launch,
    launch_dice,
    launched,
    lowered,
    mine,
    mine_die,
    not_a_claim,
    ours,
    place,
    placed,
    placing,
    plasma,
    plasma_params,
    polarity,
    raid_dice,
    rate,
    relic,
    relic_dice,
    run,
    same_type,
    ship,
    spare_ship,
    stasis,
    stasis_dice,
    steal,
    steal_params,
    steal_variant,
    stole,
    teleport,
    teleport_params,
    terraform_dice,
    territory,
    the_step,
    theirs,
    to_claim,
    trade,
    triple,
    unless_claim,
    use_beam,
    use_variant,
    values,
    victim,
    warp,
    warp_params,
    yard_dice,
)
from bot.play.learn.finders import LEARNER
from bot.play.learn.lesson import Dice, Lesson, Seen, always
from bot.play.learn.raided import raided, raided_params
from bot.play.learn.steps import Need
from engine import CardId, GameState

# How far ahead the steps gather resources: this chapter's lessons and the next two's.
LOOK_AHEAD: Final = 3


def with_card(card_id: CardId, *more: int) -> Dice:
    """The dice of a card lesson: what its power needs (the claim of the card, while the
    learner does not hold it, is added by the script: ``CLAIM_DICE``)."""

    def dice(seen: Seen) -> tuple[int, ...]:
        return more

    return dice


CLAIM_DICE: Final = (6, 2)  # a claim at the Alien Artifact: 8


# ---- the script -------------------------------------------------------------------------

_PLANNED: Final[tuple[Lesson, ...]] = (
    # Turn 1: the goal and control (a note above the lessons), docking, fuel and ore, the
    # Colony Hub, the end of a turn.
    Lesson(
        "solar",
        0,
        ("R-TURN-1", "R-TURN-3", "R-SOLAR", "R-COL-1", "R-END-2"),
        ("facility:solar", "game:goal"),
        dock_highest("solar"),
        values(5),
    ),
    Lesson("mine", 0, ("R-MINE",), ("facility:mine",), mine, mine_die, params=dock_values),
    Lesson("hub", 0, ("R-HUB-1",), ("facility:hub",), dock_lowest("hub"), values(1)),
    Lesson("end_turn", 0, ("R-TURN-4", "R-TURN-7", "R-BAY"), ("turn:end",), end),
    # Turn 2: an alien tech card's fuel power makes a pair for a new ship.
    Lesson(
        "use",
        1,
        ("R-TECH-1", "R-TECH-2", "R-TECH-3", "R-TECH-STASIS"),
        ("tech:use", "card:stasis"),
        use_beam,
        stasis_dice("yard", (2, 3)),
        card_power,
        lowered,
        variant=use_variant,
        setup=get_card("stasis"),
        setup_params=card_params("stasis"),
    ),
    Lesson("yard", 1, ("R-YARD",), ("facility:yard",), dock_pair("yard"), yard_dice, ship),
    Lesson("vanvogt", 1, ("R-MINE", "R-COL-4"), ("territory:vanvogt",), mine, mine_die),
    # (a rule only: said with the step's pick)
    Lesson(
        "closed",
        1,
        ("R-SETUP-6",),
        ("game:closed",),
        the_step,
        followed=anything,
        with_step=always,
    ),
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
        after="market",
        setup=dock_pair("market"),
        setup_dice=values(2, 2),
        setup_params=dock_where,
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
        ("R-ART-3", "R-TECH-1", "R-TECH-2", "R-TECH-CACHE"),
        ("tech:claim",),
        claim,
        params=card,
        followed=claimed,
        after="artifact",
        setup=to_claim,
        setup_dice=artifact_dice,
        setup_params=dock_where,
    ),
    # Turn 5: a raid, with a run made by the Stasis Beam.
    Lesson(
        "pohl",
        4,
        ("R-TECH-STASIS", "R-COL-4"),
        ("territory:pohl",),
        stasis(finders.lowered_to_run),
        stasis_dice("raiders", (1, 2, 4)),
        card_power,
        lowered,
        setup=get_card("stasis"),
        setup_params=card_params("stasis"),
    ),
    Lesson("raiders", 4, ("R-RAID", "R-RAID-1"), ("facility:raiders",), run, raid_dice),
    Lesson(
        "steal",
        4,
        ("R-RAID-2", "R-TECH-VP"),
        ("raid:steal", "card:city"),
        steal,
        params=steal_params,
        followed=stole,
        variant=steal_variant,
        after="raiders",
        setup=run,
        setup_dice=values(1, 2, 3),
        setup_params=victim,
    ),
    # Turn 6: a colony from the Colony Constructor; control, ties and losing it.
    Lesson(
        "constructor",
        5,
        ("R-CONSTR",),
        ("facility:constructor",),
        triple,
        values(4, 4, 4),
        constructor,
    ),
    Lesson(
        "colony",
        5,
        ("R-COL-1", "R-COL-2", "R-COL-3"),
        ("colony:control",),
        colony,
        params=territory,
        followed=placed,
        after="constructor",
        setup=placing(None),
        setup_dice=colony_dice,
        setup_params=dock_where,
    ),
    Lesson(
        "lem",
        5,
        ("R-SOLAR", "R-COL-4"),
        ("territory:lem",),
        dock_highest("solar"),
        values(5),
        after="colony",
    ),
    Lesson(
        "crystal",
        5,
        ("R-TECH-CRYSTAL",),
        ("power:crystal",),
        the_step,
        followed=anything,
        with_step=always,
    ),
    # Turn 7: the Terraforming Station; a discard power places a field; Asimov's bonus.
    Lesson(
        "terraform",
        6,
        ("R-TERR", "R-TERR-MIN"),
        ("facility:terraform",),
        dock_highest("terraform"),
        terraform_dice,
        costs(1, 1),
        setup=spare_ship,
        setup_params=dock_where,
    ),
    Lesson(
        "bradbury",
        6,
        ("R-CONSTR", "R-COL-4"),
        ("territory:bradbury",),
        place("bradbury"),
        after="terraform",
        setup=placing("bradbury"),
        setup_dice=colony_dice,
        setup_params=dock_where,
    ),
    Lesson(
        "positron",
        6,
        ("R-TECH-2", "R-TECH-CRYSTAL", "R-FIELD-POS"),
        ("tech:discard", "field:positron", "card:crystal"),
        discard("crystal", ours),
        with_card("crystal"),
        params=territory,
        setup=get_card("crystal"),
        setup_params=card_params("crystal"),
    ),
    Lesson(
        "asimov",
        6,
        ("R-HUB-5",),
        ("territory:asimov",),
        hub_many,
        asimov_dice,
        setup=placing("asimov", control=True),
        setup_params=dock_where,
        setup_states=True,
    ),
    # Turn 8: the launch from the Colony Hub; Burroughs Desert and the relic ship.
    Lesson(
        "launch",
        7,
        ("R-HUB-2", "R-HUB-3"),
        ("hub:launch",),
        launch,
        launch_dice,
        costs(1, 1),
        followed=launched,
    ),
    Lesson(
        "burroughs",
        7,
        ("R-COL-4",),
        ("territory:burroughs",),
        place("burroughs"),
        after="launch",
        setup=placing("burroughs"),
        setup_dice=colony_dice,
        setup_params=dock_where,
    ),
    Lesson(
        "relic",
        7,
        ("R-COL-4", "R-TERR-BURR"),
        ("relic:buy",),
        relic,
        cost=costs(1, 1),
        after="burroughs",
        setup=placing("burroughs"),
        setup_dice=relic_dice,
        setup_params=dock_where,
    ),
    # Turn 9: the Isolation Field; cycling the display; the Gravity Manipulator.
    Lesson(
        "isolation",
        8,
        ("R-TECH-STASIS", "R-FIELD-ISO"),
        ("field:isolation",),
        discard("stasis", theirs),
        with_card("stasis"),
        params=territory,
        setup=get_card("stasis"),
        setup_params=card_params("stasis"),
    ),
    Lesson("cycle", 8, ("R-ART-1",), ("artifact:cycle",), cycle, values(5, 3), followed=cycled),
    Lesson(
        "gravity",
        8,
        ("R-TECH-GRAV", "R-TECH-3"),
        ("card:gravity",),
        gravity,
        values(4, 2),
        fuel(2),
        gravity_params,
        followed=same_type,
        after="cycle",
        setup=get_card("gravity"),
        setup_dice=values(4, 2),
        setup_params=card_params("gravity"),
    ),
    # Turn 10: the Repulsor Field; a cheaper ship.
    Lesson(
        "repulsor",
        9,
        ("R-TECH-GRAV", "R-FIELD-REP"),
        ("field:repulsor",),
        discard("gravity", ours),
        with_card("gravity"),
        params=territory,
        setup=get_card("gravity"),
        setup_params=card_params("gravity"),
    ),
    Lesson(
        "herbert",
        9,
        ("R-YARD", "R-COL-4"),
        ("territory:herbert",),
        dock_pair("yard"),
        values(2, 2),
        ship,
    ),
    # Turn 11: raided by the AI (the script has it raid you): defence, and a higher run.
    Lesson(
        "raided",
        10,
        ("R-RAID-1",),
        ("raid:defence",),
        raided,
        values(2, 3, 4),
        params=raided_params,
    ),
    Lesson(
        "decoy",
        10,
        ("R-RAID-3", "R-TECH-DECOY"),
        ("card:decoy",),
        the_step,
        followed=anything,
        with_step=always,
    ),
    # Turn 12: the Plasma Cannon and the Booster Pod.
    Lesson(
        "plasma",
        11,
        ("R-TECH-PLASMA",),
        ("card:plasma",),
        plasma,
        with_card("plasma"),
        fuel(1),
        plasma_params,
        followed=same_type,
        setup=get_card("plasma"),
        setup_params=card_params("plasma"),
    ),
    Lesson(
        "booster",
        11,
        ("R-TECH-BOOST",),
        ("card:booster",),
        boost,
        with_card("booster", 3),
        fuel(1),
        lowered,
        followed=same_type,
        setup=get_card("booster"),
        setup_params=card_params("booster"),
    ),
    # Turn 13: the Orbital Teleporter and the Polarity Device.
    Lesson(
        "teleporter",
        12,
        ("R-TECH-TELE",),
        ("card:teleporter",),
        teleport,
        with_card("teleporter"),
        fuel(2),
        teleport_params,
        followed=same_type,
        setup=get_card("teleporter"),
        setup_params=card_params("teleporter"),
    ),
    Lesson(
        "polarity",
        12,
        ("R-TECH-POLAR",),
        ("card:polarity",),
        polarity,
        with_card("polarity", 1),
        fuel(1),
        lowered,
        followed=same_type,
        setup=get_card("polarity"),
        setup_params=card_params("polarity"),
    ),
    Lesson(
        "lock",
        12,
        ("R-TERR-LOCK",),
        ("terraform:lock",),
        the_step,
        followed=anything,
        with_step=always,
    ),
    # Turn 14: the Temporal Warper.
    Lesson(
        "warper",
        13,
        ("R-TECH-WARP",),
        ("card:warper",),
        warp,
        with_card("warper", 1),
        fuel(1),
        warp_params,
        followed=same_type,
        setup=get_card("warper"),
        setup_params=card_params("warper"),
    ),
    # Turn 15: what scores (the Alien Monument); the Resource Cache.
    Lesson(
        "monument",
        14,
        ("R-END-1", "R-TECH-VP"),
        ("card:monument", "game:score"),
        claim_card("monument"),
        with_card("monument"),
        followed=claimed_or_mark,
        variant=unless_claim,
        with_step=not_a_claim,
        setup=get_card("monument"),
        setup_params=card_params("monument"),
    ),
    Lesson(
        "cache",
        14,
        ("R-TECH-CACHE", "R-TURN-2"),
        ("card:cache",),
        claim_card("cache"),
        with_card("cache"),
        followed=claimed_or_mark,
        variant=unless_claim,
        with_step=not_a_claim,
        setup=get_card("cache"),
        setup_params=card_params("cache"),
    ),
    # Turn 16: the last colony and how the game ends, whatever became of the lessons
    # before (said as soon as the learner may place their last colony).
    Lesson(
        "last_colony",
        15,
        ("R-HUB-4",),
        ("hub:last",),
        the_step,
        followed=anything,
        with_step=always,
    ),
    Lesson(
        "end_game",
        15,
        ("R-END-2", "R-END-3"),
        ("game:end",),
        the_step,
        followed=anything,
        with_step=always,
    ),
)

# The rule said when a lesson comes neither with its pick nor its setup in its last turn:
# a text without parameters (the coach's line on its thing, or its own ``.gone``); the
# lessons not listed say their own text, which has none.
FALLBACK: Final[dict[str, str]] = {
    "mine": "coach.facility.mine",
    "end_turn": "learn.lesson.end_turn.gone",
    "use": "coach.card.stasis",
    "vanvogt": "coach.bonus.vanvogt",
    "heinlein": "coach.bonus.heinlein",
    "claim": "learn.lesson.claim.gone",
    "pohl": "coach.bonus.pohl",
    "steal": "learn.lesson.steal.gone",
    "colony": "learn.lesson.colony.gone",
    "lem": "coach.bonus.lem",
    "bradbury": "coach.bonus.bradbury",
    "positron": "coach.card.crystal",
    "burroughs": "coach.bonus.burroughs",
    "relic": "learn.lesson.relic.gone",
    "isolation": "coach.card.stasis",
    "gravity": "coach.card.gravity",
    "repulsor": "coach.card.gravity",
    "herbert": "coach.bonus.herbert",
    "raided": "learn.lesson.raided.gone",
    "plasma": "coach.card.plasma",
    "booster": "coach.card.booster",
    "teleporter": "coach.card.teleporter",
    "polarity": "coach.card.polarity",
    "warper": "coach.card.warper",
    "monument": "learn.lesson.monument.gone",
    "cache": "learn.lesson.cache.gone",
}
LESSONS: Final = tuple(replace(x, fallback=FALLBACK.get(x.id)) for x in _PLANNED)
BY_ID: Final[dict[str, Lesson]] = {lesson.id: lesson for lesson in LESSONS}
# Dice a chapter's roll adds after its lessons' own: the steps dock them where the coming
# lessons' costs say.
# No 6 (the Terraforming Station) and no triple (the Colony Constructor): a colony the
# lessons do not place could end the game before the last lesson. (A 5 fits the Lunar
# Mine: the AI's dice never show a 6 while the script runs.)
FILLER: Final[dict[int, tuple[int, ...]]] = {1: (5,), 2: (5,), 3: (5,), 4: (5,), 6: (5,)}
DEFAULT_FILLER: Final = (5, 4, 5, 3, 4, 5)

# The cards each lesson needs in hand (its setup claims them; the steps warn before a
# pick gives one up).
NEEDS_CARD: Final[dict[str, tuple[CardId, ...]]] = {
    "use": ("stasis",),
    "pohl": ("stasis",),
    "positron": ("crystal",),
    "isolation": ("stasis",),
    "gravity": ("gravity",),
    "repulsor": ("gravity",),
    "plasma": ("plasma",),
    "teleporter": ("teleporter",),
    "polarity": ("polarity",),
    "warper": ("warper",),
    "booster": ("booster",),
    "monument": ("monument",),
    "cache": ("cache",),
}
# The lesson from which the display turns up each card a later lesson needs: the Data
# Crystal at the first claim, the others from the one cycle of the script on (turned up
# before it, the cycle would discard them).
FIRST_CLAIM: Final[dict[CardId, str]] = {
    "crystal": "claim",
    **{c: "cycle" for c in ("gravity", "plasma", "teleporter", "polarity", "warper", "booster")},
    **{c: "cycle" for c in ("monument", "cache")},
}


def wanted_cards(s: GameState, pending: Collection[str], chapter: int) -> tuple[CardId, ...]:
    """The cards the coming lessons need that the learner does not hold yet, in the order
    they come, from the chapter that claims them on (turned up earlier, a cycle might
    discard them)."""
    held = s.players[LEARNER].cards
    out: list[CardId] = []
    for lesson in LESSONS:
        if lesson.id not in pending:
            continue
        for c in NEEDS_CARD.get(lesson.id, ()):
            first = BY_ID[FIRST_CLAIM[c]].chapter if c in FIRST_CLAIM else lesson.chapter
            if c not in held and c not in out and chapter >= first:
                out.append(c)
    return tuple(out)


def seen_at(s: GameState, pending: Collection[str], chapter: int) -> Seen:
    """What the lessons look at now, with what the steps should gather: the costs of this
    chapter's lessons still to come and of the next chapters' (soon: this one's and the
    next one's), the cards to claim, and whether the launch is near."""
    fuel_ = ore = soon_fuel = soon_ore = 0
    for lesson in LESSONS:
        if lesson.id in pending and lesson.chapter < chapter + LOOK_AHEAD:
            f, o = lesson.cost(s)
            fuel_, ore = fuel_ + f, ore + o
            if lesson.chapter <= chapter + 1:
                soon_fuel, soon_ore = soon_fuel + f, soon_ore + o
    hub = "launch" in pending and chapter <= BY_ID["launch"].chapter <= chapter + 1
    need = Need(fuel_, ore, hub, wanted_cards(s, pending, chapter), soon_fuel, soon_ore)
    return Seen(s, pending, chapter, need)

"""The scripted chance of the guided game, and the AI that waits: the first player, the
cards dealt and turned up, the dice, and the AI's moves that would spoil a lesson.

Everything here is a pure function of the progress and the state: the same log always
gets the same outcomes, so a restarted bot replays the same game. The outcomes are
always among ``engine.chance_outcomes(state)``, the AI's moves among ``legal_actions``.

The AI waits while the script runs: its dice never make a pair, a triple, a run or a 6
(so it never takes the Shipyard's, the Market's, the Constructor's, the Terraforming
Station's or the Raiders' Outpost's docks a lesson needs), it never docks at the Alien
Artifact (the display stays the script's) nor more than one ship at the Lunar Mine,
never places a colony where the learner has
one (the learner's control stays as the lessons tell it) and never pays for its last
colony (the game cannot end before the last lesson). Once, before the lesson on being
raided, it raids the learner.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Final

from bot.play.learn.finders import LEARNER, OPPONENT
from bot.play.learn.guide import Progress, new_turn
from bot.play.learn.lessons import (
    CLAIM_DICE,
    DEFAULT_FILLER,
    FILLER,
    NEEDS_CARD,
    seen_at,
    wanted_cards,
)
from engine import (
    CARD_INDEX,
    CARDS,
    Action,
    CardId,
    Die,
    Dock,
    Done,
    FirstPlayer,
    FirstPlayerDecision,
    GameState,
    Place,
    PlaceColonyDecision,
    RaidDecision,
    Relocation,
    Reveal,
    RevealDecision,
    Roll,
    RollDecision,
    StealCard,
    StealResource,
    apply,
    deck_for_reveal,
    legal_actions,
)

# The cards of the setup: the display the Alien Artifact lesson claims the Data Crystal
# from (with two cards no lesson needs: the one cycle of the script discards them), the
# learner's Stasis Beam, and for the AI an Alien City: a point the raid lesson can take,
# and no power to spoil the plan.
SETUP_DISPLAY: Final[tuple[CardId, ...]] = ("crystal", "decoy", "stasis")
DEALT: Final[dict[int, CardId]] = {LEARNER: "stasis", OPPONENT: "city"}
# Cards turned up when the script wants none in particular: cards no lesson claims.
QUIET_CARDS: Final[tuple[CardId, ...]] = ("decoy", "stasis", "city")
REVEAL_ORDER: Final[tuple[CardId, ...]] = (
    *QUIET_CARDS,
    *[c for c in CARDS if c not in QUIET_CARDS],
)
RAID_RUN: Final = (1, 2, 3)  # the AI's run the turn it raids the learner
# The AI's highest die while the script runs: the learner's 5s always fit the Lunar Mine.
AI_TOP: Final = 4
REROLL: Final = (6, 5, 4, 3, 2, 1)  # a learner's reroll while the script runs: high first


def scripted_outcome(progress: Progress, state: GameState) -> Action | None:
    """The outcome the script wants for the chance decision pending in ``state``, or None
    (after the script: the bot samples it)."""
    if progress.over or not state.pending:
        return None
    d = state.pending[0]
    if isinstance(d, FirstPlayerDecision):
        return FirstPlayer(LEARNER)
    if isinstance(d, RevealDecision):
        return Reveal(reveal(progress, state, d))
    if isinstance(d, RollDecision):
        if state.current == LEARNER:
            values = list(REROLL) if d.reroll else learner_values(progress, state)
            return roll(d, values)
        return roll(d, opponent_values(progress, state, d.dice + int(d.relic)))
    return None


def reveal(progress: Progress, state: GameState, d: RevealDecision) -> CardId:
    """The card turned up: the setup's, then what the coming lessons need, else a quiet one."""
    counts = deck_for_reveal(state)
    if d.to_player is not None:
        wanted: list[CardId] = [DEALT.get(d.to_player, "monument")]
    elif state.turn_number == 0:
        wanted = [c for c in SETUP_DISPLAY if state.display.count(c) < SETUP_DISPLAY.count(c)]
    else:
        pending = frozenset(x.id for x in progress.pending())
        wanted = [
            c for c in wanted_cards(state, pending, progress.chapter) if c not in state.display
        ]
    for card in (*wanted, *REVEAL_ORDER):
        if counts[CARD_INDEX[card]]:
            return card
    raise AssertionError("a reveal is pending with no card to reveal")


def learner_values(progress: Progress, state: GameState) -> list[int]:
    """The learner's dice: what this turn's lessons need, in their order (a lesson set up
    again: its setup's dice); then the claims of the cards they need that the learner does
    not hold (fewer dice than that: the lessons' own first); then filler."""
    pending = progress.pending()
    ids = frozenset(x.id for x in pending)
    seen = seen_at(state, ids, progress.chapter)
    held = state.players[LEARNER].cards
    values: list[int] = []
    claims: list[int] = []
    wanted: set[str] = set()
    chapter = [x for x in pending if x.chapter == progress.chapter]
    carried = [x for x in pending if x.chapter < progress.chapter]  # said, come along
    for lesson in [*chapter, *carried]:
        if lesson.after is not None and lesson.after not in ids and lesson.setup is not None:
            values += lesson.setup_dice(seen)
        else:
            values += lesson.dice(seen)
        for card in NEEDS_CARD.get(lesson.id, ()):
            if card not in held and card not in wanted:
                wanted.add(card)
                claims += CLAIM_DICE
    return values + claims + list(FILLER.get(progress.chapter, ())) + list(DEFAULT_FILLER)


def raids_now(progress: Progress, state: GameState) -> bool:
    """Whether the AI's turn in play comes right before the learner's turn on being raided."""
    if progress.over or "raided" in progress.done:
        return False
    upcoming = new_turn(progress, state)
    return any(x.id == "raided" for x in upcoming.active())


def opponent_values(progress: Progress, state: GameState, count: int) -> list[int]:
    """The AI's dice while the script runs: plausible, all different, no run and none above
    4 (no pair, triple or run for a facility a lesson needs, no six for the Terraforming
    Station, no high ship closing the Lunar Mine to the learner's); the run of its raid
    the turn it raids."""
    rng = random.Random(f"learn:{state.version}:{state.turn_number}")
    if raids_now(progress, state):
        return [*RAID_RUN, *[AI_TOP for _ in range(count - len(RAID_RUN))]]
    faces = range(1, AI_TOP + 1)
    choices = [c for c in combinations(faces, count) if not has_run(c)]
    if not choices:  # four ships or more: no such roll exists; any roll then
        return [rng.choice(faces) for _ in range(count)]
    return list(rng.choice(choices))


def has_run(values: tuple[int, ...]) -> bool:
    return any(v + 1 in values and v + 2 in values for v in values)


def roll(d: RollDecision, values: list[int]) -> Roll:
    """The roll of ``d``'s ships showing ``values`` (the relic ship's die last)."""
    dice = [Die(v) for v in values[: d.dice]]
    if d.relic:
        dice.append(Die(values[d.dice] if len(values) > d.dice else 1, True))
    return Roll(tuple(sorted(dice)))


# ---- the AI that waits --------------------------------------------------------------------


def opponent_move(progress: Progress, state: GameState, move: Action) -> Action:
    """The AI's move while the script runs: its own (``move``), unless it would spoil a
    lesson (then its first harmless alternative); the raid the turn it raids."""
    if progress.over or state.over or state.to_act() != OPPONENT:
        return move
    legal = legal_actions(state)
    if raids_now(progress, state):
        raid = raid_move(state, legal)
        if raid is not None:
            return raid
    if not harm(state, move):
        return move
    # The least harmful: anything but the end of the game, a lesson's docks only if nothing
    # else is legal.
    return min(legal, key=lambda a: (harm(state, a), preference(a)))


def raid_move(state: GameState, legal: list[Action]) -> Action | None:
    """The AI's raid on the learner: its run at the outpost, then the learner's ore and fuel."""
    d = state.pending[0] if state.pending else None
    if isinstance(d, RaidDecision):
        steals: list[Action] = [StealResource(r, LEARNER) for r in ("ore", "fuel")]
        if not d.stolen:  # nothing to take but a card: one the lessons do not need
            steals += sorted((a for a in legal if isinstance(a, StealCard)), key=str)
        return next((a for a in steals if a in legal), Done() if Done() in legal else None)
    if d is None:
        return next((a for a in legal if isinstance(a, Dock) and a.facility == "raiders"), None)
    return None


def harm(state: GameState, a: Action) -> int:
    """How much the AI's move would spoil the script: 2, it ends the game (its last colony
    placed, or paid for: every placement then ends it); 1, it docks at the Alien Artifact
    or a second ship at the Lunar Mine, or places a colony where the learner has one;
    0, none."""
    placing = bool(state.pending) and isinstance(state.pending[0], PlaceColonyDecision)
    after = apply(state, a)
    if after.over:
        return 2
    d = after.pending[0] if after.pending else None
    paid = isinstance(d, PlaceColonyDecision) and d.player == OPPONENT and not placing
    if paid and all(apply(after, p).over for p in legal_actions(after)):
        return 2
    if isinstance(a, Dock) and a.facility == "artifact":
        return 1
    if isinstance(a, Dock) and a.facility == "mine":  # one ship there at most: room for 2
        return int(any(x is not None and x.owner == OPPONENT for x in state.docks["mine"]))
    if isinstance(a, Relocation) and a.target == "artifact":
        return 1
    if placing and isinstance(a, Place):
        return int(state.colonies[a.territory][LEARNER] > 0 or a.territory == "burroughs")
    return 0


def preference(a: Action) -> tuple[int, str]:
    """The AI's harmless alternatives, best first: docking for resources, then anything
    that is not the end of its turn, then ending it."""
    if isinstance(a, Dock):
        order = {"mine": 0, "solar": 1, "hub": 2}
        return (order.get(a.facility, 3), str(a))
    return (5 if str(a) == "end" else 4, str(a))

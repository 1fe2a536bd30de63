"""The scripted chance of the guided game: the first player, the cards dealt and turned
up, and the dice, chosen so that the next lessons become possible for the learner.

Everything here is a pure function of the progress and the state: the same log always
gets the same outcomes, so a restarted bot replays the same game. The outcomes are
always among ``engine.chance_outcomes(state)``.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Final

from bot.play.learn.guide import Progress
from bot.play.learn.lessons import DEFAULT_FILLER, FILLER, seen_at, wanted_cards
from bot.play.learn.picks import LEARNER, OPPONENT
from engine import Action, Die, GameState
from engine.actions import FirstPlayer, Reveal, Roll
from engine.setup import deck_for_reveal
from engine.state import FirstPlayerDecision, RevealDecision, RollDecision
from engine.tables import CARD_INDEX, CARDS, DIE_FACES, CardId

# The cards of the setup: the display the Alien Artifact lesson claims the Data Crystal
# from, the learner's Stasis Beam (a fuel power, then the Isolation Field), and for the
# AI an Alien City: a point the raid lesson can take, and no power to spoil the plan.
SETUP_DISPLAY: Final[tuple[CardId, ...]] = ("crystal", "monument", "cache")
DEALT: Final[dict[int, CardId]] = {LEARNER: "stasis", OPPONENT: "city"}
# Cards turned up when the script wants none in particular, and on the AI's turns: none
# of them lets the AI change its dice, fire at the learner's ships or shield itself from
# the raid, and none is one the learner's lessons need (the AI might claim it).
QUIET_CARDS: Final[tuple[CardId, ...]] = ("monument", "cache", "city", "warper", "teleporter")
# When those are gone: cards that change dice, then those that spoil a raid or fire at
# ships, and last the cards the learner's lessons claim later.
LAST_CARDS: Final[tuple[CardId, ...]] = ("decoy", "plasma", "crystal", "gravity")
REVEAL_ORDER: Final[tuple[CardId, ...]] = (
    *QUIET_CARDS,
    *[c for c in CARDS if c not in QUIET_CARDS and c not in LAST_CARDS],
    *LAST_CARDS,
)


def scripted_outcome(progress: Progress, state: GameState) -> Action | None:
    """The outcome the script wants for the chance decision pending in ``state``, or None
    (after the script, or for a reroll of the learner's: the bot samples it)."""
    if progress.over or not state.pending:
        return None
    d = state.pending[0]
    if isinstance(d, FirstPlayerDecision):
        return FirstPlayer(LEARNER)
    if isinstance(d, RevealDecision):
        return Reveal(reveal(progress, state, d))
    if isinstance(d, RollDecision):
        if state.current == LEARNER:
            return None if d.reroll else roll(d, learner_values(progress, state))
        return roll(d, opponent_values(state, d.dice + int(d.relic)))
    return None


def reveal(progress: Progress, state: GameState, d: RevealDecision) -> CardId:
    """The card turned up: the setup's, then what the coming lessons need, else a quiet one."""
    counts = deck_for_reveal(state)
    if d.to_player is not None:
        wanted: list[CardId] = [DEALT.get(d.to_player, "monument")]
    elif state.turn_number == 0:
        wanted = [c for c in SETUP_DISPLAY if c not in state.display]
    elif state.current == LEARNER:
        pending = frozenset(x.id for x in progress.pending())
        wanted = [
            c for c in wanted_cards(state, pending, progress.chapter) if c not in state.display
        ]
    else:
        wanted = []
    for card in (*wanted, *REVEAL_ORDER):
        if counts[CARD_INDEX[card]]:
            return card
    raise AssertionError("a reveal is pending with no card to reveal")


def learner_values(progress: Progress, state: GameState) -> list[int]:
    """The learner's dice: what this turn's lessons need, in their order, then filler."""
    pending = progress.pending()
    seen = seen_at(state, frozenset(x.id for x in pending), progress.chapter)
    values: list[int] = []
    for lesson in pending:
        if lesson.chapter == progress.chapter:
            values += lesson.dice(seen)
    return values + list(FILLER.get(progress.chapter, ())) + list(DEFAULT_FILLER)


def opponent_values(state: GameState, count: int) -> list[int]:
    """The AI's dice while the script runs: plausible, all different and never three in a
    row, so it takes no pair, triple or run the learner's lessons need (the Orbital Market
    and the Shipyard have one pair of docks each with two players)."""
    rng = random.Random(f"learn:{state.version}:{state.turn_number}")
    faces = range(1, DIE_FACES + 1)
    choices = [c for c in combinations(faces, count) if not has_run(c)]
    if not choices:  # five ships or more: no such roll exists; any roll then
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

"""Alien Artifact (R-ART): any value; each ship earns a cycle of the display; a total of 8
since your last claim this turn lets you claim a display card you do not own.
"""

from __future__ import annotations

from engine.actions import Claim, Cycle
from engine.board import Refusal, log, refuse
from engine.facilities.base import Facility
from engine.rule import TurnRule
from engine.state import GameState, RevealDecision, Ship
from engine.tables import ARTIFACT_CLAIM_TOTAL, CARD_INDEX, DISPLAY_SIZE
from engine.tokens import Tokens


def cards_left(s: GameState) -> int:
    return sum(s.deck) + sum(s.discard)


class CycleRule(TurnRule[Cycle]):
    """Discard the display and reveal new cards, once per ship docked here (R-ART-1)."""

    verbs = ("cycle",)

    def refusal(self, s: GameState, p: int, a: Cycle) -> Refusal | None:
        if s.turn.artifact_cycles == 0:
            return refuse("artifact.no_cycle")
        if not s.display and cards_left(s) == 0:
            return refuse("artifact.no_cards")
        return None

    def apply(self, s: GameState, p: int, a: Cycle) -> None:
        s.turn.artifact_cycles -= 1
        for card in s.display:
            s.discard[CARD_INDEX[card]] += 1
        s.display.clear()
        log(s, "cycled", p)
        count = min(DISPLAY_SIZE, cards_left(s))
        if count:
            s.pending.insert(0, RevealDecision(count))


class ClaimRule(TurnRule[Claim]):
    """Take a display card you do not own and refill the display (R-ART-2, R-ART-3)."""

    verbs = ("claim",)

    def candidates(self, s: GameState, p: int) -> list[Claim]:
        if s.turn.artifact_total < ARTIFACT_CLAIM_TOTAL:
            return []  # no claim before a total of 8
        return list(dict.fromkeys(Claim(card) for card in s.display))

    def refusal(self, s: GameState, p: int, a: Claim) -> Refusal | None:
        if s.turn.artifact_total < ARTIFACT_CLAIM_TOTAL:
            return refuse(
                "artifact.total", total=s.turn.artifact_total, needed=ARTIFACT_CLAIM_TOTAL
            )
        if a.card not in s.display:
            return refuse("artifact.not_displayed", card=a.card)
        if a.card in s.players[p].cards:
            return refuse("card.already_owned", card=a.card)
        return None

    def apply(self, s: GameState, p: int, a: Claim) -> None:
        s.display.remove(a.card)
        s.players[p].cards.append(a.card)
        s.turn.artifact_total = 0
        log(s, "claimed", p, card=a.card)
        if cards_left(s):
            s.pending.insert(0, RevealDecision(1))

    def parse(self, t: Tokens) -> Claim:
        return Claim(t.card())


class AlienArtifact(Facility):
    id = "artifact"
    pattern = "single"

    def effect(self, s: GameState, p: int, ships: list[Ship], group: int) -> None:
        s.turn.artifact_cycles += len(ships)
        s.turn.artifact_total += sum(ship.value for ship in ships)


CYCLE = CycleRule()
CLAIM = ClaimRule()

"""Alien Artifact (R-ART): any value; each ship earns a cycle of the display; a total of 8
since your last claim this turn lets you claim a display card you do not own.
"""

from __future__ import annotations

from engine.board import Refusal, log, refuse
from engine.facilities.base import Facility
from engine.state import GameState, RevealDecision, Ship
from engine.tables import ARTIFACT_CLAIM_TOTAL, CARD_INDEX, DISPLAY_SIZE, CardId


def cards_left(s: GameState) -> int:
    return sum(s.deck) + sum(s.discard)


def cycle_refusal(s: GameState, p: int) -> Refusal | None:
    if s.turn.artifact_cycles == 0:
        return refuse("artifact.no_cycle")
    if not s.display and cards_left(s) == 0:
        return refuse("artifact.no_cards")
    return None


def cycle(s: GameState, p: int) -> None:
    """Discard the display and reveal new cards (R-ART-1)."""
    s.turn.artifact_cycles -= 1
    for card in s.display:
        s.discard[CARD_INDEX[card]] += 1
    s.display.clear()
    log(s, "cycled", p)
    count = min(DISPLAY_SIZE, cards_left(s))
    if count:
        s.pending.insert(0, RevealDecision(count))


def claim_refusal(s: GameState, p: int, card: CardId) -> Refusal | None:
    if s.turn.artifact_total < ARTIFACT_CLAIM_TOTAL:
        return refuse("artifact.total", total=s.turn.artifact_total, needed=ARTIFACT_CLAIM_TOTAL)
    if card not in s.display:
        return refuse("artifact.not_displayed", card=card)
    if card in s.players[p].cards:
        return refuse("card.already_owned", card=card)
    return None


def claim(s: GameState, p: int, card: CardId) -> None:
    """Take a display card and refill the display (R-ART-2)."""
    s.display.remove(card)
    s.players[p].cards.append(card)
    s.turn.artifact_total = 0
    log(s, "claimed", p, card=card)
    if cards_left(s):
        s.pending.insert(0, RevealDecision(1))


class AlienArtifact(Facility):
    id = "artifact"
    pattern = "single"

    def effect(self, s: GameState, p: int, ships: list[Ship], group: int) -> None:
        s.turn.artifact_cycles += len(ships)
        s.turn.artifact_total += sum(ship.value for ship in ships)

"""Setting up a game (section 2). The state starts with the chance decisions of the setup
pending: three display cards, one card per player, then the first player.
"""

from __future__ import annotations

import random

from engine.actions import FirstPlayer, Reveal
from engine.board import Refusal, gain, log, refuse
from engine.config import GameConfig
from engine.rule import ChanceRule
from engine.state import (
    NEUTRAL,
    Decision,
    FirstPlayerDecision,
    GameState,
    PlayerState,
    RevealDecision,
    Ship,
)
from engine.tables import (
    CARD_INDEX,
    CARDS,
    DISPLAY_SIZE,
    FACILITIES,
    FIELDS,
    FINITE_SUPPLY,
    PLAYER_COUNT_RULES,
    SHARED_FACILITIES,
    SHIPS_AT_START,
    SHIPS_PER_COLOUR,
    TERRITORIES,
    FacilityId,
    FieldId,
    TerritoryId,
)
from engine.tech.card import deck_counts
from engine.tokens import Tokens
from engine.turn import start_turn


def new_game(config: GameConfig | None = None) -> GameState:
    """A new game before its setup's chance decisions (R-SETUP-1..6)."""
    config = config or GameConfig()
    n = config.players
    rules = PLAYER_COUNT_RULES[n]
    players = [
        PlayerState(
            colonies=config.colonies_per_player,
            stock=SHIPS_PER_COLOUR - SHIPS_AT_START,
            bay=[Ship(p, 1) for _ in range(SHIPS_AT_START)],  # R-SETUP-4
        )
        for p in range(n)
    ]
    docks: dict[FacilityId, tuple[Ship | None, ...]] = {}
    for f in SHARED_FACILITIES:
        size = FACILITIES[f].docks
        blocked = rules.blocked.get(f, 0)
        docks[f] = (None,) * (size - blocked) + (Ship(NEUTRAL, 1),) * blocked  # R-SETUP-6
    pending: list[Decision] = [RevealDecision(DISPLAY_SIZE)]
    pending += [RevealDecision(1, p) for p in range(n)]
    pending.append(FirstPlayerDecision())
    colonies: dict[TerritoryId, tuple[int, ...]] = {t: (0,) * n for t in TERRITORIES}
    controller: dict[TerritoryId, int | None] = {t: None for t in TERRITORIES}
    fields: dict[FieldId, TerritoryId | None] = {f: None for f in FIELDS}
    return GameState(
        config=config,
        players=players,
        docks=docks,
        hub_docks=[[] for _ in range(n)],
        colonies=colonies,
        controller=controller,
        fields=fields,
        deck=list(deck_counts(config)),
        discard=[0] * len(CARDS),
        supply=list(FINITE_SUPPLY) if config.finite_supply else None,
        pending=pending,
    )


def deck_for_reveal(s: GameState) -> list[int]:
    """Copies per card that a reveal draws from: the deck, or the reshuffled discard (R-TECH-4)."""
    return s.deck if sum(s.deck) else s.discard


class RevealRule(ChanceRule[RevealDecision, Reveal]):
    """The card turned up from the deck, weighted by the copies left in it (deck order is
    not stored: drawing each card as a chance outcome is the same as a shuffled deck)."""

    verbs = ("reveal",)

    def outcomes(self, s: GameState, d: RevealDecision) -> list[tuple[Reveal, float]]:
        counts = deck_for_reveal(s)
        total = sum(counts)
        return [(Reveal(c), counts[i] / total) for i, c in enumerate(CARDS) if counts[i]]

    def sample(self, s: GameState, d: RevealDecision, rng: random.Random) -> Reveal:
        counts = deck_for_reveal(s)
        k = rng.randrange(sum(counts))
        for i, c in enumerate(counts):
            if k < c:
                return Reveal(CARDS[i])
            k -= c
        raise AssertionError("deck counts changed while sampling")

    def refusal(self, s: GameState, d: RevealDecision, a: Reveal) -> Refusal | None:
        if deck_for_reveal(s)[CARD_INDEX[a.card]] == 0:
            return refuse("chance.card_not_in_deck", card=a.card)
        return None

    def apply(self, s: GameState, d: RevealDecision, a: Reveal) -> None:
        if sum(s.deck) == 0:  # R-TECH-4
            s.deck, s.discard = s.discard, [0] * len(CARDS)
            log(s, "reshuffled")
        s.deck[CARD_INDEX[a.card]] -= 1
        if d.to_player is None:
            s.display.append(a.card)
            log(s, "revealed", card=a.card)
        else:
            s.players[d.to_player].cards.append(a.card)
            log(s, "dealt", d.to_player, card=a.card)
        if d.count > 1:
            s.pending[0] = RevealDecision(d.count - 1, d.to_player)
        else:
            s.pending.pop(0)

    def parse(self, t: Tokens) -> Reveal:
        return Reveal(t.card())


class FirstPlayerRule(ChanceRule[FirstPlayerDecision, FirstPlayer]):
    """R-SETUP-5: the first player starts; the others get their starting compensation."""

    verbs = ("first",)

    def outcomes(self, s: GameState, d: FirstPlayerDecision) -> list[tuple[FirstPlayer, float]]:
        n = s.num_players
        return [(FirstPlayer(i), 1 / n) for i in range(n)]

    def sample(self, s: GameState, d: FirstPlayerDecision, rng: random.Random) -> FirstPlayer:
        return FirstPlayer(rng.randrange(s.num_players))

    def refusal(self, s: GameState, d: FirstPlayerDecision, a: FirstPlayer) -> Refusal | None:
        return None if 0 <= a.seat < s.num_players else refuse("chance.seat")

    def apply(self, s: GameState, d: FirstPlayerDecision, a: FirstPlayer) -> None:
        s.pending.pop(0)
        s.first_player = a.seat
        log(s, "first_player", a.seat)
        n = s.num_players
        for k, (fuel, ore) in enumerate(PLAYER_COUNT_RULES[n].compensation):
            if fuel or ore:
                p = (a.seat + k) % n
                gain(s, p, fuel, ore)
                log(s, "compensation", p, fuel=fuel, ore=ore)
        start_turn(s, a.seat)

    def parse(self, t: Tokens) -> FirstPlayer:
        return FirstPlayer(t.seat())


REVEAL = RevealRule()
FIRST_PLAYER = FirstPlayerRule()

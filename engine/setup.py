"""Setting up a game (section 2). The state starts with the chance decisions of the setup
pending: three display cards, one card per player, then the first player.
"""

from __future__ import annotations

from engine.actions import FirstPlayer, Reveal
from engine.board import Refusal, gain, log, refuse
from engine.chance import deck_for_reveal
from engine.config import GameConfig
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
    deck_counts,
)
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
    docks: dict[FacilityId, list[Ship | None]] = {}
    for f in SHARED_FACILITIES:
        size = FACILITIES[f].docks
        blocked = rules.blocked.get(f, 0)
        docks[f] = [None] * (size - blocked) + [Ship(NEUTRAL, 1)] * blocked  # R-SETUP-6
    pending: list[Decision] = [RevealDecision(DISPLAY_SIZE)]
    pending += [RevealDecision(1, p) for p in range(n)]
    pending.append(FirstPlayerDecision())
    colonies: dict[TerritoryId, list[int]] = {t: [0] * n for t in TERRITORIES}
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
        deck=list(deck_counts(config.mind_control_helm)),
        discard=[0] * len(CARDS),
        supply=list(FINITE_SUPPLY) if config.finite_supply else None,
        pending=pending,
    )


def reveal_refusal(s: GameState, action: Reveal) -> Refusal | None:
    if deck_for_reveal(s)[CARD_INDEX[action.card]] == 0:
        return refuse("chance.card_not_in_deck", card=action.card)
    return None


def apply_reveal(s: GameState, d: RevealDecision, action: Reveal) -> None:
    if sum(s.deck) == 0:  # R-TECH-4
        s.deck, s.discard = s.discard, [0] * len(CARDS)
        log(s, "reshuffled")
    s.deck[CARD_INDEX[action.card]] -= 1
    if d.to_player is None:
        s.display.append(action.card)
        log(s, "revealed", card=action.card)
    else:
        s.players[d.to_player].cards.append(action.card)
        log(s, "dealt", d.to_player, card=action.card)
    if d.count > 1:
        s.pending[0] = RevealDecision(d.count - 1, d.to_player)
    else:
        s.pending.pop(0)


def apply_first_player(s: GameState, action: FirstPlayer) -> None:
    """R-SETUP-5: the first player starts; the others get their starting compensation."""
    s.pending.pop(0)
    s.first_player = action.seat
    log(s, "first_player", action.seat)
    n = s.num_players
    for k, (fuel, ore) in enumerate(PLAYER_COUNT_RULES[n].compensation):
        if fuel or ore:
            p = (action.seat + k) % n
            gain(s, p, fuel, ore)
            log(s, "compensation", p, fuel=fuel, ore=ore)
    start_turn(s, action.seat)

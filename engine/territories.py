"""Colonies on the planet, territory control and bonuses (R-COL-1..4, R-END-2).

The planet's maps (``GameState.colonies``, ``controller``, ``fields``) are shared by a
state's copies (``engine.state.SHARED_BY_COPIES``): they are changed only here and in
``set_field``, each time by a new map.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.board import log, remove_relic_from_play
from engine.state import GameState
from engine.tables import TERRITORIES, FieldId, TerritoryId


def leader(counts: Sequence[int]) -> int | None:
    """The player with strictly more colonies than every other, or None (R-COL-2)."""
    best = -1
    best_count = 0
    tied = False
    for p, c in enumerate(counts):
        if c > best_count:
            best, best_count, tied = p, c, False
        elif c == best_count and c > 0:
            tied = True
    return None if tied or best < 0 else best


def has_bonus(s: GameState, p: int, t: TerritoryId) -> bool:
    """Whether p may use t's bonus now: control or a Data Crystal, and no Isolation Field."""
    if s.fields["isolation"] == t:
        return False
    if s.controller[t] == p:
        return True
    return p == s.current and t in s.turn.borrowed


def colonies_placed(s: GameState, p: int) -> int:
    return sum(s.colonies[t][p] for t in TERRITORIES)


def colony_total(s: GameState, t: TerritoryId) -> int:
    return sum(s.colonies[t])


def repulsed(s: GameState, t: TerritoryId) -> bool:
    """R-FIELD-REP: no colony may be added to or removed from this territory."""
    return s.fields["repulsor"] == t


def update_control(s: GameState, t: TerritoryId) -> None:
    """Recheck control of t after a change (R-COL-3); the relic ship follows Burroughs."""
    new = leader(s.colonies[t])
    old = s.controller[t]
    if new == old:
        return
    s.controller = {**s.controller, t: new}
    if old is not None:
        log(s, "control_lost", old, territory=t)
    if new is not None:
        log(s, "control_gained", new, territory=t)
    if t == "burroughs" and not s.relic_on_desert:
        return_relic(s)


def return_relic(s: GameState) -> None:
    """The relic ship returns to Burroughs Desert at once (R-COL-4)."""
    if remove_relic_from_play(s):
        s.relic_on_desert = True
        log(s, "relic_returns")


def count_colony(s: GameState, p: int, t: TerritoryId, change: int) -> None:
    """Add ``change`` to p's colonies on t (a new map; control is not rechecked)."""
    counts = list(s.colonies[t])
    counts[p] += change
    s.colonies = {**s.colonies, t: tuple(counts)}


def set_field(s: GameState, field: FieldId, t: TerritoryId | None) -> None:
    """Put a field generator on t, or off the planet with None (a new map)."""
    s.fields = {**s.fields, field: t}


def add_colony(s: GameState, p: int, t: TerritoryId) -> None:
    count_colony(s, p, t, 1)
    update_control(s, t)


def remove_colony(s: GameState, p: int, t: TerritoryId) -> None:
    count_colony(s, p, t, -1)
    update_control(s, t)


def place_colony(s: GameState, p: int, t: TerritoryId) -> None:
    """Put p's colony on t (R-COL-1) and end the game if it was p's last (R-END-2)."""
    add_colony(s, p, t)
    log(s, "colony_placed", p, territory=t)
    pl = s.players[p]
    if pl.colonies == 0 and pl.hub == 0 and colonies_placed(s, p) == s.config.colonies_per_player:
        s.over = True
        s.pending.clear()
        log(s, "game_over", p)

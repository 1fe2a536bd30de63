"""The frozen options of one game (R-SETUP-3, R-RES-4, R-TECH-HELM)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.tables import PLAYER_COUNT_RULES


@dataclass(frozen=True, slots=True)
class GameConfig:
    """Everything that is fixed when a game is set up.

    players: 2 to 4 seats.
    long_game: 8 colonies each with 3 or 4 players (R-SETUP-3).
    mind_control_helm: add the two 2nd-edition Mind Control Helm cards (24-card deck).
    finite_supply: the bank holds only the box's 30 fuel and 20 ore (R-RES-4).
    """

    players: int = 4
    long_game: bool = False
    mind_control_helm: bool = False
    finite_supply: bool = False

    def __post_init__(self) -> None:
        if self.players not in PLAYER_COUNT_RULES:
            *most, last = map(str, PLAYER_COUNT_RULES)
            raise ValueError(f"players must be {', '.join(most)} or {last}, not {self.players}")

    @property
    def colonies_per_player(self) -> int:
        rules = PLAYER_COUNT_RULES[self.players]
        return rules.colonies_long_game if self.long_game else rules.colonies

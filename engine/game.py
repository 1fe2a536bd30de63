"""A game with its history: the setup's config, the action log, replay and undo.

The state itself is pure data; ``Game`` adds what needs the past. Undo (issue
rule): the last action of the current turn may be taken back, never across a
chance action (a roll, a reroll, a revealed card) nor across the end of a turn.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.actions import Action
from engine.config import GameConfig
from engine.errors import IllegalActionError
from engine.notation import parse
from engine.rulebook import RULEBOOK
from engine.rules import apply, apply_in_place
from engine.setup import new_game
from engine.state import CHANCE, GameState


class Game:
    """A game's config, its action log and its current state."""

    def __init__(self, config: GameConfig | None = None) -> None:
        self.config = config or GameConfig()
        self.state = new_game(self.config)
        self.log: list[Action] = []
        self._before: list[GameState] = []  # states before each undoable action

    @classmethod
    def replay(cls, config: GameConfig, log: Iterable[Action | str], checked: bool = False) -> Game:
        """Rebuild a game from its log (the fast path unless ``checked``)."""
        game = cls(config)
        for a in log:
            action = parse(a) if isinstance(a, str) else a
            if checked:
                game.apply(action)
            else:
                game._record(action, game.state.copy() if game._undoable_next(action) else None)
                apply_in_place(game.state, action)
        return game

    def copy(self) -> Game:
        """A game to play on without touching this one (states are never changed in place:
        they are shared; the log and the undo stack are copied)."""
        other = Game.__new__(Game)
        other.config = self.config
        other.state = self.state
        other.log = list(self.log)
        other._before = list(self._before)  # noqa: SLF001 (a Game of its own making)
        return other

    def apply(self, action: Action | str, player: int | None = None) -> GameState:
        """Apply a legal action (or its notation), checked; returns the new state."""
        a = parse(action) if isinstance(action, str) else action
        before = self.state
        self.state = apply(before, a, player)
        self._record(a, before if self._undoable_next(a) else None)
        return self.state

    def _undoable_next(self, a: Action) -> bool:
        return not RULEBOOK.is_chance(a)

    def _record(self, a: Action, before: GameState | None) -> None:
        self.log.append(a)
        if before is None:
            self._before.clear()
        else:
            self._before.append(before)

    def can_undo(self, player: int | None = None) -> bool:
        """Whether the last action may be taken back (by ``player``, if given)."""
        if not self._before or self.state.over:
            return False
        if self.state.to_act() == CHANCE:
            return False  # a chance outcome is due: the action already revealed something
        last = self._before[-1]
        if last.turn_number != self.state.turn_number:
            return False
        return player is None or player == self.state.current

    def undo(self, player: int | None = None) -> Action:
        """Take back the last action; IllegalActionError if the rule does not allow it."""
        if not self.can_undo(player):
            raise IllegalActionError("undo.not_allowed")
        self.state = self._before.pop()
        return self.log.pop()

    def notation_log(self) -> list[str]:
        return [str(a) for a in self.log]

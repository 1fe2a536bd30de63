"""What ``/play``, ``/undo`` and the panel's picks share (``Moves``): checking a pick
(one move, or a macro's several), committing its actions one after the other, taking
back a whole pick, and the check that only the player to act uses the panel. The
commands and the panel's callbacks themselves are the Play cog's (``bot.discord.cogs.play``);
AI turns and the rest of the background work are in ``bot.discord.background``.

Every method that changes a game is called with the game's lock held; each action is
committed by the service before it returns, so a crash never loses an acknowledged move.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from bot.play.choices import MAX_MOVES
from bot.play.games import ActiveGame, MoveResult, ServiceError
from bot.play.service import GameService, ServiceRef
from bot.text import describe
from engine import CHANCE, Action, apply_in_place, check
from engine.errors import EngineError

log = logging.getLogger(__name__)


class Moves:
    """Members' picks, checked and committed; the last pick of each game remembered so
    that Undo takes back all of it (a macro's several docks at once)."""

    def __init__(self, service: ServiceRef) -> None:
        self._service = service
        # The last pick on each game: (state version after it, actions it applied).
        self._picks: dict[int, tuple[int, int]] = {}

    @property
    def service(self) -> GameService:
        return self._service()

    def check_pick(self, game: ActiveGame, user_id: int, moves: Sequence[str]) -> list[Action]:
        """The actions of a pick, each legal after the ones before it (or the reason why not).

        A pick may not run past a chance outcome (a card revealed, a reroll): what follows
        it could not be judged before."""
        if not moves or len(moves) > MAX_MOVES:
            raise ServiceError("panel.unknown_choice")
        state = game.state
        seat: int | None = None
        actions: list[Action] = []
        for i, move in enumerate(moves):
            if i and state.to_act() == CHANCE:
                raise ServiceError("panel.unknown_choice")
            seat, action = self.service.check_move(game, user_id, move, seat=seat)
            check(state, action, seat)  # the engine's door: None exactly for legal actions
            if i + 1 < len(moves):
                state = state.copy()
                apply_in_place(state, action)
            actions.append(action)
        return actions

    async def commit(
        self, game: ActiveGame, user_id: int, actions: Sequence[str | Action]
    ) -> MoveResult:
        """Play a pick's actions one after the other, each checked by the engine and
        committed. If one fails after the first, the pick stops there (what was played
        stays played and is shown); if the first fails, its refusal is raised."""
        results: list[MoveResult] = []
        try:
            for action in actions:
                results.append(await self.service.play(game, user_id, action))
        except (EngineError, ServiceError) as e:
            if not results:
                raise
            log.warning("game %d: a pick stopped after %d moves: %s", game.id, len(results), e)
        self._picks[game.id] = (game.state.version, len(results))
        return merged(results)

    async def take_back(
        self, game: ActiveGame, user_id: int, version: int | None = None
    ) -> list[Action]:
        """Take back the member's last pick (given ``version``, only from that panel): one
        action, or all the actions of a macro picked on the panel, last first. A refusal
        is raised only if nothing was taken back."""
        undone: list[Action] = []
        try:
            self.service.check_version(game, version)
            count = self._pick_size(game)
            while len(undone) < count:
                undone.append(await self.service.undo(game, user_id, undone))
                if not game.game or not game.game.can_undo(game.to_act()):
                    break
        except (EngineError, ServiceError):
            if not undone:
                raise
        self._picks.pop(game.id, None)
        return undone

    def _pick_size(self, game: ActiveGame) -> int:
        pick = self._picks.get(game.id)
        return pick[1] if pick is not None and pick[0] == game.state.version else 1

    def check_turn(self, game: ActiveGame, user_id: int, version: int | None) -> None:
        """Only the player to act, on the current panel, may use it (else: why not)."""
        self.service.check_version(game, version)
        seat = game.seat_of(user_id)
        to_act = game.to_act()
        if seat is None:  # a spectator: nothing of theirs to wait for
            raise ServiceError("play.not_seated")
        if seat != to_act:
            name = describe.seat_name(to_act, game.chat_names) if to_act is not None else "?"
            raise ServiceError("panel.not_your_turn", player=name)


def merged(results: Sequence[MoveResult]) -> MoveResult:
    """One result for the moves of a pick, in order (``before``: that of its last move,
    the one that may end the turn)."""
    return MoveResult(
        tuple(step for r in results for step in r.steps),
        any(r.turn_changed for r in results),
        any(r.over for r in results),
        results[-1].before,
    )

"""What ``/play``, ``/undo`` and the panel's picks share (``Picks``): checking a pick
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
from dataclasses import replace

from bot.play.choice_tree import MAX_MOVES
from bot.play.games import ActiveGame, MoveResult
from bot.play.move_service import MoveService
from bot.store.errors import ServiceError
from bot.text import describe
from bot.text.move_words import move_made
from engine import CHANCE, Action, apply_in_place, check

log = logging.getLogger(__name__)


class Picks:
    """Members' picks, checked and committed; the last pick of each game remembered so
    that Undo takes back all of it (a macro's several docks at once)."""

    def __init__(self, moves: MoveService) -> None:
        self.moves = moves
        # The last pick on each game: (state version after it, actions it applied).
        self._picks: dict[int, tuple[int, int]] = {}

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
            seat, action = self.moves.check_move(game, user_id, move, seat=seat)
            check(state, action, seat)  # the engine's door: None exactly for legal actions
            if i + 1 < len(moves):
                state = state.copy()
                apply_in_place(state, action)
            actions.append(action)
        return actions

    @staticmethod
    def read(move: str) -> str:
        """A move as a member typed it, in the engine's notation (the localised names of
        facilities and territories are read too)."""
        return describe.notation_of(move)

    @staticmethod
    def made(result: MoveResult, locale: str, names: Sequence[str]) -> list[str]:
        """The member's private answer to a committed pick: its first move, as made, and
        what it did (in words: ``bot.text.move_words``)."""
        first = result.steps[0]
        return move_made(first.action, first.events, locale, names)

    async def commit(
        self,
        game: ActiveGame,
        user_id: int,
        actions: Sequence[str | Action],
        key: str | None = None,
        version: int | None = None,
    ) -> MoveResult:
        """Play a pick's actions one after the other, each checked by the engine and
        committed. If one fails after the first, for any reason, the pick stops there
        (what was played stays played and is shown: a committed move is never answered
        as a failure); if the first fails, its refusal (or error) is raised.

        ``key``: the pick's idempotency key (the interaction, or the panel pick's own id);
        each action of the pick carries it (the second ``key#2``...). A pick whose key was
        committed already is not played again: its first result comes back (``repeated``).
        ``version``: the panel's, checked before the first action."""
        results: list[MoveResult] = []
        try:
            for i, action in enumerate(actions):
                one = f"{key}#{i + 1}" if key is not None and i else key
                result = await self.moves.play(
                    game, user_id, action, key=one, version=version if not i else None
                )
                if result.repeated and not results:  # the pick was played already
                    return await self._first(game, result, key, len(actions))
                results.append(result)
        except Exception as e:
            if not results:
                raise
            log.warning("game %d: a pick stopped after %d moves: %s", game.id, len(results), e)
        self._picks[game.id] = (game.state.version, len(results))
        return merged(results)

    async def _first(
        self, game: ActiveGame, first: MoveResult, key: str | None, count: int
    ) -> MoveResult:
        """The first result of a pick committed already: its moves' results, as far as
        they were committed."""
        results = [first]
        for i in range(1, count):
            try:
                more = await self.moves.first_result(game, f"{key}#{i + 1}")
            except Exception:
                more = None
            if more is None:
                break
            results.append(more)
        return replace(merged(results), repeated=True)

    async def take_back(
        self, game: ActiveGame, user_id: int, version: int | None = None
    ) -> list[Action]:
        """Take back the member's last pick (given ``version``, only from that panel): one
        action, or all the actions of a macro picked on the panel, last first. A refusal
        is raised only if nothing was taken back."""
        undone: list[Action] = []
        try:
            self.moves.check_version(game, version)
            count = self._pick_size(game)
            while len(undone) < count:
                undone.append(await self.moves.undo(game, user_id, undone))
                if not game.can_undo():
                    break
        except Exception as e:
            if not undone:
                raise
            log.warning("game %d: a take-back stopped after %d: %s", game.id, len(undone), e)
        self._picks.pop(game.id, None)
        return undone

    def _pick_size(self, game: ActiveGame) -> int:
        pick = self._picks.get(game.id)
        return pick[1] if pick is not None and pick[0] == game.state.version else 1

    def check_turn(self, game: ActiveGame, user_id: int, version: int | None) -> None:
        """Only the player to act, on the current panel, may use it (else: why not)."""
        self.moves.check_version(game, version)
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

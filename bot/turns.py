"""Members' moves on Discord: ``/play``, ``/af undo`` and the panel (its turn check,
picks, pages, Undo, Hint). AI turns and the rest of the background work are in
``bot.background``.

A member's move is checked at once (a refusal is answered privately without
waiting), then applied under the game's lock, committed, acknowledged, and shown
by the ``Announcer`` before the lock is released, so one game's moves are applied
and announced one at a time, in order. If the lock is busy the interaction is
deferred first, so Discord's 3-second deadline is always met. After a move, the AI
seat to act (if any) is started through the ``schedule_ai`` it is given.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from typing import Any

import discord

from bot import describe
from bot.ai import hint_plan
from bot.announce import Announcer
from bot.choices import MAX_MOVES, split_moves, valid_path
from bot.games import ActiveGame, MoveResult, ServiceError, StalePanelError
from bot.notify import Notifier
from bot.refusals import refuse
from bot.replies import holding, locale_of, send_ephemeral
from bot.service import GameService, ServiceRef
from bot.strings import text
from engine import CHANCE, Action, apply_in_place, check
from engine.errors import EngineError

log = logging.getLogger(__name__)


class Moves:
    """Applies members' moves (the panel's ``PanelHandler``); the ``Announcer`` shows them."""

    def __init__(
        self,
        service: ServiceRef,
        announcer: Announcer,
        notifier: Notifier,
        schedule_ai: Callable[[ActiveGame], None],
    ) -> None:
        self._service = service
        self.announcer = announcer
        self.notifier = notifier
        self.schedule_ai = schedule_ai
        # The last pick on each game's panel: (state version after it, actions it applied),
        # so that Undo takes back a whole pick (a macro's several docks at once).
        self._picks: dict[int, tuple[int, int]] = {}

    @property
    def service(self) -> GameService:
        return self._service()

    # ---- members' moves ------------------------------------------------------------------

    async def play_command(self, interaction: discord.Interaction[Any], move: str) -> None:
        """``/play move:``: apply a member's move given in the engine's notation. The
        service checks it (once, through ``engine.check``) before anything is written."""
        locale = locale_of(interaction)
        move = describe.notation_of(move)  # localised names of facilities and territories
        game = await self.service.require(interaction.channel_id)
        try:
            if game.lock.locked():  # refuse at once rather than after the wait
                seat, action = self.service.check_move(game, interaction.user.id, move)
                check(game.state, action, seat)
            async with holding(game.lock, interaction):
                result = await self.service.play(game, interaction.user.id, move)
                lines = [
                    describe.event_line(e, locale, game.chat_names) for e in result.steps[0].events
                ]
                ack = text("play.done", locale, {"move": str(result.steps[0].action)})
                hint = await self.notifier.hint_for(interaction.user.id, locale)
                await send_ephemeral(
                    interaction, "\n".join([ack, *lines, *([hint] if hint else [])])
                )
                await self.announcer.announce(game, result, None)
        except (EngineError, ServiceError) as e:
            await refuse(interaction, e, game.chat_names)
            return
        self.schedule_ai(game)

    async def undo(self, interaction: discord.Interaction[Any], version: int | None = None) -> None:
        """Take back the member's last pick (``/af undo`` or the panel's Undo button): one
        action, or all the actions of a macro picked on the panel."""
        locale = locale_of(interaction)
        game = await self.service.require(interaction.channel_id)
        from_panel = version is not None
        if game.lock.locked():
            await interaction.response.defer(ephemeral=not from_panel, thinking=not from_panel)
        async with game.lock:
            undone: list[Action] = []
            try:
                self.service.check_version(game, version)
                count = self._pick_size(game)
                while len(undone) < count:
                    undone.append(await self.service.undo(game, interaction.user.id))
                    if not game.game or not game.game.can_undo(game.to_act()):
                        break
            except (EngineError, ServiceError) as e:
                if not undone:
                    await refuse(interaction, e, game.chat_names)
                    return
            self._picks.pop(game.id, None)
            moves = "`, `".join(str(a) for a in reversed(undone))
            note = text("undo.done", game.row.locale, {"move": moves})
            content = self.announcer.turn_text(game) + "\n" + note
            await self.announcer.edit_turn_message(
                game,
                content[:2000],
                self.announcer.panel(game),
                interaction if from_panel else None,
            )
            self.announcer.board_changed(game)
            if not from_panel:
                await send_ephemeral(interaction, text("undo.done", locale, {"move": moves}))
            elif not interaction.response.is_done():
                await interaction.response.defer()

    def _pick_size(self, game: ActiveGame) -> int:
        pick = self._picks.get(game.id)
        return pick[1] if pick is not None and pick[0] == game.state.version else 1

    # ---- the panel -------------------------------------------------------------------------

    async def _panel_game(self, game_id: int) -> ActiveGame:
        """The game of a panel, if it is still being played (else the panel is gone)."""
        game = await self.service.by_id(game_id)
        if game is None or game.game is None:
            raise StalePanelError(None)
        return game

    async def check_panel(
        self, interaction: discord.Interaction[Any], game_id: int, version: int
    ) -> bool:
        """Only the player to act, on the current panel, gets through; others are told why."""
        try:
            game = await self._panel_game(game_id)
            self.service.check_version(game, version)
            seat = game.seat_of(interaction.user.id)
            to_act = game.to_act()
            if seat is None:  # a spectator: nothing of theirs to wait for
                raise ServiceError("play.not_seated")
            if seat != to_act:
                name = describe.seat_name(to_act, game.chat_names) if to_act is not None else "?"
                raise ServiceError("panel.not_your_turn", player=name)
        except Exception as e:
            await refuse(interaction, e, where="panel check")
            return False
        return True

    async def panel_move(
        self, interaction: discord.Interaction[Any], game_id: int, version: int, move: str
    ) -> None:
        """Play a pick of the panel: one move, or a macro's moves one after the other (each
        checked by the engine and committed, the whole pick checked before any is played)."""
        locale = locale_of(interaction)
        names: Sequence[str] = ()
        try:
            game = await self.service.by_id(game_id)
            if game is None:
                raise StalePanelError(None)
            names = game.chat_names
            if game.lock.locked():
                await interaction.response.defer()
            async with game.lock:
                results: list[MoveResult] = []
                try:
                    self.service.check_version(game, version)
                    picked = self._check_pick(game, interaction.user.id, move)
                    for action in picked:
                        results.append(
                            await self.service.play(
                                game, interaction.user.id, action, version=game.state.version
                            )
                        )
                except (EngineError, ServiceError) as e:
                    if not results:
                        raise
                    log.warning(
                        "game %d: a pick stopped after %d moves: %s", game.id, len(results), e
                    )
                self._picks[game.id] = (game.state.version, len(results))
                names = ()  # the move was saved: a refusal now is about showing it
                await self.announcer.announce(game, merged(results), interaction)
            hint = await self.notifier.hint_for(interaction.user.id, locale)
            if hint is not None:
                await send_ephemeral(interaction, hint)
            self.schedule_ai(game)
        except Exception as e:
            await refuse(interaction, e, names, where="panel move")

    def _check_pick(self, game: ActiveGame, user_id: int, value: str) -> list[Action]:
        """The actions of a pick, each legal after the ones before it (or the reason why not).

        A pick may not run past a chance outcome (a card revealed, a reroll): what follows
        it could not be judged before."""
        moves = split_moves(value)
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
            state = state.copy()
            apply_in_place(state, action)
            actions.append(action)
        return actions

    async def panel_open(
        self,
        interaction: discord.Interaction[Any],
        game_id: int,
        version: int,
        path: str | None,
        page: int,
    ) -> None:
        """Open a second step (or a page of it), or close it: a new panel, same game version."""
        try:
            game = await self.service.by_id(game_id)
            if game is None:
                raise StalePanelError(None)
            if path is not None and (
                not valid_path(path) or self.announcer.choices(game).node(path) is None
            ):
                raise ServiceError("panel.unknown_choice")
            await interaction.response.edit_message(view=self.announcer.panel(game, path, page))
        except Exception as e:
            await refuse(interaction, e, where="panel page")

    async def panel_undo(
        self, interaction: discord.Interaction[Any], game_id: int, version: int
    ) -> None:
        try:
            await self.undo(interaction, version)
        except Exception as e:
            await refuse(interaction, e, where="panel undo")

    async def panel_hint(
        self, interaction: discord.Interaction[Any], game_id: int, version: int
    ) -> None:
        """What the normal AI would do with the rest of the turn, privately; worked out in a
        worker thread so the other games go on meanwhile."""
        locale = locale_of(interaction)
        try:
            game = await self._panel_game(game_id)
            await interaction.response.defer(ephemeral=True, thinking=True)
            state = game.state.copy()
            plan = await asyncio.to_thread(hint_plan, state, game.row.seed)
            await interaction.followup.send(
                describe.hint_text(state, plan, game.seat_names, locale), ephemeral=True
            )
        except Exception as e:
            await refuse(interaction, e, where="panel hint")


def merged(results: Sequence[MoveResult]) -> MoveResult:
    """One result for the moves of a pick, in order (``before``: that of its last move,
    the one that may end the turn)."""
    return MoveResult(
        tuple(step for r in results for step in r.steps),
        any(r.turn_changed for r in results),
        any(r.over for r in results),
        results[-1].before,
    )

"""The game service's moves (call with ``game.lock`` held): a member's or an AI seat's move
checked, played on a copy of the game with the chance it leads to, and committed in one
transaction with what players must see of it (a move's idempotency key makes a repeat
return the first result); the member's last action taken back (undo).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from bot.play import outbox
from bot.play.ai import AIFactory, Chooser, Level, choose_move
from bot.play.final_results_service import FinalResultsService
from bot.play.games import (
    ActiveGame,
    AppliedAction,
    MoveResult,
    MoveUnsure,
    event_data,
    logged_event,
    new_events,
)
from bot.play.held_games import HeldGames
from bot.play.outbox import Outbox
from bot.play.seat_changes import Seating, back_to, with_changes
from bot.play.tutor import opponent_move, scripted
from bot.store.action_log_store import ActionLogStore
from bot.store.db import UniqueViolation
from bot.store.errors import GameChangedError, ServiceError, StalePanelError
from bot.store.rows import ActionRow, Delivery, GameRow, ResultRow
from engine import CHANCE, Action, dumps, parse, sample_chance
from engine.ai import SkipPlayer

log = logging.getLogger(__name__)

# How many recent keyed moves a game remembers in memory (older ones: the database).
KEYS_KEPT = 64


class MoveService:
    """Moves checked, played and committed; undo."""

    def __init__(
        self,
        games: HeldGames,
        seating: Seating,
        final_results: FinalResultsService,
        *,
        clock: Callable[[], float],
        outbox: Outbox,
        ai_factory: AIFactory,
        ai_budget_ms: int | None,
        action_log: ActionLogStore,
    ) -> None:
        self._action_log = action_log
        self.games = games
        self.seating = seating
        self.final_results = final_results
        self.clock = clock
        self.outbox = outbox
        self.ai_factory = ai_factory
        self.ai_budget_ms = ai_budget_ms

    def check_version(self, game: ActiveGame, version: int | None) -> None:
        if version is not None and (game.game is None or game.state.version != version):
            raise StalePanelError(game.row.turn_message_id)

    def check_move(
        self,
        game: ActiveGame,
        user_id: int | None,
        move: str | Action,
        *,
        seat: int | None = None,
        version: int | None = None,
    ) -> tuple[int, Action]:
        """The seat and the action of a move the bot may play now (the rules' check is the
        engine's: ``engine.check``, made when the move is applied)."""
        if game.row.status != "playing" or game.game is None:
            raise ServiceError("game.not_started" if game.row.status == "lobby" else "game.none")
        self.check_version(game, version)
        if seat is None:
            seat = game.seat_of(user_id) if user_id is not None else None
            if seat is None:
                raise ServiceError("play.not_seated")
            if game.timed_out() and game.to_act() == seat:
                raise ServiceError("clock.bot_playing")
        return seat, parse(move) if isinstance(move, str) else move

    async def play(
        self,
        game: ActiveGame,
        user_id: int | None,
        move: str | Action,
        *,
        seat: int | None = None,
        version: int | None = None,
        key: str | None = None,
    ) -> MoveResult:
        """Apply a member's (or, with ``seat``, an AI seat's) move, then chance; commit.

        The move is played on a copy of the game, which becomes the game in memory only once
        committed: nothing ahead of the database is ever shown. ``key`` is the move's
        idempotency key (the member's interaction, or their panel pick), stored with its
        action: a move whose key was committed already is not played again, and its first
        result comes back (``repeated``) — a double click, a retry, a second process given
        the same interaction, an acknowledgement of the commit that was lost."""
        if key is not None and key in game.keys:
            return replace(game.keys[key], repeated=True)
        try:
            seat, action = self.check_move(game, user_id, move, seat=seat, version=version)
        except StalePanelError:
            first = await self.first_result(game, key)  # a second click on a panel played already
            if first is not None:
                return first
            raise
        assert game.game is not None
        after = replace(game, game=game.game.copy())
        engine_game = after.game
        assert engine_game is not None
        turn = engine_game.state.turn_number
        first_seq = len(engine_game.log)
        before = engine_game.state
        engine_game.apply(action, player=seat)
        steps = [
            AppliedAction(seat, action, new_events(before, engine_game.state)),
            *self.resolve_chance(after),
        ]
        over = engine_game.state.over
        seats: dict[int, dict[str, object]] = {}
        if user_id is not None and game.seats[seat].timeouts:
            seats[seat] = {"timeouts": 0}  # the member is back: the count starts again
        turn_changed = over or engine_game.state.turn_number != turn
        first = await self.commit(
            game,
            after,
            steps,
            first_seq,
            user_id,
            status="over" if over else None,
            seats=seats,
            closed_by=seat if turn_changed else None,
            key=key,
        )
        if first is not None:
            return first
        if turn_changed:  # the board as the turn left it, for its closed message
            game.turn_ends[turn] = engine_game.state if over else before
        result = MoveResult(tuple(steps), turn_changed, over, before)
        if key is not None:
            game.keys[key] = result
            while len(game.keys) > KEYS_KEPT:
                del game.keys[next(iter(game.keys))]
        return result

    async def first_result(self, game: ActiveGame, key: str | None) -> MoveResult | None:
        """The first result of the move with idempotency key ``key`` if it was committed
        (in this process or another), else None."""
        if key is None:
            return None
        if key in game.keys:
            return replace(game.keys[key], repeated=True)
        rows = await self._action_log.keyed_move(game.id, key)
        if not rows:
            return None
        steps = tuple(
            AppliedAction(r.actor, parse(r.notation), tuple(logged_event(e) for e in r.events))
            for r in rows
        )
        return MoveResult(steps, False, False, None, repeated=True)

    async def play_ai(self, game: ActiveGame) -> MoveResult | None:
        """Let the AI seat to act make one move (None if no AI is to act)."""
        seat = game.ai_to_act()
        if seat is None:
            return None
        state = game.state
        kind = game.player_kind(seat)
        seed = (game.row.seed + 7919 * (seat.seat + 1)) % 2**62
        kept = game.ai_players.get(seat.seat)
        if kept is None or kept[0] != kind:
            kept = (kind, self._player(kind, seed))
            game.ai_players[seat.seat] = kept
        move = await asyncio.to_thread(
            choose_move, kept[1], kind, (seed + state.version) % 2**62, state
        )
        move = opponent_move(game, move)  # a guided game's AI waits for the lessons
        return await self.play(game, None, move, seat=seat.seat)

    def _player(self, kind: str, seed: int) -> Chooser:
        if kind == "skip":
            return SkipPlayer()
        level: Level = kind  # type: ignore[assignment]
        return self.ai_factory(level, seed, self.ai_budget_ms)

    async def undo(self, game: ActiveGame, user_id: int, undone: Sequence[Action] = ()) -> Action:
        """Take back the member's last action of this turn (the engine's undo rule); the
        turn message then says so, with the actions of the same pick ``undone`` before.
        Taken back on a copy of the game, which becomes the game once committed."""
        if game.row.status != "playing" or game.game is None:
            raise ServiceError("game.none")
        seat = game.seat_of(user_id)
        if seat is None:
            raise ServiceError("play.not_seated")
        after = replace(game, game=game.game.copy())
        engine_game = after.game
        assert engine_game is not None
        action = engine_game.undo(player=seat)
        seq = len(engine_game.log)
        now = self.clock()
        moves = "`, `".join(str(a) for a in (action, *reversed(undone)))
        told = [
            outbox.delivery(
                after,
                "turn",
                now,
                turn=after.state.turn_number,
                note=outbox.text_of("undo.done", {"move": moves}),
            )
        ]
        try:
            row = await self._action_log.undo_action(
                game.id,
                seq,
                dumps(after.state),
                told,
                updated_at=now,
                waiting_on_user=after.waiting_on(),
                clock_since=now,
            )
        except GameChangedError:
            await self.games.reload(game)
            raise ServiceError("game.changed") from None
        except Exception as e:
            # Was it made (its acknowledgement lost)? The stored snapshot says.
            try:
                stored = await self._action_log.snapshot(game.id)
            except Exception:
                self.games.drop(game)
                raise MoveUnsure(f"game {game.id}: undo {seq}") from e
            if stored is None or stored[0] != seq:
                raise  # not made: nothing changed
            log.warning("game %d: the undo was made, its acknowledgement lost: %s", game.id, e)
            row = None
        except BaseException:
            self.games.drop(game)  # cancelled: made or not, the database says at the next load
            raise
        game.game = engine_game
        self.games.take_committed(game, told, row=row)
        if row is None:
            await self.games.reload(game)
        return action

    def resolve_chance(self, game: ActiveGame) -> list[AppliedAction]:
        """Sample and apply pending chance decisions from the game's seed (restart-proof)."""
        assert game.game is not None
        steps = []
        while not game.game.state.over and game.game.state.to_act() == CHANCE:
            before = game.game.state
            action = scripted(game)  # a guided game's dice and deck, while its script runs
            if action is None:
                rng = random.Random(f"{game.row.seed}:{before.version}")
                action = sample_chance(before, rng)
            game.game.apply(action)
            steps.append(AppliedAction(CHANCE, action, new_events(before, game.game.state)))
        return steps

    async def commit(
        self,
        game: ActiveGame,
        after: ActiveGame,
        steps: list[AppliedAction],
        first_seq: int,
        user_id: int | None,
        status: str | None,
        seats: dict[int, dict[str, object]] | None = None,
        *,
        closed_by: int | None = None,
        started: bool = False,
        key: str | None = None,
        **fields: Any,
    ) -> MoveResult | None:
        """Append the steps (played on ``after``, a copy of ``game``) to the log with the
        snapshot, the game row and seat changes, and what players must see of them
        (``_told``), in one transaction; then ``game`` becomes ``after``. The turn clock
        restarts (any action is a sign of life); a new turn starts with no reminders sent,
        and hands back seats whose members asked to rejoin. ``closed_by``: the seat whose
        move ended a turn (or the game); ``started``: the game's start; ``key``: the move's
        idempotency key, stored with its first action.

        Returns None once committed, or the first result of the move when its key was
        committed already. A refused or failed commit changes nothing in memory; a commit
        whose answer was lost is looked up by its key: made, it counts as made; if the
        database cannot say, ``MoveUnsure``."""
        now = self.clock()
        rows = [
            ActionRow(
                seq=first_seq + i,
                actor=step.seat,
                user_id=user_id if i == 0 and step.seat != CHANCE else None,
                notation=str(step.action),
                events=event_data(step.events),
                created_at=now,
                move_key=key if i == 0 else None,
            )
            for i, step in enumerate(steps)
        ]
        seats = dict(seats or {})
        state = after.state
        fields.update(updated_at=now, clock_since=now)
        if game.row.clock_turn != state.turn_number:
            fields.update(clock_turn=state.turn_number, reminders_sent=0)
            for s in game.seats:
                if s.rejoin and s.former_user_id is not None and state.current != s.seat:
                    back = {
                        **back_to(s.former_user_id, None),
                        **self.seating.handed_over(game, s.seat),
                    }
                    seats[s.seat] = {**seats.get(s.seat, {}), **back}
        if seats:
            # The member to act may change with the seats: work it out on the new rows.
            after.seats = [with_changes(s, seats.get(s.seat)) for s in game.seats]
        fields["waiting_on_user"] = after.waiting_on()
        results: list[ResultRow] = []
        rated_in = None
        if status is not None:
            fields["status"] = status
            if status == "over" and not game.row.config.tutorial:  # a lesson never counts
                results = await self.final_results.results_of(after, rows)
                rated_in = game.row.guild_id  # ratings are per server: none in DMs
        told = self._told(after, now, first_seq + len(steps), closed_by, started)
        try:
            # The rows of the edits that landed go with the commit (handed back if it fails).
            with self.outbox.landed_rows() as landed:
                row: GameRow | None = await self._action_log.commit_actions(
                    game.id, rows, dumps(state), seats, results, told, landed, rated_in, **fields
                )
        except (GameChangedError, UniqueViolation):
            # Another process (or a stale copy) moved this game on first, or committed this
            # very move (its key): nothing was written; take the game as stored.
            log.warning("game %d moved on in the database meanwhile; reloaded", game.id)
            await self.games.reload(game)
            try:
                first = await self.first_result(game, key)
            except Exception as e:
                raise MoveUnsure(f"game {game.id}: move {key}") from e
            if first is not None:
                return first
            raise ServiceError("game.changed") from None
        except Exception as e:
            if key is None:
                self.games.drop(game)  # made or not: the database says at the next load
                raise
            try:
                made = await self._action_log.keyed_move(game.id, key)
            except Exception:
                self.games.drop(game)
                raise MoveUnsure(f"game {game.id}: move {key}") from e
            if not made:
                raise  # not made: nothing changed, the member may play it again
            log.warning("game %d: move %s was committed, its acknowledgement lost", game.id, key)
            row = None
        except BaseException:
            self.games.drop(game)  # cancelled: made or not, the database says at the next load
            raise
        game.game = after.game
        self.games.take_committed(game, told, row=row, seats=after.seats)
        if row is None:
            await self.games.reload(game)  # made: the row as stored
        if game.row.status not in ("lobby", "playing"):
            self.games.forget(game)
        return None

    def _told(
        self, game: ActiveGame, now: float, logged: int, closed_by: int | None, started: bool
    ) -> list[Delivery]:
        """What players must see of actions that leave ``logged`` actions in the log: at
        the start, the cards dealt, the lobby closed, the first turn's message and its
        ping; after a move, the turn message as it is now, or, if the move ended the turn,
        the turn's message closed and the next turn's message and ping (or the game over).
        """
        state = game.state
        if started:
            told = [
                outbox.game_started(game, now, logged),
                outbox.lobby_shown(game, now, closing=outbox.text_of("lobby.started")),
            ]
        elif closed_by is not None:
            told = [outbox.turn_closed(game, now, seat=closed_by, to=logged, last=state.over)]
        else:
            return [outbox.turn_shown(game, now)]
        if state.over:
            return [*told, outbox.game_over(game, now)]
        told.append(outbox.turn_shown(game, now))
        notify = outbox.turn_told(game, now)
        return [*told, notify] if notify is not None else told

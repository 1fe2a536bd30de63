"""The game service: lobbies, moves, undo and AI moves on stored games, with no Discord in it.

The database is the authority. A game is loaded by replaying its action log (and
checked against its snapshot), kept in memory while it is active, and every
change is committed before the caller may tell anyone about it. Each game has an
``asyncio.Lock``: callers hold it (``async with game.lock``) around a move *and*
the messages that announce it, so moves on one game are applied one at a time and
announced in order.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable

from bot import i18n
from bot.ai import AIFactory, Level, choose_move, default_factory
from bot.games import (
    ActiveGame,
    MoveResult,
    ServiceError,
    StalePanelError,
    Step,
    ai_name,
    config_of,
    event_data,
    new_events,
)
from bot.storage import ActionRow, ChannelBusyError, GameRow, SeatRow, Storage
from engine import CHANCE, Action, parse, sample_chance
from engine.game import Game
from engine.serialize import dumps, loads

log = logging.getLogger(__name__)


class GameService:
    """Every change to games goes through here; see the module docstring for locking."""

    def __init__(
        self,
        store: Storage,
        *,
        clock: Callable[[], float] = time.time,
        ai_factory: AIFactory = default_factory,
        ai_budget_ms: int | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.ai_factory = ai_factory
        self.ai_budget_ms = ai_budget_ms
        self.new_seed: Callable[[], int] = lambda: random.SystemRandom().randrange(2**62)
        self._games: dict[int, ActiveGame] = {}
        self._by_channel: dict[int, int] = {}
        self._load_lock = asyncio.Lock()

    # ---- finding and loading games -----------------------------------------------------

    async def in_channel(self, channel_id: int) -> ActiveGame | None:
        """The channel's game in its lobby or in play, loaded."""
        game_id = self._by_channel.get(channel_id)
        if game_id is not None and game_id in self._games:
            return self._games[game_id]
        row = await self.store.active_game(channel_id)
        return await self._load(row) if row else None

    async def require(self, channel_id: int | None) -> ActiveGame:
        """The channel's active game, or ServiceError("game.none")."""
        game = await self.in_channel(channel_id) if channel_id is not None else None
        if game is None:
            raise ServiceError("game.none")
        return game

    async def by_id(self, game_id: int) -> ActiveGame | None:
        """A game in its lobby or in play, by id (None once it is over or aborted)."""
        if game_id in self._games:
            return self._games[game_id]
        row = await self.store.game(game_id)
        if row is None or row.status not in ("lobby", "playing"):
            return None
        return await self._load(row)

    async def _load(self, row: GameRow) -> ActiveGame:
        async with self._load_lock:
            if row.id in self._games:
                return self._games[row.id]
            seats = await self.store.seats(row.id)
            active = ActiveGame(row, seats)
            if row.status != "lobby":
                active.game = await self.rebuild(row, seats)
            if row.status in ("lobby", "playing"):
                self._games[row.id] = active
                self._by_channel[row.channel_id] = row.id
            return active

    async def rebuild(self, row: GameRow, seats: list[SeatRow]) -> Game:
        """Replay the stored log; the snapshot must match it (the log wins if not)."""
        actions = await self.store.actions(row.id)
        game = Game.replay(config_of(row, len(seats)), [a.notation for a in actions])
        snapshot = await self.store.snapshot(row.id)
        if snapshot is not None:
            seq, text = snapshot
            if seq != len(actions) or loads(text) != game.state:
                log.error(
                    "game %d: the snapshot (after %d actions) differs from the replay of the "
                    "log (%d actions); using the replay",
                    row.id,
                    seq,
                    len(actions),
                )
        return game

    def active_games(self) -> list[ActiveGame]:
        """The games held in memory (in their lobby or in play)."""
        return list(self._games.values())

    async def load_active(self) -> list[ActiveGame]:
        """Load every game in play (at start-up): each is rebuilt and checked."""
        out = []
        for row in await self.store.games_with_status("playing"):
            try:
                out.append(await self._load(row))
            except Exception:
                log.exception("game %d could not be loaded", row.id)
        return out

    def _forget(self, game: ActiveGame) -> None:
        self._games.pop(game.id, None)
        if self._by_channel.get(game.row.channel_id) == game.id:
            del self._by_channel[game.row.channel_id]

    async def _refresh_row(self, game: ActiveGame) -> None:
        row = await self.store.game(game.id)
        assert row is not None
        game.row = row
        game.seats = await self.store.seats(game.id)

    # ---- the lobby ------------------------------------------------------------------------

    async def create(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        host_name: str | None,
        max_players: int,
        long_game: bool,
        helm: bool,
        locale: str,
        finite_supply: bool = False,
    ) -> ActiveGame:
        """Open a lobby in the channel with the host seated (not if ``host_name`` is None)."""
        if not 2 <= max_players <= 4:
            raise ServiceError("lobby.players_range")
        try:
            game_id = await self.store.create_game(
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                host_name=host_name,
                max_players=max_players,
                long_game=long_game,
                helm=helm,
                finite_supply=finite_supply,
                seed=self.new_seed(),
                locale=locale,
                now=self.clock(),
            )
        except ChannelBusyError:
            raise ServiceError("lobby.busy") from None
        row = await self.store.game(game_id)
        assert row is not None
        return await self._load(row)

    def _lobby(self, game: ActiveGame) -> None:
        if game.row.status != "lobby":
            raise ServiceError("lobby.already_started")

    def _host(self, game: ActiveGame, user_id: int) -> None:
        if game.row.host_id != user_id:
            raise ServiceError("lobby.host_only", host=game.seats[0].name if game.seats else "")

    async def join(self, game: ActiveGame, user_id: int, name: str) -> None:
        self._lobby(game)
        if game.seat_of(user_id) is not None:
            raise ServiceError("lobby.already_seated")
        if len(game.seats) >= game.row.max_players:
            raise ServiceError("lobby.full", players=game.row.max_players)
        seats = [*game.seats, SeatRow(len(game.seats), user_id, None, name[:32])]
        await self.store.set_seats(game.id, seats, updated_at=self.clock())
        await self._refresh_row(game)

    async def add_ai(self, game: ActiveGame, user_id: int, level: Level) -> SeatRow:
        self._lobby(game)
        self._host(game, user_id)
        if len(game.seats) >= game.row.max_players:
            raise ServiceError("lobby.full", players=game.row.max_players)
        bots = sum(1 for s in game.seats if s.is_ai)
        seat = SeatRow(
            len(game.seats), None, level, ai_name(level, bots + 1, locale=game.row.locale)
        )
        await self.store.set_seats(game.id, [*game.seats, seat], updated_at=self.clock())
        await self._refresh_row(game)
        return seat

    async def leave(self, game: ActiveGame, user_id: int) -> SeatRow:
        """Leave a lobby, or hand one's seat in a game in play to an AI. Returns the old seat."""
        seat = game.seat_of(user_id)
        if seat is None:
            raise ServiceError("lobby.not_seated")
        old = game.seats[seat]
        now = self.clock()
        if game.row.status == "playing":
            bot = SeatRow(
                seat, None, "normal", ai_name("normal", seat + 1, old.name, game.row.locale)
            )
            seats = [bot if s.seat == seat else s for s in game.seats]
            waiting = None if game.to_act() == seat else game.user_to_act()
            await self.store.set_seats(game.id, seats, updated_at=now, waiting_on_user=waiting)
            await self._refresh_row(game)
            return old
        rest = [s for s in game.seats if s.user_id != user_id]
        seats = [SeatRow(i, s.user_id, s.ai_level, s.name) for i, s in enumerate(rest)]
        humans = [s for s in seats if not s.is_ai]
        if not humans:
            await self.store.set_seats(game.id, seats, status="aborted", updated_at=now)
            self._forget(game)
        else:
            host = game.row.host_id if game.row.host_id != user_id else humans[0].user_id
            await self.store.set_seats(game.id, seats, host_id=host, updated_at=now)
        await self._refresh_row(game)
        return old

    async def start(self, game: ActiveGame, user_id: int) -> MoveResult:
        """Start the game: set up, resolve the setup's chance decisions, commit."""
        self._lobby(game)
        self._host(game, user_id)
        if len(game.seats) < 2:
            raise ServiceError("lobby.too_few")
        game.game = Game(config_of(game.row, len(game.seats)))
        steps = self._resolve_chance(game)
        await self._commit(game, steps, 0, None, status="playing")
        return MoveResult(tuple(steps), True, game.state.over)

    async def set_language(self, game: ActiveGame, user_id: int, locale: str) -> str:
        """The host sets the language of the game's public messages (lobby or in play).

        ``locale`` is a catalogue language (``en``, ``ru``, ``pl``) or a Discord locale
        (``pl-PL``); returns the language set.
        """
        self._host(game, user_id)
        language = i18n.language_of(locale)
        if language != locale.split("-")[0].split("_")[0].lower():
            raise ServiceError(
                "language.unknown", language=locale, languages=", ".join(i18n.languages())
            )
        await self.store.update_game(game.id, locale=language, updated_at=self.clock())
        await self._refresh_row(game)
        return language

    async def abort(self, game: ActiveGame, user_id: int, can_manage: bool) -> None:
        if game.row.host_id != user_id and not can_manage:
            raise ServiceError("abort.not_allowed")
        await self.store.update_game(
            game.id, status="aborted", waiting_on_user=None, updated_at=self.clock()
        )
        await self._refresh_row(game)
        self._forget(game)

    # ---- moves (call with game.lock held) ---------------------------------------------------

    def check_version(self, game: ActiveGame, version: int | None) -> None:
        if version is not None and (game.game is None or game.state.version != version):
            raise StalePanelError(game.row.turn_message_id)

    async def play(
        self,
        game: ActiveGame,
        user_id: int | None,
        move: str | Action,
        *,
        seat: int | None = None,
        version: int | None = None,
    ) -> MoveResult:
        """Apply a member's (or, with ``seat``, an AI seat's) move, then chance; commit."""
        if game.row.status != "playing" or game.game is None:
            raise ServiceError("game.not_started" if game.row.status == "lobby" else "game.none")
        self.check_version(game, version)
        if seat is None:
            seat = game.seat_of(user_id) if user_id is not None else None
            if seat is None:
                raise ServiceError("play.not_seated")
        action = parse(move) if isinstance(move, str) else move
        engine_game = game.game
        turn = engine_game.state.turn_number
        first_seq = len(engine_game.log)
        before = engine_game.state
        engine_game.apply(action, player=seat)
        steps = [
            Step(seat, action, new_events(before, engine_game.state)),
            *self._resolve_chance(game),
        ]
        over = engine_game.state.over
        await self._commit(game, steps, first_seq, user_id, status="over" if over else None)
        return MoveResult(tuple(steps), over or engine_game.state.turn_number != turn, over)

    async def play_ai(self, game: ActiveGame) -> MoveResult | None:
        """Let the AI seat to act make one move (None if no AI is to act)."""
        seat = game.ai_to_act()
        if seat is None or seat.ai_level is None:
            return None
        state = game.state
        level = seat.ai_level
        seed = (game.row.seed + 7919 * (seat.seat + 1)) % 2**62
        kept = game.ai_players.get(seat.seat)
        if kept is None or kept[0] != level:
            kept = (level, self.ai_factory(level, seed, self.ai_budget_ms))
            game.ai_players[seat.seat] = kept
        move = await asyncio.to_thread(
            choose_move, kept[1], level, (seed + state.version) % 2**62, state
        )
        return await self.play(game, None, move, seat=seat.seat)

    async def undo(self, game: ActiveGame, user_id: int) -> Action:
        """Take back the member's last action of this turn (the engine's undo rule)."""
        if game.row.status != "playing" or game.game is None:
            raise ServiceError("game.none")
        seat = game.seat_of(user_id)
        if seat is None:
            raise ServiceError("play.not_seated")
        action = game.game.undo(player=seat)
        seq = len(game.game.log)
        try:
            await self.store.undo_action(
                game.id,
                seq,
                dumps(game.state),
                updated_at=self.clock(),
                waiting_on_user=game.user_to_act(),
            )
        except BaseException:
            await self._reload(game)
            raise
        await self._refresh_row(game)
        return action

    def _resolve_chance(self, game: ActiveGame) -> list[Step]:
        """Sample and apply pending chance decisions from the game's seed (restart-proof)."""
        assert game.game is not None
        steps = []
        while not game.game.state.over and game.game.state.to_act() == CHANCE:
            before = game.game.state
            rng = random.Random(f"{game.row.seed}:{before.version}")
            action = sample_chance(before, rng)
            game.game.apply(action)
            steps.append(Step(CHANCE, action, new_events(before, game.game.state)))
        return steps

    async def _commit(
        self,
        game: ActiveGame,
        steps: list[Step],
        first_seq: int,
        user_id: int | None,
        status: str | None,
    ) -> None:
        now = self.clock()
        rows = [
            ActionRow(
                seq=first_seq + i,
                actor=step.seat,
                user_id=user_id if i == 0 and step.seat != CHANCE else None,
                notation=str(step.action),
                events=event_data(step.events),
                created_at=now,
            )
            for i, step in enumerate(steps)
        ]
        fields: dict[str, object] = {"updated_at": now, "waiting_on_user": game.user_to_act()}
        if status is not None:
            fields["status"] = status
        try:
            await self.store.commit_actions(game.id, rows, dumps(game.state), **fields)
        except BaseException:
            await self._reload(game)
            raise
        await self._refresh_row(game)
        if game.row.status not in ("lobby", "playing"):
            self._forget(game)

    async def _reload(self, game: ActiveGame) -> None:
        """After a failed commit: put the in-memory game back to what the database holds."""
        try:
            await self._refresh_row(game)
            game.game = (
                None if game.row.status == "lobby" else await self.rebuild(game.row, game.seats)
            )
        except Exception:
            log.exception("game %d could not be reloaded; dropping it from memory", game.id)
            self._forget(game)

    async def set_turn_message(self, game: ActiveGame, message_id: int | None, turn: int) -> None:
        await self.store.update_game(game.id, turn_message_id=message_id, turn_message_turn=turn)
        game.row = await self._row(game.id)

    async def set_lobby_message(self, game: ActiveGame, message_id: int | None) -> None:
        await self.store.update_game(game.id, lobby_message_id=message_id)
        game.row = await self._row(game.id)

    async def _row(self, game_id: int) -> GameRow:
        row = await self.store.game(game_id)
        assert row is not None
        return row

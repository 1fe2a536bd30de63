"""The game service's settings: a server's defaults for new games (the turn clock, the
language) and a game's language and clock changed by its host or a moderator.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.play import outbox
from bot.play.games import ActiveGame
from bot.play.held_games import HeldGames
from bot.play.seat_changes import Seating, check_manager, leaving_counts, with_changes
from bot.store.clock_settings import DEFAULT_CLOCK, ClockSettings
from bot.store.errors import ServiceError
from bot.store.seat_store import SeatStore
from bot.store.server_settings_store import ServerSettingsStore
from bot.text import i18n
from bot.text.seat_names import ai_name_in


class ChannelSettingsService:
    """A server's defaults and a game's settings."""

    def __init__(
        self,
        games: HeldGames,
        seating: Seating,
        *,
        clock: Callable[[], float],
        seat_rows: SeatStore,
        server_settings: ServerSettingsStore,
    ) -> None:
        self._seat_rows = seat_rows
        self._server_settings = server_settings
        self.games = games
        self.seating = seating
        self.clock = clock

    async def default_clock(self, guild_id: int | None) -> ClockSettings:
        """A server's clock settings for new games (the built-in defaults if none)."""
        if guild_id is None:
            return DEFAULT_CLOCK
        return ClockSettings.from_json(await self._server_settings.guild_clock(guild_id))

    async def set_guild_clock(self, guild_id: int, clock: ClockSettings) -> None:
        await self._server_settings.set_guild_clock(
            guild_id, clock.checked().to_json(), self.clock()
        )

    async def default_language(self, guild_id: int | None) -> str | None:
        """The language a server's admins chose for its new games (None: not chosen, or
        no longer a language of the bot)."""
        if guild_id is None:
            return None
        language = await self._server_settings.guild_language(guild_id)
        return language if language in i18n.languages() else None

    async def set_guild_language(self, guild_id: int, language: str) -> None:
        """The language new games of the server start in (``/af settings scope:server``)."""
        if language not in i18n.languages():
            raise ServiceError(
                "language.unknown", language=language, languages=", ".join(i18n.languages())
            )
        await self._server_settings.set_guild_language(guild_id, language, self.clock())

    async def configure(
        self,
        game: ActiveGame,
        user_id: int,
        can_manage: bool,
        by: str = "",
        *,
        language: str | None = None,
        clock: ClockSettings | None = None,
    ) -> bool:
        """The host (or Manage Channels: ``by``, their name) changes the game's language of
        public messages and its clock, in one commit that says so in the channel and shows
        the game again; False when neither changes. ``language``: a catalogue language
        (``en``, ``ru``, ``pl``) or a Discord locale (``pl-PL``). A clock switched on starts
        counting now, not from the last move."""
        check_manager(game, user_id, can_manage)
        now = self.clock()
        fields: dict[str, Any] = {}
        seats: dict[int, dict[str, object]] = {}
        lines = []
        if language is not None:
            chosen = i18n.language_of(language)
            if chosen != language.split("-")[0].split("_")[0].lower():
                raise ServiceError(
                    "language.unknown", language=language, languages=", ".join(i18n.languages())
                )
            if chosen != game.row.locale:
                fields["locale"] = chosen
                lines.append(outbox.text_of("language.changed"))
                # The AI seats' names, said in the game's language (the board, the chart).
                for seat in game.seats:
                    if (name := ai_name_in(seat, chosen)) != seat.name:
                        seats[seat.seat] = {"name": name}
        if clock is not None and clock.checked() != game.clock:
            stops = not clock.enabled or clock.action == "none"
            runs = game.clock.enabled and game.clock.action != "none"
            if stops and runs and not can_manage and leaving_counts(game):
                # A player behind could stop the clock and never move again.
                raise ServiceError("settings.clock_off_in_play")
            fields["config"] = game.row.config.with_clock(clock.checked())
            if game.row.status == "playing" and game.game is not None:
                # The turn in play starts its clock afresh under the new settings: a limit
                # made shorter never times out a turn before it could be seen.
                fields.update(clock_since=now, reminders_sent=0, clock_turn=game.state.turn_number)
            elif clock.enabled and not game.clock.enabled:
                fields["clock_since"] = now
            settings = {"clock": clock.checked().to_json()}
            lines.append(outbox.text_of("settings.changed", {"name": by, "settings": settings}))
            if "clock_turn" in fields and game.waiting_on() is not None:
                lines.append(outbox.text_of("settings.clock_restarted"))
        if not fields:
            return False
        told = [outbox.notice(game, now, lines, reply=True), self.seating.shown(game, now)]
        new_seats = [with_changes(s, seats.get(s.seat)) for s in game.seats]
        row = await self._seat_rows.commit_seat_change(
            game.id, seats, told, updated_at=now, **fields
        )
        self.games.take_committed(game, told, row=row, seats=new_seats)
        return True

    async def set_language(
        self, game: ActiveGame, user_id: int, locale: str, can_manage: bool = False
    ) -> str:
        """The host (or Manage Channels) sets the language of the game's public messages
        (lobby or in play).

        ``locale`` is a catalogue language (``en``, ``ru``, ``pl``) or a Discord locale
        (``pl-PL``); returns the language set.
        """
        await self.configure(game, user_id, can_manage, language=locale)
        return game.row.locale

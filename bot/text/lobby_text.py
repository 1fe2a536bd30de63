"""A game's lobby message: its options and seats, then how to join (or how the lobby ended).

Said from the game's row and its seats. It is posted and edited by the outbox
(``bot.play.outbox``: the ``lobby`` deliveries of every change to a lobby, delivered by
``bot.discord.couriers``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict

from bot.store.rows import GameRow, SeatRow
from bot.text.clock_text import settings_text
from bot.text.strings import text

# How the lobby names each variant the game is played with (bot.store.game_config.Variants).
VARIANT_TEXTS = {
    "long_game": "lobby.option.long",
    "mind_control_helm": "lobby.option.helm",
    "finite_supply": "lobby.option.finite",
}


def lobby_text(row: GameRow, seats: Sequence[SeatRow], closing: str | None = None) -> str:
    """The lobby message: options and seats, then how to join (or how the lobby ended)."""
    locale = row.locale
    host = next((s.name for s in seats if s.user_id == row.host_id), None)
    lines = [_header(row, host or f"<@{row.host_id}>", len(seats))]
    for s in seats:
        lines.append(text("lobby.seat", locale, {"number": s.seat + 1, "name": s.name}))
    lines.append(settings_text(row.config.clock, locale))
    lines.append(closing or text("lobby.help", locale))
    return "\n".join(lines)


def lobby_headers(row: GameRow, seats: Sequence[SeatRow]) -> set[str]:
    """The first lines the game's lobby message may have had, however many seats were
    taken and whether its host sat: what it is recognised by, once the lobby changed."""
    hosts = {f"<@{row.host_id}>", *(s.name for s in seats if s.user_id == row.host_id)}
    return {_header(row, host, n) for host in hosts for n in range(row.max_players + 1)}


def _header(row: GameRow, host: str, taken: int) -> str:
    """The lobby message's first line: its host, its seats taken, its options."""
    locale = row.locale
    variants = asdict(row.config.variants)
    options = [text(key, locale) for name, key in VARIANT_TEXTS.items() if variants[name]]
    return text(
        "lobby.header",
        locale,
        {
            "host": host,
            "seats": taken,
            "max": row.max_players,
            "options": " · ".join(
                [
                    *(options or [text("lobby.option.none", locale)]),
                    text("lobby.option.language", locale),
                ]
            ),
        },
    )


__all__ = ["VARIANT_TEXTS", "lobby_headers", "lobby_text"]

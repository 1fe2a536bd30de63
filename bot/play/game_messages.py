"""A game's lobby message: its options and seats, then how to join (or how the lobby ended).

It is posted and edited by the outbox (``bot.play.outbox``: the ``lobby`` deliveries of every
change to a lobby, delivered by ``bot.discord.couriers``)."""

from __future__ import annotations

from dataclasses import asdict

from bot.play.games import ActiveGame
from bot.play.turn_clock import settings_text
from bot.text.strings import text

# How the lobby names each variant the game is played with (bot.store.game_config.Variants).
VARIANT_TEXTS = {
    "long_game": "lobby.option.long",
    "mind_control_helm": "lobby.option.helm",
    "finite_supply": "lobby.option.finite",
}


def lobby_text(game: ActiveGame, closing: str | None = None) -> str:
    """The lobby message: options and seats, then how to join (or how the lobby ended)."""
    locale = game.row.locale
    variants = asdict(game.row.config.variants)
    options = [text(key, locale) for name, key in VARIANT_TEXTS.items() if variants[name]]
    host = next((s.name for s in game.seats if s.user_id == game.row.host_id), None)
    lines = [
        text(
            "lobby.header",
            locale,
            {
                "host": host or f"<@{game.row.host_id}>",
                "seats": len(game.seats),
                "max": game.row.max_players,
                "options": " · ".join(
                    [
                        *(options or [text("lobby.option.none", locale)]),
                        text("lobby.option.language", locale),
                    ]
                ),
            },
        )
    ]
    for s in game.seats:
        lines.append(text("lobby.seat", locale, {"number": s.seat + 1, "name": s.name}))
    lines.append(settings_text(game.clock, locale))
    lines.append(closing or text("lobby.help", locale))
    return "\n".join(lines)


__all__ = ["VARIANT_TEXTS", "lobby_text"]

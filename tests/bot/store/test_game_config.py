"""A game's config as one validated value (bot.store.game_config.GameSettings), stored as JSON in
the games table's ``config`` column, and migration 5 that fills it from the old columns
on both databases."""

from __future__ import annotations

import json
from dataclasses import fields

import pytest

from bot.store.clock_settings import DEFAULT_CLOCK, ClockError, ClockSettings
from bot.store.db import open_database
from bot.store.game_config import DEFAULT_SETTINGS, ConfigError, GameSettings, Variants
from bot.store.migrations import LATEST, MIGRATIONS
from bot.store.storage import Storage
from bot.text.lobby_text import VARIANT_TEXTS
from engine import GameConfig

CLOCK = ClockSettings(remind_hours=6, warn_hours=18, limit_hours=24, action="skip")


def test_the_variants_are_the_engines_options_and_the_lobby_names_each() -> None:
    engine = {f.name for f in fields(GameConfig)} - {"players"}
    assert {f.name for f in fields(Variants)} == engine
    assert set(VARIANT_TEXTS) == engine
    config = GameSettings(Variants(long_game=True, finite_supply=True), CLOCK)
    assert config.engine(3) == GameConfig(players=3, long_game=True, finite_supply=True)


def test_a_config_is_stored_whole_and_read_back_checked() -> None:
    config = GameSettings(Variants(mind_control_helm=True), CLOCK)
    assert GameSettings.from_json(config.to_json()) == config
    assert GameSettings.from_json(None) == GameSettings.from_json("{}") == DEFAULT_SETTINGS
    assert config.with_clock(DEFAULT_CLOCK) == GameSettings(Variants(mind_control_helm=True))
    # A game is never replayed under other rules than it was played with.
    for broken in (
        '{"variants": {"long_game": 1}}',
        '{"variants": {"moon_base": true}}',
        '{"players": 3}',
        "[]",
        "{oops",
    ):
        with pytest.raises(ConfigError):
            GameSettings.from_json(broken)
    # The clock is read as it always was: unknown keys ignored, a broken one the defaults.
    lenient = json.dumps(
        {"clock": {"limit_hours": 24, "remind_hours": 6, "warn_hours": 18, "x": 1}}
    )
    assert GameSettings.from_json(lenient).clock.limit_hours == 24
    assert GameSettings.from_json('{"clock": {"limit_hours": 24}}').clock == DEFAULT_CLOCK
    with pytest.raises(ClockError):
        GameSettings(clock=ClockSettings(remind_hours=50))


# Games of a database before migration 5: (long_game, helm, finite_supply, clock column),
# and the config each must have after it.
OLD_GAMES = [
    (0, 0, 0, None, GameSettings()),
    (1, 0, 1, CLOCK.to_json(), GameSettings(Variants(long_game=True, finite_supply=True), CLOCK)),
    (0, 1, 0, '{"limit_hours": 24}', GameSettings(Variants(mind_control_helm=True))),
    (1, 1, 1, "{not json", GameSettings(Variants(True, True, True))),
    (
        0,
        0,
        1,
        json.dumps({"enabled": False, "takeover": "hard", "gone": 3}),
        GameSettings(Variants(finite_supply=True), ClockSettings(enabled=False, takeover="hard")),
    ),
]


async def test_migration_5_fills_the_config_from_the_old_columns(db_url: str) -> None:
    """An old-schema database (migrations up to 4) with games written in the old columns,
    migrated: each game's config holds what its old columns said, the old columns are
    gone, and the schema is the latest."""
    old = await open_database(db_url)
    try:
        await old.migrate([m for m in MIGRATIONS if m[0] < 5])
        assert await old.schema_version() == 4
        async with old.transaction() as tx:
            for channel, (long_game, helm, finite, clock, _) in enumerate(OLD_GAMES):
                await tx.execute(
                    "INSERT INTO games (id, channel_id, host_id, status, max_players, long_game,"
                    " helm, finite_supply, clock, seed, created_at, updated_at)"
                    " VALUES (?, ?, 1, 'over', 4, ?, ?, ?, ?, 42, 0.0, 0.0)",
                    (channel + 1, channel, long_game, helm, finite, clock),
                )
    finally:
        await old.close()
    store = await Storage.open(db_url)  # migrates
    try:
        assert await store.schema_version() == LATEST
        for game_id, (*_, expected) in enumerate(OLD_GAMES, start=1):
            row = await store.game_rows.game(game_id)
            assert row is not None and row.config == expected, game_id
        columns = {name for name, *_ in await store.db.columns("games")}
        assert "config" in columns
        assert not columns & {"long_game", "helm", "finite_supply", "clock"}
    finally:
        await store.close()

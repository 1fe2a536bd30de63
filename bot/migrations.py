"""Numbered schema migrations of the bot's SQLite database.

``PRAGMA user_version`` holds the number of the last migration applied; each
migration runs once, in order, inside one transaction. Never edit a published
migration: add the next number instead.
"""

from __future__ import annotations

from typing import Final

MIGRATIONS: Final[tuple[tuple[int, str], ...]] = (
    (
        1,
        """
        CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            guild_id INTEGER,
            channel_id INTEGER NOT NULL,
            host_id INTEGER NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('lobby', 'playing', 'over', 'aborted')),
            max_players INTEGER NOT NULL CHECK (max_players BETWEEN 2 AND 4),
            long_game INTEGER NOT NULL DEFAULT 0,
            helm INTEGER NOT NULL DEFAULT 0,
            seed INTEGER NOT NULL,
            locale TEXT NOT NULL DEFAULT 'en',
            lobby_message_id INTEGER,
            turn_message_id INTEGER,
            turn_message_turn INTEGER,
            waiting_on_user INTEGER,
            reminded_at REAL,
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL
        );
        -- One game in progress (lobby or playing) per channel, finished ones stay as history.
        CREATE UNIQUE INDEX games_one_active_per_channel
            ON games (channel_id) WHERE status IN ('lobby', 'playing');
        CREATE INDEX games_by_status ON games (status);

        CREATE TABLE seats (
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
            user_id INTEGER,
            ai_level TEXT CHECK (ai_level IN ('easy', 'normal', 'hard')),
            name TEXT NOT NULL,
            PRIMARY KEY (game_id, seat),
            CHECK ((user_id IS NULL) <> (ai_level IS NULL))
        );

        CREATE TABLE actions (
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            actor INTEGER NOT NULL,
            user_id INTEGER,
            notation TEXT NOT NULL,
            events TEXT NOT NULL DEFAULT '[]',
            created_at REAL NOT NULL,
            PRIMARY KEY (game_id, seq)
        );

        CREATE TABLE snapshots (
            game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            state TEXT NOT NULL
        );

        CREATE TABLE meta (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL
        );
        """,
    ),
    (
        2,
        """
        -- The finite-supply option: the bank holds only the box's 30 fuel and 20 ore.
        ALTER TABLE games ADD COLUMN finite_supply INTEGER NOT NULL DEFAULT 0;
        """,
    ),
)
LATEST: Final = MIGRATIONS[-1][0]

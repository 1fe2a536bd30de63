"""Numbered schema migrations of the bot's database (SQLite or PostgreSQL).

The database keeps the number of the last migration applied (``bot.db``); each
migration runs once, in order, inside one transaction. A migration is SQL in SQLite's
dialect (``bot.db.postgres_ddl`` gives PostgreSQL's column types), or a sequence of
steps: SQL, or a function that reads and writes rows through the transaction with the
shared SQL (the same code on both databases). Never edit a published migration: add
the next number instead.
"""

from __future__ import annotations

import json
from typing import Final

from bot.db import Migration, Tx


async def _fill_config(tx: Tx) -> None:
    """Migration 5: each game's config, row by row, from the columns that held it. The
    clock's JSON is carried as it was (its reader ignores unknown keys and reads a broken
    clock as the defaults, as it always has); text that is no JSON becomes no clock."""
    rows = await tx.fetch("SELECT id, long_game, helm, finite_supply, clock FROM games")
    for row in rows:
        try:
            clock = json.loads(row["clock"]) if row["clock"] else None
        except ValueError:
            clock = None
        variants = {
            "long_game": bool(row["long_game"]),
            "mind_control_helm": bool(row["helm"]),
            "finite_supply": bool(row["finite_supply"]),
        }
        config = json.dumps({"variants": variants, "clock": clock}, sort_keys=True)
        await tx.execute("UPDATE games SET config = ? WHERE id = ?", (config, row["id"]))


MIGRATIONS: Final[tuple[Migration, ...]] = (
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
    (
        3,
        """
        -- The play-by-post turn clock (bot/clock_settings.py, bot/turn_clock.py).
        -- clock: the game's clock settings as JSON (NULL: the built-in defaults).
        ALTER TABLE games ADD COLUMN clock TEXT;
        -- When the seat to act last showed life (its turn began, or it acted): the clock
        -- counts from here.
        ALTER TABLE games ADD COLUMN clock_since REAL;
        -- Reminders sent for the turn numbered clock_turn (0, 1 = reminder, 2 = final warning,
        -- 3 = the turn limit passed with nothing to do).
        ALTER TABLE games ADD COLUMN clock_turn INTEGER;
        ALTER TABLE games ADD COLUMN reminders_sent INTEGER NOT NULL DEFAULT 0;
        -- The turn (number) that timed out and is being played by the bot for its seat, and
        -- how ('ai' or 'skip'), written once in the same transaction as the seat's count.
        ALTER TABLE games ADD COLUMN timeout_turn INTEGER;
        ALTER TABLE games ADD COLUMN timeout_mode TEXT CHECK (timeout_mode IN ('ai', 'skip'));
        -- The host made a game of AI seats only, on purpose: it plays on with no human.
        ALTER TABLE games ADD COLUMN ai_only INTEGER NOT NULL DEFAULT 0;

        -- Turns of this seat that timed out in a row.
        ALTER TABLE seats ADD COLUMN timeouts INTEGER NOT NULL DEFAULT 0;
        -- The member whose seat an AI took over (left, kicked, timed out): may /af rejoin.
        ALTER TABLE seats ADD COLUMN former_user_id INTEGER;
        -- That member asked for the seat back: it is theirs again once the AI's turn ends.
        ALTER TABLE seats ADD COLUMN rejoin INTEGER NOT NULL DEFAULT 0;

        -- A server's defaults for new games (JSON clock settings), set by its admins.
        CREATE TABLE guild_settings (
            guild_id INTEGER PRIMARY KEY,
            clock TEXT NOT NULL,
            updated_at REAL NOT NULL
        );

        -- Members across all their games: away (the clock waits for them) until away_until.
        CREATE TABLE members (
            user_id INTEGER PRIMARY KEY,
            away_until REAL
        );
        """,
    ),
    (
        4,
        """
        -- How each member wants to hear it is their turn (bot/notify.py): channel, dm, both,
        -- off. dm_channel_id: their DM channel once opened. dm_blocked: Discord refused a DM
        -- (closed DMs), so pings go to the channel until they choose again.
        ALTER TABLE members ADD COLUMN notify TEXT NOT NULL DEFAULT 'channel'
            CHECK (notify IN ('channel', 'dm', 'both', 'off'));
        ALTER TABLE members ADD COLUMN dm_channel_id INTEGER;
        ALTER TABLE members ADD COLUMN dm_blocked INTEGER NOT NULL DEFAULT 0;
        -- The member has not yet been told (privately) how to open their DMs.
        ALTER TABLE members ADD COLUMN dm_hint INTEGER NOT NULL DEFAULT 0;
        -- The language of their Discord app when they last chose (for DMs).
        ALTER TABLE members ADD COLUMN locale TEXT;
        -- The turn (number) whose start the member to act was notified of: once per turn.
        ALTER TABLE games ADD COLUMN notified_turn INTEGER;

        -- One row per seat of every finished game: who played it, how it scored (VP and
        -- its parts), whether it won, and the territory of its first colony.
        CREATE TABLE results (
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            user_id INTEGER,
            ai_level TEXT,
            name TEXT NOT NULL,
            vp INTEGER NOT NULL,
            vp_colonies INTEGER NOT NULL,
            vp_territories INTEGER NOT NULL,
            vp_positron INTEGER NOT NULL,
            vp_cards INTEGER NOT NULL,
            winner INTEGER NOT NULL,
            first_territory TEXT,
            PRIMARY KEY (game_id, seat)
        );
        CREATE INDEX results_by_user ON results (user_id);
        """,
    ),
    (
        5,
        (
            """
            -- A game's config as one JSON value (bot/game_config.py: GameSettings): its rule
            -- variants and its turn clock. A new variant is a new key, not a new column.
            ALTER TABLE games ADD COLUMN config TEXT NOT NULL DEFAULT '{}';
            """,
            _fill_config,
            """
            -- Now held in config.
            ALTER TABLE games DROP COLUMN long_game;
            ALTER TABLE games DROP COLUMN helm;
            ALTER TABLE games DROP COLUMN finite_supply;
            ALTER TABLE games DROP COLUMN clock;
            """,
        ),
    ),
    (
        6,
        """
        -- The outbox (bot/outbox.py, bot/delivery.py): what players must see because of a
        -- committed change, written in the same transaction as the change, and delivered
        -- (in order per channel, retried) until it lands. A delivered row is deleted, one
        -- that was given up on stays (status 'failed', with its last error).
        -- channel_id: the lane (deliveries of one channel go in id order). kind: what to
        -- deliver (turn, close, notify, notice, dm, over, lobby, started). payload: JSON.
        -- id: never used twice (AUTOINCREMENT), as a post's nonce is made of it.
        CREATE TABLE deliveries (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            guild_id INTEGER,
            channel_id INTEGER NOT NULL,
            kind TEXT NOT NULL,
            payload TEXT NOT NULL DEFAULT '{}',
            status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'failed')),
            attempts INTEGER NOT NULL DEFAULT 0,
            due_at REAL NOT NULL,
            created_at REAL NOT NULL,
            error TEXT
        );
        CREATE INDEX deliveries_by_lane ON deliveries (status, channel_id, id);
        """,
    ),
)
LATEST: Final = MIGRATIONS[-1][0]

"""Numbered schema migrations of the bot's database (SQLite or PostgreSQL).

The database keeps the number of the last migration applied (``bot.store.db``); each
migration runs once, in order, inside one transaction. A migration is SQL in SQLite's
dialect (``bot.store.db.postgres_ddl`` gives PostgreSQL's column types), or a sequence of
steps: SQL, or a function that reads and writes rows through the transaction with the
shared SQL (the same code on both databases). Never edit a published migration: add
the next number instead.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Final

from bot.store.db import Migration, PerDialect, Row, Tx
from bot.store.rating_rules import Departure, Holder, turns_by_seat
from bot.store.rating_store import others_json, rebuild

# Ratings for what was played (bot/store/rating_rules.py): its number in one place.
RATED_FOR_PLAY: Final = 9


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


async def _rate_finished_games(tx: Tx) -> None:
    """Migration 7: the places of the games finished before it (by VP, the winners first:
    the other tie-breaks were not kept), a first season on each server that has finished
    games, and those games marked as rated (their ratings are migration 9's)."""
    rows = await tx.fetch(
        "SELECT r.game_id, r.seat, r.user_id, r.ai_level, r.vp, r.winner, g.guild_id,"
        " g.created_at FROM results r JOIN games g ON g.id = r.game_id"
        " WHERE g.status = 'over' ORDER BY r.game_id, r.seat"
    )
    games: dict[int, list[Row]] = {}
    for r in rows:
        games.setdefault(int(r["game_id"]), []).append(r)
    seasons: dict[int, int] = {}
    for game_id, seats in games.items():
        standing = [(bool(r["winner"]), int(r["vp"])) for r in seats]
        for r, mine in zip(seats, standing, strict=True):
            place = 1 + sum(1 for other in standing if other > mine)
            await tx.execute(
                "UPDATE results SET place = ? WHERE game_id = ? AND seat = ?",
                (place, game_id, r["seat"]),
            )
        guild_id, created_at = seats[0]["guild_id"], float(seats[0]["created_at"])
        taken = [r for r in seats if r["user_id"] is not None or r["ai_level"] in _LEVELS]
        if guild_id is None or len(taken) < 2 or all(r["user_id"] is None for r in taken):
            continue
        if guild_id not in seasons:
            season = await tx.fetchone(
                "INSERT INTO seasons (guild_id, number, name, started_at) VALUES (?, 1, '', ?)"
                " RETURNING id",
                (guild_id, created_at),
            )
            assert season is not None
            seasons[guild_id] = int(season["id"])
        await tx.execute(
            "INSERT INTO rated_games (game_id, season_id) VALUES (?, ?)",
            (game_id, seasons[guild_id]),
        )


_LEVELS: Final = ("easy", "normal", "hard")


async def _who_played(tx: Tx) -> None:
    """Rated for what was played: who played each seat's turns of the games finished before it (from
    their logs), and the departures they imply: a seat an AI held at the end with a
    member's id (``results.user_id``) is a member who left, at their last action (the
    bot did not record when, or why: ``unknown``), against the other seats as they were
    then."""
    games = await tx.fetch(
        "SELECT DISTINCT r.game_id, g.guild_id FROM results r JOIN games g ON g.id = r.game_id"
        " ORDER BY r.game_id"
    )
    for g in games:
        game_id = int(g["game_id"])
        actions = await tx.fetch(
            "SELECT actor, user_id, events, created_at FROM actions WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        logged = [(int(a["actor"]), a["user_id"], json.loads(str(a["events"]))) for a in actions]
        turns = turns_by_seat(logged)
        seats = await tx.fetch("SELECT * FROM results WHERE game_id = ? ORDER BY seat", (game_id,))
        last: dict[int, float] = {}  # a member's last action in the game
        for a in actions:
            if a["user_id"] is not None:
                last[int(a["user_id"])] = float(a["created_at"])
        start = float(actions[0]["created_at"]) if actions else 0.0
        for r in seats:
            seat, user = int(r["seat"]), r["user_id"]
            counts = turns.get(seat, Counter())
            await tx.execute(
                "UPDATE results SET turns = ?, own_turns = ?, bot_turns = ?"
                " WHERE game_id = ? AND seat = ?",
                (
                    sum(counts.values()),
                    counts.get(user, 0) if user is not None else 0,
                    counts.get(None, 0),
                    game_id,
                    seat,
                ),
            )
        for r in seats:
            if g["guild_id"] is None or r["user_id"] is None or r["ai_level"] is None:
                continue  # rated on a server only; a member at the end did not leave
            user = int(r["user_id"])
            at = last.get(user, start)
            others = tuple(
                Holder(int(o["seat"]), int(o["user_id"]))
                if o["user_id"] is not None
                and (o["ai_level"] is None or last.get(int(o["user_id"]), start) > at)
                else Holder(int(o["seat"]), None, o["ai_level"])
                for o in seats
                if o["seat"] != r["seat"]
            )
            gone = Departure(user, int(r["seat"]), "unknown", others, str(r["name"]))
            await tx.execute(
                "INSERT INTO departures (game_id, user_id, seat, reason, name, others, at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, user_id) DO NOTHING",
                (game_id, user, gone.seat, gone.reason, gone.name[:32], others_json(others), at),
            )


async def _rated_in_order(tx: Tx) -> None:
    """Rated for what was played: the moments to rate, in the order they happened (migration 7 had
    rated the older games in the order of their ids): each rated game's departures and
    its end (its last action), in that game's season; then every rating again, with the
    rules of now (``bot.store.rating_rules``)."""
    rows = await tx.fetch(
        "SELECT rg.seq, rg.game_id, rg.season_id,"
        " (SELECT MAX(a.created_at) FROM actions a WHERE a.game_id = rg.game_id) AS ended,"
        " g.updated_at FROM rated_games rg JOIN games g ON g.id = rg.game_id"
    )
    moments: list[tuple[float, int, int, int, int | None]] = []
    for r in rows:
        ended = float(r["ended"]) if r["ended"] is not None else float(r["updated_at"])
        game_id = int(r["game_id"])
        moments.append((ended, int(r["seq"]), 1, game_id, None))
        for d in await tx.fetch(
            "SELECT user_id, at FROM departures WHERE game_id = ? ORDER BY at, user_id",
            (game_id,),
        ):
            moments.append((float(d["at"]), int(r["seq"]), 0, game_id, int(d["user_id"])))
    season_of = {int(r["game_id"]): int(r["season_id"]) for r in rows}
    moments.sort(key=lambda m: (m[0], m[1], m[2], m[4] or 0))
    await tx.executemany(
        "INSERT INTO rating_events (game_id, season_id, user_id) VALUES (?, ?, ?)",
        [(game_id, season_of[game_id], user) for _, _, _, game_id, user in moments],
    )


async def _rate_again(tx: Tx) -> None:
    """Every rating again from the stored facts, with the rules of now."""
    await rebuild(tx)


async def _rebuild(tx: Tx, table: str, old: str, new: str) -> None:
    """SQLite: change a table's definition (``old`` text of its ``CREATE TABLE`` made
    ``new``) the only way SQLite can change a CHECK constraint or a NOT NULL: a new table
    with the new definition, the rows copied, the old one dropped and the new one renamed,
    its indexes made again, and its AUTOINCREMENT counter kept (ids are never used twice).
    The definition is read from the database itself, so columns added by any migration are
    kept as they are, in their order. The foreign keys are off while a migration runs."""
    found = await tx.fetchone(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
    )
    assert found is not None, table
    sql = str(found[0])
    if old not in sql:
        raise RuntimeError(f"{table}: {old!r} not found in its definition")
    made = re.sub(rf"^CREATE TABLE\s+\"?{table}\"?", f"CREATE TABLE {table}_rebuilt", sql)
    indexes = await tx.fetch(
        "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL",
        (table,),
    )
    counters = await tx.fetch(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_sequence'"
    )
    seq = None
    if counters:
        kept = await tx.fetchone("SELECT seq FROM sqlite_sequence WHERE name = ?", (table,))
        seq = int(kept[0]) if kept is not None else None
    await tx.execute(made.replace(old, new, 1))
    await tx.execute(f"INSERT INTO {table}_rebuilt SELECT * FROM {table}")
    await tx.execute(f"DROP TABLE {table}")
    await tx.execute(f"ALTER TABLE {table}_rebuilt RENAME TO {table}")
    for index in indexes:
        await tx.execute(str(index[0]))
    if seq is not None:
        await tx.execute("DELETE FROM sqlite_sequence WHERE name = ?", (table,))
        await tx.execute("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", (table, seq))


_STATUSES_BEFORE = "CHECK (status IN ('lobby', 'playing', 'over', 'aborted'))"
_STATUSES = "CHECK (status IN ('lobby', 'playing', 'over', 'aborted', 'orphaned'))"
_GAME_REQUIRED = "game_id INTEGER NOT NULL REFERENCES games"


async def _games_may_be_orphaned(tx: Tx) -> None:
    """Migration 8 on SQLite: the games' status may be 'orphaned'."""
    await _rebuild(tx, "games", _STATUSES_BEFORE, _STATUSES)


async def _deliveries_without_a_game(tx: Tx) -> None:
    """Migration 8 on SQLite: a delivery may belong to no game (a server's announcement)."""
    await _rebuild(tx, "deliveries", _GAME_REQUIRED, "game_id INTEGER REFERENCES games")


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
        -- The play-by-post turn clock (bot/store/clock_settings.py, bot/play/turn_clock.py).
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
        -- How each member wants to hear it is their turn (bot/discord/notify.py): channel, dm,
        -- both, off. dm_channel_id: their DM channel once opened. dm_blocked: Discord refused a DM
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
            -- A game's config as one JSON value (bot/store/game_config.py: GameSettings): its rule
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
        -- The outbox (bot/play/outbox.py, bot/discord/delivery.py): what players must see
        -- because of a committed change, written in the same transaction as the change, and
        -- delivered (in order per channel, retried) until it lands. A delivered row is deleted, one
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
    (
        7,
        (
            """
            -- Ratings and seasons (bot/store/ratings.py, bot/store/rating_store.py).
            -- place: each seat's place at the end (1 = won), by VP, then the tie-breaks.
            ALTER TABLE results ADD COLUMN place INTEGER;

            -- A server's seasons, numbered from 1: the open one (ended_at NULL) is current.
            CREATE TABLE seasons (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                guild_id INTEGER NOT NULL,
                number INTEGER NOT NULL,
                name TEXT NOT NULL DEFAULT '',
                started_at REAL NOT NULL,
                ended_at REAL,
                UNIQUE (guild_id, number)
            );
            CREATE UNIQUE INDEX seasons_one_open ON seasons (guild_id) WHERE ended_at IS NULL;

            -- The finished games that count, their season, and the order they were rated
            -- in (seq): what `python -m bot ratings rebuild` replays.
            CREATE TABLE rated_games (
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
                game_id INTEGER NOT NULL UNIQUE REFERENCES games (id) ON DELETE CASCADE,
                season_id INTEGER NOT NULL REFERENCES seasons (id) ON DELETE CASCADE
            );

            -- Each member's rating per season (openskill's mu and sigma), and rated games.
            CREATE TABLE ratings (
                season_id INTEGER NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
                user_id INTEGER NOT NULL,
                mu REAL NOT NULL,
                sigma REAL NOT NULL,
                games INTEGER NOT NULL,
                PRIMARY KEY (season_id, user_id)
            );

            -- What each rated game did to each member's rating (games: theirs after it).
            CREATE TABLE rating_changes (
                seq INTEGER NOT NULL REFERENCES rated_games (seq) ON DELETE CASCADE,
                season_id INTEGER NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
                game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
                user_id INTEGER NOT NULL,
                seat INTEGER NOT NULL,
                place INTEGER NOT NULL,
                mu_before REAL NOT NULL,
                sigma_before REAL NOT NULL,
                mu REAL NOT NULL,
                sigma REAL NOT NULL,
                games INTEGER NOT NULL,
                PRIMARY KEY (seq, user_id)
            );
            CREATE INDEX rating_changes_by_member ON rating_changes (season_id, user_id, seq);
            CREATE INDEX rating_changes_by_game ON rating_changes (game_id);

            -- The coach (bot/play/coach.py): a member who turned it on (/af coach) is told, once,
            -- what a facility, a card or a bonus they have not used before does.
            ALTER TABLE members ADD COLUMN coach INTEGER NOT NULL DEFAULT 0;
            -- What each coached member has used (thing ids of bot/play/coach.py).
            CREATE TABLE member_things (
                user_id INTEGER NOT NULL,
                thing TEXT NOT NULL,
                PRIMARY KEY (user_id, thing)
            );
            """,
            _rate_finished_games,
        ),
    ),
    (
        8,
        (
            # A game whose channel or thread was deleted, or whose server removed the bot:
            # status 'orphaned' (it holds no channel), orphaned says why ('channel', 'guild').
            # Its host continues it in another channel or ends it; it plays on by itself when
            # the bot is added back to its server.
            PerDialect(
                sqlite=_games_may_be_orphaned,
                postgresql=(
                    "ALTER TABLE games DROP CONSTRAINT games_status_check;"
                    f" ALTER TABLE games ADD CONSTRAINT games_status_check {_STATUSES}"
                ),
            ),
            # A delivery of no game: a server's announcement (a new season).
            PerDialect(
                sqlite=_deliveries_without_a_game,
                postgresql="ALTER TABLE deliveries ALTER COLUMN game_id DROP NOT NULL",
            ),
            """
            ALTER TABLE games ADD COLUMN orphaned TEXT CHECK (orphaned IN ('channel', 'guild'));
            ALTER TABLE games ADD COLUMN orphaned_at REAL;

            -- A member's move carries an idempotency key (the interaction's id, or a panel
            -- pick's own id), stored with its first action in the move's transaction: the
            -- same key again (a retry, a double click, a lost acknowledgement of the commit, a
            -- second process given the same interaction) is answered with the first result
            -- and applied once. Undoing the action frees its key.
            ALTER TABLE actions ADD COLUMN move_key TEXT;
            CREATE UNIQUE INDEX actions_one_per_move_key
                ON actions (game_id, move_key) WHERE move_key IS NOT NULL;

            -- When a delivery was given up (failed rows are pruned after a while).
            ALTER TABLE deliveries ADD COLUMN failed_at REAL;

            -- One owner per lane (a channel's deliveries, in order): a process delivers a lane
            -- only while it holds its lease (until), taken in one statement when it expired or
            -- is its own. taken_from: the owner before (whose deliveries may have been made
            -- without being recorded: checked in the channel before they are made again).
            CREATE TABLE delivery_lanes (
                channel_id INTEGER PRIMARY KEY,
                owner TEXT NOT NULL,
                until REAL NOT NULL,
                taken_from TEXT
            );

            -- What a game's host was told by DM about a problem (missing permissions in a
            -- channel, messages Discord rejects, the game orphaned): once per problem, until
            -- it is solved.
            CREATE TABLE host_notices (
                game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
                problem TEXT NOT NULL,
                told_at REAL NOT NULL,
                PRIMARY KEY (game_id, problem)
            );
            """,
        ),
    ),
    (
        RATED_FOR_PLAY,
        (
            """
            -- Rated for what you played (bot/store/rating_rules.py). Who played each seat's
            -- turns: turns, those its member (user_id) played, those the bot played.
            ALTER TABLE results ADD COLUMN turns INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE results ADD COLUMN own_turns INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE results ADD COLUMN bot_turns INTEGER NOT NULL DEFAULT 0;

            -- A member out of a game in play: why, their name then, the other seats then
            -- (JSON: [seat, user_id, ai_level] each), and when.
            CREATE TABLE departures (
                game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
                user_id INTEGER NOT NULL,
                seat INTEGER NOT NULL,
                reason TEXT NOT NULL CHECK (reason IN
                    ('left', 'kicked', 'timeout', 'replaced', 'aborted', 'unknown')),
                name TEXT NOT NULL DEFAULT '',
                others TEXT NOT NULL,
                at REAL NOT NULL,
                PRIMARY KEY (game_id, user_id)
            );

            -- What was rated, in order (seq): a departure (user_id) or a game's end (NULL).
            CREATE TABLE rating_events (
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
                game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
                season_id INTEGER NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
                user_id INTEGER
            );
            CREATE INDEX rating_events_by_game ON rating_events (game_id);
            CREATE INDEX rating_events_by_season ON rating_events (season_id, seq);
            """,
            _who_played,
            _rated_in_order,
            """
            DROP TABLE rating_changes;
            DROP TABLE rated_games;
            -- What each rated moment did to each member's rating (games: theirs after it);
            -- how: result, helped, absent, or why they left.
            CREATE TABLE rating_changes (
                seq INTEGER NOT NULL REFERENCES rating_events (seq) ON DELETE CASCADE,
                season_id INTEGER NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
                game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
                user_id INTEGER NOT NULL,
                seat INTEGER NOT NULL,
                place INTEGER NOT NULL,
                how TEXT NOT NULL,
                mu_before REAL NOT NULL,
                sigma_before REAL NOT NULL,
                mu REAL NOT NULL,
                sigma REAL NOT NULL,
                games INTEGER NOT NULL,
                PRIMARY KEY (seq, user_id)
            );
            CREATE INDEX rating_changes_by_member ON rating_changes (season_id, user_id, seq);
            CREATE INDEX rating_changes_by_game ON rating_changes (game_id);
            """,
            _rate_again,
        ),
    ),
    (
        10,
        """
        -- Screen-reader mode (/af notify screen_reader:on): the member's private answers, and
        -- the channel of a game they sit in, without emoji or symbols, each fact said once,
        -- and a private line after each panel pick (bot/text/spoken.py, bot/text/gains.py).
        ALTER TABLE members ADD COLUMN screen_reader INTEGER NOT NULL DEFAULT 0;
        """,
    ),
    (
        11,
        """
        -- Rated for who played (bot/store/rating_rules.py). holders: who held a seat in play
        -- before its holder now, as JSON [[until_seq, user_id, ai_level, at], ...]: each
        -- held it until the log's action until_seq, handed on at the time at. offered_to: a
        -- member the host offered the seat to (/af replace), who takes it only by /af join.
        ALTER TABLE seats ADD COLUMN holders TEXT NOT NULL DEFAULT '';
        ALTER TABLE seats ADD COLUMN offered_to INTEGER;
        -- Who played each seat's turns of a finished game, as JSON [[user_id, ai_level,
        -- turns], ...]: the seat counts for the others as the players of its turns.
        ALTER TABLE results ADD COLUMN played_by TEXT NOT NULL DEFAULT '';
        """,
    ),
    (
        12,
        """
        -- One owner per interaction (bot/discord/owners.py): two processes over one database
        -- (a rolling restart: Discord lets two sessions of a shard overlap) both receive a
        -- command or a click. The first to write its id here acts on it and answers, the
        -- other does nothing. Pruned after an hour (Discord drops an interaction's token
        -- after fifteen minutes).
        CREATE TABLE interaction_owners (
            interaction_id INTEGER NOT NULL,
            owner TEXT NOT NULL,
            at REAL NOT NULL,
            PRIMARY KEY (interaction_id)
        );
        CREATE INDEX interaction_owners_by_age ON interaction_owners (at);
        """,
    ),
)
LATEST: Final = MIGRATIONS[-1][0]

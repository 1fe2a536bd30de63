"""Data: the database (SQLite or PostgreSQL through one SQL: ``storage``, ``db``),
its migrations, copying and backing it up, a game's stored config, and the ratings kept
in it. Imports no Discord-layer module."""

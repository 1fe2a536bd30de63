"""Words: every user-facing text's English source (``strings``), the translations
(``i18n``, ``locales/``), and every sentence about a game — moves, events, turn messages,
the lobby, the turn clock, the board and charts in words, durations, what happened since
one's turn, hints, ratings. Fed with rows, clock settings, the engine's state and views,
names and a language, never a game in memory (``bot.play``, above, hands them over).
Imports no Discord-layer module."""

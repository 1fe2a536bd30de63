"""Words: every user-facing text's English source (``strings``), the translations
(``i18n``, ``locales/``), and how the game's things are said — moves, events, durations,
what happened since one's turn, ratings. Imports no Discord-layer module."""

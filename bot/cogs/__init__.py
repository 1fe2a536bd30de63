"""The bot's features, one cog (extension) each: lobby, seats, settings,
notifications, play, info, records, learn."""

EXTENSIONS = (
    "bot.cogs.lobby",
    "bot.cogs.seats",
    "bot.cogs.settings",
    "bot.cogs.notifications",
    "bot.cogs.play",
    "bot.cogs.info",
    "bot.cogs.records",
    "bot.cogs.learn",
)

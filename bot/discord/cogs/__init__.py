"""The bot's features, one cog (extension) each: lobby, seats, settings,
notifications, play, info, records, learn."""

EXTENSIONS = (
    "bot.discord.cogs.lobby",
    "bot.discord.cogs.seats",
    "bot.discord.cogs.settings",
    "bot.discord.cogs.notifications",
    "bot.discord.cogs.play",
    "bot.discord.cogs.info",
    "bot.discord.cogs.records",
    "bot.discord.cogs.learn",
)

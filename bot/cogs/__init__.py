"""The bot's features, one cog (extension) each: lobby, play, info."""

EXTENSIONS = ("bot.cogs.lobby", "bot.cogs.play", "bot.cogs.info")

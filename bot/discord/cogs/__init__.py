"""The bot's features, one cog each: lobby, seats, settings, notifications, play, info,
records, learn. Each is built by the factory (``bot.factory.build_parts``), handed the
parts it uses and only the jobs of the game service it asks (each by its class:
``bot.play.lobby_service.LobbyService``...; ``bot.play.jobs`` lists them), and added to the
client, in that order, when the bot logs in."""

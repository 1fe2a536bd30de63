"""The bot's features, one cog each: lobby, seats, settings, notifications, play, info,
records, learn. Each is built by the factory (``bot.factory.build_parts``), handed the
parts it uses and the job of the game service it asks (``bot.play.jobs``), and added to
the client, in that order, when the bot logs in."""

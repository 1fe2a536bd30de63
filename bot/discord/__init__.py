"""Everything that talks to Discord: the cogs (slash commands), the panel's components,
turn messages and their deliveries, replies and refusals, notifications, the command
translator and the background work that drives them."""

"""Discord bot for Alien Frontiers (discord.py): commands, panels, storage, board image."""

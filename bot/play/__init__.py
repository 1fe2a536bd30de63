"""The game service, with no Discord in it: every change to a game checked and committed
with what players must see of it (the jobs, ``jobs``; ``outbox``), games in memory, moves, AI
seats, the turn clock, the panel's choices, the guided game and the coach. Imports no
discord.py."""

"""One owner per interaction: of two processes given the same command or click, one acts.

Discord lets two sessions of one shard overlap (a rolling restart: the new process
connects before the old one stops; or a mistaken config running two bots over the same
shards): both then receive every interaction. Each would act on it — a lobby command
applied twice, or refused by the second as if it had failed ("this channel already has
a game" after ``/af new`` made it) — and answer it. So before a process acts on an
interaction (a slash command, a component, a modal), it writes the interaction's id in the
database (``GameService.claim_interaction``, one statement): the process that wrote it first
acts and answers; the other does nothing at all, and answers nothing (``first_to_claim``
returns False to the command tree's or the component's check, which discord.py takes
in silence). An autocomplete request is answered by both (it changes nothing, and
Discord takes the first answer).

On SQLite one process only runs over a database file (``bot.store.db_lock``): no claim is
written there. If the database refuses the claim's write, the process goes on as a lone
process would: the command then succeeds or fails on its own, as without a claim.
The claims are pruned after ``KEEP_SECONDS`` (Discord drops an interaction's token after
fifteen minutes). A process that is stopping claims only after ``STOPPING_DELAY``: a
process starting in its place takes the interaction first, and acts on it; the stopping
one then only refuses (``ShuttingDown``) what no other process took.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any, Final

import discord

from bot.discord.failures import judge
from bot.play.owner_service import OwnerService

log = logging.getLogger(__name__)

KEEP_SECONDS: Final = 3600.0  # a claim is kept this long, then pruned
STOPPING_DELAY: Final = 1.0  # a stopping process lets another claim first (3 s to answer)
_CLAIMED: Final = "af_claimed"  # the verdict, kept on the interaction (asked more than once)


class InteractionOwners:
    """Claims interactions for this process (``owner``: its name, as for lanes)."""

    def __init__(
        self,
        claims: OwnerService,
        owner: str,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.claims = claims  # the game service's record of who took an interaction
        self.owner = owner
        self.clock = clock

    async def claim(self, interaction: discord.Interaction[Any], stopping: bool = False) -> bool:
        """Whether this process is the one to act on ``interaction`` (see the module);
        ``stopping``: this process is stopping (another may take it first)."""
        if interaction.type is discord.InteractionType.autocomplete:
            return True
        if not self.claims.shares_its_database:
            return True  # SQLite: this process is the only one over the database
        if stopping:
            await asyncio.sleep(STOPPING_DELAY)
        try:
            return await self.claims.claim_interaction(interaction.id, self.owner, self.clock())
        except Exception as e:
            log.warning(
                "interaction %d: not claimed (%s); handled here as by a lone process",
                interaction.id,
                judge(e),
            )
            return True

    async def prune(self, now: float) -> int:
        """Forget the claims older than ``KEEP_SECONDS``; how many."""
        return await self.claims.prune_claims(now - KEEP_SECONDS)


async def first_to_claim(
    interaction: discord.Interaction[Any],
    owners: InteractionOwners | None,
    stopping: bool = False,
) -> bool:
    """Whether this process acts on ``interaction``: asked by every check an interaction
    passes (the command tree's, each component's, the answer to a click nothing takes)
    before anything else, each given the ``owners`` the factory built; the first answer is
    kept on the interaction. ``stopping``: this process is stopping. Without owners (an
    item wired without them, in a test) this process acts on everything."""
    if owners is None:
        return True
    extras = interaction.extras
    if _CLAIMED in extras:
        return bool(extras[_CLAIMED])
    mine = await owners.claim(interaction, stopping)
    extras[_CLAIMED] = mine
    if not mine:
        log.debug("interaction %d: handled by another process", interaction.id)
    return mine


__all__ = ["KEEP_SECONDS", "STOPPING_DELAY", "InteractionOwners", "first_to_claim"]

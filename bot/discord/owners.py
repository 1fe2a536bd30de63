"""One owner per interaction: of two processes given the same command or click, one acts.

Discord lets two sessions of one shard overlap (a rolling restart: the new process
connects before the old one stops; or a mistaken config running two bots over the same
shards): both then receive every interaction. Each would act on it — a lobby command
applied twice, or refused by the second as if it had failed ("this channel already has
a game" after ``/af new`` made it) — and answer it. So before a process acts on an
interaction (a slash command, a component, a modal), it writes the interaction's id in the
database (``OwnerService.claim_interaction``, one statement): the process that wrote it first
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

A slow claim (the database busy, a failover) must not lose the answer: Discord takes an
interaction's first answer within 3 seconds of it, or never (10062, "The application did
not respond"). So where a claim is written, the interaction is watched before the claim
(``bot.discord.deferral.watch``), from its arrival: still unanswered after
``defer_after_seconds`` (2 s) — its claim not yet known, or known and its handler still at
work — every process given it defers it the same way (a command privately, "thinking…";
a click as an update of its message, which shows nothing). Discord takes the first
deferral and refuses the others (40060). Once its claim is known:

- the owner acts and answers, its answer following the deferral whichever process made
  it (a refused first answer, with no answer of its own that may have landed, means that
  a deferral landed: deferrals are the only first answers sent before a claim is known).
  Its first follow-up replaces the "thinking…", so none is left unresolved: an answer
  posted in the channel instead is followed by a private "done" (``Reply.finish``);
- the others stand down (``stand_down``): no deferral from them any more, and nothing
  else, ever — not even after a deferral of theirs that Discord took.

A claim known quickly changes nothing: the owner's answer comes well within the 3 seconds
and any other process's deferral is refused. Without claims (SQLite), an interaction is
watched from its first check as before.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any, Final

import discord

from bot.discord.deferral import alone, stand_down, watch
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

    def shared(self, interaction: discord.Interaction[Any]) -> bool:
        """Whether ``interaction`` is claimed: other processes over the database may be
        given it too (not on SQLite; not an autocomplete request)."""
        if interaction.type is discord.InteractionType.autocomplete:
            return False
        return self.claims.shares_its_database  # SQLite: the only process over it

    async def claim(self, interaction: discord.Interaction[Any], stopping: bool = False) -> bool:
        """Whether this process is the one to act on ``interaction`` (see the module);
        ``stopping``: this process is stopping (another may take it first)."""
        if not self.shared(interaction):
            return True
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
            alone(interaction)  # a refused first answer is then taken as it is
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
    if owners.shared(interaction):
        watch(interaction, shared=True)  # deferred if the claim is slow (see the module)
    mine = await owners.claim(interaction, stopping)
    extras[_CLAIMED] = mine
    if not mine:
        stand_down(interaction)
        log.debug("interaction %d: handled by another process", interaction.id)
    return mine


__all__ = ["KEEP_SECONDS", "STOPPING_DELAY", "InteractionOwners", "first_to_claim"]

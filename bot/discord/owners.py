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
written there. If the database refuses the claim's write (a reset connection, a failover),
the claim is asked again (the same owner asking again keeps it, so a claim whose answer
was lost is found) until ``CLAIM_SHARE`` of the deferral's delay has passed since the
interaction arrived (2.5 s of Discord's 3): another owner found, this process stands
down; still unknown, it does not act (the other process may have) and answers privately
that the database is busy and nothing changed — unless another process's deferral was
the interaction's first answer (that process answers it). A database that refuses every
write (read-only, after a failover) lets no process claim anything: the owner read back,
if one wrote it before, else this process acts as a lone one (what only reads is
answered; a change is refused by the database, and answered so). Each attempt is bounded by the
database itself (``statement_timeout``) to what is left of that time, so no claim is
written after it: a stopping process (``bot.discord.shutdown``), which waits longer than
that for the interactions that arrived before it stopped, never leaves a claim of its
own unanswered.

The same interaction given again to the same process (a replayed gateway event) is acted
on once: the ids taken are kept (the last ``TAKEN_KEPT``), on SQLite too, and a repeat
is dropped in silence. The claims are pruned after ``KEEP_SECONDS`` (Discord drops an
interaction's token after fifteen minutes). A process that is stopping claims only
after ``STOPPING_DELAY``: a process starting in its place takes the interaction first,
and acts on it; the stopping one then only refuses (``ShuttingDown``) what arrived after
it began to stop and no other process took. What arrived before is finished.

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
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

import asyncpg
import discord

from bot.discord.deferral import (
    DEFER_AFTER_SECONDS,
    alone,
    answer_unless_another,
    stand_down,
    watch,
)
from bot.discord.failures import judge
from bot.discord.replies import locale_of
from bot.play.owner_service import OwnerService
from bot.text.strings import text

if TYPE_CHECKING:
    from bot.discord.shutdown import Gate

log = logging.getLogger(__name__)

KEEP_SECONDS: Final = 3600.0  # a claim is kept this long, then pruned
STOPPING_DELAY: Final = 1.0  # a stopping process lets another claim first (3 s to answer)
CLAIM_SHARE: Final = 1.25  # a claim is known within this times the deferral's delay, or not
RETRY_SECONDS: Final = 0.1  # the pause before a refused claim is asked again
TAKEN_KEPT: Final = 4096  # ids of interactions this process took, kept against repeats
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
        self._taken: OrderedDict[int, None] = OrderedDict()  # the last TAKEN_KEPT taken here

    def shared(self, interaction: discord.Interaction[Any]) -> bool:
        """Whether ``interaction`` is claimed: other processes over the database may be
        given it too (not on SQLite; not an autocomplete request)."""
        if interaction.type is discord.InteractionType.autocomplete:
            return False
        return self.claims.shares_its_database  # SQLite: the only process over it

    def repeated(self, interaction: discord.Interaction[Any]) -> bool:
        """Whether this process was given ``interaction`` before (a replayed event: acted
        on once); remembers it otherwise. Autocomplete requests are answered each time."""
        if interaction.type is discord.InteractionType.autocomplete:
            return False
        if interaction.id in self._taken:
            return True
        self._taken[interaction.id] = None
        while len(self._taken) > TAKEN_KEPT:
            self._taken.popitem(last=False)
        return False

    async def claim(
        self, interaction: discord.Interaction[Any], stopping: bool = False
    ) -> bool | None:
        """Whether this process is the one to act on ``interaction`` (see the module): None
        if the database would not say in time. ``stopping``: this process is stopping
        (another may take it first)."""
        if self.repeated(interaction):
            log.info("interaction %d given again: acted on once", interaction.id)
            return False
        if not self.shared(interaction):
            return True
        loop = asyncio.get_running_loop()
        settings = getattr(getattr(interaction, "client", None), "settings", None)
        delay = getattr(settings, "defer_after_seconds", DEFER_AFTER_SECONDS)
        deadline = loop.time() + CLAIM_SHARE * delay
        if stopping:
            await asyncio.sleep(STOPPING_DELAY)
        while True:
            left = deadline - loop.time()
            if left <= 0:
                return None
            try:
                async with asyncio.timeout(left):
                    return await self.claims.claim_interaction(
                        interaction.id, self.owner, self.clock(), within=left
                    )
            except asyncpg.ReadOnlySQLTransactionError:
                return await self._read_only(interaction, deadline)
            except Exception as e:
                log.warning("interaction %d: claim not known (%s)", interaction.id, judge(e))
            await asyncio.sleep(min(RETRY_SECONDS, max(0.0, deadline - loop.time())))

    async def _read_only(
        self, interaction: discord.Interaction[Any], deadline: float
    ) -> bool | None:
        """The database refuses every write (read-only, after a failover): no claim can be
        written, by any process over it. Another's written before stands; else this
        process acts as a lone one (what only reads is answered; a change is refused by
        the database and answered so)."""
        try:
            async with asyncio.timeout_at(deadline):
                owner = await self.claims.owner_of(interaction.id)
        except Exception as e:
            log.warning("interaction %d: claim not known (%s)", interaction.id, judge(e))
            return None
        if owner is not None:
            return owner == self.owner
        log.warning("interaction %d: not claimed (the database is read-only)", interaction.id)
        alone(interaction)
        return True

    async def prune(self, now: float) -> int:
        """Forget the claims older than ``KEEP_SECONDS``; how many."""
        return await self.claims.prune_claims(now - KEEP_SECONDS)


async def first_to_claim(
    interaction: discord.Interaction[Any],
    owners: InteractionOwners | None,
    gate: Gate | None = None,
) -> bool:
    """Whether this process acts on ``interaction``: asked by every check an interaction
    passes (the command tree's, each component's, the answer to a click nothing takes)
    before anything else, each given the ``owners`` the factory built and the bot's
    ``gate``, which counts the interaction's task as in flight from here (a stopping bot
    waits for its claim); the first answer is kept on the interaction. Without owners (an
    item wired without them, in a test) this process acts on everything."""
    if gate is not None:
        gate.track()
    if owners is None:
        return True
    extras = interaction.extras
    if _CLAIMED in extras:
        return bool(extras[_CLAIMED])
    if owners.shared(interaction):
        watch(interaction, shared=True)  # deferred if the claim is slow (see the module)
    stopping = gate is not None and gate.closing
    mine = await owners.claim(interaction, stopping)
    extras[_CLAIMED] = bool(mine)
    if mine is None:
        log.warning("interaction %d: its claim not known in time; not acted on", interaction.id)
        stand_down(interaction)
        busy = text("error.database_busy", locale_of(interaction))
        try:
            await answer_unless_another(interaction, busy)
        except discord.HTTPException as e:
            log.warning("interaction %d: not told the database is busy: %s", interaction.id, e)
    elif not mine:
        stand_down(interaction)
        log.debug("interaction %d: handled by another process", interaction.id)
    return bool(mine)


__all__ = [
    "CLAIM_SHARE",
    "KEEP_SECONDS",
    "STOPPING_DELAY",
    "TAKEN_KEPT",
    "InteractionOwners",
    "first_to_claim",
]

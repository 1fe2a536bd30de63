"""How each kind of delivery (``bot.play.outbox``) reaches Discord.

A courier renders its delivery from the game as it is now (and from the logged actions,
for a turn that ended) and makes the REST calls. It returns what the delivery made
(``Delivered``: a message's id, recorded when the delivery is removed, in one transaction)
or raises: ``bot.discord.delivery`` judges the error (``bot.discord.failures``) and tries
again later.

Every courier can be run again safely:

- a post carries a nonce that Discord enforces (``af``, the delivery's id and kind): a
  retry within minutes of an attempt whose answer was lost returns the message posted
  the first time;
- past those minutes (a restart, another process taking the lane over, a long wait),
  Discord forgets the nonce: a delivery that may have been made is first looked for among
  the messages posted since it was queued, however many members posted meanwhile
  (``check``: the turn's board, or the same text, from the bot; ``find``, up to
  ``LOOK_BACK`` of them) and recorded if found, never made twice; so is an answer through
  an interaction that failed without saying whether it was taken (interaction answers
  carry no nonce);
- the turn message is posted only if the stored game has none for the turn (it is
  recorded with the delivery's removal), else edited: never two for one turn;
- a turn's DM is sent only if the game's ``notified_turn`` says it was not;
- a message that was deleted (404 Unknown Message) is posted again.

What is shown is the game as committed: the game in memory never runs ahead of the
database (``MoveService`` plays a move on a copy and takes it once committed).

When Discord rejects a turn message (a 400: a body it will never take), one ERROR line
names the route and the rejected field, and the turn message is sent as text (no board,
no panel: the player to act is still told and pinged, and plays with ``/play``); the
game's host is told once. An edit in an archived thread (50083) reopens the thread and
edits again: a play-by-post game in a thread does not stall when the thread goes to sleep.

When the deliveries of a member's command or click are delivered at once, their
interaction (``Reply``) carries one of them: the edit of the message clicked on, or the
answer to the command. If the interaction cannot be used (expired, answered, a fault),
the courier goes on through the channel in the same attempt.

``Couriers`` routes each delivery to the courier of its kind, each an object of its own
handed only what it uses: the turn message and a turn closed (``turn_couriers.
TurnCourier``), the members told by DM or by a notice (``member_couriers.MemberCourier``),
the lobby message, the start's lines and the game over (``game_couriers.GameCourier``).
What they share is one object each is handed, the ``Messenger`` (``bot.discord.
messenger``): saying, posting and editing a game's message through Discord.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.discord.game_couriers import GameCourier
from bot.discord.member_couriers import MemberCourier
from bot.discord.messenger import Delivered, Reply
from bot.discord.turn_couriers import TurnCourier
from bot.store.rows import Delivery

Courier = Callable[[Delivery, Reply | None, bool], Awaitable[Delivered]]


class Couriers:
    """Delivers each kind of delivery (``deliver``) by the courier of its kind; see the
    module docstring."""

    def __init__(self, turns: TurnCourier, members: MemberCourier, games: GameCourier) -> None:
        self.by_kind: dict[str, Courier] = {
            "turn": turns.turn,
            "close": turns.close,
            "notify": members.notify,
            "dm": members.dm,
            "notice": members.notice,
            "lobby": games.lobby,
            "started": games.started,
            "over": games.over,
        }

    async def deliver(
        self, delivery: Delivery, reply: Reply | None = None, *, check: bool = False
    ) -> Delivered:
        """Make ``delivery``; ``check``: it may have been made already (by this process
        before a restart, or by another): look for it first, past Discord's nonce."""
        courier = self.by_kind.get(delivery.kind)
        if courier is None:
            raise ValueError(f"no courier for deliveries of kind {delivery.kind!r}")
        return await courier(delivery, reply, check)


# Delivered and Reply are part of what a courier is given and returns (bot.discord.delivery).
__all__ = ["Courier", "Couriers", "Delivered", "Reply"]

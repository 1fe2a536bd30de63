"""The outbox: what players must see because of a change, written with the change.

Every change to a game that players must hear of (a move, the start, a timeout, a seat
changing hands, a reminder...) is committed together with its *deliveries*, in the same
transaction (``bot.store.rows.Delivery``): a crash between the commit and Discord loses
nothing, and ``bot.discord.delivery`` sends them, in order per channel, retrying until they land.

A delivery says what to show, not the bytes to send: it is rendered when it is delivered,
from the game as it is then and from its logged actions, so a retry an hour later shows
the game of now (a turn message with the current panel) and a closed turn's message its
own turn. The kinds:

``turn``     the turn message of the current turn, as the game is now: edited, or posted
             (with its ping) if the turn has none yet; turn: the turn it was queued for
``close``    a turn that ended: its message edited to its final lines without a panel (or
             posted, if it never got one); to: the log's length when it ended, last: the
             game ended in it, seat/member/timeout: who played it and whether the bot
             played it for a member; closing: a last line (a game ended early)
``notify``   the member to act told by DM that their turn began (as they chose)
``notice``   a line in the game's channel: key and params of its text, users it pings,
             link: add a link to the turn message; reply: say it as the answer to the
             member's command when it is delivered at once; with no game, a server's
             announcement (``announcement``: a new season) in its ``locale``
``dm``       a direct message to a member (a reminder), with a notice in the channel if
             their DMs are closed (fallback)
``over``     the game-over post: scores, the final board, the Rematch button
``lobby``    the lobby message as the lobby is now (posted if it has none): closing,
             extra (a line with pings), reply as for notices
``started``  the start of a game: the cards dealt and the first player
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final, Literal

from bot.play.games import ActiveGame
from bot.store.rows import Delivery

Kind = Literal["turn", "close", "notify", "notice", "dm", "over", "lobby", "started"]
KINDS: Final[tuple[Kind, ...]] = (
    "turn",
    "close",
    "notify",
    "notice",
    "dm",
    "over",
    "lobby",
    "started",
)


def delivery(game: ActiveGame, kind: Kind, now: float, **payload: Any) -> Delivery:
    """A delivery of ``game`` in its channel's lane, queued at ``now``."""
    return Delivery(
        kind=kind,
        game_id=game.id,
        channel_id=game.row.channel_id,
        guild_id=game.row.guild_id,
        payload={k: v for k, v in payload.items() if v is not None},
        created_at=now,
        due_at=now,
    )


def text_of(key: str, params: Mapping[str, object] | None = None) -> dict[str, Any]:
    """A text to render when delivered: its key and params (plain JSON values)."""
    return {"key": key, "params": dict(params or {})}


def turn_shown(game: ActiveGame, now: float) -> Delivery:
    """Show the current turn's message as the game is now (post it if it has none)."""
    return delivery(game, "turn", now, turn=game.state.turn_number)


def turn_closed(
    game: ActiveGame,
    now: float,
    *,
    seat: int,
    to: int,
    last: bool = False,
    closing: Mapping[str, Any] | None = None,
) -> Delivery:
    """Close the message of the turn ``seat`` played, with its final lines from the log's
    first ``to`` actions: the turn is the last part of them when ``last`` (the game ended
    in it), else the part before the next turn's start. Says whether the bot played the
    turn for its member, after a timeout."""
    turn = game.state.turn_number if last else game.state.turn_number - 1
    timeout = game.row.timeout_mode if game.row.timeout_turn == turn else None
    member = None
    if timeout is not None:
        row = game.seats[seat]
        member = row.user_id if row.user_id is not None else row.former_user_id
    return delivery(
        game,
        "close",
        now,
        turn=turn,
        seat=seat,
        to=to,
        last=last or None,
        timeout=timeout,
        member=member,
        closing=dict(closing) if closing else None,
    )


def turn_told(game: ActiveGame, now: float) -> Delivery | None:
    """Tell the member to act that their turn began (by DM, as they chose); None when the
    game waits on no member."""
    user = game.waiting_on()
    if user is None:
        return None
    return delivery(game, "notify", now, turn=game.state.turn_number, user=user)


def notice(
    game: ActiveGame,
    now: float,
    key: str | Sequence[Mapping[str, Any]],
    params: Mapping[str, object] | None = None,
    *,
    users: Sequence[int] = (),
    link: bool = False,
    reply: bool = False,
) -> Delivery:
    """A line in the game's channel in the game's language, pinging ``users`` only (or
    several lines: ``key`` a list of ``text_of``)."""
    said = text_of(key, params) if isinstance(key, str) else {"lines": [dict(t) for t in key]}
    return delivery(
        game,
        "notice",
        now,
        **said,
        users=list(users) or None,
        link=link or None,
        reply=reply or None,
    )


def direct(
    game: ActiveGame,
    now: float,
    user: int,
    key: str,
    params: Mapping[str, object] | None = None,
    *,
    fallback: Delivery | None = None,
    always: bool = False,
    link: bool = False,
) -> Delivery:
    """A direct message to ``user`` about this game, in their language, if they chose DMs
    (``always``: whatever they chose), ``link``: with a link to the turn message;
    ``fallback``: a notice to post instead if they do not get it (their DMs closed, or no
    DMs chosen any more)."""
    return delivery(
        game,
        "dm",
        now,
        **text_of(key, params),
        user=user,
        always=always or None,
        link=link or None,
        fallback=dict(fallback.payload) if fallback is not None else None,
    )


def game_over(game: ActiveGame, now: float) -> Delivery:
    return delivery(game, "over", now)


def lobby_shown(
    game: ActiveGame,
    now: float,
    *,
    closing: Mapping[str, Any] | None = None,
    extra: Mapping[str, Any] | None = None,
    users: Sequence[int] = (),
    reply: bool = False,
) -> Delivery:
    """Show the lobby message as the lobby is now (post it if it has none), with a
    ``closing`` line for a lobby that ended, or an ``extra`` line that pings ``users``."""
    return delivery(
        game,
        "lobby",
        now,
        closing=dict(closing) if closing else None,
        extra=dict(extra) if extra else None,
        users=list(users) or None,
        reply=reply or None,
    )


def announcement(
    guild_id: int | None,
    channel_id: int,
    now: float,
    key: str,
    params: Mapping[str, object] | None = None,
    *,
    locale: str = "en",
    reply: bool = False,
) -> Delivery:
    """A line in a server's channel that belongs to no game (a new season), in ``locale``
    (the server's language); ``reply``: said as the answer to the command that caused it,
    when it is delivered at once."""
    payload = {**text_of(key, params), "locale": locale}
    if reply:
        payload["reply"] = True
    return Delivery("notice", None, channel_id, guild_id, payload, created_at=now, due_at=now)


def game_started(game: ActiveGame, now: float, to: int) -> Delivery:
    """The start: the cards dealt and the first player (the log's first ``to`` actions)."""
    return delivery(game, "started", now, to=to, reply=True)


__all__ = [
    "KINDS",
    "Kind",
    "announcement",
    "delivery",
    "direct",
    "game_over",
    "game_started",
    "lobby_shown",
    "notice",
    "text_of",
    "turn_closed",
    "turn_shown",
    "turn_told",
]

"""The sentences of a turn's messages, in their order: the turn in play (``turn_message``:
its header, the catch-up, the turn's lines, then what to do now), a turn that ended
(``closed_turn_message``: its header, its lines, the closing, the scores) and the turn's
DM (``turn_dm``). Composed from what ``bot.play.turn_view`` read once for the delivery
(``TurnWords``); posted by ``bot.discord`` (``Announcer``, the couriers)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.text import describe
from bot.text.board_words import scores_line
from bot.text.catchup import changes, said_again, told_text
from bot.text.catchup import lines as catch_up_lines
from bot.text.limits import MESSAGE_LIMIT
from bot.text.spoken import named_once, plain
from bot.text.strings import text
from bot.text.turn_text import as_rolled, event_lines, lines_length, turn_header, turn_segments
from bot.text.why_not import closed_line
from engine import Action, Event, GameState, GameView


@dataclass(frozen=True, slots=True)
class CatchUp:
    """What happened since the last turn of the member to act (``bot.text.catchup``): its
    events, and the boards as that member's last turn ended and as this one began."""

    events: Sequence[Event]
    before: GameState | None
    now: GameState | None


@dataclass(frozen=True, slots=True)
class TurnWords:
    """What the turn message of the turn in play says, as read for one delivery."""

    state: GameState
    view: GameView | None  # of ``state`` (None once the game is over)
    legal: Sequence[Action]  # what the seat to act may do (said closed otherwise)
    names: Sequence[str]  # safe in a message
    locale: str
    seat: int  # whose turn it is
    ai: bool  # the seat is an AI's
    timeout: str | None  # how the bot plays a member's timed-out turn (ai, skip)
    played_for: int | None  # that member
    mention: str  # of the member to act ("" for none)
    waiting: bool  # a member is to act
    spoken: bool  # written for a screen reader
    catch_up: CatchUp | None  # said on this turn's message
    lesson: Sequence[str] = ()  # a guided game's lesson of this decision
    coach: Sequence[str] = ()  # the coach's, before the pick


def said(content: str, locale: str, spoken: bool, names: Sequence[str] = ()) -> str:
    """A message's content, for a screen reader when ``spoken`` (an AI's level said at the
    first mention of its name only), within Discord's limit."""
    return (plain(named_once(content, names), locale) if spoken else content)[:MESSAGE_LIMIT]


def turn_message(w: TurnWords) -> str:
    """The message of the turn in play: header, what happened this turn so far, and what
    to do now."""
    state, locale, names = w.state, w.locale, w.names
    events = turn_segments(state)[-1]
    start = next((e for e in events if e.key == "turn_started"), None)
    header = turn_header(
        w.timeout if w.played_for is not None else None,
        w.ai,
        locale,
        round=start.params.get("round", state.round) if start else state.round,
        name=describe.seat_name(w.seat, names),
        mention=w.mention,
        member=w.played_for,
    )
    parts = [header]
    if w.catch_up is not None:
        # For a screen reader every other turn was posted whole as it ended: only the
        # colonies, control and raids on the member again, and what changed for each
        # player since, summed up. All of it up to the start of this turn: the member's
        # own moves do not change it.
        c = w.catch_up
        told = said_again(c.events, w.seat) if w.spoken else c.events
        caught = catch_up_lines(told, names, locale)
        caught += changes(c.before, c.now, w.seat, names, locale)
        if caught:
            parts += [text("catchup.header", locale), *caught]
    after: list[str] = []
    if not state.over and w.view is not None:
        v = w.view
        after.append(describe.player_line(v, w.seat, names, locale))
        if w.spoken:  # the picture's words are short: the scores are said here
            after.append(scores_line(v, names, locale))
            if w.waiting:  # what the board shows the menu leaves out
                why = closed_line(state, w.legal, names, locale)
                after += [why] if why else []
        # Each fact once for a screen reader: the ships to dock are the roll's until one
        # docks, and the panel needs no reminder.
        rolled = [e for e in events if e.key == "rolled"]
        if not w.spoken or v.pending is not None or not as_rolled(v, rolled):
            after.append(describe.pending_text(v, names, locale))
        after += w.lesson
        after += w.coach
        if w.waiting and not w.spoken:
            after.append(text("turn.hint", locale))
    room = MESSAGE_LIMIT - lines_length([*parts, *after])
    lines = event_lines(events, locale, names, room, w.spoken)
    return said("\n".join([*parts, *lines, *after]), locale, w.spoken, names)


def closed_turn_message(
    events: Sequence[Event],
    *,
    timeout: str | None,
    ai: bool,
    seat: int,
    member: int | None,
    names: Sequence[str],
    locale: str,
    closing: str,
    scores: str,
    spoken: bool,
) -> str:
    """The message of a turn that ended: its header, its lines (as many as fit), the
    closing line (the clock's, the undo's...) and, for a screen reader, the scores when
    they changed (``scores``, "" otherwise)."""
    header = _ended_header(events, timeout, ai, seat, names, locale, member)
    room = MESSAGE_LIMIT - len(header) - len(closing) - len(scores) - 3
    lines = event_lines(events, locale, names, room, spoken)
    parts = [header, *lines, *[closing] * bool(closing), *[scores] * bool(scores)]
    return said("\n".join(parts), locale, spoken, names)


def turn_first_line(
    events: Sequence[Event], *, ai: bool, seat: int, names: Sequence[str], locale: str, spoken: bool
) -> str:
    """The first line of a turn's message as it was posted (``turn_message``), its ping
    left out: what the turn's message sent as text is recognised by once it ended."""
    header = _ended_header(events, None, ai, seat, names, locale, None)
    return said(header, locale, spoken, names).strip()


def _ended_header(
    events: Sequence[Event],
    timeout: str | None,
    ai: bool,
    seat: int,
    names: Sequence[str],
    locale: str,
    member: int | None,
) -> str:
    """The header of a turn read back from its events (its round from its start)."""
    start = next((e for e in events if e.key == "turn_started"), None)
    return turn_header(
        timeout,
        ai,
        locale,
        round=start.params.get("round", "?") if start is not None else "?",
        name=describe.seat_name(seat, names),
        member=member,
    )


def turn_dm(
    where: str,
    link: str,
    catch_up: CatchUp | None,
    seat: int,
    names: Sequence[str],
    locale: str,
    spoken: bool,
) -> str:
    """The DM telling a member their turn began, with what happened since their last turn
    (as the turn message has it)."""
    parts = [text("notify.your_turn", locale, {"where": where, "link": link})]
    if catch_up is not None:
        changed = changes(catch_up.before, catch_up.now, seat, names, locale)
        caught = told_text(catch_up.events, names, locale, changed)
        if caught:
            parts.append(caught)
    return said("\n".join(parts), locale, spoken, names)


__all__ = ["CatchUp", "TurnWords", "closed_turn_message", "said", "turn_dm", "turn_message"]

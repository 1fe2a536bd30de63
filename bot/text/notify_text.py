"""``/af notify``'s and ``/af mygames``' answers in words: how a member hears it is their
turn and whether the screen-reader mode is on; the games they sit in, the ones waiting on
them first, each with where, since when and a link to its message.

Said from the member's preferences (plain values) and the games' rows, with the names and
links Discord's side read for them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from bot.store.rows import GameRow
from bot.text.durations import when
from bot.text.strings import text

MAX_LISTED: Final = 15  # games listed by /af mygames; the rest are counted


def notify_shown(reader_on: bool, mode: str | None, dm_blocked: bool, locale: str) -> str:
    """How the member hears it is their turn (``mode``; None: not asked) and whether the
    bot's DMs to them are blocked, then whether the screen-reader mode is on."""
    lines = [_reader(reader_on, locale)]
    if mode is not None:
        told = [text(f"notify.mode.{mode}", locale)]
        told += [text("notify.blocked", locale)] * dm_blocked
        lines.insert(0, " ".join(told))
    return "\n".join(lines)


def notify_changed(mode: str, dm_reached: bool | None, reader_on: bool | None, locale: str) -> str:
    """The new way the member hears it is their turn; whether the test DM reached them (None:
    no DM in ``mode``); the screen-reader mode if it was set too (else None)."""
    lines = [text(f"notify.mode.{mode}", locale)]
    if dm_reached is not None:
        lines.append(text("notify.dm_ok" if dm_reached else "notify.dm_hint", locale))
    if reader_on is not None:
        lines.append(_reader(reader_on, locale))
    return "\n".join(lines)


def _reader(on: bool, locale: str) -> str:
    return text(f"notify.reader.{'on' if on else 'off'}", locale)


def listed_first(rows: Sequence[GameRow], user: int, guild_id: int | None) -> list[GameRow]:
    """The games /af mygames lists, in order: those waiting on the member, then those of
    this server, the longest waiting first; at most ``MAX_LISTED``."""

    def order(row: GameRow) -> tuple[int, int, float]:
        mine = row.waiting_on_user == user
        here = row.guild_id == guild_id
        return (0 if mine else 1, 0 if here else 1, row.clock_since or row.updated_at)

    return sorted(rows, key=order)[:MAX_LISTED]


@dataclass(frozen=True)
class ListedGame:
    """A game of /af mygames with what Discord's side read for it: its server's name (None
    if unknown), the link to its turn (or lobby) message ("" if none), and who is to act
    (for a game waiting on someone else)."""

    row: GameRow
    server: str | None
    link: str
    player: str = ""


def my_games_text(listed: Sequence[ListedGame], total: int, user: int, locale: str) -> str:
    """/af mygames: how many games, one line for each listed, how many more (or that the
    member sits in none)."""
    if total == 0:
        return text("mygames.none", locale)
    lines = [text("mygames.header", locale, {"count": total})]
    lines += [_game_line(g, user, locale) for g in listed]
    if total > len(listed):
        lines.append(text("catchup.more", locale, {"count": total - len(listed)}))
    return "\n".join(lines)


def _game_line(game: ListedGame, user: int, locale: str) -> str:
    """One game: where, whose turn and since when, and a link to its message."""
    row = game.row
    where = f"<#{row.channel_id}>" + (f" ({game.server})" if game.server is not None else "")
    since = when(row.created_at if row.status == "lobby" else row.clock_since or row.updated_at)
    if row.status == "lobby":
        key, name = "mygames.lobby", ""
    elif row.waiting_on_user == user:
        key, name = "mygames.yours", ""
    else:
        key, name = "mygames.theirs", game.player
    return text(key, locale, {"where": where, "since": since, "link": game.link, "player": name})


__all__ = [
    "MAX_LISTED",
    "ListedGame",
    "listed_first",
    "my_games_text",
    "notify_changed",
    "notify_shown",
]

"""A turn as its messages show it (``bot.play.turn_view``): each delivery asks the service
once, and the member's preferences are read once for a turn's message and its DM, never
used once they changed; on both databases."""

from __future__ import annotations

from collections.abc import Iterable

from bot.factory import build_service
from bot.store.rows import MemberPrefs
from bot.store.storage import Storage
from tests.bot.table import game_between


def counted(store: Storage) -> list[list[int]]:
    """The members whose preferences the service reads from ``store``, read by read."""
    reads: list[list[int]] = []
    read = store.members.prefs

    async def prefs(ids: Iterable[int]) -> dict[int, MemberPrefs]:
        reads.append(sorted(ids))
        return await read(ids)

    store.members.prefs = prefs  # type: ignore[method-assign,assignment]
    return reads


async def test_the_turns_dm_is_told_by_the_prefs_its_message_read_unless_they_changed(
    store: Storage,
) -> None:
    jobs = build_service(store)
    game = await game_between(jobs, channel=10)
    member, turn = game.waiting_on(), game.state.turn_number
    assert member is not None
    await jobs.members.set_turn_notice(member, "dm", "ru")
    reads = counted(store)

    view = await jobs.turns.turn_view(game.id, turn, posting=True)
    assert view is not None and view.member == member and view.panel is not None
    assert view.prefs is not None and (view.prefs.notify, view.prefs.locale) == ("dm", "ru")
    assert len(reads) == 1 and member in reads[0]  # one read: the member and the seated
    told = await jobs.members.turn_notice(game.id, turn, member)
    assert told is not None and (told.prefs.notify, told.prefs.locale) == ("dm", "ru")
    assert len(reads) == 1  # the DM, sent next, is told by what the message read
    assert told.catch_up is not None  # kept for the turn, for the message and the DM alike

    await jobs.members.set_turn_notice(member, "both", "pl")  # changed: what was read is not used
    told = await jobs.members.turn_notice(game.id, turn, member)
    assert told is not None and (told.prefs.notify, told.prefs.locale) == ("both", "pl")
    assert reads[1:] == [[member]]

    assert await jobs.members.turn_notice(game.id, turn + 1, member) is None  # not its turn
    other = next(s.user_id for s in game.seats if s.user_id not in (None, member))
    assert await jobs.members.turn_notice(game.id, turn, other) is None  # not the one to act

"""The game service's results: the record of a finished game, each seat's victory points part
by part, its place and the territory of its first colony, and who played its turns (a
seat's name in the record says which AI, or which member, played most of them). Written
with the move that ends the game (``bot.play.move_service``); ratings follow from it in the
same commit (``bot.store.result_store``).
"""

from __future__ import annotations

from collections import Counter

from bot.play.games import ActiveGame
from bot.store.action_log_store import ActionLogStore
from bot.store.rating_rules import (
    PlayedBy,
    holders_from_json,
    played_by,
    played_json,
    turn_starts,
    turns_by_seat,
)
from bot.store.rows import ActionRow, ResultRow, SeatRow
from bot.text.seat_names import ai_name, replaced_member
from engine import outcome, places, score_parts


class FinalResultsService:
    """A finished game's record."""

    def __init__(self, *, action_log: ActionLogStore) -> None:
        self._action_log = action_log

    async def results_of(self, game: ActiveGame, new_rows: list[ActionRow]) -> list[ResultRow]:
        """The record of a finished game: each seat's VP part by part, the winners, and the
        territory of each seat's first colony (from the logged events)."""
        state = game.state
        ended = outcome(state)
        assert ended is not None
        place = places(state)
        first: dict[int, str] = {}
        logged = [*await self._action_log.actions(game.id), *new_rows]
        turns = turns_by_seat((a.actor, a.user_id, a.events) for a in logged)
        by = played_by(
            turn_starts((a.seq, a.actor, a.user_id, a.events) for a in logged),
            {s.seat: holders_from_json(s.holders) for s in game.seats},
            {s.seat: (s.user_id, s.ai_level) for s in game.seats},
        )
        for row in logged:
            for e in row.events:
                seat, territory = e.get("player"), e.get("params", {}).get("territory")
                if e.get("key") == "colony_placed" and isinstance(seat, int):
                    first.setdefault(seat, str(territory))
        out = []
        for s in game.seats:
            parts = score_parts(state, s.seat)
            member = s.user_id if s.user_id is not None else s.former_user_id
            played = turns.get(s.seat, Counter())
            out.append(
                ResultRow(
                    seat=s.seat,
                    user_id=member,
                    ai_level=s.ai_level,
                    name=_played_name(s, by.get(s.seat, ()), played, game.row.locale),
                    vp=ended.scores[s.seat],
                    vp_colonies=parts.colonies,
                    vp_territories=parts.territories,
                    vp_positron=parts.positron,
                    vp_cards=parts.cards,
                    winner=s.seat in ended.winners,
                    first_territory=first.get(s.seat),
                    place=place[s.seat],
                    turns=sum(played.values()),
                    own_turns=played.get(member, 0) if member is not None else 0,
                    bot_turns=played.get(None, 0),
                    played_by=played_json(by.get(s.seat, ())),
                )
            )
        return out


def _played_name(seat: SeatRow, played: PlayedBy, moves: Counter[int | None], locale: str) -> str:
    """A seat's name in the game's record, by who played it: a member's as it is; an
    AI's by the level that played most of its AI turns, with the name of the member who
    left it only if they played some of its turns themselves (``moves``: who played each
    turn) — "alt (AI hard)" for a seat the easy AI played but for its last turn, alt
    never, is "AI 2 (easy)"."""
    if seat.ai_level is None:
        return seat.name
    levels: Counter[str] = Counter()
    for _, level, n in played:
        if level is not None:
            levels[level] += n
    level = levels.most_common(1)[0][0] if levels else seat.ai_level
    former = seat.former_user_id
    member = None
    if former is not None and moves.get(former, 0) > 0:
        member = replaced_member(seat.name, seat.ai_level)
    if level == seat.ai_level and (member is None) == (former is None):
        return seat.name
    return ai_name(level, seat.seat + 1, member, locale)  # type: ignore[arg-type]

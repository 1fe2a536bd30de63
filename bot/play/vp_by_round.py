"""The story of a finished game in numbers: each player's victory points round by round,
replayed from the game's stored action log (its notations), for the chart posted when
the game ends (``bot.render.charts.vp_chart``).

The log is the only record of the game, so the story is rebuilt from it, never stored
beside it: replaying it under the config the game was played with (``GameSettings.engine``)
gives the exact states again (chance outcomes are actions of the log).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import GameConfig, GameState, apply_in_place, new_game, parse, victory_points


def _scores(state: GameState) -> list[int]:
    return [victory_points(state, p) for p in range(state.num_players)]


def vp_by_round(config: GameConfig, notations: Sequence[str]) -> list[list[int]]:
    """Each player's VP (seat order) at the end of every round played: index 0 is the end
    of round 1, the last entry the score when the log ends (a finished game's final VP,
    as ``engine.scoring`` counts them, its last round possibly cut short by R-END-2).

    A round ends when the next one's first turn starts; starting a turn only gathers
    ships (R-TURN-1), which moves no VP, so the VP just after the action that started
    it are those the round ended with. Pure: no I/O (a whole game replays in
    milliseconds, the unchecked door, recording no events).
    """
    state = new_game(config).copy_unrecorded()
    rounds: list[list[int]] = []
    played = state.round
    for notation in notations:
        apply_in_place(state, parse(notation))
        if state.round != played:
            rounds.append(_scores(state))
            played = state.round
    rounds.append(_scores(state))  # the round the log ends in, finished or not
    return [[scores[p] for scores in rounds] for p in range(state.num_players)]


__all__ = ["vp_by_round"]

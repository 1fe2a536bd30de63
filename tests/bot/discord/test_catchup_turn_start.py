"""The turn message's catch-up compares the board as the member's previous turn ended with
the board as this turn began: their own moves in the turn (a raid on a player the catch-up
names) never rewrite it, on any edit of the message nor after a restart; a screen reader
hears again the colonies placed, the changes of control and the raids on the member."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from typing import Any, cast

from bot.discord.announce import Announcer
from bot.play.games import ActiveGame, event_data, new_events
from bot.play.story_service import StoryService
from bot.play.turn_view import keep_catch_up, view_of
from bot.store.game_config import GameSettings
from bot.store.rows import ActionRow, GameRow, SeatRow
from bot.text import catchup, describe
from engine import CHANCE, GameConfig, legal_actions, sample_chance
from engine.actions import Action, Dock, StealResource
from engine.game import Game
from engine.state import Event

NAMES = ["Anna", "Boris", "Celina"]
HEADER = "📰 Since your last turn:"


@dataclass
class Log:
    """The action log as the store keeps it (``actions_since``, ``actions``)."""

    rows: list[ActionRow] = field(default_factory=list)

    async def actions(self, game_id: int) -> list[ActionRow]:
        return list(self.rows)

    async def actions_since(self, game_id: int, seat: int) -> list[ActionRow]:
        last = max((r.seq for r in self.rows if r.actor == seat), default=-1)
        return [r for r in self.rows if r.seq > last]

    @property
    def action_log(self) -> Log:
        """The store's area of the log (``store.action_log``): this fake is that area alone."""
        return self


@dataclass
class Service:
    store: Log

    async def since_last_turn(self, game_id: int, seat: int) -> list[ActionRow]:
        # The story's own reading of the log, on this log (its area of the store).
        unused = cast(Any, None)
        story = StoryService(
            readers=unused,
            game_rows=unused,
            seat_rows=unused,
            action_log=cast(Any, self.store.action_log),
            results=unused,
        )
        return await story.since_last_turn(game_id, seat)


def play(game: Game, log: Log, action: Action) -> None:
    """Apply ``action`` and log it with its events, as the bot commits a move."""
    before = game.state
    actor = before.to_act()
    game.apply(action)
    events = event_data(new_events(before, game.state))
    log.rows.append(ActionRow(len(game.log) - 1, actor, None, str(action), events))


def active(game: Game, spoken: bool = False) -> ActiveGame:
    row = GameRow(
        id=1,
        guild_id=1,
        channel_id=2,
        host_id=100,
        status="playing",
        max_players=3,
        seed=1,
        locale="en",
        lobby_message_id=None,
        turn_message_id=3,
        turn_message_turn=game.state.turn_number,
        waiting_on_user=None,
        reminded_at=None,
        created_at=0.0,
        updated_at=0.0,
        config=GameSettings(),
    )
    seats = [
        SeatRow(seat=0, user_id=100, ai_level=None, name=NAMES[0]),
        *(SeatRow(seat=i, user_id=None, ai_level="normal", name=NAMES[i]) for i in (1, 2)),
    ]
    return ActiveGame(row, seats, game, spoken=spoken)


def raid_turn(seed: int) -> tuple[Game, Log, Dock] | None:
    """A seeded game played at random up to Anna's (seat 0) turn, after her first, where
    she may dock at the Raiders' Outpost, with its log; None if the game gives none."""
    rng = random.Random(seed)
    game, log = Game(GameConfig(players=3)), Log()
    turns = 0
    while not game.state.over and len(game.log) < 600:
        s = game.state
        if s.to_act() == CHANCE:
            play(game, log, sample_chance(s, rng))
            continue
        actions = legal_actions(s)
        if s.current == 0 and s.turn_number != turns:
            turns = s.turn_number
            raid = next(
                (a for a in actions if isinstance(a, Dock) and a.facility == "raiders"), None
            )
            if raid is not None and s.turn_number > 3:
                return game, log, raid
        play(game, log, rng.choice(actions))
    return None


def catch_up(message: str, roll: str) -> list[str]:
    """The catch-up's lines of a turn message: from its header to the turn's roll."""
    lines = message.splitlines()
    assert HEADER in lines, message
    start = lines.index(HEADER)
    return lines[start : lines.index(roll, start)]


async def turn_texts(spoken: bool) -> tuple[str, str, str, str, Log]:
    """Anna's turn message as her turn began, after her raid, and after a restart, the
    line of her roll, and the game's log."""
    found = next(f for f in map(raid_turn, range(40)) if f is not None)
    game, log, raid = found
    service = Service(log)  # what the turn's view reads the log with
    announcer = Announcer()
    held = active(game, spoken)
    await keep_catch_up(held, service.since_last_turn)
    rolled = next(e for e in game.state.events if e.key == "rolled" and e.player == 0)
    roll = "• " + describe.event_line(rolled, "en", NAMES)
    first = announcer.turn_text(view_of(held))
    play(game, log, raid)  # Anna docks at the Raiders' Outpost and takes from another
    steal = next(a for a in legal_actions(game.state) if isinstance(a, StealResource))
    play(game, log, steal)
    edited = announcer.turn_text(view_of(held))
    restarted = active(game, spoken)  # a restart: the game read again, the catch-up again
    await keep_catch_up(restarted, service.since_last_turn)
    again = announcer.turn_text(view_of(restarted))
    return first, edited, again, roll, log


def test_the_catch_up_is_the_same_after_the_members_own_raid_in_the_turn() -> None:
    first, edited, again, roll, _ = asyncio.run(turn_texts(spoken=False))
    said = catch_up(first, roll)
    assert len(said) > 1, said  # the catch-up says something to keep
    assert catch_up(edited, roll) == said  # the message edited after the raid
    assert catch_up(again, roll) == said  # the message made again after a restart


def test_the_turn_window_ends_where_the_members_turn_began() -> None:
    *_, log = asyncio.run(turn_texts(spoken=False))
    window = catchup.turn_window(log.rows, 0)
    assert window
    assert any(e["key"] == "turn_started" and e["player"] == 0 for e in window[-1].events)
    assert all(r.actor != 0 for r in window)  # none of Anna's moves, before or in the turn
    assert log.rows[window[0].seq - 1].actor == 0  # from the end of her previous turn


def test_a_screen_reader_hears_the_colonies_control_and_raids_on_them_again() -> None:
    """Screen-reader mode dropped every event of the catch-up (each turn was said as it
    ended): colonies placed, control won or lost and raids on the member were not said."""
    events = [
        Event("docked", 1, {"values": "3", "facility": "solar"}, 0),
        Event("colony_placed", 1, {"territory": "heinlein"}, 0),
        Event("control_gained", 1, {"territory": "heinlein"}, 0),
        Event("control_lost", 0, {"territory": "heinlein"}, 0),
        Event("stole_resource", 2, {"resource": "ore", "victim": 0}, 0),
        Event("stole_resource", 2, {"resource": "ore", "victim": 1}, 0),
        Event("stole_card", 1, {"card": "plasma", "victim": 0}, 0),
        Event("claimed", 2, {"card": "warper"}, 0),
    ]
    assert catchup.said_again(events, 0) == [events[i] for i in (1, 2, 3, 4, 6)]
    first, edited, again, _, log = asyncio.run(turn_texts(spoken=True))
    block = spoken_catch_up(first)
    assert block == spoken_catch_up(edited) == spoken_catch_up(again)
    window = catchup.turn_window(log.rows, 0)
    assert window is not None
    told = catchup.said_again(catchup.since_last_turn(window, 0), 0)
    assert told, "the seeded game would check nothing"
    for e in told:
        assert describe.event_line(e, "en", NAMES) in block


def spoken_catch_up(message: str) -> list[str]:
    """The catch-up's lines of a turn message for a screen reader (no bullets): from its
    header to the turn's roll."""
    lines = message.splitlines()
    start = lines.index("Since your last turn:")
    return lines[start : next(i for i, x in enumerate(lines) if x.startswith("rolls "))]

"""Catch-up: what the others did since a member's last turn, as a few sentences."""

from __future__ import annotations

import random
from typing import Any

from bot.store.rows import ActionRow
from bot.text.catchup import (
    MAX_LINES,
    board_then,
    catch_up_text,
    changes,
    lines,
    since_last_turn,
)
from engine import CHANCE, GameConfig, legal_actions, sample_chance
from engine.game import Game
from tests.engine.scenario import scenario

NAMES = ["Anna", "Boris", "Celina"]


def row(seq: int, actor: int, *events: tuple[str, int | None, dict[str, Any]]) -> ActionRow:
    data = [{"key": k, "player": p, "params": params} for k, p, params in events]
    return ActionRow(seq=seq, actor=actor, user_id=None, notation="x", events=data)


def test_only_the_others_notable_moves_since_the_members_last_turn() -> None:
    log = [
        row(0, 0, ("colony_placed", 0, {"territory": "lem"})),  # Anna's own, before
        row(1, 0, ("turn_ended", 0, {})),
        row(2, 1, ("docked", 1, {"values": "3", "facility": "solar"})),  # not notable
        row(3, 1, ("colony_placed", 1, {"territory": "heinlein"})),
        row(4, 1, ("control_gained", 1, {"territory": "heinlein"})),
        row(5, 1, ("stole_resource", 1, {"resource": "ore", "victim": 0})),
        row(6, 1, ("stole_resource", 1, {"resource": "ore", "victim": 0})),
        row(7, 1, ("stole_resource", 1, {"resource": "fuel", "victim": 2})),  # not Anna's
        row(8, 2, ("claimed", 2, {"card": "plasma"})),
        row(9, 2, ("ship_removed", 0, {"facility": "mine", "value": 4})),  # Anna's ship hit
        row(10, 2, ("field_placed", 2, {"field": "isolation", "territory": "lem"})),
    ]
    events = since_last_turn(log, 0)
    assert [e.key for e in events] == [
        "colony_placed",
        "control_gained",
        "stole_resource",
        "stole_resource",
        "claimed",
        "ship_removed",
        "field_placed",
    ]
    said = lines(events, NAMES, "en")
    assert said == [
        "• Boris places a colony on Heinlein Plains",
        "• Boris takes control of Heinlein Plains",
        "• Boris steals 2 ore from you",  # the raid summed up, where it began
        "• Celina claims Plasma Cannon",
        "• Anna's 4 is blasted from the Lunar Mine",
        "• Celina puts the Isolation Field on Lem Badlands",
    ]
    text = catch_up_text(log, 0, NAMES, "en")
    assert text.startswith("📰 Since your last turn:\n• Boris places a colony")


def test_a_quiet_table_says_nothing_and_a_busy_one_is_cut_short() -> None:
    quiet = [row(0, 0, ("turn_ended", 0, {})), row(1, 1, ("docked", 1, {"values": "1"}))]
    assert catch_up_text(quiet, 0, NAMES, "en") == ""
    busy = [row(0, 0)] + [
        row(i, 1, ("colony_placed", 1, {"territory": "lem"})) for i in range(1, 20)
    ]
    said = lines(since_last_turn(busy, 0), NAMES, "en")
    assert len(said) == MAX_LINES and said[-1] == "• … and 12 more"


def test_catch_up_is_in_the_readers_language() -> None:
    log = [row(0, 0), row(1, 1, ("stole_resource", 1, {"resource": "fuel", "victim": 0}))]
    ru = catch_up_text(log, 0, NAMES, "ru")
    assert "Boris" in ru and "Since your last turn" not in ru


def test_the_others_resources_and_hub_tracks_since_the_members_last_action() -> None:
    """What the events do not say (a trade, a solar dock, the hub track) is read from the
    board as it was after the member's last action, replayed from the log."""
    rng = random.Random(5)
    game = Game(GameConfig(players=3))
    seq_of_last: int | None = None
    while len(game.log) < 140:
        s = game.state
        if s.to_act() != CHANCE and s.current == 0:
            seq_of_last = len(game.log)  # Anna acts: her last action so far
        game.apply(sample_chance(s, rng) if s.to_act() == CHANCE else rng.choice(legal_actions(s)))
    assert seq_of_last is not None
    rows = [row(i, 1) for i in range(seq_of_last + 1, len(game.log))]
    then = board_then(game.config, game.log, rows)
    assert then is not None and then.version < game.state.version
    said = changes(then, game.state, 0, NAMES, "en")
    for p in (1, 2):
        was, now = then.players[p], game.state.players[p]
        line = next((x for x in said if x.startswith(f"• {NAMES[p]}: ")), "")
        assert (f"fuel {now.fuel} (" in line) == (was.fuel != now.fuel), line
        assert (f"ore {now.ore} (" in line) == (was.ore != now.ore), line
        assert ("Colony Hub track" in line) == (was.hub != now.hub), line
    assert not any(x.startswith(f"• {NAMES[0]}:") for x in said)  # not the member's own
    assert said, "the test would check nothing"
    shown = catch_up_text(rows, 0, NAMES, "en", said)
    assert shown.endswith(said[-1])
    assert board_then(game.config, game.log, []) is None  # nothing since: nothing to compare


def test_a_change_in_numbers() -> None:
    before = scenario(3, fuel=[1, 2, 3], ore=[0, 5, 1], hub={1: 2})
    after = scenario(3, fuel=[1, 6, 3], ore=[0, 4, 1], hub={1: 4})
    assert changes(before, after, 0, NAMES, "en") == [
        "• Boris: fuel 6 (+4), ore 4 (−1), Colony Hub track: space 4 of 7"
    ]
    assert changes(before, after, 1, NAMES, "ru") == []  # Celina did nothing; Boris is asking


def test_cards_discarded_are_said_and_what_each_holds_now() -> None:
    """The expert heard "AI 1 claims Plasma Cannon" for a card AI 1 discarded in the same
    turn, and never heard of a discard (Temporal Warper, Resource Cache)."""
    log = [
        row(0, 0, ("turn_ended", 0, {})),
        row(1, 1, ("claimed", 1, {"card": "plasma"})),
        row(2, 1, ("card_discarded", 1, {"card": "plasma"})),
        row(3, 2, ("cache_spent", 2, {})),
        row(4, 2, ("card_discarded", 2, {"card": "warper"})),
        row(5, 2, ("took_from_discard", 2, {"card": "plasma"})),
    ]
    said = lines(since_last_turn(log, 0), NAMES, "en")
    assert said == [
        "• Boris claims Plasma Cannon",
        "• Boris discards Plasma Cannon",
        "• Celina's Resource Cache is discarded",
        "• Celina discards Temporal Warper",
        "• Celina takes Plasma Cannon from the discard pile",
    ]
    before = scenario(3, cards={1: [], 2: ["cache", "warper"]})
    after = scenario(3, cards={1: [], 2: ["plasma"]})
    assert changes(before, after, 0, NAMES, "en") == ["• Celina: now holds Plasma Cannon"]
    emptied = scenario(3, cards={2: []})
    assert changes(before, emptied, 0, NAMES, "en") == ["• Celina: now holds no card"]
    assert changes(before, emptied, 0, NAMES, "ru") == ["• Celina: на руках теперь нет карт"]


def test_before_the_members_first_turn_the_changes_are_since_the_start() -> None:
    """The first turn's catch-up had no resource lines: there was no turn of the member to
    compare with. It compares with the board the game started from."""
    rng = random.Random(3)
    game = Game(GameConfig(players=3))
    while len(game.log) < 40:
        s = game.state
        game.apply(sample_chance(s, rng) if s.to_act() == CHANCE else rng.choice(legal_actions(s)))
    rows = [row(i, 1) for i in range(len(game.log))]  # seat 2 has not acted yet
    replayed = Game(game.config)
    first = 0
    while not any(e.key == "turn_started" for e in replayed.state.events):
        replayed.apply(game.log[first])  # until the action that began the first turn
        first += 1
    first -= 1
    rows[first] = row(first, CHANCE, ("turn_started", 0, {"round": 1}))
    then = board_then(game.config, game.log, rows)
    assert (
        then is not None
        and then.version == Game.replay(game.config, game.log[: first + 1]).state.version
    )
    assert changes(then, game.state, 2, NAMES, "en")
    # The first player's first turn: nothing happened since the start's message said it.
    assert changes(then, replayed.state, 0, NAMES, "en") == []


def test_a_colony_is_said_before_the_control_it_took() -> None:
    log = [
        row(0, 0, ("turn_ended", 0, {})),
        row(
            1,
            1,
            ("control_gained", 1, {"territory": "lem"}),
            ("control_lost", 2, {"territory": "lem"}),
        ),
        row(2, 1, ("colony_placed", 1, {"territory": "lem"})),
    ]
    assert lines(since_last_turn(log, 0), NAMES, "en") == [
        "• Boris places a colony on Lem Badlands",
        "• Boris takes control of Lem Badlands",
        "• Celina loses control of Lem Badlands",
    ]

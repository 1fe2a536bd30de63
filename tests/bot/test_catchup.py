"""Catch-up: what the others did since a member's last turn, as a few sentences."""

from __future__ import annotations

from typing import Any

from bot.store.storage import ActionRow
from bot.text.catchup import MAX_LINES, catch_up_text, lines, since_last_turn

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

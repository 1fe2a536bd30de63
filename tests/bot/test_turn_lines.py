"""A turn message lists every action of its turn (an AI's turn of 40 events was cut to 20
lines and "… (7 more)"), or says where the rest is when Discord's 2,000 characters run
out."""

from __future__ import annotations

from bot.discord.announce import event_lines
from engine.state import Event

NAMES = ["Ann", "AI 1 (easy)"]


def docks(n: int) -> list[Event]:
    return [
        Event("turn_started", 1, {"round": 3}, 0),
        Event("rolled", 1, {"values": "1 2 3"}, 0),
    ] + [Event("docked", 1, {"facility": "solar", "values": str(1 + i % 6)}, 0) for i in range(n)]


def test_every_action_of_a_long_turn_is_listed() -> None:
    lines = event_lines(docks(35), "en", NAMES)
    assert len(lines) == 36  # the roll and the 35 docks: none left out
    assert lines[0] == "• AI 1 (easy) rolls 1 2 3"
    assert not any("more" in line for line in lines)


def test_what_does_not_fit_a_message_is_said_to_be_in_the_log() -> None:
    events = docks(120)
    lines = event_lines(events, "en", NAMES, room=1500)
    assert sum(len(line) + 1 for line in lines) <= 1500
    assert lines[0] == "• AI 1 (easy) rolls 1 2 3"  # the roll, then how many are left out
    hidden = 121 - 1 - (len(lines) - 2)  # all but the roll and the latest shown
    assert lines[1] == f"• … {hidden} more, in `/af log`"
    assert lines[-1] == "• AI 1 (easy) docks 6 at the Solar Converter"  # the latest kept
    for locale in ("ru", "pl"):
        said = event_lines(events, locale, NAMES, room=1500)
        assert sum(len(line) + 1 for line in said) <= 1500
        assert "/af log" in said[1]


def test_for_a_screen_reader_the_turns_own_lines_start_with_the_verb() -> None:
    """Under "Round 3, AI 1 (easy)'s turn" each fact once: "docks 1 at…", not "AI 1 (easy)
    docks 1 at…" (whose digits run into the dice); the others keep their names, and the
    turn's own name is said where it is not the subject."""
    events = [
        *docks(2),
        Event("control_lost", 0, {"territory": "lem"}, 0),
        Event(
            "colonies_swapped",
            1,
            {"owner_a": 1, "territory_a": "lem", "owner_b": 0, "territory_b": "pohl"},
            0,
        ),
        Event("hub_advanced", 1, {"space": 3}, 0),
        Event("turn_ended", 1, {}, 0),
    ]
    lines = event_lines(events, "en", NAMES, spoken=True)
    assert lines[:3] == [
        "• rolls 1 2 3",
        "• docks 1 at the Solar Converter",
        "• docks 2 at the Solar Converter",
    ]
    assert lines[3] == "• Ann loses control of Lem Badlands"
    assert lines[4].startswith("• swaps AI 1 (easy)'s colony on Lem Badlands")
    assert lines[5] == "• colony moves to space 3 of the Colony Hub"
    assert len(lines) == 6  # the turn's end is the next turn's header
    assert not any("\x00" in line for line in lines)
    said = event_lines(events, "en", NAMES)
    assert said[0] == "• AI 1 (easy) rolls 1 2 3" and said[-1] == "• AI 1 (easy) ends the turn"

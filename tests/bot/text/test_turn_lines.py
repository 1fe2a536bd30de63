"""A turn message lists every action of its turn (an AI's turn of 40 events was cut to 20
lines and "… (7 more)"), or says where the rest is when Discord's 2,000 characters run
out."""

from __future__ import annotations

from bot.text.turn_text import event_lines
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
    """Under "Round 3, AI 1 (easy)'s turn" each fact once: "docks 1 2 at…", not "AI 1 (easy)
    docks 1 at…" (whose digits run into the dice); the others keep their names, and after
    a line naming another player the turn's own lines name their subject again (a line
    without one would seem to be that player's)."""
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
    assert lines == [
        "• rolls 1 2 3",
        "• docks 1 2 at the Solar Converter",
        "• Ann loses control of Lem Badlands",
        "• AI 1 (easy) swaps AI 1 (easy)'s colony on Lem Badlands with Ann's on Pohl Foothills",
        "• AI 1 (easy)'s colony moves to space 3 of the Colony Hub",
    ]  # the turn's end is the next turn's header
    said = event_lines(events, "en", NAMES)
    assert said[0] == "• AI 1 (easy) rolls 1 2 3" and said[-1] == "• AI 1 (easy) ends the turn"


def test_for_a_screen_reader_what_repeats_is_said_once() -> None:
    """The expert heard "steals 1 ore from…" four times, three ships driven off in three
    lines, "X is revealed" three times, a dock and its fuel in two lines each, "1 is driven
    from the Raiders' Outpost" (whose?), "is done", and "takes control of Lem Badlands"
    before the colony that took it."""
    e = Event
    events = [
        e("turn_started", 1, {"round": 4}, 0),
        e("rolled", 1, {"values": "4 4 5"}, 0),
        e("docked", 1, {"facility": "solar", "values": "4"}, 0),
        e("gained_fuel", 1, {"amount": 2}, 0),
        e("docked", 1, {"facility": "solar", "values": "4"}, 0),
        e("gained_fuel", 1, {"amount": 2}, 0),
        e("docked", 1, {"facility": "raiders", "values": "3 4 5"}, 0),
        e("displaced", 1, {"value": 1}, 0),
        e("displaced", 0, {"value": 2}, 0),
        e("displaced", 0, {"value": 3}, 0),
        *[e("stole_resource", 1, {"resource": "ore", "victim": 0}, 0) for _ in range(3)],
        e("stole_resource", 1, {"resource": "fuel", "victim": 0}, 0),
        e("stopped", 1, {}, 0),
        *[e("revealed", None, {"card": c}, 0) for c in ("plasma", "helm", "cache")],
        e("control_gained", 1, {"territory": "lem"}, 0),
        e("control_lost", 0, {"territory": "lem"}, 0),
        e("colony_placed", 1, {"territory": "lem"}, 0),
    ]
    assert event_lines(events, "en", NAMES, spoken=True) == [
        "• rolls 4 4 5",
        "• docks 4 4 at the Solar Converter, gains 4 fuel",
        "• docks 3 4 5 at the Raiders' Outpost",
        "• has a ship driven from the Raiders' Outpost: 1",
        "• Ann has 2 ships driven from the Raiders' Outpost: 2, 3",
        "• AI 1 (easy) steals 1 fuel + 3 ore from Ann",
        "• 3 cards are revealed: Plasma Cannon, Mind Control Helm, Resource Cache",
        "• places a colony on Lem Badlands",
        "• takes control of Lem Badlands",
        "• Ann loses control of Lem Badlands",
    ]
    for locale in ("ru", "pl"):  # every line in the language's own words, none empty
        said = event_lines(events, locale, NAMES, spoken=True)
        assert len(said) == 10 and all(len(line) > 8 for line in said), said


def test_for_a_screen_reader_a_dock_and_what_it_did_are_one_line() -> None:
    e = Event
    events = [
        e("turn_started", 1, {"round": 3}, 0),
        e("rolled", 1, {"values": "1 4 5"}, 0),
        e("docked", 1, {"facility": "hub", "values": "1 4"}, 0),
        e("hub_advanced", 1, {"space": 2}, 0),
        e("docked", 1, {"facility": "hub", "values": "5"}, 0),
        e("hub_advanced", 1, {"space": 3}, 0),
        e("docked", 1, {"facility": "yard", "values": "2 2"}, 0),
        e("ship_built", 1, {"number": 4}, 0),
    ]
    assert event_lines(events, "en", NAMES, spoken=True) == [
        "• rolls 1 4 5",
        "• docks 1 4 5 at the Colony Hub, AI 1 (easy)'s colony moves to space 3 of the Colony Hub",
        "• docks 2 2 at the Shipyard, builds a ship (4 in play)",
    ]


def test_for_a_screen_reader_a_cycle_says_its_cards_and_a_cache_pays_before_it_goes() -> None:
    e = Event
    events = [
        e("turn_started", 1, {"round": 3}, 0),
        e("rolled", 1, {"values": "1 2 2"}, 0),
        e("cache_spent", 1, {}, 0),
        e("cache_paid", 1, {"fuel": 1, "ore": 1}, 0),
        e("docked", 1, {"facility": "artifact", "values": "2"}, 0),
        e("cycled", 1, {}, 0),
        *[e("revealed", None, {"card": c}, 0) for c in ("plasma", "helm", "cache")],
    ]
    assert event_lines(events, "en", NAMES, spoken=True) == [
        "• rolls 1 2 2",
        "• AI 1 (easy)'s Resource Cache pays 1 fuel and 1 ore",
        "• AI 1 (easy)'s Resource Cache is discarded",
        "• docks 2 at the Alien Artifact",
        "• cycles the alien tech display: Plasma Cannon, Mind Control Helm, Resource Cache turn up",
    ]

"""The action panel: the same rows at every step, one pick per docking choice and per raid,
long choices in two steps, every legal action reachable within Discord's limits."""

from __future__ import annotations

import random
import re
from typing import Any

import discord

from bot.discord.components import ActionButton, ActionSelect, HintButton, PageButton, UndoButton
from bot.discord.panel import build_panel
from bot.play.choice_tree import ROOTS, Branch, Choices, Leaf, split_moves
from bot.play.choices import choices, menu, path_to
from bot.text.describe import action_label
from bot.text.strings import text
from bot.text.why_not import closed_line
from engine import (
    CHANCE,
    GameConfig,
    GameState,
    apply,
    legal_actions,
    parse,
    refusal,
    sample_chance,
)
from engine.game import Game
from engine.rulebook import RULEBOOK
from tests.engine.scenario import act, game_states, scenario

NAMES = ["Ann", "Bob", "Cleo", "Dan"]


def components(view: discord.ui.View) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = view.to_components()
    return rows


def check_limits(view: discord.ui.View) -> None:
    rows = components(view)
    assert len(rows) <= 5
    ids = []
    for row in rows:
        items = row["components"]
        assert len(items) <= 5
        if any(i["type"] == 3 for i in items):
            assert len(items) == 1
        for item in items:
            ids.append(item["custom_id"])
            assert len(item["custom_id"]) <= 100
            if item["type"] == 2:
                assert 1 <= len(item["label"]) <= 80
            else:
                assert 1 <= len(item["options"]) <= 25
                assert len(item.get("placeholder", "")) <= 150
                labels = [o["label"] for o in item["options"]]
                assert len(set(labels)) == len(labels), labels
                for option in item["options"]:
                    assert 1 <= len(option["label"]) <= 100 and len(option["value"]) <= 100
                    assert len(option.get("description") or "") <= 100
    assert len(ids) == len(set(ids))


def panel(state: GameState, **kw: Any) -> discord.ui.View:
    return build_panel(1, state.version, choices(state, NAMES, "en", 3), **kw)


def reachable(state: GameState, **kw: Any) -> set[tuple[str, ...]]:
    """Every pick the panel can send, following steps and pages like a player would."""
    found: set[tuple[str, ...]] = set()
    seen: set[tuple[str | None, int]] = set()
    todo: list[tuple[str | None, int]] = [(None, 0)]
    while todo:
        path, page = todo.pop()
        if (path, page) in seen:
            continue
        seen.add((path, page))
        view = panel(state, open_path=path, page=page, **kw)
        check_limits(view)
        for item in view.children:
            if isinstance(item, ActionButton) and not item.item.disabled:
                found.add((item.move,))
            elif isinstance(item, ActionSelect) and not item.item.disabled:
                for o in item.item.options:
                    if o.value.startswith("@"):
                        todo.append((o.value[1:], 0))
                    else:
                        found.add(tuple(split_moves(o.value)))
            elif isinstance(item, PageButton):
                todo.append((None if item.path == "-" else item.path, item.page))
    return found


def rows_of(view: discord.ui.View) -> list[list[str]]:
    """Each row's components by kind and path: ``s:d``, ``a:end``, ``u``, ``h``, ``n``."""
    out: list[list[str]] = []
    for row in components(view):
        kinds = []
        for c in row["components"]:
            parts = c["custom_id"].split(":")
            kinds.append(f"s:{parts[4]}" if parts[1] == "s" else ":".join(parts[1:2] + parts[4:5]))
        out.append(kinds)
    return out


def test_every_legal_action_is_reachable_within_discord_limits() -> None:
    rng = random.Random(11)
    checked = 0
    biggest = 0
    for players in (4, 4, 3):
        game = Game(GameConfig(players=players, mind_control_helm=True))
        while not game.state.over and checked < 1200:
            s = game.state
            if s.to_act() == CHANCE:
                game.apply(sample_chance(s, rng))
                continue
            actions = legal_actions(s)
            biggest = max(biggest, len(actions))
            if checked % 9 == 0 or len(actions) > 25:
                # With a screen reader (``spoken``) an empty row is left out: nothing else.
                picks = reachable(s, can_undo=checked % 2 == 0, spoken=checked % 3 == 0)
                singles = {p[0] for p in picks if len(p) == 1}
                assert singles == {str(a) for a in actions}
                for pick in picks:  # every macro is legal, one action after the other
                    t = s
                    for move in pick:
                        t = apply(t, parse(move))
            checked += 1
            game.apply(rng.choice(actions))
    assert biggest > 25  # the two-step path was exercised


def test_every_facility_open_now_is_in_a_menu_without_a_step() -> None:
    """Issue 42's report of seed 11, round 10 (3 seats, screen reader; 1 1 3 3 to dock,
    one free dock at the Alien Artifact): docking 1 or 3 there is legal and the docking menu
    offers both itself, last of its facilities; the longer ways of docking at the Solar
    Converter, Lunar Mine and Colony Hub are in "More choices…". Every legal dock is an
    option of a menu without opening a step, and no facility is closed: no "Closed now:"."""
    s = scenario(
        3,
        undocked="1 1 3 3",
        docks={
            "yard": "p3:4 p3:4",
            "constructor": "p2:5 p2:5 p2:5",
            "artifact": "p2:2 p2:3 p2:3 -",
            "raiders": "p3:1 p3:2 p3:3",
        },
        colonies={
            "heinlein": (1, 0, 0),
            "vanvogt": (1, 0, 0),
            "bradbury": (0, 1, 0),
            "lem": (0, 0, 1),
        },
        fuel=[4, 5, 0],
        ore=[4, 1, 1],
        cards={0: ["booster"], 1: ["teleporter"], 2: ["polarity", "city", "monument"]},
        hub={0: 1, 1: 3, 2: 4},
        fields={"repulsor": "lem"},
        display=("stasis", "teleporter", "crystal"),
    )
    docks = {str(a) for a in legal_actions(s) if str(a).startswith("dock ")}
    assert {"dock artifact 1", "dock artifact 3"} <= docks
    view = panel(s, spoken=True)
    menus = {
        str(item.item.custom_id).split(":")[4]: [o.value for o in item.item.options]
        for item in view.children
        if isinstance(item, ActionSelect)
    }
    shown = {v for values in menus.values() for v in values}
    assert docks <= shown
    assert {"dock artifact 1", "dock artifact 3"} <= set(menus["d"])
    assert closed_line(s, legal_actions(s), NAMES[:3]) is None


def test_a_territory_the_repulsor_field_closes_is_not_offered_R_FIELD_REP() -> None:
    """The launch list leaves out the territory under the Repulsor Field because the
    engine refuses a colony there, and only that one: every legal placement is offered.
    Where a territory is chosen (the launch's pick, the Colony Constructor's decision),
    the turn message's "Closed now:" line names it with the engine's reason: a player
    who cannot see the board learns why it is missing (issue 42)."""
    s = scenario(3, hub={0: 7}, fuel=[2, 0, 0], ore=[2, 0, 0], fields={"repulsor": "lem"})
    picks = reachable(s)
    placed = {p[-1].removeprefix("place ") for p in picks if p[0] == "launch" and len(p) == 2}
    assert "lem" not in placed and len(placed) == 7
    launched = act(s, "launch")
    assert placed == {str(a).removeprefix("place ") for a in legal_actions(launched)}
    assert refusal(launched, parse("place lem")) == (
        "colony.repulsor",
        {"territory": "lem"},
    )
    why = text("colony.repulsor", "en", {"territory": "lem"})
    assert "Lem Badlands" in why
    said = f"Closed now: {why[:1].upper()}{why[1:]}."
    assert closed_line(s, legal_actions(s), NAMES[:3]) == said  # launch and where, one pick
    assert closed_line(launched, legal_actions(launched), NAMES[:3]) == said
    built = act(
        scenario(3, undocked="3 3 3", ore=3, fields={"repulsor": "lem"}),
        "dock constructor 3 3 3",
    )
    assert closed_line(built, legal_actions(built), NAMES[:3]) == said
    # Said only where a territory is chosen, and only while one is closed.
    docking = scenario(3, undocked="3 3 3", ore=3, fields={"repulsor": "lem"})
    assert "Lem Badlands" not in (closed_line(docking, legal_actions(docking), NAMES[:3]) or "")
    open_all = act(scenario(3, hub={0: 7}, fuel=[2, 0, 0], ore=[2, 0, 0]), "launch")
    assert closed_line(open_all, legal_actions(open_all), NAMES[:3]) is None


def test_the_rows_keep_their_places_at_every_step() -> None:
    start = scenario(undocked="2 2 5", cards={0: ["booster"]}, fuel=3, ore=3)
    docked = act(start, "dock yard 2 2")
    placing = act(scenario(undocked="3 3 3", ore=3), "dock constructor 3 3 3")
    views = {
        "start": panel(start),
        "undo": panel(docked, can_undo=True),
        "pending": panel(placing, can_undo=True),
        "step": panel(start, open_path="d.0"),
    }
    layout = {name: rows_of(v) for name, v in views.items()}
    for name, rows in layout.items():
        assert rows[0] == ["s:d"], name
        assert rows[1] == ["s:c"], name
        assert rows[2][0].startswith(("s:@p", "s:@d.", "s:@o")), name
        assert rows[3][:3] == ["a:end", "u", "h"], name
    assert layout["step"][3] == ["a:end", "u", "h", "n:-"]  # Back (closes the step) joins them
    # Idle rows are greyed out, not removed; Undo is there but off until there is a move.
    quiet = components(panel(scenario(undocked="5")))
    assert quiet[2]["components"][0]["disabled"] is True
    assert quiet[2]["components"][0]["placeholder"] == "Follow-up choices appear here"
    first = components(views["start"])
    assert first[3]["components"][1]["disabled"] is True
    # What the docking and cards menus cannot show waits in the choice menu meanwhile.
    busy = components(panel(scenario(undocked="1 2 4 6", fuel=4, ore=4)))
    more = busy[2]["components"][0]
    assert more["placeholder"] == "More choices…" and not more.get("disabled")
    first_rows = {o["value"] for row in busy[:3] for o in row["components"][0]["options"]}
    assert "dock solar 1" in {o["value"] for o in busy[0]["components"][0]["options"]}
    assert {"dock mine 1;dock mine 2", "dock hub 1 2", "@o.0"} <= first_rows
    assert components(views["undo"])[3]["components"][1].get("disabled", False) is False
    pending = components(views["pending"])
    assert pending[0]["components"][0]["disabled"] is True  # nothing to dock while placing
    places = [o["label"] for o in pending[2]["components"][0]["options"]]
    assert places[:2] == ["Asimov Crater", "Bradbury Plateau"]
    assert pending[2]["components"][0]["placeholder"] == "Place the colony on…"


def label_in_step(c: Choices, moves: list[str]) -> str:
    """The label of the pick playing ``moves`` in the step that holds it (short in a step of
    its own, in full among the other choices of "More choices…")."""
    path = path_to(c, moves)
    assert path is not None, moves
    node = c.node(path[-1])
    assert node is not None
    entries = menu(node, path[-1], inner=path[-1] != "o")
    return {e.value: e.label for e in entries}[";".join(moves)]


def test_a_whole_docking_choice_is_one_pick() -> None:
    s = scenario(undocked="1 2 6", fuel=2, ore=2)
    rows = components(panel(s))
    shown = {o["value"]: o["label"] for row in rows[:3] for o in row["components"][0]["options"]}
    assert shown["dock solar 1;dock solar 2"] == "Solar Converter: 1 + 2"
    assert shown["dock artifact 6;cycle"] == "Alien Artifact: 6, then cycle the display"
    c = choices(s, NAMES)
    assert label_in_step(c, ["dock solar 1", "dock solar 2", "dock solar 6"]).endswith("1 + 2 + 6")
    assert label_in_step(c, ["dock hub 1 2 6"]).endswith("1 + 2 + 6")  # one action, three ships
    assert label_in_step(c, ["dock mine 1", "dock mine 6"]).endswith("1 + 6")  # as the mine wants
    assert path_to(c, ["dock mine 6", "dock mine 1"]) is None
    pairs = choices(scenario(undocked="3 3 5 5", fuel=9, ore=9), NAMES)
    assert label_in_step(pairs, ["dock yard 3 3", "dock yard 5 5"]).endswith("3 + 3, 5 + 5")
    # What follows a dock at once: the colony's territory, what a raid takes.
    colony = choices(scenario(undocked="2 3 3 3 4", ore=[3, 0, 0, 0], fuel=[0, 2, 0, 0]), NAMES)
    moves = ["dock constructor 3 3 3", "place lem"]
    assert label_in_step(colony, moves).endswith("3 + 3 + 3, then place the colony on Lem Badlands")
    raid = ["dock raiders 2 3 4", "steal fuel p2", "steal fuel p2", "done"]
    assert label_in_step(colony, raid).endswith("2 + 3 + 4, then take 2 fuel from Bob")


def test_a_raids_whole_steal_is_one_pick() -> None:
    s = scenario(undocked="2 3 4", fuel=[0, 3, 1, 0], ore=[0, 2, 5, 0], cards={3: ["plasma"]})
    raid = act(s, "dock raiders 2 3 4")
    c = choices(raid, NAMES)
    assert c.pending is not None
    entries = {e.label: e.value for e in menu(c.pending, "p", inner=True)}
    assert (
        entries["Take 2 fuel + 2 ore from Bob"]
        == "steal fuel p2;steal fuel p2;steal ore p2;steal ore p2"
    )
    assert entries["Take 4 ore from Cleo"] == ";".join(["steal ore p3"] * 4)
    assert entries["Take Plasma Cannon from Dan"] == "steal card plasma p4"
    assert entries["Take nothing more"] == "done"
    # Two ore from Cleo, then the rest from Bob: two picks.
    after = act(raid, "steal ore p3", "steal ore p3")
    pending = choices(after, NAMES).pending
    assert pending is not None
    rest = {e.label for e in menu(pending, "p", inner=True)}
    assert "Take 1 fuel + 1 ore from Bob" in rest and "Take 2 fuel from Bob" in rest
    assert not any("Plasma Cannon" in label for label in rest)  # no card once resources went


def test_long_choices_are_asked_in_two_steps() -> None:
    """98 ways to use the Mind Control Helm: which ship, then where; never pages of 25."""
    docks = {
        "solar": "p2:1 p2:2 p3:3 p4:4 p2:5 p3:6",
        "mine": "p2:2 p3:4 p4:5",
        "artifact": "p2:3 p4:6",
        "market": "p3:2 p3:2",
    }
    kwargs: dict[str, Any] = dict(
        undocked="1 2 3 4 6", docks=docks, cards={0: ["helm"]}, fuel=9, mind_control_helm=True
    )
    s = scenario(**kwargs)
    helm = [a for a in legal_actions(s) if str(a).startswith("use helm")]
    assert len(helm) > 50
    c = choices(s, NAMES)
    powers = menu(c.powers, "c")  # the Helm is the only power: its ships are on the menu
    assert len(powers) <= 25 and all(e.value.startswith("@") for e in powers)
    assert powers[0].label == "Mind Control Helm: Bob's 1 at the Solar Converter…"
    where = c.node(powers[0].value[1:])
    assert isinstance(where, Branch)
    assert where.prompt == "Mind Control Helm: Bob's 1 at the Solar Converter"
    targets = [e.label for e in menu(where, powers[0].value[1:], inner=True)]
    assert "to the Orbital Market with your 1" in targets and len(targets) <= 25
    # With more cards to use than fit, most Helm ships wait behind one entry.
    cards = ["helm", "booster", "stasis", "polarity", "gravity"]
    more = choices(scenario(**{**kwargs, "cards": {0: cards}}), NAMES)
    entries = menu(more.powers, "c")
    assert len(entries) <= 25 and "Booster Pod: +1 on a 1" in [e.label for e in entries]
    helm_entry = next(e for e in entries if e.label == "Mind Control Helm: more…")
    ships = more.node(helm_entry.value[1:])
    assert isinstance(ships, Branch) and len(ships.children) == len(powers)
    picks = reachable(s)
    assert {str(a) for a in helm} <= {p[0] for p in picks}
    view = panel(s, open_path=powers[0].value[1:])
    assert not any(isinstance(i, PageButton) and "Next" in str(i.item.label) for i in view.children)


def test_undo_end_and_hint_buttons() -> None:
    s = scenario(undocked="4")
    view = panel(s)
    kinds = [type(i) for i in view.children]
    assert ActionButton in kinds and UndoButton in kinds and HintButton in kinds
    end = next(i for i in view.children if isinstance(i, ActionButton))
    assert end.item.disabled  # a ship can still dock: the turn may not end
    nothing = act(s, "dock mine 4")
    end = next(i for i in panel(nothing).children if isinstance(i, ActionButton))
    assert not end.item.disabled and end.item.label == "End turn"


def test_for_a_screen_reader_a_row_with_nothing_to_offer_is_left_out() -> None:
    """The expert heard "No card or other action now", "No ship can dock now" and
    "Follow-up choices appear here" at every turn: greyed-out menus offer nothing; a second
    blind player still heard the greyed-out End turn and Undo buttons at every turn."""
    nothing = act(scenario(undocked="4"), "dock mine 4")
    shown = components(panel(nothing))
    idle = [i for row in shown for i in row["components"] if i.get("disabled") and i["type"] == 3]
    assert len(idle) == 3  # in the default panel they keep the rows in place
    heard = components(panel(nothing, spoken=True))
    labels = [i.get("label") for row in heard for i in row["components"]]
    assert labels == ["End turn", "Hint"]  # Undo, with nothing to undo, left out
    assert [i["type"] for row in heard for i in row["components"]] == [2, 2]
    check_limits(panel(nothing, spoken=True))
    undo = components(panel(nothing, spoken=True, can_undo=True))
    assert [i.get("label") for row in undo for i in row["components"]] == [
        "End turn",
        "Undo",
        "Hint",
    ]
    docking = components(panel(scenario(undocked="4"), spoken=True))
    assert [i["type"] for row in docking for i in row["components"]][:1] == [3]  # Dock ships…
    assert not any(i.get("disabled") for row in docking for i in row["components"])
    assert "End turn" not in [i.get("label") for row in docking for i in row["components"]]


def test_a_pick_that_is_found_is_played_as_found() -> None:
    s = scenario(undocked="1 1 5", fuel=1)
    c = choices(s, NAMES)
    assert path_to(c, ["dock solar 1", "dock solar 1"]) == ["d", "d.0"]  # the Solar Converter's
    assert "dock solar 1;dock solar 1" in {e.value for e in menu(c.dock, "d")}  # shown inline
    assert path_to(c, ["dock hub 1 1 5"]) is not None
    assert path_to(c, ["dock terraform 6"]) is None


def test_labels_read_well() -> None:
    names = ["Ann", "Bob"]
    assert action_label(parse("dock yard 3 3")) == "Dock 3 3 at the Shipyard"
    assert action_label(parse("dock hub 2r")) == "Dock 2 (relic) at the Colony Hub"
    assert action_label(parse("use plasma mine p2:4"), names=names) == (
        "Plasma Cannon: fire at the Lunar Mine, hitting Bob's 4"
    )
    assert action_label(parse("trade"), rate=3) == "Trade 3 fuel for 1 ore"
    assert action_label(parse("steal card decoy p1"), names=names) == (
        "Steal Holographic Decoy from Ann"
    )


def test_names_are_escaped_in_messages_not_in_labels() -> None:
    from bot.text.describe import chat_name

    assert chat_name("__bob__") == "\\_\\_bob\\_\\_"
    label = action_label(parse("steal fuel p2"), names=["ann", "__bob__"])
    assert label == "Steal 1 fuel from __bob__"


def leaves_of(c: Choices) -> list[Leaf]:
    """Every pick of the panel's menus (the choice now and what overflows included)."""
    out: list[Leaf] = []

    def walk(node: Branch) -> None:
        for kid in node.children:
            if isinstance(kid, Leaf):
                out.append(kid)
            else:
                walk(kid)

    for key in ROOTS:
        root = c.root(key)
        if root is not None:
            walk(root)
    return out


def test_a_panel_group_is_the_rules_group() -> None:
    """The panel groups actions by their rule's kind (engine.rule.Rule.kind): every pick is
    in the section of the kind of the action it starts with, and every legal action is
    the first move of a pick in the section of its rule (ending the turn: the button)."""
    compared = 0
    groups: set[str] = set()
    for config in (
        GameConfig(players=2, mind_control_helm=True),
        GameConfig(players=3, finite_supply=True),
        GameConfig(players=4, mind_control_helm=True, long_game=True),
    ):
        for s in (t for seed in (11, 12, 13) for t in game_states(config, seed, every=5)):
            if s.over:
                continue
            context = type(s.pending[0]) if s.pending else None
            c = choices(s, NAMES, "en", 3)
            first: dict[str, set[str]] = {}
            for leaf in leaves_of(c):
                rule = RULEBOOK.rule_of(parse(leaf.moves[0]), context)
                assert rule is not None and leaf.group == rule.kind, (leaf, rule)
                first.setdefault(leaf.moves[0], set()).add(leaf.group)
            for a in legal_actions(s):
                rule = RULEBOOK.rule_of(a, context)
                assert rule is not None
                if rule.kind == "end":
                    assert c.can_end
                else:
                    assert first.get(str(a)) == {rule.kind}, (str(a), first.get(str(a)))
                groups.add(rule.kind)
                compared += 1
            assert c.can_end == any(RULEBOOK.kind_of(a) == "end" for a in legal_actions(s))
    assert compared > 3000 and len(groups) > 20, (compared, sorted(groups))


WORDS_FIRST = re.compile(r"^[^\W\d_]")  # a letter, in any language


def test_every_option_says_what_it_does_in_words_first() -> None:
    """No option is numbers only ("1 + 2 + 5" under "Solar Converter: which ships?") or
    reads oddly ("Alien Artifact: more: more…", "→ colony to…", "with 1 3"), in any
    language."""
    seen = 0
    for locale in ("en", "ru", "pl"):
        for players in (2, 4):
            config = GameConfig(players=players, mind_control_helm=True)
            for s in game_states(config, 11 + players, every=17):
                c = choices(s, NAMES, locale, 3)
                where = [("d", c.dock, False), ("c", c.powers, False)]
                where += [("p", c.pending, True)] if c.pending is not None else []
                where += [(path, node, True) for path, node in steps_of(c)]
                for path, node, inner in where:
                    for e in menu(node, path, locale, inner=inner):
                        seen += 1
                        assert WORDS_FIRST.match(e.label), (locale, e.label)
                        assert not re.search(r"→|⇄|: more: more|with \d \d", e.label), e.label
    assert seen > 1500


def test_no_button_starts_with_a_symbol() -> None:
    """ "💡 Hint", "◀ Back", "◀ Previous": a screen reader says the symbol first."""
    for locale in ("en", "ru", "pl"):
        s = game_states(GameConfig(players=4, mind_control_helm=True), 7, every=9)[5]
        c = choices(s, NAMES, locale, 3)
        buttons = components(panel_in(s, locale, c))[3]["components"]
        assert len(buttons) >= 4  # End turn, Undo, Hint, Back
        for item in buttons:
            assert WORDS_FIRST.match(item["label"]) and "emoji" not in item, item


def steps_of(c: Choices) -> list[tuple[str, Branch]]:
    out: list[tuple[str, Branch]] = []

    def walk(node: Branch, path: str) -> None:
        for i, kid in enumerate(node.children):
            if isinstance(kid, Branch):
                out.append((f"{path}.{i}", kid))
                walk(kid, f"{path}.{i}")

    for key in ROOTS:
        root = c.root(key)
        if root is not None:
            walk(root, key)
    return out


def panel_in(s: GameState, locale: str, c: Choices) -> discord.ui.View:
    """The panel with a second step open (its Back button too), if there is one."""
    opened = next((path for path, _ in steps_of(c)), None)
    return build_panel(1, s.version, c, can_undo=True, locale=locale, open_path=opened)


def test_an_options_description_says_what_it_yields() -> None:
    """Discord's 100 characters under an option's label say what the pick yields, for
    everyone: what the engine does when it is played ("Lunar Mine: 6" gives +1 ore)."""
    s = scenario(undocked="1 5 6", fuel=[2, 0, 0, 0], ore=[1, 0, 0, 0])
    view = build_panel(1, s.version, choices(s, NAMES, "en", 3))
    docking = components(view)[0]["components"][0]["options"]
    options = {o["label"]: o.get("description") for o in docking}
    assert options["Lunar Mine: 6"] == "+1 ore, now 2"
    assert options["Solar Converter: 5 + 6"] == (  # 8 fuel and 1 ore: 1 to give back
        "+6 fuel, now 8; 1 over the limit of 8, to return at the turn's end"
    )
    assert options["Colony Hub: 1"] == "Colony Hub track: space 1 of 7"
    for label, description in options.items():
        if label.startswith(("Solar Converter", "Lunar Mine")):
            assert description and description.startswith("+"), label
    table = scenario(undocked="2 3 4", fuel=[0, 3, 1, 0], ore=[0, 2, 5, 0])
    raid = act(table, "dock raiders 2 3 4")
    c = choices(raid, NAMES, "en", 3)
    assert c.pending is not None
    (entry,) = [e for e in menu(c.pending, "p", inner=True) if e.label == "Take 4 ore from Cleo"]
    assert c.yields(entry.value) == "+4 ore, now 4; Cleo: −4 ore, now 1"


def test_a_description_tells_what_others_lose_and_what_a_dock_opens() -> None:
    """What a blind player could not find out before picking (the expert's pass): that a
    colony ends an opponent's control, and what the Orbital Market will trade."""
    s = scenario(colonies={"heinlein": [0, 1, 0, 0]}, hub={0: 7}, fuel=[3, 0, 0, 0], ore=3)
    c = choices(s, NAMES, "en", 3)
    said = c.yields("launch;place heinlein")
    assert said == (  # what Bob loses kept, "the Colony Hub track is empty" left out
        "a colony on Heinlein Plains; +1 VP, now 1; −1 fuel, now 2; −1 ore, now 2; "
        "Bob: −1 VP, now 1…"
    )
    market = scenario(undocked="4 4 1", fuel=[8, 0, 0, 0])
    assert choices(market, NAMES, "en").yields("dock market 4 4") == (
        "trades at 4 fuel for 1 ore this turn"
    )

"""The Hint says why: each pick of the normal AI's plan carries a reason derived from the
evaluation (``engine.ai.reasons``), said by the bot's catalogue in every language, and
the whole answer stays legible on a phone (``bot.text.describe.hint_text``)."""

from __future__ import annotations

import dataclasses
import random
import re
import textwrap

import pytest

from bot.text import i18n
from bot.text.describe import HINT_LINES, hint_text
from bot.text.strings import SOURCES, text, variant
from engine import (
    CHANCE,
    GameConfig,
    GameState,
    apply,
    apply_in_place,
    legal_actions,
    new_game,
    parse,
)
from engine.actions import Action
from engine.ai import NormalAI
from engine.ai.evaluate import Evaluator, Weights
from engine.ai.normal import NORMAL_WEIGHTS
from engine.ai.reasons import KINDS, Pick, Reason, explain_plan, worth_parts
from engine.selfplay import random_action
from engine.state import PlaceColonyDecision
from tests.benchmarks import hint_truth
from tests.engine.scenario import scenario

LANGUAGES = ("en", "ru", "pl")
PHONE = 40  # characters of a line on a phone
NAMES = ["Anna", "Bartholomew-Maximilian", "Зинаида Петровна", "Kai"]


def plan_of(*moves: str) -> list[Action]:
    return [parse(m) for m in moves]


def decisions(seeds: range, every: float, players: int) -> list[GameState]:
    """States where a seat must act (with a choice) in seeded random games."""
    found = []
    for seed in seeds:
        rng = random.Random(seed)
        s = new_game(GameConfig(players=players, mind_control_helm=seed % 2 == 1))
        while not s.over:
            if s.to_act() != CHANCE and len(legal_actions(s)) > 1 and rng.random() < every:
                found.append(s.copy())
            apply_in_place(s, random_action(s, rng))
    return found


@pytest.fixture(scope="module")
def planned() -> list[tuple[GameState, list[Action], list[Pick]]]:
    """A few hundred decisions of random games, each with a (cheap) normal AI's plan and
    its picks explained."""
    states = decisions(range(6), 0.25, 2) + decisions(range(20, 24), 0.2, 4)
    out = []
    for i, s in enumerate(states[::2]):
        plan = NormalAI(i, width=4, max_nodes=60).make_plan(s, s.to_act())
        out.append((s, plan, explain_plan(s, plan)))
    assert len(out) >= 200
    return out


def test_the_worth_split_into_parts_adds_up_to_the_evaluation(
    decision_states: dict[str, list[GameState]],
) -> None:
    tuned = dataclasses.replace(Weights(), colony=0.3, plasma_hit=0.5, used_up=0.2)
    for weights in (NORMAL_WEIGHTS, tuned):
        ev = Evaluator(weights)
        for states in decision_states.values():
            for s in states:
                parts = worth_parts(ev, s).parts
                for seat, worth in enumerate(ev.worth(s)):
                    assert sum(parts[seat].values()) == pytest.approx(worth, abs=1e-9)


def test_every_pick_of_a_plan_has_a_reason_from_the_catalogue_in_every_language(
    planned: list[tuple[GameState, list[Action], list[Pick]]],
) -> None:
    kinds: set[str] = set()
    picks = 0
    for _s, plan, explained in planned:
        assert sum(p.times for p in explained) == len(plan)
        assert [p.action for p in explained for _ in range(p.times)] == plan
        for pick in explained:
            picks += 1
            if pick.reason is None:  # no decision: the only legal move
                assert pick.before is not None and len(legal_actions(pick.before)) == 1
                continue
            reason = pick.reason
            assert reason.kind in KINDS
            assert set(reason.params) <= set(KINDS[reason.kind]), reason
            key = variant(reason.key, reason.params)
            assert key in SOURCES, reason
            kinds.add(reason.kind)
            for language in LANGUAGES:
                said = text(reason.key, language, reason.params, NAMES)
                assert said and not re.search(r"\{[a-z_]+\}", said), (language, reason, said)
                assert "hint.why" not in said
    assert picks >= 600
    # The reasons are not one generic line: the random positions meet many kinds.
    assert len(kinds - {"best", "end"}) >= 15, kinds


def test_each_pick_of_the_hint_fits_three_phone_lines(
    planned: list[tuple[GameState, list[Action], list[Pick]]],
) -> None:
    for s, plan, explained in planned[::3]:
        for language in LANGUAGES:
            answer = hint_text(s, plan, NAMES, language)
            header, *lines = answer.split("\n")
            assert header == text("hint.header", language)
            shown = min(len(explained), HINT_LINES)
            assert len(lines) == shown + (len(explained) > HINT_LINES)
            for number, line in enumerate(lines[:shown], start=1):
                assert line.startswith(f"{number}. ")
                assert len(textwrap.wrap(line, PHONE)) <= 3, (language, line)
                assert (" → " in line) == (explained[number - 1].reason is not None)


def test_hint_reason_ore_for_a_colony_next_turn_says_the_roll_it_needs_R_CONSTR() -> None:
    """Two ore and a mine dock: the third ore pays for the Colony Constructor (R-CONSTR),
    which needs three alike next turn (with three ships, about 3 %): said so, never "a
    colony next turn" as if it were sure."""
    s = scenario(players=2, undocked="4", ore=[2, 0], fuel=[0, 1])
    picks = explain_plan(s, plan_of("dock mine 4", "end"))
    reason = picks[0].reason
    assert reason is not None and reason.kind == "gain_colony_three"
    assert reason.params == {"resource": "ore", "amount": 1}
    answer = hint_text(s, plan_of("dock mine 4", "end"), NAMES)
    assert "1. Dock 4 at the Lunar Mine → +1 ore: a colony next turn if you roll three" in answer


def test_hint_reason_a_colony_next_turn_is_said_when_it_is_sure_R_HUB_2() -> None:
    """A colony waits on space 7 of the Colony Hub: the ore that pays its launch is "a
    colony next turn", whatever the dice."""
    s = scenario(players=2, undocked="4", fuel=[1, 0], hub={0: 7})
    picks = explain_plan(s, plan_of("dock mine 4", "end"))
    assert picks[0].reason is not None and picks[0].reason.kind == "gain_colony"
    assert "→ +1 ore: a colony next turn" in hint_text(s, plan_of("dock mine 4", "end"), NAMES)


def test_hint_holds_a_facility_only_if_it_is_full_at_the_next_players_turn_start() -> None:
    """Kai's own ships at the Lunar Mine go back to Kai at his turn start: the last dock
    taken now holds nothing from him. Anna's own ships there stay: then it does."""
    plan = plan_of("dock mine 6", "dock solar 2", "end")
    names = ["Anna", "Kai"]
    theirs = scenario(players=2, undocked="6 2", docks={"mine": "p2:4 p2:5"}, fuel=4, ore=4)
    said = hint_text(theirs, plan, names)
    assert "holds the Lunar Mine" not in said
    assert "1. Dock 6 at the Lunar Mine → +1 ore" in said
    ours = scenario(players=2, undocked="6 2", docks={"mine": "p1:4 p1:5"}, fuel=4, ore=4)
    assert "→ holds the Lunar Mine before Kai can use it" in hint_text(ours, plan, names)


def test_hint_a_card_the_display_must_turn_up_is_said_if_it_turns_up_R_ART_1() -> None:
    """The plan cycles the display and claims the Plasma Cannon it hopes to see: the
    claim, and what the card then does, are said with "if it turns up"."""
    s = scenario(players=2, undocked="6 2 3", docks={"mine": "p2:6"})
    plan = plan_of(
        "dock artifact 6", "cycle", "dock artifact 2", "claim plasma", "use plasma mine p2:6"
    )
    picks = explain_plan(s, plan)
    assert picks[3].reason is not None and picks[3].reason.luck == "plasma"
    answer = hint_text(s, plan, NAMES)
    assert "4. Claim Plasma Cannon → Plasma Cannon is yours if it turns up" in answer
    assert picks[0].reason is not None and picks[0].reason.luck is None  # (no luck needed)
    if picks[4].reason is not None:
        assert picks[4].reason.luck == "plasma"
        assert answer.split("\n")[5].endswith("if Plasma Cannon turns up")


def test_hint_blocks_a_raid_only_when_no_run_can_take_the_outpost_R_RAID_1() -> None:
    """A 1-2-3 at the Raiders' Outpost is taken by any higher run (R-RAID-1): it does not
    keep Kai from raiding; a 4-5-6 does (test above)."""
    s = scenario(players=2, undocked="1 2 3", fuel=[3, 0], ore=[3, 0])
    plan = plan_of("dock raiders 1 2 3", "done", "end")
    picks = explain_plan(s, plan)
    assert picks[0].reason is not None and picks[0].reason.kind != "block_raid"
    assert "keeps Kai from raiding you" not in hint_text(s, plan, ["Anna", "Kai"])


def test_hint_control_by_a_swap_is_no_new_colony_R_TECH_POLAR() -> None:
    """Swapping a colony from Lem Badlands (2 to 0) onto Asimov Crater (1 to 1) takes
    control of Asimov and loses Lem's: no colony is added, no VP won; said so."""
    s = scenario(
        players=2, undocked="3", cards={0: ["polarity"]}, colonies={"lem": [2, 0], "asimov": [1, 1]}
    )
    plan = plan_of("discard polarity p1 lem p2 asimov", "dock solar 3", "end")
    reason = explain_plan(s, plan)[0].reason
    assert reason is not None
    assert (reason.kind, dict(reason.params)) == ("control_gain", {"territory": "asimov"})
    assert "+2 VP" not in hint_text(s, plan, NAMES)


def test_hint_the_positron_field_moved_between_ones_own_territories_wins_no_vp_R_FIELD_POS() -> (
    None
):
    s = scenario(
        players=2,
        undocked="3",
        cards={0: ["crystal"]},
        colonies={"lem": [1, 0], "asimov": [1, 0]},
        fields={"positron": "lem"},
    )
    plan = plan_of("discard crystal asimov", "dock solar 3", "end")
    reason = explain_plan(s, plan)[0].reason
    assert reason is not None and reason.kind != "positron"
    assert "+1 VP" not in hint_text(s, plan, NAMES)


def test_hint_truth_no_reason_is_false_in_seeded_games() -> None:
    """The hint-truth benchmark's small seeded version (tests/benchmarks/hint_truth.py):
    every reason of the Hint at every decision of a 2-player game between (cheap) normal
    AIs, its claim played out: none false, none misleading."""
    checks = [
        c
        for s, plan in hint_truth.decisions(7, 2, every=0.5, width=4, nodes=60)
        for c in hint_truth.check_plan(s, plan)
    ]
    assert len(checks) > 150
    bad = [c for c in checks if c.verdict != "true"]
    assert bad == [], hint_truth.summary(checks)


def test_hint_reason_ore_for_a_colony_this_turn_and_where_it_goes_R_CONSTR() -> None:
    s = scenario(players=2, undocked="4 5 5 5", ore=[2, 0], fuel=[0, 1])
    plan = plan_of("dock mine 4", "dock constructor 5 5 5", "place heinlein", "end")
    picks = explain_plan(s, plan)
    kinds = [(p.reason.kind, dict(p.reason.params)) if p.reason else None for p in picks]
    assert kinds[0] == ("gain_colony_now", {"resource": "ore", "amount": 1})
    assert kinds[1] == ("colony_for", {"territory": "heinlein"})
    assert kinds[2] == ("control", {"territory": "heinlein"})
    answer = hint_text(s, plan, NAMES)
    assert "+1 ore: a colony this turn" in answer
    assert "pays for a colony on Heinlein Plains" in answer


def test_hint_reason_blocking_a_raid_names_the_opponent_R_RAID_1() -> None:
    """A run of 4-5-6 at the Raiders' Outpost cannot be displaced (R-RAID-1): the raid
    Bartholomew-Maximilian (5 ships, nothing to steal from him) threatened is off."""
    s = scenario(players=2, undocked="4 5 6", fuel=[3, 0], ore=[3, 0], stock={1: 1})
    plan = plan_of("dock raiders 4 5 6", "done", "end")
    picks = explain_plan(s, plan)
    reason = picks[0].reason
    assert reason is not None and reason.kind == "block_raid"
    assert reason.params == {"player": 1}
    assert picks[1].reason is None  # nothing to steal: "done" is the only move
    for language in LANGUAGES:
        assert NAMES[1] in text(reason.key, language, reason.params, NAMES)
    lines = hint_text(s, plan, ["Anna", "Kai"]).split("\n")
    assert lines[1].startswith("1. Dock ")
    assert lines[1].endswith(" → keeps Kai from raiding you")
    assert lines[2] == "2. Done"


def test_hint_reason_a_raid_with_something_to_take_is_the_raid_R_RAID_2() -> None:
    s = scenario(players=2, undocked="4 5 6", fuel=[0, 3], ore=[0, 3])
    plan = plan_of("dock raiders 4 5 6", "steal ore p2", "steal ore p2", "steal ore p2")
    plan += plan_of("steal fuel p2", "end")
    picks = explain_plan(s, plan)
    assert picks[0].reason is not None and picks[0].reason.kind == "raid"
    assert picks[1].times == 3
    assert picks[1].reason is not None
    assert picks[1].reason.kind == "steal"
    assert picks[1].reason.params == {"resource": "ore", "amount": 3, "victim": 1}
    assert text(picks[1].reason.key, "en", picks[1].reason.params, NAMES) == (
        "+3 ore from Bartholomew-Maximilian"
    )


def test_hint_reason_control_denied_names_the_opponent_R_COL_2() -> None:
    """Bartholomew-Maximilian leads Lem Badlands 2 to 1: a second colony there ties it
    (R-COL-2: nobody controls it)."""
    s = scenario(
        players=2,
        undocked="6 1",
        fuel=[1, 0],
        ore=[1, 0],
        stock={0: 2},
        colonies={"lem": [1, 2]},
    )
    picks = explain_plan(s, plan_of("dock terraform 6", "place lem", "dock solar 1", "end"))
    assert picks[0].reason is not None and picks[0].reason.kind == "colony_for"
    assert picks[1].reason is not None
    assert picks[1].reason.kind == "deny"
    assert picks[1].reason.params == {"territory": "lem", "player": 1}
    assert text(picks[1].reason.key, "en", picks[1].reason.params, NAMES) == (
        "Bartholomew-Maximilian loses control of Lem Badlands"
    )


def test_hint_reason_control_taken_names_the_opponent_R_TECH_POLAR() -> None:
    """Swapping a colony on Asimov Crater with the opponent's on Lem Badlands (led 2 to 1)
    takes Lem Badlands from them."""
    s = scenario(
        players=2,
        undocked="3",
        cards={0: ["polarity"]},
        colonies={"lem": [1, 2], "asimov": [1, 0]},
    )
    plan = plan_of("discard polarity p1 asimov p2 lem", "dock solar 3", "end")
    picks = explain_plan(s, plan)
    assert picks[0].reason is not None
    assert picks[0].reason.kind == "take"
    assert picks[0].reason.params == {"territory": "lem", "player": 1}
    assert (
        text(picks[0].reason.key, "en", picks[0].reason.params, ["Anna", "Kai"])
        == "takes Lem Badlands from Kai"
    )


def test_hint_reason_repeated_picks_are_one_line_explained_together_R_MARKET() -> None:
    s = scenario(players=2, undocked="3 3 2", fuel=[6, 0], ore=[0, 0])
    plan = plan_of("dock market 3 3", "trade", "trade", "dock solar 2", "end")
    picks = explain_plan(s, plan)
    assert [p.times for p in picks] == [1, 2, 1, 1]
    assert picks[0].reason is not None and picks[0].reason.kind == "market"
    assert picks[0].reason.params == {"rate": 3}
    trades = picks[1].reason
    assert trades is not None and trades.params["amount"] == 2
    assert trades.kind in {"gain", "gain_colony", "gain_ship"}
    answer = hint_text(s, plan, NAMES)
    assert "2. Trade 3 fuel for 1 ore ×2 → +2 ore" in answer


def test_hint_reason_a_ship_changed_for_the_dock_that_follows() -> None:
    s = scenario(
        players=2, undocked="5 1", fuel=[2, 0], ore=[1, 0], stock={0: 2}, cards={0: ["booster"]}
    )
    plan = plan_of("use booster 5", "dock terraform 6", "place lem", "dock solar 1", "end")
    picks = explain_plan(s, plan)
    assert picks[0].reason is not None
    assert (picks[0].reason.kind, dict(picks[0].reason.params)) == (
        "tune",
        {"value": 6, "facility": "terraform"},
    )
    assert text(picks[0].reason.key, "en", picks[0].reason.params) == (
        "makes a 6 for the Terraforming Station"
    )


def test_hint_reason_the_last_colony_wins_R_END_2() -> None:
    per = GameConfig(players=2).colonies_per_player
    s = scenario(
        players=2,
        undocked="6",
        fuel=[1, 0],
        ore=[1, 0],
        stock={0: 2},
        colonies={"pohl": [per - 1, 0]},
    )
    assert s.players[0].colonies == 1
    picks = explain_plan(s, plan_of("dock terraform 6", "place lem"))
    assert picks[1].reason is not None and picks[1].reason.kind == "win"


def test_hint_without_a_plan_says_so() -> None:
    s = scenario(players=2, undocked="3")
    assert hint_text(s, [], NAMES) == text("hint.none", "en")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_reason_kind_has_its_text(language: str) -> None:
    for kind, params in KINDS.items():
        key = f"hint.why.{kind}"
        assert key in SOURCES, key
        values: dict[str, object] = {
            "territory": "lem",
            "player": 1,
            "victim": 1,
            "card": "plasma",
            "facility": "mine",
            "field": "isolation",
            "space": 4,
            "number": 5,
            "total": 6,
            "rate": 2,
            "amount": 2,
            "value": 6,
        }
        shown = {p: values[p] for p in params if p != "resource"}
        for resource in ("fuel", "ore") if "resource" in params else (None,):
            if resource is not None:
                shown["resource"] = resource
                assert f"{key}.{resource}" in SOURCES
            said = text(key, language, shown, NAMES)
            assert not re.search(r"\{[a-z_]+\}", said), (language, key, said)
    assert i18n.language_of(language) == language


def test_repeated_picks_with_chance_between_them_are_followed_R_ART_1() -> None:
    """Two cycles in a row (each turns up new cards: chance) are one pick, and the plan
    is followed past them."""
    s = scenario(players=2, undocked="1 2")
    plan = plan_of("dock artifact 1", "dock artifact 2", "cycle", "cycle", "end")
    picks = explain_plan(s, plan)
    assert [p.times for p in picks] == [1, 1, 2, 1]
    assert picks[2].reason is not None and picks[2].reason.kind == "cycle"
    assert picks[3].before is not None  # followed: the end of the turn is judged too
    assert picks[3].before.turn.artifact_cycles == 0


def test_hint_a_colony_taking_control_of_the_positron_fields_territory_is_3_vp_R_FIELD_POS() -> (
    None
):
    """An expert read "Place the colony on Burroughs Desert → +2 VP: a colony and control"
    where the Positron Field made it +3 (4 → 7). The reason counts the field's point, and
    the hint-truth check holds a VP figure to the exact gain."""
    s = scenario(players=2, undocked="", fields={"positron": "burroughs"})
    s.pending = [PlaceColonyDecision(0, "launch")]
    plan = plan_of("place burroughs")
    pick = explain_plan(s, plan)[0]
    assert pick.reason is not None
    said = hint_text(s, plan, NAMES)
    assert "+3 VP" in said and "Positron Field" in said, said
    checked = hint_truth.check_plan(s, plan)
    assert [c.verdict for c in checked] == ["true"]
    plus_two = Reason("control", {"territory": "burroughs"})
    wrong = dataclasses.replace(pick, reason=plus_two)
    b = s.copy()
    a = apply(s, plan[0])
    assert not hint_truth.claim_holds(plus_two, wrong, b, a, [], 0, None)[0]  # +2 is false


def test_hint_toward_a_card_only_while_8_can_still_be_reached_this_turn_R_ART_2() -> None:
    """An expert's Hint said "Dock 3 at the Alien Artifact → toward a card: 3 of 8" with a
    1 left to dock: no card within reach this turn. It says so only while the ships left
    can still make 8 (the total starts again after a claim)."""
    far = scenario(players=2, undocked="3 1")
    plan = plan_of("dock artifact 3", "dock artifact 1", "end")
    picks = explain_plan(far, plan)
    assert all(p.reason is None or p.reason.kind != "artifact" for p in picks), picks
    assert "toward a card" not in hint_text(far, plan, NAMES)
    near = scenario(players=2, undocked="3 5")
    plan = plan_of("dock artifact 3", "dock artifact 5", "end")
    reason = explain_plan(near, plan)[0].reason
    assert reason is not None and reason.kind == "artifact"
    assert all(c.verdict == "true" for c in hint_truth.check_plan(near, plan))


def test_hint_stopping_the_plasma_cannon_is_no_taking_R_TECH_PLASMA() -> None:
    """An expert read "Done → nothing more worth taking" at the Plasma Cannon's choice:
    the cannon takes nothing; stopping it is said as such."""
    s = scenario(
        players=2, undocked="3", fuel=[5, 0], cards={0: ["plasma"]}, docks={"solar": "p2:4 p2:2"}
    )
    s = apply(s, parse("use plasma solar p2:4"))
    plan = plan_of("done", "dock solar 3", "end")
    reason = explain_plan(s, plan)[0].reason
    assert reason is not None and reason.kind == "stop_firing"
    assert "taking" not in hint_text(s, plan, NAMES)
    assert all(c.verdict == "true" for c in hint_truth.check_plan(s, plan))

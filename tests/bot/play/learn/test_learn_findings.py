"""The findings of an expert's pass over the guided game (/af learn), played as a newcomer
who strays: each defect in a position built to show it, held to what the guide now says
and marks there (``bot.play.learn``). The whole games are in
tests/bot/play/learn/test_learn_strays.py.
"""

from __future__ import annotations

from dataclasses import replace

from bot.play import learn
from bot.play.ai import hint_plan
from bot.play.learn.guide import MAX_TRIES, WAIT_LIMIT, Progress, comes_back, new_turn
from bot.play.learn.lessons import BY_ID, LESSONS
from bot.play.tutor import guidance_lines, guided_hint, guided_plan
from bot.text.strings import text
from engine import GameConfig, GameState, apply, legal_actions, new_game, parse
from engine.actions import Action, Done
from engine.state import PlaceColonyDecision, PlasmaDecision, ReturnExcessDecision
from engine.tables import CARD_INDEX
from tests.engine.scenario import act, scenario

PLANNED = [x.id for x in LESSONS]
NAMES = ["Ada", "AI 1 (easy)"]


def at(lesson: str, **kw: object) -> Progress:
    """The progress of a learner who did every lesson before ``lesson``, in its chapter."""
    i = PLANNED.index(lesson)
    return Progress(taught=tuple(PLANNED[:i]), chapter=BY_ID[lesson].chapter, **kw)  # type: ignore[arg-type]


def said(g: learn.Guidance | None) -> str:
    assert g is not None
    lines = [text(g.key, "en", g.params, NAMES)]
    if g.then is not None:
        lines.append(text(g.then.key, "en", g.then.params, NAMES))
    return "\n".join(lines)


def answer(p: Progress, s: GameState, moves: list[str]) -> str:
    """The answer to a pick of ``moves`` other than the ⭐ (what it did, the tail)."""
    g = learn.guidance(p, s)
    actions = [parse(m) for m in moves]
    after = s
    for a in actions:
        after = apply(after, a)
    line = learn.consequence(p, s, actions, after, g)
    assert line is not None
    out = [text(x.key, "en", x.params, NAMES) for x in line.said]
    return " ".join([*out, *([text(line.tail, "en")] if line.tail else [])])


# ---- wrong in the position ------------------------------------------------------------


def test_learn_the_stasis_lesson_says_shipyard_only_when_it_takes_the_pair_R_YARD() -> None:
    """Finding: "Your 3 becomes a 2: a pair for the Shipyard" when the 5th ship (2 fuel + 2
    ore) was out of reach once the beam's fuel was paid."""
    poor = scenario(players=2, undocked="2 3 4", cards={0: ["stasis"]}, fuel=[2, 0], stock={0: 2})
    g = learn.guidance(at("use"), poor)
    assert g is not None and g.lesson == "use" and str(g.action) == "use stasis 3"
    assert "Shipyard" not in said(g) and said(g).endswith("your 3 becomes a 2.")
    rich = scenario(
        players=2, undocked="2 3 4", cards={0: ["stasis"]}, fuel=[3, 0], ore=[2, 0], stock={0: 2}
    )
    g = learn.guidance(at("use"), rich)
    assert g is not None and said(g).endswith("Your 3 becomes a 2: a pair for the Shipyard.")
    assert parse("dock yard 2 2") in legal_actions(apply(rich, g.action))


def test_learn_a_card_is_set_up_only_while_8_is_within_reach_R_ART_2() -> None:
    """Finding: "Next: X. Dock 3 at the Alien Artifact: at 8 or more this turn you may claim
    it" just after a claim in the same turn, the count back at 0 and a 3 and a 1 left."""
    s = scenario(players=2, undocked="6 2 3 1", fuel=[3, 0], display=("city", "plasma", "decoy"))
    s = act(s, "dock artifact 6", "dock artifact 2", "claim city")
    while s.to_act() < 0:  # the display refilled: a quiet card
        s = apply(s, parse("reveal monument"))
    assert s.turn.artifact_total == 0 and "plasma" in s.display
    g = learn.guidance(at("plasma"), s)
    assert g is not None
    assert g.key not in ("learn.setup.card", "learn.setup.card.deck"), said(g)
    within = scenario(players=2, undocked="6 2", fuel=[3, 0], display=("city", "plasma", "decoy"))
    g = learn.guidance(at("plasma"), within)
    assert g is not None and g.key == "learn.setup.card" and str(g.action) == "dock artifact 6"


def test_learn_a_card_out_of_reach_is_never_named_as_next_R_TECH_4() -> None:
    """Finding: "Next: X. Dock … at the Alien Artifact: … you may claim it" naming a card
    in the discard pile, not on display (both Temporal Warpers gone: one discarded, one
    the AI's): no setup names it; its rule is said with the pick the ⭐ marks."""
    s = scenario(players=2, undocked="6 2 3", fuel=[3, 0], cards={1: ["warper"]})
    s.discard[CARD_INDEX["warper"]] += s.deck[CARD_INDEX["warper"]]
    s.deck[CARD_INDEX["warper"]] = 0
    assert "warper" not in s.display
    last = replace(at("warper"), tries=(("warper", MAX_TRIES - 1),))
    for p in (at("warper"), last):
        g = learn.guidance(p, s)
        assert g is not None
        assert g.key not in ("learn.setup.card", "learn.setup.card.deck"), said(g)
    g = learn.guidance(last, s)
    assert g is not None and g.lesson == "warper" and g.kind == "rule"  # its rule, said


def test_learn_asimov_is_marked_only_where_its_bonus_shows_R_HUB_5() -> None:
    """Finding: the Asimov lesson's ⭐ on a Colony Hub pick while the AI controlled Asimov
    (with the Isolation Field on it), or after the learner's placement had made a tie."""
    theirs = scenario(
        players=2, undocked="1 3 5", colonies={"asimov": [0, 1]}, fields={"isolation": "asimov"}
    )
    tie = scenario(players=2, undocked="1 3 5", colonies={"asimov": [1, 1]})
    for s in (theirs, tie):
        g = learn.guidance(at("asimov"), s)
        assert g is None or g.lesson != "asimov" or g.kind != "own", said(g)
    mine = scenario(players=2, undocked="1 3 5", colonies={"asimov": [1, 0]})
    g = learn.guidance(at("asimov"), mine)
    assert g is not None and g.lesson == "asimov" and str(g.action) == "dock hub 1 3"


def test_learn_the_raid_and_the_cannon_stop_saying_why_R_RAID_3_R_TECH_PLASMA() -> None:
    """Finding: "Nothing more to take: stop here." with the Holographic Decoy still there to
    take, and for the Plasma Cannon after one hit with another ship there and the fuel for
    it ("take" is the wrong word for the cannon)."""
    decoy = scenario(players=2, undocked="1 2 3", fuel=[0, 3], ore=[0, 3], cards={1: ["decoy"]})
    decoy = act(decoy, "dock raiders 1 2 3")
    g = learn.guidance(at("end_game"), decoy)
    assert g is not None and str(g.action) == "steal card decoy p2"
    assert said(g).endswith("Take Holographic Decoy from AI 1 (easy).")
    cannon = scenario(
        players=2, undocked="3", fuel=[5, 0], cards={0: ["plasma"]}, docks={"solar": "p2:4 p2:2"}
    )
    cannon = act(cannon, "use plasma solar p2:4")
    assert isinstance(cannon.pending[0], PlasmaDecision)
    g = learn.guidance(at("end_game"), cannon)
    assert g is not None and str(g.action) == "hit p2:2" and "take" not in said(g), said(g)
    short = scenario(
        players=2, undocked="3", fuel=[2, 0], cards={0: ["plasma"]}, docks={"solar": "p2:4 p2:2"}
    )
    short = act(short, "use plasma solar p2:4")
    g = learn.guidance(at("booster"), short)  # the Booster Pod's lesson needs 1 fuel
    assert g is not None and g.action == Done()
    assert said(g).endswith("Stop firing: keep your fuel for the next lessons.")


# ---- what another pick did ------------------------------------------------------------


def test_learn_a_combined_pick_is_answered_with_all_it_did() -> None:
    """Finding: "3 fuel from AI 1 (easy)" answered "You took 1 fuel from AI 1 (easy).";
    "Alien Artifact: 5 + 5, then claim Polarity Device" answered "You docked 5 at the Alien
    Artifact." with no word of the claim; returning other resources than the ⭐ answered
    "You chose another move than the marked one."."""
    raid = act(
        scenario(players=2, undocked="1 2 3 4", fuel=[0, 3], ore=[0, 3]), "dock raiders 1 2 3"
    )
    p = at("end_game")
    assert answer(p, raid, ["steal fuel p2"] * 3) == "You took 3 fuel from AI 1 (easy)."
    mixed = answer(p, raid, ["steal fuel p2", "steal ore p2", "steal ore p2"])
    assert mixed == "You took 1 fuel and 2 ore from AI 1 (easy)."
    art = scenario(players=2, undocked="5 5 1", display=("polarity", "city", "decoy"))
    done = answer(at("end_game"), art, ["dock artifact 5", "dock artifact 5", "claim polarity"])
    assert done == "You docked 5 5 at the Alien Artifact. You claimed Polarity Device."
    full = scenario(players=2, undocked="", fuel=[7, 0], ore=[3, 0])
    full.pending = [ReturnExcessDecision(0, 2)]
    g = learn.guidance(at("end_game"), full)
    assert g is not None and str(g.action) == "return 2 fuel 0 ore"
    assert answer(at("end_game"), full, ["return 0 fuel 2 ore"]) == "You returned 2 ore."


def test_learn_a_field_placed_by_another_pick_is_told_what_it_does_R_FIELD_ISO() -> None:
    """Finding: fields placed 10 times in a game without being told what they do."""
    s = scenario(players=2, undocked="3 4", cards={0: ["stasis"]}, colonies={"lem": [0, 1]})
    said_ = answer(at("solar"), s, ["discard stasis lem"])
    assert said_.startswith("You discarded Stasis Beam: the Isolation Field on Lem Badlands")
    assert "voids its bonus" in said_


def test_learn_a_lesson_that_goes_on_at_once_is_not_said_to_come_back_later() -> None:
    """Finding: "This lesson comes back later" for the launch lesson in its second turn,
    when it came back only at the next pick of that turn, never after."""
    s = scenario(players=2, undocked="1 1 5", fuel=[1, 0], ore=[1, 0], hub={0: 3})
    p = new_turn(at("launch"), s)
    p = replace(p, tries=(("launch", MAX_TRIES - 1),))  # its second turn
    g = learn.guidance(p, s)
    assert g is not None and g.lesson == "launch"
    other = parse("dock artifact 1")
    after = apply(s, other)
    later = learn.advance(p, s, other, after)
    assert comes_back(p, "launch", after, later) == "now"
    assert answer(p, s, ["dock artifact 1"]).endswith("The lesson goes on: see 📘.")


# ---- the ⭐ on what the lesson says -----------------------------------------------------


def test_learn_a_turn_the_lesson_was_not_shown_is_no_try() -> None:
    """Finding: a two-turn lesson whose first turn went to a ⭐ that only gathered resources
    (the Terraforming Station's), then one stray in the second ended it for good."""
    s = scenario(players=2, undocked="4 5")
    on = replace(at("terraform"), on=("terraform",))  # on, never shown
    p = new_turn(on, s)
    assert p.tried("terraform") == 0 and "terraform" not in p.done
    shown = replace(at("terraform"), on=("terraform",), offered=("terraform",))
    assert new_turn(shown, s).tried("terraform") == 1


def test_learn_a_rule_said_without_its_pick_names_the_marked_pick() -> None:
    """Finding: the Colony Constructor lesson with ⭐ on "Lunar Mine: 5" (3 ore out of
    reach), the relic lesson with ⭐ on the Lunar Mine: the rule is said with the line of
    the pick the ⭐ marks."""
    s = scenario(players=2, undocked="4 4 4 5", ore=[1, 0])
    last = replace(at("constructor"), tries=(("constructor", MAX_TRIES - 1),))
    g = learn.guidance(last, s)
    assert g is not None and g.lesson == "constructor" and g.kind == "rule"
    assert g.then is not None and text(g.then.key, "en", g.then.params).startswith("Dock")
    assert str(g.action).split()[0] in ("dock", "end")
    relic = scenario(players=2, undocked="4 5", fuel=[1, 0], ore=[1, 0])
    lastr = replace(at("relic"), tries=(("relic", MAX_TRIES - 1),))
    g = learn.guidance(lastr, relic)
    assert g is not None and g.lesson == "relic" and g.then is not None


def test_learn_a_colony_placed_for_a_lesson_has_its_placement_text() -> None:
    """A lesson set up with a colony (the relic ship's, Asimov's) says where it goes when
    the colony is to be placed, not "Pay: dock at the …" with no ships."""
    s = scenario(players=2, undocked="3")
    s.pending = [PlaceColonyDecision(0, "launch")]
    g = learn.guidance(at("relic"), s)
    assert g is not None and g.lesson == "relic" and g.key == "learn.lesson.relic.place"
    assert str(g.action) == "place burroughs"


def test_learn_the_ai_never_ends_the_game_even_when_every_move_spoils_a_lesson() -> None:
    """Found on a straying run: the AI, its ships all docked but one the lessons' docks
    would take, launched its last colony and ended the game before the last lessons."""
    per = 8
    s = scenario(
        players=2,
        current=1,
        undocked="4",
        fuel=[0, 2],
        ore=[0, 2],
        hub={1: 7},
        colonies={"pohl": [0, per - 1]},
        stock={0: 0},
        docks={"mine": "p2:4", "solar": "p1:1 p1:1 p1:1 p1:2 p1:2 p1:2 p2:1"},
    )
    legal = [str(a) for a in legal_actions(s)]
    assert "launch" in legal and all(
        x in ("launch", "dock artifact 4", "dock mine 4") for x in legal
    )
    chosen: Action = learn.opponent_move(at("end_game"), s, parse("launch"))
    assert str(chosen) != "launch" and not apply(s, chosen).over


# ---- the Hint ---------------------------------------------------------------------------


def test_learn_the_hint_follows_the_stars_and_says_why_the_ai_would_not() -> None:
    """Finding: the Hint's first pick was the ⭐ with "Left to itself, the normal AI would
    start with X; the ⭐ pick is there to teach." (not why), and what it said next went
    against the lesson ("makes a 2 for the Solar Converter" after the ⭐ Stasis Beam that
    makes a pair for the Shipyard). It now gives the ⭐ picks of the turn, each with why,
    and when the normal AI would start otherwise, its pick and its reason."""
    rich = scenario(
        players=2, undocked="2 3 4", cards={0: ["stasis"]}, fuel=[3, 0], ore=[2, 0], stock={0: 2}
    )
    p = at("use")
    plan = guided_plan(p, rich)
    assert [str(a) for a in plan[:2]] == ["use stasis 3", "dock yard 2 2"]
    hint = guided_hint(p, rich, 1, NAMES, "en").split("\n")
    assert hint[0].startswith("💡 The ⭐ picks for the rest of your turn")
    assert hint[1].startswith("1. Stasis Beam") and "Solar Converter" not in hint[1], hint
    assert "makes a 2 for the Shipyard" in hint[1] and "Shipyard" in hint[2], hint
    # The AI's judgements of its own plan are not said of the ⭐ picks.
    assert not any("nothing more pays off" in x or "best option" in x for x in hint), hint
    own = hint_plan(rich, 1)
    if own[:1] != plan[:1]:
        assert hint[-1].startswith("The normal AI would start with") and " → " in hint[-1]


def test_learn_the_hints_reasons_in_a_guided_game_are_true() -> None:
    """The Hint's reasons along the ⭐ picks of a guided game (a strayer's; more games in
    tests/benchmarks/learn_runs.py --hint), each checked by the hint-truth benchmark's
    checks: none false."""
    from tests.benchmarks import hint_truth
    from tests.bot.play.learn.learn_sim import play

    checked = []
    for seed, follow in ((3, 0.5),):
        run = play(seed, "mixed", follow)
        progress = learn.start()
        s = new_game(GameConfig(players=2))
        for a in run.log:
            guided = s.to_act() == learn.LEARNER and learn.guidance(progress, s) is not None
            if guided and s.version % 3 == 0:
                checked += hint_truth.check_plan(s, guided_plan(progress, s))
            after = apply(s, a)
            progress = learn.advance(progress, s, a, after)
            s = after
    assert len(checked) > 30
    assert [c for c in checked if c.verdict == "false"] == [], hint_truth.summary(checked)


def test_learn_a_rule_said_in_a_coachs_words_is_a_lesson_line_with_its_pick() -> None:
    """An expert read "📘 🎓 Orbital Teleporter: …" (a coach's line said as a lesson) and
    no word of the ⭐ pick under it. The lesson line drops the 🎓 and the marked pick's
    line follows it."""
    s = scenario(players=2, undocked="4 5")
    last = replace(at("teleporter"), tries=(("teleporter", MAX_TRIES - 1),))
    g = learn.guidance(last, s)
    assert g is not None and g.key == "coach.card.teleporter" and g.kind == "rule"
    lines = guidance_lines(g, "en", NAMES)
    assert lines[-2].startswith("📘 Orbital Teleporter: for 2 fuel"), lines
    assert "🎓" not in "\n".join(lines)
    assert g.then is not None and lines[-1] == text(g.then.key, "en", g.then.params, NAMES)


def test_learn_a_rule_only_lesson_is_said_once_even_in_its_last_turn() -> None:
    """Found on a straying run: "Your last colony is not bound to the Colony Hub" and how
    the game ends said again and again, and "comes back later" after them: in their last
    turn such lessons were said as rules (never done). They are done once said."""
    s = scenario(players=2, undocked="4 5")
    for lesson in ("last_colony", "end_game", "closed", "decoy", "lock", "crystal"):
        p = replace(at(lesson), waits=((lesson, WAIT_LIMIT - 1),))
        g = learn.guidance(p, s)
        assert g is not None and g.lesson == lesson and g.kind == "own", (lesson, g)
        after = apply(s, g.action)
        assert lesson in learn.advance(p, s, g.action, after).taught


# ---- turns ------------------------------------------------------------------------------


def test_learn_the_next_chapter_starts_once_every_lesson_of_this_one_was_said() -> None:
    """Finding: "a strayer needs 30-35 turns instead of 16": a chapter was played again
    until each of its lessons was done or let go. Once each was said, the next chapter
    starts and the lessons not done come along, their dice after the new chapter's."""
    s = scenario(players=2, undocked="4 5")
    said = replace(at("heinlein"), stated=("heinlein",))  # the tip said, the trade not made
    p = new_turn(said, s)
    assert p.chapter == BY_ID["artifact"].chapter and "heinlein" not in p.done
    assert {"heinlein", "artifact"} <= {x.id for x in p.active()}  # it comes along
    unsaid = new_turn(at("heinlein"), s)
    assert unsaid.chapter == BY_ID["heinlein"].chapter  # not said yet: the chapter stays


def test_learn_a_lesson_promised_later_comes_first_when_its_last_turn_passed_it_by() -> None:
    """Found on straying runs: "This lesson comes back later" for Asimov Crater, whose last
    turn then ended before any decision reached it: it was let go unseen. A lesson whose
    turns are over but was not said in the last one is said first in the next."""
    s = scenario(players=2, undocked="4 5", cards={0: ["crystal"]}, colonies={"lem": [1, 0]})
    p = replace(at("positron"), stated=("asimov",), waits=(("asimov", WAIT_LIMIT),))
    other = learn.guidance(replace(p, waits=()), s)
    assert other is not None and other.lesson == "positron"  # (its pick, else)
    g = learn.guidance(p, s)
    assert g is not None and g.lesson == "asimov"
    after = apply(s, g.action)
    p2 = learn.advance(p, s, g.action, after)
    assert "asimov" in p2.said

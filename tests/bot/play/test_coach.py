"""The coach explains a facility, a card or a territory bonus the first time a member can
use it (``bot.play.coach_things``): a line for every thing, what may be used agreeing with the legal
moves, what a move uses, and nothing said about a thing used before."""

from __future__ import annotations

import random
from typing import cast

import pytest

from bot.play.coach_things import (
    ORDER,
    coach_line,
    first_thing,
    first_things,
    usable_things,
    used_things,
)
from bot.text import i18n
from bot.text.strings import english, text, thing_name
from engine import CHANCE, GameConfig, GameState, apply_in_place, legal_actions, new_game, parse
from engine.ai import make_ai
from engine.chance import sample_chance
from engine.selfplay import random_action
from engine.tables import CARDS, FACILITY_ORDER, TERRITORIES, TerritoryId
from engine.tech.card import CATALOGUE
from engine.territories import has_bonus
from tests.engine.scenario import scenario

THINGS = [
    *(f"facility:{f}" for f in FACILITY_ORDER),
    *(f"card:{c}" for c in CARDS),
    *(f"bonus:{t}" for t in TERRITORIES),
]
# Bonuses used by every move of a kind, with how those moves are written.
DOCKING_BONUSES: list[tuple[TerritoryId, str]] = [
    ("lem", "dock solar"),
    ("herbert", "dock yard"),
    ("bradbury", "dock constructor"),
    ("burroughs", "buy relic"),
]
PASSIVE = {c for c in CARDS if CATALOGUE[c].use is None and CATALOGUE[c].discard is None}


@pytest.mark.parametrize("language", ["en", "ru", "pl"])
def test_every_facility_card_and_territory_bonus_has_a_coach_line(language: str) -> None:
    assert sorted(ORDER) == sorted(THINGS)
    lines = set()
    for thing in THINGS:
        line = coach_line({thing}, language)
        assert line is not None, thing
        assert line.startswith("🎓 ") and len(line) <= 160, (thing, len(line))
        lines.add(line)
        # The line names its thing, by its name in the language of the line (English
        # until the line is translated).
        key = "coach." + thing.replace(":", ".")
        translated = i18n.translated(key, english(key), language) is not None
        name = thing_name(thing.split(":")[1], language if translated else "en")
        assert name in line, (language, thing, line)
    assert len(lines) == len(THINGS)  # one line each, none shared


def test_the_first_new_thing_in_a_fixed_order_is_explained_and_a_used_one_never() -> None:
    new = {"card:booster", "bonus:lem", "facility:mine"}
    assert coach_line(new) == text("coach.facility.mine", "en")
    assert coach_line(new - {"facility:mine"}) == text("coach.bonus.lem", "en")
    assert coach_line({"card:booster"}, "pl") == text("coach.card.booster", "pl")
    assert coach_line(set()) is None
    assert coach_line({"facility:nowhere"}) is None  # an unknown id has no line
    s = scenario(players=2, undocked="3 3 5", cards={0: ["booster"]}, fuel=[2, 0])
    usable = usable_things(s, 0)
    assert {"facility:solar", "facility:market", "card:booster"} <= usable
    used = set(usable)  # a member who has used everything here is told nothing
    assert coach_line(usable - used) is None
    used.discard("card:booster")
    assert coach_line(usable - used) == text("coach.card.booster", "en")


def test_used_things_of_a_docking_names_that_facility_and_the_bonus_it_uses_R_COL_4() -> None:
    s = scenario(players=2, undocked="3 3 2", fuel=[4, 0])
    assert used_things(s, parse("dock solar 3")) == {"facility:solar"}
    assert used_things(s, parse("dock market 3 3")) == {"facility:market"}
    lem = scenario(players=2, undocked="3", colonies={"lem": [1, 0]})
    assert used_things(lem, parse("dock solar 3")) == {"facility:solar", "bonus:lem"}
    assert "bonus:lem" in usable_things(lem, 0)
    # An Isolation Field voids the bonus (R-FIELD-ISO): the docking does not use it.
    isolated = scenario(
        players=2, undocked="3", colonies={"lem": [1, 0]}, fields={"isolation": "lem"}
    )
    assert used_things(isolated, parse("dock solar 3")) == {"facility:solar"}


def test_van_vogt_is_used_only_by_a_ship_the_mine_takes_thanks_to_it_R_MINE() -> None:
    s = scenario(players=2, undocked="2 5", docks={"mine": "p2:4"}, colonies={"vanvogt": [1, 0]})
    assert used_things(s, parse("dock mine 2")) == {"facility:mine", "bonus:vanvogt"}
    assert used_things(s, parse("dock mine 5")) == {"facility:mine"}
    assert "bonus:vanvogt" in usable_things(s, 0)


def test_used_things_of_a_card_use_names_the_card_R_TECH_2() -> None:
    s = scenario(players=2, undocked="3", cards={0: ["booster", "stasis"]}, fuel=[2, 0])
    assert used_things(s, parse("use booster 3")) == {"card:booster"}
    assert used_things(s, parse("discard stasis lem")) == {"card:stasis"}
    pohl = scenario(
        players=2, undocked="3", cards={0: ["booster"]}, fuel=[2, 0], colonies={"pohl": [1, 0]}
    )
    assert used_things(pohl, parse("use booster 3")) == {"card:booster", "bonus:pohl"}
    # A card without a power works by being held: used at every decision of its holder.
    decoy = scenario(players=2, undocked="3", cards={0: ["decoy"]})
    assert used_things(decoy, parse("dock solar 3")) == {"facility:solar", "card:decoy"}
    assert "card:decoy" in usable_things(decoy, 0)


def test_only_the_seat_to_act_can_use_anything() -> None:
    s = scenario(players=2, undocked="3", cards={1: ["booster"]}, fuel=[0, 3])
    assert usable_things(s, 1) == set()  # their Booster Pod waits for their turn
    assert usable_things(s, 0) == {
        "facility:solar",
        "facility:mine",
        "facility:hub",
        "facility:artifact",
    }


def expected_from_notation(s: GameState, seat: int) -> set[str]:
    """What the legal moves use, read from their notation (not from
    ``bot.play.coach_things``'s rule): facilities, cards; and the cards without a power held."""
    found = {f"card:{c}" for c in s.players[seat].cards if c in PASSIVE}
    for a in legal_actions(s):
        words = str(a).split()
        if words[0] == "dock":
            found.add(f"facility:{words[1]}")
        elif words[0] == "use":
            found.add(f"card:{words[1]}")
            if words[1] in ("teleporter", "helm"):
                found.add(f"facility:{words[words.index('to') + 1]}")
        elif words[0] == "discard":
            found.add(f"card:{words[1]}")
        elif words[0] == "hit":
            found.add("card:plasma")
        elif words[0] == "trade":
            found.add("facility:market")
        elif words[0] == "launch":
            found.add("facility:hub")
        elif words[0] in ("cycle", "claim"):
            found.add("facility:artifact")
    return found


def test_usable_things_agree_with_legal_actions_on_random_games() -> None:
    bonuses_seen: set[str] = set()
    checked = 0
    for seed in range(8):
        rng = random.Random(seed)
        config = GameConfig(players=2 + seed % 3, mind_control_helm=seed % 2 == 0)
        s = new_game(config)
        while not s.over:
            seat = s.to_act()
            if seat != CHANCE:
                usable = usable_things(s, seat)
                things = {t for t in usable if not t.startswith("bonus:")}
                assert things == expected_from_notation(s, seat), str(s.version)
                moves = [str(a) for a in legal_actions(s)]
                for thing in usable - things:
                    territory = cast(TerritoryId, thing.split(":")[1])
                    assert has_bonus(s, seat, territory)
                    bonuses_seen.add(thing)
                for bonus, starts in DOCKING_BONUSES:
                    can = any(m.startswith(starts) for m in moves)
                    assert (f"bonus:{bonus}" in usable) == (has_bonus(s, seat, bonus) and can)
                uses = any(m.startswith("use ") for m in moves)
                assert ("bonus:pohl" in usable) == (has_bonus(s, seat, "pohl") and uses)
                for other in range(s.num_players):
                    if other != seat:
                        assert usable_things(s, other) == set()
                # what a move uses is among what could be used
                move = random_action(s, rng)
                assert used_things(s, move) <= usable
                checked += 1
                apply_in_place(s, move)
            else:
                apply_in_place(s, random_action(s, rng))
    assert checked > 1000
    assert len(bonuses_seen) >= 4, bonuses_seen  # the bonus checks did run


def coached_game(seed: int, before_pick: bool) -> tuple[int, int]:
    """A coached newcomer (seat 0, the easy AI's picks) against two easy AIs: of the things
    they use for the first time, how many had their line shown before that pick (the
    lines before each pick, ``first_things``; or, as before, the one line of the answer to
    the previous move, ``first_thing`` after it)."""
    s = new_game(GameConfig(players=3))
    rng = random.Random(seed)
    ais = [make_ai("easy", seed=seed * 10 + p) for p in range(3)]
    used: set[str] = set()
    explained: set[str] = set()
    covered = first = 0
    while not s.over:
        seat = s.to_act()
        if seat == CHANCE:
            apply_in_place(s, sample_chance(s, rng))
            continue
        move = ais[seat].choose(s.copy())
        if seat == 0:
            if before_pick:
                explained.update(first_things(usable_things(s, 0) - used - explained))
            now = used_things(s, move)
            first += len(now - used)
            covered += len((now - used) & explained)
            used |= now
        apply_in_place(s, move)
        if seat == 0 and not before_pick and not s.over and s.to_act() == 0:
            thing = first_thing(usable_things(s, 0) - used - explained)
            explained.update([thing] if thing else [])
    return covered, first


def test_the_coach_explains_a_thing_before_the_pick_that_first_uses_it() -> None:
    """Issue 41: the 🎓 line came in the answer to a move, so a thing first used by a pick
    was never explained before it (4 of 17 things). Before the pick, every thing a
    newcomer uses has had its line."""
    now = [coached_game(seed, before_pick=True) for seed in (1, 2)]
    assert all(covered == first >= 8 for covered, first in now), now
    then = [coached_game(seed, before_pick=False) for seed in (1, 2)]
    assert sum(c for c, _ in then) < sum(f for _, f in then)  # the old way missed some

"""Is the Hint's advice true? Seeded games between normal AIs; at every decision with a
choice the seat to act asks the Hint (the normal AI's plan for the rest of its turn, each
pick with its reason: ``engine.ai.reasons``), and every reason's claim is checked by
playing out what it says:

- what a pick does now (a colony and its VP, control taken or tied, a ship, a card, the
  resources it gains, the colony's space on the Colony Hub, the Alien Artifact's total,
  a field generator's territory...): read on the state after the pick;
- what it opens later in the plan ("a colony this turn", "makes a 6 for the Terraforming
  Station", "clears the Shipyard for your ships"): the rest of the plan does it;
- what it promises for later turns: "holds the Lunar Mine before Kai can use it" at Kai's
  turn start (Kai's own ships are back with Kai then), "keeps Kai from raiding you" over
  every roll Kai can make at that turn start, "a colony next turn" over every roll of the
  seat's next turn with what the plan leaves it;
- a pick that needs chance to go one way (a card the display must turn up after a cycle,
  the dice of a reroll): the odds, enumerated. Said as certain while they are below 1,
  the claim is misleading; "if it turns up" is what such a claim must say.

A claim is **true** when it holds; **misleading** when it holds only with luck the words
do not admit (the odds are printed); **false** when it does not hold as the plan plays.
The judgements of the evaluation ("nothing more pays off this turn", "the best option by
the AI's count") are checked for what they say of the move only (the turn ends, nothing
more is taken).

    python tests/benchmarks/hint_truth.py [--games 4] [--players 2,3,4] [--seed 1]
        [--width 16] [--nodes 600] [--every 1]

The last line is ``hints: N reasons checked, T true, M misleading, F false``.
``tests/engine/ai/test_hint_reasons.py`` runs a small seeded version of it by default.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, cast

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # (tests.engine.scenario)

from engine import (
    CHANCE,
    GameConfig,
    GameState,
    apply_in_place,
    legal_actions,
    new_game,
    parse,
)
from engine.actions import (
    Action,
    Cycle,
    Dock,
    Done,
    EndTurn,
    Helm,
    Launch,
    Place,
    Relocation,
    ReturnExcess,
    StealCard,
    Teleport,
)
from engine.ai import NormalAI
from engine.ai.reasons import Pick, Reason, explain_plan
from engine.board import colour_ships_in_play, set_docks
from engine.chance import chance_outcomes, sample_chance
from engine.facilities import FACILITY_RULES
from engine.facilities.orbital_market import market_rate
from engine.scoring import outcome, victory_points
from engine.state import PlaceColonyDecision, PlasmaDecision, RaidDecision, ReturnExcessDecision
from engine.tables import (
    ARTIFACT_CLAIM_TOTAL,
    HUB_TRACK_LENGTH,
    CardId,
    FacilityId,
    FieldId,
    TerritoryId,
)
from engine.tech.card import card_vp

Verdict = Literal["true", "misleading", "false"]
SURE = 1 - 1e-9
CHANCE_LEAVES = 4000  # outcomes enumerated at most for one chance point (else sampled)


@dataclass(frozen=True, slots=True)
class Checked:
    """One reason's claim, checked: its kind, the verdict and what was found."""

    kind: str
    verdict: Verdict
    note: str = ""
    odds: float = 1.0  # how likely the plan reaches this pick as it was explained


# ---- the plan as it plays ---------------------------------------------------------------


def applied(s: GameState, action: Action, times: int = 1) -> GameState:
    t = s.copy()
    for i in range(times):
        if i and (t.to_act() == CHANCE or action not in legal_actions(t)):
            break
        apply_in_place(t, action)
    return t


def settle(s: GameState, rng: random.Random) -> GameState:
    """``s`` with its pending chance sampled."""
    t = s.copy()
    while not t.over and t.to_act() == CHANCE:
        apply_in_place(t, sample_chance(t, rng))
    return t


def odds_played(chance: GameState, picks: Sequence[Pick], me: int) -> list[float]:
    """For each of ``picks`` (the plan's picks after the chance pending in ``chance``): the
    odds that it is played as planned, over the outcomes of that chance (the first draw
    enumerated, the rest sampled): the plan is played on, its picks that are not legal
    then skipped."""
    outcomes = chance_outcomes(chance)
    if len(outcomes) > 300:
        rng = random.Random(f"odds:{chance.version}")
        draws = [(sample_chance(chance, rng), 1 / 300) for _ in range(300)]
    else:
        draws = list(outcomes)
    played = [0.0] * len(picks)
    for outcome_, p in draws:
        s = chance.copy()
        apply_in_place(s, outcome_)
        s = settle(s, random.Random(f"settle:{chance.version}:{outcome_}"))
        for j, pick in enumerate(picks):
            if s.over or s.to_act() != me or pick.action not in legal_actions(s):
                continue
            played[j] += p
            s = settle(applied(s, pick.action, pick.times), random.Random(s.version))
    return played


def colony_odds(end: GameState, me: int) -> float:
    """The chance that the seat can pay for a colony at its next turn, whatever it rolls,
    with what the plan leaves it."""
    s = own_turn_start(end, me)
    total = 0.0
    for t, p in rolls(s):
        acts = legal_actions(t)
        if any(
            isinstance(a, Launch)
            or (isinstance(a, Dock) and a.facility in ("terraform", "constructor"))
            for a in acts
        ):
            total += p
    return total


def plan_end(picks: Sequence[Pick]) -> GameState | None:
    """The state after the plan's last pick, as the explanation followed it."""
    last = picks[-1] if picks else None
    if last is None or last.before is None:
        return None
    return applied(last.before, last.action, last.times)


def rolls(s: GameState) -> Iterator[tuple[GameState, float]]:
    """Every roll of the seat about to roll in ``s``, with its chance."""
    if s.over or s.to_act() != CHANCE:
        yield s, 1.0
        return
    for o, p in chance_outcomes(s):
        t = s.copy()
        apply_in_place(t, o)
        if t.to_act() == CHANCE:  # the Resource Cache has no chance; a reveal may follow
            t = settle(t, random.Random(t.version))
        yield t, p


# ---- what a later turn allows -----------------------------------------------------------


def own_turn_start(end: GameState, me: int) -> GameState:
    """The seat's next turn start as far as the board allows: the other seats, who all play
    before it, have taken their ships back (where they dock again is theirs to choose),
    and ``me`` has gathered its own and is to roll."""
    from engine.turn import gather, start_turn

    s = end.copy()
    s.pending = []
    for q in range(s.num_players):
        if q != me:
            gather(s, q)
    start_turn(s, me)
    return s


def with_roll(s: GameState, values: Sequence[int]) -> GameState:
    """``s`` (a roll pending) with its dice showing ``values`` (the relic ship's last)."""
    from engine.actions import Die, Roll
    from engine.state import RollDecision

    d = s.pending[0]
    assert isinstance(d, RollDecision)
    dice = [Die(v) for v in values[: d.dice]]
    if d.relic:
        dice.append(Die(values[-1], True))
    t = s.copy()
    apply_in_place(t, Roll(tuple(sorted(dice))))
    while not t.over and t.to_act() == CHANCE:
        t = settle(t, random.Random(t.version))
    return t


def can_next_turn(end: GameState, me: int, facility: str, need: str) -> bool:
    """Whether the seat can dock at ``facility`` at its next turn with a roll of ``need``:
    "6" (a six among its dice), "same" (all alike, some value), "any"."""
    s = own_turn_start(end, me)
    d = s.pending[0]
    n = getattr(d, "dice", 0) + int(getattr(d, "relic", False))
    values = {
        "6": [[6] * n],
        "same": [[v] * n for v in range(1, 7)],
        "any": [[v] * n for v in range(1, 7)],
    }[need]
    for vs in values:
        t = with_roll(s, vs)
        acts = legal_actions(t)
        if facility == "launch" and any(isinstance(a, Launch) for a in acts):
            return True
        if any(isinstance(a, Dock) and a.facility == facility for a in acts):
            return True
    return False


def room_for(s: GameState, q: int, facility: FacilityId, me: int) -> bool:
    """Whether ``facility`` has room for q at q's turn start: q's own ships and those of
    the seats playing before q are gathered by then (they may come back: counted gone)."""
    t = s.copy()
    n = t.num_players
    leaving = {q}
    seat = (me + 1) % n
    while seat != q:
        leaving.add(seat)
        seat = (seat + 1) % n
    slots = t.docks[facility]
    set_docks(t, facility, [None if x is not None and x.owner in leaving else x for x in slots])
    return FACILITY_RULES[facility].free_group(t) is not None


def raid_odds(end: GameState, q: int, me: int) -> float:
    """The chance that q can dock a run at the Raiders' Outpost at q's next turn start (over
    q's rolls), the outpost as it stands after the plan without the ships q and the seats
    playing before q gather."""
    from engine.turn import start_turn

    s = end.copy()
    n = s.num_players
    leaving = {q}
    seat = (me + 1) % n
    while seat != q:
        leaving.add(seat)
        seat = (seat + 1) % n
    slots = s.docks["raiders"]
    set_docks(s, "raiders", [None if x is not None and x.owner in leaving else x for x in slots])
    s.pending = []
    start_turn(s, q)
    total = 0.0
    for t, p in rolls(s):
        if any(isinstance(a, Dock) and a.facility == "raiders" for a in legal_actions(t)):
            total += p
    return total


# ---- one reason --------------------------------------------------------------------------


def check_plan(state: GameState, plan: Sequence[Action]) -> list[Checked]:
    """Every reason of the Hint for ``plan`` (the seat to act in ``state``), checked."""
    picks = explain_plan(state, plan)
    me = state.to_act()
    end = plan_end(picks)
    odds = [1.0] * len(picks)
    for i, pick in enumerate(picks):
        if pick.before is None:
            odds[i] = 0.0
            continue
        after = applied(pick.before, pick.action, pick.times)
        if i + 1 < len(picks) and not after.over and after.to_act() == CHANCE:
            for j, o in enumerate(odds_played(after, picks[i + 1 :], me), start=i + 1):
                odds[j] *= o
    return [
        check_pick(pick, picks[i + 1 :], me, end, odds[i])
        for i, pick in enumerate(picks)
        if pick.reason is not None
    ]


def conditional(reason: Reason) -> bool:
    """Whether the words admit the luck a claim needs ("if it turns up")."""
    return reason.luck is not None


def check_pick(
    pick: Pick, rest: Sequence[Pick], me: int, end: GameState | None, odds: float
) -> Checked:
    reason = pick.reason
    assert reason is not None
    kind = reason.kind
    if pick.before is None:
        verdict: Verdict = "true" if conditional(reason) else "misleading"
        return Checked(kind, verdict, "after chance the plan did not foresee", 0.0)
    b = pick.before
    a = applied(b, pick.action, pick.times)
    ok, note = claim_holds(reason, pick, b, a, rest, me, end)
    if not ok:
        return Checked(kind, "false", note, odds)
    if odds < SURE and not conditional(reason):
        return Checked(kind, "misleading", f"needs chance ({odds:.0%}) {note}".strip(), odds)
    if note.startswith("odds "):
        return Checked(kind, "misleading", note, odds)
    return Checked(kind, "true", note, odds)


def later_places(rest: Sequence[Pick], me: int) -> bool:
    for p in rest:
        if p.before is None:
            return False
        if isinstance(p.action, EndTurn):
            return False
        if isinstance(p.action, Place) and p.before.to_act() == me:
            return True
    return False


def later_dock(rest: Sequence[Pick], facility: str, value: int | None = None) -> bool:
    for p in rest:
        if isinstance(p.action, EndTurn):
            return False
        target = None
        dice: tuple[object, ...] = ()
        if isinstance(p.action, Dock):
            target, dice = p.action.facility, p.action.dice
        elif isinstance(p.action, Relocation):
            target, dice = p.action.target, p.action.dice
            if isinstance(p.action, Teleport):
                dice = (p.action.die, *p.action.dice)
            elif isinstance(p.action, Helm):
                dice = (p.action.ship, *p.action.dice)
        if target == facility and (
            value is None or any(getattr(d, "value", 0) == value for d in dice)
        ):
            return True
    return False


def claim_holds(
    reason: Reason,
    pick: Pick,
    b: GameState,
    a: GameState,
    rest: Sequence[Pick],
    me: int,
    end: GameState | None,
) -> tuple[bool, str]:
    """Whether the claim of ``reason`` holds (and a note), ``b`` and ``a`` the states
    before and after the pick."""
    k, params = reason.kind, reason.params
    action = pick.action
    vp = victory_points(a, me) - victory_points(b, me)
    pb, pa = b.players[me], a.players[me]
    t = cast(TerritoryId, params.get("territory", "lem"))
    c = cast(CardId, params.get("card", "city"))
    q = int(params.get("player", params.get("victim", 0)))
    if k == "win":
        result = outcome(a)
        return result is not None and me in result.winners, "the game ends with the seat winning"
    # A figure of VP is held to the exact gain ("+2 VP" where the Positron Field made it +3
    # is false).
    if k == "colony":
        return a.colonies[t][me] > b.colonies[t][me] and vp == 1, f"vp {vp:+d}"
    if k == "control_gain":
        return b.controller[t] is None and a.controller[t] == me, ""
    if k in ("control", "control_positron"):
        new = a.colonies[t][me] > b.colonies[t][me]
        ctl = b.controller[t] is None and a.controller[t] == me
        worth = 3 if k == "control_positron" else 2
        return new and ctl and vp == worth, f"vp {vp:+d}"
    if k == "take":
        return b.controller[t] == q and a.controller[t] == me, ""
    if k == "deny":
        return b.controller[t] == q and a.controller[t] is None, ""
    if k in ("colony_for", "colony_paid"):
        d = a.pending[0] if a.pending else None
        paid = isinstance(d, PlaceColonyDecision) and d.player == me
        if not paid:
            return False, "no colony to place after the pick"
        if k == "colony_for":
            return Place(t) in legal_actions(a), ""
        return True, ""
    if k == "hub":
        return pa.hub == params["space"], f"space {pa.hub}"
    if k == "hub_ready":
        return pa.hub == HUB_TRACK_LENGTH, f"space {pa.hub}"
    if k == "ship":
        built = pa.stock < pb.stock
        return built and colour_ships_in_play(a, me) == params["number"], ""
    if k == "relic":
        return b.relic_on_desert and not a.relic_on_desert, ""
    if k in ("card", "card_if"):
        return c in pa.cards and c not in pb.cards, ""
    if k == "card_vp":
        return c in pa.cards and c not in pb.cards and card_vp(c) > 0 and vp == 1, f"vp {vp:+d}"
    if k == "steal_card":
        taken = c in b.players[q].cards and c not in a.players[q].cards
        return isinstance(action, StealCard) and taken, ""
    if k == "artifact":  # "toward a card": 8 still within reach this turn
        free = sum(1 for x in a.docks["artifact"] if x is None)
        left = sorted((x.value for x in a.undocked), reverse=True)[:free]
        reach = a.turn.artifact_total + sum(left)
        ok = a.turn.artifact_total == params["total"] and reach >= ARTIFACT_CLAIM_TOTAL
        return ok, f"reach {reach}"
    if k == "artifact_ready":
        return a.turn.artifact_total >= ARTIFACT_CLAIM_TOTAL, ""
    if k == "cycle":
        return isinstance(action, Cycle), ""
    if k == "artifact_cycle":
        cycles = any(isinstance(p.action, Cycle) for p in rest)
        return isinstance(action, Dock) and action.facility == "artifact" and cycles, ""
    if k == "market":
        return market_rate(a, me) == params["rate"], ""
    if k.startswith("gain") or k == "steal":
        r = str(params["resource"])
        got = getattr(pa, r) - getattr(pb, r)
        if got != params["amount"]:
            return False, f"gained {got}"
        if k == "steal":
            v = int(params["victim"])
            return getattr(b.players[v], r) - getattr(a.players[v], r) == got, ""
        return gain_holds(k, reason, a, rest, me, end)
    if k == "block_raid":
        if end is None or end.over:
            return False, "the plan does not end the turn"
        odds = raid_odds(end, q, me)
        if odds > 0:
            return True, f"odds {odds:.0%} that the raid is still open"
        return True, ""
    if k == "block_facility":
        f = cast(FacilityId, params["facility"])
        if end is None or end.over or end.current == me:
            return False, "the plan does not end the turn"
        if room_for(end, q, f, me):
            return False, f"room for {q} at {f} at its turn start"
        return True, ""
    if k == "raid":
        d = a.pending[0] if a.pending else None
        return isinstance(d, RaidDecision) and d.player == me, ""
    if k == "clear":
        return later_dock(rest, str(params["facility"])), "the plan docks there later"
    if k in ("blast", "destroy"):
        pq, bq = a.players[q], b.players[q]
        sent = len(pq.bay) > len(bq.bay) or pq.stock > bq.stock
        return sent or (a.relic_on_desert and not b.relic_on_desert), ""
    if k == "tune":
        return later_dock(rest, str(params["facility"]), int(params["value"])), ""
    if k == "borrow":
        return t in a.turn.borrowed, ""
    if k == "move":
        return isinstance(action, Relocation) and action.target == params["facility"], ""
    if k == "isolate":
        return a.fields["isolation"] == t and a.controller[t] == params["player"], ""
    if k == "positron":
        return a.fields["positron"] == t and a.controller[t] == me and vp == 1, f"vp {vp:+d}"
    if k == "repulsor":
        return a.fields["repulsor"] == t and a.controller[t] == me, ""
    if k == "field_free":
        return b.fields["isolation"] == t and a.fields["isolation"] != t, ""
    if k in ("field", "field_off"):
        field = cast(FieldId, params["field"])
        return a.fields[field] == (t if k == "field" else None), ""
    if k == "end":
        return isinstance(action, EndTurn), ""
    if k == "stop_firing":
        d = b.pending[0] if b.pending else None
        return isinstance(action, Done) and isinstance(d, PlasmaDecision), ""
    if k == "stop":
        return isinstance(action, Done), ""
    if k == "keep":
        d = b.pending[0] if b.pending else None
        if not isinstance(d, ReturnExcessDecision) or not isinstance(action, ReturnExcess):
            return False, "not a return"
        kept = params.get("resource")
        if kept is None:
            return True, ""
        other = "ore" if kept == "fuel" else "fuel"
        return getattr(action, other) > getattr(action, str(kept)), ""
    if k == "best":
        return True, ""
    return False, f"no check for {k}"


def gain_holds(
    k: str, reason: Reason, a: GameState, rest: Sequence[Pick], me: int, end: GameState | None
) -> tuple[bool, str]:
    """The claims about what resources gained pay for: this turn (the plan does it), or
    next turn with what the plan leaves (the roll it needs, if any, as said)."""
    if k == "gain":
        return True, ""
    if k == "gain_colony_now":
        return later_places(rest, me), "a colony later in the plan"
    if k == "gain_ship_now":
        built = any(isinstance(p.action, Dock) and p.action.facility == "yard" for p in rest)
        return built, "a ship later in the plan"
    if end is None or end.over:
        return False, "the plan does not end the turn"
    if k == "gain_colony":  # said without a condition: every roll must allow it
        odds = colony_odds(end, me)
        if odds <= 0:
            return False, "no colony can be paid next turn"
        return True, "" if odds >= SURE else f"odds {odds:.0%} of a colony next turn"
    if k == "gain_colony_six":
        return can_next_turn(end, me, "terraform", "6"), "with a 6 next turn"
    if k == "gain_colony_three":
        return can_next_turn(end, me, "constructor", "same"), "with three alike next turn"
    if k == "gain_ship":
        return can_next_turn(end, me, "yard", "same"), "with a pair next turn"
    return False, f"no check for {k}"


# ---- the games ---------------------------------------------------------------------------


def decisions(
    seed: int, players: int, every: float = 1.0, width: int = 16, nodes: int = 600
) -> Iterator[tuple[GameState, list[Action]]]:
    """Every decision (with a choice) of a game between normal AIs, with the Hint's plan
    there (a sample of them: ``every``)."""
    rng = random.Random(seed)
    s = new_game(GameConfig(players=players))
    ais = [NormalAI(seed * 10 + p, width=width, max_nodes=nodes) for p in range(players)]
    hint = NormalAI(seed, width=width, max_nodes=nodes)
    while not s.over:
        seat = s.to_act()
        if seat == CHANCE:
            apply_in_place(s, sample_chance(s, rng))
            continue
        if len(legal_actions(s)) > 1 and rng.random() < every:
            plan = hint.make_plan(s, seat)
            if plan:
                yield s.copy(), plan
        apply_in_place(s, ais[seat].choose(s.copy()))


def cases(width: int = 16, nodes: int = 600) -> Iterator[tuple[str, GameState, list[Action]]]:
    """Positions an expert found a Hint wrong in, with the Hint's plan there: a colony that
    takes control of the Positron Field's territory (+3 VP, said +2), the Alien Artifact
    with 8 out of reach ("toward a card: 3 of 8"), the Plasma Cannon's choice ("nothing
    more worth taking")."""
    from engine.actions import Place
    from tests.engine.scenario import scenario

    positron = scenario(players=2, undocked="", fields={"positron": "burroughs"})
    positron.pending = [PlaceColonyDecision(0, "launch")]
    yield "positron colony", positron, [Place("burroughs")]
    far = scenario(players=2, undocked="3 1", display=("city", "plasma", "decoy"))
    plan = [parse(m) for m in ("dock artifact 3", "dock artifact 1", "end")]  # (a ⭐ plan)
    yield "artifact out of reach", far, plan
    cannon = scenario(
        players=2, undocked="3", fuel=[5, 0], cards={0: ["plasma"]}, docks={"solar": "p2:4 p2:2"}
    )
    apply_in_place(cannon, parse("use plasma solar p2:4"))
    yield (
        "plasma cannon's choice",
        cannon,
        NormalAI(1, width=width, max_nodes=nodes).make_plan(cannon, 0),
    )


def tally(checks: Sequence[Checked]) -> Counter[str]:
    return Counter(c.verdict for c in checks)


def summary(checks: Sequence[Checked]) -> str:
    n = tally(checks)
    return (
        f"hints: {len(checks)} reasons checked, {n['true']} true, "
        f"{n['misleading']} misleading, {n['false']} false"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--width", type=int, default=16)
    parser.add_argument("--nodes", type=int, default=600)
    parser.add_argument("--every", type=float, default=1.0)
    args = parser.parse_args(argv)
    counts = [int(x) for x in args.players.split(",")]
    checks: list[Checked] = []
    by_kind: dict[str, Counter[str]] = {}
    examples: dict[tuple[str, str], str] = {}
    for name, s, plan in cases(args.width, args.nodes):
        for c in check_plan(s, plan):
            checks.append(c)
            by_kind.setdefault(c.kind, Counter())[c.verdict] += 1
            if c.verdict != "true":
                examples.setdefault((c.kind, c.verdict), f"{name}: {c.note}")
    print(f"the expert's positions: {summary(checks)}", file=sys.stderr)
    for g in range(args.games):
        players = counts[g % len(counts)]
        seed = args.seed * 1000 + g
        for s, plan in decisions(seed, players, args.every, args.width, args.nodes):
            for c in check_plan(s, plan):
                checks.append(c)
                by_kind.setdefault(c.kind, Counter())[c.verdict] += 1
                if c.verdict != "true":
                    examples.setdefault((c.kind, c.verdict), f"game {seed} v{s.version}: {c.note}")
        print(f"game {g + 1}/{args.games} ({players} players): {summary(checks)}", file=sys.stderr)
    print("kind                 true  misleading  false")
    for kind in sorted(by_kind):
        n = by_kind[kind]
        print(f"{kind:20s} {n['true']:5d} {n['misleading']:11d} {n['false']:6d}")
    for (kind, verdict), note in sorted(examples.items()):
        print(f"{verdict}: {kind}: {note}")
    print(summary(checks))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

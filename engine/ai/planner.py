"""Look-ahead over one's own turn: a beam search through the sequences of actions that
end the turn, scoring the states reached with an ``Evaluator``.

Decisions inside the turn (stealing, Plasma Cannon hits, returning excess, and by
default placing colonies) are answered greedily, one step at a time; chance inside
the turn (cards revealed after a cycle or a claim) is sampled from the planner's RNG,
so a plan is a determinization: the AI plans again when the real outcome differs.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from heapq import nlargest
from itertools import chain, compress
from operator import is_, itemgetter, not_
from typing import Final, cast

from engine.actions import Action, Die, Dock, Warp
from engine.ai.evaluate import Evaluator
from engine.chance import sample_chance
from engine.legal import legal_actions
from engine.rulebook import RULEBOOK
from engine.rules import apply_in_place
from engine.state import CHANCE, GameState, PlaceColonyDecision, Ship
from engine.tables import FACILITIES, FACILITY_ORDER, FacilityId

MAX_DEPTH: Final = 40
CEILING: Final = 1.25  # times the node budget: past it a node's remaining actions are skipped

Key = tuple[object, ...]
# A state in the search, the actions that led to it, its last plain dock (if the last
# action was one), which fixes the canonical order of the docks that follow, and its key
# (None at the root): the beam's survivors join ``seen``, and their children's keys
# read the docks that did not change from it.
Node = tuple[GameState, list[Action], tuple[int, tuple[Die, ...]] | None, Key | None]
# A child in the beam: its score, its rank among its level's children (earlier first on a
# tie of scores), and the node.
Child = tuple[float, int, Node]
FACILITY_INDEX: Final = {f: i for i, f in enumerate(FACILITY_ORDER)}
_BY_SCORE: Final = itemgetter(0, 1)  # a child's (score, rank): the beam keeps the largest


_UNORDERED: Final = frozenset({"solar", "mine", "artifact"})
# How the key reads each facility's docks: 0 in order, 1 sorted (its docks are alike),
# k > 1 as sets of k docks, sorted (when there is more than one set).
_DOCK_SORT: Final = {
    f: info.group_size if info.group_size > 1 else int(f in _UNORDERED)
    for f, info in FACILITIES.items()
}
_chain: Final = chain.from_iterable


# The fields of the state the key leaves out, and why; every other field is in it
# (tests/engine/test_state_fields.py changes each field and looks).
KEY_LEAVES_OUT: Final[dict[str, str]] = {
    "config": "the same all game",
    "controller": "follows from the colonies, which are in the key",
    "deck": "changes within a turn only along with the display, which is in the key",
    "discard": "changes within a turn only along with the display, which is in the key",
    "first_player": "the same all game",
    "events": "a record of what happened, not the game",
    "version": "counts the actions, not what they did",
}


def state_key(s: GameState, like: tuple[GameState, Key] | None = None) -> Key:
    """What tells two states apart for the rest of a turn (the order of docking aside:
    ships on a facility whose docks are alike, or sets of docks that are alike, are
    sorted).

    The deck and discard pile are left out: within one turn they change only along
    with the display (a cycle or a claim), which is in the key.

    Search computes a key for every state it generates (a quarter of its time went
    here), so: ships are read as their precomputed ``Ship.code``, the colonies are one
    flat tuple (each territory lists one count per player, so that is no loss), and
    with ``like``, a state and its key (the state a search node came from, whose docks
    list the same facilities in the same order: every state of a search is a copy of
    its root), the docks that are as they were there are read from that key instead of
    again; the key is the same as without it."""
    docks: Key
    hubs: Key
    if like is None or like[0].colonies is not s.colonies or like[0].fields is not s.fields:
        colonies: Key = tuple(_chain(s.colonies.values()))
        fields: Key = tuple(s.fields.values())
    else:  # the same maps (shared by copies and replaced when they change)
        colonies = cast(Key, like[1][7])
        fields = cast(Key, like[1][8])
    if like is None:
        docks = tuple([_docks_key(f, slots) for f, slots in s.docks.items()])
        hubs = tuple([_hub_key(h) for h in s.hub_docks])
    else:
        old, old_key = like
        docks = cast(Key, old_key[4])  # the parent's; a facility that differs is redone
        if s.docks is not old.docks:  # (docks are replaced, never changed: see set_docks)
            values = list(s.docks.values())
            same = list(map(is_, values, old.docks.values()))
            redo = list(docks)
            facilities = list(s.docks)
            for i in compress(range(len(same)), map(not_, same)):
                redo[i] = _docks_key(facilities[i], values[i])
            docks = tuple(redo)
        hubs = cast(Key, old_key[5])
        if s.hub_docks != old.hub_docks:
            hubs = tuple([_hub_key(h) for h in s.hub_docks])
    undocked = [x.value * 2 + x.relic for x in s.undocked]
    undocked.sort()
    rates = list(s.turn.market_rates.values())
    rates.sort()
    t = s.turn
    supply = s.supply
    return (
        s.current,
        s.turn_number,
        s.over,
        tuple(undocked),
        docks,
        hubs,
        tuple(
            [
                (pl.fuel, pl.ore, pl.colonies, pl.hub, pl.stock, len(pl.bay), tuple(pl.cards))
                for pl in s.players
            ]
        ),
        colonies,
        fields,
        s.relic_on_desert,
        tuple(s.display),
        None if supply is None else tuple(supply),
        tuple(t.used),
        t.discarded,
        t.mine_docks,
        t.hub_docks,
        t.asimov_used,
        t.hub_overflow,
        t.artifact_cycles,
        t.artifact_total,
        tuple(rates),
        tuple(t.borrowed),
        tuple(s.pending),
    )


def _docks_key(f: FacilityId, slots: tuple[Ship | None, ...]) -> Key:
    """How the key reads one facility's docks."""
    codes = [-1 if x is None else x.code for x in slots]
    how = _DOCK_SORT[f]
    if how == 1:
        codes.sort()
    elif how and len(codes) > how:
        # Sets of docks (market and shipyard pairs, constructor triples) are alike.
        if len(codes) % how:
            sets = [tuple(codes[i : i + how]) for i in range(0, len(codes), how)]
        else:
            sets = list(zip(*[iter(codes)] * how, strict=True))  # (the same, quicker)
        sets.sort()
        return tuple(sets)
    return tuple(codes)


def _hub_key(ships: list[Ship]) -> Key:
    """How the key reads the ships on one player's Colony Hub track (in any order)."""
    codes = [x.code for x in ships]
    codes.sort()
    return tuple(codes)


@dataclass(slots=True)
class Plan:
    """A way to finish the turn: its actions, the state it ends in and that state's score."""

    score: float
    actions: list[Action]
    end: GameState


class TurnPlanner:
    """Beam search over one seat's own turn."""

    def __init__(
        self,
        me: int,
        evaluator: Evaluator,
        rng: random.Random,
        width: int = 8,
        branch_place: bool = False,
        lookahead: int = 1,
        deadline: float | None = None,
        max_nodes: int | None = None,
        canonical: bool = True,
        never: frozenset[type[Action]] = frozenset(),
    ) -> None:
        self.me = me
        self.ev = evaluator
        self.rng = rng
        self.width = width
        self.branch_place = branch_place
        self.lookahead = lookahead
        self.deadline = deadline  # time.perf_counter() after which the beam narrows to 1
        self.max_nodes = max_nodes  # states generated after which the beam narrows to 1
        self.canonical = canonical  # plain docks in one order only (see _expand)
        self.never = never  # kinds of action never searched (experiments)
        self.nodes = 0

    def candidates(self, s: GameState) -> list[Action]:
        """Legal actions worth searching: one ship at a time on the hub, no Warper
        reroll (chance), discard powers only once nothing can dock, none of ``never``."""
        acts = legal_actions(s)
        docking = any(type(a) is Dock for a in acts)
        out: list[Action] = []
        for a in acts:
            if type(a) is Dock:
                if a.facility == "hub" and len(a.dice) > 1:
                    continue
            elif isinstance(a, Warp) or (docking and type(a) in RULEBOOK.discards()):
                continue
            out.append(a)
        if self.never:
            out = [a for a in out if type(a) not in self.never]
        return out

    def greedy(self, s: GameState) -> Action:
        """The action with the best immediate score (used for decisions)."""
        acts = legal_actions(s)
        if len(acts) == 1:
            return acts[0]
        self.nodes += len(acts)
        best = acts[0]
        best_score = float("-inf")
        for a in acts:
            c = s.copy()
            apply_in_place(c, a)
            sc = self.ev.score(c, self.me)
            if sc > best_score:
                best, best_score = a, sc
        return best

    def settle(self, s: GameState) -> list[tuple[GameState, list[Action]]]:
        """Answer pending decisions and chance until a free action or the end of the turn."""
        me = self.me
        if s.over or s.current != me or not s.pending:
            return [(s, [])]  # nothing to settle (most states of a search): no stack
        out: list[tuple[GameState, list[Action]]] = []
        stack: list[tuple[GameState, list[Action]]] = [(s, [])]
        while stack:
            st, extra = stack.pop()
            while True:
                if st.over or st.current != me or not st.pending:
                    out.append((st, extra))
                    break
                if st.to_act() == CHANCE:
                    apply_in_place(st, sample_chance(st, self.rng))
                    continue
                if self.branch_place and isinstance(st.pending[0], PlaceColonyDecision):
                    for a in legal_actions(st):
                        c = st.copy()
                        apply_in_place(c, a)
                        stack.append((c, [*extra, a]))
                    break
                a = self.greedy(st)
                apply_in_place(st, a)
                extra = [*extra, a]
        return out

    def done(self, s: GameState) -> bool:
        return s.over or s.current != self.me

    def plan(self, root: GameState) -> list[Plan]:
        """Ways to finish the turn from ``root``, best first."""
        finished: list[Plan] = []
        seen: set[Key] = set()
        frontier: list[Node] = []
        for st, extra in self.settle(root.copy_unrecorded()):
            if self.done(st):
                finished.append(Plan(self.ev.score(st, self.me), extra, st))
            else:
                frontier.append((st, extra, None, None))
        depth = 0
        while frontier:
            depth += 1
            children: list[Child] = []
            level = set(seen)  # states kept earlier are not searched again
            for node in frontier:
                if children and not width_ok(self):
                    break  # over the node budget: the best nodes of the level are expanded
                self._expand(node, self.lookahead, depth, level, finished, children)
            width = self.width
            if (self.deadline is not None and time.perf_counter() > self.deadline) or (
                self.max_nodes is not None and self.nodes > self.max_nodes
            ):
                width = 1
            best = nlargest(width, children, key=_BY_SCORE)
            frontier = [x[2] for x in best]
            seen.update([k for x in best if (k := x[2][3]) is not None])  # (never None)
        finished.sort(key=lambda x: -x.score)
        return finished

    def _expand(
        self,
        node: Node,
        lookahead: int,
        depth: int,
        seen: set[Key],
        finished: list[Plan],
        children: list[Child],
    ) -> None:
        """Add the children of a node; those of an action that pays off only later (a
        card changing a ship, a cycle, a first ship at the artifact or market) are
        followed one step further at once, so the beam judges them by what they enable.

        Plain docks (no follow-up decision, no hub steps waiting for an immediate launch)
        commute, so they are taken in one canonical order (by facility, then values)
        unless some other action comes in between: the same end states are reached with
        far fewer orderings searched."""
        st, path, last, key = node
        like = None if key is None else (st, key)
        acts = self.candidates(st)
        if last is not None and self.canonical:
            ordered = [a for a in acts if type(a) is not Dock or dock_order(a) >= last]
            acts = ordered or acts
        if depth > MAX_DEPTH:
            acts = acts[:1]  # safety: finish the turn somehow
        ceiling = None if self.max_nodes is None else CEILING * self.max_nodes
        me = self.me
        score = self.ev.score
        for a in acts:
            if ceiling is not None and self.nodes > ceiling and (children or finished):
                break  # far past the budget (a node of many actions): enough is listed
            self.nodes += 1
            c = st.copy()
            apply_in_place(c, a)
            for st2, extra in self.settle(c):
                k = state_key(st2, like)
                n = len(seen)
                seen.add(k)
                if len(seen) == n:
                    continue  # seen before (one hash of the key instead of two)
                sc = score(st2, me)
                full = [*path, a, *extra]
                if self.done(st2):
                    finished.append(Plan(sc, full, st2))
                    continue
                last = None
                if isinstance(a, Dock) and not extra and not st2.turn.hub_overflow:
                    last = dock_order(a)  # a plain dock
                child: Node = (st2, full, last, k)
                children.append((sc, -len(children), child))
                if lookahead > 0 and _deferred(a) and width_ok(self):
                    self._expand(child, lookahead - 1, depth, seen, finished, children)


def dock_order(a: Dock) -> tuple[int, tuple[Die, ...]]:
    """Where a plain dock comes in the canonical order of docking."""
    return (FACILITY_INDEX[a.facility], a.dice)


def width_ok(p: TurnPlanner) -> bool:
    """Whether the planner is still within its node budget (look-ahead stops past it)."""
    return p.max_nodes is None or p.nodes <= p.max_nodes


def _deferred(a: Action) -> bool:
    return type(a) in RULEBOOK.tuners()

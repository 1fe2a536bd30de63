"""The docking menu's choices: a branch per facility, each way of docking there (one ship
group or several in a row), with what often follows a dock in the same pick."""

from __future__ import annotations

from functools import partial

from bot.play.choice_grouping import (
    Kinds,
    Said,
    applied,
    by_kind,
    fields_of,
    group_nodes,
    sequences_of,
)
from bot.play.choice_tree import Leaf, Node
from bot.play.decision_choices import best_takes
from bot.text.choice_words import Words
from bot.text.labels import kind_of
from bot.text.strings import text
from engine import (
    FACILITIES,
    FACILITY_ORDER,
    Action,
    Die,
    Dock,
    FacilityId,
    GameState,
    RaidDecision,
    dock_options,
    legal_actions,
)


def docking_branches(state: GameState, kinds: Kinds, words: Words) -> list[Node]:
    """A branch per facility: each way of docking there, one ship group or several in a row."""
    seat = state.current
    out: list[Node] = []
    facilities = {a.facility for a in kinds.get("dock", ()) if isinstance(a, Dock)}
    for f in FACILITY_ORDER:
        if f not in facilities:
            continue

        def step(s: GameState, f: FacilityId = f) -> list[Action]:
            if s.pending or s.current != seat or s.over:
                return []
            return list(dock_options(s, seat, facilities=(f,)))

        found: dict[tuple[Die, ...], tuple[Action, ...]] = {}
        for seq in sequences_of(state, step, key=_dice_of):
            ships = tuple(sorted(d for a in seq for d in _dice_of(a)))
            if ships not in found or len(seq) < len(found[ships]):
                found[ships] = seq
        facility = words.n(f)
        leaves: list[Leaf] = []
        for seq in sorted(found.values(), key=_dock_rank):
            if all(len(_dice_of(a)) == 1 for a in seq):  # one ship a dock: 1 + 2 + 5
                groups = words.dice(d for a in seq for d in _dice_of(a))
            else:  # pairs or triples: 3 + 3, 5 + 5
                groups = ", ".join(words.dice(_dice_of(a)) for a in seq)
            params: dict[str, object] = {"facility": facility, "dice": groups}
            label = text("choice.dock", words.locale, params)
            short = text("choice.dock_short", words.locale, params)
            params["locale"] = words.locale
            played = tuple(str(a) for a in seq)
            rank = _leaf_rank(f, seq)
            leaves.append(Leaf(label, short, played, rank, "dock"))
            follow = f == "artifact" or FACILITIES[f].group_size > 1 or f == "terraform"
            for then, key, extra in _follow_ups(applied(state, seq), f, words) if follow else ():
                full = words.names.label(partial(_then, f"choice.dock_then_{key}", params, extra))
                short = words.names.label(partial(_then, f"choice.then_{key}", params, extra))
                moves = (*played, *(str(a) for a in then))
                leaves.append(Leaf(full, short, moves, rank + (1 if key != "do" else 2), "dock"))
        leaves.sort(key=lambda leaf: leaf.rank)
        prompt = text("choice.dock_prompt", words.locale, {"facility": facility})
        out.append(group_nodes(facility, prompt, leaves, locale=words.locale))
    return out


def _dice_of(a: Action) -> tuple[Die, ...]:
    return a.dice if isinstance(a, Dock) else ()


def _leaf_rank(facility: str, seq: tuple[Action, ...]) -> int:
    """How far a docking pick is from one plain dock: each more action, and each more ship
    docked at once where ships dock one by one (the Colony Hub), counts 2. A pair or a
    triple is one plain dock where a group is what the facility takes."""
    ships = sum(len(_dice_of(a)) for a in seq)
    grouped = FACILITIES[facility].group_size > 1 and facility != "hub"  # type: ignore[index]
    extra = 0 if grouped else ships - len(seq)
    return 2 * (len(seq) - 1 + extra)


def _then(key: str, params: dict[str, object], then: Said, seats: list[str]) -> str:
    return text(key, str(params["locale"]), {**params, "then": then(seats)})


def _follow_ups(
    after: GameState, facility: str, words: Words
) -> list[tuple[tuple[Action, ...], str, Said]]:
    """What often comes right after a dock, offered in the same pick: cycling or claiming
    at the Alien Artifact, the territory of a colony the dock placed, what a raid takes.
    Each: the actions, the key of its words and the words for what they do."""
    if after.over or after.current != words.seat or (facility != "artifact" and not after.pending):
        return []
    out: list[tuple[tuple[Action, ...], str, Said]] = []
    actions = legal_actions(after)
    for a in actions:
        follow = FOLLOW_UPS.get(kind_of(a) or "")
        if follow is not None and (follow[0] == "do" or facility == "artifact"):
            out.append(((a,), follow[0], words.said(follow[1], fields_of(a))))
    if after.pending and isinstance(after.pending[0], RaidDecision):
        for take, words_of in best_takes(after, by_kind(actions), words):
            out.append((take, "do", words_of))
    return out


# What a dock's pick may go on to do, by kind: cycling or claiming at the Alien Artifact
# ("then ..."), placing the colony the dock brought (" → ..."); the key of the pick's
# words and the words of the action (their parameters: the action's fields).
FOLLOW_UPS: dict[str, tuple[str, str]] = {
    "cycle": ("cycle", "label.cycle"),
    "claim": ("claim", "choice.claim_card"),
    "place": ("do", "choice.colony_to"),
}


def _dock_rank(seq: tuple[Action, ...]) -> tuple[int, int, tuple[Die, ...]]:
    """Single actions first (every legal dock, fewest ships first), then the ways of docking
    more ships in a row, most ships first."""
    ships = tuple(d for a in seq for d in _dice_of(a))
    if len(seq) == 1:
        return (0, len(ships), ships)
    return (1, -len(ships), ships)

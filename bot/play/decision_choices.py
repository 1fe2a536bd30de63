"""The choices of the decision waiting for an answer: a raid's takes, a Plasma Cannon's
shots, the colony to place, what to return."""

from __future__ import annotations

from bot.play.choice_grouping import (
    Kinds,
    Said,
    action_leaf,
    by_kind,
    fields_of,
    group_nodes,
    sequences_of,
    with_done,
)
from bot.play.choice_tree import Branch, Leaf, Node
from bot.text.choice_words import Words, amount_text
from bot.text.strings import text
from engine import (
    RAID_STEAL_LIMIT,
    Action,
    Done,
    GameState,
    PlaceColonyDecision,
    PlasmaDecision,
    RaidDecision,
    StealResource,
    legal_actions,
)


def decision_branch(state: GameState, kinds: Kinds, words: Words) -> Branch:
    d = state.pending[0]
    if isinstance(d, RaidDecision):
        return _raid(state, kinds, words)
    kind = {PlasmaDecision: "plasma", PlaceColonyDecision: "place"}.get(type(d), "return")
    prompt = text(f"choice.prompt.{kind}", words.locale)
    leaves = [
        _stop(words, "plasma") if group == "done" else action_leaf(a, words)
        for group, actions in kinds.items()
        for a in actions
    ]
    return Branch(prompt, prompt, prompt, tuple(leaves))


def _stop(words: Words, decision: str) -> Leaf:
    label = text(f"choice.stop.{decision}", words.locale)
    return Leaf(label, label, (str(Done()),), group="done")


Take = tuple[int, tuple[Action, ...], "Said", str]  # resources, actions, words, kind


def _takes(
    state: GameState, kinds: Kinds, words: Words, said: str = "choice."
) -> dict[int, list[Take]]:
    """Per opponent, what a raid can take from them in one pick, most first: resources
    (with the ``done`` that must follow when nothing else is left) and cards. Each:
    how many resources, the actions, the words for them (``said``: the keys' prefix, for
    an option of its own or what follows a dock), their kind."""
    seat = state.current

    def step(s: GameState) -> list[Action]:
        if not s.pending or not isinstance(s.pending[0], RaidDecision) or s.current != seat:
            return []
        return by_kind(legal_actions(s)).get("steal_resource", [])

    found: dict[int, dict[tuple[int, int], tuple[Action, ...]]] = {}
    for seq in sequences_of(state, step, key=_steal_key):
        victims = {a.victim for a in seq if isinstance(a, StealResource)}
        if len(victims) == 1:
            fuel = sum(1 for a in seq if isinstance(a, StealResource) and a.resource == "fuel")
            found.setdefault(victims.pop(), {})[(fuel, len(seq) - fuel)] = seq
    out: dict[int, list[Take]] = {}
    for victim in range(state.num_players):
        takes = out.setdefault(victim, [])
        ranked = sorted(found.get(victim, {}).items(), key=lambda x: (-sum(x[0]), -x[0][1]))
        for (fuel, ore), seq in ranked:
            parts = [amount_text(words, r, c) for r, c in (("fuel", fuel), ("ore", ore)) if c]
            params: dict[str, object] = {"amounts": " + ".join(parts), "victim": victim}
            moves = with_done(state, seq) if len(seq) < RAID_STEAL_LIMIT else seq
            takes.append((fuel + ore, moves, words.said(f"{said}steal", params), "steal_resource"))
        for a in kinds.get("steal_card", ()):
            params = fields_of(a)  # the card and the victim
            if params["victim"] == victim:
                takes.append((0, (a,), words.said(f"{said}steal_card", params), "steal_card"))
    return out


def best_takes(
    state: GameState, kinds: Kinds, words: Words
) -> list[tuple[tuple[Action, ...], Said]]:
    """The raids worth offering with the dock: the most resources from one opponent (each
    mix), or one of their cards."""
    out = []
    for takes in _takes(state, kinds, words, "choice.then_").values():
        most = max((n for n, _, _, _ in takes), default=0)
        out += [(moves, w) for n, moves, w, _ in takes if n == most or n == 0]
    return out


def _raid(state: GameState, kinds: Kinds, words: Words) -> Branch:
    """What to steal, in one pick per opponent: "2 fuel + 2 ore from Anna" (then more from
    someone else, or stop), or a card."""
    children: list[Node] = []
    for victim, takes in _takes(state, kinds, words).items():
        leaves: list[Node] = []
        for _, moves, words_of, kind in takes:
            label = words.names.label(words_of)
            leaves.append(Leaf(label, label, tuple(str(a) for a in moves), group=kind))
        if leaves:
            title = words.t("choice.steal_from", {"victim": victim})
            children.append(group_nodes(title, title, leaves, locale=words.locale))
    children += [_stop(words, "raid") for a in kinds.get("done", ())]
    prompt = text("choice.prompt.raid", words.locale)
    return Branch(prompt, prompt, prompt, tuple(children))


def _steal_key(a: Action) -> tuple[object, ...]:
    assert isinstance(a, StealResource)
    return (a.victim, a.resource)

"""Write the golden counts: the regression oracle of the rules engine (python-chess's perft).

    python tests/engine/golden/make_golden.py

Run it only when a change of the rules is intended, and say so in the commit: the data
it writes is what ``tests/engine/test_golden_counts.py`` holds the engine to.

For each game below (2, 3 and 4 players, the options, seeded), it stores

- ``logs/<name>.txt``: the whole game in the notation, one action per line (a fixed
  input: replaying it does not depend on the order in which actions are listed);
- in ``counts.json``: for chosen positions of that game (mid-turn, each kind of pending
  decision, the end), the number of legal actions, a hash of their notation in the
  order ``legal_actions`` lists them, ``perft2`` (the number of legal actions summed
  over every legal action's successor) and a hash of the state (its JSON, keys sorted);
  and for the game as a whole, the number of legal actions summed over every position
  and a hash of that sequence of counts.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from engine import CHANCE, GameConfig, GameState, apply_in_place, legal_actions, new_game
from engine.actions import Action
from engine.ai import Level, make_ai
from engine.chance import sample_chance
from engine.selfplay import play_random_game
from engine.serialize import to_dict

HERE = Path(__file__).resolve().parent
LOGS = HERE / "logs"
COUNTS = HERE / "counts.json"

# name: (config, seed, who plays: "random" or AI levels per seat)
GAMES: dict[str, tuple[GameConfig, int, str | tuple[str, ...]]] = {
    "p2-basic": (GameConfig(players=2), 11, "random"),
    "p2-helm-finite": (
        GameConfig(players=2, mind_control_helm=True, finite_supply=True),
        12,
        "random",
    ),
    "p3-finite": (GameConfig(players=3, finite_supply=True), 13, "random"),
    "p3-long-helm": (GameConfig(players=3, long_game=True, mind_control_helm=True), 31, "random"),
    "p4-basic": (GameConfig(players=4), 15, "random"),
    "p4-all-options": (
        GameConfig(players=4, long_game=True, mind_control_helm=True, finite_supply=True),
        16,
        "random",
    ),
    "p4-ai": (GameConfig(players=4), 17, ("easy", "normal", "easy", "normal")),
}
MID_TURN_CHECKPOINTS = 8
PER_DECISION_KIND = 2


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def state_hash(s: GameState) -> str:
    """The state's content: its JSON document (docs/state.md) with keys sorted."""
    return sha(json.dumps(to_dict(s), sort_keys=True))


def legal_hash(actions: Sequence[Action]) -> str:
    return sha("\n".join(str(a) for a in actions))


def perft2(s: GameState, actions: Sequence[Action]) -> int:
    total = 0
    for a in actions:
        c = s.copy()
        apply_in_place(c, a)
        total += len(legal_actions(c))
    return total


def position_kind(s: GameState) -> str:
    if s.over:
        return "end"
    if s.pending:
        return "decision:" + type(s.pending[0]).__name__
    return "mid-turn" if s.undocked else "turn"


def play(config: GameConfig, seed: int, who: str | tuple[str, ...]) -> list[Action]:
    if who == "random":
        return list(play_random_game(config, seed).log)
    players = [make_ai(cast(Level, level), seed * 10 + i) for i, level in enumerate(who)]
    rng = random.Random(seed)
    s = new_game(config)
    log: list[Action] = []
    while not s.over:
        seat = s.to_act()
        a = sample_chance(s, rng) if seat == CHANCE else players[seat].choose(s)
        apply_in_place(s, a)
        log.append(a)
    return log


def choose_checkpoints(kinds: list[str], listed: list[set[str]]) -> list[int]:
    """Positions to look at closely: spread mid-turn ones, the first of each decision
    kind, the first that lists each type of action, and the end."""
    chosen: set[int] = set()
    first: dict[str, int] = {}
    for i, types in enumerate(listed):
        for t in types:
            first.setdefault(t, i)
    chosen.update(first.values())
    mid = [i for i, k in enumerate(kinds) if k == "mid-turn"]
    step = max(1, len(mid) // MID_TURN_CHECKPOINTS)
    chosen.update(mid[step // 2 :: step][:MID_TURN_CHECKPOINTS])
    seen: dict[str, int] = {}
    for i, k in enumerate(kinds):
        if k.startswith("decision:") and seen.get(k, 0) < PER_DECISION_KIND:
            seen[k] = seen.get(k, 0) + 1
            chosen.add(i)
    chosen.add(len(kinds) - 1)
    return sorted(chosen)


def survey(config: GameConfig, log: Sequence[Action]) -> dict[str, Any]:
    """Replay a log and measure it (the same walk the test makes)."""
    s = new_game(config)
    counts: list[int] = []
    kinds: list[str] = []
    listed: list[set[str]] = []
    states: list[GameState] = []
    for i in range(len(log) + 1):
        acts = legal_actions(s)
        counts.append(len(acts))
        kinds.append(position_kind(s))
        listed.append({type(a).__name__ for a in acts})
        states.append(s.copy())
        if i < len(log):
            apply_in_place(s, log[i])
    checkpoints = []
    for at in choose_checkpoints(kinds, listed):
        st = states[at]
        acts = legal_actions(st)
        checkpoints.append(
            {
                "at": at,
                "kind": kinds[at],
                "legal": len(acts),
                "legal_hash": legal_hash(acts),
                "perft2": perft2(st, acts),
                "state": state_hash(st),
            }
        )
    return {
        "positions": len(counts),
        "legal_total": sum(counts),
        "legal_counts_hash": sha(",".join(map(str, counts))),
        "final_state": state_hash(s),
        "checkpoints": checkpoints,
    }


def config_dict(c: GameConfig) -> dict[str, Any]:
    return {
        "players": c.players,
        "long_game": c.long_game,
        "mind_control_helm": c.mind_control_helm,
        "finite_supply": c.finite_supply,
    }


def main() -> None:
    LOGS.mkdir(exist_ok=True)
    out: dict[str, Any] = {}
    for name, (config, seed, who) in GAMES.items():
        log = play(config, seed, who)
        (LOGS / f"{name}.txt").write_text("".join(f"{a}\n" for a in log))
        out[name] = {"config": config_dict(config), "seed": seed, "played_by": who}
        out[name] |= survey(config, log)
        print(f"{name}: {len(log)} actions, {len(out[name]['checkpoints'])} checkpoints")
    COUNTS.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()

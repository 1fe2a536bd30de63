"""The state's fields are declared once, in engine.state; what lists them again (the fast
``copy``, the JSON document, the AI's search key) is held to that declaration here: each
field of GameState, PlayerState and TurnState, changed on its own, must survive a copy
(in a container of its own), a JSON round trip, and change the search key unless the key
says why it leaves the field out. A field added to the state and forgotten in one of
them fails this test instead of being lost silently."""

from __future__ import annotations

import random
import types
import typing
from collections.abc import Callable, Iterator, Mapping
from dataclasses import fields
from typing import Any

import pytest

from engine.ai.planner import KEY_LEAVES_OUT, state_key
from engine.config import GameConfig
from engine.rules import apply_in_place
from engine.selfplay import random_action
from engine.serialize import StateDoc, from_doc, to_dict
from engine.setup import new_game
from engine.state import (
    SHARED_BY_COPIES,
    Event,
    GameState,
    PlayerState,
    RaidDecision,
    Ship,
    TurnState,
)

Change = Callable[[GameState], None]


def mid_game() -> GameState:
    rng = random.Random(3)
    s = new_game(GameConfig(players=3, finite_supply=True))
    for _ in range(150):
        apply_in_place(s, random_action(s, rng))
    return s


def other(value: Any, hint: Any) -> Any:
    """A value of the declared type that differs from ``value``."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        kinds = [a for a in args if a is not type(None)]
        return other(value, kinds[0]) if value is not None else sample(kinds[0])
    if origin is typing.Literal:
        return next(a for a in args if a != value)
    if origin is list:
        return [*value, sample(args[0])] if not value else value[:-1]
    if origin is tuple:
        return (*value[:-1], other(value[-1], args[0]))
    if origin in (dict, Mapping):
        if not value:
            return {sample(args[0]): sample(args[1])}
        k = next(iter(value))
        return {**value, k: other(value[k], args[1])}
    if hint is bool:
        return not value
    if hint is int:
        return value + 1
    if hint is Ship:
        return Ship(value.owner, value.value % 6 + 1, value.relic)
    if hint is GameConfig:
        return GameConfig(players=value.players, long_game=not value.long_game)
    raise AssertionError(f"no other value for {hint}")


def sample(hint: Any) -> Any:
    if typing.get_origin(hint) is typing.Literal:
        return typing.get_args(hint)[0]
    if typing.get_origin(hint) is list:
        return [sample(typing.get_args(hint)[0])]
    return {
        int: 2,
        Ship: Ship(0, 2),
        Event: Event("stopped", 0),
        typing.get_type_hints(GameState)["pending"].__args__[0]: RaidDecision(0, 1),
    }[hint]


def declared(cls: type) -> Iterator[tuple[str, Any]]:
    hints = typing.get_type_hints(cls)
    for f in fields(cls):
        yield f.name, hints[f.name]


def changer(owner: Callable[[GameState], Any], name: str, hint: Any) -> Change:
    def change(s: GameState) -> None:
        record = owner(s)
        setattr(record, name, other(getattr(record, name), hint))

    return change


def field_changes() -> Iterator[tuple[str, Change]]:
    """One change per declared field (PlayerState's and TurnState's as seen from the state)."""
    for name, hint in declared(GameState):
        if name not in ("players", "turn"):
            yield name, changer(lambda s: s, name, hint)
    for name, hint in declared(PlayerState):
        yield f"players.{name}", changer(lambda s: s.players[0], name, hint)
    for name, hint in declared(TurnState):
        yield f"turn.{name}", changer(lambda s: s.turn, name, hint)


CHANGES = dict(field_changes())


def shared_containers(a: Any, b: Any, where: str = "state") -> list[str]:
    """Mutable containers the two states share (a copy must share none but the maps
    replaced on every change, ``SHARED_BY_COPIES``)."""
    out = []
    if isinstance(a, (list, dict)) and a is b:
        out.append(where)
    if isinstance(a, (GameState, PlayerState, TurnState)):  # the state's mutable records
        for f in fields(a):
            if isinstance(a, GameState) and f.name in SHARED_BY_COPIES:
                continue
            out += shared_containers(getattr(a, f.name), getattr(b, f.name), f"{where}.{f.name}")
    elif isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            out += shared_containers(x, y, f"{where}.{i}")
    elif isinstance(a, dict):
        for k in a:
            out += shared_containers(a[k], b.get(k), f"{where}.{k}")
    return out


def test_every_field_of_the_state_is_changed_here() -> None:
    assert len(CHANGES) == len(fields(GameState)) - 2 + len(fields(PlayerState)) + len(
        fields(TurnState)
    )


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_a_copy_carries_the_field_in_a_container_of_its_own(name: str) -> None:
    s = mid_game()
    before = s.copy()
    CHANGES[name](s)
    assert s != before, "the change must show"
    c = s.copy()
    assert c == s
    assert not shared_containers(s, c)


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_the_json_document_carries_the_field(name: str) -> None:
    s = mid_game()
    CHANGES[name](s)
    assert from_doc(StateDoc.model_validate(to_dict(s))) == s


def test_the_json_schema_lists_the_state_fields() -> None:
    assert set(StateDoc.model_fields) == {"schema_version", *(f.name for f in fields(GameState))}


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_the_search_key_sees_the_field_or_says_why_not(name: str) -> None:
    s = mid_game()
    before = state_key(s)
    CHANGES[name](s)
    if name in KEY_LEAVES_OUT:
        assert state_key(s) == before, f"{name} is said to be left out of the key"
    else:
        assert state_key(s) != before, f"{name} is missing from the AI's state key"


def test_the_key_leaves_out_only_fields_of_the_state() -> None:
    assert set(KEY_LEAVES_OUT) <= set(CHANGES)
    assert all(reason for reason in KEY_LEAVES_OUT.values())


def test_the_maps_shared_by_copies_are_replaced_never_changed_in_place() -> None:
    """Copies share colonies, control and fields; so in random games with those maps
    read-only (and their values immutable), every action that changes them must replace
    them, and a copy taken before the action must keep what it had."""
    rng = random.Random(5)
    for _ in range(6):
        s = new_game(GameConfig(players=rng.choice((2, 3, 4))))
        while not s.over:
            for name in SHARED_BY_COPIES:
                shared = getattr(s, name)
                assert all(isinstance(v, (tuple, str, int, type(None))) for v in shared.values())
                setattr(s, name, types.MappingProxyType(dict(shared)))
            before = s.copy()
            kept = {name: dict(getattr(before, name)) for name in SHARED_BY_COPIES}
            apply_in_place(s, random_action(s, rng))
            assert {name: dict(getattr(before, name)) for name in SHARED_BY_COPIES} == kept

"""What every orbital facility shares: the shape of a legal group of ships, room, docking.

A facility module subclasses ``Facility`` and states only its own rule: which
values it takes, what it costs, and what docking there does.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import ClassVar, Literal, TypeVar

from engine.actions import Die, Dock
from engine.board import Refusal, log, refuse, set_docks
from engine.state import GameState, Ship
from engine.tables import FACILITIES, FacilityId, FacilityInfo

Pattern = Literal["single", "pair", "triple", "run", "any"]


T = TypeVar("T", Ship, Die)


def ship_key(ship: Ship | Die) -> tuple[int, bool]:
    return (ship.value, ship.relic)


def distinct_groups(pool: Sequence[T], size: int) -> Iterator[list[T]]:
    """Every distinct multiset of ``size`` ships from the pool (ships alike by value and relic)."""
    kinds: dict[tuple[int, bool], T] = {}
    counts: dict[tuple[int, bool], int] = {}
    for ship in pool:
        k = ship_key(ship)
        kinds.setdefault(k, ship)
        counts[k] = counts.get(k, 0) + 1
    keys = sorted(kinds)
    for combo in combinations_with_replacement(keys, size):
        ok = True
        for k in set(combo):
            if combo.count(k) > counts[k]:
                ok = False
                break
        if ok:
            yield [kinds[k] for k in combo]


def fits_pattern(pattern: Pattern, values: list[int]) -> bool:
    if pattern == "single":
        return len(values) == 1
    if pattern == "pair":
        return len(values) == 2 and values[0] == values[1]
    if pattern == "triple":
        return len(values) == 3 and values[0] == values[1] == values[2]
    if pattern == "run":
        v = sorted(values)
        return len(v) == 3 and v[1] == v[0] + 1 and v[2] == v[1] + 1
    return 1 <= len(values) <= 3


Pool = tuple[tuple[int, bool], ...]  # (value, relic) of each ship, sorted
Group = tuple[tuple[Ship, ...], Dock]  # ships of one shape and the action docking them
PATTERN_SIZES: dict[Pattern, tuple[int, ...]] = {
    "single": (1,),
    "pair": (2,),
    "triple": (3,),
    "run": (3,),
    "any": (1, 2, 3),
}


class PoolGroups:
    """The distinct groups of one pool of undocked ships, and for each facility the
    actions docking them (and, for a facility whose rule looks at the ships, the ships
    of the player docking them). A pure function of a small pool, whoever rolled it, so
    it is built once and remembered (``pool_groups``): the same rolls come back all game
    long. Its lists are shared: callers copy them, never change them."""

    __slots__ = ("_by_size", "_docks", "_groups", "_shaped")

    def __init__(self, pool: Pool) -> None:
        dice = [Die(value, relic) for value, relic in pool]
        self._by_size = {size: list(map(tuple, distinct_groups(dice, size))) for size in (1, 2, 3)}
        self._docks: dict[tuple[FacilityId, int, int], list[Dock]] = {}
        self._groups: dict[tuple[int, FacilityId, int, int], list[Group]] = {}
        self._shaped: dict[tuple[Facility, ...], list[tuple[Facility, list[Dock]]]] = {}

    def shaped(self, facilities: tuple[Facility, ...]) -> list[tuple[Facility, list[Dock]]]:
        """The facilities some group of these ships has the shape of, each with the actions
        docking those groups (of every size of its pattern)."""
        found = self._shaped.get(facilities)
        if found is None:
            found = self._shaped[facilities] = [
                (f, docks) for f in facilities if (docks := self.docks(f, f.sizes))
            ]
        return found

    def docks(self, facility: Facility, sizes: range) -> list[Dock]:
        """The actions docking a group of one of these sizes that has the facility's shape
        (its pattern, and its values if it takes only some)."""
        key = (facility.id, sizes.start, sizes.stop)  # (a range is slower to hash)
        found = self._docks.get(key)
        if found is None:
            found = self._docks[key] = [
                Dock(facility.id, dice)
                for size in sizes
                for dice in self._by_size[size]
                if facility.has_shape([d.value for d in dice])
            ]
        return found

    def of(self, p: int, facility: Facility, sizes: range) -> list[Group]:
        """The same, each with the ships of p it docks."""
        key = (p, facility.id, sizes.start, sizes.stop)
        found = self._groups.get(key)
        if found is None:
            found = self._groups[key] = [
                (tuple([Ship(p, d.value, d.relic) for d in dock.dice]), dock)
                for dock in self.docks(facility, sizes)
            ]
        return found


@lru_cache(maxsize=8192)
def pool_groups(pool: Pool) -> PoolGroups:
    return PoolGroups(pool)


class GroupCache:
    """The distinct groups of a pool of ships by size, computed once and shared."""

    def __init__(self, pool: list[Ship]) -> None:
        self.pool = pool
        self._by_size: dict[int, list[list[Ship]]] = {}

    def of_size(self, size: int) -> list[list[Ship]]:
        found = self._by_size.get(size)
        if found is None:
            found = list(distinct_groups(self.pool, size)) if size else [[]]
            self._by_size[size] = found
        return found


class Facility:
    """An orbital facility's rule. Subclasses set ``id`` and ``pattern`` and override hooks."""

    id: ClassVar[FacilityId]
    pattern: ClassVar[Pattern]
    # Whether room depends on the ships docked (else ``may_have_room`` settles it), and
    # whether the facility's own rule does (else one look settles it for every group).
    room_by_ships: ClassVar[bool] = False
    rule_by_ships: ClassVar[bool] = True
    # The values its ships must show, when it takes only some (its rule refuses the others,
    # and the dock options do not look at them); None: any value.
    values: ClassVar[frozenset[int] | None] = None

    def __init__(self) -> None:
        self.info: FacilityInfo = FACILITIES[self.id]
        sizes = PATTERN_SIZES[self.pattern]
        self.sizes = range(sizes[0], sizes[-1] + 1)  # of a group of its pattern
        has_rule = type(self).rule_refusal is not Facility.rule_refusal
        # How dockable looks at the rule: per group of ships, once for all, or not at all.
        self._per_group = self.room_by_ships or (has_rule and self.rule_by_ships)
        self._rule_once = has_rule and not self._per_group

    # ---- which groups to consider ---------------------------------------------------

    def group_sizes(self, s: GameState, p: int) -> range:
        """The sizes of a group p may dock here now (the Colony Hub's room limits them)."""
        return self.sizes

    def candidates(
        self, s: GameState, p: int, pool: list[Ship], forced: Ship | None
    ) -> Iterator[list[Ship]]:
        """Groups of ships that have the facility's shape; ``forced`` must be one of them."""
        yield from self.candidates_from(s, p, GroupCache(pool), forced)

    def candidates_from(
        self, s: GameState, p: int, groups: GroupCache, forced: Ship | None
    ) -> Iterator[list[Ship]]:
        for size in self.group_sizes(s, p):
            if forced is None:
                found: Iterable[list[Ship]] = groups.of_size(size)
            else:
                found = ([forced, *rest] for rest in groups.of_size(size - 1))
            for group in found:
                if fits_pattern(self.pattern, [ship.value for ship in group]):
                    yield group

    def has_shape(self, values: list[int]) -> bool:
        """Whether a group of ships showing these values fits the pattern (and the values
        the facility takes)."""
        if self.values is not None and not self.values.issuperset(values):
            return False
        return fits_pattern(self.pattern, values)

    def may_have_room(self, s: GameState, p: int) -> bool:
        """A cheap first look: False only when no group of ships could fit."""
        if self.info.group_size == 1:
            return not all(s.docks[self.id])  # a free dock (None; every ship is true)
        return self.free_group(s) is not None

    def dockable(self, s: GameState, p: int, groups: PoolGroups, docks: list[Dock]) -> list[Dock]:
        """Every way p may dock a group of undocked ships here now (``groups``: those
        ships' groups; ``docks``: the actions docking those of the facility's shape, as
        ``PoolGroups.shaped`` gives them): the candidates its refusal lets through, found
        fast (the shape holds by construction, room is looked at once when it does not
        depend on the ships, and a facility without a rule of its own, or with one that
        does not look at the ships, takes every group that fits)."""
        if not self.may_have_room(s, p):
            return []
        if self._rule_once and self.rule_refusal(s, p, ()) is not None:
            return []
        sizes = self.group_sizes(s, p)
        if sizes != self.sizes:  # fewer sizes fit now (the Colony Hub's track)
            docks = groups.docks(self, sizes)
        if not self._per_group:
            return docks
        return [
            dock
            for ships, dock in groups.of(p, self, sizes)
            if not (self.room_by_ships and self.room_refusal(s, p, ships) is not None)
            and self.rule_refusal(s, p, ships) is None
        ]

    # ---- rules ---------------------------------------------------------------------------

    def room_refusal(self, s: GameState, p: int, ships: Sequence[Ship]) -> Refusal | None:
        """Default: a set of docks entirely free (R-TURN-5)."""
        if self.free_group(s) is None:
            return refuse("dock.full", facility=self.id)
        return None

    def rule_refusal(self, s: GameState, p: int, ships: Sequence[Ship]) -> Refusal | None:
        """The facility's own conditions: values, costs, colonies. Default: none."""
        return None

    def refusal(self, s: GameState, p: int, ships: Sequence[Ship]) -> Refusal | None:
        """Why p may not dock these ships here now, or None if they may."""
        if not fits_pattern(self.pattern, [ship.value for ship in ships]):
            return refuse(f"{self.id}.pattern", facility=self.id)
        return self.room_refusal(s, p, ships) or self.rule_refusal(s, p, ships)

    # ---- docking -------------------------------------------------------------------

    def free_group(self, s: GameState) -> int | None:
        """Index of the first set of docks entirely free, or None."""
        slots = s.docks[self.id]
        size = self.info.group_size
        for start in range(0, len(slots), size):
            # Free docks are None and every ship is true (comparing ships with None is slow).
            if not any(slots[start : start + size]):
                return start // size
        return None

    def put(self, s: GameState, p: int, ships: list[Ship]) -> int:
        """Put the ships on the docks; returns the index of the set of docks used."""
        g = self.free_group(s)
        assert g is not None
        size = self.info.group_size
        slots = list(s.docks[self.id])
        slots[g * size : g * size + len(ships)] = ships
        set_docks(s, self.id, slots)
        return g

    def dock(self, s: GameState, p: int, ships: list[Ship]) -> None:
        """Dock (rules already checked) and take the benefit."""
        group = self.put(s, p, ships)
        log(s, "docked", p, facility=self.id, values=" ".join([str(x.value) for x in ships]))
        self.effect(s, p, ships, group)

    def effect(self, s: GameState, p: int, ships: list[Ship], group: int) -> None:
        """What docking here does (R-TURN-6: at once)."""

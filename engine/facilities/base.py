"""What every orbital facility shares: the shape of a legal group of ships, room, docking.

A facility module subclasses ``Facility`` and states only its own rule: which
values it takes, what it costs, and what docking there does.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import combinations_with_replacement
from typing import ClassVar, Literal

from engine.board import Refusal, log, refuse
from engine.state import GameState, Ship
from engine.tables import FACILITIES, FacilityId, FacilityInfo

Pattern = Literal["single", "pair", "triple", "run", "any"]


def ship_key(ship: Ship) -> tuple[int, bool]:
    return (ship.value, ship.relic)


def distinct_groups(pool: list[Ship], size: int) -> Iterator[list[Ship]]:
    """Every distinct multiset of ``size`` ships from the pool (ships alike by value and relic)."""
    kinds: dict[tuple[int, bool], Ship] = {}
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

    def __init__(self) -> None:
        self.info: FacilityInfo = FACILITIES[self.id]
        size = {"single": 1, "pair": 2, "triple": 3, "run": 3, "any": 3}[self.pattern]
        self._sizes = range(1, size + 1) if self.pattern == "any" else range(size, size + 1)

    # ---- which groups to consider ---------------------------------------------------

    def group_sizes(self, s: GameState, p: int) -> range:
        return self._sizes

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

    def may_have_room(self, s: GameState, p: int) -> bool:
        """A cheap first look: False only when no group of ships could fit."""
        return self.free_group(s) is not None

    # ---- rules ---------------------------------------------------------------------------

    def room_refusal(self, s: GameState, p: int, ships: list[Ship]) -> Refusal | None:
        """Default: a set of docks entirely free (R-TURN-5)."""
        if self.free_group(s) is None:
            return refuse("dock.full", facility=self.id)
        return None

    def rule_refusal(self, s: GameState, p: int, ships: list[Ship]) -> Refusal | None:
        """The facility's own conditions: values, costs, colonies. Default: none."""
        return None

    def refusal(self, s: GameState, p: int, ships: list[Ship]) -> Refusal | None:
        """Why p may not dock these ships here now, or None if they may."""
        if not fits_pattern(self.pattern, [ship.value for ship in ships]):
            return refuse(f"{self.id}.pattern", facility=self.id)
        return self.room_refusal(s, p, ships) or self.rule_refusal(s, p, ships)

    # ---- docking -------------------------------------------------------------------

    def free_group(self, s: GameState) -> int | None:
        """Index of the first set of docks entirely free, or None."""
        slots = s.docks[self.id]
        size = self.info.group_size
        if size == 1:
            return slots.index(None) if None in slots else None
        for start in range(0, len(slots), size):
            if slots[start : start + size].count(None) == size:
                return start // size
        return None

    def put(self, s: GameState, p: int, ships: list[Ship]) -> int:
        """Put the ships on the docks; returns the index of the set of docks used."""
        g = self.free_group(s)
        assert g is not None
        size = self.info.group_size
        slots = s.docks[self.id]
        for i, ship in enumerate(ships):
            slots[g * size + i] = ship
        return g

    def dock(self, s: GameState, p: int, ships: list[Ship]) -> None:
        """Dock (rules already checked) and take the benefit."""
        group = self.put(s, p, ships)
        log(s, "docked", p, facility=self.id, values=" ".join(str(x.value) for x in ships))
        self.effect(s, p, ships, group)

    def effect(self, s: GameState, p: int, ships: list[Ship], group: int) -> None:
        """What docking here does (R-TURN-6: at once)."""

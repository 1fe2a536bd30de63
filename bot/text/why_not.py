"""Why a facility or a territory is not offered now, in the engine's words: what a player
who cannot see the board does not find out from a menu without it.

A sighted player sees that the Alien Artifact is full, that a 5 holds the Lunar Mine or
that they have only three ships left; the panel just leaves the facility out. For each
facility where none of the player's undocked ships may dock now, this asks the engine why
(``engine.refusal``, the rules' one answer: nothing here restates a rule) for every group
of those ships, and keeps the first reason that is not only the shape of the dice ("the
Shipyard needs a pair", "no 6"): those the player knows from their own roll. Said in a
turn message for a screen reader (``bot.text.turn_message``).

Likewise for the territories while a colony's place is chosen (the Colony Constructor's,
the Terraforming Station's or a launch's; a launch offered in the panel is chosen with its
territory in one pick): each territory the engine refuses the colony (the Repulsor Field's
``colony.repulsor``), with its reason.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import Final

from bot.text.strings import text, thing_name
from engine import (
    FACILITY_ORDER,
    TERRITORIES,
    Action,
    Die,
    Dock,
    FacilityId,
    GameState,
    Launch,
    Place,
    PlaceColonyDecision,
    TerritoryId,
    apply,
    refusal,
    with_docks_emptied,
)

# Reasons that only say the dice do not fit (the player knows their roll).
DICE_ONLY: Final = frozenset({"ship.not_yours", "terraform.needs_six"})
MOST_SHIPS: Final = 3  # a dock takes at most three ships


def closed(
    state: GameState, legal: Sequence[Action]
) -> list[tuple[FacilityId, str, dict[str, object]]]:
    """The facilities the player to act may not dock at now, for another reason than
    their dice: (facility, the refusal's key, its params), in the board's order. Nothing
    while a decision waits or every ship is docked."""
    if state.over or state.pending or not state.undocked:
        return []
    open_now = {a.facility for a in legal if isinstance(a, Dock)}
    out: list[tuple[FacilityId, str, dict[str, object]]] = []
    for facility in FACILITY_ORDER:
        if facility in open_now:
            continue
        for dice in _groups(state):
            why = refusal(state, Dock(facility, dice))
            if why is None:
                break  # it may be docked at after all (a form the panel lists apart)
            key, params = why
            if key == "dock.full" and _not_theirs_anyway(state, facility, dice):
                continue  # full, but these dice would not do even with room (no 6)
            if not _dice_only(key):
                out.append((facility, key, dict(params)))
                break
    return out


def closed_territories(
    state: GameState, legal: Sequence[Action]
) -> list[tuple[TerritoryId, str, dict[str, object]]]:
    """The territories a colony may not be placed on now, at the step where its place is
    chosen: (territory, the refusal's key, its params), in the board's order. That step is
    the colony's pending decision, or a launch the player may make now (its territory is
    chosen in the same pick, so the engine is asked once the launch is played on a copy).
    Nothing at any other step."""
    if state.over:
        return []
    placing = state.pending[0] if state.pending else None
    if not isinstance(placing, PlaceColonyDecision):
        if state.pending or not any(isinstance(a, Launch) for a in legal):
            return []
        state = apply(state, Launch())
    out: list[tuple[TerritoryId, str, dict[str, object]]] = []
    for territory in TERRITORIES:
        why = refusal(state, Place(territory))
        if why is not None:
            key, params = why
            out.append((territory, key, dict(params)))
    return out


def _dice_only(key: str) -> bool:
    return key.endswith(".pattern") or key in DICE_ONLY


def _not_theirs_anyway(state: GameState, facility: FacilityId, dice: tuple[Die, ...]) -> bool:
    """Whether ``dice`` would be refused for their values alone at ``facility`` if it had
    room: asked of the engine on a copy whose docks there are empty."""
    why = refusal(with_docks_emptied(state, facility), Dock(facility, dice))
    return why is not None and _dice_only(why[0])


def _groups(state: GameState) -> Iterator[tuple[Die, ...]]:
    """Every group of the undocked ships of one to three ships, the highest values first."""
    dice = sorted((Die(s.value, s.relic) for s in state.undocked), key=lambda d: -d.value)
    seen = set()
    for size in range(1, min(MOST_SHIPS, len(dice)) + 1):
        for group in combinations(dice, size):
            if group not in seen:
                seen.add(group)
                yield group


def closed_line(
    state: GameState, legal: Sequence[Action], names: Sequence[str], locale: str = "en"
) -> str | None:
    """One line saying why each facility or territory not offered is closed now ("Closed
    now: Lunar Mine: the Lunar Mine needs a ship of 5 or more…"), or None."""
    said = []
    shut: list[tuple[str, str, dict[str, object]]] = [
        *closed(state, legal),
        *closed_territories(state, legal),
    ]
    for f, key, params in shut:
        reason = text(key, locale, params, names)
        name = thing_name(f, locale)
        if name.casefold() in reason.casefold():  # "the Lunar Mine needs…": named once
            said.append(text("why_not.reason", locale, {"reason": reason[:1].upper() + reason[1:]}))
        else:
            said.append(text("why_not.facility", locale, {"facility": name, "reason": reason}))
    if not said:
        return None
    return text("why_not.header", locale, {"facilities": " ".join(said)})


__all__ = ["closed", "closed_line", "closed_territories"]

"""The words of each kind of action, declared once: a labeller per rule ``kind``.

A labeller turns an action into its ``Wording``: the catalogue key of its label and the
parameters (ids and seats as ``bot.text.strings.text`` takes them, ships of other players as
``Ship`` values, named once the names to show members by are known), and the short
form read under its card's name on the panel. ``bot.text.describe`` (autocomplete, hints)
and ``bot.play.choices`` (the panel) both read them; an action's kind is that of its rule
in the engine's rulebook (``engine.rule.Rule.kind``), so no list of action types is
kept here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from bot.text.strings import text
from engine import (
    DIE_FACES,
    FIELD_OF_CARD,
    RULEBOOK,
    Action,
    Claim,
    Crystal,
    Die,
    DiscardBooster,
    DiscardField,
    DiscardPlasma,
    DiscardPolarity,
    DiscardTeleporter,
    DiscardWarper,
    Dock,
    Gravity,
    Helm,
    Hit,
    OneShipAction,
    Place,
    Plasma,
    ReturnExcess,
    Ship,
    StealCard,
    StealResource,
    Teleport,
    Warp,
)


@dataclass(frozen=True, slots=True)
class Wording:
    """How an action is said: ``key`` with ``params``; under its card's name on the panel,
    ``short`` with the same params, or the ``name`` of a thing (else the label itself)."""

    key: str
    params: Mapping[str, object]
    short: str | None = None
    name: str | None = None


Labeller = Callable[[Any, str, "int | None"], Wording]  # (action, locale, market rate)
LABELLERS: dict[str, Labeller] = {}
L = TypeVar("L", bound=Labeller)


def labels(*kinds: str) -> Callable[[L], L]:
    """Register a labeller for the actions of these kinds (``engine.rule.Rule.kind``)."""

    def register(labeller: L) -> L:
        for kind in kinds:
            if kind in LABELLERS:
                raise ValueError(f"the kind {kind!r} has a labeller already")
            LABELLERS[kind] = labeller
        return labeller

    return register


def kind_of(action: Action) -> str | None:
    """The kind of an action's rule (``engine.rule.Rule.kind``), None for no action."""
    return RULEBOOK.kind_of(action)


def wording(action: Action, locale: str, rate: int | None = None) -> Wording | None:
    """How ``action`` is said (None for an action no labeller knows: a chance outcome)."""
    kind = RULEBOOK.kind_of(action)
    labeller = LABELLERS.get(kind) if kind is not None else None
    return labeller(action, locale, rate) if labeller is not None else None


def said(key: str, params: Mapping[str, object], locale: str, seats: Sequence[str]) -> str:
    """The text of ``key``, members (seats and the owners of ships) shown by ``seats``."""
    shown = {
        k: ship_text(v, seats, locale) if isinstance(v, Ship) else v for k, v in params.items()
    }
    return text(key, locale, shown, seats)


# ---- pieces of labels -------------------------------------------------------------------


def die_text(die: Die, locale: str = "en") -> str:
    return text("die.relic", locale, {"value": die.value}) if die.relic else str(die.value)


def dice_text(dice: Iterable[Die], locale: str = "en", sep: str = " ") -> str:
    return sep.join(die_text(d, locale) for d in dice)


def ship_text(ship: Ship, seats: Sequence[str], locale: str = "en") -> str:
    value = die_text(Die(ship.value, ship.relic), locale)
    return text("ship.of", locale, {"owner": ship.owner, "value": value}, seats)


def _with(dice: tuple[Die, ...], locale: str) -> str:
    return text("label.with", locale, {"dice": dice_text(dice, locale, " + ")}) if dice else ""


# ---- the labellers, by kind -------------------------------------------------------------


def _plain(kind: str) -> Labeller:
    """The labeller of an action without arguments: its label is ``label.<kind>``."""

    def label(a: Action, locale: str, rate: int | None) -> Wording:
        return Wording(f"label.{kind}", {})

    return label


for _kind in ("launch", "buy_relic", "cycle", "end", "done"):
    labels(_kind)(_plain(_kind))


@labels("dock")
def _dock(a: Dock, locale: str, rate: int | None) -> Wording:
    return Wording("label.dock", {"dice": dice_text(a.dice, locale), "facility": a.facility})


@labels("trade")
def _trade(a: Action, locale: str, rate: int | None) -> Wording:
    return Wording("label.trade", {"rate": rate if rate is not None else "?"})


@labels("claim")
def _claim(a: Claim, locale: str, rate: int | None) -> Wording:
    return Wording("label.claim", {"card": a.card})


def _one_ship(card: str) -> Labeller:
    """The labeller of a card's power over one ship: ``label.<card>``, ``choice.<card>``."""

    def label(a: OneShipAction, locale: str, rate: int | None) -> Wording:
        params = {"die": die_text(a.die, locale), "new": DIE_FACES + 1 - a.die.value}
        return Wording(f"label.{card}", params, f"choice.{card}")

    return label


for _card in ("booster", "stasis", "polarity"):
    labels(f"use_{_card}")(_one_ship(_card))


@labels("use_gravity")
def _gravity(a: Gravity, locale: str, rate: int | None) -> Wording:
    params = {"down": die_text(a.down, locale), "up": die_text(a.up, locale)}
    return Wording("label.gravity", params, "choice.gravity")


@labels("use_warper")
def _warp(a: Warp, locale: str, rate: int | None) -> Wording:
    return Wording("label.warper", {"dice": dice_text(a.dice, locale)}, "choice.warper")


@labels("use_crystal")
def _crystal(a: Crystal, locale: str, rate: int | None) -> Wording:
    return Wording("label.crystal", {"territory": a.territory}, name=a.territory)


@labels("use_teleporter")
def _teleport(a: Teleport, locale: str, rate: int | None) -> Wording:
    params = {"die": die_text(a.die, locale), **_relocation(a, locale)}
    return Wording("label.teleporter", params, "choice.to")


@labels("use_helm")
def _helm(a: Helm, locale: str, rate: int | None) -> Wording:
    return Wording("label.helm", {"ship": a.ship, **_relocation(a, locale)}, "choice.to")


def _relocation(a: Teleport | Helm, locale: str) -> dict[str, object]:
    return {"source": a.source, "target": a.target, "with": _with(a.dice, locale)}


@labels("use_plasma")
def _plasma(a: Plasma, locale: str, rate: int | None) -> Wording:
    return Wording("label.plasma", {"facility": a.facility, "ship": a.ship}, "choice.ship")


@labels("discard_stasis", "discard_crystal", "discard_gravity")
def _discard_field(a: DiscardField, locale: str, rate: int | None) -> Wording:
    params = {"card": a.card, "field": FIELD_OF_CARD[a.card], "territory": a.territory}
    return Wording("label.discard_field", params, name=a.territory)


@labels("discard_booster")
def _discard_booster(a: DiscardBooster, locale: str, rate: int | None) -> Wording:
    return Wording("label.discard_booster", {"field": a.field}, name=a.field)


@labels("discard_teleporter")
def _discard_teleporter(a: DiscardTeleporter, locale: str, rate: int | None) -> Wording:
    params = {"owner": a.owner, "source": a.source, "target": a.target}
    return Wording("label.discard_teleporter", params, "choice.to_territory")


@labels("discard_polarity")
def _discard_polarity(a: DiscardPolarity, locale: str, rate: int | None) -> Wording:
    params = {
        "owner_a": a.owner_a,
        "territory_a": a.territory_a,
        "owner_b": a.owner_b,
        "territory_b": a.territory_b,
    }
    return Wording("label.discard_polarity", params, "choice.swap_with")


@labels("discard_plasma")
def _discard_plasma(a: DiscardPlasma, locale: str, rate: int | None) -> Wording:
    params = {"facility": a.facility, "ship": a.ship}
    return Wording("label.discard_plasma", params, "choice.ship")


@labels("discard_warper")
def _discard_warper(a: DiscardWarper, locale: str, rate: int | None) -> Wording:
    return Wording("label.discard_warper", {"card": a.card}, name=a.card)


@labels("place")
def _place(a: Place, locale: str, rate: int | None) -> Wording:
    return Wording("label.place", {"territory": a.territory}, name=a.territory)


@labels("steal_resource")
def _steal_resource(a: StealResource, locale: str, rate: int | None) -> Wording:
    return Wording("label.steal_resource", {"resource": a.resource, "victim": a.victim})


@labels("steal_card")
def _steal_card(a: StealCard, locale: str, rate: int | None) -> Wording:
    return Wording("label.steal_card", {"card": a.card, "victim": a.victim})


@labels("hit")
def _hit(a: Hit, locale: str, rate: int | None) -> Wording:
    return Wording("label.hit", {"ship": a.ship})


@labels("return")
def _return(a: ReturnExcess, locale: str, rate: int | None) -> Wording:
    return Wording("label.return", {"fuel": a.fuel, "ore": a.ore})

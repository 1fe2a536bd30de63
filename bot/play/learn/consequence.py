"""The line answering a pick other than the marked one: what the pick did, read from the
game itself (resources gained, the colony's space, the cards taken, the field placed...),
every move of a combined pick included ("3 fuel from the AI", "docked 5 5 at the Alien
Artifact" and "claimed Polarity Device"); and, when it passed a lesson by, whether that
lesson comes back — said only when it will (``bot.play.learn.guide.comes_back``: at the
next decision, in a later turn, or as its rule only), else that its turns end with this
one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from bot.play.learn.finders import LEARNER
from bot.play.learn.guide import Guidance, Note, Progress, advance, comes_back, followed
from engine import (
    FIELD_OF_CARD,
    RULEBOOK,
    Action,
    BuyRelic,
    Claim,
    Cycle,
    DiscardBooster,
    DiscardField,
    DiscardPlasma,
    DiscardPolarity,
    DiscardTeleporter,
    DiscardWarper,
    Dock,
    Done,
    EndTurn,
    GameState,
    Hit,
    Launch,
    Place,
    Plasma,
    PlasmaDecision,
    RaidDecision,
    ReturnExcess,
    StealCard,
    StealResource,
    Trade,
    apply,
)

MAX_SAID = 3  # sentences of what a pick did, at most
TAILS = {"now": "learn.back.now", "later": "learn.back", "rule": "learn.back.rule"}


class Line(NamedTuple):
    """What to show: each sentence (``bot.text.strings.text(key, locale, params,
    seat_names)``) of what the pick did, then the ``tail`` sentence (a key without
    parameters), if any."""

    said: tuple[Note, ...]
    tail: str | None = None

    @property
    def key(self) -> str:
        return self.said[0].key


def consequence(
    progress: Progress,
    before: GameState,
    moves: Sequence[Action],
    after: GameState,
    guidance: Guidance | None,
) -> Line | None:
    """The line for the learner's pick (``moves``, taking ``before`` to ``after``) when it is
    not the pick ``guidance`` marked; None when it is, or when there was no guidance.
    ``progress`` is the progress before the pick."""
    if guidance is None or list(moves) == [guidance.action]:
        return None
    tail = None
    if guidance.lesson is not None and not followed(guidance, moves[0]):
        later, s = progress, before
        for move in moves:
            nxt = apply(s, move)
            later = advance(later, s, move, nxt)
            s = nxt
        back = comes_back(progress, guidance.lesson, after, later)
        tail = TAILS[back] if back is not None else "learn.back.last"
    return Line(tuple(what_it_did(before, moves)[:MAX_SAID]), tail)


def groups(moves: Sequence[Action]) -> list[list[Action]]:
    """The moves of a pick by what they do together: docks at one facility, steals, a
    Plasma Cannon's shots, trades; any other move alone."""
    out: list[list[Action]] = []
    for a in moves:
        last = out[-1][-1] if out else None
        together = (
            (isinstance(a, Dock) and isinstance(last, Dock) and a.facility == last.facility)
            or (isinstance(a, StealResource) and isinstance(last, StealResource))
            or (isinstance(a, Hit) and isinstance(last, (Plasma, Hit)))
            or (isinstance(a, Trade) and isinstance(last, Trade))
        )
        if together:
            out[-1].append(a)
        else:
            out.append([a])
    return out


def what_it_did(before: GameState, moves: Sequence[Action]) -> list[Note]:
    """A sentence per group of moves (``learn.did.*`` and its figures)."""
    out: list[Note] = []
    s = before
    for i, group in enumerate(groups(moves)):
        after = s
        for a in group:
            after = apply(after, a)
        said = describe(s, group, after, alone=i == 0)
        if said is not None:
            out.append(said)
        s = after
    return out or [Note("learn.did.other", {})]


def describe(b: GameState, group: list[Action], a: GameState, alone: bool) -> Note | None:
    """What one group of moves did (None: a stop after the moves before it)."""
    me0, me1 = b.players[LEARNER], a.players[LEARNER]
    fuel, ore = me1.fuel - me0.fuel, me1.ore - me0.ore
    first = group[0]
    if isinstance(first, Dock):
        values = " ".join(str(d) for x in group if isinstance(x, Dock) for d in x.dice)
        if first.facility == "solar":
            return Note("learn.did.fuel", {"facility": "solar", "fuel": fuel, "values": values})
        if first.facility == "mine":
            return Note("learn.did.ore", {"facility": "mine", "ore": ore, "values": values})
        if first.facility == "hub":
            return Note("learn.did.hub", {"space": me1.hub, "values": values})
        if first.facility == "yard":
            return Note("learn.did.ship", {"values": values})
        return Note("learn.did.dock", {"values": values, "facility": first.facility})
    if isinstance(first, Trade):
        if len(group) == 1:
            return Note("learn.did.trade", {"fuel": -fuel})
        return Note("learn.did.trades", {"times": len(group), "rate": -fuel // len(group)})
    if isinstance(first, StealResource):
        victim = first.victim
        taken: dict[str, object] = {"fuel": fuel, "ore": ore, "victim": victim}
        return Note("learn.did.steal", taken)
    if isinstance(first, StealCard):
        return Note("learn.did.steal_card", {"card": first.card, "victim": first.victim})
    if isinstance(first, (Plasma, Hit)):
        d = b.pending[0] if b.pending else None
        facility = first.facility if isinstance(first, Plasma) else getattr(d, "facility", "")
        return Note("learn.did.plasma", {"count": len(group), "facility": facility})
    if isinstance(first, Done):
        if not alone:
            return None
        d = b.pending[0] if b.pending else None
        if isinstance(d, RaidDecision):
            return Note("learn.did.stop.raid", {})
        if isinstance(d, PlasmaDecision):
            return Note("learn.did.stop.plasma", {})
        return Note("learn.did.other", {})
    if isinstance(first, ReturnExcess):
        return Note("learn.did.return", {"fuel": first.fuel, "ore": first.ore})
    if isinstance(first, DiscardField):
        field = FIELD_OF_CARD[first.card]
        return Note(f"learn.did.field.{field}", {"card": first.card, "territory": first.territory})
    if isinstance(first, DiscardBooster):
        return Note("learn.did.discard.booster", {"field": first.field})
    if isinstance(first, DiscardTeleporter):
        moved: dict[str, object] = {
            "owner": first.owner,
            "source": first.source,
            "target": first.target,
        }
        return Note("learn.did.discard.teleporter", moved)
    if isinstance(first, DiscardPolarity):
        swapped: dict[str, object] = {
            "owner_a": first.owner_a,
            "territory_a": first.territory_a,
            "owner_b": first.owner_b,
            "territory_b": first.territory_b,
        }
        return Note("learn.did.discard.polarity", swapped)
    if isinstance(first, DiscardPlasma):
        sent: dict[str, object] = {
            "owner": first.ship.owner,
            "value": first.ship.value,
            "facility": first.facility,
        }
        return Note("learn.did.discard.plasma", sent)
    if isinstance(first, DiscardWarper):
        return Note("learn.did.discard.warper", {"card": first.card})
    if isinstance(first, Place):
        return Note("learn.did.colony", {"territory": first.territory})
    if isinstance(first, Claim):
        return Note("learn.did.card", {"card": first.card})
    if isinstance(first, Launch):
        return Note("learn.did.launch", {})
    if isinstance(first, BuyRelic):
        return Note("learn.did.relic", {})
    if isinstance(first, Cycle):
        return Note("learn.did.cycle", {})
    if isinstance(first, EndTurn):
        return Note("learn.did.end", {})
    rule = RULEBOOK.rule_of(first)
    if rule is not None and rule.card is not None:
        kind = "discard" if rule.power == "discard" else "use"
        return Note(f"learn.did.{kind}", {"card": rule.card})
    return Note("learn.did.other", {})

"""Raiders' Outpost (R-RAID): three consecutive values; steal up to 4 resources in all, or
one alien tech card from one opponent. An occupied outpost is taken by a run whose sum is
greater than the sum of the ships there; they go to their owners' Maintenance Bays.
Holographic Decoy (R-RAID-3) and stolen duplicates (R-RAID-4) are ruled here too.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.actions import Resource, StealCard, StealResource
from engine.board import Refusal, log, refuse, set_docks, to_bay
from engine.facilities.base import Facility
from engine.rule import AnswerRule, Stop
from engine.state import GameState, RaidDecision, Ship
from engine.tables import CARD_INDEX, RAID_STEAL_LIMIT
from engine.tech.holographic_decoy import card_theft_refusal, resources_protected
from engine.tokens import Tokens


class RaidersOutpost(Facility):
    id = "raiders"
    pattern = "run"
    room_by_ships = True  # an occupied outpost is taken by a run of a greater sum

    def may_have_room(self, s: GameState, p: int) -> bool:
        return True  # an occupied outpost can still be taken by a higher run

    def room_refusal(self, s: GameState, p: int, ships: Sequence[Ship]) -> Refusal | None:
        there = [x for x in s.docks["raiders"] if x is not None]
        if not there:
            return None
        held = sum(x.value for x in there)
        if sum(x.value for x in ships) > held:
            return None
        return refuse("raiders.sum", sum=held)

    def put(self, s: GameState, p: int, ships: list[Ship]) -> int:
        for old in s.docks["raiders"]:
            if old is not None:
                to_bay(s, old)
                log(s, "displaced", old.owner, facility="raiders", value=old.value)
        set_docks(s, "raiders", ships)
        return 0

    def effect(self, s: GameState, p: int, ships: list[Ship], group: int) -> None:
        s.pending.insert(0, RaidDecision(p))


def _victim_refusal(s: GameState, d: RaidDecision, victim: int) -> Refusal | None:
    if victim == d.player or not 0 <= victim < s.num_players:
        return refuse("raid.victim")
    return None


class StealResourceRule(AnswerRule[RaidDecision, StealResource]):
    """Take one fuel or ore from an opponent, up to 4 in all (R-RAID-2)."""

    kind = "steal_resource"
    verbs = ("steal",)

    def candidates(self, s: GameState, d: RaidDecision) -> list[StealResource]:
        return [StealResource(r, v) for v in range(s.num_players) for r in ("fuel", "ore")]

    def refusal(self, s: GameState, d: RaidDecision, a: StealResource) -> Refusal | None:
        r = _victim_refusal(s, d, a.victim)
        if r:
            return r
        if d.stolen >= RAID_STEAL_LIMIT:
            return refuse("raid.limit", limit=RAID_STEAL_LIMIT)
        if resources_protected(s, a.victim):
            return refuse("raid.decoy", victim=a.victim)
        pl = s.players[a.victim]
        if (pl.fuel if a.resource == "fuel" else pl.ore) == 0:
            return refuse("raid.nothing", victim=a.victim, resource=a.resource)
        return None

    def apply(self, s: GameState, d: RaidDecision, a: StealResource) -> None:
        thief, pl = s.players[d.player], s.players[a.victim]
        if a.resource == "fuel":
            pl.fuel -= 1
            thief.fuel += 1
        else:
            pl.ore -= 1
            thief.ore += 1
        log(s, "stole_resource", d.player, resource=a.resource, victim=a.victim)
        stolen = d.stolen + 1
        if stolen < RAID_STEAL_LIMIT:
            s.pending[0] = RaidDecision(d.player, stolen)
        else:
            s.pending.pop(0)

    def parse(self, t: Tokens) -> StealResource:
        resource: Resource = "fuel" if t.word("fuel", "ore") == "fuel" else "ore"
        t.optional("from")
        return StealResource(resource, t.seat())

    def group(self, a: StealResource) -> str:
        return "steal"


class StealCardRule(AnswerRule[RaidDecision, StealCard]):
    """Take one alien tech card from an opponent instead of resources (R-RAID-2, R-RAID-4:
    a card you own already is discarded)."""

    kind = "steal_card"
    verbs = ("steal card",)

    def candidates(self, s: GameState, d: RaidDecision) -> list[StealCard]:
        return [
            StealCard(c, v)
            for v in range(s.num_players)
            if v != d.player
            for c in sorted(set(s.players[v].cards))
        ]

    def refusal(self, s: GameState, d: RaidDecision, a: StealCard) -> Refusal | None:
        r = _victim_refusal(s, d, a.victim)
        if r:
            return r
        if d.stolen:
            return refuse("raid.mixed")
        if a.card not in s.players[a.victim].cards:
            return refuse("raid.no_card", victim=a.victim, card=a.card)
        return card_theft_refusal(s, a.victim, a.card)

    def apply(self, s: GameState, d: RaidDecision, a: StealCard) -> None:
        s.players[a.victim].cards.remove(a.card)
        thief = s.players[d.player]
        if a.card in thief.cards:
            s.discard[CARD_INDEX[a.card]] += 1  # R-RAID-4
            log(s, "stole_card_discarded", d.player, card=a.card, victim=a.victim)
        else:
            thief.cards.append(a.card)
            log(s, "stole_card", d.player, card=a.card, victim=a.victim)
        s.pending.pop(0)

    def parse(self, t: Tokens) -> StealCard:
        card = t.card()
        t.optional("from")
        return StealCard(card, t.seat())

    def group(self, a: StealCard) -> str:
        return "steal"


STEAL_RESOURCE = StealResourceRule()
STEAL_CARD = StealCardRule()
STOP_RAID = Stop(RaidDecision)

"""Raiders' Outpost (R-RAID): three consecutive values; steal up to 4 resources in all, or
one alien tech card from one opponent. An occupied outpost is taken by a run whose sum is
greater than the sum of the ships there; they go to their owners' Maintenance Bays.
Holographic Decoy (R-RAID-3) and stolen duplicates (R-RAID-4) are ruled here too.
"""

from __future__ import annotations

from engine.board import Refusal, log, refuse, to_bay
from engine.facilities.base import Facility
from engine.state import GameState, RaidDecision, Ship
from engine.tables import CARD_INDEX, RAID_STEAL_LIMIT, CardId


class RaidersOutpost(Facility):
    id = "raiders"
    pattern = "run"

    def may_have_room(self, s: GameState, p: int) -> bool:
        return True  # an occupied outpost can still be taken by a higher run

    def room_refusal(self, s: GameState, p: int, ships: list[Ship]) -> Refusal | None:
        there = [x for x in s.docks["raiders"] if x is not None]
        if not there:
            return None
        held = sum(x.value for x in there)
        if sum(x.value for x in ships) > held:
            return None
        return refuse("raiders.sum", sum=held)

    def put(self, s: GameState, p: int, ships: list[Ship]) -> int:
        slots = s.docks["raiders"]
        for i, old in enumerate(slots):
            if old is not None:
                to_bay(s, old)
                log(s, "displaced", old.owner, facility="raiders", value=old.value)
            slots[i] = ships[i]
        return 0

    def effect(self, s: GameState, p: int, ships: list[Ship], group: int) -> None:
        s.pending.insert(0, RaidDecision(p))


def decoy_protects(s: GameState, victim: int) -> bool:
    return "decoy" in s.players[victim].cards


def steal_resource_refusal(
    s: GameState, d: RaidDecision, resource: str, victim: int
) -> Refusal | None:
    if victim == d.player or not 0 <= victim < s.num_players:
        return refuse("raid.victim")
    if d.stolen >= RAID_STEAL_LIMIT:
        return refuse("raid.limit", limit=RAID_STEAL_LIMIT)
    if decoy_protects(s, victim):
        return refuse("raid.decoy", victim=victim)
    pl = s.players[victim]
    if (pl.fuel if resource == "fuel" else pl.ore) == 0:
        return refuse("raid.nothing", victim=victim, resource=resource)
    return None


def steal_resource(s: GameState, d: RaidDecision, resource: str, victim: int) -> None:
    thief, pl = s.players[d.player], s.players[victim]
    if resource == "fuel":
        pl.fuel -= 1
        thief.fuel += 1
    else:
        pl.ore -= 1
        thief.ore += 1
    log(s, "stole_resource", d.player, resource=resource, victim=victim)
    stolen = d.stolen + 1
    if stolen < RAID_STEAL_LIMIT:
        s.pending[0] = RaidDecision(d.player, stolen)
    else:
        s.pending.pop(0)


def steal_card_refusal(s: GameState, d: RaidDecision, card: CardId, victim: int) -> Refusal | None:
    if victim == d.player or not 0 <= victim < s.num_players:
        return refuse("raid.victim")
    if d.stolen:
        return refuse("raid.mixed")
    cards = s.players[victim].cards
    if card not in cards:
        return refuse("raid.no_card", victim=victim, card=card)
    if "decoy" in cards and card != "decoy":
        return refuse("raid.decoy_card", victim=victim)
    return None


def steal_card(s: GameState, d: RaidDecision, card: CardId, victim: int) -> None:
    s.players[victim].cards.remove(card)
    thief = s.players[d.player]
    if card in thief.cards:
        s.discard[CARD_INDEX[card]] += 1  # R-RAID-4
        log(s, "stole_card_discarded", d.player, card=card, victim=victim)
    else:
        thief.cards.append(card)
        log(s, "stole_card", d.player, card=card, victim=victim)
    s.pending.pop(0)

"""Why the normal AI picks what it picks: one reason per pick of a plan, as a key of the
bot's catalogue and its parameters (the engine holds no English: ``hint.why.<kind>`` says
it in the player's language, with ids of things and 0-based seats as parameters, which
the bot shows by their names).

A reason is derived from what the pick changes. The evaluation that chose the plan
(``engine.ai.evaluate``) is split into its parts (``worth_parts``: colonies, control,
bonuses, cards, ships, relic ship, resources, Colony Hub track, raids, the turn's open
deals), and each thing the pick does (``KINDS``) is weighed by its parts' difference,
for the seat and against its opponents (as the score weighs them); the heaviest is the
reason. A pick whose worth shows only later (a ship changed for a dock, a pair docked for
trades, a card power, a ship at the Raiders' Outpost for the raid) is explained by what it
opens, read from the rest of the plan, with a small weight (``OPENS``) any gain the
evaluation sees outweighs. Docks held until the seat's next turn keep a facility from the
opponents, which the evaluation does not model: that reason (``block_facility``) has a
fixed weight (``HOLDS``). ``best`` is said only when nothing specific applies.

Repeated identical picks in a row are one pick (``times``), explained as a whole ("+3
ore" for three trades). A move that is the only legal one is no decision: no reason.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from engine.actions import (
    Action,
    Claim,
    Crystal,
    Cycle,
    Die,
    DiscardBooster,
    DiscardField,
    DiscardPlasma,
    DiscardWarper,
    Dock,
    Done,
    EndTurn,
    Gravity,
    Helm,
    Hit,
    Launch,
    OneShipAction,
    Place,
    Plasma,
    Relocation,
    ReturnExcess,
    Reveal,
    StealCard,
    StealResource,
    Teleport,
    Warp,
)
from engine.ai.evaluate import Evaluator, Weights
from engine.ai.normal import NORMAL_WEIGHTS
from engine.ai.threats import attackers, colour_ships, raid_probability
from engine.board import colour_ships_in_play
from engine.chance import chance_outcomes
from engine.facilities import FACILITY_RULES
from engine.facilities.colony_constructor import constructor_cost
from engine.facilities.orbital_market import market_rate
from engine.facilities.shipyard import ship_cost
from engine.legal import legal_actions
from engine.rules import apply_in_place
from engine.scoring import outcome
from engine.state import (
    CHANCE,
    GameState,
    PlaceColonyDecision,
    PlasmaDecision,
    PlayerState,
    RaidDecision,
    ReturnExcessDecision,
    RollDecision,
)
from engine.tables import (
    ARTIFACT_CLAIM_TOTAL,
    CARD_INDEX,
    FIELD_OF_CARD,
    HAND_LIMIT,
    HUB_TRACK_LENGTH,
    MIN_COLOUR_SHIPS,
    RAID_STEAL_LIMIT,
    SHIPS_PER_COLOUR,
    TERRITORIES,
    CardId,
    FacilityId,
    FieldId,
    TerritoryId,
)
from engine.tech.card import card_vp

KEY_PREFIX: Final = "hint.why."
# The kinds of reason, each the key ``hint.why.<kind>`` of the bot's catalogue, with the
# parameters it takes. Kinds with ``resource`` have a variant per resource
# (``hint.why.gain.ore``), which the bot's ``text`` picks.
KINDS: Final[dict[str, tuple[str, ...]]] = {
    "win": (),  # the pick ends the game with the seat winning
    "colony": ("territory",),  # a colony placed: +1 VP
    "control": ("territory",),  # a colony placed takes control of a free territory
    "control_positron": ("territory",),  # ... the one with the Positron Field: +3 VP
    "control_gain": ("territory",),  # control of a free territory by a colony moved there
    "take": ("territory", "player"),  # control taken from an opponent
    "deny": ("territory", "player"),  # an opponent loses control (a tie now)
    "colony_for": ("territory",),  # pays for a colony the plan then places there
    "colony_paid": (),  # pays for a colony (where it goes is decided later)
    "hub": ("space",),  # the colony moves along the Colony Hub track
    "hub_ready": (),  # the colony reaches space 7: it can be launched
    "ship": ("number",),  # a ship built: one more to roll (``number`` in play)
    "relic": (),  # the relic ship bought
    "card": ("card",),  # a card gained
    "card_vp": ("card",),  # a card worth a victory point gained
    "steal_card": ("card", "victim"),  # a card taken from an opponent
    "artifact": ("total",),  # a step toward a card at the Alien Artifact (of 8)
    "artifact_ready": (),  # the Alien Artifact's total reaches 8: a card may be claimed
    "cycle": (),  # new cards on display
    "artifact_cycle": (),  # a ship at the Alien Artifact for the cycle that follows
    "market": ("rate",),  # a pair at the Orbital Market: trades at this rate
    "gain": ("resource", "amount"),  # resources gained
    "gain_colony": ("resource", "amount"),  # ... that pay next turn for the colony on space 7
    "gain_colony_six": ("resource", "amount"),  # ... for a colony next turn with a 6
    "gain_colony_three": ("resource", "amount"),  # ... with three alike
    "gain_colony_now": ("resource", "amount"),  # ... for a colony later in this plan
    "gain_ship": ("resource", "amount"),  # ... that pay for a ship next turn (with a pair)
    "gain_ship_now": ("resource", "amount"),  # ... for a ship later in this plan
    "steal": ("resource", "amount", "victim"),  # resources taken in a raid
    "block_raid": ("player",),  # an opponent's raid on the seat made impossible
    "block_facility": ("facility", "player"),  # the last docks an opponent could use next
    "raid": (),  # a raid opened (what it takes follows in the plan)
    "clear": ("facility",),  # opponents' ships blasted off a facility the plan docks at
    "blast": ("facility", "player"),  # an opponent's ship blasted off a facility
    "destroy": ("player",),  # an opponent's ship sent to its stock
    "tune": ("value", "facility"),  # a ship's value changed for the dock that follows
    "borrow": ("territory",),  # a territory's bonus borrowed for the turn
    "move": ("facility",),  # a docked ship used again at another facility
    "isolate": ("territory", "player"),  # an opponent's bonus voided
    "positron": ("territory",),  # +1 VP: the Positron Field on the seat's territory
    "repulsor": ("territory",),  # the seat's lead on a territory locked
    "field_free": ("territory",),  # the Isolation Field taken off the seat's territory
    "field": ("field", "territory"),  # a field generator moved (nothing more specific)
    "field_off": ("field",),  # a field generator removed (nothing more specific)
    "end": (),  # the turn ends: nothing more pays off
    "stop": (),  # no more stealing
    "stop_firing": (),  # no more firing (the Plasma Cannon)
    "keep": ("resource",),  # resources returned: the one kept is worth more (none: as many)
    "best": (),  # nothing specific applies
}
RESOURCE_KINDS: Final = frozenset(k for k, params in KINDS.items() if "resource" in params)

Part = Literal[
    "colonies", "control", "bonus", "cards", "ships", "relic", "resources", "hub", "raid", "turn"
]
PARTS: Final[tuple[Part, ...]] = (
    "colonies",
    "control",
    "bonus",
    "cards",
    "ships",
    "relic",
    "resources",
    "hub",
    "raid",
    "turn",
)
TERRITORY_PARTS: Final[tuple[Part, ...]] = ("colonies", "control", "bonus")
OPENS: Final = 0.02  # the weight of what a pick opens when the evaluation shows nothing yet
HOLDS: Final[dict[FacilityId, float]] = {  # docks held from the next opponent (see above)
    "terraform": 0.3,
    "constructor": 0.3,
    "yard": 0.2,
    "mine": 0.1,
}
WIN_WEIGHT: Final = 1000.0
MAX_RUN_SUM: Final = 15  # 4 + 5 + 6: no run takes an outpost holding this much (R-RAID-1)
_EPS: Final = 1e-9


# What a pick needs chance to give it: a card to turn up, or the dice of a reroll to fall
# as the plan expects ("cards": a card the plan did not name).
Luck = CardId | Literal["dice", "cards"]


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a pick: its ``kind`` (``KINDS``) and parameters (ids of things, 0-based seats,
    numbers), said by the bot's catalogue text ``key``."""

    kind: str
    params: Mapping[str, str | int]
    # What the pick needs chance to give (None: nothing): a card to turn up, or the dice.
    luck: Luck | None = None

    @property
    def key(self) -> str:
        return KEY_PREFIX + self.kind


@dataclass(frozen=True, slots=True)
class Pick:
    """One pick of a plan: an action taken ``times`` in a row, why (None: the only legal
    move, no decision), and the state it is taken in (None once the plan cannot be
    followed: a card it expects did not turn up)."""

    action: Action
    times: int
    reason: Reason | None
    before: GameState | None


@dataclass(slots=True)
class Worth:
    """The evaluation of a state split into parts: per seat, each part's worth in VP (they
    add up to ``Evaluator.worth``); and per seat the resources it may expect to lose to
    each other seat's raid (before the raid weight)."""

    parts: list[dict[Part, float]]
    raid_loss: list[list[float]]


def worth_parts(ev: Evaluator, s: GameState) -> Worth:
    """``ev``'s worth of every seat, part by part: the same terms as ``Evaluator.worth``
    (tests/engine/ai/test_hint_reasons.py holds them equal), kept apart."""
    w = ev.w
    players = s.players
    n = len(players)
    per = s.config.colonies_per_player
    control, bonus, placed = _territory_parts(w, s, n)
    for d in s.pending:
        if type(d) is PlaceColonyDecision:
            placed[d.player] += 1
    min_left = per - max(placed)
    future = w.late_floor + (1.0 - w.late_floor) * max(0, min_left) / per
    res_factor = 0.5 + 0.5 * future
    colony_factor = 1.0 + w.colony * future
    relic_owner = None if s.relic_on_desert else s.controller["burroughs"]
    terra = s.docks["terraform"][0]
    used_up = terra.owner if terra is not None and not terra.relic else -2
    extra = [SHIPS_PER_COLOUR - pl.stock - 3 - (p == used_up) for p, pl in enumerate(players)]
    ship_table = [sum(w.ship[:k]) for k in range(len(w.ship) + 1)]
    resources = _resources(w)
    out: list[dict[Part, float]] = []
    for p, pl in enumerate(players):
        vp = 0.0
        cards = 0.0
        for card in pl.cards:
            if card_vp(card):
                vp += card_vp(card)
            elif card == "plasma" and w.plasma_hit:
                hit = any(extra[q] > 0 for q in range(n) if q != p)
                cards += max(w.card[card], w.plasma_hit * w.ship[-1]) if hit else w.card[card]
            else:
                cards += w.card[card]
        ships = 0.0
        built = SHIPS_PER_COLOUR - pl.stock - 3
        if built > 0:
            ships = ship_table[min(built, len(ship_table) - 1)]
            if p == used_up:
                ships -= (1.0 - w.used_up) * w.ship[min(built, len(w.ship)) - 1]
        hub = 0.0
        if pl.hub:
            hub = w.hub_step * pl.hub + (w.hub_ready if pl.hub == HUB_TRACK_LENGTH else 0.0)
        out.append(
            {
                "colonies": colony_factor * placed[p],
                "control": control[p],
                "bonus": future * bonus[p],
                "cards": vp + future * cards,
                "ships": future * ships,
                "relic": future * w.relic if relic_owner == p else 0.0,
                "resources": res_factor * resources(pl.fuel, pl.ore),
                "hub": hub,
                "raid": 0.0,
                "turn": 0.0,
            }
        )
    loss, gain = _raids(s)
    for p in range(n):
        out[p]["raid"] = w.raid * (0.5 * gain[p] - sum(loss[p]))
    if s.undocked:
        v = w.undocked_die * len(s.undocked) + 0.02 * sum(x.value for x in s.undocked)
        if 0 < s.turn.artifact_total < ARTIFACT_CLAIM_TOTAL:
            v += w.artifact_step * s.turn.artifact_total
        out[s.current]["turn"] = v
    return Worth(out, loss)


def _territory_parts(
    w: Weights, s: GameState, n: int
) -> tuple[list[float], list[float], list[int]]:
    """Per seat: the worth of its control of territories, its bonuses (before the weight
    of the future), its colonies placed."""
    control = [0.0] * n
    bonus = [0.0] * n
    placed = [0] * n
    fields = s.fields
    for t, counts in s.colonies.items():
        best = second = 0
        for p, c in enumerate(counts):
            if c:
                placed[p] += c
                if c > best:
                    best, second = c, best
                elif c > second:
                    second = c
        ctrl = s.controller[t]
        if ctrl is not None:
            control[ctrl] += 2.0 if fields["positron"] == t else 1.0
            if fields["repulsor"] == t:
                control[ctrl] += w.repulsor_lock
            elif best - second == 1:
                control[ctrl] -= w.fragile
            if fields["isolation"] != t:
                b = w.bonus[t]
                if t == "burroughs" and not s.relic_on_desert:
                    b *= 0.3
                bonus[ctrl] += b
        elif best > 0 and fields["repulsor"] != t:
            for p in range(n):
                if counts[p] == best:
                    control[p] += w.contest
    return control, bonus, placed


def _resources(w: Weights) -> Callable[[int, int], float]:
    """The worth of holding fuel and ore (above the limit of 8 only the best 8 count)."""

    def held(marginal: tuple[float, ...], units: int) -> float:
        return sum(marginal[min(k, len(marginal)) - 1] for k in range(1, units + 1))

    def worth(fuel: int, ore: int) -> float:
        if fuel + ore <= HAND_LIMIT:
            return held(w.fuel, fuel) + held(w.ore, ore)
        low, high = max(0, HAND_LIMIT - ore), min(fuel, HAND_LIMIT)
        return max(held(w.fuel, k) + held(w.ore, HAND_LIMIT - k) for k in range(low, high + 1))

    return worth


def _victim_worth(pl: PlayerState) -> float:
    """What one resource taken in a raid is worth (the evaluation's rule)."""
    return 0.25 if pl.ore >= 2 else 0.15


def _raids(s: GameState) -> tuple[list[list[float]], list[float]]:
    """Per seat, what it may expect to lose to each other seat's raid before its next turn,
    and to gain by raiding (``engine.ai.threats.raid_exposure``, attacker by attacker)."""
    n = s.num_players
    first = s.pending[0] if s.pending else None
    rolling = isinstance(first, RollDecision) and not first.reroll
    share = 1.0 if n == 2 else 1.0 / (n - 1)
    loss = [[0.0] * n for _ in range(n)]
    gain = [0.0] * n
    for p, pl in enumerate(s.players):
        if "decoy" in pl.cards:
            continue
        exposed = min(RAID_STEAL_LIMIT, pl.fuel + pl.ore) * _victim_worth(pl)
        if not exposed:
            continue
        for q, sure in attackers(n, s.current, rolling, p):
            x = sure * share * raid_probability(s, q) * exposed
            loss[p][q] += x
            gain[q] += x
    return loss, gain


# ---- following a plan ------------------------------------------------------------------


def group_plan(plan: Sequence[Action]) -> list[tuple[Action, int]]:
    """The plan's picks: identical actions in a row as one, with how many times."""
    out: list[tuple[Action, int]] = []
    for a in plan:
        if out and out[-1][0] == a:
            out[-1] = (a, out[-1][1] + 1)
        else:
            out.append((a, 1))
    return out


def explain_plan(
    state: GameState, plan: Sequence[Action], weights: Weights = NORMAL_WEIGHTS
) -> list[Pick]:
    """Each pick of ``plan`` (the actions the seat to act in ``state`` would take, as
    ``NormalAI.make_plan`` gives them) with its reason.

    Chance inside the plan (the cards a cycle or a claim turns up, a reroll) is followed
    as the plan expects it; a pick that needs it to go that way carries the luck it needs
    (``Reason.luck``: "if it turns up"), found by playing the rest of the plan again with
    the chance gone otherwise."""
    ev = Evaluator(weights)
    me = state.to_act()
    groups = group_plan(plan)
    flat = [a for a, times in groups for _ in range(times)]
    followed: list[tuple[Action, int, GameState | None, GameState | None, int]] = []
    s: GameState | None = None if me == CHANCE or state.over else state.copy_unrecorded()
    unforeseen: Luck = "cards"  # what the chance the plan could not follow was
    done = 0  # actions of the plan followed
    for action, times in groups:
        rest = flat[done + times :]
        done += times
        legal = legal_actions(s) if s is not None else []
        if s is None or action not in legal:
            s = None
            followed.append((action, times, None, None, 0))
            continue
        before = s.copy()
        after = s.copy()
        apply_in_place(after, action)
        for _ in range(times - 1):  # (chance may come between repeats: two cycles in a row)
            if _past_chance(after, [action, *rest]) is None:
                break  # the plan expected chance to go otherwise: explain what is known
            apply_in_place(after, action)
        followed.append((action, times, before, after, len(legal)))
        if not rest:
            s = after
            continue
        s = after.copy()
        if after.pending and isinstance(after.pending[0], RollDecision):
            unforeseen = "dice"
        s = _past_chance(s, rest)
    end = s if s is not None and followed and followed[-1][3] is not None else None
    luck = _mark_luck(state, groups, followed)
    picks: list[Pick] = []
    done = 0
    for i, (action, times, b, a, legal_count) in enumerate(followed):
        rest = flat[done + times :]
        done += times
        if b is None or a is None:
            reason = _unfollowed(action)
            picks.append(Pick(action, times, _lucky(reason, luck[i] or unforeseen), None))
            continue
        found = None
        if legal_count > 1:
            found = Explainer(ev, b, a, action, times, me, rest, end).reason()
        picks.append(Pick(action, times, _lucky(found, luck[i]), b))
    return picks


def _lucky(reason: Reason | None, luck: Luck | None) -> Reason | None:
    if reason is None or luck is None:
        return reason
    return Reason(reason.kind, reason.params, luck)


def _mark_luck(
    state: GameState,
    groups: Sequence[tuple[Action, int]],
    followed: Sequence[tuple[Action, int, GameState | None, GameState | None, int]],
) -> list[Luck | None]:
    """What each pick needs chance to give it. A reroll: every later pick that is not the
    end of the turn needs the dice. A card claimed (or taken back from the discard pile)
    that was not in sight when the plan began (or after a cycle) needs to turn up; so do
    the later picks
    that are not legal without it (the plan played again without that pick)."""
    luck: list[Luck | None] = [None] * len(groups)
    for i, (_action, _times, _before, after, _n) in enumerate(followed):
        if after is not None and after.pending and isinstance(after.pending[0], RollDecision):
            for j in range(i + 1, len(groups)):
                if not isinstance(groups[j][0], (EndTurn, ReturnExcess, Done)):
                    luck[j] = luck[j] or "dice"
    cycled = False  # the display was laid out anew by chance
    for i, (action, _times, before, _after, _n) in enumerate(followed):
        if isinstance(action, Cycle):
            cycled = True
        if before is None:
            continue
        if isinstance(action, Claim):
            unseen = cycled or action.card not in state.display
        elif isinstance(action, DiscardWarper):
            seen = state.discard[CARD_INDEX[action.card]] or action.card in state.display
            unseen = cycled or not seen
        else:
            continue
        if not unseen:
            continue
        card: CardId = action.card
        luck[i] = luck[i] or card
        without = before.copy()  # the plan played on without the card
        for j in range(i + 1, len(groups)):
            later, times = groups[j]
            if without.over or later not in legal_actions(without):
                luck[j] = luck[j] or card
                continue
            for _ in range(times):
                if without.to_act() == CHANCE or later not in legal_actions(without):
                    break
                apply_in_place(without, later)
            while not without.over and without.to_act() == CHANCE:
                outcomes = chance_outcomes(without)
                apply_in_place(without, max(outcomes, key=lambda o: o[1])[0])
    return luck


def _unfollowed(action: Action) -> Reason:
    """A pick after chance the plan could not foresee: only what the action itself says."""
    if isinstance(action, (Claim, DiscardWarper)):
        return Reason("card", {"card": action.card})
    if isinstance(action, Place):
        return Reason("colony", {"territory": action.territory})
    if isinstance(action, EndTurn):
        return Reason("end", {})
    if isinstance(action, ReturnExcess):
        return _keep(action.fuel, action.ore)
    return Reason("best", {})


def _keep(fuel: int, ore: int) -> Reason:
    """Returning ``fuel`` and ``ore``: the resource kept is the one returned less of."""
    if fuel == ore:
        return Reason("keep", {})
    return Reason("keep", {"resource": "ore" if fuel > ore else "fuel"})


def _wanted(s: GameState, rest: Sequence[Action]) -> set[CardId]:
    """The cards the rest of the plan expects the deck to turn up now: those it claims
    before it cycles the display again, and those it takes from the discard pile after
    that cycle (which discards them)."""
    claimed: set[CardId] = set()
    taken: set[CardId] = set()
    cycled = False
    for a in rest:
        if isinstance(a, Cycle):
            if cycled:
                break
            cycled = True
        elif isinstance(a, Claim) and not cycled:
            claimed.add(a.card)
        elif isinstance(a, DiscardWarper) and cycled and not s.discard[CARD_INDEX[a.card]]:
            taken.add(a.card)
    return (claimed - set(s.display)) | taken


def _past_chance(s: GameState, rest: Sequence[Action]) -> GameState | None:
    """``s`` with its pending chance settled (in place) as the plan expects it: the cards
    the rest of the plan claims turn up, else the likeliest outcome; None if the plan's
    next action is then not legal."""
    while not s.over and s.to_act() == CHANCE:
        outcomes = chance_outcomes(s)
        if not outcomes:
            return None
        wanted = _wanted(s, rest)
        chosen: Action | None = next(
            (a for a, _ in outcomes if isinstance(a, Reveal) and a.card in wanted), None
        )
        if chosen is None:
            chosen = max(outcomes, key=lambda o: o[1])[0]
        apply_in_place(s, chosen)
    if rest and rest[0] not in legal_actions(s):
        return None
    return s


# ---- the reason of one pick --------------------------------------------------------------

Candidate = tuple[float, Reason]


class Explainer:
    """The reason of one pick: the state before it, after it (``times`` times), the seat,
    and the rest of the plan."""

    def __init__(
        self,
        ev: Evaluator,
        before: GameState,
        after: GameState,
        action: Action,
        times: int,
        me: int,
        rest: Sequence[Action],
        end: GameState | None = None,
    ) -> None:
        self.ev = ev
        self.end = end  # the state after the whole plan (None: it could not be followed)
        self.b = before
        self.a = after
        self.action = action
        self.times = times
        self.me = me
        self.rest = rest
        self.wb = worth_parts(ev, before)
        self.wa = worth_parts(ev, after)
        n = before.num_players
        if n == 2:
            self.opp_weight = [0.0 if q == me else 1.0 for q in range(n)]
        else:
            worth = [sum(self.wb.parts[q].values()) for q in range(n)]
            best = max((q for q in range(n) if q != me), key=lambda q: worth[q])
            mean = (1.0 - ev.w.opp_max) / (n - 1)
            self.opp_weight = [
                0.0 if q == me else mean + (ev.w.opp_max if q == best else 0.0) for q in range(n)
            ]

    def reason(self) -> Reason:
        """The heaviest reason found (the first of equals, in the order of ``DETECTORS``),
        or ``best`` when none weighs anything."""
        found: list[Candidate] = []
        for detect in DETECTORS:
            found += detect(self)
        if not found:
            return Reason("best", {})
        weight, chosen = max(found, key=lambda c: c[0])
        return chosen if weight > _EPS else Reason("best", {})

    # ---- what the evaluation says ----------------------------------------------------

    def mine(self, *parts: Part) -> float:
        """The seat's gain in these parts."""
        return sum(self.wa.parts[self.me][k] - self.wb.parts[self.me][k] for k in parts)

    def theirs(self, q: int, *parts: Part) -> float:
        """Opponent q's loss in these parts, as it counts in the seat's score."""
        lost = sum(self.wb.parts[q][k] - self.wa.parts[q][k] for k in parts)
        return self.opp_weight[q] * lost

    def net(self, *parts: Part) -> float:
        """The seat's gain in these parts and its opponents' losses."""
        return self.mine(*parts) + sum(
            self.theirs(q, *parts) for q in range(self.b.num_players) if q != self.me
        )

    def next_docks(self) -> list[tuple[FacilityId, tuple[Die, ...]]]:
        """The facilities the rest of the plan docks at this turn, with the ships docked."""
        out: list[tuple[FacilityId, tuple[Die, ...]]] = []
        for a in self.rest:
            if isinstance(a, EndTurn):
                break
            if isinstance(a, Dock):
                out.append((a.facility, a.dice))
            elif isinstance(a, Relocation):
                out.append((a.target, a.dice))
        return out

    def later(self, facilities: set[FacilityId], launch: bool = False) -> bool:
        """Whether the rest of the plan docks at one of these facilities (or launches)."""
        for a in self.rest:
            if isinstance(a, EndTurn):
                return False
            if isinstance(a, Dock) and a.facility in facilities:
                return True
            if launch and isinstance(a, Launch):
                return True
        return False


Detector = Callable[[Explainer], list[Candidate]]


def _win(x: Explainer) -> list[Candidate]:
    if not x.a.over:
        return []
    result = outcome(x.a)
    if result is None or x.me not in result.winners:
        return []
    return [(WIN_WEIGHT, Reason("win", {}))]


def _territories(x: Explainer) -> list[Candidate]:
    """Colonies placed and control gained, taken or denied (one territory: the one that
    changes most for the seat). "+1 VP: a colony" and "+2 VP: a colony and control" are
    said of a new colony on the planet only; a colony moved or swapped there takes
    control without one."""
    b, a, me = x.b, x.a, x.me
    new_colony = sum(a.colonies[t][me] for t in TERRITORIES) > sum(
        b.colonies[t][me] for t in TERRITORIES
    )
    best: tuple[float, Reason] | None = None
    for t in TERRITORIES:
        kb, ka = b.controller[t], a.controller[t]
        placed = a.colonies[t][me] - b.colonies[t][me]
        if kb == ka and placed <= 0:
            continue
        vp = 2.0 if a.fields["positron"] == t else 1.0
        local = placed + vp * ((ka == me) - (kb == me))
        if kb is not None and kb != me and ka != kb:
            local += vp * x.opp_weight[kb]
        here = new_colony and placed > 0
        if ka == me and kb != me:
            if kb is not None:
                reason = Reason("take", {"territory": t, "player": kb})
            elif here:
                kind = "control_positron" if a.fields["positron"] == t else "control"
                reason = Reason(kind, {"territory": t})
            else:
                reason = Reason("control_gain", {"territory": t})
        elif kb is not None and kb != me and ka is None:
            reason = Reason("deny", {"territory": t, "player": kb})
        elif here:
            reason = Reason("colony", {"territory": t})
        else:
            continue
        if best is None or local > best[0]:
            best = (local, reason)
    if best is None:
        return []
    return [(max(x.net(*TERRITORY_PARTS), OPENS), best[1])]


def _colony_opened(x: Explainer) -> list[Candidate]:
    """A colony paid for (Terraforming Station, Colony Constructor, launch)."""
    if not _places(x.a, x.me) or _places(x.b, x.me):
        return []
    weight = max(x.mine("colonies"), OPENS)
    if x.rest and isinstance(x.rest[0], Place):
        return [(weight, Reason("colony_for", {"territory": x.rest[0].territory}))]
    return [(weight, Reason("colony_paid", {}))]


def _places(s: GameState, p: int) -> bool:
    return bool(s.pending) and type(s.pending[0]) is PlaceColonyDecision and s.to_act() == p


def _hub(x: Explainer) -> list[Candidate]:
    before, after = x.b.players[x.me].hub, x.a.players[x.me].hub
    if after <= before:
        return []
    weight = max(x.mine("hub"), OPENS)
    if after == HUB_TRACK_LENGTH:
        return [(weight, Reason("hub_ready", {}))]
    return [(weight, Reason("hub", {"space": after}))]


def _ship(x: Explainer) -> list[Candidate]:
    if x.a.players[x.me].stock >= x.b.players[x.me].stock:
        return []
    number = colour_ships_in_play(x.a, x.me)
    return [(max(x.mine("ships"), OPENS), Reason("ship", {"number": number}))]


def _relic(x: Explainer) -> list[Candidate]:
    if not x.b.relic_on_desert or x.a.relic_on_desert:
        return []
    return [(max(x.mine("relic"), OPENS), Reason("relic", {}))]


def _cards(x: Explainer) -> list[Candidate]:
    held_before = x.b.players[x.me].cards
    new = [c for c in x.a.players[x.me].cards if c not in held_before]
    if isinstance(x.action, StealCard):
        victim = x.action.victim
        weight = x.mine("cards") + x.theirs(victim, "cards")
        reason = Reason("steal_card", {"card": x.action.card, "victim": victim})
        return [(max(weight, OPENS), reason)]
    if not new:
        return []
    card = new[0]
    kind = "card_vp" if card_vp(card) else "card"
    return [(max(x.mine("cards"), OPENS), Reason(kind, {"card": card}))]


def _gain(x: Explainer) -> list[Candidate]:
    """Resources gained, and what they are a step toward: a colony or a ship, this turn (the
    plan pays for it) or next turn with what the plan leaves the seat: a colony ready on
    the Colony Hub is launched for certain; the Terraforming Station needs a 6 and the
    Colony Constructor three alike, the Shipyard a pair (said so)."""
    pb, pa = x.b.players[x.me], x.a.players[x.me]
    gained = {"fuel": pa.fuel - pb.fuel, "ore": pa.ore - pb.ore}
    up = [r for r in ("ore", "fuel") if gained[r] > 0]
    if not up:
        return []
    weight = max(x.mine("resources"), OPENS)
    if isinstance(x.action, StealResource):
        stolen = x.action.resource
        weight = max(weight + x.theirs(x.action.victim, "resources"), OPENS)
        params = {"resource": stolen, "amount": gained[stolen], "victim": x.action.victim}
        return [(weight, Reason("steal", params))]
    r = up[0]
    opened = _colony_routes(x.a, x.me) - _colony_routes(x.b, x.me)
    ship = _ship_affordable(x.a, x.me) and not _ship_affordable(x.b, x.me)
    kind = "gain"
    if opened and x.later({"terraform", "constructor"}, launch=True):
        kind = "gain_colony_now"
    elif ship and x.later({"yard"}):
        kind = "gain_ship_now"
    elif opened and x.end is not None and not x.end.over:
        kept = opened & _colony_routes(x.end, x.me, next_turn=True)
        for route, said in (("launch", "gain_colony"), ("terraform", "gain_colony_six")):
            if route in kept:
                kind = said
                break
        else:
            if "constructor" in kept:
                kind = "gain_colony_three"
    end = x.end
    if kind == "gain" and ship and end is not None and not end.over and _ship_affordable(end, x.me):
        kind = "gain_ship"
    return [(weight, Reason(kind, {"resource": r, "amount": gained[r]}))]


def _colony_routes(s: GameState, p: int, next_turn: bool = False) -> set[str]:
    """The ways p can pay for a colony with what p holds: launch, terraform, construct;
    ``next_turn``: at p's next turn, ``s`` being the end of this one (the ships p will roll
    then: a used-up ship is gone)."""
    pl = s.players[p]
    routes: set[str] = set()
    if pl.colonies == 0 and pl.hub == 0:
        return routes
    both = pl.fuel >= 1 and pl.ore >= 1
    ships = colour_ships(s, p) if next_turn else colour_ships_in_play(s, p)
    if pl.hub == HUB_TRACK_LENGTH and both:
        routes.add("launch")
    if both and ships > MIN_COLOUR_SHIPS:
        routes.add("terraform")
    if pl.ore >= constructor_cost(s, p):
        routes.add("constructor")
    return routes


def _ship_affordable(s: GameState, p: int) -> bool:
    pl = s.players[p]
    if pl.stock == 0:
        return False
    cost = ship_cost(s, p)
    return pl.fuel >= cost and pl.ore >= cost


def _block_raid(x: Explainer) -> list[Candidate]:
    """An opponent's raid on the seat's resources made impossible: at that opponent's
    turn start (its own ships, and those of the seats playing before it, gathered), the
    ships left at the Raiders' Outpost sum more than any run (R-RAID-1)."""
    if x.end is None or x.end.over:
        return []
    best: Candidate | None = None
    for q in range(x.b.num_players):
        if q == x.me or not _raid_closed(x.end, q, x.me) or _raid_closed(x.b, q, x.me):
            continue
        drop = x.ev.w.raid * (x.wb.raid_loss[x.me][q] - x.wa.raid_loss[x.me][q])
        if drop > _EPS and (best is None or drop > best[0]):
            best = (drop, Reason("block_raid", {"player": q}))
    return [] if best is None else [best]


def gathered_before(s: GameState, me: int, q: int) -> set[int]:
    """The seats whose ships leave the facilities before q's next roll, ``me`` to play now:
    q and every seat playing between ``me`` and q."""
    n = s.num_players
    seats = {q}
    seat = (me + 1) % n
    while seat != q:
        seats.add(seat)
        seat = (seat + 1) % n
    return seats


def _raid_closed(s: GameState, q: int, me: int) -> bool:
    """Whether no run q can roll takes the Raiders' Outpost at q's next turn start."""
    leaving = gathered_before(s, me, q)
    staying = [x for x in s.docks["raiders"] if x is not None and x.owner not in leaving]
    return bool(staying) and sum(x.value for x in staying) >= MAX_RUN_SUM


def _raid(x: Explainer) -> list[Candidate]:
    """A raid opened: worth what it may take (up to 4 resources, or a card)."""
    d = x.a.pending[0] if x.a.pending else None
    if type(d) is not RaidDecision or d.player != x.me or d.stolen or x.b.pending:
        return []
    stealable = 0
    card = 0.0
    for q, pl in enumerate(x.a.players):
        if q == x.me:
            continue
        if "decoy" not in pl.cards:
            stealable += pl.fuel + pl.ore
        card = max([card, *(x.ev.w.card[c] + card_vp(c) for c in pl.cards)])
    worth = max(0.2 * min(RAID_STEAL_LIMIT, stealable), card)
    return [(max(worth, OPENS / 4), Reason("raid", {}))]


def _block_facility(x: Explainer) -> list[Candidate]:
    """The last free docks of a facility the next opponent could use, held by the seat
    until its next turn: at that opponent's turn start (when its own ships, and those of
    the seats playing before it, have left) the facility has no room for it."""
    if not isinstance(x.action, (Dock, Relocation)) or x.end is None or x.end.over:
        return []
    f = x.action.facility if isinstance(x.action, Dock) else x.action.target
    if f not in HOLDS:
        return []
    n = x.b.num_players
    for k in range(1, n):
        q = (x.me + k) % n
        if not _could_use(x.a, q, f):
            continue
        if _room_at_turn_start(x.b, f, x.me, q) and not _room_at_turn_start(x.end, f, x.me, q):
            return [(HOLDS[f], Reason("block_facility", {"facility": f, "player": q}))]
        return []
    return []


def _room_at_turn_start(s: GameState, f: FacilityId, me: int, q: int) -> bool:
    """Whether ``f`` has room for q at q's next turn start, the ships of the seats that
    play before it (q included) gone."""
    leaving = gathered_before(s, me, q)
    slots = s.docks[f]
    size = FACILITY_RULES[f].info.group_size
    for start in range(0, len(slots), size):
        group = slots[start : start + size]
        if all(ship is None or ship.owner in leaving for ship in group):
            return True
    return False


def _has_room(s: GameState, f: FacilityId) -> bool:
    return FACILITY_RULES[f].free_group(s) is not None


def _could_use(s: GameState, q: int, f: FacilityId) -> bool:
    """Whether q could pay for the facility at its next turn (as it holds now)."""
    pl = s.players[q]
    colony = pl.colonies > 0 or pl.hub > 0
    if f == "terraform":
        ships = colour_ships_in_play(s, q) > MIN_COLOUR_SHIPS
        return colony and ships and pl.fuel >= 1 and pl.ore >= 1
    if f == "constructor":
        return colony and pl.ore >= constructor_cost(s, q)
    if f == "yard":
        return _ship_affordable(s, q)
    return True


def _blast(x: Explainer) -> list[Candidate]:
    """Opponents' ships blasted off a facility (Plasma Cannon), or sent to their stock."""
    if isinstance(x.action, DiscardPlasma):
        q = x.action.ship.owner
        weight = max(x.theirs(q, "ships"), OPENS)
        return [(weight, Reason("destroy", {"player": q}))]
    if isinstance(x.action, Plasma):
        facility, ship = x.action.facility, x.action.ship
    elif isinstance(x.action, Hit) and x.b.pending and isinstance(x.b.pending[0], PlasmaDecision):
        facility, ship = x.b.pending[0].facility, x.action.ship
    else:
        return []
    if any(f == facility for f, _ in x.next_docks()):
        return [(OPENS, Reason("clear", {"facility": facility}))]
    return [(OPENS, Reason("blast", {"facility": facility, "player": ship.owner}))]


def _tune(x: Explainer) -> list[Candidate]:
    """A ship's value changed for a dock later in the plan."""
    if not isinstance(x.action, (OneShipAction, Gravity, Warp)):
        return []
    old = [Die(s.value, s.relic) for s in x.b.undocked]
    new: list[Die] = []
    for ship in x.a.undocked:
        die = Die(ship.value, ship.relic)
        if die in old:
            old.remove(die)
        else:
            new.append(die)
    for facility, dice in x.next_docks():
        for die in new:
            if die in dice:
                return [(OPENS, Reason("tune", {"value": die.value, "facility": facility}))]
    return []


def _borrow(x: Explainer) -> list[Candidate]:
    if not isinstance(x.action, Crystal):
        return []
    return [(OPENS, Reason("borrow", {"territory": x.action.territory}))]


def _move(x: Explainer) -> list[Candidate]:
    if not isinstance(x.action, (Teleport, Helm)):
        return []
    return [(OPENS / 2, Reason("move", {"facility": x.action.target}))]


def _fields(x: Explainer) -> list[Candidate]:
    """A field generator placed, moved or removed."""
    field: FieldId
    if isinstance(x.action, DiscardField):
        field = FIELD_OF_CARD[x.action.card]
    elif isinstance(x.action, DiscardBooster):
        field = x.action.field
    else:
        return []
    old, new = x.b.fields[field], x.a.fields[field]
    me = x.me
    weight = max(x.net("control", "bonus"), OPENS)

    def owner(t: TerritoryId | None) -> int | None:
        return None if t is None else x.a.controller[t]

    reason: Reason
    rival = owner(new)
    if field == "isolation" and new is not None and rival is not None and rival != me:
        reason = Reason("isolate", {"territory": new, "player": rival})
    elif field == "isolation" and old is not None and owner(old) == me:
        reason = Reason("field_free", {"territory": old})
    elif field == "positron" and new is not None and owner(new) == me and owner(old) != me:
        reason = Reason("positron", {"territory": new})  # (moved from the seat's own: no VP)
    elif field == "repulsor" and new is not None and owner(new) == me:
        reason = Reason("repulsor", {"territory": new})
    elif new is not None:
        reason = Reason("field", {"field": field, "territory": new})
    else:
        reason = Reason("field_off", {"field": field})
    return [(weight, reason)]


def _deals(x: Explainer) -> list[Candidate]:
    """What a dock opens for later: trades at the Orbital Market, a card at the Alien
    Artifact; and a cycle of the display."""
    if isinstance(x.action, Cycle):
        return [(OPENS, Reason("cycle", {}))]
    if not isinstance(x.action, Dock):
        return []
    if x.action.facility == "market":
        rate = market_rate(x.a, x.me)
        return [] if rate is None else [(OPENS, Reason("market", {"rate": rate}))]
    if x.action.facility == "artifact":
        total = x.a.turn.artifact_total
        if total >= ARTIFACT_CLAIM_TOTAL:
            return [(OPENS, Reason("artifact_ready", {}))]
        if artifact_reach(x.a) >= ARTIFACT_CLAIM_TOTAL:
            return [(OPENS, Reason("artifact", {"total": total}))]
        if any(isinstance(a, Cycle) for a in x.rest):  # no card within reach: the cycle
            return [(OPENS, Reason("artifact_cycle", {}))]
    return []


def artifact_reach(s: GameState) -> int:
    """The Alien Artifact's total the seat to act can still reach this turn: its total now
    and its highest undocked ships, as many as there are free docks (R-ART-2: "toward a
    card" only while 8 is within reach)."""
    free = sum(1 for x in s.docks["artifact"] if x is None)
    ships = sorted((x.value for x in s.undocked), reverse=True)[:free]
    return s.turn.artifact_total + sum(ships)


def _stops(x: Explainer) -> list[Candidate]:
    """Ending the turn, stopping a raid or the cannon, returning the excess."""
    if isinstance(x.action, EndTurn):
        return [(OPENS, Reason("end", {}))]
    if isinstance(x.action, Done):
        firing = bool(x.b.pending) and type(x.b.pending[0]) is PlasmaDecision
        return [(OPENS, Reason("stop_firing" if firing else "stop", {}))]
    d = x.b.pending[0] if x.b.pending else None
    if type(d) is ReturnExcessDecision:
        pb, pa = x.b.players[x.me], x.a.players[x.me]
        return [(OPENS, _keep(pb.fuel - pa.fuel, pb.ore - pa.ore))]
    return []


DETECTORS: Final[tuple[Detector, ...]] = (
    _win,
    _territories,
    _colony_opened,
    _hub,
    _ship,
    _relic,
    _cards,
    _gain,
    _block_raid,
    _raid,
    _block_facility,
    _blast,
    _tune,
    _borrow,
    _fields,
    _deals,
    _move,
    _stops,
)

"""Words for the game: action labels, panel groups, event lines, refusals, status and scores.

Everything is looked up in the strings catalogue (``bot.text.strings``) so it can be
translated; seats are shown by their names.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import replace
from functools import cache
from typing import Final

import discord.utils

from bot.text import i18n
from bot.text.labels import dice_text, said, wording
from bot.text.limits import LABEL_LIMIT, MESSAGE_LIMIT
from bot.text.strings import text, thing_name
from engine import (
    FACILITY_ORDER,
    TERRITORIES,
    Action,
    Die,
    Event,
    GameState,
    GameView,
    Outcome,
    ScoreParts,
    market_rate,
)
from engine.ai import Pick, Reason, explain_plan

HINT_LINES = 15
PHONE_WIDTH = 40  # characters of a line in Discord's chat on a phone, about
PICK_LINES = 3  # lines a pick of the hint may take there
SHORTEST = 12  # a label or reason is not shortened below this (with its "…")


def chat_name(name: str) -> str:
    """A name with Discord markdown escaped (for message text, not for labels)."""
    return discord.utils.escape_markdown(name)


def seat_name(seat: int, names: Sequence[str]) -> str:
    return names[seat] if 0 <= seat < len(names) else f"P{seat + 1}"


def action_label(
    action: Action, locale: str = "en", names: Sequence[str] = (), rate: int | None = None
) -> str:
    """A short readable label for a legal action (panel options, autocomplete), in the
    words its kind's labeller gives (``bot.text.labels``)."""
    words = wording(action, locale, rate)
    if words is None:
        return str(action)[:LABEL_LIMIT]
    return shorten(said(words.key, words.params, locale, names))


# Reasons that are the AI's judgement of its own plan ("the best option by the AI's
# count", "nothing more pays off this turn"): not said of a plan that is not the AI's.
JUDGEMENTS: Final = frozenset({"best", "end"})


def hint_text(
    state: GameState,
    plan: Sequence[Action],
    names: Sequence[str],
    locale: str = "en",
    ai_plan: bool = True,
    whole: bool = False,
) -> str:
    """The Hint button's private answer: the normal AI's plan for the rest of the turn,
    each pick with why (``engine.ai.reasons``), in three lines or fewer on a phone;
    ``ai_plan`` False: a plan that is not the AI's (a guided game's ⭐ picks), whose picks
    the AI's judgements do not explain; for a screen reader (``whole``) each pick in full:
    a word cut short is heard as another."""
    if not plan:
        return text("hint.none", locale)
    picks = explain_plan(state, plan)
    if not ai_plan:
        picks = [
            replace(p, reason=None) if p.reason and p.reason.kind in JUDGEMENTS else p
            for p in picks
        ]
    lines = [text("hint.header", locale)]
    lines += [
        pick_line(n, pick, names, locale, whole) for n, pick in enumerate(picks[:HINT_LINES], 1)
    ]
    if len(picks) > HINT_LINES:
        lines.append(text("turn.earlier", locale, {"count": len(picks) - HINT_LINES}))
    return "\n".join(lines)[:MESSAGE_LIMIT]


def guided_hint_text(
    state: GameState,
    plan: Sequence[Action],
    first: Pick | None,
    lesson: bool,
    names: Sequence[str],
    locale: str = "en",
    whole: bool = False,
) -> str:
    """The Hint in a guided game: the ⭐ picks of ``plan`` with why (a plan that is not the
    AI's); and, when the normal AI would start otherwise (with ``first``), its pick and
    why, and what the ⭐ pick is for: the ``lesson``'s own, or the plan the lessons follow."""
    lines = [text("learn.hint.header", locale)]
    lines += hint_text(state, plan, names, locale, ai_plan=False, whole=whole).split("\n")[1:]
    if first is not None:
        label = action_label(first.action, locale, names)
        which = "lesson" if lesson else "step"
        if first.reason is not None:
            reason = reason_text(first.reason, names, locale)
            params = {"action": label, "reason": reason}
            lines.append(text(f"learn.hint.differs.{which}", locale, params))
        else:
            lines.append(text(f"learn.hint.differs.{which}.plain", locale, {"action": label}))
    return "\n".join(lines)[:MESSAGE_LIMIT]


def pick_line(
    number: int, pick: Pick, names: Sequence[str], locale: str = "en", whole: bool = False
) -> str:
    """One pick of the hint: "2. Dock 5 at the Lunar Mine → +1 ore: a colony next turn",
    its label shortened (then its reason) until it wraps to ``PICK_LINES`` lines of
    ``PHONE_WIDTH`` characters; in full when ``whole``."""
    before = pick.before
    rate = None
    if before is not None and before.turn.market_rates:
        rate = market_rate(before, before.current)
    label = action_label(pick.action, locale, names, rate)
    times = f" ×{pick.times}" if pick.times != 1 else ""
    why = None if pick.reason is None else reason_text(pick.reason, names, locale)

    def line(action: str, reason: str | None) -> str:
        if reason is None:
            return text("hint.line", locale, {"number": number, "action": action + times})
        params = {"number": number, "action": action + times, "reason": reason}
        return text("hint.why.line", locale, params)

    shown = line(label, why)
    if whole:
        return shown
    limit = len(label)
    while phone_lines(shown) > PICK_LINES and limit > SHORTEST:
        limit -= 4
        shown = line(shorten(label, limit), why)
    limit = len(why or "")
    while why is not None and phone_lines(shown) > PICK_LINES and limit > SHORTEST:
        limit -= 4
        shown = line(shorten(label, SHORTEST), shorten(why, limit))
    return shown


def reason_text(reason: Reason, names: Sequence[str], locale: str = "en") -> str:
    """A pick's reason in words, with the luck it needs when it needs some: "Plasma Cannon
    is yours if it turns up", "… if the dice fall so"."""
    if reason.luck is None:
        return text(reason.key, locale, reason.params, names)
    if reason.kind == "card" and reason.params.get("card") == reason.luck:
        return text("hint.why.card_if", locale, reason.params, names)
    said = text(reason.key, locale, reason.params, names)
    if reason.luck in ("dice", "cards"):
        return text(f"hint.if.{reason.luck}", locale, {"reason": said})
    return text("hint.if.card", locale, {"reason": said, "card": reason.luck})


def phone_lines(line: str) -> int:
    """How many lines ``line`` takes wrapped at ``PHONE_WIDTH`` characters."""
    return max(1, len(textwrap.wrap(line, PHONE_WIDTH)))


def shorten(label: str, limit: int = LABEL_LIMIT) -> str:
    label = " ".join(label.split())
    return label if len(label) <= limit else label[: limit - 1] + "…"


def sentence(words: str, names: Sequence[str] = ()) -> str:
    """``words`` starting with a capital (the rest as it is), unless they start with a
    member's name, which keeps its case ("owner to act", "owner: −1 fuel")."""
    if any(name and words.startswith(name) for name in names):
        return words
    return words[:1].upper() + words[1:]


def event_line(event: Event, locale: str = "en", names: Sequence[str] = ()) -> str:
    """One event as a sentence, seats shown by name."""
    params: dict[str, object] = dict(event.params)
    if event.player is not None:
        params["player"] = event.player
    return text(event.key, locale, params, names)


def card_list(cards: Sequence[str], locale: str = "en") -> str:
    return ", ".join(thing_name(c, locale) for c in cards) or text("none", locale)


def player_line(v: GameView, seat: int, names: Sequence[str], locale: str = "en") -> str:
    """One line of a player's public position."""
    p = v.players[seat]
    return text(
        "status.player",
        locale,
        {
            "marker": text(f"colour.{p.colour}", locale),
            "name": seat_name(seat, names),
            "vp": p.vp,
            "fuel": p.fuel,
            "ore": p.ore,
            "left": p.colonies_unplaced + (1 if p.hub_space else 0),
            "placed": p.colonies_placed,
            "hub": p.hub_space,
            "ships": p.ships_in_play,
            "cards": card_list(p.cards, locale),
        },
    )


def pending_text(v: GameView, names: Sequence[str], locale: str = "en") -> str:
    """What the player to act must do now, in words."""
    if v.over:
        return text("status.over", locale)
    if v.pending is not None and v.pending.player is not None:
        return text(
            f"pending.{v.pending.kind}",
            locale,
            {"player": seat_name(v.pending.player, names), **v.pending.detail},
        )
    return text(
        "status.to_act",
        locale,
        {
            "player": seat_name(v.current, names),
            "undocked": dice_text([Die(s.value, s.relic) for s in v.undocked], locale)
            or text("none", locale),
        },
    )


def status_text(state: GameState, v: GameView, names: Sequence[str], locale: str = "en") -> str:
    """The /af status text: every player's position, the display, fields, who acts."""
    lines = [text("status.header", locale, {"round": v.round, "turn": v.turn_number})]
    lines += [player_line(v, p, names, locale) for p in range(len(v.players))]
    lines.append(text("status.display", locale, {"cards": card_list(v.display, locale)}))
    fields = [
        text(
            "status.field",
            locale,
            {"field": thing_name(f, locale), "territory": thing_name(t, locale)},
        )
        for f, t in v.fields.items()
        if t is not None
    ]
    if fields:
        lines.append(text("status.fields", locale, {"fields": ", ".join(fields)}))
    if v.supply is not None:  # the finite-supply option
        fuel, ore = v.supply
        lines.append(text("status.supply", locale, {"fuel": fuel, "ore": ore}))
    lines.append(pending_text(v, names, locale))
    return "\n".join(lines)


def outcome_text(
    result: Outcome,
    names: Sequence[str],
    locale: str = "en",
    parts: Sequence[ScoreParts] | None = None,
) -> str:
    """The final scores (with where each player's VP came from, given ``parts``), the
    winner(s) and the tie-break used."""
    winners = ", ".join(seat_name(w, names) for w in result.winners)
    key = "over.winner" if len(result.winners) == 1 else "over.shared"
    lines = [text(key, locale, {"winners": winners, "vp": max(result.scores)})]
    order = sorted(range(len(result.scores)), key=lambda p: -result.scores[p])
    for p in order:
        mark = "🏆 " if p in result.winners else "• "
        line = text(
            "over.score",
            locale,
            {"mark": mark, "name": seat_name(p, names), "vp": result.scores[p]},
        )
        if parts is not None:
            line += " — " + score_parts_text(parts[p], locale)
        lines.append(line)
    if result.tiebreak is not None:
        lines.append(text(f"over.tiebreak.{result.tiebreak}", locale))
    return "\n".join(lines)


def score_parts_text(parts: ScoreParts, locale: str = "en") -> str:
    """Where a player's VP came from: "7 colonies · 3 territories · 1 alien tech card"."""
    shown = [
        text(f"over.part.{name}", locale, {"count": count})
        for name, count in (
            ("colonies", parts.colonies),
            ("territories", parts.territories),
            ("positron", parts.positron),
            ("cards", parts.cards),
        )
        if count
    ]
    return " · ".join(shown) or text("over.part.none", locale)


@cache
def _move_names() -> dict[str, str]:
    """Names of facilities and territories in every language (folded) → their notation id;
    a name two things share in some language is left out (ambiguous)."""
    seen: dict[str, set[str]] = {}
    for thing in (*FACILITY_ORDER, "bay", *TERRITORIES):
        for language in i18n.languages():
            seen.setdefault(_fold(thing_name(thing, language)), set()).add(thing)
    return {name: next(iter(ids)) for name, ids in seen.items() if len(ids) == 1}


def _fold(words: str) -> str:
    return " ".join(words.casefold().replace("ё", "е").replace("’", "'").split())


def notation_of(move: str) -> str:
    """A typed move with the localised names of facilities and territories replaced by their
    ids (``dock Лунная шахта 4`` → ``dock mine 4``); the notation itself stays English."""
    words = _fold(move).split()
    names = _move_names()
    longest = max((len(n.split()) for n in names), default=0)
    out: list[str] = []
    i = 0
    while i < len(words):
        for size in range(min(longest, len(words) - i), 0, -1):
            thing = names.get(" ".join(words[i : i + size]))
            if thing is not None and (size > 1 or words[i] != thing):
                out.append(thing)
                i += size
                break
        else:
            out.append(words[i])
            i += 1
    return " ".join(out) if out != words else move

"""The words of the panel's labels: members' names shortened to fit (``Names``) and the
labels' texts in one language (``Words``). The panel's tree of choices, which they label,
is ``bot.play.choice_tree``."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial

from bot.text.labels import dice_text, die_text, said, ship_text
from bot.text.limits import LABEL_LIMIT
from bot.text.strings import text, thing_name
from engine import PLAYER_COLOURS, Die, Ship

NAME_LENGTHS = (32, 20, 12, 7)  # member names are cut to these lengths, in turn, to fit


def _cut(name: str, length: int) -> str:
    name = " ".join(name.split())
    return name if len(name) <= length else name[: length - 1].rstrip() + "…"


class Names:
    """Members' names for labels, shortened when a label would be too long; two names that
    read the same get their colour marker so that no two options look alike."""

    def __init__(self, names: Sequence[str], players: int, locale: str) -> None:
        self.full = [
            names[i] if i < len(names) and names[i] else f"P{i + 1}" for i in range(players)
        ]
        self.locale = locale
        self._by_length = {n: self._distinct(n) for n in NAME_LENGTHS}

    def _distinct(self, length: int) -> list[str]:
        cut = [_cut(n, length) for n in self.full]
        folded = [c.casefold() for c in cut]
        return [
            f"{c} {text(f'colour.{PLAYER_COLOURS[i]}', self.locale)}"
            if folded.count(folded[i]) > 1
            else c
            for i, c in enumerate(cut)
        ]

    def at(self, length: int) -> list[str]:
        return self._by_length[length]

    def label(self, make: Callable[[list[str]], str]) -> str:
        """``make(names)`` with the longest names that keep it within ``LABEL_LIMIT``."""
        for length in NAME_LENGTHS:
            out = " ".join(make(self.at(length)).split())
            if len(out) <= LABEL_LIMIT:
                return out
        return out[: LABEL_LIMIT - 1] + "…"  # never reached by the catalogue's texts


# ---- words --------------------------------------------------------------------------------


def amount_text(words: Words, resource: str, count: int) -> str:
    return text(f"choice.{resource}", words.locale, {"count": count})


def said_in(key: str, locale: str, params: Mapping[str, object], seats: list[str]) -> str:
    return said(key, params, locale, seats)


class Words:
    """Labels of choices in one language, with member names shortened to fit."""

    def __init__(self, locale: str, names: Names, rate: int | None, seat: int = 0) -> None:
        self.locale = locale
        self.names = names
        self.rate = rate
        self.seat = seat  # the player choosing

    def t(self, key: str, params: dict[str, object] | None = None) -> str:
        params = dict(params or {})
        return self.names.label(lambda seats: text(key, self.locale, params, seats))

    def n(self, thing: str) -> str:
        return thing_name(thing, self.locale)

    def said(self, key: str, params: dict[str, object]) -> Callable[[list[str]], str]:
        """The text of ``key`` as a function of the names members are shown by."""
        return partial(said_in, key, self.locale, params)

    def die(self, die: Die) -> str:
        return die_text(die, self.locale)

    def dice(self, dice: Iterable[Die], sep: str = " + ") -> str:
        return dice_text(dice, self.locale, sep)

    def ship(self, ship: Ship, seats: Sequence[str]) -> str:
        return ship_text(ship, seats, self.locale)

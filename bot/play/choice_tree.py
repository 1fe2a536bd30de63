"""The tree of the panel's choices: a pick (``Leaf``), a step to open (``Branch``), a menu's
option (``Entry``), the roots of the three menus (``Choices``), the paths to a branch, and
Discord's limits they keep to (a label's: ``bot.text.limits``; the names in labels are cut
to fit by ``bot.text.choice_words``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.text.gains import description
from engine import GameState, GameView, parse, view

MAX_OPTIONS = 25  # options in one Discord select menu
VALUE_LIMIT = 100  # characters of an option's value
MAX_MOVES = 8  # engine actions one pick may apply
ROOTS = ("d", "c", "p", "o")  # docking, cards and powers, the choice now, what overflows
MOVE_SEPARATOR = ";"


@dataclass(frozen=True, slots=True)
class Leaf:
    """One pick: the engine actions it applies, in order (notation)."""

    label: str  # read on its own, in any menu
    short: str  # read under its branch's prompt
    moves: tuple[str, ...]
    rank: int = 0  # shown before leaves of a higher rank when a menu cannot show them all
    # The kind of the pick (``engine.rule.Rule.kind`` of its first action): the section of
    # the panel it is offered in ("dock", "trade", "use_helm", "steal_card"...).
    group: str = ""

    @property
    def value(self) -> str:
        return MOVE_SEPARATOR.join(self.moves)


@dataclass(frozen=True, slots=True)
class Branch:
    """A choice asked in a step of its own: its entry opens it in the choice menu."""

    title: str  # read on its own ("Solar Converter")
    short: str  # read under its parent's prompt
    prompt: str  # the placeholder of the menu once opened
    children: tuple[Node, ...]
    rest: bool = False  # the rest of a branch of more than 25 ("Solar Converter: more")

    def leaves(self) -> int:
        return sum(1 if isinstance(c, Leaf) else c.leaves() for c in self.children)


Node = Leaf | Branch


@dataclass(frozen=True, slots=True)
class Entry:
    """One option of a menu: a pick (value: moves) or a step to open (value: ``@path``)."""

    label: str
    value: str
    description: str | None = None


@dataclass(frozen=True, slots=True)
class Choices:
    """The roots of the panel's menus, and whether the turn may end now.

    The docking and the cards menus show as many picks as fit; what does not fit goes to
    ``more``, shown in the choice menu while no decision waits there."""

    dock: Branch
    powers: Branch
    pending: Branch | None  # the engine's decision waiting for an answer
    can_end: bool
    more: Branch | None = None
    # What the picks yield (``yields``): worked out from this state, in these words.
    state: GameState | None = None
    names: tuple[str, ...] = ()
    locale: str = "en"
    _yields: dict[str, str | None] = field(default_factory=dict, compare=False, repr=False)
    _before: list[GameView] = field(default_factory=list, compare=False, repr=False)

    def yields(self, value: str) -> str | None:
        """What the pick of ``value`` (its moves) yields, in words within Discord's 100
        characters ("+2 fuel, now 3"; None for a step, or a pick that changes nothing
        countable): the option's description, for everyone."""
        if self.state is None or value.startswith("@"):
            return None
        if value not in self._yields:
            try:
                moves = [parse(m) for m in split_moves(value)]
            except ValueError:
                moves = []
            if not self._before:
                self._before.append(view(self.state))
            before = self._before[0]
            said = (
                description(self.state, moves, self.names, self.locale, before) if moves else None
            )
            self._yields[value] = said
        return self._yields[value]

    def root(self, key: str) -> Branch | None:
        return {"d": self.dock, "c": self.powers, "p": self.pending, "o": self.more}.get(key)

    def node(self, path: str) -> Branch | None:
        """The branch at ``path`` ("d", "c.3", "p.1.0"...), or None if there is none."""
        parts = path.split(".")
        node: Node | None = self.root(parts[0])
        for part in parts[1:]:
            if not isinstance(node, Branch) or not part.isdigit():
                return None
            index = int(part)
            if index >= len(node.children):
                return None
            node = node.children[index]
        return node if isinstance(node, Branch) else None


def valid_path(path: str) -> bool:
    root, *indices = path.split(".")
    return root in ROOTS and len(indices) <= 3 and all(i.isdigit() and len(i) <= 3 for i in indices)


def parent_path(path: str) -> str | None:
    """The path one step up, or None at a menu's root."""
    head, _, _ = path.rpartition(".")
    return head or None


def split_moves(value: str) -> list[str]:
    """The moves of a picked value (one, or a macro's several)."""
    return [m.strip() for m in value.split(MOVE_SEPARATOR) if m.strip()]

"""The panel's components: buttons and select menus that survive restarts.

Every component is a ``discord.ui.DynamicItem`` whose custom id carries the game id
and the state version (``af:<kind>:<game>:<version>:...``), so a panel needs no
memory: after a restart it is rebuilt from the message, and one of an older
version is recognised as stale. A menu's value is what its option plays (one move, or
a macro's moves separated by ``;``) or ``@<path>``, a second step to open (see
``bot.play.choices``). Clicks are passed to the ``PanelHandler`` the item classes are wired
to when they are registered (``wired``, at setup), after its ``check_panel`` let them
through: nothing is looked up on the bot object when a click comes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Protocol, Self, TypeVar, cast

import discord
from discord import app_commands

from bot.discord.deferral import watch
from bot.discord.owners import InteractionOwners, first_to_claim
from bot.discord.refusals import refuse
from bot.discord.shutdown import Gate, ShuttingDown
from bot.play.choice_tree import Entry
from bot.text.describe import shorten

MAX_OPTIONS = 25
CLOSED = "-"  # the "no second step open" path in navigation ids
IDLE = "-"  # the one option of a greyed-out menu
# Game ids and versions in custom ids: at most 18 digits, so every id that matches fits
# SQLite's 64-bit integers; a longer one is no panel of ours (see bot.discord.unclaimed).
IDS = r"(?P<game>\d{1,18}):(?P<version>\d{1,18})"
PAGE = r"(?P<page>\d{1,4})"
PATH = r"(?P<path>@?[a-z0-9_.\-]{1,40})"  # "@": the path opened in the choice row


class PanelHandler(Protocol):
    """What the panel components call (implemented by the Play cog, bot.discord.cogs.play)."""

    async def check_panel(
        self, interaction: discord.Interaction[Any], game_id: int, version: int
    ) -> bool: ...

    async def panel_move(
        self, interaction: discord.Interaction[Any], game_id: int, version: int, move: str
    ) -> None: ...

    async def panel_open(
        self,
        interaction: discord.Interaction[Any],
        game_id: int,
        version: int,
        path: str | None,
        page: int,
    ) -> None: ...

    async def panel_undo(
        self, interaction: discord.Interaction[Any], game_id: int, version: int
    ) -> None: ...

    async def panel_hint(
        self, interaction: discord.Interaction[Any], game_id: int, version: int
    ) -> None: ...


class RematchHandler(Protocol):
    """What the Rematch button calls (implemented by the Lobby cog)."""

    async def rematch(self, interaction: discord.Interaction[Any], game_id: int) -> None: ...


Item = TypeVar("Item", bound=type[discord.ui.DynamicItem[Any]])


def wired(item: Item, **collaborators: object) -> Item:
    """The item class with its collaborators (``handler``, ``gate``, ``owners``) set, to register at
    setup: discord.py builds the item of a click from the registered class
    (``from_custom_id`` calls ``cls(...)``), so its callback finds them on ``self``.
    The custom ids are the item's own, so panels sent before a restart keep working."""
    template = item.__discord_ui_compiled_template__
    return cast(Item, type(item.__name__, (item,), dict(collaborators), template=template))


class PanelItem(Protocol):
    component_type: ClassVar[discord.ComponentType]
    handler: ClassVar[PanelHandler]
    gate: ClassVar[Gate]
    owners: ClassVar[InteractionOwners | None]
    game_id: int
    version: int


async def panel_check(item: PanelItem, interaction: discord.Interaction[Any]) -> bool:
    """Let a click through to the panel handler's check unless the bot is stopping (the
    click is counted as in flight then) or the click comes from outside a server.

    discord.py matches templates by custom id only: a click on another kind of component
    with a matching id is declined here in silence and answered by ``bot.discord.unclaimed``.
    """
    if not await component_check(item.component_type, interaction, item.gate, item.owners):
        return False
    return await item.handler.check_panel(interaction, item.game_id, item.version)


async def component_check(
    kind: discord.ComponentType,
    interaction: discord.Interaction[Any],
    gate: Gate,
    owners: InteractionOwners | None,
) -> bool:
    """The checks every component of the bot makes first: the right kind of component
    (else declined in silence, answered by ``bot.discord.unclaimed``), the click not taken by
    another process over the database (else nothing at all), the bot still taking work
    (the click is then counted as in flight), and a server, not a DM."""
    data: Mapping[str, Any] = interaction.data or {}
    if data.get("component_type") != kind.value:
        return False
    if not await first_to_claim(interaction, owners, gate):
        return False  # another process over the database took it (bot.discord.owners)
    if not gate.admit():
        await refuse(interaction, ShuttingDown())
        return False
    watch(interaction)  # not answered in time (the database busy): deferred
    if interaction.guild_id is None:
        await refuse(interaction, app_commands.NoPrivateMessage())
        return False
    return True


Base = TypeVar("Base", bound=discord.ui.Item[Any], covariant=True)


class _PanelItem(discord.ui.DynamicItem[Base], template=r"af:[asnuh]:" + IDS + r"(:.+)?"):
    """What the panel's items share: the game and version in their ids, the kind of
    component they are, the handler and gate they are wired to, and ``panel_check`` before
    any click reaches the handler."""

    component_type: ClassVar[discord.ComponentType]
    handler: ClassVar[PanelHandler]  # set by ``wired``
    gate: ClassVar[Gate]
    owners: ClassVar[InteractionOwners | None] = None  # set by ``wired`` (None: no claims)
    game_id: int
    version: int

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        return await panel_check(self, interaction)


class ActionButton(
    _PanelItem[discord.ui.Button[Any]],
    template=r"af:a:" + IDS + r":(?P<move>.+)",
):
    """A button that plays one argument-free action (End turn)."""

    component_type = discord.ComponentType.button

    def __init__(
        self,
        game_id: int,
        version: int,
        move: str,
        label: str,
        row: int,
        disabled: bool = False,
    ) -> None:
        style = (
            discord.ButtonStyle.primary
            if move in ("end", "done")
            else discord.ButtonStyle.secondary
        )
        super().__init__(
            discord.ui.Button(
                label=shorten(label, 80),
                style=style,
                custom_id=f"af:a:{game_id}:{version}:{move}",
                row=row,
                disabled=disabled,
            )
        )
        self.game_id, self.version, self.move = game_id, version, move

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: Any,
    ) -> Self:
        label = getattr(item, "label", None) or ""
        return cls(int(match["game"]), int(match["version"]), match["move"], label, 0)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await self.handler.panel_move(interaction, self.game_id, self.version, self.move)


class ActionSelect(
    _PanelItem[discord.ui.Select[Any]],
    template=r"af:s:" + IDS + r":" + PATH + r":" + PAGE,
):
    """A menu of the panel: its options play moves, or open a second step (``@path``)."""

    component_type = discord.ComponentType.string_select

    def __init__(
        self,
        game_id: int,
        version: int,
        path: str,
        page: int,
        placeholder: str,
        entries: Sequence[Entry],
        row: int,
        disabled: bool = False,
    ) -> None:
        options: list[discord.SelectOption] = []
        values: set[str] = set()
        for e in entries[:MAX_OPTIONS]:
            if e.value in values:
                continue
            values.add(e.value)
            description = shorten(e.description) if e.description else None
            options.append(
                discord.SelectOption(label=shorten(e.label), value=e.value, description=description)
            )
        super().__init__(
            discord.ui.Select(
                custom_id=f"af:s:{game_id}:{version}:{path}:{page}",
                placeholder=shorten(placeholder, 150),
                # A greyed-out menu's one option repeats its placeholder's words (a screen
                # reader reads an option; "-" would say nothing).
                options=options
                or [discord.SelectOption(label=shorten(placeholder) or IDLE, value=IDLE)],
                row=row,
                disabled=disabled or not options,
            )
        )
        self.game_id, self.version = game_id, version

    @classmethod
    def idle(cls, game_id: int, version: int, path: str, placeholder: str, row: int) -> Self:
        """A greyed-out menu that keeps its row's place when it has nothing to offer."""
        return cls(game_id, version, path, 0, placeholder, (), row, disabled=True)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: Any,
    ) -> Self:
        entries = [Entry(o.label, o.value) for o in getattr(item, "options", [])]
        return cls(
            int(match["game"]),
            int(match["version"]),
            match["path"],
            int(match["page"]),
            getattr(item, "placeholder", None) or "",
            entries,
            0,
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        chosen = self.item.values[0] if self.item.values else ""
        if chosen.startswith("@"):
            await self.handler.panel_open(interaction, self.game_id, self.version, chosen[1:], 0)
        else:
            await self.handler.panel_move(interaction, self.game_id, self.version, chosen)


class PageButton(
    _PanelItem[discord.ui.Button[Any]],
    template=r"af:n:" + IDS + r":" + PATH + r":" + PAGE,
):
    """Page through a step's options, go back a step, or close it (path ``-``)."""

    component_type = discord.ComponentType.button

    def __init__(
        self, game_id: int, version: int, path: str, page: int, label: str, row: int
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"af:n:{game_id}:{version}:{path}:{page}",
                row=row,
            )
        )
        self.game_id, self.version, self.path, self.page = game_id, version, path, page

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: Any,
    ) -> Self:
        return cls(
            int(match["game"]),
            int(match["version"]),
            match["path"],
            int(match["page"]),
            getattr(item, "label", None) or "",
            0,
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        path = None if self.path == CLOSED else self.path
        await self.handler.panel_open(interaction, self.game_id, self.version, path, self.page)


class _TurnButton(
    _PanelItem[discord.ui.Button[Any]],
    template=r"af:[uh]:" + IDS,
):
    """A button of the panel that acts on the turn as a whole (its id: ``af:<kind>:<game>:
    <version>``); subclasses set the kind, the look and what a click does."""

    component_type = discord.ComponentType.button
    kind: ClassVar[str]
    style: ClassVar[discord.ButtonStyle]

    def __init__(
        self, game_id: int, version: int, label: str, row: int, disabled: bool = False
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=self.style,
                custom_id=f"af:{self.kind}:{game_id}:{version}",
                row=row,
                disabled=disabled,
            )
        )
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: Any,
    ) -> Self:
        label = getattr(item, "label", None) or ""
        return cls(int(match["game"]), int(match["version"]), label, 0)


class UndoButton(_TurnButton, template=r"af:u:" + IDS):
    """Take back the last pick of this turn (greyed out when the engine does not allow it)."""

    kind, style = "u", discord.ButtonStyle.danger

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await self.handler.panel_undo(interaction, self.game_id, self.version)


class HintButton(_TurnButton, template=r"af:h:" + IDS):
    """A private look at what the normal AI would do with the rest of the turn."""

    kind, style = "h", discord.ButtonStyle.secondary  # "Hint": no symbol read aloud

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await self.handler.panel_hint(interaction, self.game_id, self.version)


class RematchButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"af:rematch:(?P<game>\d{1,18})",
):
    """On a game-over message: open a lobby in the same channel with the same seats and
    options (handled by the lobby cog, which registers it wired to itself)."""

    component_type: ClassVar[discord.ComponentType] = discord.ComponentType.button
    handler: ClassVar[RematchHandler]  # set by ``wired``
    gate: ClassVar[Gate]
    owners: ClassVar[InteractionOwners | None] = None  # set by ``wired`` (None: no claims)

    def __init__(self, game_id: int, label: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.primary,
                custom_id=f"af:rematch:{game_id}",
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: Any,
    ) -> Self:
        return cls(int(match["game"]), getattr(item, "label", None) or "")

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        return await component_check(self.component_type, interaction, self.gate, self.owners)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await self.handler.rematch(interaction, self.game_id)


# The panel's items (the Play cog registers them wired to itself).
PANEL_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    ActionButton,
    ActionSelect,
    PageButton,
    UndoButton,
    HintButton,
)


class PanelView(discord.ui.View):
    """The container the bot's persistent items are sent in (the panel, the Rematch and
    Leave buttons): no timeout, dynamic items only.

    Clicks go to the item classes registered, wired, at setup, so discord.py need not
    keep the view once sent: it is handed over *finished* (discord.py keeps no finished
    view; a kept one would register its items' classes again, unwired). Dynamic items
    report their own errors (their handlers catch them); ``on_error`` covers anything
    else added to the view.
    """

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_finished(self) -> bool:
        return True

    async def on_error(
        self, interaction: discord.Interaction[Any], error: Exception, item: discord.ui.Item[Any]
    ) -> None:
        await refuse(interaction, error, where=f"panel item {item!r}")

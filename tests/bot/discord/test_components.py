"""The panel's items are wired to their controller when they are registered (the Play
cog registers them wired to itself): a click calls the controller given at setup, never
one found through the bot object, and the custom ids stay those of the unwired items
(panels sent before a restart still work)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord

from bot.discord.components import PANEL_ITEMS, ActionButton, PanelView, UndoButton, wired
from bot.discord.shutdown import Gate
from tests.bot.table import make_bot
from tests.discord_fake import StartBot


class Recorder:
    """A panel controller that records what it is asked."""

    def __init__(self) -> None:
        self.calls: list[tuple[object, ...]] = []

    async def check_panel(self, interaction: Any, game_id: int, version: int) -> bool:
        self.calls.append(("check", game_id, version))
        return True

    async def panel_move(self, interaction: Any, game_id: int, version: int, move: str) -> None:
        self.calls.append(("move", game_id, version, move))

    async def panel_open(
        self, interaction: Any, game_id: int, version: int, path: str | None, page: int
    ) -> None:
        self.calls.append(("open", game_id, version, path, page))

    async def panel_undo(self, interaction: Any, game_id: int, version: int) -> None:
        self.calls.append(("undo", game_id, version))

    async def panel_hint(self, interaction: Any, game_id: int, version: int) -> None:
        self.calls.append(("hint", game_id, version))


class Click:
    """The parts of an interaction the items read before they call their controller."""

    def __init__(self, component_type: discord.ComponentType) -> None:
        self.data = {"component_type": component_type.value}
        self.guild_id = 1
        self.client = None  # nothing may be looked up on the bot


async def test_clicks_go_to_the_controller_the_items_are_wired_to() -> None:
    first, second = Recorder(), Recorder()
    gate = Gate()
    wired_first = {item: wired(item, handler=first, gate=gate) for item in PANEL_ITEMS}
    wired_second = {item: wired(item, handler=second, gate=gate) for item in PANEL_ITEMS}
    for item, bound in wired_first.items():
        assert issubclass(bound, item)
        assert bound.__discord_ui_compiled_template__ == item.__discord_ui_compiled_template__

    sent = ActionButton(7, 3, "end", "End turn", 3)  # as built for a message
    custom_id = sent.item.custom_id
    assert custom_id is not None
    button = wired_first[ActionButton]
    match = button.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None
    click: Any = Click(discord.ComponentType.button)
    clicked = await button.from_custom_id(click, sent.item, match)
    assert await clicked.interaction_check(click)
    await clicked.callback(click)
    assert first.calls == [("check", 7, 3), ("move", 7, 3, "end")] and second.calls == []

    undo = wired_second[UndoButton]
    sent_undo = UndoButton(7, 4, "Undo", 3)
    match = undo.__discord_ui_compiled_template__.fullmatch(str(sent_undo.item.custom_id))
    assert match is not None
    clicked_undo = await undo.from_custom_id(click, sent_undo.item, match)
    await clicked_undo.callback(click)
    assert second.calls == [("undo", 7, 4)]


def test_the_bots_views_are_not_kept_by_discord_py() -> None:
    """discord.py keeps an unfinished view it sends and registers its items' classes again
    (unwired); the bot's views are handed over finished."""
    assert PanelView().is_finished()


async def test_the_play_cog_answers_the_panels_clicks(tmp_path: Path, start_bot: StartBot) -> None:
    """The bot registers the panel's items wired to its Play cog (no other controller)."""
    bot = make_bot(tmp_path / "af.db")
    await start_bot(bot)
    play = bot.get_cog("Play")
    assert play is not None
    registered = bot._connection._view_store._dynamic_items
    panel = [item for item in registered.values() if issubclass(item, PANEL_ITEMS)]
    assert len(panel) == len(PANEL_ITEMS)
    assert all(item.handler is play for item in panel)  # type: ignore[attr-defined]

"""An answer for clicks that no component takes: panels from an older version of the bot.

discord.py drops a component interaction that no registered item matches (a custom
id of an older version, or one it cannot have sent), and the member then sees
"This interaction failed". ``Client.on_interaction`` sees every interaction; for
the ones discord.py will pass to nothing, ``answer_unclaimed`` tells the member
privately that the panel is from an older version, with a link to the current one.

``claimed`` asks the same questions as discord.py's view store when it dispatches:
does a registered dynamic item's template match the custom id, and does the
message hold that component; or is a view (or modal) waiting for that custom id.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import discord

from bot.discord.deferral import watch
from bot.discord.replies import locale_of, send_ephemeral
from bot.text.strings import text

if TYPE_CHECKING:
    from bot.discord.announce import Announcer
    from bot.discord.shutdown import Gate
    from bot.play.held_games import HeldGames

log = logging.getLogger(__name__)
UNCLAIMABLE = (discord.InteractionType.component, discord.InteractionType.modal_submit)


def _in_message(message: discord.Message, custom_id: str, component_type: object) -> bool:
    """Whether the message holds a component of that type and custom id."""
    view_cls = discord.ui.LayoutView if message.flags.components_v2 else discord.ui.View
    try:
        view = view_cls.from_message(message, timeout=None)
    except Exception:  # components discord.py cannot rebuild are not dispatched either
        return False
    return any(
        getattr(item, "custom_id", None) == custom_id and item.type.value == component_type
        for item in view.walk_children()
    )


def claimed(interaction: discord.Interaction[Any]) -> bool:
    """Whether discord.py will hand this component click (or modal) to an item of ours."""
    data: Mapping[str, Any] = interaction.data or {}
    custom_id = data.get("custom_id")
    if not isinstance(custom_id, str):
        return False
    # discord.py's own registry of the views and modals it routes to (no public way to it)
    store = interaction.client._connection._view_store  # noqa: SLF001
    if interaction.type is discord.InteractionType.modal_submit:
        return custom_id in getattr(store, "_modals", {})
    component_type = data.get("component_type")
    message = interaction.message
    for pattern, item in getattr(store, "_dynamic_items", {}).items():
        kind = getattr(item, "component_type", None)
        if pattern.fullmatch(custom_id) and (kind is None or kind.value == component_type):
            return message is not None and _in_message(message, custom_id, component_type)
    views = getattr(store, "_views", {})
    key = (component_type, custom_id)
    return key in views.get(message.id if message else None, {}) or key in views.get(None, {})


async def answer_unclaimed(
    interaction: discord.Interaction[Any], gate: Gate, games: HeldGames, announcer: Announcer
) -> None:
    """Tell the member the panel is outdated and where the current one is (privately)."""
    gate.track()
    watch(interaction)
    locale = locale_of(interaction)
    game = None
    if interaction.guild_id is not None and interaction.channel_id is not None:
        game = await games.in_channel(interaction.channel_id)
    link = announcer.panel_link(game) if game is not None else ""
    data: Mapping[str, Any] = interaction.data or {}
    log.info("outdated component %r in channel %s", data.get("custom_id"), interaction.channel_id)
    if link:
        await send_ephemeral(interaction, text("panel.outdated", locale, {"link": link}))
    else:
        await send_ephemeral(interaction, text("panel.outdated_none", locale))


__all__ = ["UNCLAIMABLE", "answer_unclaimed", "claimed"]

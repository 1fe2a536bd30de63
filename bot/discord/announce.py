"""Turn messages: the one message per turn with the board, the mention, the roll and the panel.

At the start of every turn one message is posted: the board image, a mention of
the player to act (the only mention allowed), the events of the turn so far and
the action panel. Each action edits that message, and its picture is redrawn: the
live board (``bot.discord.board_edits``, at most one image edit a second per channel). When
the turn ends the message keeps its lines and the turn's last picture and loses its
panel, and the next turn's message is posted (or the game-over message with the
final scores and board). The board is drawn in a worker thread.

What a turn message shows is read once per delivery by the game service: its turn view
(``bot.play.turn_view``); its sentences are ``bot.text.turn_message``'s. The announcer
renders the view (``turn_text``, the panel, the board); posting and editing them is the
outbox's: each change queues its deliveries (``bot.play.outbox``) and
``bot.discord.couriers`` sends them, retrying until they land.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import discord

from bot.discord.components import PanelView
from bot.discord.panel import lay_out
from bot.discord.replies import jump_url
from bot.play.choice_tree import Choices
from bot.play.games import ActiveGame
from bot.play.turn_view import PanelFacts, TurnView, panel_of
from bot.text.board_words import scores_line
from bot.text.turn_message import turn_message
from engine import GameView

log = logging.getLogger(__name__)


def mentions(users: Sequence[int]) -> discord.AllowedMentions:
    """Mentions that may ping these members and nobody else."""
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False, users=[discord.Object(u) for u in users]
    )


def laid_out(panel: PanelFacts | None) -> PanelView:
    """The action panel's components (an empty view for no panel: AI seats, game over)."""
    if panel is None:
        return PanelView()
    return lay_out(
        panel.game_id,
        panel.version,
        panel.menus,
        can_undo=panel.can_undo,
        locale=panel.locale,
        spoken=panel.spoken,
    )


class Announcer:
    """Renders the turn messages of games (text, panel, board) from their turn views, for
    the deliveries (``bot.discord.couriers``)."""

    def __init__(self) -> None:
        # Per game, the VP said last in its channel for a screen reader (``said_scores``).
        self.scores_said: dict[int, tuple[int, ...]] = {}

    def turn_text(self, view: TurnView) -> str:
        """The message of the turn in play: header, what happened this turn so far, and what
        to do now (``bot.text.turn_message``)."""
        w = view.words
        if w.spoken and w.view is not None and not w.state.over:
            # a member's turn message always says the scores to a screen reader
            self.scores_said[view.game.id] = tuple(p.vp for p in w.view.players)
        return turn_message(w)

    def scores_heard(self, game_id: int, v: GameView) -> None:
        """The scores of board ``v`` were said in the game's channel (``said_scores``)."""
        self.scores_said[game_id] = tuple(p.vp for p in v.players)

    def said_scores(self, game_id: int, v: GameView, names: Sequence[str], locale: str) -> str:
        """The scores line for a turn posted when it ended (screen-reader mode): said when
        the VP changed since they were last said in the channel (a member's turn message
        always says them), else "" (a screen reader would hear them again for nothing)."""
        vp = tuple(p.vp for p in v.players)
        if self.scores_said.get(game_id) == vp:
            return ""
        return scores_line(v, names, locale)

    def turn_panel(self, view: TurnView) -> PanelView:
        """The action panel of the turn's view (an empty view for AI seats or game over)."""
        return laid_out(view.panel)

    def panel(self, game: ActiveGame, open_path: str | None = None, page: int = 0) -> PanelView:
        """The action panel for the member to act (an empty view for AI seats or game over),
        a second step opened (``open_path``, at ``page``)."""
        return laid_out(panel_of(game, open_path, page))

    def choices(self, game: ActiveGame) -> Choices:
        """What the panel offers the player to act (labels are plain text: no escapes)."""
        return game.shown().choices(game.seat_names, game.row.locale)

    def allowed(self, view: TurnView) -> discord.AllowedMentions:
        return mentions([view.member] if view.member is not None else [])

    def panel_link(self, game: ActiveGame) -> str:
        if game.row.turn_message_id is None:
            return ""
        return jump_url(game.row.guild_id, game.row.channel_id, game.row.turn_message_id)

"""The English source of every user-facing text of the bot and the board image.

Rules-level texts (names of facilities, territories, cards; refusals; events) are in
``engine.messages``; ``SOURCES`` gathers both under their keys (names as ``name.<id>``).
Translations are gettext catalogues (``bot/text/locales/<language>.po``, see ``bot.text.i18n``):
``text`` is the one door, for every language.

To add a text: add its key and English here (a ``Plural`` if it counts something),
use it with ``text(key, locale, params)``, then run ``python -m bot.text.catalogues
update`` and translate the new entries of the ``.po`` files (``python -m
bot.text.catalogues missing`` lists them).

The ``cmd.*`` keys are the descriptions of the slash commands and their options and
the names of fixed choices: ``bot.discord.translator`` hands them to Discord as localisations
when the commands are synced (the command names themselves stay English).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from bot.text import i18n
from engine import (
    AMOUNT_PARAMS,
    MESSAGES_EN,
    NAMES_EN,
    RELIC_DIE,
    VARIANT_PARAMS,
    Plural,
    Source,
    fill,
    shown_params,
)

# ---- board image labels (owned by bot/render) ------------------------------------------
BOARD_EN: Final[dict[str, Source]] = {
    "board.title": "Alien Frontiers",
    "board.round": "Round {round}",
    "board.turn": "Turn {turn}",
    "board.seat": "P{number}",
    "board.vp": Plural("{vp} VP", "{vp} VP", "vp"),
    "board.fuel": "Fuel",
    "board.ore": "Ore",
    "board.colonies": "Colonies",
    "board.colonies_value": "{left} left · {placed} on the planet",
    "board.ships": "Ships",
    "board.ships_value": "{in_play} in play · {stock} in stock",
    "board.cards": "Alien tech",
    "board.no_cards": "none",
    "board.card_used": "used",
    "board.now": "NOW",
    "board.winner_tag": "WINNER",
    "board.to_dock": "To dock",
    "board.deck": "Deck",
    "board.discard": "Discard",
    "board.display": "Alien Tech Display",
    "board.display_empty": "empty",
    "board.vp_card": "+1 VP",
    "board.relic": "Relic ship",
    "board.legend": "A territory's frame and token: the colour of who controls it",
    # What controlling a territory gives (R-COL-4), short.
    "board.bonus.asimov": "Hub: +1 space",
    "board.bonus.bradbury": "Constructor: −1 ore",
    "board.bonus.burroughs": "Buy the relic ship",
    "board.bonus.heinlein": "Market: 1 fuel per ore",
    "board.bonus.herbert": "Shipyard: −1 fuel, −1 ore",
    "board.bonus.lem": "Solar: +1 fuel a ship",
    "board.bonus.pohl": "Cards: −1 fuel",
    "board.bonus.vanvogt": "Mine: any first ship",
    "board.used_up": "used up",
    "board.field_short.isolation": "Isolation",
    "board.field_short.positron": "Positron",
    "board.field_short.repulsor": "Repulsor",
    "board.log": "What happened",
    "board.log_empty": "The game is about to start",
    "board.game_over": "Game over",
    "board.winner": "{player} wins!",
    "board.shared_win": "Shared victory: {players}",
    "board.list_sep": " & ",
    "board.tiebreak.none": "Decided by victory points",
    "board.tiebreak.cards": "Tie on VP broken by the most alien tech cards",
    "board.tiebreak.ore": "Tie on VP and cards broken by the most ore",
    "board.tiebreak.fuel": "Tie on VP, cards and ore broken by the most fuel",
    "board.tiebreak.shared": "Tied on VP, cards, ore and fuel: the victory is shared",
    "board.turn_of": "{player}'s turn",
    "board.status.reveal": "Alien tech is being revealed",
    "board.status.first_player": "Choosing the first player",
    "board.status.roll": "Rolling the ships",
    "board.status.place": "Choosing a territory for a colony",
    "board.status.raid": "Raiding: choosing what to steal",
    "board.status.plasma": "Plasma Cannon: may hit another ship",
    "board.status.return": Plural(
        "Returning {excess} resource", "Returning {excess} resources", "excess"
    ),
    "board.status.dock": "Docking ships",
    "board.status.idle": "No ships left to dock",
    "board.supply": "Supply: {fuel} fuel · {ore} ore",
    "board.market_rate": Plural(
        "Market: {rate} fuel per ore", "Market: {rate} fuel per ore", "rate"
    ),
}

# ---- the live board (bot/render/live): short, to be read in Discord's preview ------------
LIVE_EN: Final[dict[str, Source]] = {
    "live.territories": "Territories · frame: who controls it",
    "live.status.dock": "docking",
    "live.status.idle": "all ships docked",
    "live.status.place": "placing a colony",
    "live.status.raid": "raiding",
    "live.status.plasma": "firing the cannon",
    "live.status.return": "returning resources",
    "live.status.roll": "rolling",
    "live.status.reveal": "revealing a card",
    "live.status.first_player": "choosing who starts",
    "live.field.isolation": "I",  # the field's initial, on its mark
    "live.field.positron": "P",
    "live.field.repulsor": "R",
    "live.left": Plural("{count} left", "{count} left", "count"),
    # Names of facilities where the full one does not fit.
    "live.short.solar": "Solar",
    "live.short.mine": "Mine",
    "live.short.market": "Market",
    "live.short.yard": "Shipyard",
    "live.short.constructor": "Constructor",
    "live.short.hub": "Hub",
    "live.short.terraform": "Terraform",
    "live.short.artifact": "Artifact",
    "live.short.raiders": "Raiders",
    "live.short.bay": "Bay",
    # Alien tech cards, as short as their owners call them.
    "live.card.booster": "Booster",
    "live.card.crystal": "Crystal",
    "live.card.gravity": "Gravity",
    "live.card.decoy": "Decoy",
    "live.card.teleporter": "Teleporter",
    "live.card.plasma": "Plasma",
    "live.card.polarity": "Polarity",
    "live.card.cache": "Cache",
    "live.card.stasis": "Stasis",
    "live.card.warper": "Warper",
    "live.card.city": "City",
    "live.card.monument": "Monument",
    "live.card.helm": "Helm",
}

# ---- bot texts: commands, panels, replies (owned by the bot cogs) ------------------------
BOT_EN: Final[dict[str, Source]] = {
    # ---- generic --------------------------------------------------------------------------
    "none": "none",
    "done": "✅ Done.",
    "refusal": "⛔ {reason}",
    "error.unexpected": "😵 Something went wrong on our side. It was logged; please try again.",
    "error.guild_only": "This command works in a server channel only.",
    "error.not_allowed": "You are not allowed to use this command.",
    "delivery.forbidden": "⚠️ I cannot post in {channel}: I am missing {permissions} there. "
    "The game in that channel waits for me; give them back and it goes on by itself.",
    "permission.view_channel": "View Channel",
    "permission.send_messages": "Send Messages",
    "permission.attach_files": "Attach Files",
    "permission.send_messages_in_threads": "Send Messages in Threads",
    "permission.read_message_history": "Read Message History",
    "delivery.rejected": "⚠️ Discord refuses the messages of your game in {where} ({route}: "
    "{reason}). Its players get the turn messages as text, without the board and the buttons, "
    "and play with `/play`. This is a fault of the bot: please tell whoever runs it.",
    "turn.minimal": "⚠️ The board and the buttons cannot be shown here: play with `/play`.",
    "orphan.channel": "⚠️ Your game #{game} cannot go on in {where}: that channel was deleted. "
    "To go on with it, use `/af panel game:{game}` in another channel; to end it (unrated), "
    "`/af abort game:{game}`.",
    "orphan.guild": "⚠️ Your game #{game} cannot go on in {where}: the bot was removed from "
    "that server. It goes on by itself if the bot is added back; or go on with it in another "
    "server's channel with `/af panel game:{game}`, or end it (unrated) with "
    "`/af abort game:{game}`.",
    "orphan.continued": "📦 Game #{game} goes on here (its channel was lost), brought by {name}.",
    "orphan.back": "🔌 I am back in this server: game #{game} goes on.",
    "orphan.back_turn": "🔌 I am back in this server: game #{game} goes on. {mention}, it is "
    "your turn.",
    "orphan.ended": "🛑 Game #{game} is ended (unrated).",
    "orphan.unknown": "You have no game #{game} waiting for a channel.",
    "orphan.host_only": "Only the host of game #{game} (or Manage Server) may do that.",
    "orphan.choice": "#{game}: {channel}, since {date}",
    "delivery.kind.turn": "the turn message",
    "delivery.kind.close": "the end of a turn",
    "delivery.kind.notify": "a turn's DM",
    "delivery.kind.notice": "a line in the channel",
    "delivery.kind.dm": "a DM",
    "delivery.kind.over": "the game-over message",
    "delivery.kind.lobby": "the lobby message",
    "delivery.kind.started": "the start message",
    "status.failed": Plural(
        "⚠️ {count} message of this game could not be delivered (the last: {what}, {when}).",
        "⚠️ {count} messages of this game could not be delivered (the last: {what}, {when}).",
        "count",
    ),
    "die.relic": RELIC_DIE,
    "ship.of": "{owner}'s {value}",
    "colour.red": "🟥",
    "colour.blue": "🟦",
    "colour.green": "🟩",
    "colour.yellow": "🟨",
    # ---- slash commands: descriptions of commands and options, names of fixed choices -----
    # (Discord limits each to 100 characters; command and option *names* stay English.)
    "cmd.af.description": "Alien Frontiers: set up, follow and manage games",
    "cmd.new.description": "Open a new game in this channel",
    "cmd.new.players": "How many seats (2-4)",
    "cmd.new.long_game": "Long game: 8 colonies each with 3 or 4 players",
    "cmd.new.helm": "Add the two Mind Control Helm cards (2nd edition)",
    "cmd.new.finite_supply": "Finite supply: the bank holds only 30 fuel and 20 ore",
    "cmd.new.language": "Language of the game's messages and board (default: the server's)",
    "cmd.new.turn_limit": "Hours a player has for a turn before it times out (0: no clock)",
    "cmd.new.on_timeout": "What happens when a turn times out",
    "cmd.new.watch": "Host without a seat (e.g. a game of AI players to watch)",
    "cmd.timeout.ai": "The AI plays the turn for them",
    "cmd.timeout.skip": "The turn is skipped (only the moves the rules require)",
    "cmd.timeout.none": "Nothing: the host decides",
    "cmd.join.description": "Take a seat in this channel's game (or your seat back from the AI)",
    "cmd.leave.description": "Leave this channel's game (asks first)",
    "cmd.bot.description": "Add an AI player to the lobby",
    "cmd.bot.level": "How strong the AI plays",
    "cmd.bot.level.easy": "Easy",
    "cmd.bot.level.normal": "Normal",
    "cmd.bot.level.hard": "Hard",
    "cmd.start.description": "Start the game (host only)",
    "cmd.abort.description": "End this channel's game now (host or Manage Channels)",
    "cmd.abort.game": "Or a game of yours whose channel is gone: end it, unrated",
    "cmd.play.description": "Play a move in this channel's game",
    "cmd.play.move": "The move in the game's notation, e.g. dock solar 3 or end",
    "cmd.undo.description": "Take back your last action this turn",
    "cmd.board.description": "Show the board of this channel's game",
    "cmd.board.text": "The whole board in words, for a screen reader",
    "cmd.board.detail": "The full board: the log, the deck, the ships in stock "
    "(default: as posted)",
    "cmd.status.description": "Scores, resources and whose turn it is",
    "cmd.log.description": "The last moves of this channel's game",
    "cmd.log.count": "How many of the last actions to show (1-50)",
    "cmd.rules.description": "Rules of a facility, territory, card or field",
    "cmd.rules.topic": "A facility, territory, alien tech card or field generator",
    "cmd.kick.description": "Remove a player (host or Manage Channels): in a game an AI takes over",
    "cmd.kick.player": "The seat: its number or the player's name",
    "cmd.replace.description": "Hand a seat to another member (host or Manage Channels)",
    "cmd.replace.player": "The seat to hand over: its number or the player's name",
    "cmd.replace.with": "The member who takes the seat",
    "cmd.away.description": "Pause your turn clock in all your games while you are away",
    "cmd.away.days": "For how many days (1-14); 0 says you are back",
    "cmd.notify.description": "How you hear that it is your turn, and screen-reader mode, in all "
    "your games",
    "cmd.notify.mode": "Where your turn pings and reminders go",
    "cmd.notify.screen_reader": "Screen-reader mode: plain words, each fact once, a private line "
    "after each pick",
    "cmd.notify.reader_on": "on",
    "cmd.notify.reader_off": "off",
    "cmd.notify.channel": "In the game's channel",
    "cmd.notify.dm": "By direct message",
    "cmd.notify.both": "In the channel and by direct message",
    "cmd.notify.off": "Nowhere (no pings)",
    "cmd.mygames.description": "Every game you sit in, the ones waiting on you first",
    "cmd.panel.description": "Post this game's turn message again at the bottom of the channel",
    "cmd.panel.game": "Or a game of yours whose channel is gone: go on with it here",
    "cmd.stats.description": "A player's record in this server's games",
    "cmd.stats.player": "Whose record (default: yours)",
    "cmd.leaderboard.description": "This server's best players",
    "cmd.replay.description": "An animated replay of a finished game, one picture per turn",
    "cmd.replay.game": "The finished game (the newest of this channel by default)",
    "cmd.settings.description": "Show or change the language and turn clock of this game or "
    "this server",
    "cmd.settings.scope": "This game, or the server's defaults for new games (Manage Server)",
    "cmd.settings.scope.game": "This game",
    "cmd.settings.scope.server": "Server defaults for new games",
    "cmd.settings.language": "Language of this game (or of the server's new games)",
    "cmd.settings.clock": "Turn clock on or off",
    "cmd.settings.reminder": "Hours of quiet before the first reminder",
    "cmd.settings.warning": "Hours of quiet before the final warning",
    "cmd.settings.turn_limit": "Hours of quiet before the turn times out",
    "cmd.settings.on_timeout": "What happens when a turn times out",
    "cmd.settings.timeouts": "Timed-out turns in a row before the AI takes the seat for good",
    "cmd.settings.takeover": "Level of the AI that plays timed-out turns and taken-over seats",
    # ---- the lobby ------------------------------------------------------------------------
    "lobby.header": "🪐 **Alien Frontiers** — hosted by {host} · {seats}/{max} seats · {options}",
    "lobby.option.long": "long game",
    "lobby.option.helm": "Mind Control Helm",
    "lobby.option.finite": "finite supply (30 fuel, 20 ore)",
    "lobby.option.none": "standard rules",
    "lobby.option.language": "in English",
    "lobby.seat": "{number}. {name}",
    "lobby.help": "Join with `/af join`; the host adds AI players with `/af bot` and starts "
    "with `/af start`.",
    "lobby.joined": "👋 {name} joins the game ({seats}/{max}).",
    "lobby.left": "{name} leaves the lobby.",
    "lobby.left_to_ai": "{name} leaves the game; an AI plays their seat from now on "
    "(`/af join` takes it back).",
    "lobby.left_closed": "{name} leaves; nobody is left, so the lobby is closed.",
    "lobby.left_ended": "🛑 {name} leaves and no player is left: the game ends here.",
    "lobby.watching": "{host} hosts without a seat.",
    "lobby.closed": "This lobby is closed.",
    "lobby.started": "🚀 The game has started: follow the turns below.",
    "lobby.bot_added": "🤖 {name} takes a seat ({seats}/{max}).",
    "lobby.busy": "This channel already has a game. Play it, or end it with `/af abort`.",
    "lobby.players_range": "A game has 2 to 4 players.",
    "lobby.already_started": "The game has already started.",
    "lobby.host_only": "Only the host ({host}) can do that.",
    "lobby.already_seated": "You already have a seat in this game.",
    "lobby.full": "The game is full ({players} seats).",
    "lobby.not_seated": "You have no seat in this game.",
    "lobby.too_few": "At least 2 seats are needed: invite someone to `/af join`, or add an AI "
    "with `/af bot`.",
    "start.header": "🚀 **The game starts!**",
    "abort.done": "🛑 The game was aborted by {name}.",
    "abort.done_counted": "🛑 The game was aborted by {name}: for {name}'s rating it counts "
    "as leaving it, last place.",
    "abort.not_allowed": "Only the host or members with Manage Channels can abort the game.",
    "abort.to_ai": "🛑 {name} stopped playing: the AI ({level}) takes their seat and the game "
    "goes on. For {name}'s rating it counts as leaving, last place. Only a member with Manage "
    "Channels can end a game in play for everyone.",
    "abort.watching_host": "You host this game without a seat: a game in play ends when its "
    "players finish it or leave it. `/af kick` hands a silent player's seat to the AI; a member "
    "with Manage Channels can end it.",
    "language.changed": "🌐 From now on this game speaks English.",
    "language.unknown": "There is no language “{language}”: choose one of {languages}.",
    "ai.name": "AI {number} ({level})",
    "ai.level.easy": "easy",
    "ai.level.normal": "normal",
    "ai.level.hard": "hard",
    "ai.replaces": "{name} (AI {level})",
    "seat.away": "{name} (away until {date})",
    # ---- games and moves ------------------------------------------------------------------
    "game.none": "There is no game in this channel. Open one with `/af new`.",
    "game.not_started": "The game has not started yet: the host starts it with `/af start`.",
    "game.changed": "The game moved on meanwhile (another move came first); nothing was done. "
    "Look at the current turn and try again.",
    "play.not_seated": "You are not playing in this game; follow it with `/af board` and "
    "`/af status`.",
    "play.done": "✅ `{move}`",
    "play.unsure": "⏳ Your move reached the bot, but its database did not confirm it yet. "
    "The turn message will show it if it was made: look there before playing it again.",
    "undo.done": "↩️ Took back `{move}`.",
    "hint.header": "💡 What the normal AI would do with the rest of your turn:",
    "hint.line": "{number}. {action}",
    "hint.none": "💡 The normal AI would not do anything more this turn.",
    "turn.header": "🎲 **Round {round} — {name}'s turn** {mention}",
    "turn.header_ai": "🤖 **Round {round} — {name}'s turn**",
    "turn.header_timeout.ai": "⌛ **Round {round} — the turn played for {member} by the AI**",
    "turn.header_timeout.skip": "⌛ **Round {round} — the turn skipped for {member} (time ran "
    "out)**",
    "turn.earlier": "• … ({count} more)",
    "turn.more": Plural(
        "• … {count} more, in `/af log`", "• … {count} more, in `/af log`", "count"
    ),
    "spoken.of": "{a} of {b}",
    "spoken.times": Plural("{count} time", "{count} times", "count"),
    # A turn's lines for a screen reader, repeats said once (bot/text/heard.py).
    "spoken.displaced": Plural(
        "{player} has a ship driven from the Raiders' Outpost: {values}",
        "{player} has {count} ships driven from the Raiders' Outpost: {values}",
        "count",
    ),
    "spoken.cycled": "{player} cycles the alien tech display: {cards} turn up",
    "spoken.revealed": Plural(
        "{count} card is revealed: {cards}", "{count} cards are revealed: {cards}", "count"
    ),
    "turn.hint": "_Use the panel below, or type `/play move:`._",
    "pending.place": "➡️ {player} chooses a territory for the colony.",
    "pending.raid": "➡️ {player} chooses what to steal.",
    "pending.plasma": "➡️ {player} may hit another ship at the same facility, or stop.",
    "pending.return": Plural(
        "➡️ {player} returns {excess} resource to the supply (8 at most).",
        "➡️ {player} returns {excess} resources to the supply (8 at most).",
        "excess",
    ),
    "pending.reveal": "➡️ A card is being revealed.",
    "pending.first_player": "➡️ The first player is being chosen.",
    "pending.roll": "➡️ The ships are being rolled.",
    "status.to_act": "➡️ {player} to act · ships to dock: {undocked}",
    "status.over": "The game is over.",
    "status.header": "**Round {round}** (turn {turn})",
    "status.player": "{marker} **{name}** — {vp} VP · {fuel} fuel · {ore} ore · colonies: "
    "{left} left, {placed} on the planet · hub {hub}/7 · {ships} ships · cards: {cards}",
    "status.display": "Alien tech display: {cards}",
    "status.field": "{field} on {territory}",
    "status.fields": "Fields: {fields}",
    "status.supply": "Finite supply: {fuel} fuel · {ore} ore left in the bank",
    "over.header": "🏁 **Game over!** {mentions}",
    "over.winner": Plural(
        "🏆 **{winners}** wins with {vp} VP!", "🏆 **{winners}** wins with {vp} VP!", "vp"
    ),
    "over.shared": Plural(
        "🏆 Shared victory: **{winners}** with {vp} VP!",
        "🏆 Shared victory: **{winners}** with {vp} VP!",
        "vp",
    ),
    "over.score": Plural("{mark}{name}: {vp} VP", "{mark}{name}: {vp} VP", "vp"),
    "over.part.colonies": Plural("{count} colony", "{count} colonies", "count"),
    "over.part.territories": Plural("{count} territory", "{count} territories", "count"),
    "over.part.positron": Plural("{count} Positron Field", "{count} Positron Field", "count"),
    "over.part.cards": Plural("{count} alien tech card", "{count} alien tech cards", "count"),
    "over.part.none": "no points",
    "over.length": Plural(
        "{rounds} round, {duration} from the first move to the last.",
        "{rounds} rounds, {duration} from the first move to the last.",
        "rounds",
    ),
    "over.rematch": "Rematch",
    "over.rematch_opened": "🔁 {name} opens a rematch: same seats and options. {mentions} — "
    "join with `/af join` (the host starts with `/af start`).",
    "over.rematch_busy": "This channel already has a game: finish or abort it first.",
    "over.rematch_not_player": "Only the players of that game (or members with Manage "
    "Channels) can open its rematch.",
    "over.tiebreak.cards": "Tie on VP, decided by the most alien tech cards.",
    "over.tiebreak.ore": "Tie on VP and cards, decided by the most ore.",
    "over.tiebreak.fuel": "Tie on VP, cards and ore, decided by the most fuel.",
    "over.tiebreak.shared": "Tie on VP, cards, ore and fuel: the victory is shared.",
    # ---- the turn clock (play-by-post) ----------------------------------------------------
    "clock.reminder": "⏰ {mention}, it is your turn (the clock started {since}). Your panel: "
    "{link}",
    "clock.warning.ai": "⚠️ {mention}, final warning: if you have not played by {deadline} "
    "({relative}), the AI plays this turn for you. Away for a while? `/af away` pauses your "
    "clock. Your panel: {link}",
    "clock.warning.skip": "⚠️ {mention}, final warning: if you have not played by {deadline} "
    "({relative}), your turn is skipped (only the moves the rules require). Away for a while? "
    "`/af away` pauses your clock. Your panel: {link}",
    "clock.warning.none": "⚠️ {mention}, final warning: if you have not played by {deadline} "
    "({relative}), the host decides what happens to your seat. Away for a while? `/af away` "
    "pauses your clock. Your panel: {link}",
    "clock.timeout.ai": "⌛ Time is up for {name}: the AI plays this turn for them; the seat "
    "stays theirs.",
    "clock.timeout.skip": "⌛ Time is up for {name}: their turn is skipped (only the moves the "
    "rules require).",
    "clock.timeout.none": "⌛ {host}: {name} has not played for {hours}. The game waits for them; "
    "you can hand the seat to the AI (`/af kick`) or to someone else (`/af replace`).",
    "clock.takeover": Plural(
        "🤖 {mention} missed {count} turn, so the AI ({level}) plays their seat from now on. "
        "{host} is told; {mention} can take it back with `/af join`.",
        "🤖 {mention} missed {count} turns in a row, so the AI ({level}) plays their seat from "
        "now on. {host} is told; {mention} can take it back with `/af join`.",
        "count",
    ),
    "clock.bot_playing": "Your turn timed out and the bot is playing it for you; your next turn "
    "is yours again.",
    "clock.nothing_waits": "Nobody is waited on in this game right now.",
    "clock.settings_off": "Turn clock: off (no reminders, no timeouts).",
    "clock.settings.ai": Plural(
        "Turn clock: a reminder after {remind} of quiet, a final warning at {warn}, and at "
        "{limit} the AI ({level}) plays the turn. After {count} timed-out turn the AI takes the "
        "seat (the player can `/af join`).",
        "Turn clock: a reminder after {remind} of quiet, a final warning at {warn}, and at "
        "{limit} the AI ({level}) plays the turn. After {count} timed-out turns in a row the AI "
        "takes the seat (the player can `/af join`).",
        "count",
    ),
    "clock.settings.skip": Plural(
        "Turn clock: a reminder after {remind} of quiet, a final warning at {warn}, and at "
        "{limit} the turn is skipped. After {count} timed-out turn the AI ({level}) takes the "
        "seat (the player can `/af join`).",
        "Turn clock: a reminder after {remind} of quiet, a final warning at {warn}, and at "
        "{limit} the turn is skipped. After {count} timed-out turns in a row the AI ({level}) "
        "takes the seat (the player can `/af join`).",
        "count",
    ),
    "clock.settings.none": "Turn clock: a reminder after {remind} of quiet, a final warning at "
    "{warn}; at {limit} nothing happens and the host decides.",
    "clock.status_waiting": "⏳ Waiting on {player} (the clock started {since}); turn limit "
    "{deadline}.",
    "clock.status_waiting_no_limit": "⏳ Waiting on {player} (the clock started {since}).",
    "clock.status_bot_playing": "⌛ {player}'s turn timed out: the bot is playing it.",
    "clock.status_away": "💤 {player} is away until {until}.",
    "clock.hours_range": "Clock times must be between {low} and {high} hours.",
    "clock.order": "The reminder must come before the final warning, and the warning before the "
    "turn limit (in hours: now {remind}, {warn}, {limit}).",
    "clock.bad_action": "“{action}” is not a timeout action: choose “The AI plays the turn "
    "for them”, “The turn is skipped (only the moves the rules require)” or “Nothing: the host "
    "decides”.",
    "clock.timeouts_range": "Timed-out turns in a row: from 1 to {high}.",
    "clock.bad_level": "“{level}” is not an AI level: choose “Easy”, “Normal” or “Hard”.",
    # ---- notifications and catch-up -------------------------------------------------------
    "catchup.header": "📰 Since your last turn:",
    "notify.your_turn": "🎲 It is your turn in {where}: {link}",
    "notify.mode.channel": "🔔 Your turns and reminders ping you in each game's channel.",
    "notify.mode.dm": "🔔 Your turns and reminders come by direct message (the channel shows "
    "your name without pinging you).",
    "notify.mode.both": "🔔 Your turns and reminders ping you in the channel and by direct "
    "message.",
    "notify.mode.off": "🔕 Nothing pings you: check `/af mygames` now and then (the turn clock "
    "still runs).",
    "notify.blocked": "Your DMs are closed to me, so your pings come in the channel until you "
    "choose again.",
    "notify.dm_test": "🔔 This is where your Alien Frontiers turns will come.",
    "notify.reader.on": "Screen-reader mode is on: your private answers, and the channel of a "
    "game you sit in, come without emoji or symbols, each fact said once, the picture's "
    "description short (the whole board in words: `/af board text:true`); after each pick on "
    "the panel you are told privately what it did and what is left. `/af notify "
    "screen_reader:off` turns it off.",
    "notify.reader.off": "Screen-reader mode is off. `/af notify screen_reader:on` turns it on: "
    "plain words without emoji, each fact once, and a private line after each pick.",
    "notify.dm_ok": "I sent you a direct message to check.",
    "mygames.none": "You have no seat in any game. Open one with `/af new`, or `/af join` a lobby.",
    "mygames.header": Plural(
        "🪐 **Your game** (the ones waiting on you first):",
        "🪐 **Your {count} games** (the ones waiting on you first):",
        "count",
    ),
    "mygames.yours": "• ➡️ {where} — **your turn** began {since} · {link}",
    "mygames.theirs": "• {where} — {player}'s turn began {since} · {link}",
    "mygames.lobby": "• {where} — lobby opened {since} · {link}",
    "notify.in_game": "({where})",
    "notify.dm_failed": "🔔 {mention}, it is your turn ({link}). I could not send you a DM, so "
    "your pings come here for now.",
    "notify.dm_hint": "📭 I could not send you a DM: your DMs are closed to this server. To "
    "get your turns by DM, allow direct messages from server members (the server's name → "
    "Privacy Settings → Direct Messages), then choose again with `/af notify`.",
    "catchup.stole_fuel": Plural(
        "{player} steals {count} fuel from you", "{player} steals {count} fuel from you", "count"
    ),
    "catchup.stole_ore": Plural(
        "{player} steals {count} ore from you", "{player} steals {count} ore from you", "count"
    ),
    "catchup.more": Plural("• … and {count} more", "• … and {count} more", "count"),
    "catchup.change": "{player}: {changes}",
    "catchup.fuel": "fuel {now} ({delta})",
    "catchup.ore": "ore {now} ({delta})",
    "catchup.hub": "Colony Hub track: space {space} of {of}",
    "catchup.hub_empty": "Colony Hub track empty",
    "catchup.holds": Plural("now holds {cards}", "now holds {cards}", "count"),
    "catchup.holds_none": "now holds no card",
    # ---- records: stats, leaderboard, replays ----------------------------------------------
    "stats.header": "📊 **{name}** —",
    "stats.games": Plural("{count} game", "{count} games", "count"),
    "stats.wins": Plural("{count} win ({rate}%)", "{count} wins ({rate}%)", "count"),
    "stats.average": "{vp} VP on average",
    "stats.best": Plural("best {vp} VP", "best {vp} VP", "vp"),
    "stats.first": "favourite first colony: {territory}",
    "stats.none": "{name} has not finished a game in this server yet.",
    "leaderboard.none": "No game has been finished in this server yet.",
    "replay.caption": Plural(
        "🎞️ Game {game}, turn by turn ({frames} picture, {seconds} s).",
        "🎞️ Game {game}, turn by turn ({frames} pictures, {seconds} s).",
        "frames",
    ),
    "replay.choice": "Game {game} · {channel} · {date}",
    "replay.none": "No game has been finished in this channel yet.",
    "replay.unknown": "There is no finished game {game} in this server.",
    # ---- settings -------------------------------------------------------------------------
    "settings.game": "**This game** — {settings}",
    "settings.server": "**Server defaults for new games** — {settings}",
    "settings.no_game": "There is no game in this channel; `/af settings scope:server` sets the "
    "server's defaults.",
    "settings.changed": "⚙️ {name} changed this game's clock. {settings}",
    "settings.clock_restarted": "⏱️ The turn in play starts its clock again from now.",
    "settings.clock_off_in_play": "In a rated game in play, only a member with Manage Channels "
    "can switch the turn clock off or make its limit do nothing: a player who is behind could "
    "stop it and never move again.",
    "settings.server_changed": "⚙️ The server's defaults for new games are now: {settings}",
    "settings.server_only_admins": "Only members with Manage Server can change the server's "
    "defaults.",
    "settings.not_in_server": "Server defaults can only be set in a server.",
    "settings.game_over": "This game is over; its settings can no longer change.",
    "settings.unchanged": "These are already the game's settings: nothing changed.",
    "settings.server_language": "Language of new games: {language}.",
    "settings.server_language_auto": "Language of new games: {language}, the server's language "
    "in Discord.",
    "settings.server_language_changed": "⚙️ New games of this server now start in this "
    "language: {language}. Games already open keep theirs.",
    # ---- seats ----------------------------------------------------------------------------
    "seats.not_allowed": "Only the host or members with Manage Channels can do that.",
    "seats.no_such_seat": Plural(
        "There is no seat {number}: this game has {seats} seat.",
        "There is no seat {number}: this game has {seats} seats.",
        "seats",
    ),
    "seats.unknown_player": "No seat matches “{player}”: pick one from the list.",
    "seats.kick_self": "To give up your own seat, use `/af leave`.",
    "seats.already_ai": "{name} is already played by the AI.",
    "seats.replace_bot": "{name} is a bot account: a seat goes to a member (add AI players with "
    "`/af bot`).",
    "seats.already_seated": "{name} already has a seat in this game.",
    "seats.nothing_to_rejoin": "You have no seat to take back in this game: you can only take "
    "back a seat an AI took over after you left, were removed or timed out.",
    "seats.kicked_lobby": "👢 {by} removed {name} from the lobby.",
    "seats.kicked_game": "👢 {by} handed {name}'s seat to the AI ({level}); `/af join` "
    "gives it back.",
    "seats.replaced": "🔁 {by} handed {old}'s seat to {new}.",
    "seats.offered": "📨 {by} offers {old}'s seat to {mention}: to take it, use `/af join` in "
    "this channel.",
    "seats.offer_taken": "🔁 {new} takes {old}'s seat.",
    "seats.no_offer": "Nobody offered you a seat in this game.",
    "seats.kicked_stalled": "⏳ {by} removed {name}, whose turn had waited too long without a "
    "move: the AI ({level}) plays the seat, and for {name}'s rating it counts as removed, last "
    "place. `/af join` gives the seat back.",
    "seats.kick_not_waiting": Plural(
        "Only the host or members with Manage Channels can remove a player. Any player can "
        "remove the player the game waits on once their turn has had no move for {days} day.",
        "Only the host or members with Manage Channels can remove a player. Any player can "
        "remove the player the game waits on once their turn has had no move for {days} days.",
        "days",
    ),
    "seats.kick_too_soon": Plural(
        "A player can remove the player the game waits on once their turn has had no move for "
        "{days} day: from {when}.",
        "A player can remove the player the game waits on once their turn has had no move for "
        "{days} days: from {when}.",
        "days",
    ),
    "seats.your_turn": "🎲 {mention}, the seat is yours and it is your turn: {link}",
    "seats.rejoined": "👋 {name} takes their seat back from the AI.",
    "seats.rejoin_pending": "👋 {name} takes their seat back when the AI's current turn ends.",
    "leave.confirm_lobby": "Leave the lobby?",
    "leave.confirm_lobby_host": "Leave the lobby? You are the host: {next} becomes the host.",
    "leave.confirm_lobby_last": "Leave the lobby? Nobody else is in it, so it closes.",
    "leave.confirm_game": "Leave the game? An AI ({level}) plays your seat from then on; "
    "`/af join` gives it back to you.",
    "leave.confirm_game_last": "Leave the game? You are the last player: the game ends for "
    "everyone and is saved as aborted.",
    "leave.counts_last": "📉 Your rating counts this game as last place now, whatever "
    "happens after.",
    "leave.yes": "Leave",
    "leave.no": "Stay",
    "leave.stayed": "You stay in the game.",
    "leave.done": "You left.",
    "leave.not_yours": "This button is for someone else.",
    "leave.gone": "That game is no longer running.",
    "away.range": "Away: from 1 to {high} days (0 says you are back).",
    "away.set": "💤 You are away until {until}: in all your games, reminders and timeouts wait "
    "until then, though your turns still come round to you. `/af away days:0` when you are "
    "back.",
    "away.back": "Welcome back: your turn clock runs again.",
    # ---- the action panel -----------------------------------------------------------------
    "panel.undo": "Undo",
    "panel.reposted": "📌 The turn message is at the bottom of the channel again: {link}",
    "panel.reposting": "📌 The turn message will be posted again at the bottom of the channel "
    "as soon as Discord takes it.",
    "panel.moved": "⬇️ This turn continues further down: {link}",
    "panel.options": Plural("{count} option", "{count} options", "count"),
    "panel.previous": "Previous page",
    "panel.next": "Next page",
    "panel.stale": "This panel is out of date. The current one is here: {link}",
    "panel.gone": "This game is no longer running.",
    "panel.not_your_turn": "It is not your turn: {player} is to act.",
    "panel.dock_prompt": "Dock ships…",
    "panel.powers_prompt": "Cards, trade and other actions…",
    "panel.choice_idle": "Follow-up choices appear here",
    "panel.more_prompt": "More choices…",
    "panel.no_docks": "No ship can dock now",
    "panel.no_powers": "No card or other action now",
    "panel.end": "End turn",
    "panel.hint": "Hint",
    "panel.back": "Back",
    "panel.page_of": "{prompt} ({page}/{pages})",
    "choice.open": "{label}…",
    "choice.more": "{label}: more…",
    "choice.rest": "{label}: more",
    "choice.dock": "{facility}: {dice}",
    "choice.dock_short": "Dock {dice}",
    "choice.step": "{title}: {part}",
    "choice.dock_prompt": "{facility}: which ships?",
    "choice.dock_then_cycle": "{facility}: {dice}, then cycle the display",
    "choice.then_cycle": "Dock {dice}, then cycle the display",
    "choice.dock_then_claim": "{facility}: {dice}, then {then}",
    "choice.then_claim": "Dock {dice}, then {then}",
    "choice.dock_then_do": "{facility}: {dice}, then {then}",
    "choice.then_do": "Dock {dice}, then {then}",
    "choice.colony_to": "place the colony on {territory}",
    "choice.claim_card": "claim {card}",
    "choice.and_cycle": "{label}, then cycle the display",
    "choice.and_stop": "{label}, and stop there",
    "choice.end_and_return": "End the turn and return resources",
    "choice.launch_to": "Launch the colony to {territory}",
    "choice.end_return": "End the turn, returning {fuel} fuel and {ore} ore",
    # Per resource, when the other amount is 0 (``variant``): never "returning 0 fuel".
    "choice.end_return.fuel": Plural(
        "End the turn, returning {fuel} fuel", "End the turn, returning {fuel} fuel", "fuel"
    ),
    "choice.end_return.ore": Plural(
        "End the turn, returning {ore} ore", "End the turn, returning {ore} ore", "ore"
    ),
    "choice.claim": "Claim an alien tech card",
    "choice.use": "{card}",
    "choice.discard": "Discard {card}",
    "choice.trade": "Trade {fuel} for {ore}",
    "choice.fuel": Plural("{count} fuel", "{count} fuel", "count"),
    "choice.ore": Plural("{count} ore", "{count} ore", "count"),
    "choice.booster": "+1 on a {die}",
    "choice.stasis": "−1 on a {die}",
    "choice.polarity": "turn a {die} into a {new}",
    "choice.gravity": "−1 on a {down}, +1 on a {up}",
    "choice.warper": "reroll {dice}",
    "choice.to": "to the {target}{with}",
    "choice.to_territory": "to {target}",
    "choice.ship": "{ship}",
    "choice.ship_at": "{ship} at the {facility}",
    "choice.die_at": "your {die} at the {facility}",
    "choice.down": "−1 on a {die}",
    "choice.reroll_count": Plural("reroll {count} ship", "reroll {count} ships", "count"),
    "choice.at": "at the {facility}",
    "choice.colony_on": "{owner}'s colony on {territory}",
    "choice.swap_with": "with {owner_b}'s colony on {territory_b}",
    "choice.steal": "Take {amounts} from {victim}",
    "choice.steal_card": "Take {card} from {victim}",
    "choice.then_steal": "take {amounts} from {victim}",
    "choice.then_steal_card": "take {card} from {victim}",
    "choice.steal_from": "Steal from {victim}",
    "choice.stop.raid": "Take nothing more",
    "choice.stop.plasma": "Stop firing",
    "choice.prompt.place": "Place the colony on…",
    "choice.prompt.raid": "Raid: what do you take?",
    "choice.prompt.plasma": "Plasma Cannon: hit another ship, or stop",
    "choice.prompt.return": "Return resources down to 8",
    # ---- what a pick yields (bot.text.gains): options' descriptions, screen-reader answers -
    "gains.fuel": "{delta} fuel, now {now}",
    "gains.ore": "{delta} ore, now {now}",
    "gains.vp": "{delta} VP, now {now}",
    "gains.ships": "{delta} ship, now {now} in play",
    "gains.hub": "Colony Hub track: space {space} of {of}",
    "gains.hub_empty": "the Colony Hub track is empty",
    "gains.colony": "a colony on {territory}",
    "gains.colony_control": "a colony on {territory}, which you now control",
    "gains.colony_gone": "a colony off {territory}",
    "gains.control": "you control {territory}",
    "gains.control_lost": "you lose control of {territory}",
    "gains.card": "you take {card}",
    "gains.card_gone": "{card} is gone",
    "gains.relic": "the relic ship is yours",
    "gains.dice": "ships to dock: {dice}",
    "gains.market": Plural(
        "trades at {rate} fuel for 1 ore this turn",
        "trades at {rate} fuel for 1 ore this turn",
        "rate",
    ),
    "gains.other": "{player}: {changes}",
    "gains.short.fuel": "{delta} fuel",
    "gains.short.ore": "{delta} ore",
    "gains.to_bay": Plural(
        "{count} ship to the Maintenance Bay", "{count} ships to the Maintenance Bay", "count"
    ),
    "gains.card_claimed": "you take {card}: {power}",
    "gains.artifact": "{total} of {of} toward a card",
    "gains.artifact_ready": "{total} toward a card: enough to claim one",
    "gains.over_limit": Plural(
        "{count} over the limit of {limit}, to return at the turn's end",
        "{count} over the limit of {limit}, to return at the turn's end",
        "count",
    ),
    # Why a facility is not offered now, in the engine's words (bot/text/why_not.py).
    "why_not.header": "Closed now: {facilities}",
    "why_not.facility": "{facility}: {reason}.",
    "why_not.reason": "{reason}.",
    "gains.ends_game": "the game ends",
    "gains.then.place": "then choose the territory",
    "gains.then.raid": "then choose what to take",
    "gains.then.plasma": "then hit another ship there, or stop",
    "gains.done": "Done: {what}.",
    "gains.left": "Left to dock: {dice}.",
    "gains.docked": "Every ship is docked.",
    "gains.turn_of": "It is {player}'s turn now.",
    "gains.over": "The game is over.",
    "gains.now.place": "Now choose a territory for the colony.",
    "gains.now.raid": "Now choose what to take.",
    "gains.now.plasma": "Now hit another ship at the same facility, or stop.",
    "gains.now.return": Plural(
        "Now return {excess} resource, down to 8.",
        "Now return {excess} resources, down to 8.",
        "excess",
    ),
    "label.with": " with your {dice}",
    "label.dock": "Dock {dice} at the {facility}",
    "label.trade": Plural("Trade {rate} fuel for 1 ore", "Trade {rate} fuel for 1 ore", "rate"),
    "label.launch": "Launch the colony (1 fuel + 1 ore)",
    "label.buy_relic": "Buy the relic ship (1 fuel + 1 ore)",
    "label.cycle": "Cycle the alien tech display",
    "label.claim": "Claim {card}",
    "label.end": "End the turn",
    "label.booster": "Booster Pod: +1 on a {die}",
    "label.stasis": "Stasis Beam: −1 on a {die}",
    "label.polarity": "Polarity Device: turn a {die} into a {new}",
    "label.gravity": "Gravity Manipulator: −1 on a {down}, +1 on a {up}",
    "label.warper": "Temporal Warper: reroll {dice}",
    "label.crystal": "Data Crystal: use the bonus of {territory}",
    "label.teleporter": "Orbital Teleporter: your {die} from the {source} to the {target}{with}",
    "label.helm": "Mind Control Helm: {ship} from the {source} to the {target}{with}",
    "label.plasma": "Plasma Cannon: fire at the {facility}, hitting {ship}",
    "label.discard_field": "Discard {card}: {field} to {territory}",
    "label.discard_booster": "Discard Booster Pod: remove the {field}",
    "label.discard_teleporter": "Discard Orbital Teleporter: move {owner}'s colony from "
    "{source} to {target}",
    "label.discard_polarity": "Discard Polarity Device: swap {owner_a}'s colony on "
    "{territory_a} with {owner_b}'s on {territory_b}",
    "label.discard_plasma": "Discard Plasma Cannon: send {ship} at the {facility} to its stock",
    "label.discard_warper": "Discard Temporal Warper: take {card} from the discard pile",
    "label.place": "Place the colony on {territory}",
    "label.steal_resource": "Steal 1 {resource} from {victim}",
    "label.steal_resource.fuel": "Steal 1 fuel from {victim}",
    "label.steal_resource.ore": "Steal 1 ore from {victim}",
    "label.steal_card": "Steal {card} from {victim}",
    "label.hit": "Also hit {ship}",
    "label.done": "Done",
    "label.return": "Return {fuel} fuel and {ore} ore",
    "label.return.fuel": Plural("Return {fuel} fuel", "Return {fuel} fuel", "fuel"),
    "label.return.ore": Plural("Return {ore} ore", "Return {ore} ore", "ore"),
    # ---- looking at a game ----------------------------------------------------------------
    "board.caption": "The board (round {round}).",
    "board.caption_detail": "The full board (round {round}): the log, the deck and discard "
    "pile, the ships in stock.",
    "log.header": Plural(
        "The last {count} of {total} action (the whole log is attached):",
        "The last {count} of {total} actions (the whole log is attached):",
        "total",
    ),
    "log.line": "#{seq} {who}: {move}",
    "log.chance": "🎲",
    "log.empty": "No moves yet.",
    "rules.unknown": "There is no rules topic called “{topic}”: pick one from the list.",
    "rules.topic.turn": "A turn",
    "rules.topic.notation": "Writing moves (/play)",
    "rules.topic.territories": "Territories: every bonus",
    "rules.topic.cards": "Alien tech cards: every card",
    "rules.topic.fields": "Field generators: every field",
    "rules.group_more": "Each card's whole rules: `/af rules` with its name.",
    # ---- rules topics (/af rules) ---------------------------------------------------------
    "rules.turn": "Your ships are gathered and rolled. Then, in any order: dock ships at "
    "facilities, use alien tech cards, trade at the Orbital Market, launch a colony from the "
    "Colony Hub, buy the relic ship. You must dock every ship that can legally dock; the turn "
    "ends when none can, and the rest go to the Maintenance Bay. Above 8 resources at the end "
    "of your turn, return the excess. Placing your last colony ends the game at once: most VP "
    "wins (ties: most cards, then ore, then fuel).",
    "rules.notation": "`/play move:` takes the engine's notation; its autocomplete lists your "
    "legal moves. Examples: `dock solar 3`, `dock yard 4 4`, `dock raiders 2 3 4`, `trade`, "
    "`launch`, `buy relic`, `cycle`, `claim plasma`, `use booster 3`, `use gravity down 5 up 2`, "
    "`use plasma mine p2:4`, `discard stasis lem`, `place heinlein`, `steal fuel p2`, "
    "`steal card decoy p3`, `hit p2:5`, `done`, `return 1 fuel 2 ore`, `end`. A `r` marks the "
    "relic ship (`3r`); other players' ships are written `p2:4`.",
    "rules.solar": "8 docks, any value. Gain 1 fuel per ship for a 1 or 2, 2 fuel for a 3 or 4, "
    "3 fuel for a 5 or 6. Lem Badlands: +1 fuel per ship docked here.",
    "rules.mine": "5 docks. Each ship docked must be at least the highest value already "
    "docked here (anyone's). Gain 1 ore per ship. Van Vogt Mountains: the first ship you dock "
    "here each turn may be any value.",
    "rules.market": "4 docks (2 pairs). Dock a pair of equal values; while it is docked this "
    "turn you may trade, as often as you like, fuel equal to the pair's value for 1 ore. "
    "Heinlein Plains: 1 fuel per ore.",
    "rules.yard": "6 docks (3 pairs). Dock a pair and pay to build a ship of your colour "
    "(it goes to the Maintenance Bay): the 4th costs 1 fuel + 1 ore, the 5th 2 + 2, the 6th "
    "3 + 3. Herbert Valley: 1 fuel and 1 ore less per ship.",
    "rules.constructor": "6 docks (2 triples). Dock three equal values and pay 3 ore to "
    "place a colony on any territory. Bradbury Plateau: 2 ore.",
    "rules.hub": "Each player has a track of 7 spaces. Any value docks; your first ship "
    "puts a colony on space 1, every other ship moves it one space. On space 7, launch it "
    "for 1 fuel + 1 ore at any moment of your turn and place it on a territory. Asimov "
    "Crater: once per turn, docking 2 or more ships here moves the colony one extra space.",
    "rules.terraform": "1 dock. Dock a 6 and pay 1 fuel + 1 ore to place a colony on any "
    "territory. The ship is used up: at your next turn it goes to your ship stock. Not if "
    "that would leave you fewer than 3 ships of your colour.",
    "rules.artifact": "4 docks, any value. Each ship docked lets you cycle the display (3 "
    "new cards). When your ships docked here since your last claim total 8 or more, you may "
    "claim a display card you do not own.",
    "rules.raiders": "3 docks, one run of three consecutive values (like 2-3-4). A run with "
    "a higher sum displaces the ships there. Then steal up to 4 resources from opponents, or "
    "1 alien tech card from one opponent. The Holographic Decoy protects its owner.",
    "rules.bay": "The Maintenance Bay holds ships that could not dock, new ships, the "
    "newly bought relic ship and ships removed or displaced, until their owner's next turn.",
    "rules.asimov": "Asimov Crater: once per turn, when you dock 2 or more ships at the "
    "Colony Hub, your colony moves one extra space.",
    "rules.bradbury": "Bradbury Plateau: the Colony Constructor costs you 2 ore instead of 3.",
    "rules.burroughs": "Burroughs Desert: buy the relic ship for 1 fuel + 1 ore while it "
    "is on the desert. It has no colour; it returns to the desert whenever it would go to a "
    "stock, or when you lose control. The Data Crystal cannot borrow this bonus.",
    "rules.heinlein": "Heinlein Plains: trade at the Orbital Market at 1 fuel per ore.",
    "rules.herbert": "Herbert Valley: the Shipyard costs 1 fuel and 1 ore less per ship.",
    "rules.lem": "Lem Badlands: +1 fuel per ship you dock at the Solar Converter.",
    "rules.pohl": "Pohl Foothills: each alien tech fuel power costs you 1 fuel less.",
    "rules.vanvogt": "Van Vogt Mountains: the first ship you dock at the Lunar Mine each "
    "turn may be any value.",
    "rules.booster": "Booster Pod — 1 fuel: +1 on one undocked ship. Discard: remove a "
    "field generator from the board.",
    "rules.crystal": "Data Crystal — fuel equal to the colonies on a territory: use its bonus "
    "this turn (not an empty, isolated territory, never Burroughs Desert). Discard: place or "
    "move the Positron Field.",
    "rules.gravity": "Gravity Manipulator — 2 fuel: −1 on one undocked ship and +1 on "
    "another. Discard: place or move the Repulsor Field.",
    "rules.decoy": "Holographic Decoy — no power: raiders cannot steal your resources, and "
    "a raider taking a card from you may only take the Decoy.",
    "rules.teleporter": "Orbital Teleporter — 2 fuel: move one of your docked ships to "
    "another facility, where it docks anew. Discard: move one colony (anyone's) to another "
    "territory.",
    "rules.plasma": "Plasma Cannon — 1 fuel per ship: send opponents' ships docked at one "
    "facility to their Maintenance Bays. Discard: send one opponent's docked ship to its "
    "stock, if they keep at least 3 ships.",
    "rules.polarity": "Polarity Device — 1 fuel: turn an undocked ship to its opposite face "
    "(7 − value). Discard: swap two colonies of different players on two territories.",
    "rules.cache": "Resource Cache — after your roll: more odd ships, 1 ore; more even, 1 "
    "fuel; as many of each, 1 fuel + 1 ore and the card is discarded. Not the turn you gain it.",
    "rules.stasis": "Stasis Beam — 1 fuel: −1 on one undocked ship. Discard: place or move "
    "the Isolation Field.",
    "rules.warper": "Temporal Warper — 1 fuel: reroll any of your undocked ships. Discard: "
    "take any card from the discard pile.",
    "rules.city": "Alien City: 1 VP to its owner. No power.",
    "rules.monument": "Alien Monument: 1 VP to its owner. No power.",
    "rules.helm": "Mind Control Helm (option) — 3 fuel: move an opponent's docked ship to "
    "another facility and use it as yours there. Not to or from the Terraforming Station. "
    "It cannot be discarded.",
    "rules.isolation": "Isolation Field (Stasis Beam's discard): the territory's bonus is void, "
    "for its controller and for the Data Crystal.",
    "rules.positron": "Positron Field (Data Crystal's discard): the territory's controller "
    "scores 1 extra VP.",
    "rules.repulsor": "Repulsor Field (Gravity Manipulator's discard): no colony may be added "
    "to or removed from the territory.",
    # ---- hardening (issue 12) ----
    "error.command_changed": "This command has changed since your Discord app loaded it. "
    "Nothing was done; try again in a minute (Discord is updating its list of commands).",
    "error.shutting_down": "The bot is restarting. Nothing was done; try again in a minute.",
    "error.database_busy": "⏳ The database is busy or unavailable right now. Nothing was "
    "changed; try again in a minute.",
    "panel.outdated": "This panel is from an older version of the bot. "
    "The current one is here: {link}",
    "panel.outdated_none": "This panel is from an older version of the bot, and no game is "
    "being played in this channel now.",
    "panel.unknown_choice": "That choice is not on this panel. Nothing was changed.",
    "error.option_range": "`{option}` takes a value from {low} to {high}. Nothing was changed.",
    "error.option_choices": "`{option}` takes one of: {values}. Nothing was changed.",
    # ---- the board in words: alt text and /af board text:true (bot.text.board_words) ----------
    # The alt text: the short alternative (a sentence each; see board_words's docstring).
    "a11y.alt.round": "Alien Frontiers board, round {round}, turn {turn}.",
    "a11y.alt.over": "Alien Frontiers board: the game is over, after round {round}.",
    "a11y.alt.rank": Plural("place {rank}: {name}, {vp} VP", "place {rank}: {name}, {vp} VP", "vp"),
    "a11y.alt.rank_winner": Plural(
        "place {rank}, winner: {name}, {vp} VP", "place {rank}, winner: {name}, {vp} VP", "vp"
    ),
    "a11y.alt.score": "{name}: {vp}",  # after "Scores:": VP, said once
    "a11y.alt.scores": "Scores: {scores}.",
    "a11y.alt.changes": "This turn: {changes}.",
    "a11y.alt.stole": "{player} steals {amounts} from {victim}",
    "a11y.alt.more": Plural("{count} more in /af log", "{count} more in /af log", "count"),
    "a11y.alt.full": "The whole board in words: {command}",
    "a11y.alt.brief": "Board picture.",
    # The board in words: a fact a line, lower case but for names (sentence case is added).
    "a11y.section.turn": "The turn",
    "a11y.section.player": "Players",
    "a11y.section.facilities": "Ships on the facilities",
    "a11y.section.territories": "Territories",
    "a11y.section.tech": "Alien tech",
    "a11y.section.powers": "What the cards do",
    "a11y.round": "round {round}, turn {turn}",
    "a11y.to_act": "{player} to act, ships to dock: {dice}",
    "a11y.to_act_docked": "{player} to act, every ship docked",
    "a11y.pending.place": "{player} chooses a territory for the colony",
    "a11y.pending.raid": "{player} chooses what to steal",
    "a11y.pending.plasma": "{player} may hit another ship at the same facility, or stop",
    "a11y.pending.return": Plural(
        "{player} returns {excess} resource, down to 8",
        "{player} returns {excess} resources, down to 8",
        "excess",
    ),
    "a11y.market_rate": Plural(
        "the Orbital Market trades {rate} fuel for 1 ore this turn",
        "the Orbital Market trades {rate} fuel for 1 ore this turn",
        "rate",
    ),
    "a11y.over": "the game is over, after round {round}",
    "a11y.rank": "place {rank}: {name}, victory points: {vp}",
    "a11y.rank_winner": "place {rank}, winner: {name}, victory points: {vp}",
    "a11y.you": "{name} (you)",
    "a11y.colour.red": "red",
    "a11y.colour.blue": "blue",
    "a11y.colour.green": "green",
    "a11y.colour.yellow": "yellow",
    "a11y.shape.circle": "circles",
    "a11y.shape.square": "squares",
    "a11y.shape.triangle": "triangles",
    "a11y.shape.diamond": "diamonds",
    "a11y.player": "{name} ({colour}, {shape})",
    "a11y.vp": "victory points: {vp}",
    "a11y.fuel": "fuel: {fuel}",
    "a11y.ore": "ore: {ore}",
    "a11y.colonies": "colonies left: {left}, on the planet: {placed}",
    "a11y.cards": "alien tech cards: {cards}",
    "a11y.card_vp": Plural("{card} ({vp} VP)", "{card} ({vp} VP)", "vp"),
    "a11y.cards_used": "used this turn: {cards}",
    "a11y.hub": "Colony Hub track: space {space} of {of}",
    "a11y.ships": "ships in play: {in_play}, in stock: {stock}",
    "a11y.bay": Plural(
        "in the Maintenance Bay: {count} ship, no value until it is rolled",
        "in the Maintenance Bay: {count} ships, no value until they are rolled",
        "count",
    ),
    "a11y.relic_in_bay": "the relic ship is among them",
    "a11y.has_relic": "owns the relic ship",
    "a11y.ships_of": Plural("ship {values} of {owner}", "ships {values} of {owner}", "count"),
    "a11y.facility": "{facility}: {ships}",
    "a11y.used_up": "{ships}, used up",
    "a11y.no_ships": "no ship is docked",
    "a11y.free": "free docks: {docks}",
    "a11y.free_at": "{facility} ({count})",
    "a11y.controlled": "controlled by {player}, who has its bonus: {bonus}",
    "a11y.controlled_void": "controlled by {player}; its bonus is void (Isolation Field): {bonus}",
    "a11y.uncontrolled": "controlled by nobody; its bonus: {bonus}",
    "a11y.colonies_of": Plural("{count} of {owner}", "{count} of {owner}", "count"),
    "a11y.colonies_on": "colonies: {colonies}",
    "a11y.fields_on": "fields: {fields}",
    "a11y.field": "{field} ({effect})",
    "a11y.field.isolation": "its bonus is void",
    "a11y.field.positron": "1 more VP to its controller",
    "a11y.field.repulsor": "no colony may be added or removed",
    "a11y.relic_here": "the relic ship waits here",
    "a11y.territory": "{territory}: {facts}",
    "a11y.display": "on display: {cards}",
    "a11y.deck": "cards in the deck: {count}",
    "a11y.discard": "discard pile: {cards}",
    "a11y.bank": "in the bank: fuel {fuel}, ore {ore}",
    "a11y.none": "none",
    "a11y.power": "{card}: {power}",
    # Each territory's bonus and each card's power in one clause (the rules: rules.*).
    "a11y.bonus.asimov": "docking 2 or more ships at the Colony Hub in a turn moves the colony "
    "one more space",
    "a11y.bonus.bradbury": "the Colony Constructor costs 2 ore instead of 3",
    "a11y.bonus.burroughs": "buying the relic ship for 1 fuel and 1 ore",
    "a11y.bonus.heinlein": "trading at the Orbital Market at 1 fuel for 1 ore",
    "a11y.bonus.herbert": "each ship of the Shipyard costs 1 fuel and 1 ore less",
    "a11y.bonus.lem": "1 more fuel for each ship docked at the Solar Converter",
    "a11y.bonus.pohl": "each fuel power of an alien tech card costs 1 fuel less",
    "a11y.bonus.vanvogt": "the first ship docked at the Lunar Mine each turn may be of any value",
    "a11y.power.booster": "for 1 fuel, 1 more on an undocked ship; discarded, it removes a field "
    "generator",
    "a11y.power.crystal": "for as much fuel as a territory has colonies, its bonus this turn; "
    "discarded, it places or moves the Positron Field",
    "a11y.power.gravity": "for 2 fuel, 1 less on one undocked ship and 1 more on another; "
    "discarded, it places or moves the Repulsor Field",
    "a11y.power.decoy": "no power, but raiders cannot take its holder's resources, and a raider "
    "taking a card from them may take only this one",
    "a11y.power.teleporter": "for 2 fuel, one of your docked ships moves to another facility; "
    "discarded, it moves a colony to another territory",
    "a11y.power.plasma": "for 1 fuel a ship, opponents' ships at one facility go to the "
    "Maintenance Bay; discarded, it sends one of them to its stock",
    "a11y.power.polarity": "for 1 fuel, an undocked ship turns over (1 and 6, 2 and 5, 3 and 4); "
    "discarded, it swaps two players' colonies",
    "a11y.power.cache": "after its holder's roll, 1 ore when most ships are odd, 1 fuel when most "
    "are even; on a tie, 1 fuel and 1 ore, and the card is discarded",
    "a11y.power.stasis": "for 1 fuel, 1 less on an undocked ship; discarded, it places or moves "
    "the Isolation Field",
    "a11y.power.warper": "for 1 fuel, any undocked ships rerolled; discarded, it takes a card "
    "from the discard pile",
    "a11y.power.city": "1 VP to its holder, no power",
    "a11y.power.monument": "1 VP to its holder, no power",
    "a11y.power.helm": "for 3 fuel, an opponent's docked ship moves to another facility and "
    "works for you there",
    # Each card in one short clause: a claim's description on the panel (bot/text/gains.py).
    "a11y.brief.booster": "+1 on a ship for 1 fuel",
    "a11y.brief.crystal": "a territory's bonus for a turn, for fuel",
    "a11y.brief.gravity": "−1 on one ship, +1 on another, for 2 fuel",
    "a11y.brief.decoy": "raiders cannot take your resources",
    "a11y.brief.teleporter": "moves your docked ship, for 2 fuel",
    "a11y.brief.plasma": "opponents' ships to the Maintenance Bay, 1 fuel each",
    "a11y.brief.polarity": "turns a ship over, for 1 fuel",
    "a11y.brief.cache": "1 fuel or 1 ore after each roll",
    "a11y.brief.stasis": "−1 on a ship for 1 fuel",
    "a11y.brief.warper": "rerolls ships for 1 fuel",
    "a11y.brief.city": "1 VP",
    "a11y.brief.monument": "1 VP",
    "a11y.brief.helm": "uses an opponent's docked ship, for 3 fuel",
    "a11y.replay": "Replay of game {game} in {frames} boards. The last one: {board}",
}

# ---- charts drawn by bot/render/charts.py (VP by round, a rating over games) ----------
CHART_EN: Final[dict[str, Source]] = {
    "chart.vp.title": "Victory points by round",
    "chart.vp.x": "Round",
    "chart.vp.y": "Victory points",
    "chart.rating.title": "Rating of {name}",
    "chart.rating.x": "Rated games",
    "chart.rating.y": "Rating",
    "chart.provisional": "Provisional rating",
    # Alt texts (an attachment's description): the chart in words, numbers left out in the
    # middle of a long list ("0, 1, 3 … 9, 11").
    "chart.vp.alt": Plural(
        "Chart of victory points by round ({rounds} round).",
        "Chart of victory points by round ({rounds} rounds).",
        "rounds",
    ),
    "chart.vp.alt.player": "{name}: {values}, final {vp}.",
    "chart.vp.alt.player_final": "{name}: final {vp}.",
    "chart.rating.alt": Plural(
        "Rating of {name} over {count} rated game: {values}.",
        "Rating of {name} over {count} rated games: {values}.",
        "count",
    ),
    "chart.rating.alt.range": "Highest {high}, lowest {low}.",
    "chart.rating.alt.provisional": Plural(
        "The rating after the first {count} game is provisional.",
        "The rating after the first {count} games is provisional.",
        "count",
    ),
}

# ---- ratings and seasons (bot/store/ratings.py, bot/discord/cogs/records.py) -------------
RATING_EN: Final[dict[str, Source]] = {
    "cmd.rating.description": "A player's rating in this server",
    "cmd.rating.player": "Whose rating (default: yours)",
    "cmd.rating.season": "Which season (default: the current season)",
    "cmd.leaderboard.season": "A season's table (default: the current season)",
    "cmd.season.description": "This server's rating seasons",
    "cmd.season.start.description": "End the season (its table is kept) and start fresh ratings",
    "cmd.season.start.name": "The new season's name",
    "rating.header": "📈 **{name}** — rating **{rating}** ({season})",
    "rating.provisional": Plural(
        "provisional: {count} more game to settle it",
        "provisional: {count} more games to settle it",
        "count",
    ),
    "rating.rank": "#{rank} of {count} in this server",
    "rating.unranked": Plural(
        "not ranked yet: only settled ratings get a rank ({count} rated game or more)",
        "not ranked yet: only settled ratings get a rank ({count} rated games or more)",
        "count",
    ),
    "rating.games": Plural("{count} rated game", "{count} rated games", "count"),
    "rating.recent": "Latest games:",
    "rating.result": "• game {game}: place {place} of {players}, {change}",
    "rating.result_how": "• game {game}: place {place} of {players} ({how}), {change}",
    "rating.how.helped": "the bot played some turns: no gain",
    "rating.how.absent": "the bot played most turns: last place",
    "rating.how.left": "left: last place",
    "rating.how.kicked": "removed: last place",
    "rating.how.timeout": "seat lost to the turn clock: last place",
    "rating.how.replaced": "seat handed on: last place",
    "rating.how.aborted": "aborted: last place",
    "rating.how.unknown": "seat left to the AI: last place",
    "rating.about": "_Everyone starts at 1000, as strong as the normal AI: placing better than "
    "expected raises it, worse lowers it._",
    "rating.none": "{name} has no rating in this server yet: it comes with their first "
    "finished game.",
    "rating.none_in_season": "{name} has no rated game in {season}.",
    "rating.none_in_season_earlier": "{name} has no rated game in {season} yet. In {earlier}: "
    "**{rating}**, #{rank} of {count} (`/af rating season:{number}`).",
    "rating.none_in_season_earlier_provisional": "{name} has no rated game in {season} yet. In "
    "{earlier}: **{rating}**, provisional (`/af rating season:{number}`).",
    "season.name": "season {number}",
    "season.named": "season {number} “{name}”",
    "season.current": "{season} (current)",
    "season.started": "🗓️ {season} starts now: everyone's rating starts afresh. The final "
    "table of {previous}: `/af leaderboard season:{number}`.",
    "season.started_first": "🗓️ {season} starts now: the ratings of this server's games "
    "count from here.",
    "season.admins_only": "Only members who can manage this server can start a season.",
    "season.unknown": "This server has no season {season}.",
    "leaderboard.rated_header": "🏆 **This server's best players**, {season} (by rating):",
    "leaderboard.rated_line": Plural(
        "{place}. {name} — **{rating}** · {wins} of {games} game won",
        "{place}. {name} — **{rating}** · {wins} of {games} games won",
        "games",
    ),
    "leaderboard.provisional": Plural(
        "_Provisional, fewer than {count} game:_",
        "_Provisional, fewer than {count} games:_",
        "count",
    ),
    "leaderboard.provisional_line": Plural(
        "• {name} — {rating} · {wins} of {games} game won",
        "• {name} — {rating} · {wins} of {games} games won",
        "games",
    ),
    "leaderboard.none_settled": Plural(
        "_Nobody has a settled rating yet: it takes {count} rated game._",
        "_Nobody has a settled rating yet: it takes {count} rated games._",
        "count",
    ),
    "leaderboard.season_empty": "No game has been rated in {season}.",
    "over.ratings": "📈 Ratings: {changes}",
    "over.rating_change": "{name} {rating} ({details})",
    "over.rating_provisional": "provisional",
}

# ---- the hint's reasons, the coach's lines (bot/play/coach_things.py) ------------------------
HINT_EN: Final[dict[str, Source]] = {
    "cmd.coach.description": "The coach: a line on each facility, card or bonus new to you",
    "cmd.coach.mode": "On or off (without it: whether the coach is on)",
    "cmd.coach.on": "on",
    "cmd.coach.off": "off",
    "coach.is_on": "🎓 The coach is on: the first time in a game you can use a facility, a "
    "card or a territory bonus you have never used, your turn message explains it before "
    "you pick. `/af coach mode:off` stops it.",
    "coach.is_off": "The coach is off. `/af coach mode:on` explains each facility, card and "
    "territory bonus the first time you can use it.",
    # A pick of the hint with why (engine.ai.reasons: one key per kind of reason, said
    # after the pick's label; seats and things as in the other texts).
    "hint.why.line": "{number}. {action} → {reason}",
    "hint.why.win": "wins the game",
    "hint.why.colony": "+1 VP: a colony on {territory}",
    "hint.why.control": "+2 VP: a colony and control of {territory}",
    "hint.why.control_positron": "+3 VP: a colony, control of {territory} and its Positron Field",
    "hint.why.control_gain": "gives you control of {territory}",
    "hint.why.take": "takes {territory} from {player}",
    "hint.why.deny": "{player} loses control of {territory}",
    "hint.why.colony_for": "pays for a colony on {territory}",
    "hint.why.colony_paid": "pays for a colony (+1 VP)",
    "hint.why.hub": "the colony moves to space {space} of 7",
    "hint.why.hub_ready": "the colony reaches space 7: ready to launch",
    "hint.why.ship": "one more ship to roll ({number} in play)",
    "hint.why.relic": "the relic ship: one more ship to roll",
    "hint.why.card": "{card} is yours",
    "hint.why.card_vp": "+1 VP: {card}",
    "hint.why.steal_card": "takes {card} from {victim}",
    "hint.why.artifact": "toward a card: {total} of 8",
    "hint.why.artifact_ready": "8 or more: you may claim a card",
    "hint.why.cycle": "new cards to choose from",
    "hint.why.artifact_cycle": "lets you cycle the display for new cards",
    "hint.why.market": Plural(
        "trades {rate} fuel for 1 ore this turn", "trades {rate} fuel for 1 ore this turn", "rate"
    ),
    # Resources gained, and what they pay for: each has a variant per resource.
    "hint.why.gain": Plural("+{amount} {resource}", "+{amount} {resource}", "amount"),
    "hint.why.gain.fuel": Plural("+{amount} fuel", "+{amount} fuel", "amount"),
    "hint.why.gain.ore": Plural("+{amount} ore", "+{amount} ore", "amount"),
    "hint.why.gain_colony": Plural(
        "+{amount} {resource}: a colony next turn",
        "+{amount} {resource}: a colony next turn",
        "amount",
    ),
    "hint.why.gain_colony.fuel": Plural(
        "+{amount} fuel: a colony next turn", "+{amount} fuel: a colony next turn", "amount"
    ),
    "hint.why.gain_colony.ore": Plural(
        "+{amount} ore: a colony next turn", "+{amount} ore: a colony next turn", "amount"
    ),
    "hint.why.gain_colony_six": Plural(
        "+{amount} {resource}: a colony next turn if you roll a 6",
        "+{amount} {resource}: a colony next turn if you roll a 6",
        "amount",
    ),
    "hint.why.gain_colony_six.fuel": Plural(
        "+{amount} fuel: a colony next turn if you roll a 6",
        "+{amount} fuel: a colony next turn if you roll a 6",
        "amount",
    ),
    "hint.why.gain_colony_six.ore": Plural(
        "+{amount} ore: a colony next turn if you roll a 6",
        "+{amount} ore: a colony next turn if you roll a 6",
        "amount",
    ),
    "hint.why.gain_colony_three": Plural(
        "+{amount} {resource}: a colony next turn if you roll three alike",
        "+{amount} {resource}: a colony next turn if you roll three alike",
        "amount",
    ),
    "hint.why.gain_colony_three.fuel": Plural(
        "+{amount} fuel: a colony next turn if you roll three alike",
        "+{amount} fuel: a colony next turn if you roll three alike",
        "amount",
    ),
    "hint.why.gain_colony_three.ore": Plural(
        "+{amount} ore: a colony next turn if you roll three alike",
        "+{amount} ore: a colony next turn if you roll three alike",
        "amount",
    ),
    "hint.why.gain_colony_now": Plural(
        "+{amount} {resource}: a colony this turn",
        "+{amount} {resource}: a colony this turn",
        "amount",
    ),
    "hint.why.gain_colony_now.fuel": Plural(
        "+{amount} fuel: a colony this turn", "+{amount} fuel: a colony this turn", "amount"
    ),
    "hint.why.gain_colony_now.ore": Plural(
        "+{amount} ore: a colony this turn", "+{amount} ore: a colony this turn", "amount"
    ),
    "hint.why.gain_ship": Plural(
        "+{amount} {resource}: a new ship next turn if you roll a pair",
        "+{amount} {resource}: a new ship next turn if you roll a pair",
        "amount",
    ),
    "hint.why.gain_ship.fuel": Plural(
        "+{amount} fuel: a new ship next turn if you roll a pair",
        "+{amount} fuel: a new ship next turn if you roll a pair",
        "amount",
    ),
    "hint.why.gain_ship.ore": Plural(
        "+{amount} ore: a new ship next turn if you roll a pair",
        "+{amount} ore: a new ship next turn if you roll a pair",
        "amount",
    ),
    "hint.why.gain_ship_now": Plural(
        "+{amount} {resource}: a new ship this turn",
        "+{amount} {resource}: a new ship this turn",
        "amount",
    ),
    "hint.why.gain_ship_now.fuel": Plural(
        "+{amount} fuel: a new ship this turn", "+{amount} fuel: a new ship this turn", "amount"
    ),
    "hint.why.gain_ship_now.ore": Plural(
        "+{amount} ore: a new ship this turn", "+{amount} ore: a new ship this turn", "amount"
    ),
    "hint.why.steal": Plural(
        "+{amount} {resource} from {victim}", "+{amount} {resource} from {victim}", "amount"
    ),
    "hint.why.steal.fuel": Plural(
        "+{amount} fuel from {victim}", "+{amount} fuel from {victim}", "amount"
    ),
    "hint.why.steal.ore": Plural(
        "+{amount} ore from {victim}", "+{amount} ore from {victim}", "amount"
    ),
    "hint.why.block_raid": "keeps {player} from raiding you",
    "hint.why.block_facility": "holds the {facility} before {player} can use it",
    "hint.why.raid": "a raid: up to 4 resources or a card",
    "hint.why.clear": "clears the {facility} for your ships",
    "hint.why.blast": "knocks {player}'s ship off the {facility}",
    "hint.why.destroy": "{player} loses a ship",
    "hint.why.tune": "makes a {value} for the {facility}",
    "hint.why.borrow": "the bonus of {territory} this turn",
    "hint.why.move": "uses the {facility} once more",
    "hint.why.isolate": "voids {player}'s bonus of {territory}",
    "hint.why.positron": "+1 VP: the Positron Field on {territory}",
    "hint.why.repulsor": "locks your lead on {territory}",
    "hint.why.field_free": "frees your bonus of {territory}",
    "hint.why.field": "the {field} goes to {territory}",
    "hint.why.field_off": "removes the {field}",
    "hint.why.end": "nothing more pays off this turn",
    "hint.why.stop": "nothing more worth taking",
    "hint.why.stop_firing": "no other shot worth its fuel",
    "hint.why.keep": "keeps what is worth most to you",
    "hint.why.keep.fuel": "keeps fuel: worth more to you now than ore",
    "hint.why.keep.ore": "keeps ore: worth more to you now than fuel",
    "hint.why.best": "the best option by the AI's count",
    # A pick that needs chance to go the plan's way (engine.ai.reasons.Reason.luck): the
    # card claimed itself, or any other reason, said with its condition.
    "hint.why.card_if": "{card} is yours if it turns up",
    "hint.if.card": "{reason}, if {card} turns up",
    "hint.if.cards": "{reason}, if the cards turn up so",
    "hint.if.dice": "{reason}, if the dice fall so",
    # The coach (bot.play.coach_things): one line on a thing the first time a member can use it.
    "coach.facility.solar": "🎓 Solar Converter: any ship docks and gives fuel: 1 for a 1 or "
    "2, 2 for a 3 or 4, 3 for a 5 or 6.",
    "coach.facility.mine": "🎓 Lunar Mine: 1 ore per ship, but each ship must be at least as "
    "high as the highest one already docked there.",
    "coach.facility.market": "🎓 Orbital Market: dock a pair, then trade fuel equal to its value "
    "for 1 ore, as often as you like this turn.",
    "coach.facility.yard": "🎓 Shipyard: dock a pair and pay for a new ship: the 4th costs 1 "
    "fuel + 1 ore, the 5th 2 + 2, the 6th 3 + 3.",
    "coach.facility.constructor": "🎓 Colony Constructor: three equal ships and 3 ore place a "
    "colony on any territory.",
    "coach.facility.hub": "🎓 Colony Hub: each ship moves your colony one space; on space 7, "
    "launch it for 1 fuel + 1 ore onto any territory.",
    "coach.facility.terraform": "🎓 Terraforming Station: a 6 and 1 fuel + 1 ore place a colony; "
    "the ship is used up and goes back to your stock.",
    "coach.facility.artifact": "🎓 Alien Artifact: each ship lets you cycle the 3 cards on "
    "display; ships totalling 8 or more let you claim one.",
    "coach.facility.raiders": "🎓 Raiders' Outpost: three ships in a row (like 2-3-4) steal up "
    "to 4 resources, or one card, from your opponents.",
    "coach.bonus.asimov": "🎓 Bonus of Asimov Crater: dock 2 or more ships at the Colony Hub in "
    "a turn and your colony moves one extra space.",
    "coach.bonus.bradbury": "🎓 Bonus of Bradbury Plateau: the Colony Constructor costs you 2 "
    "ore instead of 3.",
    "coach.bonus.burroughs": "🎓 Bonus of Burroughs Desert: buy the relic ship for 1 fuel + 1 "
    "ore, an extra ship for as long as you control the desert.",
    "coach.bonus.heinlein": "🎓 Bonus of Heinlein Plains: at the Orbital Market you trade 1 "
    "fuel for 1 ore, whatever your pair.",
    "coach.bonus.herbert": "🎓 Bonus of Herbert Valley: each ship from the Shipyard costs you 1 "
    "fuel and 1 ore less (the 4th is free).",
    "coach.bonus.lem": "🎓 Bonus of Lem Badlands: +1 fuel for every ship you dock at the Solar "
    "Converter.",
    "coach.bonus.pohl": "🎓 Bonus of Pohl Foothills: every alien tech fuel power costs you 1 "
    "fuel less.",
    "coach.bonus.vanvogt": "🎓 Bonus of Van Vogt Mountains: your first ship at the Lunar Mine "
    "each turn may show any value.",
    "coach.card.booster": "🎓 Booster Pod: for 1 fuel, add 1 to an undocked ship. Discard it to "
    "remove a field generator from the planet.",
    "coach.card.crystal": "🎓 Data Crystal: pay fuel equal to a territory's colonies to use its "
    "bonus this turn. Discard: place or move the Positron Field.",
    "coach.card.gravity": "🎓 Gravity Manipulator: for 2 fuel, take 1 off one undocked ship and "
    "add 1 to another. Discard: place or move the Repulsor Field.",
    "coach.card.decoy": "🎓 Holographic Decoy: raiders cannot take your resources, and a raider "
    "taking a card from you may take only the Decoy.",
    "coach.card.teleporter": "🎓 Orbital Teleporter: for 2 fuel, move one of your docked ships to "
    "another facility and use it again. Discard: move a colony.",
    "coach.card.plasma": "🎓 Plasma Cannon: for 1 fuel a ship, send opponents' ships at one "
    "facility to their bay. Discard: send one to its stock.",
    "coach.card.polarity": "🎓 Polarity Device: for 1 fuel, turn an undocked ship over (1↔6, 2↔5, "
    "3↔4). Discard: swap two players' colonies.",
    "coach.card.cache": "🎓 Resource Cache: after your roll, more odd ships give 1 ore, more "
    "even 1 fuel; a tie gives both and the card goes.",
    "coach.card.stasis": "🎓 Stasis Beam: for 1 fuel, take 1 off an undocked ship. Discard: place "
    "or move the Isolation Field, voiding a territory's bonus.",
    "coach.card.warper": "🎓 Temporal Warper: for 1 fuel, reroll any of your undocked ships. "
    "Discard: take any card from the discard pile.",
    "coach.card.city": "🎓 Alien City: worth 1 VP for as long as you hold it; it has no power.",
    "coach.card.monument": "🎓 Alien Monument: worth 1 VP for as long as you hold it; it has no "
    "power.",
    "coach.card.helm": "🎓 Mind Control Helm: for 3 fuel, move an opponent's docked ship to "
    "another facility and use it as yours there.",
}

# ---- the guided first game, /af learn (bot/play/learn) ----------------------------------------
LEARN_EN: Final[dict[str, Source]] = {
    "cmd.learn.description": "Learn to play: a guided game against an easy AI",
    "cmd.learn.restart": "Start your guided game again from the beginning",
    "learning.thread": "Lesson: Alien Frontiers for {name}",
    "learning.started": "📘 Your guided game starts in {channel}: follow the lesson of each turn "
    "and the ⭐ pick of the panel, or play any other move.",
    "learning.resume": "📘 Your guided game goes on in {channel} ({link}). To start it again: "
    "`/af learn restart:true`.",
    "learning.over": "🎓 That was the whole game. Next: `/af new` for a real one (with AI "
    "seats or friends), and `/af coach mode:on` for a line on anything new to you.",
    "learning.no_place": "I cannot open a thread here and this channel has a game already: use "
    "`/af learn` in another channel.",
    # Lessons: at most three lines of 60 characters on a phone
    # (tests/bot/play/learn/test_learn_script.py). Each states its rule as the rulebook
    # does; tests/bot/play/learn/test_learn_claims.py holds them to the engine.
    "learn.goal": "🎯 Goal: colonies on the planet, 1 VP each. Most colonies on a territory "
    "control it: +1 VP and its bonus. The game ends when someone places their last colony.",
    "learn.lesson.solar": "Your ships are dice: dock each one at a facility. Solar Converter: "
    "fuel for any ship, 1 for a 1-2, 2 for a 3-4, 3 for a 5-6.",
    "learn.lesson.mine": "Lunar Mine: 1 ore per ship, but a ship must be at least the highest "
    "value already docked there. Dock your {values}.",
    "learn.lesson.hub": "Colony Hub: each ship you dock here moves your colony one space along "
    "your track. At space 7 it is ready to launch.",
    "learn.lesson.end_turn": "You must dock every ship that can dock; the rest go to the "
    "Maintenance Bay. End your turn: ships stay till your next. Over 8 resources? Return the "
    "excess.",
    "learn.lesson.use": "Alien tech: once a turn, Stasis Beam takes 1 off an undocked ship of "
    "yours for 1 fuel. Your {old} becomes a {new}: a pair for the Shipyard.",
    "learn.lesson.use.plain": "Alien tech: once a turn, Stasis Beam takes 1 off an undocked ship "
    "of yours for 1 fuel: your {old} becomes a {new}.",
    "learn.lesson.yard": "Shipyard: a pair buys a ship from your stock: the 4th 1 fuel + 1 ore, "
    "5th 2 + 2, 6th 3 + 3; none once the stock is empty. It rolls from next turn.",
    "learn.lesson.vanvogt": "Lunar Mine again. Tip: whoever controls Van Vogt Mountains may dock "
    "their first ship here each turn at any value.",
    "learn.lesson.closed": "With 2 players, neutral ships showing 1 fill some docks for good: the "
    "Orbital Market, the Shipyard and the Colony Constructor take one set each.",
    "learn.lesson.market": "Orbital Market: dock a pair. All this turn you may trade fuel for "
    "ore: as much fuel as the pair shows buys 1 ore.",
    "learn.lesson.heinlein": Plural(
        "Trade {rate} fuel for 1 ore. Tip: whoever controls Heinlein Plains always trades 1 "
        "fuel for 1 ore.",
        "Trade {rate} fuel for 1 ore. Tip: whoever controls Heinlein Plains always trades 1 "
        "fuel for 1 ore.",
        "rate",
    ),
    "learn.lesson.heinlein.setup": "To trade fuel for ore you need a pair at the Orbital Market "
    "this turn: dock {values} there.",
    "learn.lesson.artifact": "Alien Artifact: when your ships docked here this turn total 8 or "
    "more, claim a face-up card; the total then starts again from 0.",
    "learn.lesson.claim": "Claim {card}. Cards are public, one of each per player, usable the "
    "turn you get them; a Resource Cache pays from your next roll.",
    "learn.lesson.claim.setup": "To claim a card, your ships at the Alien Artifact must total 8 "
    "or more this turn: dock your {values} there.",
    "learn.lesson.pohl": "Stasis Beam again: your {old} becomes a {new} for a run. Tip: Pohl "
    "Foothills' controller pays 1 fuel less for each card power.",
    "learn.lesson.raiders": "Raiders' Outpost: dock three values in a row, then take up to 4 "
    "resources or a card. A run with a higher sum pushes out the ships there.",
    "learn.lesson.steal": "Take {card} from {victim}: the card is worth 1 VP to whoever holds "
    "it. (A card you hold already would only be discarded.)",
    "learn.lesson.steal.resources": "Take {victim}'s resources, one at a time: up to 4 in all, "
    "in any mix of fuel and ore.",
    "learn.lesson.steal.setup": "Dock a run at the Raiders' Outpost again, your {values}: then "
    "take up to 4 resources or a card from {victim}.",
    "learn.lesson.constructor": "Colony Constructor: dock three equal values and pay 3 ore to "
    "place a colony on any territory.",
    "learn.lesson.colony": "A colony is 1 VP. Most colonies on a territory control it: +1 VP "
    "and its bonus; a tie, nobody; lose the lead, lose both. Try {territory}.",
    "learn.lesson.colony.setup": "A colony is 1 VP, and control of its territory 1 more. Pay "
    "for one: dock {values} at the {facility}.",
    "learn.lesson.lem": "Solar Converter again. Tip: whoever controls Lem Badlands gets +1 fuel "
    "for each ship docked here.",
    "learn.lesson.crystal": "Data Crystal's fuel power: pay 1 fuel per colony on a territory "
    "(never Burroughs Desert) to use its bonus this turn as if you controlled it.",
    "learn.lesson.terraform": "Terraforming Station: a 6 and 1 fuel + 1 ore place a colony. The "
    "ship is used up, back to your stock: you need 4 ships of your colour.",
    "learn.lesson.terraform.setup": "The Terraforming Station uses up a ship and you must keep "
    "3: build a 4th first. Dock {values} at the Shipyard.",
    "learn.lesson.bradbury": "Place it on Bradbury Plateau: whoever controls it pays only 2 ore "
    "at the Colony Constructor.",
    "learn.lesson.bradbury.setup": "Your next colony: Bradbury Plateau, whose controller pays 2 "
    "ore at the Colony Constructor. Pay: dock {values} at the {facility}.",
    "learn.lesson.positron": "A card's other power is its discard: one a turn, of a card not "
    "used this turn. Data Crystal's: the Positron Field on {territory}, +1 VP to its "
    "controller.",
    "learn.lesson.asimov": "Asimov Crater's controller: once a turn, with 2 or more ships "
    "docked at the Colony Hub this turn, the colony moves 1 extra space.",
    "learn.lesson.asimov.setup": "Asimov Crater: its controller's colony moves 1 more space "
    "with 2+ ships at the Colony Hub in a turn. For a colony there, dock {values} at the "
    "{facility}.",
    "learn.lesson.asimov.place": "Place it on Asimov Crater: its controller's colony moves 1 "
    "extra space with 2 or more ships docked at the Colony Hub in a turn.",
    "learn.lesson.launch": "At space 7, launch your colony for 1 fuel + 1 ore and place it on "
    "any territory. Steps past 7 start your next colony on the track.",
    "learn.lesson.burroughs": "Place it on Burroughs Desert: whoever controls it may buy the "
    "relic ship, an extra ship without a colour.",
    "learn.lesson.burroughs.setup": "Your next colony: Burroughs Desert, whose controller may "
    "buy the relic ship. Pay: dock {values} at the {facility}.",
    "learn.lesson.relic": "Buy the relic ship for 1 fuel + 1 ore: it rolls with your ships from "
    "next turn. Lose the desert, or use it at the Terraforming Station: back it goes.",
    "learn.lesson.relic.place": "Place it on Burroughs Desert: its controller may buy the relic "
    "ship, an extra ship, for 1 fuel + 1 ore.",
    "learn.lesson.relic.setup": "The relic ship is for whoever controls Burroughs Desert: put a "
    "colony there. Pay: dock {values} at the {facility}.",
    "learn.lesson.isolation": "Discard Stasis Beam: the Isolation Field on {territory} voids "
    "that territory's bonus, even for its controller.",
    "learn.lesson.cycle": "Each ship at the Alien Artifact also lets you cycle: discard the 3 "
    "face-up cards and lay out 3 new ones.",
    "learn.lesson.gravity": "Gravity Manipulator, once a turn for 2 fuel: −1 on one undocked "
    "ship, +1 on another. Your {down} and {up} become {lower} and {higher}.",
    "learn.lesson.repulsor": "Discard Gravity Manipulator: the Repulsor Field on {territory} "
    "stops colonies being added there or taken away.",
    "learn.lesson.herbert": "Shipyard again. Tip: whoever controls Herbert Valley pays 1 fuel "
    "and 1 ore less for each new ship.",
    "learn.lesson.raided": "The AI raided you. A run at the Raiders' Outpost is pushed out by a "
    "run with a higher sum: its ships total {sum}, so dock {values}.",
    "learn.lesson.decoy": "Holographic Decoy: a raid takes none of its owner's resources, and of "
    "their cards it may take only the Decoy.",
    "learn.lesson.plasma": "Plasma Cannon: for 1 fuel a ship, send opponents' ships at one "
    "facility to their bay: the AI's at the {facility}. Discard: one to its stock (3 kept).",
    "learn.lesson.booster": "Booster Pod: for 1 fuel, +1 on an undocked ship: your {old} becomes "
    "a {new}. Discard: take a field generator off the planet.",
    "learn.lesson.teleporter": "Orbital Teleporter: for 2 fuel, move a docked ship to another "
    "facility and use it there: your {value} from the {source} to the {target}.",
    "learn.lesson.polarity": "Polarity Device: for 1 fuel, turn an undocked ship over (1↔6, "
    "2↔5, 3↔4): your {old} becomes a {new}. Discard: swap two colonies.",
    "learn.lesson.lock": "A ship on the Terraforming Station cannot be moved by the Orbital "
    "Teleporter; a Plasma Cannon can remove it, to its owner's stock.",
    "learn.lesson.warper": "Temporal Warper: for 1 fuel, reroll any undocked ships of yours: "
    "your {values}. Discard: take any card from the discard pile.",
    "learn.lesson.monument": "Claim Alien Monument: 1 VP while you hold it. VP also come from "
    "colonies, territories you control, the Positron Field and Alien City.",
    "learn.lesson.monument.gone": "VP: 1 per colony, per territory you control, 1 more for "
    "controlling the Positron Field's, 1 for Alien City and Alien Monument while held.",
    "learn.lesson.cache": "Claim Resource Cache: from your next roll on, more odd ships give 1 "
    "ore, more even 1 fuel; a tie gives both and the card goes.",
    "learn.lesson.cache.gone": "Resource Cache, none left to claim: after its holder's roll, "
    "more odd ships give 1 ore, more even 1 fuel; a tie gives both and the card goes.",
    # A lesson's rule said without its pick (bot.play.learn.lessons.FALLBACK).
    "learn.lesson.claim.gone": "Cards: claim one at the Alien Artifact with 8 or more there in "
    "a turn. Public, one of each per player, usable at once (a Resource Cache: next roll).",
    "learn.lesson.end_turn.gone": "A turn ends once no ship can dock: the rest go to the "
    "Maintenance Bay, and ships stay docked till your next turn. Over 8 resources: return the "
    "excess.",
    "learn.lesson.steal.gone": "A raid takes up to 4 resources, in any mix, or one card from an "
    "opponent; Alien City and Alien Monument are worth 1 VP to whoever holds them.",
    "learn.lesson.colony.gone": "A colony is 1 VP. Most colonies on a territory control it: +1 "
    "VP and its bonus; a tie, nobody; lose the lead, lose both.",
    "learn.lesson.relic.gone": "Whoever controls Burroughs Desert may buy the relic ship for 1 "
    "fuel + 1 ore: an extra ship, until they lose the desert.",
    "learn.lesson.raided.gone": "Raiders take up to 4 resources or a card. A Holographic Decoy "
    "keeps your resources safe; a run there falls only to a higher sum.",
    "learn.lesson.last_colony": "Your last colony is not bound to the Colony Hub: even on its "
    "track, the Terraforming Station or the Colony Constructor may place it.",
    "learn.lesson.end_game": "The game ends the moment someone places their last colony. Most VP "
    "wins; a tie goes to most cards, then ore, then fuel.",
    # A card lesson set up again: the card claimed first.
    "learn.setup.card": "Next: {card}. Dock {values} at the Alien Artifact: at 8 or more this "
    "turn you may claim it.",
    "learn.setup.card.deck": "Next: {card}. Dock {values} at the Alien Artifact: each ship there "
    "lets you cycle the display for it, and 8 or more this turn a claim.",
    "learn.setup.card.claim": "Claim {card}: the next lesson is about it.",
    "learn.setup.card.cycle": "Cycle the display: {card} may come up.",
    # Above the lesson: a pick that gives a card up.
    "learn.warn.discard": "⚠ The “Discard …” picks give a card up for good.",
    "learn.warn.discard.keep": "⚠ The “Discard …” picks give a card up for good: keep {card} for "
    "a later lesson.",
    # The script is over; the hint in a guided game.
    "learn.over": "📘 Lessons over — you are on your own now; 💡 Hint still works.",
    "learn.hint.header": "💡 The ⭐ picks for the rest of your turn, as the lessons mark them:",
    "learn.hint.differs.lesson": "The normal AI would start with {action} → {reason}; the ⭐ "
    "pick is this turn's lesson (📘).",
    "learn.hint.differs.lesson.plain": "The normal AI would start with {action}; the ⭐ pick is "
    "this turn's lesson (📘).",
    "learn.hint.differs.step": "The normal AI would start with {action} → {reason}; the ⭐ pick "
    "keeps to the lessons' plan.",
    "learn.hint.differs.step.plain": "The normal AI would start with {action}; the ⭐ pick "
    "keeps to the lessons' plan.",
    # Steps: one line at a decision no lesson is about.
    "learn.step.place": "Place the colony on {territory}.",
    "learn.step.steal.ore": "Take 1 ore from {victim}.",
    "learn.step.steal.fuel": "Take 1 fuel from {victim}.",
    "learn.step.steal.card": "Take {card} from {victim}.",
    "learn.step.done": "Nothing more to take: stop here.",
    "learn.step.done.held": "Only cards you hold are left (taken, one would be discarded): stop "
    "here.",
    "learn.step.hit": "Fire again, 1 fuel: {victim}'s {value} at the {facility} to their bay.",
    "learn.step.plasma.stop": "Stop firing: keep your fuel for the next lessons.",
    "learn.step.return.fuel": "Keep 8 resources: return {fuel} fuel.",
    "learn.step.return.ore": "Keep 8 resources: return {ore} ore.",
    "learn.step.return.both": "Keep 8 resources: return {fuel} fuel and {ore} ore.",
    "learn.step.claim": "Claim {card}.",
    "learn.step.cycle": "Cycle the display first: the card you need may come up.",
    "learn.step.launch": "Your colony is on space 7: launch it.",
    "learn.step.trade": Plural(
        "Trade {rate} fuel for 1 ore: the next lessons need ore.",
        "Trade {rate} fuel for 1 ore: the next lessons need ore.",
        "rate",
    ),
    "learn.step.artifact": "Dock {values} at the Alien Artifact too: the total reaches 8.",
    "learn.step.mine": "Dock {values} at the Lunar Mine for ore.",
    "learn.step.solar": "Dock {values} at the Solar Converter for fuel.",
    "learn.step.hub": "Dock {values} at the Colony Hub: your colony moves on.",
    "learn.step.dock": "Dock {values} at the {facility}.",
    "learn.step.end": "Nothing left to dock: end your turn.",
    "learn.step.any": "The marked move is a good one.",
    # What another pick did, then whether the lesson it passed by comes back (learn.back*).
    "learn.did.fuel": Plural(
        "You docked at the {facility}: +{fuel} fuel.",
        "You docked at the {facility}: +{fuel} fuel.",
        "fuel",
    ),
    "learn.did.ore": Plural(
        "You docked at the {facility}: +{ore} ore.",
        "You docked at the {facility}: +{ore} ore.",
        "ore",
    ),
    "learn.did.hub": "You docked at the Colony Hub: your colony is on space {space}.",
    "learn.did.ship": "You built a ship at the Shipyard.",
    "learn.did.dock": "You docked {values} at the {facility}.",
    "learn.did.trade": Plural(
        "You traded {fuel} fuel for 1 ore.", "You traded {fuel} fuel for 1 ore.", "fuel"
    ),
    "learn.did.trades": Plural(
        "You traded {times} time, {rate} fuel for 1 ore each.",
        "You traded {times} times, {rate} fuel for 1 ore each.",
        "times",
    ),
    "learn.did.colony": "Your colony went to {territory}.",
    "learn.did.card": "You claimed {card}.",
    "learn.did.steal": "You took {fuel} fuel and {ore} ore from {victim}.",
    "learn.did.steal.fuel": Plural(
        "You took {fuel} fuel from {victim}.", "You took {fuel} fuel from {victim}.", "fuel"
    ),
    "learn.did.steal.ore": Plural(
        "You took {ore} ore from {victim}.", "You took {ore} ore from {victim}.", "ore"
    ),
    "learn.did.steal_card": "You took {card} from {victim}.",
    "learn.did.plasma": Plural(
        "You fired at the {facility}: {count} ship to its owner's bay.",
        "You fired at the {facility}: {count} ships to their owners' bay.",
        "count",
    ),
    "learn.did.stop.raid": "You took nothing more.",
    "learn.did.stop.plasma": "You stopped firing.",
    "learn.did.return": "You returned {fuel} fuel and {ore} ore.",
    "learn.did.return.fuel": Plural(
        "You returned {fuel} fuel.", "You returned {fuel} fuel.", "fuel"
    ),
    "learn.did.return.ore": Plural("You returned {ore} ore.", "You returned {ore} ore.", "ore"),
    "learn.did.discard.booster": "You discarded Booster Pod: the {field} left the planet.",
    "learn.did.discard.teleporter": "You discarded Orbital Teleporter: {owner}'s colony went from "
    "{source} to {target}.",
    "learn.did.discard.polarity": "You discarded Polarity Device: {owner_a}'s colony on "
    "{territory_a} and {owner_b}'s on {territory_b} swapped places.",
    "learn.did.discard.plasma": "You discarded Plasma Cannon: {owner}'s {value} at the {facility} "
    "went back to their stock.",
    "learn.did.discard.warper": "You discarded Temporal Warper and took {card} from the discard "
    "pile.",
    "learn.did.field.isolation": "You discarded {card}: the Isolation Field on {territory} "
    "voids its bonus, even for its controller.",
    "learn.did.field.positron": "You discarded {card}: the Positron Field on {territory} gives "
    "its controller 1 more VP.",
    "learn.did.field.repulsor": "You discarded {card}: with the Repulsor Field on {territory}, "
    "no colony may be added there or taken away.",
    "learn.did.launch": "You launched your colony.",
    "learn.did.relic": "You bought the relic ship.",
    "learn.did.cycle": "You cycled the alien tech display.",
    "learn.did.end": "You ended your turn.",
    "learn.did.use": "You used {card}.",
    "learn.did.discard": "You discarded {card}.",
    "learn.did.other": "You chose another move than the marked one.",
    "learn.back": "This lesson comes back later.",
    "learn.back.now": "The lesson goes on: see 📘.",
    "learn.back.rule": "Its turns are over: its rule is said with a later pick.",
    "learn.back.last": "This was the lesson's last turn: you can still do it on your own.",
    "learn.cut": "Your pick stopped here: this choice has its lesson (📘).",
}

SOURCES: Final[dict[str, Source]] = {
    **{f"name.{thing}": english for thing, english in NAMES_EN.items()},
    **MESSAGES_EN,
    **BOARD_EN,
    **LIVE_EN,
    **BOT_EN,
    **CHART_EN,
    **RATING_EN,
    **HINT_EN,
    **LEARN_EN,
}


def english(key: str) -> str:
    """The English text of a plain (not plural) key, e.g. for discord.py's ``locale_str``."""
    source = SOURCES[key]
    if isinstance(source, Plural):
        raise TypeError(f"{key} has plural forms")
    return source


def thing_name(thing: str, locale: str = "en") -> str:
    """Display name of a facility, territory, card, field or resource id in ``locale``."""
    key = f"name.{thing}"
    source = SOURCES.get(key)
    if source is None:
        return thing
    return i18n.template_for(key, source, i18n.language_of(locale), {})


def variant(key: str, params: Mapping[str, object] | None) -> str:
    """``key``'s variant for its parameters, if it has one: by the resource named
    (``stole_resource.fuel``), or by the one resource of a non-zero amount when the others
    are 0 (``returned.fuel`` for 2 fuel and 0 ore)."""
    params = params or {}
    for name in VARIANT_PARAMS:
        value = params.get(name)
        if isinstance(value, str) and f"{key}.{value}" in SOURCES:
            return f"{key}.{value}"
    amounts = {name: params.get(name) for name in AMOUNT_PARAMS}
    if all(isinstance(v, int) for v in amounts.values()):
        given = [name for name, v in amounts.items() if v]
        if len(given) == 1 and f"{key}.{given[0]}" in SOURCES:
            return f"{key}.{given[0]}"
    return key


def text(
    key: str,
    locale: str = "en",
    params: Mapping[str, object] | None = None,
    seat_names: Sequence[str] | None = None,
) -> str:
    """The text of ``key`` in ``locale`` (English where there is no translation), formatted.

    Parameters naming things of the game (``facility``, ``card``... as ids) are shown by
    their names in ``locale``, and seats (``player``, ``victim``... as 0-based ints) by
    ``seat_names`` or "P2".
    """
    language = i18n.language_of(locale)
    key = variant(key, params)
    source = SOURCES.get(key)
    if source is None:
        return key
    shown = shown_params(
        params,
        lambda thing: thing_name(thing, language),
        seat_names,
        lambda value: text("die.relic", language, {"value": value}),
    )
    return fill(i18n.template_for(key, source, language, shown), shown)

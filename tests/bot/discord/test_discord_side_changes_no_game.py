"""Discord's side (``bot/discord``) changes no object of the game's: it asks the game's jobs
(issue 43, "one way from a click to the board"). A game held in memory (``ActiveGame``: its
row, seats, board, the boards its turns left) changes only in ``bot/play``, after a commit
or as a job records what was shown. So no code of ``bot/discord`` sets an attribute of
another object, nor changes a collection held by one (``x.y.pop(...)``), but of discord.py's
own objects, named below with the reason each is changed."""

from __future__ import annotations

import ast
from pathlib import Path

DISCORD_SIDE = Path(__file__).resolve().parents[3] / "bot" / "discord"
MUTATING = frozenset(
    {
        "pop",
        "popitem",
        "clear",
        "update",
        "append",
        "extend",
        "insert",
        "add",
        "discard",
        "remove",
        "setdefault",
    }
)
# (file, what is changed): discord.py's objects, each changed on purpose.
DISCORD_PYS = {
    ("client.py", "intents.guilds"): "the gateway intents the client asks for",
    ("client.py", "discord.VoiceClient.warn_nacl"): "no voice: discord.py's warning off",
    ("client.py", "discord.VoiceClient.warn_dave"): "no voice: discord.py's warning off",
    ("deferral.py", "response.shared"): "the interaction's guarded response (ours)",
    ("deferral.py", "response._timer"): "the interaction's guarded response (ours)",
    ("deferral.py", "response._last_try"): "the interaction's guarded response (ours)",
    ("deferral.py", "interaction._cs_response"): "discord.py's interaction given its response",
    ("failures.py", "config.on_request_end.append"): "aiohttp's trace of each request",
}


def changes_of_others(source: str) -> list[tuple[int, str]]:
    """What a module changes of objects other than its own (``self``, ``cls``): attributes
    set or deleted (``setattr``, ``delattr`` too), and collections held by an attribute
    changed in place (a method that changes them, an item set or deleted). A local alias of
    such a collection is not followed."""
    found = []
    for node in ast.walk(ast.parse(source)):
        line = getattr(node, "lineno", 0)
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for target in targets:
            for part in ast.walk(target):
                if (
                    isinstance(part, ast.Attribute)
                    and isinstance(part.ctx, ast.Store)
                    and not (isinstance(part.value, ast.Name) and part.value.id in ("self", "cls"))
                ):
                    found.append((line, ast.unparse(part)))
        deleted = node.targets if isinstance(node, ast.Delete) else []
        for target in [*targets, *deleted]:
            # x.y[k] = v, del x.y[k], del x.y: what another object holds, changed in place
            held = target.value if isinstance(target, ast.Subscript) else target
            if (
                isinstance(held, ast.Attribute)
                and (isinstance(target, ast.Subscript) or isinstance(node, ast.Delete))
                and not (isinstance(held.value, ast.Name) and held.value.id in ("self", "cls"))
            ):
                found.append((line, ast.unparse(target)))
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("setattr", "delattr")
        ):
            found.append((line, ast.unparse(node.func)))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            held = node.func.value
            if (
                node.func.attr in MUTATING
                and isinstance(held, ast.Attribute)
                and not (isinstance(held.value, ast.Name) and held.value.id in ("self", "cls"))
            ):
                found.append((line, ast.unparse(node.func)))
    return found


def test_discord_side_changes_no_object_of_the_game() -> None:
    wrong = [
        f"bot/discord/{path.relative_to(DISCORD_SIDE)}:{line}: {what}"
        for path in sorted(DISCORD_SIDE.rglob("*.py"))
        for line, what in changes_of_others(path.read_text())
        if (path.name, what) not in DISCORD_PYS
    ]
    assert not wrong, "changed on Discord's side; ask a job of bot/play instead:\n" + "\n".join(
        wrong
    )


def test_the_check_finds_a_held_game_changed() -> None:
    """The courier's old way: the game shown set its turn message's id itself."""
    planted = (
        "def shown(game, message, turn):\n"
        "    game.row = replace(game.row, turn_message_id=message.id)\n"
        "    game.turn_ends.pop(turn, None)\n"
        "    self.kept = 1\n"
        "    game.turn_ends[turn] = None\n"
        "    del game.turn_ends[turn]\n"
        "    setattr(game, 'row', None)\n"
        "    kept = {}\n"
        "    kept[turn] = 1\n"
    )
    assert sorted(changes_of_others(planted)) == [
        (2, "game.row"),
        (3, "game.turn_ends.pop"),
        (5, "game.turn_ends[turn]"),
        (6, "game.turn_ends[turn]"),
        (7, "setattr"),
    ]


def test_every_exception_is_still_there() -> None:
    """An exception no longer needed is removed from the list (it would let one through)."""
    seen = {
        (path.name, what)
        for path in DISCORD_SIDE.rglob("*.py")
        for _, what in changes_of_others(path.read_text())
    }
    assert set(DISCORD_PYS) <= seen, set(DISCORD_PYS) - seen

"""One catalogue for every text: the keys the bot uses exist, and the slash commands'
descriptions and choice names come from it and reach Discord as localisations."""

from __future__ import annotations

import ast
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.app_commands import TranslationContext, TranslationContextLocation

from bot.client import AlienFrontiersBot, invite_url
from bot.strings import BOT_EN, CATALOGS
from bot.translator import CatalogTranslator, catalog_language, command_text
from tests.bot.table import make_bot
from tests.discord_fake import StartBot

BOT_DIR = Path(__file__).resolve().parents[2] / "bot"
# Functions whose first argument is a BOT_EN key (ServiceError's key is shown with ``text``).
KEY_FUNCTIONS = frozenset({"text", "command_text", "ServiceError"})
# Where discord.py would take a description or a choice name, and the argument holding it.
TEXT_ARGUMENTS = {"command": ("description",), "Group": ("description",), "Choice": ("name",)}
DESCRIBED = frozenset(
    {
        TranslationContextLocation.command_description,
        TranslationContextLocation.group_description,
        TranslationContextLocation.parameter_description,
        TranslationContextLocation.choice_name,
    }
)


def bot_sources() -> Iterator[tuple[Path, ast.Module]]:
    """The bot's modules, parsed (not ``bot/render``: its labels are ``board_label`` keys)."""
    for path in sorted(BOT_DIR.rglob("*.py")):
        if "render" not in path.relative_to(BOT_DIR).parts:
            yield path, ast.parse(path.read_text(), filename=str(path))


def called_name(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else None


def literal(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def in_catalogue(key: str) -> bool:
    """``key`` is in BOT_EN; ``prefix*`` (an f-string key) starts at least one key."""
    if key.endswith("*"):
        return any(k.startswith(key[:-1]) for k in BOT_EN)
    return key in BOT_EN


def test_every_key_used_in_the_bot_source_is_in_the_catalogue() -> None:
    used: list[tuple[str, str]] = []  # (where, key or "prefix*" of an f-string key)
    for path, tree in bot_sources():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            where = f"{path.relative_to(BOT_DIR.parent)}:{node.lineno}"
            args: list[ast.expr] = []
            if called_name(node) in KEY_FUNCTIONS and node.args:
                args.append(node.args[0])
            args += [k.value for k in node.keywords if k.arg == "key"]
            for arg in args:
                key = literal(arg)
                if key is not None:
                    used.append((where, key))
                elif isinstance(arg, ast.JoinedStr) and arg.values:
                    prefix = literal(arg.values[0])
                    if prefix:
                        used.append((where, prefix + "*"))
    assert len(used) > 80  # the scan does find the bot's texts
    missing = [(where, key) for where, key in used if not in_catalogue(key)]
    assert not missing, f"keys not in BOT_EN: {missing}"


def test_no_description_or_choice_name_literal_outside_the_catalogue() -> None:
    literals = []
    for path, tree in bot_sources():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = called_name(node)
            where = f"{path.relative_to(BOT_DIR.parent)}:{node.lineno}"
            checked = TEXT_ARGUMENTS.get(name or "", ())
            for k in node.keywords:
                if (name == "describe" or k.arg in checked) and literal(k.value) is not None:
                    literals.append((where, k.arg, literal(k.value)))
    # Autocomplete choices are built at run time from the catalogues; none is a literal.
    assert not literals, f"texts to move into BOT_EN: {literals}"


def test_command_texts_fit_discord_limits() -> None:
    for language, catalog in CATALOGS.items():
        for key, value in catalog.items():
            if key.startswith("cmd."):
                assert 1 <= len(value) <= 100, (language, key, value)


class Recorder(app_commands.Translator):
    """Records every string discord.py asks to translate (once, for one locale)."""

    def __init__(self) -> None:
        self.seen: list[tuple[TranslationContextLocation, app_commands.locale_str, Any]] = []

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if locale is discord.Locale.french:
            self.seen.append((context.location, string, context.data))
        return None


async def test_every_description_and_choice_name_of_the_tree_is_a_catalogue_text(
    tmp_path: Path, start_bot: StartBot
) -> None:
    h = await start_bot(make_bot(tmp_path / "af.db"))
    bot: AlienFrontiersBot = h.bot  # type: ignore[assignment]
    assert isinstance(bot.tree.translator, CatalogTranslator)
    recorder = Recorder()
    for command in bot.tree.get_commands():
        await command.get_translated_payload(bot.tree, recorder)
    described = [(where, s, data) for where, s, data in recorder.seen if where in DESCRIBED]
    names = [(where, s) for where, s, _ in recorder.seen if where not in DESCRIBED]
    # /af and its subcommands, /play; every option; the fixed choices.
    assert len([d for d in described if d[0] is not TranslationContextLocation.choice_name]) > 30
    assert {
        s.message for where, s, _ in described if where is TranslationContextLocation.choice_name
    } == {
        BOT_EN[key]
        for key in (
            *(f"cmd.bot.level.{level}" for level in ("easy", "normal", "hard")),
            *(f"cmd.timeout.{action}" for action in ("ai", "skip", "none")),
            "cmd.settings.scope.game",
            "cmd.settings.scope.server",
        )
    }
    for where, string, data in described:
        key = string.extras.get("key")
        what = getattr(data, "qualified_name", None) or getattr(data, "name", data)
        assert key in BOT_EN, f"{where.name} {string.message!r} of {what!r} has no catalogue key"
        assert string.message == BOT_EN[key]
    # Names stay English: discord.py wraps them itself, with no key to translate.
    assert names and all("key" not in s.extras for _, s in names)


async def test_translator_uses_the_catalogue_of_the_locale_or_none(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(CATALOGS, "ru", {"cmd.new.description": "Открыть новую игру"})
    monkeypatch.setitem(CATALOGS, "pl", {"cmd.new.description": "Otwórz nową grę"})
    translator = CatalogTranslator()
    context: app_commands.TranslationContextTypes = TranslationContext(
        TranslationContextLocation.other, None
    )
    new = command_text("cmd.new.description")
    assert new.message == BOT_EN["cmd.new.description"]
    assert new.extras == {"key": "cmd.new.description"}
    assert catalog_language(discord.Locale.russian) == "ru"
    assert catalog_language(discord.Locale.polish) == "pl"
    assert catalog_language(discord.Locale.brazil_portuguese) == "pt"
    assert await translator.translate(new, discord.Locale.russian, context) == "Открыть новую игру"
    assert await translator.translate(new, discord.Locale.polish, context) == "Otwórz nową grę"
    for locale in (
        discord.Locale.german,
        discord.Locale.american_english,
        discord.Locale.british_english,
    ):
        assert await translator.translate(new, locale, context) is None
    untranslated = command_text("cmd.join.description")  # not in the Russian catalogue
    assert await translator.translate(untranslated, discord.Locale.russian, context) is None
    no_key = app_commands.locale_str("new")
    assert await translator.translate(no_key, discord.Locale.russian, context) is None


async def test_translations_are_synced_and_change_the_sync_digest(
    tmp_path: Path, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = await start_bot(make_bot(tmp_path / "af.db"))
    bot: AlienFrontiersBot = h.bot  # type: ignore[assignment]
    synced = h.fake.find_command("af")
    assert synced is not None and synced["description"] == BOT_EN["cmd.af.description"]
    assert synced["description_localizations"] == {}
    assert not await bot.sync_commands()  # nothing changed since setup_hook synced

    monkeypatch.setitem(
        CATALOGS,
        "ru",
        {
            "cmd.af.description": "Alien Frontiers: создать игру, следить за ней",
            "cmd.new.players": "Сколько мест (2-4)",
            "cmd.bot.level.hard": "Сложный",
        },
    )
    assert await bot.sync_commands()  # a new translation is a change to sync
    assert not await bot.sync_commands()
    synced = h.fake.find_command("af")
    assert synced is not None
    assert synced["name_localizations"] == {}
    assert synced["description_localizations"] == {"ru": CATALOGS["ru"]["cmd.af.description"]}
    options = {o["name"]: o for o in synced["options"]}
    players = next(o for o in options["new"]["options"] if o["name"] == "players")
    assert players["description"] == BOT_EN["cmd.new.players"]
    assert players["description_localizations"] == {"ru": "Сколько мест (2-4)"}
    finite = next(o for o in options["new"]["options"] if o["name"] == "finite_supply")
    assert finite["description"] == BOT_EN["cmd.new.finite_supply"]
    (level,) = options["bot"]["options"]
    hard = next(c for c in level["choices"] if c["value"] == "hard")
    assert hard == {"name": "Hard", "value": "hard", "name_localizations": {"ru": "Сложный"}}


async def test_the_invite_link_is_logged_once_when_ready(
    tmp_path: Path, start_bot: StartBot, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="bot.client"):
        h = await start_bot(make_bot(tmp_path / "af.db"))
        await h.bot.on_ready()  # type: ignore[attr-defined]  # e.g. after a reconnect
    url = invite_url(h.fake.application_id)
    logged = [r.getMessage() for r in caplog.records if url in r.getMessage()]
    assert logged == [f"add the bot to a server with: {url}"]

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

from bot.discord.client import AlienFrontiersBot, invite_url
from bot.discord.cogs.channel_settings import language_choices
from bot.discord.translator import CatalogTranslator, catalog_language, command_text
from bot.text import i18n
from bot.text.strings import SOURCES, text
from tests.bot.table import make_bot
from tests.discord_fake import StartBot
from tests.discord_fake.payloads import OPT_SUB_COMMAND as SUB_COMMAND
from tests.discord_fake.payloads import OPT_SUB_COMMAND_GROUP as SUB_COMMAND_GROUP

BOT_DIR = Path(__file__).resolve().parents[3] / "bot"
# Functions whose first argument is a catalogue key (ServiceError's key is shown with ``text``).
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
    """``key`` is a source text; ``prefix*`` (an f-string key) starts at least one key."""
    if key.endswith("*"):
        return any(k.startswith(key[:-1]) for k in SOURCES)
    return key in SOURCES


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
    assert not missing, f"keys not in the catalogue: {missing}"


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
    assert not literals, f"texts to move into the catalogue: {literals}"


def test_command_texts_fit_discord_limits() -> None:
    keys = [k for k in SOURCES if k.startswith("cmd.")]
    assert len(keys) >= 25
    for language in i18n.languages():
        for key in keys:
            value = text(key, language)
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
    # The languages of /af new are named in themselves (from CLDR).
    endonyms = {c.name for c in language_choices()}
    assert endonyms == {"English", "Русский", "Polski"}
    assert {
        s.message for where, s, _ in described if where is TranslationContextLocation.choice_name
    } == {
        *endonyms,
        *(
            SOURCES[key]
            for key in (
                *(f"cmd.bot.level.{level}" for level in ("easy", "normal", "hard")),
                *(f"cmd.timeout.{action}" for action in ("ai", "skip", "none")),
                *(f"cmd.notify.{mode}" for mode in ("channel", "dm", "both", "off")),
                *(f"cmd.coach.{mode}" for mode in ("on", "off")),
                "cmd.settings.scope.game",
                "cmd.settings.scope.server",
            )
        ),
    }
    for where, string, data in described:
        if where is TranslationContextLocation.choice_name and string.message in endonyms:
            continue
        key = string.extras.get("key")
        what = getattr(data, "qualified_name", None) or getattr(data, "name", data)
        assert key in SOURCES, f"{where.name} {string.message!r} of {what!r} has no catalogue key"
        assert string.message == SOURCES[key]
    # Names stay English: discord.py wraps them itself, with no key to translate.
    assert names and all("key" not in s.extras for _, s in names)


async def test_translator_uses_the_catalogue_of_the_locale_or_none() -> None:
    translator = CatalogTranslator()
    context: app_commands.TranslationContextTypes = TranslationContext(
        TranslationContextLocation.other, None
    )
    new = command_text("cmd.new.description")
    assert new.message == SOURCES["cmd.new.description"]
    assert new.extras == {"key": "cmd.new.description"}
    assert catalog_language(discord.Locale.russian) == "ru"
    assert catalog_language(discord.Locale.polish) == "pl"
    assert catalog_language(discord.Locale.brazil_portuguese) == "pt"
    assert await translator.translate(new, discord.Locale.russian, context) == (
        "Открыть новую игру в этом канале"
    )
    assert await translator.translate(new, discord.Locale.polish, context) == (
        "Otwórz nową grę na tym kanale"
    )
    for locale in (
        discord.Locale.german,
        discord.Locale.american_english,
        discord.Locale.british_english,
    ):
        assert await translator.translate(new, locale, context) is None
    no_key = app_commands.locale_str("new")
    assert await translator.translate(no_key, discord.Locale.russian, context) is None


async def test_sync_sends_ru_and_pl_for_every_description_and_a_change_is_synced(
    tmp_path: Path, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = await start_bot(make_bot(tmp_path / "af.db"))
    bot: AlienFrontiersBot = h.bot  # type: ignore[assignment]
    described = 0

    def check(node: dict[str, Any], key: str) -> None:
        nonlocal described
        assert node["description"] == SOURCES[key], key
        assert node["description_localizations"] == {
            "ru": text(key, "ru"),
            "pl": text(key, "pl"),
        }, key
        assert len({node["description"], *node["description_localizations"].values()}) == 3
        described += 1

    af = h.fake.find_command("af")
    play = h.fake.find_command("play")
    undo = h.fake.find_command("undo")
    assert af is not None and play is not None and undo is not None
    assert af["name_localizations"] == {}  # names stay English
    check(af, "cmd.af.description")
    check(play, "cmd.play.description")
    check(play["options"][0], "cmd.play.move")
    check(undo, "cmd.undo.description")
    nodes = 0

    def walk(node: dict[str, Any], key: str) -> None:
        """A subcommand (or a group of them, like /af season) and its options."""
        nonlocal nodes
        check(node, f"{key}.description")
        nodes += 1
        for option in node.get("options", []):
            if option["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP):
                walk(option, f"{key}.{option['name']}")
            else:
                check(option, f"{key}.{option['name']}")
                nodes += 1

    for sub in af["options"]:
        walk(sub, f"cmd.{sub['name']}")
    subcommands = len(af["options"])
    assert 16 <= subcommands <= 25 and nodes >= subcommands + 20  # Discord's limit: 25
    assert described == 4 + nodes  # /af, /play, /play move, /undo, the rest
    options = {o["name"]: o for o in af["options"]}
    assert options["season"]["type"] == SUB_COMMAND_GROUP
    assert [o["name"] for o in options["season"]["options"]] == ["start"]
    (level,) = options["bot"]["options"]
    hard = next(c for c in level["choices"] if c["value"] == "hard")
    assert hard == {
        "name": "Hard",
        "value": "hard",
        "name_localizations": {"ru": "Сложный", "pl": "Trudny"},
    }
    assert not await bot.sync_commands()  # nothing changed since setup_hook synced

    real = i18n.translated

    def changed(key: str, source: str, language: str) -> str | None:
        found = real(key, source, language)
        return "Сколько мест?" if key == "cmd.new.players" and language == "ru" else found

    monkeypatch.setattr(i18n, "translated", changed)
    assert await bot.sync_commands()  # a changed translation is a change to sync
    assert not await bot.sync_commands()
    af = h.fake.find_command("af")
    assert af is not None
    new = next(o for o in af["options"] if o["name"] == "new")
    players = next(o for o in new["options"] if o["name"] == "players")
    assert players["description_localizations"]["ru"] == "Сколько мест?"


async def test_the_invite_link_is_logged_once_when_ready(
    tmp_path: Path, start_bot: StartBot, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="bot.discord.client"):
        h = await start_bot(make_bot(tmp_path / "af.db"))
        await h.bot.on_ready()  # type: ignore[attr-defined]  # e.g. after a reconnect
    url = invite_url(h.fake.application_id)
    logged = [r.getMessage() for r in caplog.records if url in r.getMessage()]
    assert logged == [f"add the bot to a server with: {url}"]

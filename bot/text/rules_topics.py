"""``/af rules``' topics: their names, their texts (a group's, each of its topics' or, when
too long for a message, each one's name and power), and the topic a member typed, in any
language."""

from __future__ import annotations

from bot.text import i18n
from bot.text.strings import text, thing_name
from engine import CARDS, FACILITY_ORDER, FIELDS, TERRITORIES

RULE_TOPICS: tuple[str, ...] = (
    *FACILITY_ORDER,
    "bay",
    *TERRITORIES,
    *CARDS,
    *FIELDS,
    "turn",
    "notation",
)


# Topics that gather others: with nothing typed, Discord lists 25 choices, fewer than the
# topics; a turn, the notation, each facility and these three groups are all of them.
RULE_GROUPS: dict[str, tuple[str, ...]] = {
    "territories": tuple(TERRITORIES),
    "cards": tuple(CARDS),
    "fields": tuple(FIELDS),
}
FIRST_LISTED: tuple[str, ...] = ("turn", "notation", *FACILITY_ORDER, "bay", *RULE_GROUPS)


def topic_name(topic: str, locale: str = "en") -> str:
    if topic in ("turn", "notation", *RULE_GROUPS):
        return text(f"rules.topic.{topic}", locale)
    return thing_name(topic, locale)


def topic_text(topic: str, locale: str = "en") -> str:
    """A rules topic's text; a group's is each of its topics' in full, or, where that is
    longer than a message, each one's name and power in one clause and how to ask for
    one of them."""
    group = RULE_GROUPS.get(topic)
    if group is None:
        return text(f"rules.{topic}", locale)
    whole = "\n".join("• " + text(f"rules.{t}", locale) for t in group)
    if len(whole) <= 1800:
        return whole
    lines = [
        "• " + text("a11y.power", locale, {"card": t, "power": text(f"a11y.brief.{t}", locale)})
        for t in group
    ]
    return "\n".join([*lines, text("rules.group_more", locale)])


def topic_answer(topic: str, locale: str = "en") -> str:
    """/af rules' answer: the topic's name in bold over its text."""
    return f"**{topic_name(topic, locale)}**\n{topic_text(topic, locale)}"


def folded(words: str) -> str:
    """Text compared without case, extra spaces, quotes or the ё/е difference."""
    return " ".join(words.casefold().replace("ё", "е").strip("«»\"'“”„ ").split())


def find_topic(typed: str, locale: str = "en") -> str | None:
    """The rules topic named ``typed``: its id, or its name in any language ("Лунная шахта",
    "Lunar Mine"), or else the only topic whose name in the member's language (then in any
    language) contains it."""
    key = folded(typed)
    if not key:
        return None
    topics = (*RULE_TOPICS, *RULE_GROUPS)
    if key in topics:
        return key
    languages = (locale, *i18n.languages())
    for language in languages:
        for topic in topics:
            if folded(topic_name(topic, language)) == key:
                return topic
    for language in languages:
        found = [t for t in RULE_TOPICS if key in folded(topic_name(t, language))]
        if found:
            return found[0]
    return None


__all__ = [
    "FIRST_LISTED",
    "RULE_GROUPS",
    "RULE_TOPICS",
    "find_topic",
    "folded",
    "topic_answer",
    "topic_name",
    "topic_text",
]

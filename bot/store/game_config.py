"""A game's config as one validated value: the rule variants the engine is set up with,
the turn clock, and whether it is a guided first game. Stored as JSON in the ``config``
column of the games table and passed whole from the lobby to the engine, so a new variant
needs a field here (and the engine's option), never a new column.

The JSON is checked where it is read (``GameSettings.from_json``): the variants
strictly (booleans, no unknown name: a game must never be replayed under other rules
than it was played with), the clock as it always was (``ClockSettings.from_data``:
unknown keys are ignored, a broken clock falls back to the defaults).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields, replace
from typing import Final

from pydantic import ConfigDict, TypeAdapter, ValidationError, with_config

from bot.store.clock_settings import DEFAULT_CLOCK, ClockSettings
from engine import GameConfig


class ConfigError(ValueError):
    """A stored config that cannot be read."""


@with_config(ConfigDict(extra="forbid", strict=True))
@dataclass(frozen=True, slots=True)
class Variants:
    """The engine's options of a game besides its number of players (``engine.GameConfig``
    names them the same: a test holds the two to the same fields)."""

    long_game: bool = False
    mind_control_helm: bool = False
    finite_supply: bool = False


_VARIANTS: Final = TypeAdapter(Variants)


@dataclass(frozen=True, slots=True)
class GameSettings:
    """A game's config: its rule variants and its turn clock (checked when built)."""

    variants: Variants = Variants()
    clock: ClockSettings = DEFAULT_CLOCK
    # A guided first game (``/af learn``, bot.play.tutor): scripted dice and deck, lessons,
    # never counted in stats or ratings.
    tutorial: bool = False

    def __post_init__(self) -> None:
        self.clock.checked()

    def engine(self, players: int) -> GameConfig:
        """The engine's config of the game with ``players`` seats."""
        return GameConfig(players=players, **asdict(self.variants))

    def with_clock(self, clock: ClockSettings) -> GameSettings:
        return replace(self, clock=clock)

    def to_json(self) -> str:
        data: dict[str, object] = {"variants": asdict(self.variants), "clock": asdict(self.clock)}
        if self.tutorial:
            data["tutorial"] = True
        return json.dumps(data, sort_keys=True)

    @classmethod
    def from_json(cls, raw: str | None) -> GameSettings:
        """The config stored as JSON (None or ``{}``: the defaults); ConfigError if its
        variants cannot be read (see the module docstring)."""
        try:
            data = json.loads(raw) if raw else {}
            if not isinstance(data, dict) or set(data) - {f.name for f in fields(cls)}:
                raise ConfigError(f"not a game config: {raw!r}")
            variants = _VARIANTS.validate_json(json.dumps(data.get("variants", {})))
        except (ValueError, ValidationError) as e:
            raise ConfigError(f"the game config {raw!r} cannot be read: {e}") from e
        tutorial = data.get("tutorial", False)
        if not isinstance(tutorial, bool):
            raise ConfigError(f"the game config {raw!r} cannot be read: tutorial {tutorial!r}")
        return cls(variants, ClockSettings.from_data(data.get("clock")), tutorial)


DEFAULT_SETTINGS: Final = GameSettings()


__all__ = ["DEFAULT_SETTINGS", "ConfigError", "GameSettings", "Variants"]

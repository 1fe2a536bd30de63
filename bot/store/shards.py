"""Which Discord servers this process serves: its shards (``SHARD_COUNT``, ``SHARD_IDS``).

Discord sends a server's events to shard ``(guild_id >> 22) % shard_count``. A process
started with some shards answers the interactions of their servers (discord.py's
``AutoShardedBot``) and does the background work — reminders, timeouts, AI turns,
resuming after a restart — only for games in those servers, so several processes
share one database without doing each other's work.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Shards:
    """``count`` shards in all, of which this process runs ``ids``."""

    count: int = 1
    ids: frozenset[int] = frozenset({0})

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError("the shard count must be at least 1")
        if not self.ids or any(not 0 <= i < self.count for i in self.ids):
            raise ValueError(f"shard ids must be between 0 and {self.count - 1}")

    @property
    def all(self) -> bool:
        """Whether this process serves every server."""
        return len(self.ids) == self.count

    def shard_of(self, guild_id: int | None) -> int:
        """Discord's shard of a server (direct messages, with no server, go to shard 0)."""
        return ((guild_id or 0) >> 22) % self.count

    def owns(self, guild_id: int | None) -> bool:
        return self.all or self.shard_of(guild_id) in self.ids


ALL = Shards()


def parse_shard_ids(text: str, count: int) -> frozenset[int]:
    """``"0-3"``, ``"1"``, ``"0,2,5-7"`` as a set of shard ids (ValueError if malformed)."""
    ids: set[int] = set()
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        low, dash, high = part.partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise ValueError(f"not a shard id or range: {part!r}")
        first, last = int(low), int(high) if dash else int(low)
        if first > last:
            raise ValueError(f"empty shard range: {part!r}")
        ids.update(range(first, last + 1))
    if not ids:
        raise ValueError("no shard ids given")
    bad = sorted(i for i in ids if i >= count)
    if bad:
        raise ValueError(f"shard ids {bad} are not below SHARD_COUNT ({count})")
    return frozenset(ids)


__all__ = ["ALL", "Shards", "parse_shard_ids"]

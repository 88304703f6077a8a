"""Which servers (guilds) a bot process serves when the bot runs as several processes.

``DINGIR_SHARDS=0-3/8`` makes a process serve shards 0 to 3 of 8; a guild belongs to the
shard Discord gives it, ``(guild_id >> 22) % count``. A game with no guild (a test, a
direct message) belongs to shard 0. Without the setting one process serves them all
(:data:`ALL`, one shard).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

GUILD_SHIFT = 22
"""A snowflake's bits below its timestamp, which Discord's shard formula drops."""


def shard_of(guild_id: int | None, count: int) -> int:
    """The shard (of ``count``) that serves ``guild_id`` (shard 0 for no guild)."""
    return ((guild_id or 0) >> GUILD_SHIFT) % count


@dataclass(frozen=True)
class Shards:
    """The shards ``ids`` (of ``count``) that this process serves."""

    ids: tuple[int, ...]
    count: int

    def serves(self, guild_id: int | None) -> bool:
        """Whether the games of ``guild_id`` are this process's."""
        return shard_of(guild_id, self.count) in self.ids

    def sql(self, column: str = "guild_id") -> str:
        """A condition on ``column`` (``AND ...``, or nothing for one shard of one) that
        keeps the rows of this process's guilds; SQLite and PostgreSQL alike."""
        if self.count == 1:
            return ""
        ids = ", ".join(map(str, self.ids))
        return f" AND ((COALESCE({column}, 0) >> {GUILD_SHIFT}) % {self.count}) IN ({ids})"

    def __str__(self) -> str:
        first, last = self.ids[0], self.ids[-1]
        return f"{first}/{self.count}" if first == last else f"{first}-{last}/{self.count}"


ALL = Shards((0,), 1)
"""One process for every guild."""


def parse(text: str) -> Shards:
    """``"0-3/8"`` (shards 0 to 3 of 8) or ``"2/8"``; raises ValueError saying what is
    wrong."""
    found = re.fullmatch(r"\s*(\d+)(?:\s*-\s*(\d+))?\s*/\s*(\d+)\s*", text, re.ASCII)
    if found is None:
        raise ValueError("is not a range of shards, like 0-3/8 (shards 0 to 3 of 8) or 2/8")
    first, count = int(found[1]), int(found[3])
    last = int(found[2]) if found[2] is not None else first
    if count < 1 or not first <= last < count:
        raise ValueError(f"needs 0 <= first <= last < count (shards are 0 to {count - 1})"
                         if count else "needs at least one shard")
    return Shards(tuple(range(first, last + 1)), count)
